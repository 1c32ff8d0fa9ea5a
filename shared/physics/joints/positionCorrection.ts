/**
 * Stage "correct positions" for WorldSettings.jointCorrection = 'shake': the joints' equality rows (point, hinge/fixed angular lock) projected back onto
 * their constraint after the positions were integrated — SHAKE/RATTLE (Ryckaert 1977, Andersen 1983), not
 * Box2D v2.4's pure position projection.
 *
 * Why: the velocity rows make Ċ = J(x₀)·v = 0 at the START of the substep; integrating x₁ = x₀ + h·v then
 * drifts off a curved constraint by ≈ h²v²/(2L) (a pendulum bob flies outward). Projecting that drift away
 * along the gradient at the NEW pose without touching v (the old scheme) leaves v tangent to the old pose;
 * the next velocity solve removes its component along the new gradient, i.e. |v| shrinks by cos(h·v/L)
 * every substep: a double pendulum lost 40 % of its energy in 10 s at 60 Hz. SHAKE instead moves the bodies
 * along the START-of-substep Jacobian J(x₀) (arms RA/RB, axes AX and K⁻¹ kept from prepare) and changes the
 * velocities by the same pseudo-impulse / h, so v = (x₁ − x₀)/h; the next substep's velocity solve at x₁ is
 * RATTLE's velocity projection. For a body turning about a fixed pivot this conserves |v| exactly
 * (tangential part v·cosθ + (1 − cosθ)·L·sinθ/h = v with sinθ = h·v/L).
 *
 * Only the drift made in this substep gets the velocity change: the error already present at the start
 * (C₀ = PC/AC from prepare, left over by an earlier unconverged projection, a teleport or a collision) is
 * projected away without one, as before — otherwise it would act as a velocity Baumgarte term and pump
 * energy. Per iteration, with β = positionBeta and C the error at the current poses:
 *     P = −β·K₀⁻¹·C  moves the bodies,   P_v = −β·K₀⁻¹·(C − C_old)  changes the velocities by P_v/h,
 *     C_old ← (1 − β)·C_old.
 * Moves: p_A −= m_A⁻¹·P, θ_A = −I_A⁻¹·(r_A × P) (B with +), q ← normalize(q + ½·(θ, 0)⊗q); angular rows
 * θ_A = −I_A⁻¹·Σ aᵢλᵢ, θ_B = +I_B⁻¹·Σ aᵢλᵢ. The prismatic joint keeps the plain projection (Jacobian at
 * the current pose, no velocity change).
 *
 * These are the row-level moves; each joint type's correct() (registry.ts) computes its lock error into
 * ctx.scratch.ce and calls them, and the JointStore's correctJointPositions sweeps the joints in slot order.
 */
import type { StepContext } from '../stepContext';
import { kickAngularBy, push, turn } from './poseMoves';
import { AC, AC_OLD, AK, AX1, AX2, AX3, LA, LB, PC, PC_OLD, PK } from './jointLayout';
import { invertSym3Into, kickPoint, rotateFrom } from './rows';

/** Arms r_A, r_B (m, world) and inverse point-block mass K⁻¹ (xx xy xz yy yz zz) at the CURRENT poses,
 *  and the point error C = p_B + r_B − p_A − r_A, into ctx.scratch.cur (r_A 0..2, r_B 3..5, K⁻¹ 6..11,
 *  C 12..14). */
function currentPoint(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, b = ctx.bodies, p = b.p, q = b.q, I = b.invIw, cur = ctx.scratch.cur, tv = ctx.scratch.tv;
  rotateFrom(tv, q, 4 * iA, J, o + LA);
  const rax = tv[0]!, ray = tv[1]!, raz = tv[2]!;
  rotateFrom(tv, q, 4 * iB, J, o + LB);
  const rbx = tv[0]!, rby = tv[1]!, rbz = tv[2]!;
  cur[0] = rax; cur[1] = ray; cur[2] = raz; cur[3] = rbx; cur[4] = rby; cur[5] = rbz;
  cur[12] = p[3 * iB]! + rbx - p[3 * iA]! - rax;
  cur[13] = p[3 * iB + 1]! + rby - p[3 * iA + 1]! - ray;
  cur[14] = p[3 * iB + 2]! + rbz - p[3 * iA + 2]! - raz;
  const m = b.invMass[iA]! + b.invMass[iB]!;
  let kxx = m, kxy = 0, kxz = 0, kyy = m, kyz = 0, kzz = m;
  // K = (m_A⁻¹ + m_B⁻¹)·E − [r_A]×·I_A⁻¹·[r_A]× − [r_B]×·I_B⁻¹·[r_B]× (as preparePoint).
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
  invertSym3Into(cur, 6, kxx, kxy, kxz, kyy, kyz, kzz);
}

/**
 * The positions move along the CURRENT Jacobian (a Newton step on C, which converges along an 8-link chain
 * whipping 0.3 rad per step where the start-pose Jacobian does not), the velocities along the start-pose one
 * (RA/RB/PK, the SHAKE direction). Both carry the same multiplier to first order; the difference is
 * O(rotation per substep × correction), far below the drift itself.
 */
export function shakePoint(ctx: StepContext, o: number, iA: number, iB: number, first: boolean): void {
  const J = ctx.joints, beta = ctx.positionBeta, cur = ctx.scratch.cur, mv = ctx.scratch.mv, pointImpulse = ctx.scratch.pointImpulse;
  currentPoint(ctx, o, iA, iB);
  const cx = cur[12]!, cy = cur[13]!, cz = cur[14]!;
  const src = first ? PC : PC_OLD;
  const ox = J[o + src]!, oy = J[o + src + 1]!, oz = J[o + src + 2]!;
  J[o + PC_OLD] = (1 - beta) * ox; J[o + PC_OLD + 1] = (1 - beta) * oy; J[o + PC_OLD + 2] = (1 - beta) * oz;
  const c0 = cur[6]!, c1 = cur[7]!, c2 = cur[8]!, c3 = cur[9]!, c4 = cur[10]!, c5 = cur[11]!;
  mv[0] = -beta * (c0 * cx + c1 * cy + c2 * cz); mv[1] = -beta * (c1 * cx + c3 * cy + c4 * cz); mv[2] = -beta * (c2 * cx + c4 * cy + c5 * cz);
  mv[3] = cur[0]!; mv[4] = cur[1]!; mv[5] = cur[2]!; mv[6] = cur[3]!; mv[7] = cur[4]!; mv[8] = cur[5]!;
  push(ctx, iA, iB);
  const k0 = J[o + PK]!, k1 = J[o + PK + 1]!, k2 = J[o + PK + 2]!, k3 = J[o + PK + 3]!, k4 = J[o + PK + 4]!, k5 = J[o + PK + 5]!;
  const s = -beta * ctx.invH, dx = cx - ox, dy = cy - oy, dz = cz - oz;
  pointImpulse[0] = s * (k0 * dx + k1 * dy + k2 * dz); pointImpulse[1] = s * (k1 * dx + k3 * dy + k4 * dz); pointImpulse[2] = s * (k2 * dx + k4 * dy + k5 * dz);
  kickPoint(ctx, o, iA, iB, pointImpulse, 0);
}

/** Angular lock rows (2: hinge, 3: fixed) with their start-of-substep axes AX and K⁻¹ and the error at the
 *  current poses in ctx.scratch.ce (the joint type computes it, with the function its prepare evaluates). */
export function shakeLock(ctx: StepContext, o: number, iA: number, iB: number, rows: 2 | 3, first: boolean): void {
  const J = ctx.joints, beta = ctx.positionBeta, ce = ctx.scratch.ce, lv = ctx.scratch.lv;
  const c1 = ce[0]!, c2 = ce[1]!, c3 = ce[2]!;
  const src = first ? AC : AC_OLD;
  const o1 = J[o + src]!, o2 = J[o + src + 1]!, o3 = rows === 3 ? J[o + src + 2]! : 0;
  J[o + AC_OLD] = (1 - beta) * o1; J[o + AC_OLD + 1] = (1 - beta) * o2; J[o + AC_OLD + 2] = (1 - beta) * o3;
  const k0 = J[o + AK]!, k1 = J[o + AK + 1]!, k2 = J[o + AK + 2]!, k3 = J[o + AK + 3]!, k4 = J[o + AK + 4]!, k5 = J[o + AK + 5]!;
  // Position: λ = −β·K⁻¹·C; velocity: λ_v = −β·K⁻¹·(C − C_old)/h (2-row K stores zeros in its third row).
  for (let pass = 0; pass < 2; pass++) {
    const e1 = pass === 0 ? c1 : c1 - o1, e2 = pass === 0 ? c2 : c2 - o2, e3 = pass === 0 ? c3 : c3 - o3;
    const s = pass === 0 ? -beta : -beta * ctx.invH;
    const l1 = s * (k0 * e1 + k1 * e2 + k2 * e3), l2 = s * (k1 * e1 + k3 * e2 + k4 * e3), l3 = rows === 3 ? s * (k2 * e1 + k4 * e2 + k5 * e3) : 0;
    const lx = J[o + AX1]! * l1 + J[o + AX2]! * l2 + J[o + AX3]! * l3;
    const ly = J[o + AX1 + 1]! * l1 + J[o + AX2 + 1]! * l2 + J[o + AX3 + 1]! * l3;
    const lz = J[o + AX1 + 2]! * l1 + J[o + AX2 + 2]! * l2 + J[o + AX3 + 2]! * l3;
    lv[0] = lx; lv[1] = ly; lv[2] = lz;
    if (pass === 0) turn(ctx, iA, iB); else kickAngularBy(ctx, iA, iB);
  }
}
