/**
 * Pointer handlers that turn viewport hits into bone selection and hover. Mounted on every pickable layer
 * (the creature mesh, the skeleton gizmos); whichever receives the event first decides from *all* hits
 * under the cursor and stops propagation, so the result is the same wherever the click lands.
 */
import type { ThreeEvent } from '@react-three/fiber';
import { hover, select } from '../state/editor';
import { useEditor } from '../state/store';
import { boneFromIntersections, isDrawn } from './picking';

function pick(e: ThreeEvent<MouseEvent | PointerEvent>) {
  const creature = useEditor.getState().creature;
  if (!creature) return null;
  const names = creature.skeleton.bones.map((b) => b.name);
  const name = boneFromIntersections(e.intersections.filter((h) => isDrawn(h.object)), creature.display.boneObjects, names);
  return name ? { kind: 'bone' as const, name } : null;
}

export const bonePickingHandlers = {
  onClick(e: ThreeEvent<MouseEvent>) {
    e.stopPropagation();
    select(pick(e));
  },
  onPointerMove(e: ThreeEvent<PointerEvent>) {
    e.stopPropagation();
    hover(pick(e));
  },
  onPointerOut() {
    hover(null);
  },
};
