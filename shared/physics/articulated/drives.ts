/**
 * Motors and limits of one-DOF joints (hinge, prismatic) in the articulated solver, as joint-space
 * impulses with the same modes and τmax semantics as the rigid solver's motor rows (joints/motor.ts):
 *     Δλ = −(q̇_k − rhs + γ·λ_acc) / (K + γ),  λ_acc clamped to ±clamp·h,
 * where K = (M⁻¹)_kk is the joint's inverse articulated effective inertia (M⁻¹e_k from the model's
 * inverseMassOperator: the articulated inertias once per step, two light passes per column) and an impulse λ changes all velocities by M⁻¹e_k·λ, so the rows of a chain couple
 * exactly as they do in the rigid solver's Gauss-Seidel loop. C = q − target (hinge: wrapped; a target past
 * the limit clamped into it, widened to q past a stop, as the rigid joints do: ../driveTarget.ts):
 *   position  rhs = −r·C/h, γ = 0                            (bias r·ε/Δt)
 *   pd        rhs = q̇d − kp/(kv + h·kp)·C, γ = 1/(h(kv + h·kp))  (soft.ts makeSoft: τ = kp(θd−θ) + kv(θ̇d−θ̇))
 *   velocity  rhs = q̇d, γ = 0
 *   off       rhs = 0, clamp = frictionTorque                 (joint friction)
 * and clamp = maxTorque in the three drive modes. Limits are unilateral rows (both ends, every step),
 * speculative: a joint inside its range may move up to the limit in this step (rhs = (lo − q)/h), one past it is pushed back
 * at limitErp·(lo − q)/h; λ ≥ 0 at the lower limit, ≤ 0 at the upper. The step is semi-implicit:
 * q̇* = q̇ + h·q̈ (ABA), the impulses on q̇*, then q advances with the result.
 * A ball's rows act along joint-space directions: a row about frame-A axis a is Rᵀ(q)·a over the ball's
 * three q̇ (ω in the child joint frame). Its motor is three rows about frame A's X, Y, Z with C = the
 * rotation vector of q_AB·target⁻¹ (the rigid ball motor's error; the target clamped into the twist range
 * and swing cone as the rigid ball joint clamps it, ../swingTwist.ts clampSwingTwistTarget), each clamped to
 * ±τmax·h (perAxis) or together to ‖λ‖ ≤ τmax·h (magnitude); its twist limit (about the bisector of the frames' X axes) and
 * elliptical swing cone are the rigid ball joint's rows from the same swing-twist decomposition.
 */
import { jointRestSlides, jointRestValue } from '../../export/mjcf';
import { quatConj, quatMul, quatNormalize, quatToRotationVector, wrapAngle, type ReadonlyQuat } from '../../math/quat';
import { composeTransforms, transformPoint } from '../../math/transform';
import type { Vec3 } from '../../math/vec3';
import { bodyRestWorld, boneRestWorld } from '../../rig/restPose';
import type { RigDocument } from '../../rig/schema';
import { clampedDriveError } from '../driveTarget';
import { makeSoft } from '../soft';
import { DEFAULT_MAX_DRIVE_SPEED } from '../joints/motor';
import { clampSwingTwistTarget, swingTwist } from '../swingTwist';
import type { ArticulatedRig } from './fromRig';
import { JOINT_ANGULAR, type ArticulatedModel, type InverseMass } from './model';
import { solveRows, type SolverRow } from './delassus';
import { MAX_PUSH_VELOCITY } from '../contacts/contactSolver';
import { MAX_BIAS_VELOCITY } from '../stepContext';
import { dot6, quatMat, solveDense, symmetricEigen, xForce, xTransposeForce } from './spatial';

/**
 * Contacts between bodies are soft as MuJoCo's are: each of a contact's rows gets the regularisation
 * R = (1 − d)/d·W_ii (MuJoCo's, with its default impedance at rest, solimp's d = 0.9), as the row's γ, so the
 * row solves u − rhs + R·λ = 0 instead of u = rhs. Without it, a contact's three rows (and its friction) between two
 * bodies of one creature were often nearly dependent, and the exact Newton solve found impulses 15× the
 * needed ones and joint velocities of 10³–10⁵ rad/s: 42 of the 46 random rigs (of the CI seed's first 200)
 * still past 100 m/s had self-collision on; with it, 17 are (docs/articulated.md "Pushes back").
 * A body resting on another rests a little deeper than on hard rows (a 1 kg sphere at 1/120 s: 0.8 mm) and
 * reports a sinking velocity R·λ (the relax below; 9 mm/s there) while its position holds.
 * The ground's probes keep hard rows (their creatures' figures were measured with them).
 */
export const PAIR_CONTACT_SOFTNESS = (1 - 0.9) / 0.9;

/**
 * A contact between two bodies makes no row when the joints lock its normal: its inverse effective mass
 * K = J·M⁻¹·Jᵀ below this fraction of the two bodies' free inverse masses 1/m_A + 1/m_B (moving the contact
 * apart would take 1000 times their inertia). Such a contact cannot be pushed out — two bodies on one prismatic
 * joint overlapping across its slide, K ≈ 1e-7 against 6e-3 — and the push tried anyway: impulses of 1e8 N·s,
 * and every body of the 13-body creature left its first substep at 418 m/s. A contact the joints let
 * move at all has K of the order of 1/m of the lighter side.
 */
export const LOCKED_CONTACT_RATIO = 1e-3;

/** How fast a limit past its stop is pushed back: limitErp·(stop − q)/h, at most MAX_BIAS_VELOCITY (rad/s or
 *  m/s; the rigid solver's cap on a stop's bias). Uncapped, a random rig started 1.1 rad past a hinge stop was
 *  thrown back at 0.2·1.1·480 = 106 rad/s in its first substep (docs/articulated.md "Pushes back: bounded,
 *  and relaxed away"). */
function stopBias(erp: number, excess: number, h: number): number {
  const v = (erp * excess) / h;
  return v > MAX_BIAS_VELOCITY ? MAX_BIAS_VELOCITY : v < -MAX_BIAS_VELOCITY ? -MAX_BIAS_VELOCITY : v;
}

export type DriveMode = 'off' | 'position' | 'pd' | 'velocity';

export interface JointDrive {
  /** Model body whose (hinge, prismatic or ball) joint this drives. A ball drive has three motor rows about
   *  frame A's X, Y, Z and takes twistLimit / swingLimit instead of `limit`. */
  body: number;
  /** Which of the joint's coordinates (default 0): a screw's angle; cylindrical 0 the angle, 1 the slide;
   *  planar 0 the angle, 1 the offset along Y, 2 along Z — one drive per DOF, each with its own motor and
   *  limit (a planar slide motor's two rows are then clamped per axis). */
  dof?: number;
  mode: DriveMode;
  /** τmax (N·m; N for prismatic). */
  maxTorque: number;
  errorReduction: number;
  stiffness: number;
  damping: number;
  frictionTorque: number;
  /** Target (rad or m) in the model's joint coordinate (measured from the rest pose). */
  target: number;
  /** Target velocity (rad/s or m/s) for mode velocity (and the q̇d of pd). */
  targetVelocity: number;
  /** [lo, hi] in the model's joint coordinate, or null. */
  limit: readonly [number, number] | null;
  /** Ball: the rig's rotation of frame B in frame A at rest (the model's q is measured from it; default identity). */
  restRotation?: readonly [number, number, number, number];
  /** Ball: the motor's target rotation of frame B in frame A, as the rig's (default restRotation). */
  targetRotation?: readonly [number, number, number, number];
  /** Ball: twist about frame X (rad), [lo, hi], as the rig's twistLimit. */
  twistLimit?: readonly [number, number] | null;
  /** Ball: swing half-angles (rad) about frame Y and Z, an elliptical cone, as the rig's swingLimit. */
  swingLimit?: readonly [number, number] | null;
  /** Ball: how τmax bounds the three rows (the rig's torqueLimit): each on its own (default) or ‖τ‖ ≤ τmax. */
  torqueLimit?: 'perAxis' | 'magnitude';
  /** The fastest the drive asks its joint to move (rad/s or m/s; default DEFAULT_MAX_DRIVE_SPEED, as the rigid
   *  solver's motor.ts): a row's rhs is clamped to ±maxSpeed, a ball's three scaled together onto ‖rhs‖ ≤ maxSpeed. */
  maxSpeed?: number;
}

/** A contact probe for the ground: a sphere of `radius` (0: a point) at `point` in a model body's frame. */
export interface GroundProbe {
  body: number; point: readonly [number, number, number]; radius: number;
  /** μ of this probe against the ground (default GroundContact.friction). */
  friction?: number;
}

export interface GroundContact {
  /** The plane y = height. */
  height: number;
  /** Coulomb μ (the rigid solver's pair value: geometric mean of the body's and the ground's). */
  friction: number;
  probes: readonly GroundProbe[];
  /** Probes farther than this above the ground (m) make no rows this step (default 0.05). */
  margin?: number;
}

export interface DriveStepOptions {
  /** A ground plane: each probe within `margin` of it becomes a normal row (speculative, λ ≥ 0) and two
   *  friction rows along world x and z (|λ_t| ≤ μ·λ_n), solved together with the drives' rows. */
  ground?: GroundContact;
  /** Contacts between bodies (self-collision, static obstacles), found by the caller's narrow phase: a normal
   *  row (speculative, λ ≥ 0) and two friction rows each, the same friction model as the ground's. */
  pairs?: readonly PairContact[] | (() => readonly PairContact[]);
  /** Most sweeps over the rows (default 100), each a projected Gauss-Seidel sweep on the Delassus matrix
   *  followed by a Newton step on the rows inside their bounds (delassus.ts): the joint-space rows of a chain
   *  are strongly coupled, and the sweeps alone converge linearly (a 3-link chain resting on two limits was
   *  still 2.6e-5 rad past them after 100); with the Newton step a powered ragdoll needs 2. */
  iterations?: number;
  /** Stop sweeping once no row changes any joint velocity by more than this (rad/s or m/s; default 1e-10). */
  tolerance?: number;
  /** Fraction of a limit violation removed per step (default 0.2). */
  limitErp?: number;
  /**
   * 'euler' (default): semi-implicit Euler — q̇* = q̇ + h·q̈(q, q̇), the rows on q̇*, q += h·q̇ (MuJoCo's
   * Euler; energy error O(h)). 'verlet': drift–kick–drift (Störmer–Verlet) — q advances h/2 with the old
   * q̇, q̈ and every row are taken at that midpoint, q̇ gets the full kick and the rows, q advances the
   * other h/2 with the new q̇: second order for the free motion (the 60° pendulum keeps its energy to
   * 0.02 % at 1/120 s). Speculative limits and contacts still look a whole h ahead, from this midpoint to
   * the next (the end of the step is then never past them either); motor errors and the τmax·h clamps are
   * unchanged.
   */
  integrator?: 'euler' | 'verlet';
  /**
   * The time over which position errors are corrected (s; default h): a position drive asks r·C/biasStep, a
   * limit past its stop and a penetrating contact are pushed back at limitErp·depth/biasStep. A caller that
   * splits a substep into pieces (ArticulatedWorld's adaptive split) passes the substep, so a drive and a
   * push correct their errors as fast over the substep as unsplit; the τmax·h clamps, the speculative rows
   * and the PD springs take the piece's own h.
   */
  biasStep?: number;
  /**
   * 'explicit' (default, MuJoCo's Euler): the kick takes the velocity products c(q, q̇) — Coriolis,
   * centrifugal, gyroscopic — and the joints' damping at the old q̇. 'implicit': the part of c that does no
   * work or removes energy, and the damping, at the new q̇′ (implicitVelocityProducts). c grows with q̇², so the
   * explicit kick multiplies a fast spin every substep once h·|q̇| nears 1 (a whip, a light limb on a heavy
   * spinning chain).
   */
  velocityProducts?: 'explicit' | 'implicit';
}

/** A contact between two model bodies (−1: the world, e.g. a static body), from a narrow phase. */
export interface PairContact {
  bodyA: number; bodyB: number;
  /** World contact point (between the two surfaces) and unit normal from A to B. */
  point: readonly [number, number, number];
  normal: readonly [number, number, number];
  /** Penetration (m): > 0 overlapping, ≤ 0 apart by −depth (speculative). */
  depth: number;
  /** Coulomb μ of the pair. */
  friction: number;
}

/** What a contact row (ground probe or pair) carried this step. */
export interface ContactResult {
  /** Model bodies (−1: the world / the ground). */
  bodyA: number; bodyB: number;
  point: [number, number, number];
  /** Unit normal from A to B (ground: A is the body, the normal points down into the ground, as the rigid
   *  solver's ground contacts). */
  normal: [number, number, number];
  depth: number;
  /** Accumulated normal impulse (N·s). */
  normalImpulse: number;
}

export interface DriveStepResult {
  /** ρ(M⁻¹·Ṁ) at the step's start, the largest over the trees (1/s): how fast the mass matrix changes with
   *  the motion, so h·massRate is its relative change over the step. Computed by the implicit velocity
   *  products (0 with 'explicit', and for a tree at rest). ArticulatedWorld cuts its next substep by it. */
  massRate: number;
  /** Motor torque (λ/h, N·m or N) per drive this step; for a ball its magnitude ‖τ‖. */
  motorTorque: number[];
  /** The largest single motor row's |λ|/h per drive (for a ball in perAxis mode ≤ τmax, its magnitude up to √3·τmax). */
  motorRowTorque: number[];
  /** Whether the drive's motor ended the step at its clamp (a row at ±clamp·h, or ‖λ‖ at τmax·h in magnitude mode). */
  saturated: boolean[];
  /** Limit torque per drive (0 when the limit was not active). */
  limitTorque: number[];
  /** Every ground and pair contact row this step. */
  contacts: ContactResult[];
  /** Rows solved and the sweeps used (the most any island of coupled rows needed). */
  rows: number;
  iterations: number;
}

/** One semi-implicit step of `model` with drives and limits. */
export function stepWithDrives(model: ArticulatedModel, drives: readonly JointDrive[], h: number, options: DriveStepOptions = {}): DriveStepResult {
  const iterations = options.iterations ?? 100, tolerance = options.tolerance ?? 1e-10;
  // The pushes' erp·depth/h read over biasStep: erp scaled by h/biasStep (it enters only the pushes).
  const hb = options.biasStep ?? h, erp = (options.limitErp ?? 0.2) * (h / hb);
  const nv = model.nv;
  const verlet = options.integrator === 'verlet', hs = verlet ? h / 2 : h; // hs: from the rows' configuration to the step's end
  if (verlet) model.q = model.integratePositions(model.q, model.qd, h / 2);
  // q̈ and the inverse mass operator at this q from one ABA pass (the rows' responses M⁻¹·n use the latter).
  const { qdd, inverseMass, kinematics } = model.forwardDynamicsAndInverseMass();
  model.qdd = qdd;
  const massRate = options.velocityProducts === 'implicit' ? implicitVelocityProducts(model, kinematics, qdd, h) : 0;
  const qd = new Float64Array(nv);
  for (let k = 0; k < nv; k++) qd[k] = model.qd[k]! + h * qdd[k]!;
  // A row acts along a joint-space direction n over the DOFs `dofs` (one DOF: n = [1]); col = M⁻¹·n.
  const rows: Row[] = [];
  let response: Response | null = null; // M⁻¹·, built on first use, visiting only the trees a row touches
  const column = (v: number) => {
    response ??= rangedResponse(model, inverseMass);
    const e = response.tau; e[v] = 1;
    const r = response(v, v);
    e[v] = 0;
    return r;
  };
  // The columns of one joint share its tree's range; col and the columns are compact over it (entry k: DOF v0 + k).
  const direction = (dofs: number[], n: number[], cols: Ranged[]) => {
    const v0 = cols[0]!.v0, v1 = cols[0]!.v1, col = new Float64Array(v1 - v0);
    for (let k = 0; k < dofs.length; k++) { const c = cols[k]!.col, x = n[k]!; for (let j = 0; j < v1 - v0; j++) col[j] += x * c[j]!; }
    let K = 0;
    for (let k = 0; k < dofs.length; k++) K += n[k]! * col[dofs[k]! - v0]!;
    return { dofs, n, col, v0, v1, K };
  };
  drives.forEach((d, i) => {
    const b = model.bodies[d.body];
    if (!b || b.joint === 'free') {
      throw new Error(`drive ${i}: body ${d.body} ${b ? `has a ${b.joint} joint ("${b.jointName}")` : 'is not in the model'}; drives take hinge, prismatic, ball, screw, cylindrical and planar joints`);
    }
    if (b.joint !== 'ball' && !(Number.isInteger(d.dof ?? 0) && (d.dof ?? 0) >= 0 && (d.dof ?? 0) < b.nv)) {
      throw new Error(`drive ${i}: dof ${String(d.dof)} is not a coordinate of the ${b.joint} joint "${b.jointName}" (0..${b.nv - 1})`);
    }
    const maxSpeed = d.maxSpeed ?? DEFAULT_MAX_DRIVE_SPEED;
    const motorRow = (dir: { dofs: number[]; n: number[]; col: Float64Array; v0: number; v1: number; K: number }, C: number, targetVelocity: number, ownSpeed = true): Row | null => {
      if (d.mode === 'off' && !(d.frictionTorque > 0)) return null;
      let rhs = 0, gamma = 0, clamp = d.maxTorque;
      if (d.mode === 'position') rhs = (-d.errorReduction * C) / hb;
      else if (d.mode === 'pd') {
        const s = makeSoft(d.stiffness, d.damping, h);
        rhs = targetVelocity - s.biasRate * C;
        gamma = s.softness;
      } else if (d.mode === 'velocity') rhs = targetVelocity;
      else clamp = d.frictionTorque;
      if (ownSpeed) rhs = Math.max(-maxSpeed, Math.min(maxSpeed, rhs));
      if (!Number.isFinite(gamma)) return null;
      return makeRow(dir, rhs, gamma, -clamp * h, clamp * h, i, false);
    };
    if (b.joint === 'ball') {
      if (d.limit) throw new Error(`drive ${i}: ball joint "${b.jointName}" takes twistLimit and swingLimit, not a [lo, hi] limit`);
      // The rig's relative rotation of frame B in frame A: ours (from the rest pose) times the rest offset.
      const q = [model.q[b.qi]!, model.q[b.qi + 1]!, model.q[b.qi + 2]!, model.q[b.qi + 3]!] as const;
      const qr = quatMul(q, d.restRotation ?? [0, 0, 0, 1]);
      // Our q̇ is ω in the child joint frame; a row about frame-A axis a has q̇-direction Rᵀ(q)·a.
      const R = quatMat(q);
      const dofs = [b.vi, b.vi + 1, b.vi + 2], cols = dofs.map(column);
      const along = (a: readonly number[]) => direction(dofs, [0, 1, 2].map((k) => R[k]! * a[0]! + R[3 + k]! * a[1]! + R[6 + k]! * a[2]!), cols);
      // [twist about X, swing about Y, swing about Z]: the rigid ball joint's own decomposition.
      const st = new Float64Array(3); swingTwist(st, qr[0], qr[1], qr[2], qr[3]);
      // Motor error as the rigid solver's: rotation vector of qr·target⁻¹, frame A axes, rows about A's X, Y, Z,
      // with the target clamped into the twist range and swing cone (widened to the current pose) as the
      // rigid ball joint clamps it (clampSwingTwistTarget); a target inside them is used as it is.
      let target: ReadonlyQuat = d.targetRotation ?? d.restRotation ?? [0, 0, 0, 1];
      if ((d.mode === 'position' || d.mode === 'pd') && (d.twistLimit || d.swingLimit)) {
        const tq = Float64Array.from(target);
        const [lo, hi] = d.twistLimit ?? [-Infinity, Infinity], [sa, sb] = d.swingLimit ?? [Infinity, Infinity];
        if (clampSwingTwistTarget(tq, new Float64Array(3), lo, hi, sa, sb, st[0], st[1], st[2])) target = [tq[0]!, tq[1]!, tq[2]!, tq[3]!];
      }
      const err = quatToRotationVector(quatMul(qr, quatConj(target)));
      const group: Row[] = [];
      for (let k = 0; k < 3; k++) {
        const r = motorRow(along([k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0]), err[k]!, 0, false);
        if (r) group.push(r);
      }
      // The rotation vector's rate the drive asks for, scaled onto ‖rhs‖ ≤ maxSpeed (motor.ts limitBallDriveSpeed).
      const n2 = group.reduce((a, r) => a + r.rhs * r.rhs, 0);
      if (n2 > maxSpeed * maxSpeed) { const sc = maxSpeed / Math.sqrt(n2); for (const r of group) r.rhs *= sc; }
      if (group.length === 3) {
        // Solved as one 3×3 block: a slender limb's three rows are too strongly coupled for row-by-row sweeps.
        const block = { rows: group, norm: d.torqueLimit === 'magnitude' && d.mode !== 'off' ? d.maxTorque * h : null };
        for (const r of group) r.block = block;
      }
      // The motor before the limits, as the rigid ball joint (solveBall): a stop's row is solved last in each sweep.
      rows.push(...group);
      if (d.twistLimit) {
        // Twist axis: the bisector of the two frames' X axes (frame A axes), as the rigid ball joint.
        const bx = quatMat(qr);
        let ax = 1 + bx[0]!, ay = bx[3]!, az = bx[6]!;
        const l = Math.hypot(ax, ay, az);
        if (l > 1e-9) { ax /= l; ay /= l; az /= l; } else { ax = bx[0]!; ay = bx[3]!; az = bx[6]!; }
        const dir = along([ax, ay, az]), [lo, hi] = d.twistLimit, tw = st[0];
        rows.push(stopRow(dir, lo - tw, tw < lo, erp, h, 0, Infinity, i));
        rows.push(stopRow(dir, hi - tw, tw > hi, erp, h, -Infinity, 0, i));
      }
      const theta = Math.hypot(st[1], st[2]);
      if (d.swingLimit && theta > 1e-9) {
        // Ellipse (θy/αy)² + (θz/αz)² = 1: its radius toward the swing and its outward normal there (frame A).
        const [sa, sb] = d.swingLimit, dy = st[1] / theta, dz = st[2] / theta;
        const limit = 1 / Math.sqrt((dy / sa) ** 2 + (dz / sb) ** 2);
        let ny = dy / (sa * sa), nz = dz / (sb * sb);
        const nn = Math.hypot(ny, nz); ny /= nn; nz /= nn;
        const gap = (limit - theta) * (dy * ny + dz * nz); // ≥ 0 inside the cone; swing grows with +ω·(0, ny, nz)
        rows.push(stopRow(along([0, ny, nz]), gap, gap < 0, erp, h, -Infinity, 0, i));
      }
      return;
    }
    const dof = d.dof ?? 0, v = b.vi + dof, q = model.q[b.qi + dof]!;
    const dir = direction([v], [1], [column(v)]);
    // C = q − target (an angle the short way), the target clamped into the limit (widened to q past a stop)
    // as the rigid hinge, prismatic and coupled joints clamp theirs (../driveTarget.ts clampedDriveError).
    const C0 = JOINT_ANGULAR[b.joint][dof] ? wrapAngle(q - d.target) : q - d.target;
    const C = d.limit ? clampedDriveError(q, C0, d.limit[0], d.limit[1]) : C0;
    const m = motorRow(dir, C, d.targetVelocity);
    if (m) rows.push(m);
    if (d.limit) {
      const [lo, hi] = d.limit;
      // Both ends, always: a speculative row far from its limit only allows motion and stays at λ = 0,
      // and one that the other rows' impulses push toward its limit is there to stop it.
      rows.push(stopRow(dir, lo - q, q < lo, erp, h, 0, Infinity, i));
      rows.push(stopRow(dir, hi - q, q > hi, erp, h, -Infinity, 0, i));
    }
  });
  const contacts: { row: Row; result: ContactResult }[] = [];
  const pairs = typeof options.pairs === 'function' ? options.pairs() : options.pairs; // a function: found at the rows' configuration
  if (options.ground || pairs?.length) {
    response ??= rangedResponse(model, inverseMass);
    const kin = kinematics; // the ABA pass's, at this q (the rows use its transforms and subspaces only)
    if (options.ground) groundRows(model, kin, options.ground, h, erp, response, rows, contacts);
    if (pairs) pairRows(model, kin, pairs, h, erp, response, rows, contacts);
  }
  // The rows on their Delassus matrix W = J M⁻¹ Jᵀ (delassus.ts): Gauss-Seidel sweeps on W, each followed by a
  // Newton step on the rows inside their bounds; the same fixed point as row-by-row sweeps on q̇.
  // Whether some row pushes is known from the rows: only then are the velocities before the rows' impulses kept
  // (solveRows adds them to qd) for the relax below.
  let pushed = false;
  for (const r of rows) if (r.push) { pushed = true; break; }
  const free = pushed ? Float64Array.from(qd) : null;
  let sweeps = solveRows(rows, qd, iterations, tolerance);
  model.q = model.integratePositions(model.q, qd, hs);
  // Relax (Box2D v3's soft step, the rigid solver's relax sweeps): the positions took the push back from past a
  // stop or out of a penetration; the velocities must not keep it, or a push that cannot resolve its error (two
  // bodies overlapping at their common joint) adds its kinetic energy every substep. The same rows again, from
  // the velocities before any impulse with the impulses found as the start, the pushes' rhs set to hold (0).
  // Only when some row pushed: otherwise nothing changes. A soft row (a body contact, PAIR_CONTACT_SOFTNESS)
  // stays soft here, so a body resting on another keeps a sinking velocity R·λ that the next step's push undoes
  // (its position holds; 9 mm/s under a resting 1 kg sphere at 1/120 s). Held at the solve's own R·λ instead (u = 0 at rest) or relaxed rigid, the random rigs
  // kept more of their pushes: 10 and 9 + 1 throw of the CI seed's first 100 past 100 m/s, against 5.
  if (free) {
    // A drive on the loop a pushing body contact closes holds too: its error now includes the push, and the
    // velocity it would add to undo it is the push's own, back (loopBodies).
    const loop = loopBodies(model, contacts);
    for (const r of rows) if (r.push || (loop.size > 0 && r.drive >= 0 && !r.limit && loop.has(drives[r.drive]!.body))) r.rhs = 0;
    qd.set(free);
    sweeps = Math.max(sweeps, solveRows(rows, qd, iterations, tolerance));
  }
  model.qd = qd;
  const motorTorque = drives.map(() => 0), limitTorque = drives.map(() => 0), sq = drives.map(() => 0);
  const motorRowTorque = drives.map(() => 0), saturated = drives.map(() => false);
  for (const r of rows) {
    if (r.drive < 0) continue; // ground contact rows
    if (r.limit) { limitTorque[r.drive] += r.acc / h; continue; }
    if (model.bodies[drives[r.drive]!.body]!.joint === 'ball') sq[r.drive] += (r.acc / h) ** 2;
    else motorTorque[r.drive] += r.acc / h;
    motorRowTorque[r.drive] = Math.max(motorRowTorque[r.drive]!, Math.abs(r.acc) / h);
    if (r.hi > 0 && Number.isFinite(r.hi) && Math.abs(r.acc) >= r.hi * (1 - 1e-9)) saturated[r.drive] = true;
    if (r.block?.norm && Math.hypot(...r.block.rows.map((x) => x.acc)) >= r.block.norm * (1 - 1e-9)) saturated[r.drive] = true;
  }
  drives.forEach((d, i) => { if (model.bodies[d.body]!.joint === 'ball') motorTorque[i] = Math.sqrt(sq[i]!); });
  for (const c of contacts) c.result.normalImpulse = c.row.acc;
  return { motorTorque, motorRowTorque, saturated, limitTorque, contacts: contacts.map((c) => c.result), rows: rows.length, iterations: sweeps, massRate };
}

/** Power iterations spectralRadiusInMetric takes: it needs ρ to a few per cent, for a threshold. */
const RATE_ITERATIONS = 12;

/**
 * ρ(M⁻¹·S) for S symmetric, M symmetric positive definite (n×n, row-major): the largest |λ| of the symmetric
 * B = L⁻¹·S·L⁻ᵀ (M = L·Lᵀ), by power iterations on B from a fixed start (‖B·x‖ for the unit x they reach:
 * from below, within a few per cent of ρ after RATE_ITERATIONS; a full eigen-decomposition of B cost a quarter
 * of the step). 0 when M is not positive definite.
 */
function spectralRadiusInMetric(S: Float64Array, M: Float64Array, n: number): number {
  const L = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = M[j * n + j]!;
    for (let k = 0; k < j; k++) d -= L[j * n + k]! ** 2;
    if (!(d > 0)) return 0;
    const ljj = Math.sqrt(d);
    L[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let x = M[i * n + j]!;
      for (let k = 0; k < j; k++) x -= L[i * n + k]! * L[j * n + k]!;
      L[i * n + j] = x / ljj;
    }
  }
  const x = new Float64Array(n), y = new Float64Array(n), z = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = 1 + i / n;
  let rho = 0;
  for (let it = 0; it < RATE_ITERATIONS; it++) {
    let norm = 0;
    for (let i = 0; i < n; i++) norm += x[i]! * x[i]!;
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return rho;
    for (let i = 0; i < n; i++) x[i] = x[i]! / norm;
    // y = L⁻ᵀ·x (back substitution), z = S·y, y = L⁻¹·z (forward): y = B·x.
    for (let i = n - 1; i >= 0; i--) { let v = x[i]!; for (let k = i + 1; k < n; k++) v -= L[k * n + i]! * y[k]!; y[i] = v / L[i * n + i]!; }
    for (let i = 0; i < n; i++) { let v = 0; for (let k = 0; k < n; k++) v += S[i * n + k]! * y[k]!; z[i] = v; }
    for (let i = 0; i < n; i++) { let v = z[i]!; for (let k = 0; k < i; k++) v -= L[i * n + k]! * y[k]!; y[i] = v / L[i * n + i]!; }
    // ‖B·x‖ with ‖x‖ = 1, not the Rayleigh quotient: ½Ṁ has eigenvalues of both signs, often in pairs ±λ,
    // between which xᵀB·x cancels.
    let q = 0;
    for (let i = 0; i < n; i++) q += y[i]! * y[i]!;
    rho = Math.sqrt(q);
    x.set(y);
  }
  return rho;
}

/**
 * The bodies whose parent joint lies on the tree path between the two bodies of a body contact that pushes out
 * of a penetration: the joints the contact closes into a loop. Their drives hold in the relax as the push does
 * (rhs 0). Otherwise a drive holding two bodies into each other fights the push every substep: the push moves
 * them apart through the joints and keeps no velocity, the drive's error now includes that move and its relaxed
 * row drives them back with real velocity, the contact stops it, the push moves them again — on a random rig
 * (1826048311: a Generate-shaped creature in zero gravity, started overlapping) +1.5 J a piece, 100 m/s within 2 s.
 * In the solve the drive keeps its bias; contacts between trees close no loop.
 */
function loopBodies(model: ArticulatedModel, contacts: readonly { row: Row; result: ContactResult }[]): Set<number> {
  const out = new Set<number>();
  const ancestors = (i: number): number[] => { const a: number[] = []; for (let k = i; k >= 0; k = model.bodies[k]!.parent) a.push(k); return a; };
  for (const c of contacts) {
    if (!c.row.push || c.result.bodyA < 0 || c.result.bodyB < 0) continue;
    const a = ancestors(c.result.bodyA), b = ancestors(c.result.bodyB), inB = new Set(b);
    const lca = a.find((k) => inB.has(k));
    if (lca === undefined) continue; // different trees: no loop
    for (const k of a) { if (k === lca) break; out.add(k); }
    for (const k of b) { if (k === lca) break; out.add(k); }
  }
  return out;
}

/**
 * The kick's q̈ with the velocity products split by what they do to the kinetic energy
 * (DriveStepOptions.velocityProducts 'implicit'). c(q, q̇) = C(q, q̇)·q̇ with the Coriolis matrix whose
 * Ṁ = C + Cᵀ (model.coriolisTimes, one Newton–Euler pass per column), so C = W + ½Ṁ with W skew, and
 * ½Ṁ = P⁺ + P⁻ by the signs of its eigenvalues. W turns the velocity without doing work (the gyroscopic and
 * Coriolis exchange) and P⁺ slows it where the inertia grows along the motion: both are taken at the new q̇′,
 * as is the joints' damping b. P⁻, where the inertia shrinks along the motion and the products speed the
 * bodies up (a whip's crack, a skater pulling in her arms), stays at the old q̇:
 *   M·(q̇′ − q̇) = h·(τ − P⁻·q̇ − (W + P⁺ + b)·q̇′), i.e. q̈ ← (1 + h·M⁻¹(W + P⁺ + b))⁻¹·q̈.
 * xᵀ(M + h(W + P⁺ + b))·x = xᵀ(M + h(P⁺ + b))·x > 0: the matrix is never singular and its part of the step only
 * removes energy or none. Taken whole at q̇′ (the linearly implicit step on C, or on MuJoCo's ∂c/∂q̇), the P⁻
 * part is an anti-damping made implicit: its matrix nears singular when h·½Ṁ nears −M, and the step amplifies
 * (docs/articulated.md "Velocity products, implicit"). Per tree of n DOFs: n Newton–Euler columns, one n×n
 * symmetric eigen-decomposition, M by the composite-rigid-body algorithm and one n×n solve. A tree at rest
 * without joint damping is skipped (C = 0 there: the kick is the explicit one). Returns ρ(M⁻¹·Ṁ), the
 * largest over the trees (DriveStepResult.massRate), from the same C and M.
 */
function implicitVelocityProducts(model: ArticulatedModel, kin: Kin, qdd: Float64Array, h: number): number {
  let rate = 0;
  const bodies = model.bodies, qd = model.qd, nv = model.nv, N = bodies.length;
  const x = new Float64Array(nv), t = new Float64Array(nv), { dofBody, treeTo } = treeLayout(model);
  for (let from = 0; from < N;) {
    const to = treeTo[from]!, v0 = bodies[from]!.vi, v1 = to < N ? bodies[to]!.vi : nv, n = v1 - v0;
    let moving = false;
    for (let k = v0; k < v1 && !moving; k++) moving = qd[k] !== 0;
    for (let i = from; i < to && !moving; i++) moving = (bodies[i]!.damping ?? 0) > 0;
    if (moving && n > 0) {
      // C column by column (each column visits its DOF's body, that body's subtree and its ancestors).
      const C = new Float64Array(n * n);
      for (let c = 0; c < n; c++) {
        x[v0 + c] = 1;
        model.coriolisTimes(model.q, kin, qd, x, from, to, t, dofBody[v0 + c]!);
        x[v0 + c] = 0;
        for (let r = 0; r < n; r++) C[r * n + c] = t[v0 + r]!;
      }
      // K = W + P⁺ + b: the skew part, the positive part of ½Ṁ = ½(C + Cᵀ), the joints' damping.
      const half = new Float64Array(n * n), K = new Float64Array(n * n);
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
        half[r * n + c] = 0.5 * (C[r * n + c]! + C[c * n + r]!);
        K[r * n + c] = 0.5 * (C[r * n + c]! - C[c * n + r]!);
      }
      const { values, vectors: V } = symmetricEigen(half, n);
      for (let k = 0; k < n; k++) {
        const lambda = values[k]!;
        if (!(lambda > 0)) continue;
        for (let r = 0; r < n; r++) {
          const vr = lambda * V[r * n + k]!;
          if (vr !== 0) for (let c = 0; c < n; c++) K[r * n + c] += vr * V[c * n + k]!;
        }
      }
      for (let i = from; i < to; i++) {
        const b = bodies[i]!, damping = b.damping ?? 0;
        if (damping > 0) for (let k = b.vi; k < b.vi + b.nv; k++) K[(k - v0) * n + (k - v0)] += damping;
      }
      // (M + h·K)·q̈′ = M·q̈, M by the composite-rigid-body algorithm.
      const M = model.massMatrix(kin, from, to, new Float64Array(n * n));
      rate = Math.max(rate, 2 * spectralRadiusInMetric(half, M, n));
      const A = new Array<number>(n * n), rhs = new Array<number>(n).fill(0);
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
        A[r * n + c] = M[r * n + c]! + h * K[r * n + c]!;
        rhs[r] += M[r * n + c]! * qdd[v0 + c]!;
      }
      const y = solveDense(A, rhs, n);
      for (let r = 0; r < n; r++) qdd[v0 + r] = y[r]!;
    }
    from = to;
  }
  return rate;
}

/**
 * The drives of a rig's hinge and prismatic joints (motor and limit), in the model's coordinates: the
 * rig's angles are measured from frame A to frame B, ours from the rest pose, so target and limits are
 * shifted by the rest value (shared/export/mjcf.ts jointRestValue, the `ref` MuJoCo gets). Motor targets
 * start at the rest pose (source "rest"); a caller driving animation or IK targets sets `target`.
 * Ball targets and limits keep the rig's frame-A/frame-B convention (restRotation carries the rest offset).
 * `unsupported` names what a rig asks for that is not mapped (nothing at present; kept for new pairs).
 */
export function drivesFromRig(rig: RigDocument, a: ArticulatedRig): { drives: JointDrive[]; unsupported: string[] } {
  const world = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
  const drives: JointDrive[] = [], unsupported: string[] = [];
  for (const j of rig.joints) {
    const at = a.joints.get(j.name);
    if (!at || j.type === 'fixed') continue;
    const m = j.motor;
    if (j.type === 'ball') {
      const fa = quatMul(world.get(j.bodyA)!.rotation, quatNormalize(j.frameA.rotation));
      const fb = quatMul(world.get(j.bodyB)!.rotation, quatNormalize(j.frameB.rotation));
      const restRotation = quatNormalize(quatMul(quatConj(fa), fb));
      drives.push({
        body: at.link, mode: m.mode, maxTorque: m.maxTorque, errorReduction: m.errorReduction, stiffness: m.stiffness,
        damping: m.damping, frictionTorque: m.frictionTorque, target: 0, targetVelocity: 0, limit: null,
        restRotation, targetRotation: restRotation, torqueLimit: m.torqueLimit ?? 'perAxis', maxSpeed: m.maxSpeed ?? DEFAULT_MAX_DRIVE_SPEED,
        twistLimit: j.twistLimit ?? null, swingLimit: j.swingLimit ?? null,
      });
      continue;
    }
    const rest = jointRestValue(j, world);
    drives.push({
      body: at.link, mode: m.mode, maxTorque: m.maxTorque, errorReduction: m.errorReduction, stiffness: m.stiffness,
      damping: m.damping, frictionTorque: m.frictionTorque, target: 0, targetVelocity: m.target.velocity ?? 0,
      limit: j.limit ? [j.limit[0] - rest, j.limit[1] - rest] : null, maxSpeed: m.maxSpeed ?? DEFAULT_MAX_DRIVE_SPEED,
    });
    // Cylindrical and planar: one more drive per slide DOF, from the slide motor and the slide limits.
    if (j.type === 'cylindrical' || j.type === 'planar') {
      const sm = j.slideMotor, slideRest = jointRestSlides(j, world);
      const limits = j.type === 'cylindrical' ? [j.slideLimit] : [j.slideLimitY, j.slideLimitZ];
      limits.forEach((lim, k) => drives.push({
        body: at.link, dof: 1 + k, mode: sm.mode, maxTorque: sm.maxTorque, errorReduction: sm.errorReduction, stiffness: sm.stiffness,
        damping: sm.damping, frictionTorque: sm.frictionTorque, target: 0, targetVelocity: j.type === 'cylindrical' ? sm.target.velocity ?? 0 : 0,
        limit: lim ? [lim[0] - slideRest[k]!, lim[1] - slideRest[k]!] : null, maxSpeed: sm.maxSpeed ?? DEFAULT_MAX_DRIVE_SPEED,
      }));
    }
  }
  return { drives, unsupported };
}

/** A row as the solver takes it (delassus.ts), with the drive it belongs to (−1: a contact), whether it is a
 *  limit or contact row, and whether its rhs is a push back from past a stop or out of a penetration (held at
 *  rhs 0 in the relax solve, which takes the push out of the velocities again). */
interface Row extends SolverRow { drive: number; limit: boolean; push: boolean }
type ContactRow = Row;

/** A row along a direction (its DOFs, response, K), every field set so that all rows share one shape. */
function makeRow(dir: { dofs: number[]; n: number[]; col: Float64Array; v0: number; v1: number; K: number }, rhs: number, gamma: number, lo: number, hi: number,
  drive: number, limit: boolean, friction?: { normal: SolverRow; mu: number }, push = false): Row {
  return { dofs: dir.dofs, n: dir.n, col: dir.col, v0: dir.v0, v1: dir.v1, K: dir.K, rhs, gamma, lo, hi, acc: 0, block: undefined, friction, drive, limit, push };
}

/** A stop's row, `excess` = stop − q (lower stop, λ ≥ 0) or its negative side (upper, λ ≤ 0): speculative while
 *  the joint is inside (it may reach the stop this step: rhs = excess/h, in the relax too); past it, pushed back
 *  at stopBias in the solve and held (rhs 0) in the relax, so the push moves the joint but leaves no velocity. */
function stopRow(dir: { dofs: number[]; n: number[]; col: Float64Array; v0: number; v1: number; K: number }, excess: number, past: boolean, erp: number, h: number,
  lo: number, hi: number, drive: number): Row {
  return past ? makeRow(dir, stopBias(erp, excess, h), 0, lo, hi, drive, true, undefined, true) : makeRow(dir, excess / h, 0, lo, hi, drive, true);
}

type Kin = ReturnType<ArticulatedModel['kinematics']>;

/**
 * The generalized force of a unit world force d at world point p on model body i (−1: the world, zero):
 * the spatial force [p×d; d] in i's coordinates, then J_qᵀ = Σ over i and its ancestors j of S_jᵀ·f_j
 * (f carried to each parent by Xupᵀ). Its dot with q̇ is the point's velocity along d.
 */
export function pointJacobian(model: ArticulatedModel, kin: Kin, i: number, p: readonly number[], d: readonly number[], out: Float64Array = new Float64Array(model.nv), sign = 1): Float64Array {
  if (i < 0) return out;
  const fw = [p[1]! * d[2]! - p[2]! * d[1]!, p[2]! * d[0]! - p[0]! * d[2]!, p[0]! * d[1]! - p[1]! * d[0]!, d[0]!, d[1]!, d[2]!];
  let f = xForce(kin.X0[i]!, fw);
  for (let j = i; j >= 0; j = model.bodies[j]!.parent) {
    const b = model.bodies[j]!;
    for (let k = 0; k < b.nv; k++) out[b.vi + k] += sign * dot6(kin.S[j]![k]!, f);
    f = xTransposeForce(kin.Xup[j]!, f);
  }
  return out;
}

/** M⁻¹·τ over the DOF range [v0, v1) outside which it is 0 (the trees τ touches), compact: col[k] is DOF v0 + k. */
interface Ranged { col: Float64Array; v0: number; v1: number }
/** M⁻¹ of the generalized force in `tau` (the step's scratch, length nv, 0 outside the rows being built),
 *  given its first and last nonzero DOF (−1: none); `treeDofs(body)` is the DOF range of a body's tree. */
interface Response {
  (lo: number, hi: number): Ranged;
  tau: Float64Array;
  treeDofs(body: number): [number, number];
}

interface TreeLayout { dofBody: Int32Array; treeFrom: Int32Array; treeTo: Int32Array; tau: Float64Array }
const layouts = new WeakMap<ArticulatedModel, TreeLayout>();

/**
 * Each body's tree as a body range [treeFrom, treeTo) (the rig builder lays trees out contiguously; a model
 * whose trees interleave gets the whole range for every body), each DOF's body, and a scratch τ; once per model.
 */
function treeLayout(model: ArticulatedModel): TreeLayout {
  let layout = layouts.get(model);
  if (!layout) {
    const n = model.bodies.length, dofBody = new Int32Array(model.nv), root = new Int32Array(n);
    const treeFrom = new Int32Array(n), treeTo = new Int32Array(n).fill(n);
    model.bodies.forEach((b, i) => { root[i] = b.parent < 0 ? i : root[b.parent]!; for (let k = 0; k < b.nv; k++) dofBody[b.vi + k] = i; });
    let contiguous = true;
    for (let i = 1; i < n; i++) if (root[i] !== root[i - 1] && root[i] !== i) contiguous = false;
    if (contiguous) {
      for (let i = 0; i < n; i++) treeFrom[i] = root[i]!;
      for (let i = n - 1, end = n; i >= 0; i--) { treeTo[i] = end; if (root[i] === i) end = i; }
    }
    layout = { dofBody, treeFrom, treeTo, tau: new Float64Array(model.nv) };
    layouts.set(model, layout);
  }
  return layout;
}

/**
 * The model's inverse mass operator visiting only the trees a generalized force touches: the bodies from
 * the tree of its first nonzero DOF to the tree of its last (treeLayout). A row on one creature then costs
 * that creature.
 */
function rangedResponse(model: ArticulatedModel, M: InverseMass): Response {
  const { dofBody, treeFrom, treeTo, tau } = treeLayout(model), bodies = model.bodies;
  const response = (lo: number, hi: number): Ranged => {
    if (lo < 0) return { col: new Float64Array(0), v0: 0, v1: 0 };
    const from = treeFrom[dofBody[lo]!]!, to = treeTo[dofBody[hi]!]!, last = bodies[to - 1]!, v0 = bodies[from]!.vi;
    const col = new Float64Array(last.vi + last.nv - v0);
    M(tau, from, to, col);
    return { col, v0, v1: last.vi + last.nv };
  };
  return Object.assign(response, {
    tau,
    treeDofs(body: number): [number, number] {
      const last = bodies[treeTo[body]! - 1]!;
      return [bodies[treeFrom[body]!]!.vi, last.vi + last.nv];
    },
  });
}

/** A row along the generalized direction in response.tau, nonzero only inside the DOF ranges [d0, d1) and
 *  [e0, e1) (ascending, the trees of the bodies it acts on): its nonzero DOFs, the response M⁻¹·tau and
 *  K = tauᵀM⁻¹tau. Leaves tau 0 again. */
function rowOf(response: Response, d0: number, d1: number, e0: number, e1: number) {
  const tau = response.tau, dofs: number[] = [], n: number[] = [];
  for (let k = d0; k < d1; k++) { const x = tau[k]!; if (x !== 0) { dofs.push(k); n.push(x); } }
  for (let k = Math.max(e0, d1); k < e1; k++) { const x = tau[k]!; if (x !== 0) { dofs.push(k); n.push(x); } }
  const r = dofs.length ? response(dofs[0]!, dofs[dofs.length - 1]!) : response(-1, -1);
  const { col, v0, v1 } = r;
  let K = 0;
  for (let k = 0; k < dofs.length; k++) K += n[k]! * col[dofs[k]! - v0]!;
  tau.fill(0, d0, d1); tau.fill(0, e0, e1);
  return { dofs, n, col, v0, v1, K };
}

/** A normal row (speculative, λ ≥ 0) and, with μ > 0, two friction rows (|λ_t| ≤ μ·λ_n) of a contact whose
 *  relative velocity along a world direction d is tau(d)·q̇. */
function contactRows(tau: (d: readonly number[]) => void, ranges: readonly [number, number, number, number], normal: readonly number[], gap: number, mu: number, h: number, erp: number,
  response: Response, rows: ContactRow[], soft = 0, locked = 1e-14): ContactRow {
  const row = (d: readonly number[]) => { tau(d); return rowOf(response, ranges[0], ranges[1], ranges[2], ranges[3]); };
  // Penetrating: pushed out at erp·depth/h, at most MAX_PUSH_VELOCITY (the rigid solver's bound on
  // depenetration): bodies started inside each other separate at a bounded speed.
  const nrow = gap >= 0 ? makeRow(row(normal), -gap / h, 0, 0, Infinity, -1, true)
    : makeRow(row(normal), Math.min((-erp * gap) / h, MAX_PUSH_VELOCITY), 0, 0, Infinity, -1, true, undefined, true);
  // A direction no DOF can move along (e.g. along a lone hinge's axis) makes no row (K = 0 would divide by 0),
  // nor one the joints lock (`locked`: LOCKED_CONTACT_RATIO).
  if (!(nrow.K > Math.max(1e-14, locked))) return nrow;
  nrow.gamma = soft * nrow.K;
  rows.push(nrow);
  if (mu > 0) {
    // Two tangents: world x and z for the ground (as before), any orthonormal pair otherwise.
    const [nx, ny, nz] = normal as [number, number, number];
    let t1: number[];
    if (Math.abs(ny) > 0.999999) t1 = [1, 0, 0];
    else { const l = Math.hypot(nz, nx); t1 = [nz / l, 0, -nx / l]; }
    const t2 = [ny * t1[2]! - nz * t1[1]!, nz * t1[0]! - nx * t1[2]!, nx * t1[1]! - ny * t1[0]!];
    for (const d of Math.abs(ny) > 0.999999 ? [[1, 0, 0], [0, 0, 1]] : [t1, t2]) {
      const r = row(d);
      if (r.K > 1e-14) rows.push(makeRow(r, 0, soft * r.K, 0, 0, -1, true, { normal: nrow, mu }));
    }
  }
  return nrow;
}

/**
 * Rows of the probes near the ground: a unit world force at the probe's lowest point on body i, mapped
 * into joint space by pointJacobian; the row's velocity J_q·q̇ and its response M⁻¹J_qᵀ.
 */
function groundRows(model: ArticulatedModel, kin: Kin, g: GroundContact, h: number, erp: number, response: Response, rows: ContactRow[], out: { row: ContactRow; result: ContactResult }[]): void {
  const margin = g.margin ?? 0.05;
  for (const probe of g.probes) {
    const X = kin.X0[probe.body]!, E = X.E, [x, y, z] = probe.point;
    // Body → world: p = r + Eᵀ·point.
    const c = [X.r[0] + E[0]! * x + E[3]! * y + E[6]! * z, X.r[1] + E[1]! * x + E[4]! * y + E[7]! * z, X.r[2] + E[2]! * x + E[5]! * y + E[8]! * z];
    const gap = c[1]! - probe.radius - g.height;
    if (gap > margin) continue;
    const p = [c[0]!, c[1]! - probe.radius, c[2]!];
    const [d0, d1] = response.treeDofs(probe.body);
    const row = contactRows((d) => pointJacobian(model, kin, probe.body, p, d, response.tau), [d0, d1, d1, d1], [0, 1, 0], gap, probe.friction ?? g.friction, h, erp, response, rows);
    out.push({ row, result: { bodyA: probe.body, bodyB: -1, point: [p[0]!, p[1]!, p[2]!], normal: [0, -1, 0], depth: -gap, normalImpulse: 0 } });
  }
}

/** Rows of contacts between bodies: the velocity of B relative to A at the point, J_B − J_A. */
function pairRows(model: ArticulatedModel, kin: Kin, pairs: readonly PairContact[], h: number, erp: number, response: Response, rows: ContactRow[], out: { row: ContactRow; result: ContactResult }[]): void {
  for (const c of pairs) {
    const tau = (d: readonly number[]) => { pointJacobian(model, kin, c.bodyA, c.point, d, pointJacobian(model, kin, c.bodyB, c.point, d, response.tau), -1); };
    // The DOF ranges of the two bodies' trees, ascending (one range when they share a tree; −1, the world, none).
    const ra = c.bodyA >= 0 ? response.treeDofs(c.bodyA) : null, rb = c.bodyB >= 0 ? response.treeDofs(c.bodyB) : null;
    const none: [number, number] = [0, 0];
    const [p, q] = !ra ? [rb ?? none, rb ?? none] : !rb ? [ra, ra] : ra[0] <= rb[0] ? [ra, rb] : [rb, ra];
    const ranges: [number, number, number, number] = p[0] === q[0] ? [p[0], p[1], p[1], p[1]] : [p[0], p[1], q[0], q[1]];
    const invMass = (i: number) => (i >= 0 ? 1 / model.bodies[i]!.inertia[21]! : 0); // the spatial inertia's mass entry
    const locked = LOCKED_CONTACT_RATIO * (invMass(c.bodyA) + invMass(c.bodyB));
    const row = contactRows(tau, ranges, c.normal, -c.depth, c.friction, h, erp, response, rows, PAIR_CONTACT_SOFTNESS, locked);
    out.push({ row, result: { bodyA: c.bodyA, bodyB: c.bodyB, point: [...c.point], normal: [...c.normal], depth: c.depth, normalImpulse: 0 } });
  }
}

/**
 * The rig's ground (null when it has none) with a probe per collision feature of every moving body:
 * sphere and ellipsoid (its bounding sphere, as the rigid solver collides it): the centre with the radius;
 * capsule: its two end centres; box: its 8 corners; cylinder: 8 rim points per end. μ per probe is the
 * geometric mean of the body's and the ground's (the rigid solver's pair rule).
 */
export function groundFromRig(rig: RigDocument, a: ArticulatedRig): GroundContact | null {
  const ground = rig.simulation.ground;
  if (!ground) return null;
  const probes: GroundProbe[] = [];
  for (const body of rig.bodies) {
    const at = a.bodies.get(body.name);
    if (!at || at.link < 0) continue;
    const friction = Math.sqrt(body.material.friction * ground.friction);
    for (const shape of body.shapes) {
      const pose = composeTransforms(at.offset, { position: [...shape.position] as Vec3, rotation: quatNormalize(shape.rotation) });
      const add = (local: readonly number[], radius: number) => {
        const p = transformPoint(pose, local as Vec3);
        probes.push({ body: at.link, point: [p[0], p[1], p[2]], radius, friction });
      };
      const along = (axis: 'x' | 'y' | 'z' | undefined, t: number, u = 0, v = 0): number[] =>
        axis === 'x' ? [t, u, v] : axis === 'z' ? [u, v, t] : [u, t, v];
      switch (shape.type) {
        case 'sphere': add([0, 0, 0], shape.radius); break;
        case 'ellipsoid': add([0, 0, 0], Math.max(...shape.radii)); break;
        case 'capsule': add(along(shape.axis, shape.halfHeight), shape.radius); add(along(shape.axis, -shape.halfHeight), shape.radius); break;
        case 'box': {
          const [x, y, z] = shape.halfExtents;
          for (const sx of [-x, x]) for (const sy of [-y, y]) for (const sz of [-z, z]) add([sx, sy, sz], 0);
          break;
        }
        case 'cylinder':
          for (const t of [-shape.halfHeight, shape.halfHeight]) {
            for (let k = 0; k < 8; k++) add(along(shape.axis, t, shape.radius * Math.cos((k * Math.PI) / 4), shape.radius * Math.sin((k * Math.PI) / 4)), 0);
          }
          break;
      }
    }
  }
  return { height: ground.height, friction: ground.friction, probes };
}
