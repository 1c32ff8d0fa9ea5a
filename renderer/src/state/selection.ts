/**
 * What a selection or hover points at, compared by identity: kind + name (+ shape index). Bodies and joints
 * are usually named after bones, so comparing names alone mistakes the bone "forearm" for the body
 * "forearm". The rules live with the headless editor (shared/editor/types.ts).
 */
export { selectionKey, sameTarget, selectedBoneName } from '../../../shared/editor';
