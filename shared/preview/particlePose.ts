/**
 * Reading particle frames on the main thread (the recording of particleEngine.ts, mirrored by the client):
 * the skinned creature's bone world poses, and picking a bone under a ray.
 *
 * Skinning: each skeleton bone has a particle bone of the same name (particleSceneFromRig /
 * particleSceneFromSkeleton). The particle bone's pose P (centre, +Y along head → tip, X toward its
 * orientation particle) is not the skeleton bone's frame W, so the rest pose fixes the offset once:
 *   O = P₀⁻¹ · W₀   (rest),   W(t) = P(t) · O.
 * A skeleton bone without a particle bone keeps its rest placement under its parent.
 */
import { createParticleSimulation, type ParticleSimulation } from '../physics/particles';
import { boneRestWorld, orderBones } from '../rig';
import { quatConj, quatMul, quatRotate, type Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { HostLayout } from './protocol';
import type { ParticleLayout } from './particleEngine';

export type ParticleHostLayout = HostLayout & { particles: ParticleLayout };

export class ParticlePoser {
  /** Skeleton bones, parents first (the order writeBoneWorld writes). */
  readonly boneNames: string[];
  readonly info: ParticleLayout;
  private readonly sim: ParticleSimulation;
  /** Per skeleton bone: its particle bone (−1: none) and parent (skeleton index, −1: root). */
  private readonly particleBone: Int32Array;
  private readonly parent: Int32Array;
  /** Per skeleton bone: O (particle bone → skeleton bone) or, without a particle bone, its rest transform
   *  relative to its parent; 7 numbers each (position, quaternion). */
  private readonly offset: Float64Array;

  constructor(layout: ParticleHostLayout) {
    this.info = layout.particles;
    this.sim = createParticleSimulation(layout.particles.scene);
    const bones = orderBones(layout.rig.skeleton.bones).ordered;
    const rest = boneRestWorld(bones);
    this.boneNames = bones.map((b) => b.name);
    const B = bones.length;
    this.particleBone = new Int32Array(B);
    this.parent = new Int32Array(B);
    this.offset = new Float64Array(7 * B);
    const restPoses = new Float64Array(7 * this.info.boneNames.length);
    this.sim.writeBonePoses(restPoses);
    bones.forEach((b, i) => {
      const w = rest.get(b.name)!;
      const k = this.info.boneNames.indexOf(b.name);
      this.particleBone[i] = k;
      this.parent[i] = b.parent === null ? -1 : this.boneNames.indexOf(b.parent);
      let frame: { p: Vec3; q: Quat } | null = null;
      if (k >= 0) frame = { p: [restPoses[7 * k]!, restPoses[7 * k + 1]!, restPoses[7 * k + 2]!], q: [restPoses[7 * k + 3]!, restPoses[7 * k + 4]!, restPoses[7 * k + 5]!, restPoses[7 * k + 6]!] };
      else if (b.parent !== null && rest.get(b.parent)) { const pw = rest.get(b.parent)!; frame = { p: pw.position, q: pw.rotation }; }
      const p: Vec3 = frame ? relative(frame, w.position) : [w.position[0], w.position[1], w.position[2]];
      const q: Quat = frame ? quatMul(quatConj(frame.q), w.rotation) : [...w.rotation];
      this.offset.set(p, 7 * i); this.offset.set(q, 7 * i + 3);
    });
  }

  /** Skeleton bone world poses of a flat particle frame into out (7 per bone, boneNames order). */
  writeBoneWorld(frame: Float64Array, out: Float64Array): void {
    const o = this.offset, poses = this.info.poses;
    for (let i = 0; i < this.boneNames.length; i++) {
      const k = this.particleBone[i]!, par = this.parent[i]!;
      // The frame this bone's offset hangs from: its particle bone, else its parent's pose just written, else the world.
      let p: Vec3 = [0, 0, 0], q: Quat = [0, 0, 0, 1];
      if (k >= 0) { const b = poses + 7 * k; p = [frame[b]!, frame[b + 1]!, frame[b + 2]!]; q = [frame[b + 3]!, frame[b + 4]!, frame[b + 5]!, frame[b + 6]!]; }
      else if (par >= 0) { p = [out[7 * par]!, out[7 * par + 1]!, out[7 * par + 2]!]; q = [out[7 * par + 3]!, out[7 * par + 4]!, out[7 * par + 5]!, out[7 * par + 6]!]; }
      const r = quatRotate(q, [o[7 * i]!, o[7 * i + 1]!, o[7 * i + 2]!]);
      const w = quatMul(q, [o[7 * i + 3]!, o[7 * i + 4]!, o[7 * i + 5]!, o[7 * i + 6]!]);
      out[7 * i] = p[0] + r[0]; out[7 * i + 1] = p[1] + r[1]; out[7 * i + 2] = p[2] + r[2];
      out[7 * i + 3] = w[0]; out[7 * i + 4] = w[1]; out[7 * i + 5] = w[2]; out[7 * i + 6] = w[3];
    }
  }

  /** The bone capsule a ray (origin, unit direction) hits first with the particles where `frame` has them. */
  pick(frame: Float64Array, origin: readonly number[], direction: readonly number[], maxDistance: number): { body: string; point: [number, number, number]; distance: number } | null {
    const x = this.positions(frame);
    this.sim.restore({ kind: 'marionette-particle-snapshot', time: frame[0]!, x, x0: x, nextImpulse: 0 });
    const hit = this.sim.pick([origin[0]!, origin[1]!, origin[2]!], [direction[0]!, direction[1]!, direction[2]!], maxDistance);
    return hit ? { body: hit.bone, point: [hit.point[0], hit.point[1], hit.point[2]], distance: hit.distance } : null;
  }

  positions(frame: Float64Array): Float64Array {
    return frame.subarray(this.info.positions, this.info.positions + 3 * this.info.particleNames.length);
  }

  /** Midpoint of a particle bone in a frame (m), e.g. where a test clicks. */
  boneCentre(frame: Float64Array, bone: string): [number, number, number] | null {
    const k = this.info.boneNames.indexOf(bone);
    if (k < 0) return null;
    const b = this.info.poses + 7 * k;
    return [frame[b]!, frame[b + 1]!, frame[b + 2]!];
  }
}

const relative = (f: { p: Vec3; q: Quat }, x: readonly number[]): Vec3 =>
  quatRotate(quatConj(f.q), [x[0]! - f.p[0], x[1]! - f.p[1], x[2]! - f.p[2]]);

const posers = new WeakMap<HostLayout, ParticlePoser>();

/** The poser of a reset layout (built once per layout), or null when the layout is not a particle one. */
export function particlePoser(layout: HostLayout | null): ParticlePoser | null {
  if (!layout?.particles) return null;
  let p = posers.get(layout);
  if (!p) { p = new ParticlePoser(layout as ParticleHostLayout); posers.set(layout, p); }
  return p;
}
