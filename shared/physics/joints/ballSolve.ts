/**
 * The ball (and hinge) joint's velocity rows in one pass with both bodies' v, ω and world inverse inertias in locals:
 * motor rows (3), twist limit (2 sides), swing cone, point block (the ragdoll bench spends most of its step
 * in these rows: 7 rows × 10 sweeps per joint). These are the only solve of the motor, limit and swing rows;
 * their prepare and warm-start halves are in rows.ts, as is solvePoint, whose arithmetic the point block
 * repeats in the same order (tests/unit/physics/bitIdentical.test.ts pins the solver's results bit for bit).
 *  - Motor row k (axis MAXIS+3k, world): Δλ = −m·(Ċ − rhs + γ·λ_acc), with m = 1/(K + γ) and the
 *    ACCUMULATED impulse clamped to ±τmax·h, applying only the difference (Box2D's motor; the Armed Mine's
 *    torque limit). rhs/γ encode the mode (see motor.ts).
 *  - Limit (Box2D v3's): when C > 0 the row is speculative (bias C/h lets the joint approach the stop
 *    exactly within this step but not cross it); when C < 0 the solve pass pushes back at β·C/h, the relax
 *    pass only stops further penetration. Accumulated impulse ≥ 0 (a stop pushes, never pulls).
 *  - Swing cone: C = SW_C ≥ 0 along SW_AXIS, increasing swing is +(ω_B − ω_A)·axis; solved as the limit.
 */
import type { StepContext } from '../stepContext';
import {
  AC, AI, AK, AX1, AX2, AX3, FLAG_LIMIT, FLAG_SWING, FLAG_TWIST, FLAGS, LIM_AXIS, LIM_C_HI, LIM_C_LO, LIM_I_HI, LIM_I_LO, LIM_MASS, M_CLAMP, M_GAMMA, M_I,
  M_MASS, M_RHS, MAXIS, PC, PI, PK, RA, RB, SW_AXIS, SW_C, SW_I, SW_MASS,
} from './jointLayout';
import { activeMotorRows } from './motor';

export function solveBallRows(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
  const J = ctx.joints, bodies = ctx.bodies, v = bodies.v, w = bodies.w, I = bodies.invIw, flags = J[o + FLAGS]!;
  const a3 = 3 * iA, b3 = 3 * iB, a = 9 * iA, b = 9 * iB;
  const a0 = I[a]!, a1 = I[a + 1]!, a2 = I[a + 2]!, a3_ = I[a + 3]!, a4 = I[a + 4]!, a5 = I[a + 5]!, a6 = I[a + 6]!, a7 = I[a + 7]!, a8 = I[a + 8]!;
  const b0 = I[b]!, b1 = I[b + 1]!, b2 = I[b + 2]!, b3_ = I[b + 3]!, b4 = I[b + 4]!, b5 = I[b + 5]!, b6 = I[b + 6]!, b7 = I[b + 7]!, b8 = I[b + 8]!;
  let wax = w[a3]!, way = w[a3 + 1]!, waz = w[a3 + 2]!, wbx = w[b3]!, wby = w[b3 + 1]!, wbz = w[b3 + 2]!;

  if (activeMotorRows(J, o, 3) > 0) {
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
 * The hinge's rows in one pass, the same way: motor row, limit (2 sides), the 2-row angular lock, point block
 * (the lock and the point block as solveAngularLock(2) and solvePoint in rows.ts; bit-identical).
 */
export function solveHingeRows(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
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
