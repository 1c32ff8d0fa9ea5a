/**
 * Where each bone lies at rest: its world transform, children, the direction and length of the bone.
 *
 * A bone runs from its head (the node origin) toward its "main child": the child whose head lies closest
 * to the bone's local +Y (the glTF / Blender bone axis), ties broken by the child listed first. Length is
 * the distance to that child's head. An end bone (no children: head, hands, feet) runs along its local +Y
 * and gets its length from the vertices it owns (see generate.ts), or `fallbackLength` when it owns none.
 */
import { quatConj, quatRotate } from '../math/quat';
import { dot, length, normalize, sub, type Vec3 } from '../math/vec3';
import { boneRestWorld, orderBones, type BoneWorld } from '../rig/restPose';
import type { Bone } from '../rig/schema';

export interface BoneGeometry {
  name: string;
  parent: string | null;
  children: string[];
  world: BoneWorld;
  mainChild: string | null;
  /** Unit direction (world) from the head along the bone. */
  direction: Vec3;
  /** Distance (m) from the head to the main child's head; 0 for end bones. */
  length: number;
}

export function boneGeometry(bones: readonly Bone[]): Map<string, BoneGeometry> {
  const world = boneRestWorld(bones);
  const ordered = orderBones(bones).ordered;
  const children = new Map<string, string[]>(ordered.map((b) => [b.name, []]));
  for (const b of ordered) if (b.parent !== null) children.get(b.parent)?.push(b.name);
  const out = new Map<string, BoneGeometry>();
  for (const b of ordered) {
    const w = world.get(b.name)!;
    const localY = quatRotate(w.rotation, [0, 1, 0]);
    let best: string | null = null, bestCos = -Infinity;
    for (const c of children.get(b.name)!) {
      const d = sub(world.get(c)!.position, w.position);
      if (length(d) < 1e-6) continue; // a child at the same point says nothing about direction
      const cos = dot(normalize(d), localY);
      if (cos > bestCos + 1e-9) { bestCos = cos; best = c; }
    }
    const offset = best ? sub(world.get(best)!.position, w.position) : null;
    out.set(b.name, {
      name: b.name, parent: b.parent, children: children.get(b.name)!, world: w, mainChild: best,
      direction: offset ? normalize(offset) : normalize(localY), length: offset ? length(offset) : 0,
    });
  }
  return out;
}

/** A world direction expressed in a bone's frame. */
export const toBoneFrame = (g: BoneGeometry, v: Vec3): Vec3 => quatRotate(quatConj(g.world.rotation), v);
