/**
 * Hinge (revolute) joint: 5 rows = the point block (3) + 2 angular rows keeping frame B's X on frame A's X,
 *     C₁ = x_B·y_A, C₂ = x_B·z_A,   Ċᵢ = (ω_B − ω_A)·uᵢ with u₁ = x_B × y_A, u₂ = x_B × z_A,
 * plus the signed angle limit and the 1-row motor about x_A.
 *
 * The angle θ of B about x_A (measured from frame A's Y) is UNWRAPPED across steps: θ = θ_prev +
 * wrap(θ_raw − θ_prev), so a hinge going from 179° to 181° reads 181°, never −179°, and a limit at ±170°
 * is not confused with ∓190°. The motor uses the wrapped difference wrap(θ̂ − θ), the short way round.
 */
import { wrapAngle } from '../../math/quat';
import type { StepContext } from '../stepContext';
import { AC, AX1, AX2, ANGLE, FLAG_LIMIT, FLAGS, LIM_AXIS, LIM_HI, LIM_LO, MAXIS, T_Q } from './jointLayout';
import { solveHingeRows } from './ballSolve';
import { activeMotorRows, clearMotorReport, motorErr, prepareAngularMotor } from './motor';
import {
  computeFrames, preparePoint, prepareAngularLimit, prepareAngularLock, qFA, qFB, rotate, storeMotorReport, tv,
  warmStartAngularLimit, warmStartAngularLock, warmStartMotorRows, warmStartPoint,
} from './rows';

/** Raw hinge angle of B relative to A about frame A's X, in (−π, π], from the current frames. */
export function rawHingeAngle(): number {
  // relative rotation conj(qFA)·qFB: only its x and w parts are needed for the twist about X.
  const ax = -qFA[0]!, ay = -qFA[1]!, az = -qFA[2]!, aw = qFA[3]!;
  const bx = qFB[0]!, by = qFB[1]!, bz = qFB[2]!, bw = qFB[3]!;
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  return wrapAngle(2 * Math.atan2(x, w));
}

/** The 2 angular rows (axes, errors, 2×2 inverse K) from the current frames qFA, qFB. */
export function prepareHingeLock(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints;
  rotate(qFB, 0, 1, 0, 0); const bx = tv[0]!, by = tv[1]!, bz = tv[2]!;
  rotate(qFA, 0, 0, 1, 0); const yx = tv[0]!, yy = tv[1]!, yz = tv[2]!;
  rotate(qFA, 0, 0, 0, 1); const zx = tv[0]!, zy = tv[1]!, zz = tv[2]!;
  J[o + AX1] = by * yz - bz * yy; J[o + AX1 + 1] = bz * yx - bx * yz; J[o + AX1 + 2] = bx * yy - by * yx;
  J[o + AX2] = by * zz - bz * zy; J[o + AX2 + 1] = bz * zx - bx * zz; J[o + AX2 + 2] = bx * zy - by * zx;
  J[o + AC] = bx * yx + by * yy + bz * yz;
  J[o + AC + 1] = bx * zx + by * zy + bz * zz;
  prepareAngularLock(ctx, o, iA, iB, 2);
}

export function prepareHinge(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints;
  computeFrames(ctx, o, iA, iB);
  preparePoint(ctx, o, iA, iB);
  prepareHingeLock(ctx, o, iA, iB);
  const prev = J[o + ANGLE]!;
  const theta = prev + wrapAngle(rawHingeAngle() - prev);
  J[o + ANGLE] = theta;
  rotate(qFA, 0, 1, 0, 0);
  if (J[o + FLAGS]! & FLAG_LIMIT) {
    J[o + LIM_AXIS] = tv[0]!; J[o + LIM_AXIS + 1] = tv[1]!; J[o + LIM_AXIS + 2] = tv[2]!;
    prepareAngularLimit(ctx, o, iA, iB, theta, J[o + LIM_LO]!, J[o + LIM_HI]!);
  }
  if (activeMotorRows(J, o, 1) > 0) {
    J[o + MAXIS] = tv[0]!; J[o + MAXIS + 1] = tv[1]!; J[o + MAXIS + 2] = tv[2]!;
    // C = θ − θ̂, taken the short way: −wrap(θ̂ − θ).
    motorErr[0] = -wrapAngle(J[o + T_Q]! - theta);
    prepareAngularMotor(ctx, o, iA, iB, 1);
  }
}

export function warmStartHinge(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints;
  if (activeMotorRows(J, o, 1) > 0) warmStartMotorRows(ctx, o, iA, iB, 1);
  if (J[o + FLAGS]! & FLAG_LIMIT) warmStartAngularLimit(ctx, o, iA, iB);
  warmStartAngularLock(ctx, o, iA, iB, 2);
  warmStartPoint(ctx, o, iA, iB);
}

/** Motor, limit, lock, point: one fused pass (ballSolve.ts). */
export function solveHinge(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
  solveHingeRows(ctx, o, iA, iB, useBias);
}

export function finishHinge(ctx: StepContext, o: number): void {
  if (activeMotorRows(ctx.joints, o, 1) > 0) storeMotorReport(ctx, o, 1);
  else clearMotorReport(ctx.joints, o);
}
