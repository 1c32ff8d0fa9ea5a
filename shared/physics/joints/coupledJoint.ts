/**
 * The kinematic pairs beyond the four basic ones (issue 12): screw, cylindrical and planar joints. All
 * three keep frame B's X on frame A's X (the hinge's 2-row angular lock) and differ in the linear rows:
 *
 *   cylindrical  2 linear rows keep B's anchor on A's X axis (d·y_A = d·z_A = 0); free: the angle θ about
 *                X (`limit`, `motor`) and the offset s = d·x_A along it (`slideLimit`, `slideMotor`).
 *   screw        the cylindrical rows + one coupling row C = d·x_A − pitch·θ = 0: one DOF, θ (`limit`,
 *                `motor`; the offset follows).
 *   planar       1 linear row keeps B's anchor in A's YZ plane (d·x_A = 0); free: θ about X, the plane's
 *                normal (`limit`, `motor`), and the offsets d·y_A, d·z_A (`slideLimitY/Z`, `slideMotor`,
 *                two rows).
 *
 * with d = p_B + r_B − p_A − r_A the anchor separation. Every row is generic: a linear direction n, the
 * angular parts a_A, a_B (Ċ = n·(v_B − v_A) + a_B·ω_B − a_A·ω_A; λ moves v_A −= m_A⁻¹nλ, ω_A −= I_A⁻¹a_Aλ,
 * v_B += m_B⁻¹nλ, ω_B += I_B⁻¹a_Bλ). A linear row along a frame-A axis e has a_A = (r_A + d) × e (e turns
 * with A), a_B = r_B × e; an angular row about u has n = 0, a_A = a_B = u; the screw's coupling row is the
 * linear row along x_A with −pitch·x_A added to both angular parts. The rows are solved one by one
 * (Gauss-Seidel, motors and limits first, the equality rows last as the other types) and projected one by
 * one block at the position level (positionProjection.ts's scheme, Newton iterations until the rows hold
 * to 1e-12: the screw's pitch relation is what the step ends on). The angle θ is the hinge's, unwrapped across steps (hingeJoint.ts).
 *
 * Units: `motor` drives θ (N·m, a torque about X — for the screw the coupling row turns it into the thrust);
 * `slideMotor` drives the offsets (N). Targets: θ̂ at T_Q, the offsets at T_Q + 1 + k; velocities at T_V,
 * T_V + 1 + k. The record layout (G_ROWS …) is in jointLayout.ts.
 */
import { wrapAngle } from '../../math/quat';
import { clampedDriveError } from '../driveTarget';
import type { StepContext } from '../stepContext';
import type { JointDesc, MotorDesc } from '../types';
import { range, validateMotor } from '../validation';
import { rawHingeAngle } from './hingeJoint';
import {
  ANGLE, FLAG_LIMIT, FLAG_SLIDE1_LIMIT, FLAG_SLIDE2_LIMIT, FLAG_SLIDE_TORQUE_BALL, FLAGS, G_IMP, G_LIMC, G_ROWS, G_SIZE,
  LA, LB, LIM_HI, LIM_LO, M_CLAMP, M_GAMMA, M_I, M_MASS, M_RHS, MOTOR_MODE_CODES, MOTOR_OFF,
  PITCH, S_CLAMP, S_FRICTION, S_GAMMA, S_I, S_KP, S_KV, S_MASS, S_MAX, S_MODE, S_R, S_RHS, S_SATURATED, S_SPEED,
  S_TORQUE, S_TORQUE_NORM, SLIDE_LIM, T_Q, T_V,
} from './jointLayout';
import type { JointTypeDef } from './jointType';
import { activeMotorRows, clearMotorReport, DEFAULT_MAX_DRIVE_SPEED, prepareMotorRow, type MotorFields } from './motor';
import { turnBy } from './poseMoves';
import { computeFrames, rotate, rotateFrom, storeMotorReport } from './rows';

// Fields of one row geometry (offset from G_ROWS + g·G_SIZE).
const N = 0, AA = 3, AB = 6, K = 9, M = 10, C = 11;
/** Rows 0, 1: the angular lock; row 2: about x_A (the angle's limit and motor); rows 3..5 linear. */
const G_ROT = 2;

interface Spec {
  /** Frame-A axis (0 x, 1 y, 2 z) of linear rows 3, 4, 5. */
  readonly linear: readonly [number, number, number];
  /** Equality rows, in solve and projection order. */
  readonly hard: readonly number[];
  /** Rows of the slide DOFs (slide 1, slide 2). */
  readonly slides: readonly number[];
  readonly screw: boolean;
}

const SPECS: Record<'screw' | 'cylindrical' | 'planar', Spec> = {
  cylindrical: { linear: [1, 2, 0], hard: [0, 1, 3, 4], slides: [5], screw: false },
  screw: { linear: [1, 2, 0], hard: [0, 1, 3, 4, 5], slides: [], screw: true },
  planar: { linear: [0, 1, 2], hard: [0, 1, 3], slides: [4, 5], screw: false },
};

const ro = (o: number, g: number) => o + G_ROWS + g * G_SIZE;

/** u·I⁻¹·u for body i and the vector at J[u..u+2]. */
function quadInv(ctx: StepContext, i: number, J: Float64Array, u: number): number {
  const I = ctx.bodies.invIw, a = 9 * i, x = J[u]!, y = J[u + 1]!, z = J[u + 2]!;
  return x * (I[a]! * x + I[a + 1]! * y + I[a + 2]! * z) + y * (I[a + 3]! * x + I[a + 4]! * y + I[a + 5]! * z)
    + z * (I[a + 6]! * x + I[a + 7]! * y + I[a + 8]! * z);
}

/**
 * All six rows (directions, errors, K) at the current poses; θ is unwrapped against J[ANGLE] and stored
 * there when `store`. Returns θ.
 */
function geometry(ctx: StepContext, o: number, iA: number, iB: number, spec: Spec, store: boolean): number {
  const J = ctx.joints, b = ctx.bodies, p = b.p, s = ctx.scratch, tv = s.tv;
  computeFrames(ctx, o, iA, iB);
  const ax = s.axes; // frame A's x, y, z (world)
  rotate(tv, s.qFA, 0, 1, 0, 0); ax[0] = tv[0]!; ax[1] = tv[1]!; ax[2] = tv[2]!;
  rotate(tv, s.qFA, 0, 0, 1, 0); ax[3] = tv[0]!; ax[4] = tv[1]!; ax[5] = tv[2]!;
  rotate(tv, s.qFA, 0, 0, 0, 1); ax[6] = tv[0]!; ax[7] = tv[1]!; ax[8] = tv[2]!;
  rotate(tv, s.qFB, 0, 1, 0, 0); const bx = tv[0]!, by = tv[1]!, bz = tv[2]!;
  rotateFrom(tv, b.q, 4 * iA, J, o + LA); const rax = tv[0]!, ray = tv[1]!, raz = tv[2]!;
  rotateFrom(tv, b.q, 4 * iB, J, o + LB); const rbx = tv[0]!, rby = tv[1]!, rbz = tv[2]!;
  const dx = p[3 * iB]! + rbx - p[3 * iA]! - rax, dy = p[3 * iB + 1]! + rby - p[3 * iA + 1]! - ray, dz = p[3 * iB + 2]! + rbz - p[3 * iA + 2]! - raz;
  const prev = J[o + ANGLE]!;
  const theta = prev + wrapAngle(rawHingeAngle(s) - prev);
  if (store) J[o + ANGLE] = theta;
  // Angular lock: C₁ = x_B·y_A about x_B × y_A, C₂ = x_B·z_A about x_B × z_A (hingeJoint.ts); row 2 about x_A.
  for (let g = 0; g < 3; g++) {
    const r = ro(o, g);
    let ux: number, uy: number, uz: number, c: number;
    if (g === G_ROT) { ux = ax[0]!; uy = ax[1]!; uz = ax[2]!; c = theta; }
    else {
      const e = g === 0 ? 3 : 6, ex = ax[e]!, ey = ax[e + 1]!, ez = ax[e + 2]!;
      ux = by * ez - bz * ey; uy = bz * ex - bx * ez; uz = bx * ey - by * ex; c = bx * ex + by * ey + bz * ez;
    }
    J[r + N] = 0; J[r + N + 1] = 0; J[r + N + 2] = 0;
    J[r + AA] = ux; J[r + AA + 1] = uy; J[r + AA + 2] = uz;
    J[r + AB] = ux; J[r + AB + 1] = uy; J[r + AB + 2] = uz;
    J[r + C] = c;
  }
  const sx = rax + dx, sy = ray + dy, sz = raz + dz;
  for (let g = 3; g < 6; g++) {
    const r = ro(o, g), e = 3 * spec.linear[g - 3]!, ex = ax[e]!, ey = ax[e + 1]!, ez = ax[e + 2]!;
    J[r + N] = ex; J[r + N + 1] = ey; J[r + N + 2] = ez;
    J[r + AA] = sy * ez - sz * ey; J[r + AA + 1] = sz * ex - sx * ez; J[r + AA + 2] = sx * ey - sy * ex;
    J[r + AB] = rby * ez - rbz * ey; J[r + AB + 1] = rbz * ex - rbx * ez; J[r + AB + 2] = rbx * ey - rby * ex;
    J[r + C] = dx * ex + dy * ey + dz * ez;
  }
  if (spec.screw) {
    // Coupling: C = d·x_A − pitch·θ, Ċ = (slide velocity) − pitch·(ω_B − ω_A)·x_A.
    const r = ro(o, 5), k = J[o + PITCH]!;
    for (let i = 0; i < 3; i++) { J[r + AA + i] = J[r + AA + i]! - k * ax[i]!; J[r + AB + i] = J[r + AB + i]! - k * ax[i]!; }
    J[r + C] = J[r + C]! - k * theta;
  }
  const mAB = b.invMass[iA]! + b.invMass[iB]!;
  for (let g = 0; g < 6; g++) {
    const r = ro(o, g);
    const nn = J[r + N]! * J[r + N]! + J[r + N + 1]! * J[r + N + 1]! + J[r + N + 2]! * J[r + N + 2]!;
    const k = mAB * nn + quadInv(ctx, iA, J, r + AA) + quadInv(ctx, iB, J, r + AB);
    J[r + K] = k;
    J[r + M] = k > 0 && k < Infinity ? 1 / k : 0;
  }
  return theta;
}

/** Ċ of row r (offset) at the current velocities. */
function rowVelocity(ctx: StepContext, r: number, iA: number, iB: number): number {
  const J = ctx.joints, v = ctx.bodies.v, w = ctx.bodies.w, a3 = 3 * iA, b3 = 3 * iB;
  return J[r + N]! * (v[b3]! - v[a3]!) + J[r + N + 1]! * (v[b3 + 1]! - v[a3 + 1]!) + J[r + N + 2]! * (v[b3 + 2]! - v[a3 + 2]!)
    + J[r + AB]! * w[b3]! + J[r + AB + 1]! * w[b3 + 1]! + J[r + AB + 2]! * w[b3 + 2]!
    - J[r + AA]! * w[a3]! - J[r + AA + 1]! * w[a3 + 1]! - J[r + AA + 2]! * w[a3 + 2]!;
}

/** Apply the impulse λ = ctx.scratch.lam[0] along row r to the velocities. */
function applyRow(ctx: StepContext, r: number, iA: number, iB: number): void {
  const J = ctx.joints, b = ctx.bodies, v = b.v, w = b.w, I = b.invIw, l = ctx.scratch.lam[0]!;
  if (l === 0) return;
  const mA = b.invMass[iA]! * l, mB = b.invMass[iB]! * l, a3 = 3 * iA, b3 = 3 * iB, a9 = 9 * iA, b9 = 9 * iB;
  const nx = J[r + N]!, ny = J[r + N + 1]!, nz = J[r + N + 2]!;
  v[a3] = v[a3]! - mA * nx; v[a3 + 1] = v[a3 + 1]! - mA * ny; v[a3 + 2] = v[a3 + 2]! - mA * nz;
  v[b3] = v[b3]! + mB * nx; v[b3 + 1] = v[b3 + 1]! + mB * ny; v[b3 + 2] = v[b3 + 2]! + mB * nz;
  const ax = J[r + AA]! * l, ay = J[r + AA + 1]! * l, az = J[r + AA + 2]! * l;
  const bx = J[r + AB]! * l, by = J[r + AB + 1]! * l, bz = J[r + AB + 2]! * l;
  w[a3] = w[a3]! - (I[a9]! * ax + I[a9 + 1]! * ay + I[a9 + 2]! * az);
  w[a3 + 1] = w[a3 + 1]! - (I[a9 + 3]! * ax + I[a9 + 4]! * ay + I[a9 + 5]! * az);
  w[a3 + 2] = w[a3 + 2]! - (I[a9 + 6]! * ax + I[a9 + 7]! * ay + I[a9 + 8]! * az);
  w[b3] = w[b3]! + (I[b9]! * bx + I[b9 + 1]! * by + I[b9 + 2]! * bz);
  w[b3 + 1] = w[b3 + 1]! + (I[b9 + 3]! * bx + I[b9 + 4]! * by + I[b9 + 5]! * bz);
  w[b3 + 2] = w[b3 + 2]! + (I[b9 + 6]! * bx + I[b9 + 7]! * by + I[b9 + 8]! * bz);
}

function kick(ctx: StepContext, r: number, iA: number, iB: number, l: number): void {
  ctx.scratch.lam[0] = l;
  applyRow(ctx, r, iA, iB);
}

const LIMIT_FLAGS = [FLAG_LIMIT, FLAG_SLIDE1_LIMIT, FLAG_SLIDE2_LIMIT];
/** Row of DOF `dof` (0 the angle, 1 and 2 the slides). */
const dofRow = (spec: Spec, dof: number) => (dof === 0 ? G_ROT : spec.slides[dof - 1]!);
const limitLo = (dof: number) => (dof === 0 ? LIM_LO : SLIDE_LIM + 2 * (dof - 1));

/** Slide motor rows this substep: 0 when off and frictionless. */
function activeSlideRows(J: Float64Array, o: number, spec: Spec): number {
  if (spec.slides.length === 0) return 0;
  return J[o + S_MODE] === MOTOR_OFF && !(J[o + S_FRICTION]! > 0) ? 0 : spec.slides.length;
}

/** The slide motor's fields (S_*): its rows' target velocities follow the angle's at T_V + 1. */
const SLIDE_MOTOR_FIELDS: MotorFields = {
  mode: S_MODE, max: S_MAX, r: S_R, kp: S_KP, kv: S_KV, friction: S_FRICTION, rhs: S_RHS, gamma: S_GAMMA, clamp: S_CLAMP, mass: S_MASS, targetV: T_V + 1, speed: S_SPEED,
};

function prepare(ctx: StepContext, o: number, iA: number, iB: number, spec: Spec): number {
  const J = ctx.joints, flags = J[o + FLAGS]!;
  const theta = geometry(ctx, o, iA, iB, spec, true);
  let rows = spec.hard.length;
  const dofs = 1 + spec.slides.length;
  for (let dof = 0; dof < dofs; dof++) {
    if (!(flags & LIMIT_FLAGS[dof]!)) continue;
    const r = ro(o, dofRow(spec, dof)), value = dof === 0 ? theta : J[r + C]!, lo = limitLo(dof);
    J[o + G_LIMC + 2 * dof] = value - J[o + lo]!;
    J[o + G_LIMC + 2 * dof + 1] = J[o + lo + 1]! - value;
    rows += 2;
  }
  if (activeMotorRows(J, o, 1) > 0) {
    const motorIn = ctx.scratch.motorIn;
    // C = θ − θ̂, the short way, θ̂ clamped into the limit (the hinge's motor)
    const Cm = -wrapAngle(J[o + T_Q]! - theta);
    motorIn[0] = flags & FLAG_LIMIT ? clampedDriveError(theta, Cm, J[o + LIM_LO]!, J[o + LIM_HI]!) : Cm;
    motorIn[1] = J[ro(o, G_ROT) + K]!; motorIn[3] = motorIn[1]!;
    prepareMotorRow(ctx, o, 0);
    rows += 1;
  }
  const slideRows = activeSlideRows(J, o, spec);
  for (let k = 0; k < slideRows; k++) {
    const r = ro(o, spec.slides[k]!), motorIn = ctx.scratch.motorIn;
    // C = s − ŝ, ŝ clamped into the slide's limit (as a prismatic joint's)
    const value = J[r + C]!, Cs = value - J[o + T_Q + 1 + k]!, lo = limitLo(k + 1);
    motorIn[0] = flags & LIMIT_FLAGS[k + 1]! ? clampedDriveError(value, Cs, J[o + lo]!, J[o + lo + 1]!) : Cs;
    motorIn[1] = J[r + K]!;
    if (k === 0) motorIn[3] = motorIn[1]!; // the slides share one γ: the first row's K scales it
    prepareMotorRow(ctx, o, k, SLIDE_MOTOR_FIELDS);
  }
  return rows + slideRows;
}

function warmStart(ctx: StepContext, o: number, iA: number, iB: number, spec: Spec): void {
  const J = ctx.joints, flags = J[o + FLAGS]!;
  if (activeMotorRows(J, o, 1) > 0) {
    const max = J[o + M_CLAMP]! * ctx.h, acc = Math.min(max, Math.max(-max, J[o + M_I]!));
    J[o + M_I] = acc;
    kick(ctx, ro(o, G_ROT), iA, iB, acc);
  }
  const slideRows = activeSlideRows(J, o, spec);
  if (slideRows > 0) {
    const max = J[o + S_CLAMP]! * ctx.h;
    let scale = 1;
    if (flags & FLAG_SLIDE_TORQUE_BALL) {
      const n = Math.hypot(J[o + S_I]!, slideRows > 1 ? J[o + S_I + 1]! : 0);
      if (n > max) scale = max / n;
    }
    for (let k = 0; k < slideRows; k++) {
      const acc = Math.min(max, Math.max(-max, J[o + S_I + k]! * scale));
      J[o + S_I + k] = acc;
      kick(ctx, ro(o, spec.slides[k]!), iA, iB, acc);
    }
  }
  const dofs = 1 + spec.slides.length;
  for (let dof = 0; dof < dofs; dof++) {
    if (flags & LIMIT_FLAGS[dof]!) kick(ctx, ro(o, dofRow(spec, dof)), iA, iB, J[o + G_IMP + 6 + 2 * dof]! - J[o + G_IMP + 7 + 2 * dof]!);
  }
  for (const g of spec.hard) kick(ctx, ro(o, g), iA, iB, J[o + G_IMP + g]!);
}

function solve(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean, spec: Spec): void {
  const J = ctx.joints, flags = J[o + FLAGS]!, mb = ctx.maxBiasVelocity;
  if (activeMotorRows(J, o, 1) > 0) {
    const r = ro(o, G_ROT), old = J[o + M_I]!, max = J[o + M_CLAMP]! * ctx.h;
    let acc = old - J[o + M_MASS]! * (rowVelocity(ctx, r, iA, iB) - J[o + M_RHS]! + J[o + M_GAMMA]! * old);
    acc = acc > max ? max : acc < -max ? -max : acc;
    J[o + M_I] = acc;
    kick(ctx, r, iA, iB, acc - old);
  }
  const slideRows = activeSlideRows(J, o, spec);
  if (slideRows > 0) {
    const max = J[o + S_CLAMP]! * ctx.h, gamma = J[o + S_GAMMA]!, ball = (flags & FLAG_SLIDE_TORQUE_BALL) !== 0;
    for (let k = 0; k < slideRows; k++) {
      const r = ro(o, spec.slides[k]!), old = J[o + S_I + k]!;
      let acc = old - J[o + S_MASS + k]! * (rowVelocity(ctx, r, iA, iB) - J[o + S_RHS + k]! + gamma * old);
      if (!ball) acc = acc > max ? max : acc < -max ? -max : acc;
      J[o + S_I + k] = acc;
      kick(ctx, r, iA, iB, acc - old);
      if (ball) {
        // 'magnitude': the accumulated force vector in the plane onto the disc ‖λ‖ ≤ max.
        const n = Math.hypot(J[o + S_I]!, slideRows > 1 ? J[o + S_I + 1]! : 0);
        if (n > max) {
          for (let i = 0; i < slideRows; i++) {
            const cur = J[o + S_I + i]!, next = cur * (max / n);
            J[o + S_I + i] = next;
            kick(ctx, ro(o, spec.slides[i]!), iA, iB, next - cur);
          }
        }
      }
    }
  }
  const dofs = 1 + spec.slides.length, kLim = useBias ? ctx.beta * ctx.invH : 0;
  for (let dof = 0; dof < dofs; dof++) {
    if (!(flags & LIMIT_FLAGS[dof]!)) continue;
    const r = ro(o, dofRow(spec, dof)), m = J[r + M]!;
    for (let side = 0; side < 2; side++) {
      const Cs = J[o + G_LIMC + 2 * dof + side]!;
      const bias = Cs > 0 ? Cs * ctx.invH : Math.max(-mb, kLim * Cs);
      const sign = side === 0 ? 1 : -1;
      const io = o + G_IMP + 6 + 2 * dof + side, old = J[io]!;
      const acc = Math.max(old - m * (sign * rowVelocity(ctx, r, iA, iB) + bias), 0);
      J[io] = acc;
      kick(ctx, r, iA, iB, sign * (acc - old));
    }
  }
  const k = useBias ? ctx.velocityBeta * ctx.invH : 0;
  for (const g of spec.hard) {
    const r = ro(o, g);
    const cdot = rowVelocity(ctx, r, iA, iB) + Math.max(-mb, Math.min(mb, k * J[r + C]!));
    const l = -J[r + M]! * cdot;
    J[o + G_IMP + g] = J[o + G_IMP + g]! + l;
    kick(ctx, r, iA, iB, l);
  }
}

/** Newton iterations of the position projection per call at most, and the error (m or rad) at which they stop. */
const PROJECT_ITERATIONS = 8, PROJECT_TOLERANCE = 1e-12;

/**
 * Position projection (positionProjection.ts's scheme, the rows as one block): at the current poses solve
 * K·λ = −β·C for all the equality rows together (K_ij = m⁻¹ n_i·n_j + a_Ai·I_A⁻¹·a_Aj + a_Bi·I_B⁻¹·a_Bj),
 * move the bodies by the combined pseudo-impulse, and repeat until the largest error is below
 * PROJECT_TOLERANCE (at most PROJECT_ITERATIONS; 1–2 in practice). Row by row (Gauss-Seidel) an off-centre
 * nut on a screw needed more than 32 sweeps half the time: its rows are coupled through the lever arm.
 *
 * Damped: a step that leaves the largest error no smaller than before is undone and halved (at most
 * MAX_HALVINGS times a call). The full Newton step diverged far from the constraint — the angular lock
 * x_B·y_A = x_B·z_A = 0 is singular at x_B ⊥ x_A, and an error of ~1 rad jumped to 22 in one iteration on
 * a random rig, which then flew apart (docs/physics.md, the random-rig section). Near the constraint the
 * full step always reduces the error, so the analytic cases take the same steps as before.
 */
function project(ctx: StepContext, o: number, iA: number, iB: number, spec: Spec): void {
  if (ctx.positionBeta <= 0) return;
  // The Newton steps rewrite the six row geometries at each pose they visit; the relax sweeps after the
  // projection solve the rows prepared for the substep, whose motor rows' effective masses (M_MASS, S_MASS)
  // were taken from those geometries' K. Kept as they were, not mixed with the projected pose's: with a
  // slide's lever arm changed by the projection, the prepared mass against the new K over-corrected every
  // relax sweep (×8 per sweep on coupled random rig 1826048578, docs/physics.md).
  const J = ctx.joints, rows = o + G_ROWS, kept = ctx.scratch.preparedRows;
  kept.set(J.subarray(rows, rows + 6 * G_SIZE));
  projectNewton(ctx, o, iA, iB, spec);
  J.set(kept, rows);
}

function projectNewton(ctx: StepContext, o: number, iA: number, iB: number, spec: Spec): void {
  const J = ctx.joints, b = ctx.bodies, I = b.invIw, K = ctx.scratch.block, hard = spec.hard, n = hard.length;
  const mA = b.invMass[iA]!, mB = b.invMass[iB]!, a9 = 9 * iA, b9 = 9 * iB;
  let last = Infinity, step = 1, halvings = 0;
  for (let it = 0; it < PROJECT_ITERATIONS; it++) {
    geometry(ctx, o, iA, iB, spec, false);
    let worst = 0;
    for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(J[ro(o, hard[i]!) + C]!));
    if (worst < PROJECT_TOLERANCE) break;
    if (worst >= last) {
      // The last step made it worse (far from the constraint the linearisation fails: an angular lock off
      // by ~1 rad nears the singular x_B ⊥ x_A): undo it and take half of it (damped Newton).
      if (halvings >= MAX_HALVINGS) { restorePoses(ctx, iA, iB); break; }
      restorePoses(ctx, iA, iB);
      step *= 0.5; halvings++;
      geometry(ctx, o, iA, iB, spec, false);
      worst = last;
    } else {
      last = worst;
      step = 1;
    }
    for (let i = 0; i < n; i++) K[25 + i] = -ctx.positionBeta * step * J[ro(o, hard[i]!) + C]!;
    savePoses(ctx, iA, iB);
    for (let i = 0; i < n; i++) {
      const ri = ro(o, hard[i]!);
      for (let j = i; j < n; j++) {
        const rj = ro(o, hard[j]!);
        let k = (mA + mB) * (J[ri + N]! * J[rj + N]! + J[ri + N + 1]! * J[rj + N + 1]! + J[ri + N + 2]! * J[rj + N + 2]!);
        for (let r = 0; r < 3; r++) {
          k += J[ri + AA + r]! * (I[a9 + 3 * r]! * J[rj + AA]! + I[a9 + 3 * r + 1]! * J[rj + AA + 1]! + I[a9 + 3 * r + 2]! * J[rj + AA + 2]!);
          k += J[ri + AB + r]! * (I[b9 + 3 * r]! * J[rj + AB]! + I[b9 + 3 * r + 1]! * J[rj + AB + 1]! + I[b9 + 3 * r + 2]! * J[rj + AB + 2]!);
        }
        K[5 * i + j] = k; K[5 * j + i] = k;
      }
    }
    if (!solveBlock(K, n)) break; // singular (both bodies immovable): nothing to move
    // The combined pseudo-impulse λ = K[25..25+n): linear P = Σ n_i λ_i, angular L_A = Σ a_Ai λ_i, L_B = Σ a_Bi λ_i.
    const lv = ctx.scratch.lv, p = b.p;
    for (let side = 0; side < 2; side++) {
      const m = side === 0 ? mA : mB, body = side === 0 ? iA : iB, sign = side === 0 ? -1 : 1, part = side === 0 ? AA : AB;
      if (!(m > 0)) continue;
      let px = 0, py = 0, pz = 0, lx = 0, ly = 0, lz = 0;
      for (let i = 0; i < n; i++) {
        const ri = ro(o, hard[i]!), l = K[25 + i]!;
        px += J[ri + N]! * l; py += J[ri + N + 1]! * l; pz += J[ri + N + 2]! * l;
        lx += J[ri + part]! * l; ly += J[ri + part + 1]! * l; lz += J[ri + part + 2]! * l;
      }
      p[3 * body] = p[3 * body]! + sign * m * px; p[3 * body + 1] = p[3 * body + 1]! + sign * m * py; p[3 * body + 2] = p[3 * body + 2]! + sign * m * pz;
      lv[0] = lx; lv[1] = ly; lv[2] = lz;
      turnBy(ctx, body, sign);
    }
  }
}

/** Step halvings of the position projection per call at most. */
const MAX_HALVINGS = 6;

/** Poses of A and B (p, q) into / back from ctx.scratch.poses: the projection's last Newton step, to undo it. */
function savePoses(ctx: StepContext, iA: number, iB: number): void {
  const p = ctx.bodies.p, q = ctx.bodies.q, saved = ctx.scratch.poses;
  for (let k = 0; k < 3; k++) { saved[k] = p[3 * iA + k]!; saved[7 + k] = p[3 * iB + k]!; }
  for (let k = 0; k < 4; k++) { saved[3 + k] = q[4 * iA + k]!; saved[10 + k] = q[4 * iB + k]!; }
}
function restorePoses(ctx: StepContext, iA: number, iB: number): void {
  const p = ctx.bodies.p, q = ctx.bodies.q, saved = ctx.scratch.poses;
  for (let k = 0; k < 3; k++) { p[3 * iA + k] = saved[k]!; p[3 * iB + k] = saved[7 + k]!; }
  for (let k = 0; k < 4; k++) { q[4 * iA + k] = saved[3 + k]!; q[4 * iB + k] = saved[10 + k]!; }
}

/** Solves the symmetric n×n system K[5i + j] · x = K[25..] in place (x into K[25..]) by Gaussian
 *  elimination with partial pivoting; false when singular. */
function solveBlock(K: Float64Array, n: number): boolean {
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(K[5 * r + c]!) > Math.abs(K[5 * piv + c]!)) piv = r;
    if (!(Math.abs(K[5 * piv + c]!) > 1e-300)) return false;
    if (piv !== c) {
      for (let k = 0; k < n; k++) { const t = K[5 * c + k]!; K[5 * c + k] = K[5 * piv + k]!; K[5 * piv + k] = t; }
      const t = K[25 + c]!; K[25 + c] = K[25 + piv]!; K[25 + piv] = t;
    }
    for (let r = c + 1; r < n; r++) {
      const f = K[5 * r + c]! / K[5 * c + c]!;
      if (f === 0) continue;
      for (let k = c; k < n; k++) K[5 * r + k] = K[5 * r + k]! - f * K[5 * c + k]!;
      K[25 + r] = K[25 + r]! - f * K[25 + c]!;
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let x = K[25 + r]!;
    for (let k = r + 1; k < n; k++) x -= K[5 * r + k]! * K[25 + k]!;
    K[25 + r] = x / K[5 * r + r]!;
  }
  return true;
}

function finish(ctx: StepContext, o: number, spec: Spec): void {
  const J = ctx.joints;
  if (activeMotorRows(J, o, 1) > 0) storeMotorReport(ctx, o, 1);
  else clearMotorReport(J, o);
  const slideRows = activeSlideRows(J, o, spec);
  if (slideRows === 0) { J[o + S_TORQUE] = 0; J[o + S_TORQUE_NORM] = 0; J[o + S_SATURATED] = 0; J[o + S_I] = 0; J[o + S_I + 1] = 0; return; }
  const max = J[o + S_CLAMP]! * ctx.h;
  let m = 0, n2 = 0;
  for (let k = 0; k < slideRows; k++) { const l = J[o + S_I + k]!; m = Math.max(m, Math.abs(l)); n2 += l * l; }
  const n = Math.sqrt(n2);
  J[o + S_TORQUE] = Math.max(J[o + S_TORQUE]!, m * ctx.invH);
  J[o + S_TORQUE_NORM] = Math.max(J[o + S_TORQUE_NORM]!, n * ctx.invH);
  const atClamp = J[o + FLAGS]! & FLAG_SLIDE_TORQUE_BALL ? n : m;
  J[o + S_SATURATED] = max > 0 && atClamp >= max * (1 - 1e-9) ? 1 : 0;
}

/** The slide motor's configuration into the record (World.setSlideMotor; addJoint through configure). */
export function writeSlideMotor(J: Float64Array, o: number, m: MotorDesc | undefined): void {
  J[o + S_MODE] = m ? MOTOR_MODE_CODES[m.mode] : MOTOR_OFF;
  J[o + S_MAX] = m?.maxTorque ?? 0;
  J[o + S_R] = m?.errorReduction ?? 0.5;
  J[o + S_KP] = m?.stiffness ?? 0;
  J[o + S_KV] = m?.damping ?? 0;
  J[o + S_FRICTION] = m?.frictionTorque ?? 0;
  J[o + S_SPEED] = m?.maxSpeed ?? DEFAULT_MAX_DRIVE_SPEED;
  const flags = J[o + FLAGS]! & ~FLAG_SLIDE_TORQUE_BALL;
  J[o + FLAGS] = m?.torqueLimit === 'magnitude' ? flags | FLAG_SLIDE_TORQUE_BALL : flags;
}

/** validateMotor for the slide motor, its messages naming `slideMotor.*`. */
export function validateSlideMotor(label: string, m: MotorDesc, type: JointDesc['type']): void {
  try { validateMotor(label, m, type, 1); } catch (e) { throw new Error((e as Error).message.replaceAll('motor.', 'slideMotor.')); }
}

/** The offsets of the slide DOFs (m) at the current poses: cylindrical [s], planar [y, z], screw [s = d·x_A]. */
export function slideOffsets(ctx: StepContext, o: number, iA: number, iB: number, type: 'screw' | 'cylindrical' | 'planar'): number[] {
  const spec = SPECS[type], J = ctx.joints;
  const theta = geometry(ctx, o, iA, iB, spec, false);
  if (spec.screw) return [J[ro(o, 5) + C]! + J[o + PITCH]! * theta];
  return spec.slides.map((g) => J[ro(o, g) + C]!);
}

/** The slide motor's report (N). */
export function slideMotorReport(J: Float64Array, o: number): { torque: number; torqueMagnitude: number; maxTorque: number; saturated: boolean } {
  const off = J[o + S_MODE] === MOTOR_OFF;
  return { torque: J[o + S_TORQUE]!, torqueMagnitude: J[o + S_TORQUE_NORM]!, maxTorque: off ? J[o + S_FRICTION]! : J[o + S_MAX]!, saturated: J[o + S_SATURATED] === 1 };
}

function makeType<T extends 'screw' | 'cylindrical' | 'planar'>(name: T, code: number): JointTypeDef<T> {
  const spec = SPECS[name];
  const impulses: number[] = [M_I, M_I + 1, M_I + 2, S_I, S_I + 1];
  for (let k = 0; k < 12; k++) impulses.push(G_IMP + k);
  return {
    name, code,
    freeAxes: name === 'screw' ? ['rx', 'tx'] : name === 'cylindrical' ? ['rx', 'tx'] : ['rx', 'ty', 'tz'],
    motorRows: 1,
    motorTarget: 'scalar',
    slideRows: spec.slides.length as 0 | 1 | 2,
    impulses,
    limitImpulses: [G_IMP + 6, G_IMP + 7, G_IMP + 8, G_IMP + 9, G_IMP + 10, G_IMP + 11],
    validate(desc: JointDesc, label: string): void {
      if (desc.type !== name) return;
      range(label, 'limit', desc.limit, 2 * Math.PI);
      if (desc.type === 'screw') {
        if (!(typeof desc.pitch === 'number' && Number.isFinite(desc.pitch)) || desc.pitch === 0) {
          throw new Error(`${label}: pitch must be a finite number ≠ 0 (m/rad; a pitch of 0 is a hinge), got ${String(desc.pitch)}`);
        }
      }
      if (desc.type === 'cylindrical') range(label, 'slideLimit', desc.slideLimit);
      if (desc.type === 'planar') { range(label, 'slideLimitY', desc.slideLimitY); range(label, 'slideLimitZ', desc.slideLimitZ); }
      if ((desc.type === 'cylindrical' || desc.type === 'planar') && desc.slideMotor) validateSlideMotor(label, desc.slideMotor, name);
    },
    configure(J: Float64Array, o: number, desc: JointDesc): number {
      if (desc.type !== name) return 0;
      let flags = 0;
      if (desc.limit) { J[o + LIM_LO] = desc.limit[0]; J[o + LIM_HI] = desc.limit[1]; flags |= FLAG_LIMIT; }
      if (desc.type === 'screw') J[o + PITCH] = desc.pitch;
      const s1 = desc.type === 'cylindrical' ? desc.slideLimit : desc.type === 'planar' ? desc.slideLimitY : undefined;
      const s2 = desc.type === 'planar' ? desc.slideLimitZ : undefined;
      if (s1) { J[o + SLIDE_LIM] = s1[0]; J[o + SLIDE_LIM + 1] = s1[1]; flags |= FLAG_SLIDE1_LIMIT; }
      if (s2) { J[o + SLIDE_LIM + 2] = s2[0]; J[o + SLIDE_LIM + 3] = s2[1]; flags |= FLAG_SLIDE2_LIMIT; }
      J[o + FLAGS] = J[o + FLAGS]! | flags;
      writeSlideMotor(J, o, desc.type === 'screw' ? undefined : desc.slideMotor);
      return J[o + FLAGS]! & (flags | FLAG_SLIDE_TORQUE_BALL);
    },
    init(ctx: StepContext, o: number, iA: number, iB: number): void {
      computeFrames(ctx, o, iA, iB);
      ctx.joints[o + ANGLE] = rawHingeAngle(ctx.scratch);
    },
    prepare: (ctx, o, iA, iB) => prepare(ctx, o, iA, iB, spec),
    warmStart: (ctx, o, iA, iB) => warmStart(ctx, o, iA, iB, spec),
    solve: (ctx, o, iA, iB, useBias) => solve(ctx, o, iA, iB, useBias, spec),
    project: (ctx, o, iA, iB) => project(ctx, o, iA, iB, spec),
    correct: (ctx, o, iA, iB) => project(ctx, o, iA, iB, spec),
    finish: (ctx, o) => finish(ctx, o, spec),
    position: (ctx, o, iA, iB) => geometry(ctx, o, iA, iB, spec, false),
    /** The equality rows' linear errors (m): the anchor off A's axis (screw, cylindrical: and the screw's
     *  d·x_A − pitch·θ) or off A's plane (planar). */
    anchorError(ctx: StepContext, o: number, iA: number, iB: number): number {
      geometry(ctx, o, iA, iB, spec, false);
      const J = ctx.joints;
      let s = 0;
      for (const g of spec.hard) if (g >= 3) s += J[ro(o, g) + C]! ** 2;
      return Math.sqrt(s);
    },
  };
}

export const screwJoint = makeType('screw', 4);
export const cylindricalJoint = makeType('cylindrical', 5);
export const planarJoint = makeType('planar', 6);
