/**
 * Rest (bind) pose in model space: bone world transforms from the skeleton's parent-relative TRS, and body
 * world transforms = bone world · body offset. Used by validation (joint anchors must meet at rest) and by
 * the runtime (bodies are created at rest; bones without a body follow their parent rest-relatively).
 *
 * Scale: a parent's rest scale scales its children's translations (glTF TRS), but rotations compose without
 * it — exact for uniform scale, the usual case for skeletons; non-uniform bone scale shears in glTF and a
 * rigid body cannot follow a shear anyway.
 */
import { quatMul, quatNormalize, quatRotate, type Quat } from '../math/quat';
import { composeTransforms, type Transform } from '../math/transform';
import type { Vec3 } from '../math/vec3';
import type { Bone, RigBody } from './schema';

export interface BoneWorld extends Transform { scale: Vec3 }

/**
 * Bones ordered parents first. Bones whose parent is missing or that sit on a parent cycle are returned in
 * `unreachable` (validation reports them; the runtime never sees them because it only runs valid rigs).
 */
export function orderBones(bones: readonly Bone[]): { ordered: Bone[]; unreachable: Bone[] } {
  const children = new Map<string | null, Bone[]>();
  const names = new Set(bones.map((b) => b.name));
  for (const b of bones) {
    const key = b.parent !== null && names.has(b.parent) ? b.parent : b.parent === null ? null : undefined;
    if (key === undefined) continue; // dangling parent: unreachable
    const list = children.get(key) ?? [];
    list.push(b);
    children.set(key, list);
  }
  const ordered: Bone[] = [];
  const seen = new Set<string>();
  // Breadth-first from the roots; iterative, so a 100 000-bone chain cannot overflow the stack.
  const queue: Bone[] = [...(children.get(null) ?? [])];
  for (let i = 0; i < queue.length; i++) {
    const b = queue[i]!;
    if (seen.has(b.name)) continue;
    seen.add(b.name);
    ordered.push(b);
    for (const c of children.get(b.name) ?? []) queue.push(c);
  }
  return { ordered, unreachable: bones.filter((b) => !seen.has(b.name)) };
}

/** Model-space rest transform of every reachable bone. */
export function boneRestWorld(bones: readonly Bone[]): Map<string, BoneWorld> {
  const out = new Map<string, BoneWorld>();
  for (const b of orderBones(bones).ordered) {
    const t = b.rest.translation, r = quatNormalize(b.rest.rotation), s = b.rest.scale;
    const parent = b.parent === null ? undefined : out.get(b.parent);
    if (!parent) {
      out.set(b.name, { position: [t[0], t[1], t[2]], rotation: r, scale: [s[0], s[1], s[2]] });
      continue;
    }
    const scaled: Vec3 = [t[0] * parent.scale[0], t[1] * parent.scale[1], t[2] * parent.scale[2]];
    const p = quatRotate(parent.rotation, scaled);
    out.set(b.name, {
      position: [parent.position[0] + p[0], parent.position[1] + p[1], parent.position[2] + p[2]],
      rotation: quatNormalize(quatMul(parent.rotation, r)) as Quat,
      scale: [parent.scale[0] * s[0], parent.scale[1] * s[1], parent.scale[2] * s[2]],
    });
  }
  return out;
}

/** Model-space rest transform of every body whose bone is known: bone world · offset. */
export function bodyRestWorld(bodies: readonly RigBody[], bones: ReadonlyMap<string, BoneWorld>): Map<string, Transform> {
  const out = new Map<string, Transform>();
  for (const body of bodies) {
    const bone = bones.get(body.bone);
    if (!bone) continue;
    const t = composeTransforms(bone, { position: body.offset.position as Vec3, rotation: quatNormalize(body.offset.rotation) });
    out.set(body.name, { position: t.position, rotation: quatNormalize(t.rotation) });
  }
  return out;
}
