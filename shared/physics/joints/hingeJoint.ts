/**
 * Hinge (revolute) joint: 5 rows = the point block (3) + 2 angular rows keeping frame B's X on frame A's X,
 *     C₁ = x_B·y_A, C₂ = x_B·z_A,   Ċᵢ = (ω_B − ω_A)·uᵢ with u₁ = x_B × y_A, u₂ = x_B × z_A,
 * plus the signed angle limit and the 1-row motor about x_A.
 *
 * The angle θ of B about x_A (measured from frame A's Y) is UNWRAPPED across steps: θ = θ_prev +
 * wrap(θ_raw − θ_prev), so a hinge going from 179° to 181° reads 181°, never −179°, and a limit at ±170°
 * is not confused with ∓190°. The motor uses the wrapped difference wrap(θ̂ − θ), the short way round, its
 * target clamped into the limit when the joint has one (driveTarget.ts clampedDriveError, as Jolt's
 * HingeConstraint::SetTargetAngle).
 */
import { wrapAngle } from '../../math/quat';
import { clampedDriveError } from '../driveTarget';
import type { JointScratch, StepContext } from '../stepContext';
import type { JointDesc } from '../types';
import { range } from '../validation';
import {
  AC, AI, AK, AX1, AX2, AX3, ANGLE, FLAG_LIMIT, FLAG_TORQUE_BALL, FLAGS, LIM_AXIS, LIM_C_HI, LIM_C_LO, LIM_HI, LIM_I_HI, LIM_I_LO, LIM_LO,
  LIM_MASS, M_CLAMP, M_GAMMA, M_I, M_MASS, M_RHS, MAXIS, PC, PI, PK, RA, RB, T_Q,
} from './jointLayout';
import type { JointTypeDef } from './jointType';
import { activeMotorRows, clearMotorReport, prepareAngularMotor } from './motor';
import { shakeLock, shakePoint } from './positionCorrection';
import { projectAngularStop, projectLock, projectPoint } from './positionProjection';
import {
  computeFrames, kickPoint, pointError, preparePoint, prepareAngularLimit, prepareAngularLock, rotate, storeMotorReport,
} from './rows';

/** Raw hinge angle of B relative to A about frame A's X, in (−π, π], from the current frames (scratch). */
export function rawHingeAngle(s: JointScratch): number {
  // relative rotation conj(qFA)·qFB: only its x and w parts are needed for the twist about X.
  const qFA = s.qFA, qFB = s.qFB;
  const ax = -qFA[0]!, ay = -qFA[1]!, az = -qFA[2]!, aw = qFA[3]!;
  const bx = qFB[0]!, by = qFB[1]!, bz = qFB[2]!, bw = qFB[3]!;
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  return wrapAngle(2 * Math.atan2(x, w));
}

/** The unwrapped hinge angle at the current frames (scratch): the raw angle taken continuously from the last
 *  prepared one (J[o + ANGLE]), so it passes ±π without a jump. */
function hingeAngle(J: Float64Array, o: number, s: JointScratch): number {
  const prev = J[o + ANGLE]!;
  return prev + wrapAngle(rawHingeAngle(s) - prev);
}

/** The 2 angular rows (axes, errors, 2×2 inverse K) from the current frames qFA, qFB. */
function prepareHingeLock(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, s = ctx.scratch, tv = s.tv, qFA = s.qFA, qFB = s.qFB;
  rotate(tv, qFB, 0, 1, 0, 0); const bx = tv[0]!, by = tv[1]!, bz = tv[2]!;
  rotate(tv, qFA, 0, 0, 1, 0); const yx = tv[0]!, yy = tv[1]!, yz = tv[2]!;
  rotate(tv, qFA, 0, 0, 0, 1); const zx = tv[0]!, zy = tv[1]!, zz = tv[2]!;
  J[o + AX1] = by * yz - bz * yy; J[o + AX1 + 1] = bz * yx - bx * yz; J[o + AX1 + 2] = bx * yy - by * yx;
  J[o + AX2] = by * zz - bz * zy; J[o + AX2 + 1] = bz * zx - bx * zz; J[o + AX2 + 2] = bx * zy - by * zx;
  J[o + AC] = bx * yx + by * yy + bz * yz;
  J[o + AC + 1] = bx * zx + by * zy + bz * zz;
  prepareAngularLock(ctx, o, iA, iB, 2);
}

/** The lock error (x_B·y_A, x_B·z_A) at the current poses into ctx.scratch.ce (as prepareHingeLock). */
function hingeLockError(ctx: StepContext, o: number, iA: number, iB: number): void {
  const s = ctx.scratch, tv = s.tv, qFA = s.qFA, qFB = s.qFB, ce = s.ce;
  computeFrames(ctx, o, iA, iB);
  rotate(tv, qFB, 0, 1, 0, 0); const bx = tv[0]!, by = tv[1]!, bz = tv[2]!;
  rotate(tv, qFA, 0, 0, 1, 0); ce[0] = bx * tv[0]! + by * tv[1]! + bz * tv[2]!;
  rotate(tv, qFA, 0, 0, 0, 1); ce[1] = bx * tv[0]! + by * tv[1]! + bz * tv[2]!;
  ce[2] = 0;
}

function prepareHinge(ctx: StepContext, o: number, iA: number, iB: number): number {
  const J = ctx.joints, s = ctx.scratch, tv = s.tv;
  computeFrames(ctx, o, iA, iB);
  preparePoint(ctx, o, iA, iB);
  prepareHingeLock(ctx, o, iA, iB);
  const theta = hingeAngle(J, o, s);
  J[o + ANGLE] = theta;
  rotate(tv, s.qFA, 0, 1, 0, 0);
  const limited = J[o + FLAGS]! & FLAG_LIMIT;
  if (limited) {
    J[o + LIM_AXIS] = tv[0]!; J[o + LIM_AXIS + 1] = tv[1]!; J[o + LIM_AXIS + 2] = tv[2]!;
    prepareAngularLimit(ctx, o, iA, iB);
  }
  const motorRows = activeMotorRows(J, o, 1);
  if (motorRows > 0) {
    J[o + MAXIS] = tv[0]!; J[o + MAXIS + 1] = tv[1]!; J[o + MAXIS + 2] = tv[2]!;
    // C = θ − θ̂, taken the short way: −wrap(θ̂ − θ); θ̂ clamped into the limit (widened to θ past a stop).
    const C = -wrapAngle(J[o + T_Q]! - theta);
    s.motorErr[0] = limited ? clampedDriveError(theta, C, J[o + LIM_LO]!, J[o + LIM_HI]!) : C;
    prepareAngularMotor(ctx, o, iA, iB, 1);
  }
  return 5 + motorRows + (limited ? 2 : 0);
}

/**
 * The warm start in one pass with both bodies' ω and world inverse inertias in locals, as solveHinge: motor
 * row (its carried impulse clamped to ±τmax·h), limit, the 2-row angular lock, point block (kickPoint), in that order and
 * with their arithmetic (bit for bit the row functions one after another).
 */
function warmStartHinge(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, bodies = ctx.bodies, w = bodies.w, I = bodies.invIw;
  const a3 = 3 * iA, b3 = 3 * iB, a = 9 * iA, b = 9 * iB;
  const a0 = I[a]!, a1 = I[a + 1]!, a2 = I[a + 2]!, a3_ = I[a + 3]!, a4 = I[a + 4]!, a5 = I[a + 5]!, a6 = I[a + 6]!, a7 = I[a + 7]!, a8 = I[a + 8]!;
  const b0 = I[b]!, b1 = I[b + 1]!, b2 = I[b + 2]!, b3_ = I[b + 3]!, b4 = I[b + 4]!, b5 = I[b + 5]!, b6 = I[b + 6]!, b7 = I[b + 7]!, b8 = I[b + 8]!;
  let wax = w[a3]!, way = w[a3 + 1]!, waz = w[a3 + 2]!, wbx = w[b3]!, wby = w[b3 + 1]!, wbz = w[b3 + 2]!;

  if (activeMotorRows(J, o, 1) > 0) {
    const maxImpulse = J[o + M_CLAMP]! * ctx.h;
    let acc = J[o + M_I]!;
    if (J[o + FLAGS]! & FLAG_TORQUE_BALL) {
      const n2 = 0 + acc * acc;
      if (n2 > maxImpulse * maxImpulse) acc *= maxImpulse / Math.sqrt(n2);
    }
    acc = acc > maxImpulse ? maxImpulse : acc < -maxImpulse ? -maxImpulse : acc;
    J[o + M_I] = acc;
    if (acc !== 0) {
      const x = J[o + MAXIS]! * acc, y = J[o + MAXIS + 1]! * acc, z = J[o + MAXIS + 2]! * acc;
      wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
      wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
    }
  }
  if (J[o + FLAGS]! & FLAG_LIMIT) {
    const l = J[o + LIM_I_LO]! - J[o + LIM_I_HI]!;
    const x = J[o + LIM_AXIS]! * l, y = J[o + LIM_AXIS + 1]! * l, z = J[o + LIM_AXIS + 2]! * l;
    wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
    wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
  }
  {
    // Angular lock (rows.ts warmStartAngularLock with 2 rows: the third row's impulse is 0).
    const l1 = J[o + AI]!, l2 = J[o + AI + 1]!, l3 = 0;
    const x = J[o + AX1]! * l1 + J[o + AX2]! * l2 + J[o + AX3]! * l3;
    const y = J[o + AX1 + 1]! * l1 + J[o + AX2 + 1]! * l2 + J[o + AX3 + 1]! * l3;
    const z = J[o + AX1 + 2]! * l1 + J[o + AX2 + 2]! * l2 + J[o + AX3 + 2]! * l3;
    wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
    wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
  }
  // Point block: ω written back, then kickPoint with the carried impulse (the same arithmetic).
  w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz; w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
  kickPoint(ctx, o, iA, iB, J, o + PI);
}

/**
 * The velocity rows in one pass with both bodies' ω and world inverse inertias in locals (as the ball's):
 * motor row, limit (2 sides), the 2-row angular lock, point block — the lock and the point block with
 * solveAngularLock(2) and solvePoint's arithmetic in the same order (tests/unit/physics/bitIdentical.test.ts).
 * Motor: Δλ = −m·(Ċ − rhs + γ·λ_acc), the accumulated impulse clamped to ±clamp·h (motor.ts). Limit: the
 * ball's twist limit (Box2D v3: speculative when C > 0, β·C/h push-back in the solve pass when C < 0).
 */
function solveHinge(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
  const J = ctx.joints, bodies = ctx.bodies, v = bodies.v, w = bodies.w, I = bodies.invIw, flags = J[o + FLAGS]!;
  const a3 = 3 * iA, b3 = 3 * iB, a = 9 * iA, b = 9 * iB;
  const a0 = I[a]!, a1 = I[a + 1]!, a2 = I[a + 2]!, a3_ = I[a + 3]!, a4 = I[a + 4]!, a5 = I[a + 5]!, a6 = I[a + 6]!, a7 = I[a + 7]!, a8 = I[a + 8]!;
  const b0 = I[b]!, b1 = I[b + 1]!, b2 = I[b + 2]!, b3_ = I[b + 3]!, b4 = I[b + 4]!, b5 = I[b + 5]!, b6 = I[b + 6]!, b7 = I[b + 7]!, b8 = I[b + 8]!;
  let wax = w[a3]!, way = w[a3 + 1]!, waz = w[a3 + 2]!, wbx = w[b3]!, wby = w[b3 + 1]!, wbz = w[b3 + 2]!;
  const mb = ctx.maxBiasVelocity;

  if (activeMotorRows(J, o, 1) > 0) {
    const maxImpulse = J[o + M_CLAMP]! * ctx.h;
    const nx = J[o + MAXIS]!, ny = J[o + MAXIS + 1]!, nz = J[o + MAXIS + 2]!;
    const cdot = (wbx - wax) * nx + (wby - way) * ny + (wbz - waz) * nz;
    const old = J[o + M_I]!;
    let acc = old - J[o + M_MASS]! * (cdot - J[o + M_RHS]! + J[o + M_GAMMA]! * old);
    acc = acc > maxImpulse ? maxImpulse : acc < -maxImpulse ? -maxImpulse : acc;
    J[o + M_I] = acc;
    const l = acc - old;
    if (l !== 0) {
      const x = nx * l, y = ny * l, z = nz * l;
      wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
      wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
    }
  }

  if (flags & FLAG_LIMIT) {
    const nx = J[o + LIM_AXIS]!, ny = J[o + LIM_AXIS + 1]!, nz = J[o + LIM_AXIS + 2]!, m = J[o + LIM_MASS]!;
    const k = useBias ? ctx.beta * ctx.invH : 0;
    for (let side = 0; side < 2; side++) {
      const C = J[o + (side === 0 ? LIM_C_LO : LIM_C_HI)]!;
      const bias = C > 0 ? C * ctx.invH : Math.max(-mb, Math.min(mb, k * C));
      const rel = (wbx - wax) * nx + (wby - way) * ny + (wbz - waz) * nz;
      const cdot = side === 0 ? rel : -rel;
      const io = o + (side === 0 ? LIM_I_LO : LIM_I_HI);
      const old = J[io]!;
      const acc = Math.max(old - m * (cdot + bias), 0);
      J[io] = acc;
      const l = side === 0 ? acc - old : old - acc;
      if (l !== 0) {
        const x = nx * l, y = ny * l, z = nz * l;
        wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
        wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
      }
    }
  }

  {
    const k = useBias ? ctx.velocityBeta * ctx.invH : 0;
    const dx = wbx - wax, dy = wby - way, dz = wbz - waz;
    const c1 = dx * J[o + AX1]! + dy * J[o + AX1 + 1]! + dz * J[o + AX1 + 2]! + Math.max(-mb, Math.min(mb, k * J[o + AC]!));
    const c2 = dx * J[o + AX2]! + dy * J[o + AX2 + 1]! + dz * J[o + AX2 + 2]! + Math.max(-mb, Math.min(mb, k * J[o + AC + 1]!));
    const c3 = 0;
    const k0 = J[o + AK]!, k1 = J[o + AK + 1]!, k2 = J[o + AK + 2]!, k3 = J[o + AK + 3]!, k4 = J[o + AK + 4]!, k5 = J[o + AK + 5]!;
    const l1 = -(k0 * c1 + k1 * c2 + k2 * c3), l2 = -(k1 * c1 + k3 * c2 + k4 * c3), l3 = -(k2 * c1 + k4 * c2 + k5 * c3);
    J[o + AI] = J[o + AI]! + l1; J[o + AI + 1] = J[o + AI + 1]! + l2; J[o + AI + 2] = J[o + AI + 2]! + l3;
    const x = J[o + AX1]! * l1 + J[o + AX2]! * l2 + J[o + AX3]! * l3;
    const y = J[o + AX1 + 1]! * l1 + J[o + AX2 + 1]! * l2 + J[o + AX3 + 1]! * l3;
    const z = J[o + AX1 + 2]! * l1 + J[o + AX2 + 2]! * l2 + J[o + AX3 + 2]! * l3;
    wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
    wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
  }

  const rax = J[o + RA]!, ray = J[o + RA + 1]!, raz = J[o + RA + 2]!;
  const rbx = J[o + RB]!, rby = J[o + RB + 1]!, rbz = J[o + RB + 2]!;
  const vax = v[a3]!, vay = v[a3 + 1]!, vaz = v[a3 + 2]!, vbx = v[b3]!, vby = v[b3 + 1]!, vbz = v[b3 + 2]!;
  let cx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
  let cy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
  let cz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);
  if (useBias && ctx.velocityBeta > 0) {
    const k = ctx.velocityBeta * ctx.invH;
    cx += Math.max(-mb, Math.min(mb, k * J[o + PC]!)); cy += Math.max(-mb, Math.min(mb, k * J[o + PC + 1]!)); cz += Math.max(-mb, Math.min(mb, k * J[o + PC + 2]!));
  }
  const k0 = J[o + PK]!, k1 = J[o + PK + 1]!, k2 = J[o + PK + 2]!, k3 = J[o + PK + 3]!, k4 = J[o + PK + 4]!, k5 = J[o + PK + 5]!;
  const px = -(k0 * cx + k1 * cy + k2 * cz), py = -(k1 * cx + k3 * cy + k4 * cz), pz = -(k2 * cx + k4 * cy + k5 * cz);
  J[o + PI] = J[o + PI]! + px; J[o + PI + 1] = J[o + PI + 1]! + py; J[o + PI + 2] = J[o + PI + 2]! + pz;
  const mA = bodies.invMass[iA]!, mB = bodies.invMass[iB]!;
  v[a3] = vax - mA * px; v[a3 + 1] = vay - mA * py; v[a3 + 2] = vaz - mA * pz;
  v[b3] = vbx + mB * px; v[b3 + 1] = vby + mB * py; v[b3 + 2] = vbz + mB * pz;
  const ax = ray * pz - raz * py, ay = raz * px - rax * pz, az = rax * py - ray * px;
  const bx = rby * pz - rbz * py, by = rbz * px - rbx * pz, bz = rbx * py - rby * px;
  w[a3] = wax - (a0 * ax + a1 * ay + a2 * az);
  w[a3 + 1] = way - (a3_ * ax + a4 * ay + a5 * az);
  w[a3 + 2] = waz - (a6 * ax + a7 * ay + a8 * az);
  w[b3] = wbx + (b0 * bx + b1 * by + b2 * bz);
  w[b3 + 1] = wby + (b3_ * bx + b4 * by + b5 * bz);
  w[b3 + 2] = wbz + (b6 * bx + b7 * by + b8 * bz);
}

/** The angle's stops at position level (positionProjection.ts projectAngularStop), about frame A's X at the
 *  current poses, after the lock and the point were corrected (in either joint correction). */
function projectHingeStops(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints;
  if (!(J[o + FLAGS]! & FLAG_LIMIT)) return;
  const s = ctx.scratch;
  computeFrames(ctx, o, iA, iB);
  const theta = hingeAngle(J, o, s), lo = J[o + LIM_LO]!, hi = J[o + LIM_HI]!;
  const C = theta < lo ? theta - lo : theta > hi ? theta - hi : 0;
  if (C === 0) return;
  rotate(s.lv, s.qFA, 0, 1, 0, 0);
  projectAngularStop(ctx, iA, iB, C);
}

export const hingeJoint: JointTypeDef<'hinge'> = {
  name: 'hinge',
  code: 1,
  freeAxes: ['rx'],
  motorRows: 1,
  motorTarget: 'scalar',
  impulses: [PI, PI + 1, PI + 2, AI, AI + 1, AI + 2, LIM_I_LO, LIM_I_HI, M_I, M_I + 1, M_I + 2],
  limitImpulses: [LIM_I_LO, LIM_I_HI],
  validate(desc: JointDesc, label: string): void {
    if (desc.type === 'hinge') range(label, 'limit', desc.limit, 2 * Math.PI);
  },
  configure(J: Float64Array, o: number, desc: JointDesc): number {
    if (desc.type !== 'hinge' || !desc.limit) return 0;
    J[o + LIM_LO] = desc.limit[0]; J[o + LIM_HI] = desc.limit[1];
    return FLAG_LIMIT;
  },
  init(ctx: StepContext, o: number, iA: number, iB: number): void {
    computeFrames(ctx, o, iA, iB);
    ctx.joints[o + ANGLE] = rawHingeAngle(ctx.scratch);
  },
  prepare: prepareHinge,
  warmStart: warmStartHinge,
  solve: solveHinge,
  project(ctx: StepContext, o: number, iA: number, iB: number): void {
    computeFrames(ctx, o, iA, iB); prepareHingeLock(ctx, o, iA, iB); projectLock(ctx, o, iA, iB, 2);
    projectPoint(ctx, o, iA, iB);
    projectHingeStops(ctx, o, iA, iB);
  },
  correct(ctx: StepContext, o: number, iA: number, iB: number, first: boolean): void {
    hingeLockError(ctx, o, iA, iB); shakeLock(ctx, o, iA, iB, 2, first); shakePoint(ctx, o, iA, iB, first);
    projectHingeStops(ctx, o, iA, iB);
  },
  finish(ctx: StepContext, o: number): void {
    if (activeMotorRows(ctx.joints, o, 1) > 0) storeMotorReport(ctx, o, 1);
    else clearMotorReport(ctx.joints, o);
  },
  position(ctx: StepContext, o: number, iA: number, iB: number): number {
    computeFrames(ctx, o, iA, iB);
    return hingeAngle(ctx.joints, o, ctx.scratch);
  },
  anchorError: pointError,
};
