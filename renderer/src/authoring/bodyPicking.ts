/**
 * Which rig body a viewport click lands on. Pure three.js (no React, no store), so the rule is testable:
 *  - a joint-limit handle in front of the bodies takes the click (it has its own drag);
 *  - with `bonesFirst` (the Select tool) a drawn skeleton gizmo under the cursor wins over any body: the
 *    skeleton is drawn on top of everything, so clicking a joint sphere or bone stick means that bone, as in
 *    Unreal's Physics Asset Editor; the click is left to bone picking (viewport/picking.ts);
 *  - otherwise the nearest shape of a drawn body; with `hiddenBodies` (the Poke tool, which pokes the
 *    creature the user sees) also a body whose shapes are switched off in the view.
 */
import { Raycaster, Vector2, type Camera, type Intersection, type Object3D, type Ray } from 'three';
import { SKELETON_GIZMOS, boneGizmoHit, isDrawn } from '../viewport/picking';

export interface BodyHit { body: string; shape: number; point: [number, number, number]; ray: { origin: [number, number, number]; direction: [number, number, number] } }

export interface BodyPickOptions {
  /** A drawn skeleton gizmo under the cursor wins: the result is null and bone picking takes the click. */
  bonesFirst?: boolean;
  /** Bodies hit even while the bodies overlay is off (only the group's own switch is ignored). */
  hiddenBodies?: boolean;
}

/** The names of the rig layer's groups (RigLayer.tsx, JointLimits.tsx). */
const BODIES = 'bodies';
const LIMITS = 'limits';

const raycaster = new Raycaster();
const ndc = new Vector2();

/** Drawn, not counting `root`'s own visibility switch and its ancestors'. */
const drawnBelow = (o: Object3D, root: Object3D): boolean => {
  for (let p: Object3D | null = o; p && p !== root; p = p.parent) if (!p.visible) return false;
  return true;
};

/** The nearest body shape under a page point, or null (also null when a handle or, with bonesFirst, a bone gizmo is in front). */
export function pickBody(scene: Object3D, camera: Camera, el: Pick<HTMLElement, 'getBoundingClientRect'>, clientX: number, clientY: number, options: BodyPickOptions = {}): BodyHit | null {
  const rect = el.getBoundingClientRect();
  ndc.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  return pick(scene, options);
}

/** pickBody along a ray already cast from `camera` (a pointer event's ray). */
export function pickBodyOnRay(scene: Object3D, camera: Camera, ray: Ray, options: BodyPickOptions = {}): BodyHit | null {
  raycaster.ray.copy(ray);
  raycaster.camera = camera;
  return pick(scene, options);
}

function pick(scene: Object3D, options: BodyPickOptions): BodyHit | null {
  if (options.bonesFirst) {
    const skeleton = scene.getObjectByName(SKELETON_GIZMOS);
    if (skeleton && isDrawn(skeleton) && boneGizmoHit(raycaster.intersectObject(skeleton, true))) return null;
  }
  const bodies = scene.getObjectByName(BODIES);
  const limits = scene.getObjectByName(LIMITS);
  const hits: Intersection[] = [];
  if (limits && isDrawn(limits)) hits.push(...raycaster.intersectObject(limits, true).filter((h) => isDrawn(h.object)));
  if (bodies && (isDrawn(bodies) || (options.hiddenBodies && isDrawn(bodies.parent)))) {
    hits.push(...raycaster.intersectObject(bodies, true).filter((h) => drawnBelow(h.object, bodies)));
  }
  hits.sort((a, b) => a.distance - b.distance);
  const first = hits[0];
  if (!first || first.object.userData.limitHandle) return null;
  const hit = hits.find((h) => typeof h.object.userData.body === 'string');
  if (!hit) return null;
  const o = raycaster.ray.origin, d = raycaster.ray.direction;
  return {
    body: hit.object.userData.body as string,
    shape: hit.object.userData.shape as number,
    point: [hit.point.x, hit.point.y, hit.point.z],
    ray: { origin: [o.x, o.y, o.z], direction: [d.x, d.y, d.z] },
  };
}
