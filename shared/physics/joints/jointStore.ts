/**
 * The joints of a world: fixed-stride records in one Float64Array (layout in jointLayout.ts), handles by
 * slot + generation, and the solver stages that walk them in slot order (deterministic), each dispatching
 * on the record's type through the registry (registry.ts) — the only dispatch on the type in the solver.
 */
import type { StepContext } from '../stepContext';
import { BODY_A, BODY_B, LA, LB, M_TORQUE, M_TORQUE_NORM, S_TORQUE, S_TORQUE_NORM, STRIDE, TYPE } from './jointLayout';
import { JOINT_TYPES } from './registry';

/** The mass ratio (heaviest dynamic body jointed to a side over the side's) from which motorLoadRatio counts
 *  what a side held by a static or kinematic partner carries, turned about the anchor. */
export const CARRIED_LOAD_FROM = 2;

/** Doubles a body in JointStore.load. */
const LOAD_FIELDS = 5;

export class JointStore {
  capacity = 0;
  count = 0;
  data = new Float64Array(0);
  alive = new Uint8Array(0);
  generation = new Uint32Array(0);
  names: string[] = [];
  free: number[] = [];
  /** Per body, over the joints between two dynamic bodies (beginStepJoints): the heaviest mass jointed to
   *  it (0 when none). */
  heavy = new Float64Array(0);
  /** Per body, over the same joints, what the dynamic bodies jointed to it weigh and where (beginStepJoints),
   *  LOAD_FIELDS a body: Σm, Σm·c (3), Σ(m·|c|² + tr(I)/2), c the centre of mass (world): a side's load about
   *  an anchor A for motorLoadRatio, Σ tr(I_k about A) = 2·(Σ(m|c|² + tr/2) − 2A·Σm·c + |A|²·Σm). */
  load = new Float64Array(0);
  /** Per joint slot (prepareJoints): 1 when one of its drives got the load ratio's compliance this substep
   *  (motor.ts prepareMotorRow: a position drive at ρ > LOAD_RATIO_FROM, a pd drive whose own softness is
   *  below the floor), else 0. */
  loaded = new Uint8Array(0);
  /** How many joints the last prepareJoints marked `loaded` (WorldStats.compliantDrives). */
  loadedCount = 0;

  constructor(initialCapacity = 64) { this.grow(initialCapacity); }

  grow(capacity: number): void {
    const d = new Float64Array(capacity * STRIDE); d.set(this.data); this.data = d;
    const a = new Uint8Array(capacity); a.set(this.alive); this.alive = a;
    const g = new Uint32Array(capacity); g.set(this.generation); this.generation = g;
    const l = new Uint8Array(capacity); l.set(this.loaded); this.loaded = l;
    this.capacity = capacity;
  }

  /** Size `heavy` for the body slots (World.addBody): the step never grows an array, so the compiled step
   *  has no allocation branch that only a new world's first step takes (a deoptimisation then). */
  ensureBodies(bodyCapacity: number): void {
    if (this.heavy.length < bodyCapacity) { const h = new Float64Array(bodyCapacity); h.set(this.heavy); this.heavy = h; }
    if (this.load.length < LOAD_FIELDS * bodyCapacity) { const l = new Float64Array(LOAD_FIELDS * bodyCapacity); l.set(this.load); this.load = l; }
  }

  allocate(): number {
    if (this.free.length > 0) { this.free.sort((a, b) => b - a); return this.free.pop()!; }
    if (this.count >= this.capacity) this.grow(this.capacity * 2);
    return this.count++;
  }

  release(j: number): void {
    this.alive[j] = 0;
    this.generation[j] = (this.generation[j]! + 1) >>> 0;
    this.data.fill(0, j * STRIDE, (j + 1) * STRIDE);
    this.names[j] = '';
    this.free.push(j);
  }
}

/** Before a step's substeps: the motor reports restart, so they hold the largest torque over this step's
 *  substeps (storeMotorReport takes the maximum). */
export function beginStepJoints(ctx: StepContext, js: JointStore): void {
  const J = ctx.joints;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE;
    J[o + M_TORQUE] = 0; J[o + M_TORQUE_NORM] = 0;
    J[o + S_TORQUE] = 0; J[o + S_TORQUE_NORM] = 0; // the slide motor of coupledJoint.ts (unused by the others)
  }
  // The heaviest neighbours for motorLoadRatio (masses do not change within a step).
  const nb = ctx.bodies.count, inv = ctx.bodies.invMass, mass = ctx.bodies.mass;
  if (js.heavy.length < nb) js.heavy = new Float64Array(Math.max(nb, 2 * js.heavy.length)); // sized by World.addBody
  if (js.load.length < LOAD_FIELDS * nb) js.load = new Float64Array(LOAD_FIELDS * Math.max(nb, 2 * js.heavy.length));
  const heavy = js.heavy, load = js.load;
  heavy.fill(0, 0, nb);
  let held = false;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE, a = J[o + BODY_A]!, b = J[o + BODY_B]!;
    const da = inv[a]! > 0, db = inv[b]! > 0;
    if (da && db) {
      if (mass[b]! > heavy[a]!) heavy[a] = mass[b]!;
      if (mass[a]! > heavy[b]!) heavy[b] = mass[a]!;
    } else if (da || db) held = true;
  }
  // What each body carries (loadAbout) is read only for a side held by a static or kinematic partner: a world
  // without such a joint (a free creature, the bench's ragdolls) skips the sums.
  if (!held) return;
  load.fill(0, 0, LOAD_FIELDS * nb);
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE, a = J[o + BODY_A]!, b = J[o + BODY_B]!;
    if (inv[a]! > 0 && inv[b]! > 0) { addLoad(ctx, load, a, b); addLoad(ctx, load, b, a); }
  }
}

/** Body k's mass, moment and second moment into body s's row of JointStore.load. */
function addLoad(ctx: StepContext, load: Float64Array, s: number, k: number): void {
  const m = ctx.bodies.mass[k]!, p = ctx.bodies.p, Il = ctx.bodies.Il, i = 3 * k, l = LOAD_FIELDS * s;
  const x = p[i]!, y = p[i + 1]!, z = p[i + 2]!;
  load[l] += m; load[l + 1] += m * x; load[l + 2] += m * y; load[l + 3] += m * z;
  load[l + 4] += m * (x * x + y * y + z * z) + (Il[9 * k]! + Il[9 * k + 4]! + Il[9 * k + 8]!) / 2;
}

/** A joint's load ratio ρ (motor.ts's regularisation of the drives), the larger of two ratios of what a drive
 *  row moves to what its effective mass assumes, each over the joint's dynamic sides S:
 *  - the heaviest dynamic body jointed to S — the joint's partner included — over S's own mass (0 when S has
 *    none): a load S carries (another joint) or the partner it turns against (this one);
 *  - what the drive turns about the joint's anchor over S's inertia about its own centre of mass,
 *    1 + (2·m·|r|² + Σ_k tr(I_k about the anchor))/tr(I) (the parallel-axis theorem, averaged over the axes;
 *    r the anchor's arm from S's centre of mass, k the dynamic bodies jointed to S, JointStore.load, counted
 *    when the heaviest of them is ≥ CARRIED_LOAD_FROM × S's mass): an
 *    angular row's effective mass is S's inertia about its centre, but a body held at the anchor turns about
 *    the anchor, and the Gauss-Seidel sweeps then hand the impulse back and forth between the drive's rows
 *    and the anchor's point rows, converging as ≈ (1 − 1/ρ) a sweep. A limb turning about its end gives
 *    ≈ 4 and a ball about its surface 2.7; a compact body on a long arm (a sphere 0.06 m across hung 0.24 m
 *    from its joint: 25) is what this catches. Counted only for a side whose partner cannot move (static or
 *    kinematic): with a dynamic partner k times S's mass the two turn about their common centre, and the
 *    row's over-estimate grows with k (the pair's exact ratio, the point rows' Schur complement: 1.4–3× k
 *    for k ≤ 20 on a fox's wrist, reaching the arm's own value only as k → ∞) — the mass ratio above counts k.
 *    Counted for every lighter side it softened that third-party fox's wrist (a 2.5 kg forearm on an 11 kg
 *    paw: 20.6, pair ratio 8.3), a drive that converges rigid (docs/physics.md). What S carries counts the
 *    same way, held at the same anchor: a 0.81 kg link carrying a 7.6 kg body ≈ 0.3 m out gives 127 where the
 *    masses gave 9.4 (tests/fixtures/stress/drive-static-heavy-load.rig.json; docs/physics.md "The load ratio
 *    counts what a held link carries"). */
export function motorLoadRatio(ctx: StepContext, js: JointStore, iA: number, iB: number, o: number): number {
  const a = sideLoad(ctx, js, iA, iB, o + LA), b = sideLoad(ctx, js, iB, iA, o + LB);
  return a > b ? a : b;
}

/** One side S of motorLoadRatio (0 when S is not dynamic); `arm` is the offset of S's anchor (LA or LB). */
function sideLoad(ctx: StepContext, js: JointStore, s: number, partner: number, arm: number): number {
  const inv = ctx.bodies.invMass;
  if (!(inv[s]! > 0)) return 0;
  const mass = ctx.bodies.mass, Il = ctx.bodies.Il, J = ctx.joints, m = mass[s]!;
  let rho = js.heavy[s]! / m;
  // The anchor is what holds S only when the partner cannot move; a dynamic partner turns with S about their
  // common centre, by the mass ratio above (a hexapod's body at a hip on its corner turns about its six legs).
  if (!(inv[partner]! > 0)) {
    const x = J[arm]!, y = J[arm + 1]!, z = J[arm + 2]!, i = 9 * s;
    // What S carries counts only when it outweighs S (CARRIED_LOAD_FROM): a limb carrying a lighter one (an
    // upper arm its forearm) converges rigid however far out the load sits.
    const carried = rho >= CARRIED_LOAD_FROM ? loadAbout(ctx, js, s, x, y, z) : 0;
    const p = 1 + (2 * m * (x * x + y * y + z * z) + carried) / (Il[i]! + Il[i + 4]! + Il[i + 8]!);
    if (p > rho) rho = p;
  }
  return rho;
}

/** Σ tr(I_k about A) over the dynamic bodies k jointed to S (JointStore.load), A = S's anchor at the arm
 *  (x, y, z) in S's axes: what S carries on its other joints, turned about the anchor S is held at. 0 when S
 *  carries nothing. */
function loadAbout(ctx: StepContext, js: JointStore, s: number, x: number, y: number, z: number): number {
  const load = js.load, l = LOAD_FIELDS * s, M = load[l]!;
  if (!(M > 0)) return 0;
  const q = ctx.bodies.q, p = ctx.bodies.p, k = 4 * s;
  const qx = q[k]!, qy = q[k + 1]!, qz = q[k + 2]!, qw = q[k + 3]!;
  // A = p_S + q·arm·q⁻¹ (t = 2 q_v × arm; arm + w·t + q_v × t).
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  const ax = p[3 * s]! + x + qw * tx + (qy * tz - qz * ty);
  const ay = p[3 * s + 1]! + y + qw * ty + (qz * tx - qx * tz);
  const az = p[3 * s + 2]! + z + qw * tz + (qx * ty - qy * tx);
  const about = load[l + 4]! - 2 * (ax * load[l + 1]! + ay * load[l + 2]! + az * load[l + 3]!) + (ax * ax + ay * ay + az * az) * M;
  return about > 0 ? 2 * about : 0;
}

/** Stage "prepare joints": frames, arms, effective masses, errors, motor targets. Returns the row count. */
export function prepareJoints(ctx: StepContext, js: JointStore): number {
  const J = ctx.joints;
  let rows = 0, count = 0;
  if (js.loaded.length < js.count) js.loaded = new Uint8Array(js.capacity); // sized with the slots (grow)
  const loaded = js.loaded;
  for (let j = 0; j < js.count; j++) {
    loaded[j] = 0;
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE;
    const motorIn = ctx.scratch.motorIn;
    motorIn[2] = motorLoadRatio(ctx, js, J[o + BODY_A]!, J[o + BODY_B]!, o);
    motorIn[4] = 0;
    rows += JOINT_TYPES[J[o + TYPE]!]!.prepare(ctx, o, J[o + BODY_A]!, J[o + BODY_B]!);
    if (motorIn[4] === 1) { loaded[j] = 1; count++; }
  }
  js.loadedCount = count;
  return rows;
}

export function warmStartJoints(ctx: StepContext, js: JointStore): void {
  const J = ctx.joints;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE;
    JOINT_TYPES[J[o + TYPE]!]!.warmStart(ctx, o, J[o + BODY_A]!, J[o + BODY_B]!);
  }
}

/** The joints' velocity solve (each joint's rows once) over the slots order[from..to), in that order (one island). */
export function solveJointList(ctx: StepContext, order: Int32Array, from: number, to: number, useBias: boolean): void {
  const J = ctx.joints;
  for (let n = from; n < to; n++) {
    const o = order[n]! * STRIDE;
    JOINT_TYPES[J[o + TYPE]!]!.solve(ctx, o, J[o + BODY_A]!, J[o + BODY_B]!, useBias);
  }
}

/** Before the projection (jointCorrection 'projection'): each type's recordHold (the drives that held this substep). */
export function recordJointHolds(ctx: StepContext, js: JointStore): void {
  if (ctx.positionBeta <= 0) return; // no projection runs
  const J = ctx.joints;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE, def = JOINT_TYPES[J[o + TYPE]!]!;
    if (def.recordHold) def.recordHold(ctx, o, J[o + BODY_A]!, J[o + BODY_B]!);
  }
}

/** Stage "relax positions" for jointCorrection 'projection': one non-linear Gauss-Seidel sweep in slot order
 *  (positionProjection.ts). */
export function projectJointPositions(ctx: StepContext, js: JointStore): void {
  if (ctx.positionBeta <= 0) return;
  const J = ctx.joints, motorIn = ctx.scratch.motorIn;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE;
    // A type whose projection prepares its rows again (the prismatic's) reads its own load ratio, as in
    // prepareJoints — not the one of whichever joint was prepared last.
    motorIn[2] = motorLoadRatio(ctx, js, J[o + BODY_A]!, J[o + BODY_B]!, o);
    JOINT_TYPES[J[o + TYPE]!]!.project(ctx, o, J[o + BODY_A]!, J[o + BODY_B]!);
  }
}

/** Stage "correct positions" for jointCorrection 'shake': one Gauss-Seidel sweep in slot order
 *  (positionCorrection.ts); `iteration` 0 takes the start-of-substep errors (PC, AC from prepare) as the old
 *  error, later sweeps what is left of it. Must run after the velocity rows of this substep (it relies on
 *  their RA/RB/AX/K⁻¹ being those of the start pose). */
export function correctJointPositions(ctx: StepContext, js: JointStore, iteration: number): void {
  if (ctx.positionBeta <= 0) return;
  const J = ctx.joints, first = iteration === 0, motorIn = ctx.scratch.motorIn;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE;
    motorIn[2] = motorLoadRatio(ctx, js, J[o + BODY_A]!, J[o + BODY_B]!, o); // as projectJointPositions
    JOINT_TYPES[J[o + TYPE]!]!.correct(ctx, o, J[o + BODY_A]!, J[o + BODY_B]!, first);
  }
}

/** Stage "store impulses": the motor report of this substep (torque = |λ_acc|/h, saturation). */
export function finishJoints(ctx: StepContext, js: JointStore): void {
  const J = ctx.joints;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE;
    JOINT_TYPES[J[o + TYPE]!]!.finish(ctx, o);
  }
}
