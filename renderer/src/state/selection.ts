/**
 * What a selection or hover points at, compared by identity: kind + name (+ shape index). Bodies and joints
 * are usually named after bones (the generator names a body after its bone and a joint after its child
 * body), so comparing names alone mistakes the bone "forearm" for the body "forearm".
 */
import type { Selection } from './store';

/** A stable key for a selection target: "bone:forearm", "body:forearm", "shape:forearm#1", "joint:elbow". */
export function selectionKey(s: Selection): string | null {
  if (!s) return null;
  return s.kind === 'shape' ? `shape:${s.name}#${s.index}` : `${s.kind}:${s.name}`;
}

/** Whether two selections point at the same thing (both null counts as the same). */
export const sameTarget = (a: Selection, b: Selection): boolean => selectionKey(a) === selectionKey(b);

/** The bone a selection names, or null when it is a body, shape or joint (whatever their names). */
export const selectedBoneName = (s: Selection): string | null => (s?.kind === 'bone' ? s.name : null);
