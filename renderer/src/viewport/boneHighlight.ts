/**
 * Which skeleton bones the viewport highlights for the current selection and hover. Bones, bodies and
 * joints have separate name spaces that often coincide (the generator names a body after its bone and a
 * joint after its child body), so the selection's kind decides, never its name alone:
 *  - a bone selected → that bone in the selection colour;
 *  - a body (or one of its shapes) selected → the body's bone in the secondary colour ("this body rides
 *    on that bone"), no bone counts as selected;
 *  - a joint selected → no bone;
 *  - hover highlights only a hovered bone.
 */
import type { Selection } from '../state/store';
import type { RigDocument } from '../../../shared/rig';

export interface BoneHighlight {
  selected: string | null;
  /** The selected body's bone, drawn in the secondary colour. */
  secondary: string | null;
  hovered: string | null;
}

export function boneHighlight(selection: Selection, hover: Selection, rig: RigDocument | null): BoneHighlight {
  const selected = selection?.kind === 'bone' ? selection.name : null;
  const body = selection?.kind === 'body' || selection?.kind === 'shape' ? selection.name : null;
  const secondary = body && rig ? rig.bodies.find((b) => b.name === body)?.bone ?? null : null;
  const hovered = hover?.kind === 'bone' ? hover.name : null;
  return { selected, secondary, hovered };
}
