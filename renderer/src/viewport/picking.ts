/**
 * Which bone a click in the viewport means. The skeleton overlay's gizmos win (they are drawn on top of
 * everything, depth test off, so a gizmo anywhere along the ray is what the user sees under the cursor);
 * otherwise the skinned mesh under the cursor picks the bone that dominates the hit triangle: the sum of
 * the skin weights of its three vertices, per joint, and the largest sum wins.
 *
 * The whole viewport's click priority, as in Unreal's Physics Asset Editor: a transform or limit handle >
 * a skeleton gizmo (joint sphere or bone stick) > a drawn body shape (authoring/bodyPicking.ts) > the mesh.
 */
import type { Intersection, Object3D, SkinnedMesh } from 'three';

/** Name of the skeleton overlay's group (skeletonOverlay.ts), so other layers can ray-test its gizmos. */
export const SKELETON_GIZMOS = 'skeleton-overlay';

/** Whether `o` and all its ancestors are drawn. */
export const isDrawn = (o: Object3D | null): boolean => {
  for (let p = o; p; p = p.parent) if (!p.visible) return false;
  return true;
};

/** The bone of the first drawn skeleton gizmo among `hits`, or null. */
export function boneGizmoHit(hits: readonly Intersection[]): string | null {
  const gizmo = hits.find((h) => typeof h.object.userData.bone === 'string' && isDrawn(h.object));
  return gizmo ? (gizmo.object.userData.bone as string) : null;
}

export function boneFromIntersections(hits: readonly Intersection[], boneObjects: readonly Object3D[], names: readonly string[]): string | null {
  const gizmo = boneGizmoHit(hits);
  if (gizmo) return gizmo;
  for (const h of hits) {
    const mesh = h.object as SkinnedMesh;
    if (!mesh.isSkinnedMesh || !h.face) continue;
    const skinIndex = mesh.geometry.attributes.skinIndex;
    const skinWeight = mesh.geometry.attributes.skinWeight;
    if (!skinIndex || !skinWeight) continue;
    const weights = new Map<number, number>();
    for (const v of [h.face.a, h.face.b, h.face.c]) {
      for (let k = 0; k < 4; k++) {
        const w = skinWeight.getComponent(v, k);
        if (w > 0) { const j = skinIndex.getComponent(v, k); weights.set(j, (weights.get(j) ?? 0) + w); }
      }
    }
    let best = -1;
    let bestW = 0;
    for (const [j, w] of weights) if (w > bestW) { best = j; bestW = w; }
    const boneObject = best >= 0 ? mesh.skeleton.bones[best] : undefined;
    const index = boneObject ? boneObjects.indexOf(boneObject) : -1;
    if (index >= 0) return names[index]!;
  }
  return null;
}
