/**
 * Stage "relax positions": non-linear Gauss-Seidel on the joints' equality rows (Box2D v2.4's
 * SolvePositionConstraints, Jolt's position steps). Per joint, C is recomputed from the CURRENT poses, and
 * the bodies are moved by the pseudo-impulse P = −β·K⁻¹·C:
 *     p_A −= m_A⁻¹·P,  p_B += m_B⁻¹·P,  θ_A = −I_A⁻¹·(r_A × P),  θ_B = I_B⁻¹·(r_B × P),
 *     q ← normalize(q + ½·(θ, 0)⊗q)
 * (angular rows: θ_A = −I_A⁻¹·Σ aᵢλᵢ, θ_B = +I_B⁻¹·Σ aᵢλᵢ). Velocities are untouched, so the correction
 * adds no energy. K uses the substep's world inverse inertia (first order in the rotation, as Box2D).
 *
 * This is WorldSettings.jointCorrection = 'projection' (the default). It is dissipative: the velocity keeps
 * pointing along the tangent of the pose before the projection, and the next velocity solve cuts its
 * component along the new constraint normal, |v|·(1 − cos(h·v/L)) per substep (a double pendulum loses 40 %
 * of its energy in 10 s at 60 Hz). 'shake' (positionCorrection.ts) does not.
 */
import type { StepContext } from '../stepContext';
import { push, turn, turnBy } from './poseMoves';
import { AC, AK, AX1, AX2, AX3, JA1, JA2, JB1, JB2, LC, LK, N1, N2, PC, PK, RA, RB } from './jointLayout';
import { angularK, preparePoint } from './rows';

/** Point block: recompute C at the current poses (preparePoint) and push the bodies by −β·K⁻¹·C. */
export function projectPoint(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, beta = ctx.positionBeta, mv = ctx.scratch.mv;
  preparePoint(ctx, o, iA, iB);
  const cx = J[o + PC]!, cy = J[o + PC + 1]!, cz = J[o + PC + 2]!;
  const k0 = J[o + PK]!, k1 = J[o + PK + 1]!, k2 = J[o + PK + 2]!, k3 = J[o + PK + 3]!, k4 = J[o + PK + 4]!, k5 = J[o + PK + 5]!;
  mv[0] = -beta * (k0 * cx + k1 * cy + k2 * cz); mv[1] = -beta * (k1 * cx + k3 * cy + k4 * cz); mv[2] = -beta * (k2 * cx + k4 * cy + k5 * cz);
  mv[3] = J[o + RA]!; mv[4] = J[o + RA + 1]!; mv[5] = J[o + RA + 2]!; mv[6] = J[o + RB]!; mv[7] = J[o + RB + 1]!; mv[8] = J[o + RB + 2]!;
  push(ctx, iA, iB);
}

/** Angular lock rows (2 for a hinge, 3 for fixed/prismatic), their axes AX, errors AC and K⁻¹ prepared at
 *  the current poses by the caller: λ = −β·K⁻¹·C about the axes. */
export function projectLock(ctx: StepContext, o: number, iA: number, iB: number, rows: 2 | 3): void {
  const J = ctx.joints, beta = ctx.positionBeta, lv = ctx.scratch.lv;
  const c1 = J[o + AC]!, c2 = J[o + AC + 1]!, c3 = rows === 3 ? J[o + AC + 2]! : 0;
  const k0 = J[o + AK]!, k1 = J[o + AK + 1]!, k2 = J[o + AK + 2]!, k3 = J[o + AK + 3]!, k4 = J[o + AK + 4]!, k5 = J[o + AK + 5]!;
  const l1 = -beta * (k0 * c1 + k1 * c2 + k2 * c3), l2 = -beta * (k1 * c1 + k3 * c2 + k4 * c3), l3 = rows === 3 ? -beta * (k2 * c1 + k4 * c2 + k5 * c3) : 0;
  lv[0] = J[o + AX1]! * l1 + J[o + AX2]! * l2 + J[o + AX3]! * l3;
  lv[1] = J[o + AX1 + 1]! * l1 + J[o + AX2 + 1]! * l2 + J[o + AX3 + 1]! * l3;
  lv[2] = J[o + AX1 + 2]! * l1 + J[o + AX2 + 2]! * l2 + J[o + AX3 + 2]! * l3;
  turn(ctx, iA, iB);
}

/** Prismatic perpendicular rows (prepared at the current poses by the caller): λ = −β·K⁻¹·C along n₁, n₂
 *  with the angular parts JA, JB. */
export function projectSlide(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, beta = ctx.positionBeta, b = ctx.bodies, p = b.p, lv = ctx.scratch.lv;
  const c1 = J[o + LC]!, c2 = J[o + LC + 1]!;
  const l1 = -beta * (J[o + LK]! * c1 + J[o + LK + 1]! * c2), l2 = -beta * (J[o + LK + 1]! * c1 + J[o + LK + 2]! * c2);
  const px = J[o + N1]! * l1 + J[o + N2]! * l2, py = J[o + N1 + 1]! * l1 + J[o + N2 + 1]! * l2, pz = J[o + N1 + 2]! * l1 + J[o + N2 + 2]! * l2;
  const ax = J[o + JA1]! * l1 + J[o + JA2]! * l2, ay = J[o + JA1 + 1]! * l1 + J[o + JA2 + 1]! * l2, az = J[o + JA1 + 2]! * l1 + J[o + JA2 + 2]! * l2;
  const bx = J[o + JB1]! * l1 + J[o + JB2]! * l2, by = J[o + JB1 + 1]! * l1 + J[o + JB2 + 1]! * l2, bz = J[o + JB1 + 2]! * l1 + J[o + JB2 + 2]! * l2;
  const mA = b.invMass[iA]!, mB = b.invMass[iB]!;
  if (mA > 0) {
    p[3 * iA] = p[3 * iA]! - mA * px; p[3 * iA + 1] = p[3 * iA + 1]! - mA * py; p[3 * iA + 2] = p[3 * iA + 2]! - mA * pz;
    lv[0] = ax; lv[1] = ay; lv[2] = az;
    turnBy(ctx, iA, -1);
  }
  if (mB > 0) {
    p[3 * iB] = p[3 * iB]! + mB * px; p[3 * iB + 1] = p[3 * iB + 1]! + mB * py; p[3 * iB + 2] = p[3 * iB + 2]! + mB * pz;
    lv[0] = bx; lv[1] = by; lv[2] = bz;
    turnBy(ctx, iB, 1);
  }
}

/**
 * An angular stop at position level (Box2D v2.4's revolute limit in SolvePositionConstraints, Jolt's
 * SwingTwistConstraint position step): the unit axis u in ctx.scratch.lv (world) and the excess C (rad) by
 * which B's rotation relative to A about u is past the stop (> 0 too far along +u). The bodies are turned by
 * the pseudo-impulse λ = −β·C/K about u (K = uᵀ(I_A⁻¹ + I_B⁻¹)u), with β·C clamped to ±ctx.stopStep
 * (maxBiasVelocity·h / positionIterations): over a substep the stop is restored no faster than its velocity
 * row's own bias may push, so a rig started far past its stop is brought back over steps, not snapped into
 * place by the projections of many substeps and iterations. Velocities are untouched (a stop is inelastic).
 *
 * Why (docs/physics.md "Stops in the position correction"): the equality projection alone moved joints into their
 * stops — on the bench ragdoll lying still, motors off, the elbow's lock projection twisted the light upper
 * arm into its shoulder's twist stop every substep, the stop's velocity bias pushed it back the next, and the
 * arm rocked at up to 1 rad/s for as long as it lay there.
 */
export function projectAngularStop(ctx: StepContext, iA: number, iB: number, C: number): void {
  const lv = ctx.scratch.lv, x = lv[0]!, y = lv[1]!, z = lv[2]!;
  const K = angularK(ctx, iA, iB, x, y, z, x, y, z);
  if (!(K > 0)) return;
  const cap = ctx.stopStep, c = ctx.positionBeta * C;
  const l = -(c > cap ? cap : c < -cap ? -cap : c) / K;
  lv[0] = x * l; lv[1] = y * l; lv[2] = z * l;
  turn(ctx, iA, iB);
}
