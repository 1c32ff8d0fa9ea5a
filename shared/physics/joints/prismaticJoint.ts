/**
 * Prismatic (slider) joint: 5 rows = an angular lock (3, as the fixed joint) + 2 linear rows keeping the
 * anchor separation d = p_B + r_B − p_A − r_A on frame A's X axis:
 *     Cᵢ = d·nᵢ (n₁ = y_A, n₂ = z_A),  J = [−nᵢ  −((r_A + d) × nᵢ)  nᵢ  r_B × nᵢ]
 * plus the offset limit and a 1-row motor along a = x_A with the same Jacobian form (force units: the
 * motor's maxTorque is read as a force limit in N, stiffness in N/m, damping in N·s/m).
 */
import { clampedDriveError } from '../driveTarget';
import type { StepContext } from '../stepContext';
import type { JointDesc } from '../types';
import { range } from '../validation';
import {
  AI, ANGLE, ERROR, FLAG_LIMIT, FLAGS, JA1, JA2, JB1, JB2, LA, LB, LC, LI, LIM_AXIS, LIM_C_HI, LIM_C_LO, LIM_HI,
  LIM_I_HI, LIM_I_LO, LIM_LO, LIM_MASS, LK, M_CLAMP, M_GAMMA, M_I, M_MASS, M_RHS, N1, N2, RA, RB, SJA, SJB, T_Q,
} from './jointLayout';
import type { JointTypeDef } from './jointType';
import { prepareRotationLock } from './fixedJoint';
import { activeMotorRows, clearMotorReport, prepareMotorRow } from './motor';
import { projectLock, projectSlide } from './positionProjection';
import {
  anchorSeparation, computeFrames, rotate, rotateFrom, solveAngularLock, storeMotorReport, warmStartAngularLock,
} from './rows';

/** u·I⁻¹·v for body i's world inverse inertia. */
function iq(ctx: StepContext, i: number, ux: number, uy: number, uz: number, vx: number, vy: number, vz: number): number {
  const I = ctx.bodies.invIw, o = 9 * i;
  return ux * (I[o]! * vx + I[o + 1]! * vy + I[o + 2]! * vz) + uy * (I[o + 3]! * vx + I[o + 4]! * vy + I[o + 5]! * vz)
    + uz * (I[o + 6]! * vx + I[o + 7]! * vy + I[o + 8]! * vz);
}

/** Apply λ along a linear row (n at J[no], angular parts at J[ao] for A and J[bo] for B). */
function applyLinearRow(ctx: StepContext, iA: number, iB: number, no: number, ao: number, bo: number, l: number): void {
  const J = ctx.joints, b = ctx.bodies, v = b.v, w = b.w, I = b.invIw;
  const mA = b.invMass[iA]! * l, mB = b.invMass[iB]! * l;
  const a3 = 3 * iA, b3 = 3 * iB, a9 = 9 * iA, b9 = 9 * iB;
  const nx = J[no]!, ny = J[no + 1]!, nz = J[no + 2]!;
  v[a3] = v[a3]! - mA * nx; v[a3 + 1] = v[a3 + 1]! - mA * ny; v[a3 + 2] = v[a3 + 2]! - mA * nz;
  v[b3] = v[b3]! + mB * nx; v[b3 + 1] = v[b3 + 1]! + mB * ny; v[b3 + 2] = v[b3 + 2]! + mB * nz;
  const ax = J[ao]! * l, ay = J[ao + 1]! * l, az = J[ao + 2]! * l;
  const bx = J[bo]! * l, by = J[bo + 1]! * l, bz = J[bo + 2]! * l;
  w[a3] = w[a3]! - (I[a9]! * ax + I[a9 + 1]! * ay + I[a9 + 2]! * az);
  w[a3 + 1] = w[a3 + 1]! - (I[a9 + 3]! * ax + I[a9 + 4]! * ay + I[a9 + 5]! * az);
  w[a3 + 2] = w[a3 + 2]! - (I[a9 + 6]! * ax + I[a9 + 7]! * ay + I[a9 + 8]! * az);
  w[b3] = w[b3]! + (I[b9]! * bx + I[b9 + 1]! * by + I[b9 + 2]! * bz);
  w[b3 + 1] = w[b3 + 1]! + (I[b9 + 3]! * bx + I[b9 + 4]! * by + I[b9 + 5]! * bz);
  w[b3 + 2] = w[b3 + 2]! + (I[b9 + 6]! * bx + I[b9 + 7]! * by + I[b9 + 8]! * bz);
}

function linearRowVelocity(ctx: StepContext, iA: number, iB: number, no: number, ao: number, bo: number): number {
  const J = ctx.joints, v = ctx.bodies.v, w = ctx.bodies.w, a3 = 3 * iA, b3 = 3 * iB;
  return J[no]! * (v[b3]! - v[a3]!) + J[no + 1]! * (v[b3 + 1]! - v[a3 + 1]!) + J[no + 2]! * (v[b3 + 2]! - v[a3 + 2]!)
    + J[bo]! * w[b3]! + J[bo + 1]! * w[b3 + 1]! + J[bo + 2]! * w[b3 + 2]!
    - J[ao]! * w[a3]! - J[ao + 1]! * w[a3 + 1]! - J[ao + 2]! * w[a3 + 2]!;
}

function setCross(J: Float64Array, out: number, x: number, y: number, z: number, nx: number, ny: number, nz: number): void {
  J[out] = y * nz - z * ny; J[out + 1] = z * nx - x * nz; J[out + 2] = x * ny - y * nx;
}

function rowK(ctx: StepContext, iA: number, iB: number, ao: number, bo: number, ao2: number, bo2: number, nn: number): number {
  const J = ctx.joints;
  return nn * (ctx.bodies.invMass[iA]! + ctx.bodies.invMass[iB]!)
    + iq(ctx, iA, J[ao]!, J[ao + 1]!, J[ao + 2]!, J[ao2]!, J[ao2 + 1]!, J[ao2 + 2]!)
    + iq(ctx, iB, J[bo]!, J[bo + 1]!, J[bo + 2]!, J[bo2]!, J[bo2 + 1]!, J[bo2 + 2]!);
}

function preparePrismatic(ctx: StepContext, o: number, iA: number, iB: number): number {
  const J = ctx.joints, b = ctx.bodies, p = b.p, tv = ctx.scratch.tv, qFA = ctx.scratch.qFA;
  computeFrames(ctx, o, iA, iB);
  prepareRotationLock(ctx, o, iA, iB);
  rotateFrom(tv, b.q, 4 * iA, J, o + LA);
  const rax = tv[0]!, ray = tv[1]!, raz = tv[2]!;
  rotateFrom(tv, b.q, 4 * iB, J, o + LB);
  const rbx = tv[0]!, rby = tv[1]!, rbz = tv[2]!;
  J[o + RA] = rax; J[o + RA + 1] = ray; J[o + RA + 2] = raz; J[o + RB] = rbx; J[o + RB + 1] = rby; J[o + RB + 2] = rbz;
  const dx = p[3 * iB]! + rbx - p[3 * iA]! - rax, dy = p[3 * iB + 1]! + rby - p[3 * iA + 1]! - ray, dz = p[3 * iB + 2]! + rbz - p[3 * iA + 2]! - raz;
  const sx = rax + dx, sy = ray + dy, sz = raz + dz;
  rotate(tv, qFA, 0, 1, 0, 0); J[o + LIM_AXIS] = tv[0]!; J[o + LIM_AXIS + 1] = tv[1]!; J[o + LIM_AXIS + 2] = tv[2]!;
  rotate(tv, qFA, 0, 0, 1, 0); J[o + N1] = tv[0]!; J[o + N1 + 1] = tv[1]!; J[o + N1 + 2] = tv[2]!;
  rotate(tv, qFA, 0, 0, 0, 1); J[o + N2] = tv[0]!; J[o + N2 + 1] = tv[1]!; J[o + N2 + 2] = tv[2]!;
  for (let k = 0; k < 3; k++) {
    const no = k === 0 ? LIM_AXIS : k === 1 ? N1 : N2, ao = k === 0 ? SJA : k === 1 ? JA1 : JA2, bo = k === 0 ? SJB : k === 1 ? JB1 : JB2;
    const nx = J[o + no]!, ny = J[o + no + 1]!, nz = J[o + no + 2]!;
    setCross(J, o + ao, sx, sy, sz, nx, ny, nz);
    setCross(J, o + bo, rbx, rby, rbz, nx, ny, nz);
  }
  const c1 = dx * J[o + N1]! + dy * J[o + N1 + 1]! + dz * J[o + N1 + 2]!;
  const c2 = dx * J[o + N2]! + dy * J[o + N2 + 1]! + dz * J[o + N2 + 2]!;
  J[o + LC] = c1; J[o + LC + 1] = c2;
  J[o + ERROR] = Math.sqrt(c1 * c1 + c2 * c2);
  const k11 = rowK(ctx, iA, iB, o + JA1, o + JB1, o + JA1, o + JB1, 1);
  const k12 = rowK(ctx, iA, iB, o + JA1, o + JB1, o + JA2, o + JB2, 0);
  const k22 = rowK(ctx, iA, iB, o + JA2, o + JB2, o + JA2, o + JB2, 1);
  const det = k11 * k22 - k12 * k12, s = Math.abs(det) > 1e-300 ? 1 / det : 0;
  J[o + LK] = k22 * s; J[o + LK + 1] = -k12 * s; J[o + LK + 2] = k11 * s;

  const offset = dx * J[o + LIM_AXIS]! + dy * J[o + LIM_AXIS + 1]! + dz * J[o + LIM_AXIS + 2]!;
  J[o + ANGLE] = offset;
  const kAxis = rowK(ctx, iA, iB, o + SJA, o + SJB, o + SJA, o + SJB, 1);
  const limited = J[o + FLAGS]! & FLAG_LIMIT;
  if (limited) {
    J[o + LIM_MASS] = kAxis > 0 ? 1 / kAxis : 0;
    J[o + LIM_C_LO] = offset - J[o + LIM_LO]!;
    J[o + LIM_C_HI] = J[o + LIM_HI]! - offset;
  }
  const motorRows = activeMotorRows(J, o, 1);
  if (motorRows > 0) {
    const motorIn = ctx.scratch.motorIn;
    // C = x − x̂, x̂ clamped into the limit (widened to x past a stop), as Jolt's SliderConstraint::SetTargetPosition.
    const C = offset - J[o + T_Q]!;
    motorIn[0] = limited ? clampedDriveError(offset, C, J[o + LIM_LO]!, J[o + LIM_HI]!) : C; motorIn[1] = kAxis; motorIn[3] = kAxis;
    // The drive's row assumes the bodies free to turn (kAxis counts the arms' angular terms), but the angular
    // lock holds their turn: along the slide they move as their masses alone, 1/(m_A⁻¹ + m_B⁻¹). A row whose K
    // is many times that is loaded like a light link (motor.ts), and gets the same compliance.
    const im = ctx.bodies.invMass, kLinear = im[iA]! + im[iB]!;
    const rowLoad = kLinear > 0 ? kAxis / kLinear : 0;
    if (rowLoad > motorIn[2]!) motorIn[2] = rowLoad;
    prepareMotorRow(ctx, o, 0);
  }
  return 5 + motorRows + (limited ? 2 : 0);
}

function warmStartPrismatic(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints;
  if (activeMotorRows(J, o, 1) > 0) {
    const max = J[o + M_CLAMP]! * ctx.h;
    const acc = Math.min(max, Math.max(-max, J[o + M_I]!));
    J[o + M_I] = acc;
    applyLinearRow(ctx, iA, iB, o + LIM_AXIS, o + SJA, o + SJB, acc);
  }
  if (J[o + FLAGS]! & FLAG_LIMIT) applyLinearRow(ctx, iA, iB, o + LIM_AXIS, o + SJA, o + SJB, J[o + LIM_I_LO]! - J[o + LIM_I_HI]!);
  warmStartAngularLock(ctx, o, iA, iB, 3);
  applyLinearRow(ctx, iA, iB, o + N1, o + JA1, o + JB1, J[o + LI]!);
  applyLinearRow(ctx, iA, iB, o + N2, o + JA2, o + JB2, J[o + LI + 1]!);
}

function solvePrismatic(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
  const J = ctx.joints;
  const axis = o + LIM_AXIS, ja = o + SJA, jb = o + SJB;
  if (activeMotorRows(J, o, 1) > 0) {
    const cdot = linearRowVelocity(ctx, iA, iB, axis, ja, jb);
    const old = J[o + M_I]!, max = J[o + M_CLAMP]! * ctx.h;
    let acc = old - J[o + M_MASS]! * (cdot - J[o + M_RHS]! + J[o + M_GAMMA]! * old);
    acc = acc > max ? max : acc < -max ? -max : acc;
    J[o + M_I] = acc;
    applyLinearRow(ctx, iA, iB, axis, ja, jb, acc - old);
  }
  if (J[o + FLAGS]! & FLAG_LIMIT) {
    const m = J[o + LIM_MASS]!, k = useBias ? ctx.beta * ctx.invH : 0;
    for (let side = 0; side < 2; side++) {
      const C = J[o + (side === 0 ? LIM_C_LO : LIM_C_HI)]!;
      const bias = C > 0 ? C * ctx.invH : Math.max(-ctx.maxBiasVelocity, k * C);
      const sign = side === 0 ? 1 : -1;
      const cdot = sign * linearRowVelocity(ctx, iA, iB, axis, ja, jb);
      const io = o + (side === 0 ? LIM_I_LO : LIM_I_HI);
      const old = J[io]!;
      const acc = Math.max(old - m * (cdot + bias), 0);
      J[io] = acc;
      applyLinearRow(ctx, iA, iB, axis, ja, jb, sign * (acc - old));
    }
  }
  solveAngularLock(ctx, o, iA, iB, 3, useBias);
  const k = useBias ? ctx.velocityBeta * ctx.invH : 0, mb = ctx.maxBiasVelocity;
  const c1 = linearRowVelocity(ctx, iA, iB, o + N1, o + JA1, o + JB1) + Math.min(mb, Math.max(-mb, k * J[o + LC]!));
  const c2 = linearRowVelocity(ctx, iA, iB, o + N2, o + JA2, o + JB2) + Math.min(mb, Math.max(-mb, k * J[o + LC + 1]!));
  const l1 = -(J[o + LK]! * c1 + J[o + LK + 1]! * c2), l2 = -(J[o + LK + 1]! * c1 + J[o + LK + 2]! * c2);
  J[o + LI] = J[o + LI]! + l1; J[o + LI + 1] = J[o + LI + 1]! + l2;
  applyLinearRow(ctx, iA, iB, o + N1, o + JA1, o + JB1, l1);
  applyLinearRow(ctx, iA, iB, o + N2, o + JA2, o + JB2, l2);
}

/** The projection (Jacobian at the current pose, no velocity change) in both correction modes. */
function projectPrismatic(ctx: StepContext, o: number, iA: number, iB: number): void {
  preparePrismatic(ctx, o, iA, iB); projectLock(ctx, o, iA, iB, 3);
  preparePrismatic(ctx, o, iA, iB); projectSlide(ctx, o, iA, iB);
}

/** Offset (m) of B's anchor along frame A's X at the current poses: d·x_A. */
function slideOffset(ctx: StepContext, o: number, iA: number, iB: number): number {
  const tv = ctx.scratch.tv, qFA = ctx.scratch.qFA;
  computeFrames(ctx, o, iA, iB);
  anchorSeparation(ctx, o, iA, iB);
  const d0 = tv[0]!, d1 = tv[1]!, d2 = tv[2]!;
  rotate(tv, qFA, 0, 1, 0, 0);
  let s = 0;
  s += d0 * tv[0]!; s += d1 * tv[1]!; s += d2 * tv[2]!;
  return s;
}

export const prismaticJoint: JointTypeDef<'prismatic'> = {
  name: 'prismatic',
  code: 3,
  freeAxes: ['tx'],
  motorRows: 1,
  motorTarget: 'scalar',
  impulses: [AI, AI + 1, AI + 2, LI, LI + 1, LIM_I_LO, LIM_I_HI, M_I, M_I + 1, M_I + 2],
  limitImpulses: [LIM_I_LO, LIM_I_HI],
  validate(desc: JointDesc, label: string): void {
    if (desc.type === 'prismatic') range(label, 'limit', desc.limit);
  },
  configure(J: Float64Array, o: number, desc: JointDesc): number {
    if (desc.type !== 'prismatic' || !desc.limit) return 0;
    J[o + LIM_LO] = desc.limit[0]; J[o + LIM_HI] = desc.limit[1];
    return FLAG_LIMIT;
  },
  init(): void { /* the offset is measured by prepare */ },
  prepare: preparePrismatic,
  warmStart: warmStartPrismatic,
  solve: solvePrismatic,
  project: projectPrismatic,
  correct(ctx: StepContext, o: number, iA: number, iB: number): void { projectPrismatic(ctx, o, iA, iB); },
  finish(ctx: StepContext, o: number): void {
    if (activeMotorRows(ctx.joints, o, 1) > 0) storeMotorReport(ctx, o, 1);
    else clearMotorReport(ctx.joints, o);
  },
  position: slideOffset,
  /** The distance of B's anchor from A's slide axis. */
  anchorError(ctx: StepContext, o: number, iA: number, iB: number): number {
    const tv = ctx.scratch.tv, qFA = ctx.scratch.qFA;
    computeFrames(ctx, o, iA, iB);
    anchorSeparation(ctx, o, iA, iB);
    const d0 = tv[0]!, d1 = tv[1]!, d2 = tv[2]!;
    rotate(tv, qFA, 0, 1, 0, 0);
    const ax0 = tv[0]!, ax1 = tv[1]!, ax2 = tv[2]!;
    const s = d0 * ax0 + d1 * ax1 + d2 * ax2;
    return Math.hypot(d0 - s * ax0, d1 - s * ax1, d2 - s * ax2);
  },
};
