/**
 * PD gains as natural frequency and damping ratio, converted with the bodies' inertia.
 *
 * A joint driven by τ = kp(θd − θ) − kv·θ̇ between two bodies behaves, about the joint axis n, like a
 * spring–damper on the effective inertia of the two bodies turning against each other:
 *   1/I_eff = nᵀ·I_A⁻¹·n + nᵀ·I_B⁻¹·n   (inertias about the joint anchor, world axes; a parent much heavier
 *   than the child gives I_eff ≈ I_B about the anchor — a pendulum),
 *   ω = 2π·f,  kp = I_eff·ω²,  kv = 2·ζ·I_eff·ω   and back   f = √(kp/I_eff)/2π,  ζ = kv / (2·√(kp·I_eff)).
 * Inertia about the anchor is the centroidal tensor shifted by the parallel-axis theorem:
 *   I_anchor = I_c + m·(|d|²·E − d·dᵀ), d = centroid − anchor.
 */
import { computeMassProperties } from '../physics/massProperties';
import type { ShapeDesc } from '../physics/types';
import { quatRotate, quatToMat3, type Quat } from '../math/quat';
import { normalize, sub, type ReadonlyVec3, type Vec3 } from '../math/vec3';
import { bodyRestWorld, boneRestWorld } from '../rig/restPose';
import type { RigBody, RigDocument, RigJoint } from '../rig/schema';

export interface PdGains { stiffness: number; damping: number }

export function pdGainsFromFrequency(frequencyHz: number, dampingRatio: number, effectiveInertia: number): PdGains {
  if (!(frequencyHz > 0 && Number.isFinite(frequencyHz))) throw new Error(`frequency must be > 0 Hz, got ${frequencyHz}`);
  if (!(dampingRatio >= 0 && Number.isFinite(dampingRatio))) throw new Error(`damping ratio must be ≥ 0, got ${dampingRatio}`);
  if (!(effectiveInertia > 0)) throw new Error(`effective inertia must be > 0 kg·m², got ${effectiveInertia}`);
  const w = 2 * Math.PI * frequencyHz;
  return { stiffness: effectiveInertia * w * w, damping: 2 * dampingRatio * effectiveInertia * w };
}

export function frequencyFromPdGains(gains: PdGains, effectiveInertia: number): { frequencyHz: number; dampingRatio: number } {
  if (!(effectiveInertia > 0)) throw new Error(`effective inertia must be > 0 kg·m², got ${effectiveInertia}`);
  if (!(gains.stiffness > 0)) return { frequencyHz: 0, dampingRatio: Infinity };
  return { frequencyHz: Math.sqrt(gains.stiffness / effectiveInertia) / (2 * Math.PI), dampingRatio: gains.damping / (2 * Math.sqrt(gains.stiffness * effectiveInertia)) };
}

/** World inertia tensor (row-major, kg·m²) of a body at rest about a world point. */
export function inertiaAboutPoint(body: RigBody, bodyRotation: Quat, bodyPosition: ReadonlyVec3, point: ReadonlyVec3): { mass: number; tensor: number[] } {
  const mp = computeMassProperties(body.shapes as readonly ShapeDesc[], body.mass !== null ? { mass: body.mass } : { density: body.density ?? 1000 });
  const R = quatToMat3(bodyRotation);
  // R·I·Rᵀ
  const I = mp.inertia, RI = new Array<number>(9).fill(0), W = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) RI[3 * i + j]! += R[3 * i + k]! * I[3 * k + j]!;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) W[3 * i + j]! += RI[3 * i + k]! * R[3 * j + k]!;
  const c = quatRotate(bodyRotation, mp.centroid);
  const d = sub([bodyPosition[0] + c[0], bodyPosition[1] + c[1], bodyPosition[2] + c[2]], point);
  const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) W[3 * i + j]! += mp.mass * ((i === j ? dd : 0) - d[i]! * d[j]!);
  return { mass: mp.mass, tensor: W };
}

const along = (I: readonly number[], n: Vec3) => {
  let s = 0;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) s += n[i]! * I[3 * i + j]! * n[j]!;
  return s;
};

/**
 * Effective inertia (kg·m²) of a joint about an axis (world, at rest): the hinge axis for a hinge; for a
 * ball joint the smaller of the two swing axes' values (frame Y, Z), the stiffest-feeling direction.
 * Static or kinematic parents count as infinitely heavy. A prismatic joint slides, so its value is the
 * effective MASS along the slide (kg, 1 / (1/mA + 1/mB)) and the gains it pairs with are N/m and N·s/m.
 */
export function jointEffectiveInertia(rig: RigDocument, joint: RigJoint, axis?: ReadonlyVec3): number {
  const rest = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
  const A = rig.bodies.find((b) => b.name === joint.bodyA), B = rig.bodies.find((b) => b.name === joint.bodyB);
  const ta = rest.get(joint.bodyA), tb = rest.get(joint.bodyB);
  if (!A || !B || !ta || !tb) throw new Error(`joint "${joint.name}": bodies "${joint.bodyA}" and "${joint.bodyB}" must both exist`);
  if (joint.type === 'prismatic') {
    const mA = inertiaAboutPoint(A, ta.rotation, ta.position, ta.position).mass, mB = inertiaAboutPoint(B, tb.rotation, tb.position, tb.position).mass;
    return 1 / ((A.type === 'dynamic' ? 1 / mA : 0) + 1 / mB);
  }
  const anchor = (() => { const p = quatRotate(tb.rotation, joint.frameB.position as Vec3); return [tb.position[0] + p[0], tb.position[1] + p[1], tb.position[2] + p[2]] as Vec3; })();
  const frameW = (k: Vec3) => normalize(quatRotate(tb.rotation, quatRotate(joint.frameB.rotation as Quat, k)));
  const axes = axis ? [normalize(axis)] : joint.type === 'ball' ? [frameW([0, 1, 0]), frameW([0, 0, 1])] : [frameW([1, 0, 0])];
  const IA = inertiaAboutPoint(A, ta.rotation, ta.position, anchor).tensor, IB = inertiaAboutPoint(B, tb.rotation, tb.position, anchor).tensor;
  const values = axes.map((n) => 1 / ((A.type === 'dynamic' ? 1 / along(IA, n) : 0) + 1 / along(IB, n)));
  return Math.min(...values);
}
