/**
 * Motor rows (DESIGN.md "Motor semantics"). Every mode becomes the same velocity row per motor axis,
 *     Δλ = −m·(Ċ − rhs + γ·λ_acc),  m = 1/(K + γ),  λ_acc clamped to ±clamp·h,
 * with Ċ = (ω_B − ω_A)·a (or the slide velocity) and C = current − target (wrapped, rad or m):
 *   position  rhs = −r·C/h, γ = f(ρ)·ε·K    the Armed Mine drive: bias c = r·ε/Δt toward the target
 *   pd        rhs = θ̇d − biasRate·C, γ = max(softness from makeSoft(kp, kv, h), f(ρ)·0.1·K)   τ = kp(θd−θ) + kv(θ̇d−θ̇)
 *   velocity  rhs = θ̇d, γ = 0
 *   off       rhs = 0, γ = 0, clamp = frictionTorque                 joint friction (Jolt's behaviour)
 * and clamp = τmax in the three drive modes. h is the SUBSTEP: the limit is a torque, so the impulse bound
 * scales with the time the row acts. The speed a drive asks for, rhs, is bounded by the motor's maxSpeed
 * (DEFAULT_MAX_DRIVE_SPEED unless the rig says otherwise): a one-row motor's rhs is clamped to ±maxSpeed, a
 * ball's three rows' rhs are scaled together so that ‖rhs‖ ≤ maxSpeed (limitBallDriveSpeed: the rotation
 * vector's rate keeps its direction).
 */
import { makeSoft } from '../soft';

/**
 * The regularisation of a rigid position drive on a light link that carries heavier bodies (docs/physics.md
 * "What prevents explosions"). The row's effective mass 1/K is the light link's own inertia, but what it
 * turns is the link and what is jointed to it, up to hundreds of times more; under-converged Gauss-Seidel
 * sweeps, the carried impulse and the bias r·C/h then close a loop with gain above 1 (the motor-light-link
 * fixture grew 1.14× a substep from round-off). A compliance γ = f(ρ)·ε·K on the row — MuJoCo's constraint
 * regularisation R = (1 − d)/d·Â with impedance d = 1/(1 + ε) ≈ 0.91 — leaks the carried impulse and
 * breaks the loop. ρ is the joint's load ratio (jointStore.ts), f ramps from 0 at LOAD_RATIO_FROM (the
 * editor's mass-ratio warning; Generate keeps 9.5×, the Armed Mine's drives see at most 9.4) to 1 at
 * LOAD_RATIO_FULL, so rigs below it are solved exactly as before. The price where it acts: a drive holding
 * a torque τ settles ε·f·K·τ·h²/r short of its target instead of on it.
 */
export const POSITION_DRIVE_COMPLIANCE = 0.1;
/** The least compliance of a pd drive on a loaded link, as a fraction of K (the same ramp): a pd drive whose
 *  own softness 1/(h·(kv + h·kp)) is below it is softened to it (its spring then acts as kp·softness/γ), a
 *  softer one is left as it is. */
export const PD_DRIVE_COMPLIANCE = 0.1;
export const LOAD_RATIO_FROM = 10;
/** Extra Gauss-Seidel sweeps, after an island's velocity sweeps, over only its joints with a regularised
 *  drive and the joints sharing a dynamic body with them (world.ts solveLoadedLocally): the light link's
 *  small sub-system converges further at a small cost, and islands without such a drive are untouched. */
export const LOADED_DRIVE_SWEEPS = 16;
export const LOAD_RATIO_FULL = 20;
/**
 * The fastest a drive asks its joint to move unless its motor says otherwise (MotorDesc.maxSpeed; rad/s, m/s
 * for a slide): Unity's default maximum angular speed of a dynamic body (Physics.defaultMaxAngularSpeed, 50;
 * PhysX's maximum joint velocity of an articulation link is 100). A position drive asks r·ε/h — a 1 rad error
 * at r = 0.5 and h = 1/240 s is 120 rad/s — and a light link under a strong motor gets it within one substep;
 * along a chain the joints' speeds add up at the tip (the random rigs' drives sent chain tips past 100 m/s
 * that way: docs/physics.md "What prevents explosions"; seed 1 left 19 of 10,000 at a bound of 100, 7 at 50).
 * The Hexapod's and the generated creatures' drives stay below it; the Armed Mine's crawl asks up to 68 rad/s
 * and its push-up 187, so its drives set maxSpeed 1000.
 */
export const DEFAULT_MAX_DRIVE_SPEED = 50;
/** f(ρ): 0 up to LOAD_RATIO_FROM, 1 from LOAD_RATIO_FULL, linear between. */
const loadRamp = (load: number): number => (load >= LOAD_RATIO_FULL ? 1 : (load - LOAD_RATIO_FROM) / (LOAD_RATIO_FULL - LOAD_RATIO_FROM));
import type { StepContext } from '../stepContext';
import {
  M_CLAMP, M_FRICTION, M_GAMMA, M_I, M_KP, M_KV, M_MASS, M_MAX, M_MODE, M_R, M_RHS, M_SATURATED, M_SPEED, M_TORQUE, M_TORQUE_NORM, MAXIS,
  MOTOR_OFF, MOTOR_PD, MOTOR_POSITION, MOTOR_VELOCITY, T_V,
} from './jointLayout';

/** Number of motor rows active this substep for a joint with `axes` motor axes (0 when off, frictionless). */
export function activeMotorRows(J: Float64Array, o: number, axes: number): number {
  // Both tests in their own statements, never short-circuited: V8 compiles a comparison it has never run
  // as a deoptimisation, and with `mode === MOTOR_OFF && …` a world whose motors were all on never ran the
  // friction test — its first motor turned off (a limp switch, a motors-off world) then threw away the
  // compiled code of every joint function that inlines this one.
  const off = J[o + M_MODE]! === MOTOR_OFF;
  const friction = J[o + M_FRICTION]! > 0;
  return off && !friction ? 0 : axes;
}

/** Where one motor's fields sit in a joint record: the joint's own motor (M_*) or a second drive, e.g.
 *  coupledJoint.ts's slide motor (S_*). `targetV` is the offset of the row's target velocity. */
export interface MotorFields {
  readonly mode: number; readonly max: number; readonly r: number; readonly kp: number; readonly kv: number;
  readonly friction: number; readonly rhs: number; readonly gamma: number; readonly clamp: number;
  readonly mass: number; readonly targetV: number; readonly speed: number;
}

/** The joint's own motor. */
export const MOTOR_FIELDS: MotorFields = {
  mode: M_MODE, max: M_MAX, r: M_R, kp: M_KP, kv: M_KV, friction: M_FRICTION, rhs: M_RHS, gamma: M_GAMMA, clamp: M_CLAMP, mass: M_MASS, targetV: T_V, speed: M_SPEED,
};

/** Fill rhs, γ and clamp for row k given its error C = ctx.scratch.motorIn[0] (current − target), its
 *  inverse mass K = motorIn[1], the joint's load ratio ρ = motorIn[2] and the K that scales the position
 *  drive's compliance, motorIn[3] (one value for all of a joint's rows: they share γ). They come in a scratch: V8 boxes double arguments of calls it does not
 *  inline. `f` says which motor of the record (default: the joint's own). The row's rhs is clamped to
 *  ±maxSpeed unless `ownSpeed` is false (a ball's three rows: limitBallDriveSpeed bounds them together). */
export function prepareMotorRow(ctx: StepContext, o: number, k: number, f: MotorFields = MOTOR_FIELDS, ownSpeed = true): void {
  const J = ctx.joints, mode = J[o + f.mode]!, motorIn = ctx.scratch.motorIn, C = motorIn[0]!, K = motorIn[1]!;
  let rhs = 0, gamma = 0, clamp = J[o + f.max]!;
  const load = motorIn[2]!;
  if (mode === MOTOR_POSITION) {
    rhs = (-J[o + f.r]! * C) * ctx.invH;
    if (load > LOAD_RATIO_FROM) { gamma = loadRamp(load) * POSITION_DRIVE_COMPLIANCE * motorIn[3]!; motorIn[4] = 1; }
  }
  else if (mode === MOTOR_PD) {
    // soft.ts's makeSoft (unit-tested there): biasRate = kp/(kv + h·kp), γ = 1/(h·(kv + h·kp)).
    const s = makeSoft(J[o + f.kp]!, J[o + f.kv]!, ctx.h, ctx.scratch.soft);
    rhs = J[o + f.targetV + k]! - s.biasRate * C;
    gamma = s.softness;
    // A stiff PD drive is a rigid drive (γ ≪ K): on a loaded link it gets at least the same compliance.
    if (load > LOAD_RATIO_FROM) { const g = loadRamp(load) * PD_DRIVE_COMPLIANCE * motorIn[3]!; if (g > gamma) { gamma = g; motorIn[4] = 1; } }
  } else if (mode === MOTOR_VELOCITY) rhs = J[o + f.targetV + k]!;
  else clamp = J[o + f.friction]!;
  if (ownSpeed) { const v = J[o + f.speed]!; if (rhs > v) rhs = v; else if (rhs < -v) rhs = -v; }
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
  // The compliance's scale: a hinge's own row; the ball's three rows share one γ, from the mean of the
  // inverse inertia's diagonal (its trace / 3, the same in every frame).
  if (rows === 1) {
    const ax = J[o + MAXIS]!, ay = J[o + MAXIS + 1]!, az = J[o + MAXIS + 2]!;
    motorIn[3] = ax * (s00 * ax + s01 * ay + s02 * az) + ay * (s01 * ax + s11 * ay + s12 * az) + az * (s02 * ax + s12 * ay + s22 * az);
  } else motorIn[3] = (s00 + s11 + s22) / 3;
  for (let k = 0; k < rows; k++) {
    const ao = o + MAXIS + 3 * k;
    const ax = J[ao]!, ay = J[ao + 1]!, az = J[ao + 2]!;
    motorIn[0] = motorErr[k]!;
    motorIn[1] = ax * (s00 * ax + s01 * ay + s02 * az) + ay * (s01 * ax + s11 * ay + s12 * az) + az * (s02 * ax + s12 * ay + s22 * az);
    prepareMotorRow(ctx, o, k, MOTOR_FIELDS, rows !== 3);
  }
  if (rows === 3) limitBallDriveSpeed(J, o);
}

/** A ball drive's three rhs (the rotation vector's rate it asks for, frame A axes) scaled together onto
 *  ‖rhs‖ ≤ maxSpeed, so the drive still turns toward its target, only slower; untouched below the bound. */
export function limitBallDriveSpeed(J: Float64Array, o: number): void {
  const x = J[o + M_RHS]!, y = J[o + M_RHS + 1]!, z = J[o + M_RHS + 2]!, v = J[o + M_SPEED]!;
  const n2 = x * x + y * y + z * z;
  if (!(n2 > v * v)) return;
  const s = v / Math.sqrt(n2);
  J[o + M_RHS] = x * s; J[o + M_RHS + 1] = y * s; J[o + M_RHS + 2] = z * s;
}

/** A joint whose motor is idle reports zero torque. */
export function clearMotorReport(J: Float64Array, o: number): void {
  J[o + M_TORQUE] = 0; J[o + M_TORQUE_NORM] = 0; J[o + M_SATURATED] = 0;
  J[o + M_I] = 0; J[o + M_I + 1] = 0; J[o + M_I + 2] = 0;
}
