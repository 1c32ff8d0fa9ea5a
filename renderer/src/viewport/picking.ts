/**
 * Which bone a click in the viewport means. The skeleton overlay's gizmos win (they are drawn on top of
 * the mesh); otherwise the skinned mesh under the cursor picks the bone that dominates the hit triangle:
 * the sum of the skin weights of its three vertices, per joint, and the largest sum wins.
 */
import type { Intersection, Object3D, SkinnedMesh } from 'three';

export function boneFromIntersections(hits: readonly Intersection[], boneObjects: readonly Object3D[], names: readonly string[]): string | null {
  const gizmo = hits.find((h) => typeof h.object.userData.bone === 'string' && h.object.visible);
  if (gizmo) return gizmo.object.userData.bone as string;
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
