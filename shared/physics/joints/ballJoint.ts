/**
 * Ball-and-socket joint: 3 positional rows (the point block), optional twist limit about frame X and an
 * elliptical swing cone (half-angles about frame Y and Z) from a swing-twist decomposition, and the Armed
 * Mine motor: 3 angular rows J_A = [0 −a_k], J_B = [0 a_k] toward R̂_B = R_A·(N_Aᵀ·N_B)·S.
 *
 * The three motor axes a_k are joint frame A's axes in world: the same row space as Armed Mine's identity
 * Jacobian [0 I], expressed in the joint's own basis so the per-row clamp ±τmax·h does not depend on how the
 * creature is turned in the world.
 */
import type { StepContext } from '../stepContext';
import {
  ANGLE, FLAG_SWING, FLAG_TWIST, FLAGS, LIM_AXIS, LIM_HI, LIM_LO, MAXIS, SW_AXIS, SW_C, SW_MASS, SWING_Y, SWING_Z, T_Q,
} from './jointLayout';
import { solveBallRows } from './ballSolve';
import { activeMotorRows, clearMotorReport, motorErr, prepareAngularMotor } from './motor';
import {
  angularK, computeFrames, preparePoint, prepareAngularLimit, qFA, qFB, rotate, storeMotorReport, tv, warmStartAngularLimit,
  warmStartMotorRows, warmStartPoint, warmStartSwing,
} from './rows';

/** Scratch: relative rotation, target, error. */
const qr = new Float64Array(4);
/** Result of swingTwist(): [twist angle, swing about Y, swing about Z] (rad), in frame A. */
export const swingTwistOut = new Float64Array(3);

/**
 * Decompose q (frame B relative to frame A, in A's axes) as q = swing·twist with twist about X.
 * twist angle = 2·atan2(x, w) after choosing w ≥ 0 (so it lies in (−π, π)); swing = q·twist⁻¹ has no x
 * part, and its rotation vector (0, θy, θz) gives the swing angles. Signed throughout: no 170°/190° mix-up.
 */
export function swingTwist(x: number, y: number, z: number, w: number): void {
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  const tn = Math.sqrt(x * x + w * w);
  let tx = 0, tw = 1;
  if (tn > 1e-12) { tx = x / tn; tw = w / tn; }
  swingTwistOut[0] = 2 * Math.atan2(tx, tw);
  // swing = q ⊗ conj(twist), twist = (tx, 0, 0, tw)
  const sy = y * tw - z * tx, sz = z * tw + y * tx, sw = w * tw + x * tx;
  const sn = Math.sqrt(sy * sy + sz * sz);
  const k = sn > 1e-12 ? (2 * Math.atan2(sn, sw)) / sn : 2;
  swingTwistOut[1] = sy * k;
  swingTwistOut[2] = sz * k;
}

/** Rotation vector (axis·angle, shortest arc) of quaternion (x,y,z,w) written to tv. */
export function rotationVector(x: number, y: number, z: number, w: number): void {
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  const s = Math.sqrt(x * x + y * y + z * z);
  const k = s > 1e-12 ? (2 * Math.atan2(s, w)) / s : 2;
  tv[0] = x * k; tv[1] = y * k; tv[2] = z * k;
}

/** qr = conj(qFA)·qFB: frame B relative to frame A, in A's axes. */
function relativeFrame(): void {
  const ax = -qFA[0]!, ay = -qFA[1]!, az = -qFA[2]!, aw = qFA[3]!;
  const bx = qFB[0]!, by = qFB[1]!, bz = qFB[2]!, bw = qFB[3]!;
  qr[0] = aw * bx + ax * bw + ay * bz - az * by;
  qr[1] = aw * by - ax * bz + ay * bw + az * bx;
  qr[2] = aw * bz + ax * by - ay * bx + az * bw;
  qr[3] = aw * bw - ax * bx - ay * by - az * bz;
}

export function prepareBall(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, flags = J[o + FLAGS]!;
  computeFrames(ctx, o, iA, iB);
  preparePoint(ctx, o, iA, iB);
  relativeFrame();
  swingTwist(qr[0]!, qr[1]!, qr[2]!, qr[3]!);
  const twist = swingTwistOut[0]!, sy = swingTwistOut[1]!, sz = swingTwistOut[2]!;
  J[o + ANGLE] = twist;

  if (flags & FLAG_TWIST) {
    // Twist axis: the bisector of the two frames' X axes, so the row stays well defined under swing.
    rotate(qFA, 0, 1, 0, 0); const ax = tv[0]!, ay = tv[1]!, az = tv[2]!;
    rotate(qFB, 0, 1, 0, 0);
    let x = ax + tv[0]!, y = ay + tv[1]!, z = az + tv[2]!;
    const n = Math.sqrt(x * x + y * y + z * z);
    if (n > 1e-9) { x /= n; y /= n; z /= n; } else { x = tv[0]!; y = tv[1]!; z = tv[2]!; }
    J[o + LIM_AXIS] = x; J[o + LIM_AXIS + 1] = y; J[o + LIM_AXIS + 2] = z;
    prepareAngularLimit(ctx, o, iA, iB, twist, J[o + LIM_LO]!, J[o + LIM_HI]!);
  }

  J[o + SW_MASS] = 0;
  if (flags & FLAG_SWING) {
    const theta = Math.sqrt(sy * sy + sz * sz);
    if (theta > 1e-9) {
      const ay = J[o + SWING_Y]!, az = J[o + SWING_Z]!;
      const dy = sy / theta, dz = sz / theta;
      // Radius of the ellipse (θy/αy)² + (θz/αz)² = 1 in direction d, and its outward normal there.
      const limit = 1 / Math.sqrt((dy / ay) ** 2 + (dz / az) ** 2);
      let ny = dy / (ay * ay), nz = dz / (az * az);
      const nn = Math.sqrt(ny * ny + nz * nz);
      ny /= nn; nz /= nn;
      rotate(qFA, 0, 0, ny, nz);
      J[o + SW_AXIS] = tv[0]!; J[o + SW_AXIS + 1] = tv[1]!; J[o + SW_AXIS + 2] = tv[2]!;
      const K = angularK(ctx, iA, iB, tv[0]!, tv[1]!, tv[2]!, tv[0]!, tv[1]!, tv[2]!);
      J[o + SW_MASS] = K > 0 ? 1 / K : 0;
      J[o + SW_C] = (limit - theta) * (dy * ny + dz * nz);
    }
  }

  const rows = activeMotorRows(J, o, 3);
  if (rows > 0) {
    rotate(qFA, 0, 1, 0, 0); J[o + MAXIS] = tv[0]!; J[o + MAXIS + 1] = tv[1]!; J[o + MAXIS + 2] = tv[2]!;
    rotate(qFA, 0, 0, 1, 0); J[o + MAXIS + 3] = tv[0]!; J[o + MAXIS + 4] = tv[1]!; J[o + MAXIS + 5] = tv[2]!;
    rotate(qFA, 0, 0, 0, 1); J[o + MAXIS + 6] = tv[0]!; J[o + MAXIS + 7] = tv[1]!; J[o + MAXIS + 8] = tv[2]!;
    // ε = axis·angle of R_B·R̂_Bᵀ = rotvec(qFB · conj(qFA · S)), world; per row C_k = ε·a_k, i.e. the
    // components of conj(qFA)·ε = rotvec(conj(qFA)·qFB·conj(S)) = rotvec(qr·conj(S)) in frame A axes.
    const sx = -J[o + T_Q]!, sy2 = -J[o + T_Q + 1]!, sz2 = -J[o + T_Q + 2]!, sw = J[o + T_Q + 3]!;
    const x = qr[0]!, y = qr[1]!, z = qr[2]!, w = qr[3]!;
    rotationVector(
      w * sx + x * sw + y * sz2 - z * sy2,
      w * sy2 - x * sz2 + y * sw + z * sx,
      w * sz2 + x * sy2 - y * sx + z * sw,
      w * sw - x * sx - y * sy2 - z * sz2);
    // rotvec(qr·conj(S)) is B's error expressed in frame A, in A's axes — exactly ε's components on a_k.
    motorErr[0] = tv[0]!; motorErr[1] = tv[1]!; motorErr[2] = tv[2]!;
    prepareAngularMotor(ctx, o, iA, iB, 3);
  }
}

export function warmStartBall(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, flags = J[o + FLAGS]!;
  if (activeMotorRows(J, o, 3) > 0) warmStartMotorRows(ctx, o, iA, iB, 3);
  if (flags & FLAG_TWIST) warmStartAngularLimit(ctx, o, iA, iB);
  if (flags & FLAG_SWING) warmStartSwing(ctx, o, iA, iB);
  warmStartPoint(ctx, o, iA, iB);
}

/** Order: motor, limits, point last (the hard constraint gets the final word, as in Box2D); one fused pass
 *  (ballSolve.ts). */
export function solveBall(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
  solveBallRows(ctx, o, iA, iB, useBias);
}

export function finishBall(ctx: StepContext, o: number): void {
  if (activeMotorRows(ctx.joints, o, 3) > 0) storeMotorReport(ctx, o, 3);
  else clearMotorReport(ctx.joints, o);
}
