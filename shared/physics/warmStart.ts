/**
 * The joints' warm start with World settings warmStart 'energy' (the runtime's for every rig; issue 11
 * item 4): the impulses carried from the last substep are applied, then scaled per island by an exact line
 * search on the island's kinetic energy — the warm start taken as the first step of the solve — so it
 * never leaves an island with more kinetic energy than applying none of it would.
 *
 * Why: joint rows are rigid and carry no bias, so on their own they can only take kinetic energy out
 * (each row's update projects the velocities onto the row in the mass metric; the Gauss-Seidel solve
 * minimises ½λᵀAλ + λᵀJv, which is exactly the kinetic energy change). The accumulated impulses of the
 * last substep, applied along this substep's rows, are not such a projection: when they are not a steady
 * reaction (a light body between heavy ones, few velocity iterations, a motor pressed against a stop,
 * large mass ratios), they kick the bodies, the iterations take back only part of the kick, and the rest
 * is carried into the next substep's impulses — a pump (measured on a random rig: +5.3e5 J in the warm
 * start, −5.2e5 J in the solve over 10 steps). At rest the search keeps the whole warm start: there the
 * carried impulses cancel the velocity gravity just gave, which is exactly the minimiser.
 *
 * Three parts, applied one after the other:
 *   free motors — a motor whose joint is free of its stops drives, it does work on purpose (a limb
 *     accelerated along a crawl stroke gains energy from its motor's warm start): applied in full;
 *   stops (Δ₁) — the limits, and a motor pressed against its own joint's active limit (a limit impulse
 *     > 0 carried over: it does no work, its impulse only balances the stop — the pair where much of the
 *     pump was, a position motor toward a rest pose its limit excludes): scaled by α;
 *   rows (Δ₂) — the constraint rows (point, angular lock, slide): scaled by β;
 *   KE(α, β) = KE₀ + α·a₁ + β·a₂ + ½(α²b₁₁ + 2αβ·b₁₂ + β²b₂₂), a_i = ⟨v₀, Δ_i⟩, b_ij = ⟨Δ_i, Δ_j⟩ in the
 *   mass metric (m for v, the inertia for ω); (α, β) its minimum over [0, 1]², per island; the bodies
 *   end at v₀ + α·Δ₁ + β·Δ₂ and the island's carried impulses are scaled the same way.
 * Contacts are warm started before, in full (their soft rows leak impulse already), so the search sees the
 * floor's reaction: a standing creature's joint impulses press its feet into the floor, and without the
 * floor's push back in the velocities that looked like energy and the weight-bearing impulses were cut.
 *
 * Allocation-free per substep (buffers grow with the world).
 */
import { DYNAMIC, type BodyStore } from './bodies';
import type { Islands } from './islands';
import { BODY_A, BODY_B, M_I, S_I, STRIDE, TYPE } from './joints/jointLayout';
import type { JointStore } from './joints/jointStore';
import type { JointTypeDef } from './joints/jointType';
import { JOINT_TYPES } from './joints/registry';
import type { StepContext } from './stepContext';

/** Per field of a type's `impulses`: 1 a motor row's impulse (M_I…, S_I…), 2 a limit's, 0 a constraint row's. */
function fieldClasses(def: JointTypeDef): Uint8Array {
  const lim = def.limitImpulses ?? [];
  return Uint8Array.from(def.impulses, (f) => ((f >= M_I && f < M_I + 3) || f === S_I || f === S_I + 1 ? 1 : lim.includes(f) ? 2 : 0));
}
/** Per joint type code, filled on first use (a type may be registered after this module loads). */
const CLASSES: Uint8Array[] = [];
function classesOf(t: number): Uint8Array {
  let c = CLASSES[t];
  if (c === undefined) { c = fieldClasses(JOINT_TYPES[t]!); CLASSES[t] = c; }
  return c;
}

/** The warm start's three parts: free motors (in full), stops (limits and the motors pressed against
 *  them, scaled by α), constraint rows (scaled by β). */
const FREE = 0, STOPS = 1, ROWS = 2;

export class WarmStart {
  private v0 = new Float64Array(0);
  private w0 = new Float64Array(0);
  private v1 = new Float64Array(0);
  private w1 = new Float64Array(0);
  /** Every carried impulse, `stride` per joint slot, while the parts are applied one at a time. */
  private held = new Float64Array(0);
  private stride = 0;
  /** Per joint slot: 1 when its motor is free of its stops. */
  private freeMotor = new Uint8Array(0);
  /** Per carried impulse (as `held`): its part, FREE, STOPS or ROWS, fixed for the substep. */
  private partOf = new Uint8Array(0);
  /** Per island: α (stops) and β (rows). */
  private alpha = new Float64Array(0);
  private beta = new Float64Array(0);
  /** The smallest of α and β in the last substep over the islands (1: the warm start kept whole). */
  smallestAlpha = 1;

  private part(c: number, j: number): number {
    return c === 0 ? ROWS : c === 2 ? STOPS : this.freeMotor[j] === 1 ? FREE : STOPS;
  }

  /** Warm start every joint (islands already built for this substep). */
  run(ctx: StepContext, js: JointStore, isl: Islands): void {
    const J = ctx.joints, n = js.count, b = ctx.bodies;
    if (this.stride === 0) for (const def of JOINT_TYPES) this.stride = Math.max(this.stride, def.impulses.length);
    if (this.freeMotor.length < n) {
      this.freeMotor = new Uint8Array(2 * n); this.held = new Float64Array(2 * n * this.stride); this.partOf = new Uint8Array(2 * n * this.stride);
    }
    const held = this.held, free = this.freeMotor, st = this.stride, partOf = this.partOf;
    for (let j = 0; j < n; j++) {
      if (js.alive[j] === 0) continue;
      const o = j * STRIDE, t = J[o + TYPE]!, imp = JOINT_TYPES[t]!.impulses, cls = classesOf(t);
      let f = 1;
      for (let k = 0; k < imp.length; k++) {
        const x = J[o + imp[k]!]!;
        held[j * st + k] = x;
        if (cls[k] === 2 && x > 0) f = 0;
      }
      free[j] = f;
      for (let k = 0; k < imp.length; k++) partOf[j * st + k] = this.part(cls[k]!, j);
    }
    this.apply(ctx, js, FREE);
    this.save(b, 0);
    this.apply(ctx, js, STOPS);
    this.save(b, 1);
    this.apply(ctx, js, ROWS);
    this.search(b, isl);
    // The searched impulses carry α, β on; every field back from `held`.
    const ia = isl.islandOf, alpha = this.alpha, beta = this.beta;
    for (let j = 0; j < n; j++) {
      if (js.alive[j] === 0) continue;
      const o = j * STRIDE, imp = JOINT_TYPES[J[o + TYPE]!]!.impulses;
      const iA = J[o + 1]!, iB = J[o + 2]!;
      const k = b.type[iA] === DYNAMIC ? ia[iA]! : b.type[iB] === DYNAMIC ? ia[iB]! : -1;
      const a = k < 0 ? 1 : alpha[k]!, be = k < 0 ? 1 : beta[k]!;
      for (let q = 0; q < imp.length; q++) {
        const p = partOf[j * st + q]!;
        J[o + imp[q]!] = p === FREE ? held[j * st + q]! : held[j * st + q]! * (p === STOPS ? a : be);
      }
    }
  }

  /** Warm start only part `p` of every joint (the other impulses zero meanwhile); `held` gets the part's
   *  impulses as the type's warm start left them (a motor's clamped to its limit).
   *
   *  A joint with nothing in part `p` (every impulse it would apply zero) is not kicked at all: its kick
   *  would add zeros to the velocities. Each joint's kick reads only its own record, so kicking joint j
   *  right after writing its impulses is the same as warmStartJoints after all of them (slot order kept).
   *  A rig's joints mostly have all three parts empty but one or two (free motors, stops, rows), so this
   *  runs about one full warm start's kicks instead of three. */
  private apply(ctx: StepContext, js: JointStore, p: number): void {
    const J = ctx.joints, n = js.count, held = this.held, st = this.stride, partOf = this.partOf;
    for (let j = 0; j < n; j++) {
      if (js.alive[j] === 0) continue;
      const o = j * STRIDE, def = JOINT_TYPES[J[o + TYPE]!]!, imp = def.impulses, h = j * st;
      let any = false;
      for (let k = 0; k < imp.length; k++) {
        const x = partOf[h + k] === p ? held[h + k]! : 0;
        J[o + imp[k]!] = x;
        if (x !== 0) any = true;
      }
      if (!any) continue;
      def.warmStart(ctx, o, J[o + BODY_A]!, J[o + BODY_B]!);
      for (let k = 0; k < imp.length; k++) if (partOf[h + k] === p) held[h + k] = J[o + imp[k]!]!;
    }
  }

  /** Copy the bodies' velocities into (v0, w0) (which = 0) or (v1, w1) (which = 1). */
  private save(b: BodyStore, which: number): void {
    const n = 3 * b.count;
    if (this.v0.length < n) {
      this.v0 = new Float64Array(2 * n); this.w0 = new Float64Array(2 * n); this.v1 = new Float64Array(2 * n); this.w1 = new Float64Array(2 * n);
    }
    const v = b.v, w = b.w, vs = which === 0 ? this.v0 : this.v1, ws = which === 0 ? this.w0 : this.w1;
    for (let i = 0; i < n; i++) { vs[i] = v[i]!; ws[i] = w[i]!; }
  }

  /**
   * Per island, (α, β) ∈ [0, 1]² minimising the kinetic energy after the warm start,
   *   KE = KE₀ + α·a₁ + β·a₂ + ½·(α²·b₁₁ + 2αβ·b₁₂ + β²·b₂₂),
   * with Δ₁ the stops' velocity change (v₁ − v₀), Δ₂ the rows' (v − v₁), a_i = ⟨v₀, Δ_i⟩, b_ij = ⟨Δ_i, Δ_j⟩
   * in the mass metric (m for v, the inertia for ω); the bodies' velocities become v₀ + α·Δ₁ + β·Δ₂.
   */
  private search(b: BodyStore, isl: Islands): void {
    const nk = isl.count;
    if (this.acc.length < 5 * nk) { this.acc = new Float64Array(10 * nk); this.alpha = new Float64Array(2 * nk); this.beta = new Float64Array(2 * nk); }
    const acc = this.acc, io = isl.islandOf, v = b.v, w = b.w, v0 = this.v0, w0 = this.w0, v1 = this.v1, w1 = this.w1, q = b.q, Il = b.Il;
    acc.fill(0, 0, 5 * nk);
    for (let i = 1; i < b.count; i++) {
      if (b.alive[i] === 0 || b.type[i] !== DYNAMIC) continue;
      const k5 = 5 * io[i]!, i3 = 3 * i, m = b.mass[i]!;
      const ux = v0[i3]!, uy = v0[i3 + 1]!, uz = v0[i3 + 2]!;
      const p1x = v1[i3]! - ux, p1y = v1[i3 + 1]! - uy, p1z = v1[i3 + 2]! - uz;
      const p2x = v[i3]! - v1[i3]!, p2y = v[i3 + 1]! - v1[i3 + 1]!, p2z = v[i3 + 2]! - v1[i3 + 2]!;
      // Angular parts in body axes (Rᵀ·ω) with the body-frame inertia.
      const x = q[4 * i]!, y = q[4 * i + 1]!, z = q[4 * i + 2]!, s = q[4 * i + 3]!;
      const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * s), r02 = 2 * (x * z + y * s);
      const r10 = 2 * (x * y + z * s), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * s);
      const r20 = 2 * (x * z - y * s), r21 = 2 * (y * z + x * s), r22 = 1 - 2 * (x * x + y * y);
      let gx = w0[i3]!, gy = w0[i3 + 1]!, gz = w0[i3 + 2]!;
      const ex = r00 * gx + r10 * gy + r20 * gz, ey = r01 * gx + r11 * gy + r21 * gz, ez = r02 * gx + r12 * gy + r22 * gz;
      gx = w1[i3]! - w0[i3]!; gy = w1[i3 + 1]! - w0[i3 + 1]!; gz = w1[i3 + 2]! - w0[i3 + 2]!;
      const d1x = r00 * gx + r10 * gy + r20 * gz, d1y = r01 * gx + r11 * gy + r21 * gz, d1z = r02 * gx + r12 * gy + r22 * gz;
      gx = w[i3]! - w1[i3]!; gy = w[i3 + 1]! - w1[i3 + 1]!; gz = w[i3 + 2]! - w1[i3 + 2]!;
      const d2x = r00 * gx + r10 * gy + r20 * gz, d2y = r01 * gx + r11 * gy + r21 * gz, d2z = r02 * gx + r12 * gy + r22 * gz;
      const o9 = 9 * i;
      const i0 = Il[o9]!, i1 = Il[o9 + 1]!, i2 = Il[o9 + 2]!, i4 = Il[o9 + 4]!, i5 = Il[o9 + 5]!, i8 = Il[o9 + 8]!;
      const l1x = i0 * d1x + i1 * d1y + i2 * d1z, l1y = i1 * d1x + i4 * d1y + i5 * d1z, l1z = i2 * d1x + i5 * d1y + i8 * d1z;
      const l2x = i0 * d2x + i1 * d2y + i2 * d2z, l2y = i1 * d2x + i4 * d2y + i5 * d2z, l2z = i2 * d2x + i5 * d2y + i8 * d2z;
      acc[k5] = acc[k5]! + m * (ux * p1x + uy * p1y + uz * p1z) + ex * l1x + ey * l1y + ez * l1z;
      acc[k5 + 1] = acc[k5 + 1]! + m * (ux * p2x + uy * p2y + uz * p2z) + ex * l2x + ey * l2y + ez * l2z;
      acc[k5 + 2] = acc[k5 + 2]! + m * (p1x * p1x + p1y * p1y + p1z * p1z) + d1x * l1x + d1y * l1y + d1z * l1z;
      acc[k5 + 3] = acc[k5 + 3]! + m * (p1x * p2x + p1y * p2y + p1z * p2z) + d1x * l2x + d1y * l2y + d1z * l2z;
      acc[k5 + 4] = acc[k5 + 4]! + m * (p2x * p2x + p2y * p2y + p2z * p2z) + d2x * l2x + d2y * l2y + d2z * l2z;
    }
    let smallest = 1;
    const alpha = this.alpha, beta = this.beta;
    for (let k = 0; k < nk; k++) {
      const k5 = 5 * k;
      boxMin(acc[k5]!, acc[k5 + 1]!, acc[k5 + 2]!, acc[k5 + 3]!, acc[k5 + 4]!, this.ab);
      alpha[k] = this.ab[0]!; beta[k] = this.ab[1]!;
      smallest = Math.min(smallest, this.ab[0]!, this.ab[1]!);
    }
    this.smallestAlpha = smallest;
    for (let i = 1; i < b.count; i++) {
      if (b.alive[i] === 0 || b.type[i] !== DYNAMIC) continue;
      const a = alpha[io[i]!]!, be = beta[io[i]!]!;
      if (a === 1 && be === 1) continue;
      const i3 = 3 * i;
      for (let c = i3; c < i3 + 3; c++) {
        v[c] = v0[c]! + a * (v1[c]! - v0[c]!) + be * (v[c]! - v1[c]!);
        w[c] = w0[c]! + a * (w1[c]! - w0[c]!) + be * (w[c]! - w1[c]!);
      }
    }
  }

  private acc = new Float64Array(0);
  private readonly ab = new Float64Array(2);
}

/** f(α, β) = a₁α + a₂β + ½(b₁₁α² + 2b₁₂αβ + b₂₂β²) (convex) minimised over [0, 1]², into out; where a part
 *  is empty (b_ii = 0) its factor is 1. The minimum is inside or on an edge; each edge is a clamped 1-D minimum. */
function boxMin(a1: number, a2: number, b11: number, b12: number, b22: number, out: Float64Array): void {
  if (!(b11 > 0) && !(b22 > 0)) { out[0] = 1; out[1] = 1; return; }
  if (!(b11 > 0)) { out[0] = 1; out[1] = clamp01(-(a2 + b12) / b22); return; }
  if (!(b22 > 0)) { out[1] = 1; out[0] = clamp01(-(a1 + b12) / b11); return; }
  const det = b11 * b22 - b12 * b12;
  if (det > 1e-12 * b11 * b22) {
    const x = (-a1 * b22 + a2 * b12) / det, y = (-a2 * b11 + a1 * b12) / det;
    if (x >= 0 && x <= 1 && y >= 0 && y <= 1) { out[0] = x; out[1] = y; return; }
  }
  let bx = 1, by = 1, best = Infinity;
  for (let e = 0; e < 4; e++) {
    let x: number, y: number;
    if (e < 2) { x = e; y = clamp01(-(a2 + b12 * x) / b22); } else { y = e - 2; x = clamp01(-(a1 + b12 * y) / b11); }
    const f = a1 * x + a2 * y + 0.5 * (b11 * x * x + 2 * b12 * x * y + b22 * y * y);
    if (f < best) { best = f; bx = x; by = y; }
  }
  out[0] = bx; out[1] = by;
}

const clamp01 = (x: number): number => (x > 1 ? 1 : x < 0 ? 0 : x);
