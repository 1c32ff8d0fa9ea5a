/**
 * Moves of the position-level joint correction (positionProjection.ts, positionCorrection.ts), with their
 * vector inputs in the step context's scratch (ctx.scratch.lv: the angular pseudo-impulse L, world, N·m·s or
 * kg·m²; ctx.scratch.mv: push()'s linear pseudo-impulse P (0..2), arm r_A (3..5), arm r_B (6..8)): V8 boxes
 * every double argument of a call it does not inline in a fresh heap number, and these run per joint per
 * position iteration (≈ 400 KB of garbage per step with 128 ragdolls when they took nine doubles each).
 */
import type { StepContext } from '../stepContext';

/** Rotate body i by θ = sign·I_i⁻¹·L (rad, L = lv): q ← normalize(q + ½·(θ,0)⊗q). */
export function turnBy(ctx: StepContext, i: number, sign: number): void {
  const I = ctx.bodies.invIw, a = 9 * i, lv = ctx.scratch.lv, lx = lv[0]!, ly = lv[1]!, lz = lv[2]!;
  const tx = sign * (I[a]! * lx + I[a + 1]! * ly + I[a + 2]! * lz);
  const ty = sign * (I[a + 3]! * lx + I[a + 4]! * ly + I[a + 5]! * lz);
  const tz = sign * (I[a + 6]! * lx + I[a + 7]! * ly + I[a + 8]! * lz);
  const q = ctx.bodies.q, o = 4 * i;
  const qx = q[o]!, qy = q[o + 1]!, qz = q[o + 2]!, qw = q[o + 3]!;
  const nx = qx + 0.5 * (tx * qw + ty * qz - tz * qy);
  const ny = qy + 0.5 * (ty * qw + tz * qx - tx * qz);
  const nz = qz + 0.5 * (tz * qw + tx * qy - ty * qx);
  const nw = qw - 0.5 * (tx * qx + ty * qy + tz * qz);
  const s = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
  q[o] = nx * s; q[o + 1] = ny * s; q[o + 2] = nz * s; q[o + 3] = nw * s;
}

/** Angular pseudo-impulse L = ctx.scratch.lv: A turns by −I_A⁻¹·L, B by +I_B⁻¹·L (static/kinematic bodies stay). */
export function turn(ctx: StepContext, iA: number, iB: number): void {
  if (ctx.bodies.invMass[iA]! > 0) turnBy(ctx, iA, -1);
  if (ctx.bodies.invMass[iB]! > 0) turnBy(ctx, iB, 1);
}

/** Linear pseudo-impulse P at arms r_A, r_B (all in ctx.scratch.mv): −P at A, +P at B, positions and rotations. */
export function push(ctx: StepContext, iA: number, iB: number): void {
  const b = ctx.bodies, p = b.p, mA = b.invMass[iA]!, mB = b.invMass[iB]!, mv = ctx.scratch.mv, lv = ctx.scratch.lv;
  const px = mv[0]!, py = mv[1]!, pz = mv[2]!;
  if (mA > 0) {
    p[3 * iA] = p[3 * iA]! - mA * px; p[3 * iA + 1] = p[3 * iA + 1]! - mA * py; p[3 * iA + 2] = p[3 * iA + 2]! - mA * pz;
    const rx = mv[3]!, ry = mv[4]!, rz = mv[5]!;
    lv[0] = ry * pz - rz * py; lv[1] = rz * px - rx * pz; lv[2] = rx * py - ry * px;
    turnBy(ctx, iA, -1);
  }
  if (mB > 0) {
    p[3 * iB] = p[3 * iB]! + mB * px; p[3 * iB + 1] = p[3 * iB + 1]! + mB * py; p[3 * iB + 2] = p[3 * iB + 2]! + mB * pz;
    const rx = mv[6]!, ry = mv[7]!, rz = mv[8]!;
    lv[0] = ry * pz - rz * py; lv[1] = rz * px - rx * pz; lv[2] = rx * py - ry * px;
    turnBy(ctx, iB, 1);
  }
}

/** Angular impulse L = ctx.scratch.lv on the velocities: ω_A −= I_A⁻¹·L, ω_B += I_B⁻¹·L. */
export function kickAngularBy(ctx: StepContext, iA: number, iB: number): void {
  const I = ctx.bodies.invIw, w = ctx.bodies.w, lv = ctx.scratch.lv, ax = lv[0]!, ay = lv[1]!, az = lv[2]!;
  const a = 9 * iA, b = 9 * iB, a3 = 3 * iA, b3 = 3 * iB;
  w[a3] = w[a3]! - (I[a]! * ax + I[a + 1]! * ay + I[a + 2]! * az);
  w[a3 + 1] = w[a3 + 1]! - (I[a + 3]! * ax + I[a + 4]! * ay + I[a + 5]! * az);
  w[a3 + 2] = w[a3 + 2]! - (I[a + 6]! * ax + I[a + 7]! * ay + I[a + 8]! * az);
  w[b3] = w[b3]! + (I[b]! * ax + I[b + 1]! * ay + I[b + 2]! * az);
  w[b3 + 1] = w[b3 + 1]! + (I[b + 3]! * ax + I[b + 4]! * ay + I[b + 5]! * az);
  w[b3 + 2] = w[b3 + 2]! + (I[b + 6]! * ax + I[b + 7]! * ay + I[b + 8]! * az);
}
