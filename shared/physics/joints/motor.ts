/**
 * Motor rows (DESIGN.md "Motor semantics"). Every mode becomes the same velocity row per motor axis,
 *     Δλ = −m·(Ċ − rhs + γ·λ_acc),  m = 1/(K + γ),  λ_acc clamped to ±clamp·h,
 * with Ċ = (ω_B − ω_A)·a (or the slide velocity) and C = current − target (wrapped, rad or m):
 *   position  rhs = −r·C/h, γ = 0           the Armed Mine drive: bias c = r·ε/Δt toward the target
 *   pd        rhs = θ̇d − biasRate·C, γ = softness from makeSoft(kp, kv, h)   τ = kp(θd−θ) + kv(θ̇d−θ̇)
 *   velocity  rhs = θ̇d, γ = 0
 *   off       rhs = 0, γ = 0, clamp = frictionTorque                 joint friction (Jolt's behaviour)
 * and clamp = τmax in the three drive modes. h is the SUBSTEP: the limit is a torque, so the impulse bound
 * scales with the time the row acts.
 */
import { makeSoft } from '../soft';
import type { StepContext } from '../stepContext';
import {
  M_CLAMP, M_FRICTION, M_GAMMA, M_I, M_KP, M_KV, M_MASS, M_MAX, M_MODE, M_R, M_RHS, M_SATURATED, M_TORQUE, M_TORQUE_NORM, MAXIS,
  MOTOR_OFF, MOTOR_PD, MOTOR_POSITION, MOTOR_VELOCITY, T_V,
} from './jointLayout';

/** Number of motor rows active this substep for a joint with `axes` motor axes (0 when off, frictionless). */
export function activeMotorRows(J: Float64Array, o: number, axes: number): number {
  const mode = J[o + M_MODE]!;
  if (mode === MOTOR_OFF && !(J[o + M_FRICTION]! > 0)) return 0;
  return axes;
}

/** Where one motor's fields sit in a joint record: the joint's own motor (M_*) or a second drive, e.g.
 *  coupledJoint.ts's slide motor (S_*). `targetV` is the offset of the row's target velocity. */
export interface MotorFields {
  readonly mode: number; readonly max: number; readonly r: number; readonly kp: number; readonly kv: number;
  readonly friction: number; readonly rhs: number; readonly gamma: number; readonly clamp: number;
  readonly mass: number; readonly targetV: number;
}

/** The joint's own motor. */
export const MOTOR_FIELDS: MotorFields = {
  mode: M_MODE, max: M_MAX, r: M_R, kp: M_KP, kv: M_KV, friction: M_FRICTION, rhs: M_RHS, gamma: M_GAMMA, clamp: M_CLAMP, mass: M_MASS, targetV: T_V,
};

/** Fill rhs, γ and clamp for row k given its error C = ctx.scratch.motorIn[0] (current − target) and its
 *  inverse mass K = motorIn[1]. The two come in a scratch: V8 boxes double arguments of calls it does not
 *  inline. `f` says which motor of the record (default: the joint's own). */
export function prepareMotorRow(ctx: StepContext, o: number, k: number, f: MotorFields = MOTOR_FIELDS): void {
  const J = ctx.joints, mode = J[o + f.mode]!, motorIn = ctx.scratch.motorIn, C = motorIn[0]!, K = motorIn[1]!;
  let rhs = 0, gamma = 0, clamp = J[o + f.max]!;
  if (mode === MOTOR_POSITION) rhs = (-J[o + f.r]! * C) * ctx.invH;
  else if (mode === MOTOR_PD) {
    // soft.ts's makeSoft (unit-tested there): biasRate = kp/(kv + h·kp), γ = 1/(h·(kv + h·kp)).
    const s = makeSoft(J[o + f.kp]!, J[o + f.kv]!, ctx.h, ctx.scratch.soft);
    rhs = J[o + f.targetV + k]! - s.biasRate * C;
    gamma = s.softness;
  } else if (mode === MOTOR_VELOCITY) rhs = J[o + f.targetV + k]!;
  else clamp = J[o + f.friction]!;
  J[o + f.rhs + k] = rhs;
  J[o + f.gamma] = gamma;
  J[o + f.clamp] = clamp;
  const d = K + gamma;
  J[o + f.mass + k] = d > 0 && d < Infinity ? 1 / d : 0;
}

/** Angular motor rows along MAXIS (already set), errors per axis in ctx.scratch.motorErr[0..2]. */
export function prepareAngularMotor(ctx: StepContext, o: number, iA: number, iB: number, rows: number): void {
  const J = ctx.joints, I = ctx.bodies.invIw, a = 9 * iA, b = 9 * iB, motorIn = ctx.scratch.motorIn, motorErr = ctx.scratch.motorErr;
  // K = a·(I_A⁻¹ + I_B⁻¹)·a (rows.ts angularK, written out).
  const s00 = I[a]! + I[b]!, s01 = I[a + 1]! + I[b + 1]!, s02 = I[a + 2]! + I[b + 2]!;
  const s11 = I[a + 4]! + I[b + 4]!, s12 = I[a + 5]! + I[b + 5]!, s22 = I[a + 8]! + I[b + 8]!;
  for (let k = 0; k < rows; k++) {
    const ao = o + MAXIS + 3 * k;
    const ax = J[ao]!, ay = J[ao + 1]!, az = J[ao + 2]!;
    motorIn[0] = motorErr[k]!;
    motorIn[1] = ax * (s00 * ax + s01 * ay + s02 * az) + ay * (s01 * ax + s11 * ay + s12 * az) + az * (s02 * ax + s12 * ay + s22 * az);
    prepareMotorRow(ctx, o, k);
  }
}

/** A joint whose motor is idle reports zero torque. */
export function clearMotorReport(J: Float64Array, o: number): void {
  J[o + M_TORQUE] = 0; J[o + M_TORQUE_NORM] = 0; J[o + M_SATURATED] = 0;
  J[o + M_I] = 0; J[o + M_I + 1] = 0; J[o + M_I + 2] = 0;
}
