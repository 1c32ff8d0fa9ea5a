/**
 * Pointer handlers that turn viewport hits into bone selection and hover. Mounted on every pickable layer
 * (the creature mesh, the skeleton gizmos); whichever receives the event first decides from *all* hits
 * under the cursor and stops propagation, so the result is the same wherever the click lands.
 * A click on a drawn body never reaches here (authoring/viewportPicking.ts takes it first); hover follows
 * the same priority, so what lights up under the cursor is what a click there selects.
 */
import type { ThreeEvent } from '@react-three/fiber';
import { clickEndsDrag } from './useDragGesture';
import type { Object3D } from 'three';
import { hover, select } from '../state/editor';
import { useEditor, type Selection } from '../state/store';
import { pickBodyOnRay } from '../authoring/bodyPicking';
import { boneFromIntersections, boneGizmoHit, isDrawn } from './picking';

const sceneOf = (o: Object3D): Object3D => {
  let root = o;
  while (root.parent) root = root.parent;
  return root;
};

function pick(e: ThreeEvent<MouseEvent | PointerEvent>): Selection {
  const creature = useEditor.getState().creature;
  if (!creature) return null;
  const names = creature.skeleton.bones.map((b) => b.name);
  const hits = e.intersections.filter((h) => isDrawn(h.object));
  const name = boneFromIntersections(hits, creature.display.boneObjects, names);
  return name ? { kind: 'bone', name } : null;
}

/** Under the cursor for hover: a skeleton gizmo's bone, else a drawn body's shape, else the mesh's bone. */
function pickHover(e: ThreeEvent<PointerEvent>): Selection {
  if (!boneGizmoHit(e.intersections)) {
    const body = pickBodyOnRay(sceneOf(e.eventObject), e.camera, e.ray);
    if (body) return { kind: 'shape', name: body.body, index: body.shape };
  }
  return pick(e);
}

export const bonePickingHandlers = {
  onClick(e: ThreeEvent<MouseEvent>) {
    e.stopPropagation();
    if (clickEndsDrag()) return; // the release of a gizmo drag, not a pick
    select(pick(e));
  },
  onPointerMove(e: ThreeEvent<PointerEvent>) {
    e.stopPropagation();
    hover(pickHover(e));
  },
  onPointerOut() {
    hover(null);
  },
};
