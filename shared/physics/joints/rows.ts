/**
 * Row helpers shared by the joints: the point (3 rows), angular locks (2 or 3 rows), unilateral angular
 * limits, and the motor rows with the accumulated-impulse clamp. Everything works on the joint record at
 * offset `o` of ctx.joints and on the body arrays; no allocation.
 *
 * Sign convention: an angular row with world axis a has Ċ = (ω_B − ω_A)·a; its impulse λ is applied as
 * ω_A −= I_A⁻¹·a·λ, ω_B += I_B⁻¹·a·λ (J = [0 −aᵀ 0 aᵀ]).
 */
import type { StepContext } from '../stepContext';
import {
  AC, AI, AK, ANGLE, AX1, AX2, AX3, ERROR, FLAG_TORQUE_BALL, FLAGS, LA, LB, LIM_AXIS, LIM_C_HI, LIM_C_LO, LIM_HI, LIM_LO,
  LIM_MASS, M_CLAMP, M_I, M_SATURATED, M_TORQUE, M_TORQUE_NORM, PC, PI, PK, QA, QB, RA, RB,
} from './jointLayout';

/** tv = q·v for the quaternion stored at q[qo..qo+3] (tv: a scratch vector, usually ctx.scratch.tv). */
export function rotate(tv: Float64Array, q: Float64Array, qo: number, x: number, y: number, z: number): void {
  const qx = q[qo]!, qy = q[qo + 1]!, qz = q[qo + 2]!, qw = q[qo + 3]!;
  // t = 2·(u × v); v' = v + w·t + u × t
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  tv[0] = x + qw * tx + (qy * tz - qz * ty);
  tv[1] = y + qw * ty + (qz * tx - qx * tz);
  tv[2] = z + qw * tz + (qx * ty - qy * tx);
}

/** tv = q·v for v = src[so..so+2] (a joint's local anchor): rotate() without boxing three double arguments. */
export function rotateFrom(tv: Float64Array, q: Float64Array, qo: number, src: Float64Array, so: number): void {
  const x = src[so]!, y = src[so + 1]!, z = src[so + 2]!;
  const qx = q[qo]!, qy = q[qo + 1]!, qz = q[qo + 2]!, qw = q[qo + 3]!;
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  tv[0] = x + qw * tx + (qy * tz - qz * ty);
  tv[1] = y + qw * ty + (qz * tx - qx * tz);
  tv[2] = z + qw * tz + (qx * ty - qy * tx);
}

/** Rotation vector (axis·angle, shortest arc) of the quaternion (x,y,z,w), written to tv. */
export function rotationVector(tv: Float64Array, x: number, y: number, z: number, w: number): void {
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  const s = Math.sqrt(x * x + y * y + z * z);
  const k = s > 1e-12 ? (2 * Math.atan2(s, w)) / s : 2;
  tv[0] = x * k; tv[1] = y * k; tv[2] = z * k;
}

/** tv = rotvec(Q·conj(C)) for the quaternions Q[qo..qo+3] and C[co..co+3]: how far Q is turned past C (a
 *  ball drive's error against its target or a hold, qr·conj(S); the fixed joint's lock error, qFB·conj(qFA)). */
export function rotationVectorPast(tv: Float64Array, Q: Float64Array, qo: number, C: Float64Array, co: number): void {
  const sx = -C[co]!, sy = -C[co + 1]!, sz = -C[co + 2]!, sw = C[co + 3]!;
  const x = Q[qo]!, y = Q[qo + 1]!, z = Q[qo + 2]!, w = Q[qo + 3]!;
  rotationVector(tv,
    w * sx + x * sw + y * sz - z * sy,
    w * sy - x * sz + y * sw + z * sx,
    w * sz + x * sy - y * sx + z * sw,
    w * sw - x * sx - y * sy - z * sz);
}

/** out = a ⊗ b for quaternions stored in arrays. */
export function quatMulInto(out: Float64Array, a: Float64Array, ao: number, b: Float64Array, bo: number): void {
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!, aw = a[ao + 3]!;
  const bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!, bw = b[bo + 3]!;
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** World frame rotations qFA = qA·QA, qFB = qB·QB of the joint at o (into ctx.scratch). */
export function computeFrames(ctx: StepContext, o: number, iA: number, iB: number): void {
  quatMulInto(ctx.scratch.qFA, ctx.bodies.q, 4 * iA, ctx.joints, o + QA);
  quatMulInto(ctx.scratch.qFB, ctx.bodies.q, 4 * iB, ctx.joints, o + QB);
}

/** a·(I_A⁻¹ + I_B⁻¹)·b for the world inverse inertias. */
export function angularK(ctx: StepContext, iA: number, iB: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const I = ctx.bodies.invIw;
  const a = 9 * iA, b = 9 * iB;
  const s00 = I[a]! + I[b]!, s01 = I[a + 1]! + I[b + 1]!, s02 = I[a + 2]! + I[b + 2]!;
  const s11 = I[a + 4]! + I[b + 4]!, s12 = I[a + 5]! + I[b + 5]!, s22 = I[a + 8]! + I[b + 8]!;
  return ax * (s00 * bx + s01 * by + s02 * bz) + ay * (s01 * bx + s11 * by + s12 * bz) + az * (s02 * bx + s12 * by + s22 * bz);
}

/** angularK(a, a) for the axis a = v[0..2]: the same arithmetic, its doubles in the array (not boxed when V8
 *  does not inline the call). */
export function angularKAxis(ctx: StepContext, iA: number, iB: number, v: Float64Array): number {
  const x = v[0]!, y = v[1]!, z = v[2]!;
  return angularK(ctx, iA, iB, x, y, z, x, y, z);
}

/** Apply the angular impulse L = ctx.scratch.lv (N·m·s, world): ω_A −= I_A⁻¹·L, ω_B += I_B⁻¹·L. The vector
 *  comes in the scratch, not as three double arguments, which V8 boxes in fresh heap numbers when it does
 *  not inline the call (the warm start's limit, swing and lock kicks: ≈ 60 KB of garbage a step with 128
 *  ragdolls). */
export function applyAngular(ctx: StepContext, iA: number, iB: number): void {
  const I = ctx.bodies.invIw, w = ctx.bodies.w, lv = ctx.scratch.lv, ax = lv[0]!, ay = lv[1]!, az = lv[2]!;
  const a = 9 * iA, b = 9 * iB, a3 = 3 * iA, b3 = 3 * iB;
  w[a3] = w[a3]! - (I[a]! * ax + I[a + 1]! * ay + I[a + 2]! * az);
  w[a3 + 1] = w[a3 + 1]! - (I[a + 3]! * ax + I[a + 4]! * ay + I[a + 5]! * az);
  w[a3 + 2] = w[a3 + 2]! - (I[a + 6]! * ax + I[a + 7]! * ay + I[a + 8]! * az);
  w[b3] = w[b3]! + (I[b]! * ax + I[b + 1]! * ay + I[b + 2]! * az);
  w[b3 + 1] = w[b3 + 1]! + (I[b + 3]! * ax + I[b + 4]! * ay + I[b + 5]! * az);
  w[b3 + 2] = w[b3 + 2]! + (I[b + 6]! * ax + I[b + 7]! * ay + I[b + 8]! * az);
}

/** Inverse of a symmetric 3×3 given as xx xy xz yy yz zz, written to J[o..o+5]; zeros when singular. */
export function invertSym3Into(J: Float64Array, o: number, a: number, b: number, c: number, d: number, e: number, f: number): void {
  const A = d * f - e * e, B = c * e - b * f, C = b * e - c * d;
  const det = a * A + b * B + c * C;
  const s = Math.abs(det) > 1e-300 ? 1 / det : 0;
  J[o] = A * s; J[o + 1] = B * s; J[o + 2] = C * s;
  J[o + 3] = (a * f - c * c) * s; J[o + 4] = (b * c - a * e) * s; J[o + 5] = (a * d - b * b) * s;
}

// ------------------------------------------------------------------------------------------ point (3 rows)

/** Anchor separation d = p_B + r_B − p_A − r_A (m, world) at the current poses, into ctx.scratch.tv. */
export function anchorSeparation(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, b = ctx.bodies, p = b.p, tv = ctx.scratch.tv;
  rotateFrom(tv, b.q, 4 * iA, J, o + LA);
  const rax = tv[0]!, ray = tv[1]!, raz = tv[2]!;
  rotateFrom(tv, b.q, 4 * iB, J, o + LB);
  tv[0] = p[3 * iB]! + tv[0]! - p[3 * iA]! - rax;
  tv[1] = p[3 * iB + 1]! + tv[1]! - p[3 * iA + 1]! - ray;
  tv[2] = p[3 * iB + 2]! + tv[2]! - p[3 * iA + 2]! - raz;
}

/** |p_B + r_B − p_A − r_A| (m) at the current poses: the anchor error of every type with a point block. */
export function pointError(ctx: StepContext, o: number, iA: number, iB: number): number {
  anchorSeparation(ctx, o, iA, iB);
  const tv = ctx.scratch.tv;
  return Math.hypot(tv[0]!, tv[1]!, tv[2]!);
}

/**
 * Ball-socket point constraint C = p_B + r_B − p_A − r_A = 0 (3 rows, solved as one 3×3 block).
 * J = [−E  [r_A]×  E  −[r_B]×];  K = (m_A⁻¹ + m_B⁻¹)·E − [r_A]×·I_A⁻¹·[r_A]× − [r_B]×·I_B⁻¹·[r_B]×.
 */
export function preparePoint(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, b = ctx.bodies, p = b.p, q = b.q, tv = ctx.scratch.tv;
  rotateFrom(tv, q, 4 * iA, J, o + LA);
  const rax = tv[0]!, ray = tv[1]!, raz = tv[2]!;
  rotateFrom(tv, q, 4 * iB, J, o + LB);
  const rbx = tv[0]!, rby = tv[1]!, rbz = tv[2]!;
  J[o + RA] = rax; J[o + RA + 1] = ray; J[o + RA + 2] = raz;
  J[o + RB] = rbx; J[o + RB + 1] = rby; J[o + RB + 2] = rbz;
  const cx = p[3 * iB]! + rbx - p[3 * iA]! - rax;
  const cy = p[3 * iB + 1]! + rby - p[3 * iA + 1]! - ray;
  const cz = p[3 * iB + 2]! + rbz - p[3 * iA + 2]! - raz;
  J[o + PC] = cx; J[o + PC + 1] = cy; J[o + PC + 2] = cz;
  J[o + ERROR] = Math.sqrt(cx * cx + cy * cy + cz * cz);
  const m = b.invMass[iA]! + b.invMass[iB]!;
  const I = b.invIw;
  let kxx = m, kxy = 0, kxz = 0, kyy = m, kyz = 0, kzz = m;
  // −[r]×·S·[r]× for S symmetric, expanded per entry.
  for (let side = 0; side < 2; side++) {
    const o9 = 9 * (side === 0 ? iA : iB);
    const x = side === 0 ? rax : rbx, y = side === 0 ? ray : rby, z = side === 0 ? raz : rbz;
    const s00 = I[o9]!, s01 = I[o9 + 1]!, s02 = I[o9 + 2]!, s11 = I[o9 + 4]!, s12 = I[o9 + 5]!, s22 = I[o9 + 8]!;
    kxx += z * z * s11 - 2 * y * z * s12 + y * y * s22;
    kxy += -z * z * s01 + y * z * s02 + x * z * s12 - x * y * s22;
    kxz += y * z * s01 - y * y * s02 - x * z * s11 + x * y * s12;
    kyy += z * z * s00 - 2 * x * z * s02 + x * x * s22;
    kyz += -y * z * s00 + x * z * s01 + x * y * s02 - x * x * s12;
    kzz += y * y * s00 - 2 * x * y * s01 + x * x * s11;
  }
  invertSym3Into(J, o + PK, kxx, kxy, kxz, kyy, kyz, kzz);
}

export function warmStartPoint(ctx: StepContext, o: number, iA: number, iB: number): void {
  kickPoint(ctx, o, iA, iB, ctx.joints, o + PI);
}

/** Apply the linear impulse P = P[po..po+2] (N·s: the carried impulse in the joint record, or a scratch, so no
 *  double is passed as an argument) at the anchors: −P on A, +P on B. */
export function kickPoint(ctx: StepContext, o: number, iA: number, iB: number, P: Float64Array, po: number): void {
  const J = ctx.joints, b = ctx.bodies, v = b.v, w = b.w, I = b.invIw;
  const px = P[po]!, py = P[po + 1]!, pz = P[po + 2]!;
  const mA = b.invMass[iA]!, mB = b.invMass[iB]!;
  const a3 = 3 * iA, b3 = 3 * iB, a9 = 9 * iA, b9 = 9 * iB;
  v[a3] = v[a3]! - mA * px; v[a3 + 1] = v[a3 + 1]! - mA * py; v[a3 + 2] = v[a3 + 2]! - mA * pz;
  v[b3] = v[b3]! + mB * px; v[b3 + 1] = v[b3 + 1]! + mB * py; v[b3 + 2] = v[b3 + 2]! + mB * pz;
  const rax = J[o + RA]!, ray = J[o + RA + 1]!, raz = J[o + RA + 2]!;
  const rbx = J[o + RB]!, rby = J[o + RB + 1]!, rbz = J[o + RB + 2]!;
  const ax = ray * pz - raz * py, ay = raz * px - rax * pz, az = rax * py - ray * px;
  const bx = rby * pz - rbz * py, by = rbz * px - rbx * pz, bz = rbx * py - rby * px;
  w[a3] = w[a3]! - (I[a9]! * ax + I[a9 + 1]! * ay + I[a9 + 2]! * az);
  w[a3 + 1] = w[a3 + 1]! - (I[a9 + 3]! * ax + I[a9 + 4]! * ay + I[a9 + 5]! * az);
  w[a3 + 2] = w[a3 + 2]! - (I[a9 + 6]! * ax + I[a9 + 7]! * ay + I[a9 + 8]! * az);
  w[b3] = w[b3]! + (I[b9]! * bx + I[b9 + 1]! * by + I[b9 + 2]! * bz);
  w[b3 + 1] = w[b3 + 1]! + (I[b9 + 3]! * bx + I[b9 + 4]! * by + I[b9 + 5]! * bz);
  w[b3 + 2] = w[b3 + 2]! + (I[b9 + 6]! * bx + I[b9 + 7]! * by + I[b9 + 8]! * bz);
}

/** Ċ = v_B + ω_B × r_B − v_A − ω_A × r_A;  λ = −K⁻¹·(Ċ + β·C/h). */
export function solvePoint(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
  const J = ctx.joints, v = ctx.bodies.v, w = ctx.bodies.w;
  const a3 = 3 * iA, b3 = 3 * iB;
  const rax = J[o + RA]!, ray = J[o + RA + 1]!, raz = J[o + RA + 2]!;
  const rbx = J[o + RB]!, rby = J[o + RB + 1]!, rbz = J[o + RB + 2]!;
  const wax = w[a3]!, way = w[a3 + 1]!, waz = w[a3 + 2]!, wbx = w[b3]!, wby = w[b3 + 1]!, wbz = w[b3 + 2]!;
  let cx = v[b3]! + (wby * rbz - wbz * rby) - v[a3]! - (way * raz - waz * ray);
  let cy = v[b3 + 1]! + (wbz * rbx - wbx * rbz) - v[a3 + 1]! - (waz * rax - wax * raz);
  let cz = v[b3 + 2]! + (wbx * rby - wby * rbx) - v[a3 + 2]! - (wax * ray - way * rax);
  if (useBias && ctx.velocityBeta > 0) {
    const k = ctx.velocityBeta * ctx.invH, m = ctx.maxBiasVelocity;
    cx += Math.max(-m, Math.min(m, k * J[o + PC]!)); cy += Math.max(-m, Math.min(m, k * J[o + PC + 1]!)); cz += Math.max(-m, Math.min(m, k * J[o + PC + 2]!));
  }
  const k0 = J[o + PK]!, k1 = J[o + PK + 1]!, k2 = J[o + PK + 2]!, k3 = J[o + PK + 3]!, k4 = J[o + PK + 4]!, k5 = J[o + PK + 5]!;
  const px = -(k0 * cx + k1 * cy + k2 * cz), py = -(k1 * cx + k3 * cy + k4 * cz), pz = -(k2 * cx + k4 * cy + k5 * cz);
  J[o + PI] = J[o + PI]! + px; J[o + PI + 1] = J[o + PI + 1]! + py; J[o + PI + 2] = J[o + PI + 2]! + pz;
  const pointImpulse = ctx.scratch.pointImpulse;
  pointImpulse[0] = px; pointImpulse[1] = py; pointImpulse[2] = pz;
  kickPoint(ctx, o, iA, iB, pointImpulse, 0);
}

// ------------------------------------------------------------------------------ angular lock (2 or 3 rows)

/**
 * Angular lock rows with axes AX1..AX3 (world) and errors AC (rad); solved as one block with
 * K_ij = a_i·(I_A⁻¹ + I_B⁻¹)·a_j. `rows` is 2 (hinge) or 3 (fixed, prismatic).
 */
export function prepareAngularLock(ctx: StepContext, o: number, iA: number, iB: number, rows: 2 | 3): void {
  const J = ctx.joints;
  const a1x = J[o + AX1]!, a1y = J[o + AX1 + 1]!, a1z = J[o + AX1 + 2]!;
  const a2x = J[o + AX2]!, a2y = J[o + AX2 + 1]!, a2z = J[o + AX2 + 2]!;
  const k11 = angularK(ctx, iA, iB, a1x, a1y, a1z, a1x, a1y, a1z);
  const k12 = angularK(ctx, iA, iB, a1x, a1y, a1z, a2x, a2y, a2z);
  const k22 = angularK(ctx, iA, iB, a2x, a2y, a2z, a2x, a2y, a2z);
  if (rows === 2) {
    const det = k11 * k22 - k12 * k12;
    const s = Math.abs(det) > 1e-300 ? 1 / det : 0;
    J[o + AK] = k22 * s; J[o + AK + 1] = -k12 * s; J[o + AK + 3] = k11 * s;
    J[o + AK + 2] = 0; J[o + AK + 4] = 0; J[o + AK + 5] = 0;
    return;
  }
  const a3x = J[o + AX3]!, a3y = J[o + AX3 + 1]!, a3z = J[o + AX3 + 2]!;
  const k13 = angularK(ctx, iA, iB, a1x, a1y, a1z, a3x, a3y, a3z);
  const k23 = angularK(ctx, iA, iB, a2x, a2y, a2z, a3x, a3y, a3z);
  const k33 = angularK(ctx, iA, iB, a3x, a3y, a3z, a3x, a3y, a3z);
  invertSym3Into(J, o + AK, k11, k12, k13, k22, k23, k33);
}

export function warmStartAngularLock(ctx: StepContext, o: number, iA: number, iB: number, rows: 2 | 3): void {
  const J = ctx.joints, lv = ctx.scratch.lv;
  const l1 = J[o + AI]!, l2 = J[o + AI + 1]!, l3 = rows === 3 ? J[o + AI + 2]! : 0;
  lv[0] = J[o + AX1]! * l1 + J[o + AX2]! * l2 + J[o + AX3]! * l3;
  lv[1] = J[o + AX1 + 1]! * l1 + J[o + AX2 + 1]! * l2 + J[o + AX3 + 1]! * l3;
  lv[2] = J[o + AX1 + 2]! * l1 + J[o + AX2 + 2]! * l2 + J[o + AX3 + 2]! * l3;
  applyAngular(ctx, iA, iB);
}

export function solveAngularLock(ctx: StepContext, o: number, iA: number, iB: number, rows: 2 | 3, useBias: boolean): void {
  const J = ctx.joints, w = ctx.bodies.w, I = ctx.bodies.invIw;
  const k = useBias ? ctx.velocityBeta * ctx.invH : 0, mb = ctx.maxBiasVelocity;
  const a3 = 3 * iA, b3 = 3 * iB;
  const dx = w[b3]! - w[a3]!, dy = w[b3 + 1]! - w[a3 + 1]!, dz = w[b3 + 2]! - w[a3 + 2]!;
  const c1 = dx * J[o + AX1]! + dy * J[o + AX1 + 1]! + dz * J[o + AX1 + 2]! + Math.max(-mb, Math.min(mb, k * J[o + AC]!));
  const c2 = dx * J[o + AX2]! + dy * J[o + AX2 + 1]! + dz * J[o + AX2 + 2]! + Math.max(-mb, Math.min(mb, k * J[o + AC + 1]!));
  const c3 = rows === 3 ? dx * J[o + AX3]! + dy * J[o + AX3 + 1]! + dz * J[o + AX3 + 2]! + Math.max(-mb, Math.min(mb, k * J[o + AC + 2]!)) : 0;
  const k0 = J[o + AK]!, k1 = J[o + AK + 1]!, k2 = J[o + AK + 2]!, k3 = J[o + AK + 3]!, k4 = J[o + AK + 4]!, k5 = J[o + AK + 5]!;
  const l1 = -(k0 * c1 + k1 * c2 + k2 * c3), l2 = -(k1 * c1 + k3 * c2 + k4 * c3), l3 = -(k2 * c1 + k4 * c2 + k5 * c3);
  J[o + AI] = J[o + AI]! + l1; J[o + AI + 1] = J[o + AI + 1]! + l2; J[o + AI + 2] = J[o + AI + 2]! + l3;
  const ax = J[o + AX1]! * l1 + J[o + AX2]! * l2 + J[o + AX3]! * l3;
  const ay = J[o + AX1 + 1]! * l1 + J[o + AX2 + 1]! * l2 + J[o + AX3 + 1]! * l3;
  const az = J[o + AX1 + 2]! * l1 + J[o + AX2 + 2]! * l2 + J[o + AX3 + 2]! * l3;
  const a = 9 * iA, b = 9 * iB;
  w[a3] = w[a3]! - (I[a]! * ax + I[a + 1]! * ay + I[a + 2]! * az);
  w[a3 + 1] = w[a3 + 1]! - (I[a + 3]! * ax + I[a + 4]! * ay + I[a + 5]! * az);
  w[a3 + 2] = w[a3 + 2]! - (I[a + 6]! * ax + I[a + 7]! * ay + I[a + 8]! * az);
  w[b3] = w[b3]! + (I[b]! * ax + I[b + 1]! * ay + I[b + 2]! * az);
  w[b3 + 1] = w[b3 + 1]! + (I[b + 3]! * ax + I[b + 4]! * ay + I[b + 5]! * az);
  w[b3 + 2] = w[b3 + 2]! + (I[b + 6]! * ax + I[b + 7]! * ay + I[b + 8]! * az);
}

// -------------------------------------------------------------------------- unilateral angular limits

/** Limit rows about LIM_AXIS: lower C = θ − lo ≥ 0 and upper C = hi − θ ≥ 0, with θ = ANGLE (the caller has
 *  stored this substep's angle there) and [lo, hi] = [LIM_LO, LIM_HI]. Read from the record, not passed: V8
 *  boxes the doubles of a call it does not inline. */
export function prepareAngularLimit(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, value = J[o + ANGLE]!, lo = J[o + LIM_LO]!, hi = J[o + LIM_HI]!;
  const ax = J[o + LIM_AXIS]!, ay = J[o + LIM_AXIS + 1]!, az = J[o + LIM_AXIS + 2]!;
  const k = angularK(ctx, iA, iB, ax, ay, az, ax, ay, az);
  J[o + LIM_MASS] = k > 0 ? 1 / k : 0;
  J[o + LIM_C_LO] = value - lo;
  J[o + LIM_C_HI] = hi - value;
}

// ------------------------------------------------------------------------------------- angular motor rows

/** Report of this substep: the largest |λ_acc|/h over the rows (N·m) and ‖λ_acc‖/h, each kept as the largest
 *  over the step's substeps (beginStepJoints zeroes them), and whether the impulse ends the substep at the
 *  clamp (a row at ±τmax·h; in 'magnitude' mode the vector on the ball). */
export function storeMotorReport(ctx: StepContext, o: number, rows: number): void {
  const J = ctx.joints;
  const maxImpulse = J[o + M_CLAMP]! * ctx.h;
  let m = 0, n2 = 0;
  for (let k = 0; k < rows; k++) {
    const l = J[o + M_I + k]!;
    m = Math.max(m, Math.abs(l));
    n2 += l * l;
  }
  const n = Math.sqrt(n2);
  J[o + M_TORQUE] = Math.max(J[o + M_TORQUE]!, m * ctx.invH);
  J[o + M_TORQUE_NORM] = Math.max(J[o + M_TORQUE_NORM]!, n * ctx.invH);
  const atClamp = J[o + FLAGS]! & FLAG_TORQUE_BALL ? n : m;
  J[o + M_SATURATED] = maxImpulse > 0 && atClamp >= maxImpulse * (1 - 1e-9) ? 1 : 0;
}
