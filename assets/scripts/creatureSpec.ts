/** A generated creature before it becomes glTF: bones in world rest pose, skinned mesh parts, PBR
 *  materials and clips whose keys are rotations relative to the rest pose. */
import {
  quatConj, quatFromRotationVector, quatMul, quatRotate, sub,
  type Quat, type ReadonlyQuat, type ReadonlyVec3, type Vec3,
} from '../../shared/math';
import type { MeshPart } from './meshBuilder';

export interface BoneSpec {
  name: string;
  parent: string | null;
  /** Joint centre, world rest pose (m). */
  head: Vec3;
  /** World rest orientation; by our convention local +Y runs along the bone toward its child. */
  rotation: Quat;
}

export interface MaterialSpec { color: [number, number, number]; metallic: number; roughness: number }

/** A key: time (s) and, per animated bone, a rotation vector (axis·angle, rad) in the bone's own rest
 *  frame, applied after the rest rotation: local(t) = restLocal · exp(key). Translation keys (m) are
 *  offsets added to the rest translation, in the parent's frame. */
export interface ClipSpec {
  name: string;
  times: number[];
  rotations: Record<string, ReadonlyVec3[]>;
  translations?: Record<string, ReadonlyVec3[]>;
}

export interface CreatureSpec {
  name: string;
  bones: BoneSpec[];
  materials: Record<string, MaterialSpec>;
  parts: MeshPart[];
  clips: ClipSpec[];
}

export interface LocalRest { translation: Vec3; rotation: Quat }

/** Rest local transform of each bone relative to its parent (roots: relative to the scene). */
export function restLocals(bones: readonly BoneSpec[]): LocalRest[] {
  const byName = new Map(bones.map((b) => [b.name, b]));
  return bones.map((b) => {
    const p = b.parent === null ? undefined : byName.get(b.parent);
    if (b.parent !== null && !p) throw new Error(`bone ${b.name}: parent ${b.parent} not defined`);
    if (!p) return { translation: [...b.head] as Vec3, rotation: [...b.rotation] as Quat };
    const inv = quatConj(p.rotation);
    return { translation: quatRotate(inv, sub(b.head, p.head)), rotation: quatMul(inv, b.rotation) };
  });
}

export function keyRotation(rest: ReadonlyQuat, rotationVector: ReadonlyVec3): Quat {
  return quatMul(rest, quatFromRotationVector(rotationVector));
}
