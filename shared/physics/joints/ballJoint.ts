/**
 * Ball-and-socket joint: 3 positional rows (the point block), optional twist limit about frame X and an
 * elliptical swing cone (half-angles about frame Y and Z) from a swing-twist decomposition, and the Armed
 * Mine motor: 3 angular rows J_A = [0 −a_k], J_B = [0 a_k] toward R̂_B = R_A·(N_Aᵀ·N_B)·S.
 *
 * The three motor axes a_k are joint frame A's axes in world: the same row space as Armed Mine's identity
 * Jacobian [0 I], expressed in the joint's own basis so the per-row clamp ±τmax·h does not depend on how the
 * creature is turned in the world.
 */
import type { Vec3 } from '../../math/vec3';
import type { JointScratch, StepContext } from '../stepContext';
import { clampSwingTwistTargetOf, swingTwistOf } from '../swingTwist';
import type { JointDesc } from '../types';
import { range, vec } from '../validation';
import {
  ANGLE, FLAG_SWING, FLAG_TORQUE_BALL, FLAG_TWIST, FLAGS, HOLD_ON, HOLD_Q, LIM_AXIS, LIM_C_HI, LIM_C_LO, LIM_HI, LIM_I_HI, LIM_I_LO, LIM_LO, LIM_MASS,
  M_CLAMP, M_GAMMA, M_I, M_MASS, M_MODE, M_RHS, MAXIS, MOTOR_POSITION, PC, PI, PK, RA, RB, SW_AXIS, SW_C, SW_I, SW_MASS, SWING_Y, SWING_Z, T_Q,
} from './jointLayout';
import type { JointTypeDef } from './jointType';
import { activeMotorRows, clearMotorReport, prepareAngularMotor } from './motor';
import { turn } from './poseMoves';
import { shakePoint } from './positionCorrection';
import { projectAngularStop, projectPoint } from './positionProjection';
import {
  angularKAxis, computeFrames, invertSym3Into, kickPoint, pointError, preparePoint, prepareAngularLimit, rotate, rotateFrom, rotationVector, rotationVectorPast, storeMotorReport,
} from './rows';

/**
 * The motor's target S (T_Q) clamped into the joint's twist range and swing cone (clampSwingTwistTarget,
 * shared with the articulated solver's ball drives; the current pose widens each range past a stop).
 * A target inside the range is copied as it is, so a drive that respects its limits is solved bit for bit
 * as before. Writes and returns s.motorTarget (x y z w).
 */
function clampTargetToLimits(J: Float64Array, o: number, flags: number, s: JointScratch, curTwist: number, curY: number, curZ: number): Float64Array {
  const q = s.motorTarget;
  q[0] = J[o + T_Q]!; q[1] = J[o + T_Q + 1]!; q[2] = J[o + T_Q + 2]!; q[3] = J[o + T_Q + 3]!;
  if (!(flags & (FLAG_TWIST | FLAG_SWING))) return q;
  const twist = (flags & FLAG_TWIST) !== 0, swing = (flags & FLAG_SWING) !== 0, lim = s.clampIn;
  lim[0] = twist ? J[o + LIM_LO]! : -Infinity; lim[1] = twist ? J[o + LIM_HI]! : Infinity;
  lim[2] = swing ? J[o + SWING_Y]! : Infinity; lim[3] = swing ? J[o + SWING_Z]! : Infinity;
  lim[4] = curTwist; lim[5] = curY; lim[6] = curZ;
  clampSwingTwistTargetOf(q, s.swing, lim);
  return q;
}

/** s.qr = conj(qFA)·qFB: frame B relative to frame A, in A's axes. */
function relativeFrame(s: JointScratch): void {
  const qFA = s.qFA, qFB = s.qFB, qr = s.qr;
  const ax = -qFA[0]!, ay = -qFA[1]!, az = -qFA[2]!, aw = qFA[3]!;
  const bx = qFB[0]!, by = qFB[1]!, bz = qFB[2]!, bw = qFB[3]!;
  qr[0] = aw * bx + ax * bw + ay * bz - az * by;
  qr[1] = aw * by - ax * bz + ay * bw + az * bx;
  qr[2] = aw * bz + ax * by - ay * bx + az * bw;
  qr[3] = aw * bw - ax * bx - ay * by - az * bz;
}

function prepareBall(ctx: StepContext, o: number, iA: number, iB: number): number {
  const J = ctx.joints, flags = J[o + FLAGS]!, s = ctx.scratch, tv = s.tv, qFA = s.qFA, qFB = s.qFB, qr = s.qr;
  computeFrames(ctx, o, iA, iB);
  preparePoint(ctx, o, iA, iB);
  relativeFrame(s);
  swingTwistOf(s.swing, qr, 0);
  const twist = s.swing[0]!, sy = s.swing[1]!, sz = s.swing[2]!;
  J[o + ANGLE] = twist;

  if (flags & FLAG_TWIST) {
    // Twist axis: the bisector of the two frames' X axes, so the row stays well defined under swing.
    twistAxis(tv, qFA, qFB, J, o + LIM_AXIS);
    prepareAngularLimit(ctx, o, iA, iB);
  }

  J[o + SW_MASS] = 0;
  if (flags & FLAG_SWING) {
    const theta = Math.sqrt(sy * sy + sz * sz);
    if (theta > 1e-9) {
      const cone = s.cone;
      swingConeGap(s.swing, J, o, cone);
      rotate(tv, qFA, 0, 0, cone[0]!, cone[1]!);
      J[o + SW_AXIS] = tv[0]!; J[o + SW_AXIS + 1] = tv[1]!; J[o + SW_AXIS + 2] = tv[2]!;
      const K = angularKAxis(ctx, iA, iB, tv);
      J[o + SW_MASS] = K > 0 ? 1 / K : 0;
      J[o + SW_C] = cone[2]!;
    }
  }

  const rows = activeMotorRows(J, o, 3);
  if (rows > 0) {
    rotate(tv, qFA, 0, 1, 0, 0); J[o + MAXIS] = tv[0]!; J[o + MAXIS + 1] = tv[1]!; J[o + MAXIS + 2] = tv[2]!;
    rotate(tv, qFA, 0, 0, 1, 0); J[o + MAXIS + 3] = tv[0]!; J[o + MAXIS + 4] = tv[1]!; J[o + MAXIS + 5] = tv[2]!;
    rotate(tv, qFA, 0, 0, 0, 1); J[o + MAXIS + 6] = tv[0]!; J[o + MAXIS + 7] = tv[1]!; J[o + MAXIS + 8] = tv[2]!;
    // ε = axis·angle of R_B·R̂_Bᵀ = rotvec(qFB · conj(qFA · S)), world; per row C_k = ε·a_k, i.e. the
    // components of conj(qFA)·ε = rotvec(conj(qFA)·qFB·conj(S)) = rotvec(qr·conj(S)) in frame A axes.
    rotationVectorPast(tv, qr, 0, clampTargetToLimits(J, o, flags, s, twist, sy, sz), 0);
    // rotvec(qr·conj(S)) is B's error expressed in frame A, in A's axes — exactly ε's components on a_k.
    const motorErr = s.motorErr;
    motorErr[0] = tv[0]!; motorErr[1] = tv[1]!; motorErr[2] = tv[2]!;
    prepareAngularMotor(ctx, o, iA, iB, 3);
  }
  return 3 + rows + (flags & FLAG_TWIST ? 2 : 0) + (flags & FLAG_SWING ? 1 : 0);
}

/**
 * The warm start in one pass with both bodies' ω and world inverse inertias in locals, as solveBall: the
 * carried impulses of the motor rows (clamped to the current limit: per row, or scaled onto the ball ‖λ‖ ≤ τmax·h), the twist
 * limit, the swing cone and the point block (kickPoint), in that order and with their arithmetic, so the
 * result is bit for bit that of the row functions one after another (tests/unit/physics/bitIdentical.test.ts).
 */
function warmStartBall(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, flags = J[o + FLAGS]!, bodies = ctx.bodies, w = bodies.w, I = bodies.invIw;
  const a3 = 3 * iA, b3 = 3 * iB, a = 9 * iA, b = 9 * iB;
  const a0 = I[a]!, a1 = I[a + 1]!, a2 = I[a + 2]!, a3_ = I[a + 3]!, a4 = I[a + 4]!, a5 = I[a + 5]!, a6 = I[a + 6]!, a7 = I[a + 7]!, a8 = I[a + 8]!;
  const b0 = I[b]!, b1 = I[b + 1]!, b2 = I[b + 2]!, b3_ = I[b + 3]!, b4 = I[b + 4]!, b5 = I[b + 5]!, b6 = I[b + 6]!, b7 = I[b + 7]!, b8 = I[b + 8]!;
  let wax = w[a3]!, way = w[a3 + 1]!, waz = w[a3 + 2]!, wbx = w[b3]!, wby = w[b3 + 1]!, wbz = w[b3 + 2]!;

  if (activeMotorRows(J, o, 3) > 0) {
    const maxImpulse = J[o + M_CLAMP]! * ctx.h;
    let scale = 1;
    if (flags & FLAG_TORQUE_BALL) {
      let n2 = 0;
      for (let k = 0; k < 3; k++) n2 += J[o + M_I + k]! * J[o + M_I + k]!;
      if (n2 > maxImpulse * maxImpulse) scale = maxImpulse / Math.sqrt(n2);
    }
    for (let k = 0; k < 3; k++) {
      let acc = J[o + M_I + k]!;
      if (scale !== 1) acc *= scale;
      acc = acc > maxImpulse ? maxImpulse : acc < -maxImpulse ? -maxImpulse : acc;
      J[o + M_I + k] = acc;
      if (acc !== 0) {
        const ao = o + MAXIS + 3 * k;
        const x = J[ao]! * acc, y = J[ao + 1]! * acc, z = J[ao + 2]! * acc;
        wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
        wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
      }
    }
  }
  if (flags & FLAG_TWIST) {
    const l = J[o + LIM_I_LO]! - J[o + LIM_I_HI]!;
    const x = J[o + LIM_AXIS]! * l, y = J[o + LIM_AXIS + 1]! * l, z = J[o + LIM_AXIS + 2]! * l;
    wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
    wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
  }
  if (flags & FLAG_SWING) {
    const l = -J[o + SW_I]!;
    const x = J[o + SW_AXIS]! * l, y = J[o + SW_AXIS + 1]! * l, z = J[o + SW_AXIS + 2]! * l;
    wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
    wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
  }
  // Point block: ω written back, then kickPoint with the carried impulse (the same arithmetic).
  w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz; w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
  kickPoint(ctx, o, iA, iB, J, o + PI);
}

/** Rotation vector of frame B relative to frame A, frame A axes (rad), at the current poses: the ball's
 *  and the fixed joint's World.getJointAngle. */
export function relativeRotationVector(ctx: StepContext, o: number, iA: number, iB: number): Vec3 {
  const s = ctx.scratch, qFA = s.qFA, qFB = s.qFB, tv = s.tv;
  computeFrames(ctx, o, iA, iB);
  const ax = -qFA[0]!, ay = -qFA[1]!, az = -qFA[2]!, aw = qFA[3]!;
  const bx = qFB[0]!, by = qFB[1]!, bz = qFB[2]!, bw = qFB[3]!;
  rotationVector(tv, aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz);
  return [tv[0]!, tv[1]!, tv[2]!];
}

/**
 * The velocity rows in one pass with both bodies' v, ω and world inverse inertias in locals: motor rows (3),
 * twist limit (2 sides), swing cone, point block (the ragdoll bench spends most of its step here: 7 rows ×
 * 10 sweeps per joint). Order: motor, limits, point last (the hard constraint gets the final word, as in
 * Box2D). The point block repeats rows.ts solvePoint's arithmetic in the same order
 * (tests/unit/physics/bitIdentical.test.ts pins the solver's results bit for bit).
 *  - Motor row k (axis MAXIS+3k, world): Δλ = −m·(Ċ − rhs + γ·λ_acc), with m = 1/(K + γ) and the
 *    ACCUMULATED impulse clamped to ±τmax·h, applying only the difference (Box2D's motor; the Armed Mine's
 *    torque limit). rhs/γ encode the mode (see motor.ts). With torqueLimit 'magnitude' the rows run
 *    unclamped and the accumulated vector (λ₁, λ₂, λ₃) is then scaled back onto ‖λ‖ ≤ τmax·h (the axes are
 *    orthonormal, so ‖λ‖/h is the torque's magnitude).
 *  - Limit (Box2D v3's): when C > 0 the row is speculative (bias C/h lets the joint approach the stop
 *    exactly within this step but not cross it); when C < 0 the solve pass pushes back at β·C/h, the relax
 *    pass only stops further penetration. Accumulated impulse ≥ 0 (a stop pushes, never pulls).
 *  - Swing cone: C = SW_C ≥ 0 along SW_AXIS, increasing swing is +(ω_B − ω_A)·axis; solved as the limit.
 */
function solveBall(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
  const J = ctx.joints, bodies = ctx.bodies, v = bodies.v, w = bodies.w, I = bodies.invIw, flags = J[o + FLAGS]!;
  const a3 = 3 * iA, b3 = 3 * iB, a = 9 * iA, b = 9 * iB;
  const a0 = I[a]!, a1 = I[a + 1]!, a2 = I[a + 2]!, a3_ = I[a + 3]!, a4 = I[a + 4]!, a5 = I[a + 5]!, a6 = I[a + 6]!, a7 = I[a + 7]!, a8 = I[a + 8]!;
  const b0 = I[b]!, b1 = I[b + 1]!, b2 = I[b + 2]!, b3_ = I[b + 3]!, b4 = I[b + 4]!, b5 = I[b + 5]!, b6 = I[b + 6]!, b7 = I[b + 7]!, b8 = I[b + 8]!;
  let wax = w[a3]!, way = w[a3 + 1]!, waz = w[a3 + 2]!, wbx = w[b3]!, wby = w[b3 + 1]!, wbz = w[b3 + 2]!;

  if (activeMotorRows(J, o, 3) > 0 && flags & FLAG_TORQUE_BALL) {
    // torqueLimit 'magnitude': the three rows Gauss-Seidel without a per-row clamp, then the accumulated
    // impulse VECTOR projected onto the ball ‖λ‖ ≤ τmax·h and the difference applied (‖τ‖ ≤ τmax).
    const maxImpulse = J[o + M_CLAMP]! * ctx.h, gamma = J[o + M_GAMMA]!;
    for (let k = 0; k < 3; k++) {
      const ao = o + MAXIS + 3 * k;
      const nx = J[ao]!, ny = J[ao + 1]!, nz = J[ao + 2]!;
      const cdot = (wbx - wax) * nx + (wby - way) * ny + (wbz - waz) * nz;
      const old = J[o + M_I + k]!;
      const acc = old - J[o + M_MASS + k]! * (cdot - J[o + M_RHS + k]! + gamma * old);
      J[o + M_I + k] = acc;
      const l = acc - old;
      if (l !== 0) {
        const x = nx * l, y = ny * l, z = nz * l;
        wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
        wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
      }
    }
    const l0 = J[o + M_I]!, l1 = J[o + M_I + 1]!, l2 = J[o + M_I + 2]!;
    const norm = Math.sqrt(l0 * l0 + l1 * l1 + l2 * l2);
    if (norm > maxImpulse) {
      const f = maxImpulse / norm - 1; // Δλ = λ·(τmax·h/‖λ‖ − 1)
      const d0 = l0 * f, d1 = l1 * f, d2 = l2 * f;
      J[o + M_I] = l0 + d0; J[o + M_I + 1] = l1 + d1; J[o + M_I + 2] = l2 + d2;
      const m = o + MAXIS;
      const x = J[m]! * d0 + J[m + 3]! * d1 + J[m + 6]! * d2;
      const y = J[m + 1]! * d0 + J[m + 4]! * d1 + J[m + 7]! * d2;
      const z = J[m + 2]! * d0 + J[m + 5]! * d1 + J[m + 8]! * d2;
      wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
      wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
    }
  } else if (activeMotorRows(J, o, 3) > 0) {
    const maxImpulse = J[o + M_CLAMP]! * ctx.h, gamma = J[o + M_GAMMA]!;
    for (let k = 0; k < 3; k++) {
      const ao = o + MAXIS + 3 * k;
      const nx = J[ao]!, ny = J[ao + 1]!, nz = J[ao + 2]!;
      const cdot = (wbx - wax) * nx + (wby - way) * ny + (wbz - waz) * nz;
      const old = J[o + M_I + k]!;
      let acc = old - J[o + M_MASS + k]! * (cdot - J[o + M_RHS + k]! + gamma * old);
      acc = acc > maxImpulse ? maxImpulse : acc < -maxImpulse ? -maxImpulse : acc;
      J[o + M_I + k] = acc;
      const l = acc - old;
      if (l !== 0) {
        const x = nx * l, y = ny * l, z = nz * l;
        wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
        wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
      }
    }
  }

  const mb = ctx.maxBiasVelocity;
  if (flags & FLAG_TWIST) {
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

  if (flags & FLAG_SWING && J[o + SW_MASS]! !== 0) {
    const m = J[o + SW_MASS]!, nx = J[o + SW_AXIS]!, ny = J[o + SW_AXIS + 1]!, nz = J[o + SW_AXIS + 2]!;
    const C = J[o + SW_C]!;
    const bias = C > 0 ? C * ctx.invH : useBias ? Math.max(-mb, Math.min(mb, ctx.beta * ctx.invH * C)) : 0;
    const cdot = -((wbx - wax) * nx + (wby - way) * ny + (wbz - waz) * nz);
    const old = J[o + SW_I]!;
    const acc = Math.max(old - m * (cdot + bias), 0);
    J[o + SW_I] = acc;
    const l = old - acc;
    if (l !== 0) {
      const x = nx * l, y = ny * l, z = nz * l;
      wax = wax - (a0 * x + a1 * y + a2 * z); way = way - (a3_ * x + a4 * y + a5 * z); waz = waz - (a6 * x + a7 * y + a8 * z);
      wbx = wbx + (b0 * x + b1 * y + b2 * z); wby = wby + (b3_ * x + b4 * y + b5 * z); wbz = wbz + (b6 * x + b7 * y + b8 * z);
    }
  }

  // Point block (rows.ts solvePoint + kickPoint).
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

/**
 * A drive that held its target this substep holds in the position projection too: the frames' relative
 * rotation is turned back to the one the velocity solve and the integration left (HOLD_Q), the correction
 * shared by both bodies' inverse inertias, λ = −β·(I_A⁻¹ + I_B⁻¹)⁻¹·e. Without it the projection of a
 * neighbouring joint turned the light body alone, the drive's error took that turn, and the drive's next
 * r·C/h spun both bodies to undo it (docs/physics.md "A holding drive holds in the projection").
 */
function holdBallDrive(ctx: StepContext, o: number, iA: number, iB: number): void {
  const s = ctx.scratch, lv = s.lv;
  computeFrames(ctx, o, iA, iB);
  relativeFrame(s);
  rotationVectorPast(s.tv, s.qr, 0, ctx.joints, o + HOLD_Q); // how far B has turned relative to A since the hold, A's axes
  rotateFrom(lv, s.qFA, 0, s.tv, 0); // world
  const ex = lv[0]!, ey = lv[1]!, ez = lv[2]!;
  if (ex === 0 && ey === 0 && ez === 0) return;
  const I = ctx.bodies.invIw, a = 9 * iA, b = 9 * iB;
  const k00 = I[a]! + I[b]!, k01 = I[a + 1]! + I[b + 1]!, k02 = I[a + 2]! + I[b + 2]!;
  const k11 = I[a + 4]! + I[b + 4]!, k12 = I[a + 5]! + I[b + 5]!, k22 = I[a + 8]! + I[b + 8]!;
  const inv = s.holdK;
  invertSym3Into(inv, 0, k00, k01, k02, k11, k12, k22);
  const beta = ctx.positionBeta;
  lv[0] = -beta * (inv[0]! * ex + inv[1]! * ey + inv[2]! * ez);
  lv[1] = -beta * (inv[1]! * ex + inv[3]! * ey + inv[4]! * ez);
  lv[2] = -beta * (inv[2]! * ex + inv[4]! * ey + inv[5]! * ez);
  turn(ctx, iA, iB);
}

/**
 * The ball's stops at position level, after its point block, in either joint correction: the twist past
 * [lo, hi] about the frames' bisector axis, then, at the poses that leaves, the swing past its elliptical
 * cone along the cone's outward normal — each with projectAngularStop. Stops that hold are left alone.
 */
function projectBallStops(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, flags = J[o + FLAGS]!;
  if (!(flags & (FLAG_TWIST | FLAG_SWING))) return;
  const s = ctx.scratch, tv = s.tv, qFA = s.qFA, qFB = s.qFB, qr = s.qr, lv = s.lv;
  computeFrames(ctx, o, iA, iB);
  relativeFrame(s);
  swingTwistOf(s.swing, qr, 0);
  if (flags & FLAG_TWIST) {
    const twist = s.swing[0]!, lo = J[o + LIM_LO]!, hi = J[o + LIM_HI]!;
    const C = twist < lo ? twist - lo : twist > hi ? twist - hi : 0;
    if (C !== 0) {
      twistAxis(tv, qFA, qFB, lv, 0);
      projectAngularStop(ctx, iA, iB, C);
      if (!(flags & FLAG_SWING)) return;
      computeFrames(ctx, o, iA, iB);
      relativeFrame(s);
      swingTwistOf(s.swing, qr, 0);
    }
  }
  if (flags & FLAG_SWING) {
    const sy = s.swing[1]!, sz = s.swing[2]!, theta = Math.sqrt(sy * sy + sz * sz);
    if (!(theta > 1e-9)) return;
    const cone = s.cone;
    swingConeGap(s.swing, J, o, cone);
    const gap = cone[2]!;
    if (gap >= 0) return;
    rotate(lv, qFA, 0, 0, cone[0]!, cone[1]!);
    projectAngularStop(ctx, iA, iB, -gap);
  }
}

/**
 * The elliptical swing cone (θy/αy)² + (θz/αz)² ≤ 1 (αy, αz the joint's SWING_Y, SWING_Z) at the swing
 * (sy, sz) = swing[1..2] of angle θ = |(sy, sz)| > 0: the cone's radius in the swing's direction d and its
 * outward normal n there (cone[0..1]), and the gap (radius − θ)·(d·n) along n (cone[2]): ≥ 0 inside the cone,
 * the swing row's C (prepareBall) and, negated, how far past the cone the position projection turns back
 * (projectBallStops). Everything travels in arrays: V8 boxes the doubles of a call it does not inline.
 */
function swingConeGap(swing: Float64Array, J: Float64Array, o: number, cone: Float64Array): void {
  const sy = swing[1]!, sz = swing[2]!, theta = Math.sqrt(sy * sy + sz * sz), ay = J[o + SWING_Y]!, az = J[o + SWING_Z]!;
  const dy = sy / theta, dz = sz / theta;
  const limit = 1 / Math.sqrt((dy / ay) ** 2 + (dz / az) ** 2);
  let ny = dy / (ay * ay), nz = dz / (az * az);
  const nn = Math.sqrt(ny * ny + nz * nz);
  ny /= nn; nz /= nn;
  cone[0] = ny; cone[1] = nz;
  cone[2] = (limit - theta) * (dy * ny + dz * nz);
}

/** The twist row's axis into out[at..at+2]: the unit bisector of the two frames' X axes (world; tv is scratch),
 *  so the row stays well defined under swing. */
function twistAxis(tv: Float64Array, qFA: Float64Array, qFB: Float64Array, out: Float64Array, at: number): void {
  rotate(tv, qFA, 0, 1, 0, 0); const ax = tv[0]!, ay = tv[1]!, az = tv[2]!;
  rotate(tv, qFB, 0, 1, 0, 0);
  let x = ax + tv[0]!, y = ay + tv[1]!, z = az + tv[2]!;
  const n = Math.sqrt(x * x + y * y + z * z);
  if (n > 1e-9) { x /= n; y /= n; z /= n; } else { x = tv[0]!; y = tv[1]!; z = tv[2]!; }
  out[at] = x; out[at + 1] = y; out[at + 2] = z;
}

export const ballJoint: JointTypeDef<'ball'> = {
  name: 'ball',
  code: 0,
  freeAxes: ['rx', 'ry', 'rz'],
  motorRows: 3,
  motorTarget: 'rotation',
  impulses: [PI, PI + 1, PI + 2, LIM_I_LO, LIM_I_HI, SW_I, M_I, M_I + 1, M_I + 2],
  limitImpulses: [LIM_I_LO, LIM_I_HI, SW_I],
  validate(desc: JointDesc, label: string): void {
    if (desc.type !== 'ball') return;
    range(label, 'twistLimit', desc.twistLimit, Math.PI);
    if (desc.swingLimit !== undefined) {
      vec(label, 'swingLimit', desc.swingLimit as unknown as number[], 2);
      desc.swingLimit.forEach((a, i) => {
        if (!(a > 0 && a <= Math.PI)) throw new Error(`${label}: swingLimit[${i}] must be a half-angle in (0, π], got ${a}`);
      });
    }
  },
  configure(J: Float64Array, o: number, desc: JointDesc): number {
    let flags = 0;
    if (desc.type === 'ball') {
      if (desc.twistLimit) { flags |= FLAG_TWIST; J[o + LIM_LO] = desc.twistLimit[0]; J[o + LIM_HI] = desc.twistLimit[1]; }
      if (desc.swingLimit) { flags |= FLAG_SWING; J[o + SWING_Y] = desc.swingLimit[0]; J[o + SWING_Z] = desc.swingLimit[1]; }
    }
    J[o + T_Q + 3] = 1;
    return flags;
  },
  init(): void { /* the twist angle is measured by prepare */ },
  prepare: prepareBall,
  warmStart: warmStartBall,
  solve: solveBall,
  project(ctx: StepContext, o: number, iA: number, iB: number): void {
    projectPoint(ctx, o, iA, iB);
    if (ctx.joints[o + HOLD_ON] === 1) holdBallDrive(ctx, o, iA, iB);
    projectBallStops(ctx, o, iA, iB);
  },
  recordHold(ctx: StepContext, o: number, iA: number, iB: number): void {
    const J = ctx.joints;
    J[o + HOLD_ON] = 0;
    // A position drive whose impulse stayed inside its clamp: per row, or as a vector in torqueLimit 'magnitude'.
    if (J[o + M_MODE]! !== MOTOR_POSITION) return;
    const maxImpulse = J[o + M_CLAMP]! * ctx.h * (1 - 1e-9);
    const l0 = J[o + M_I]!, l1 = J[o + M_I + 1]!, l2 = J[o + M_I + 2]!;
    if (J[o + FLAGS]! & FLAG_TORQUE_BALL ? !(Math.sqrt(l0 * l0 + l1 * l1 + l2 * l2) < maxImpulse)
      : !(Math.abs(l0) < maxImpulse && Math.abs(l1) < maxImpulse && Math.abs(l2) < maxImpulse)) return;
    computeFrames(ctx, o, iA, iB);
    relativeFrame(ctx.scratch);
    const qr = ctx.scratch.qr;
    J[o + HOLD_ON] = 1; J[o + HOLD_Q] = qr[0]!; J[o + HOLD_Q + 1] = qr[1]!; J[o + HOLD_Q + 2] = qr[2]!; J[o + HOLD_Q + 3] = qr[3]!;
  },
  correct(ctx: StepContext, o: number, iA: number, iB: number, first: boolean): void {
    shakePoint(ctx, o, iA, iB, first);
    projectBallStops(ctx, o, iA, iB);
  },
  finish(ctx: StepContext, o: number): void {
    if (activeMotorRows(ctx.joints, o, 3) > 0) storeMotorReport(ctx, o, 3);
    else clearMotorReport(ctx.joints, o);
  },
  position: relativeRotationVector,
  anchorError: pointError,
};
