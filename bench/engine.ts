/**
 * What the benchmark needs from a physics engine, and the engine-independent measurements
 * (joint drift, head height) computed from the poses an engine reports.
 */
import type { Quat } from '../shared/math/quat';
import type { Vec3 } from '../shared/math/vec3';
import type { BenchScene } from './scene';

/** marionette: the rigid World; articulated: Marionette's ArticulatedWorld (the rig's "solver": "articulated"). */
export type EngineName = 'marionette' | 'articulated' | 'rapier' | 'jolt' | 'mujoco';
export const ENGINE_NAMES: readonly EngineName[] = ['marionette', 'articulated', 'rapier', 'jolt', 'mujoco'];

/** One engine's world built from a BenchScene. Bodies are addressed by their index in scene.bodies. */
export interface BenchWorld {
  readonly engine: EngineName;
  /** The engine's solver settings, as used (its defaults), in one line. */
  readonly settings: string;
  /** Advance by scene.dt. */
  step(): void;
  /** World position of the body origin (m) and its rotation [x, y, z, w]. */
  getPose(body: number, outPosition: Vec3, outRotation: Quat): void;
  /** Mass the engine ended up with (kg). */
  getMass(body: number): number;
  /** True when the engine currently has contact points between the two bodies. */
  inContact(bodyA: number, bodyB: number): boolean;
  /** Constraint rows × velocity iterations × substeps of the last step, when the engine reports it. */
  rowIterations(): number | null;
  /** Free engine memory; the world is unusable afterwards. */
  dispose(): void;
}

export interface BenchEngine {
  readonly name: EngineName;
  create(scene: BenchScene): BenchWorld;
  /** Whether the engine runs this scene in a benchmark run (default: every scene). */
  supports?(scene: BenchScene): boolean;
}

/**
 * Rotation whose local X, Y, Z axes are `x`, `y` and x × y (unit, perpendicular inputs): the joint frame
 * of a ball joint (X = twist, Y = plane axis) or a hinge (X = hinge axis, Y = normal axis).
 * Shepperd's method on the matrix with columns X, Y, Z.
 */
export function frameRotation(x: readonly number[], y: readonly number[]): Quat {
  const z = [x[1]! * y[2]! - x[2]! * y[1]!, x[2]! * y[0]! - x[0]! * y[2]!, x[0]! * y[1]! - x[1]! * y[0]!];
  // m[row][col]: columns are the frame axes.
  const m00 = x[0]!, m10 = x[1]!, m20 = x[2]!;
  const m01 = y[0]!, m11 = y[1]!, m21 = y[2]!;
  const m02 = z[0]!, m12 = z[1]!, m22 = z[2]!;
  const trace = m00 + m11 + m22;
  let q: Quat;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s];
  }
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** p + q·v (rotate v by unit quaternion q, then translate), written into out. */
function transformPointInto(p: Vec3, q: Quat, v: readonly number[], out: Vec3): Vec3 {
  const [qx, qy, qz, qw] = q;
  const vx = v[0]!, vy = v[1]!, vz = v[2]!;
  // t = 2 q×v; v' = v + w t + q×t
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[0] = p[0] + vx + qw * tx + (qy * tz - qz * ty);
  out[1] = p[1] + vy + qw * ty + (qz * tx - qx * tz);
  out[2] = p[2] + vz + qw * tz + (qx * ty - qy * tx);
  return out;
}

export interface Drift { meanM: number; maxM: number }

/**
 * Joint drift: for every joint, the distance (m) between its anchor carried by body A and by body B, in
 * world. Zero for a perfectly solved joint. Returns null for a scene without joints, NaN figures when a
 * pose is not finite.
 */
export function measureDrift(world: BenchWorld, scene: BenchScene): Drift | null {
  if (scene.joints.length === 0) return null;
  const pa: Vec3 = [0, 0, 0], pb: Vec3 = [0, 0, 0];
  const qa: Quat = [0, 0, 0, 1], qb: Quat = [0, 0, 0, 1];
  const wa: Vec3 = [0, 0, 0], wb: Vec3 = [0, 0, 0];
  let sum = 0, max = 0;
  for (const joint of scene.joints) {
    world.getPose(joint.bodyA, pa, qa);
    world.getPose(joint.bodyB, pb, qb);
    transformPointInto(pa, qa, joint.localAnchorA, wa);
    transformPointInto(pb, qb, joint.localAnchorB, wb);
    const d = Math.hypot(wa[0] - wb[0], wa[1] - wb[1], wa[2] - wb[2]);
    // A blown-up world has non-finite poses: report NaN rather than the largest finite separation.
    if (!Number.isFinite(d)) return { meanM: NaN, maxM: NaN };
    sum += d;
    if (d > max) max = d;
  }
  return { meanM: sum / scene.joints.length, maxM: max };
}
