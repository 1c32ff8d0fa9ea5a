/**
 * The cyclic-path controller (DESIGN.md "One simulation step", stages 1–3): each step it advances the
 * phase, samples the hand path, carries it to the world with the root's position and heading, skews it
 * toward the steering target, solves the arm's IK from the current pose and hands the joint targets to the
 * motors. The motors are torque-limited, so the physics has the last word: nothing here moves a body.
 *
 * Call `step(world, dt)` BEFORE `world.step(dt)`: the targets set now are what the motors chase during the
 * coming step. The phase used is the one at the end of that step (the hand is always aiming where the path
 * will be, not where it was).
 */
import { CyclicPath, advancePhase, wrapPhase, type PathInterpolation } from './cyclicPath';
import { headingYaw, pathPointToWorld, pathPointToWorldTo, pathStrokeCentre, pathTravelDirection, type SteeringParams, type WorldPathFrame } from './steering';
import { SteeringLaw, type SteeringLawState } from './steeringLaw';
import { Arrival, type ArrivalParams, type ArrivalState } from './arrival';
import type { GaitGroup } from './gaitGroup';
import { quatFromAxisAngle, quatFromRotationVectorTo, quatRotateTo, wrapAngle, type Quat, type ReadonlyQuat } from '../math/quat';
import type { ReadonlyVec3, Vec3 } from '../math/vec3';
import { transformPoint, type ReadonlyTransform as Pose } from '../math/transform';
import type { JointHandle, BodyHandle, PhysicsWorld } from '../physics/types';
import type { Chain, JointValue } from '../ik/chain';
import { solveTwoBone } from '../ik/twoBone';
import { solveCcd } from '../ik/ccd';

/** The controller's parameters as the RigDocument stores them (type 'cyclicPath'). */
export interface CyclicPathParams {
  name: string;
  controlPoints: readonly (readonly [number, number, number])[];
  /** cycles/s */
  rate: number;
  /** cycles, [0, 1) */
  phaseOffset: number;
  interpolation: PathInterpolation;
  /** Elbow pole point (m) in the root's heading frame. */
  pole: readonly [number, number, number];
  steering: {
    target: readonly [number, number, number] | null;
    /** Skew per radian of heading error. */
    gain: number;
    /** Largest skew (rad). */
    maxAngle: number;
    /** Heading averaging window (gait cycles; default 0 = the heading now). See steeringLaw.ts. */
    window?: number;
    /** Heading-rate (derivative) time (s; default 0). See steeringLaw.ts. */
    rateGain?: number;
    /** The skew's vertical axis, this far ahead of the stroke centre (m; default STEER_PIVOT_LEAD). */
    pivotLead?: number;
    /** Arrival (arrival.ts): stop within this distance (m) of the target; omitted or 0 = never stop. */
    stopRadius?: number;
    /** Start slowing within this distance (m; default stopRadius). */
    arriveRadius?: number;
    /** Once stopped, start again beyond this distance (m; default arriveRadius). */
    restartRadius?: number;
    /** Stroke left at the stop radius (0..1; default ARRIVE_MIN_STROKE). */
    minStroke?: number;
    /** Where the hand rests when stopped (m, root BODY frame; default: the control points' centroid). */
    restPoint?: readonly [number, number, number];
  };
  /** How the path follows the root when it tips over (righting); absent = it hangs level always. */
  righting?: RightingParams;
  enabled: boolean;
}

/**
 * Righting (issue 11; docs/locomotion.md "Righting"). Upright, the path hangs level from the root's position
 * and heading. Tipped past `start`, it turns toward the side the body leans to (the horizontal direction
 * of the root's rest up-axis) and leans with it by `follow` of the tilt, fully so at `full`: the floor
 * stroke then lands on the low side and pushes the floor there, which lifts that side — the push-up seed 000
 * describes, from the same path, IK and motors as the crawl. Between `start` and `full` the turn and the
 * lean grow linearly; the steering skew fades out over the same range (a tipped creature rights itself
 * before it steers).
 */
export interface RightingParams {
  /** Tilt (rad) of the root's rest up-axis from vertical at which the path starts to follow. */
  start: number;
  /** Tilt (rad, ≥ start) at which it follows fully. */
  full: number;
  /** Fraction (0..1) of the root's tilt the path leans with once it follows fully. */
  follow: number;
}

/** Righting numbers that right the Armed Mine (docs/locomotion.md "Righting"); what the inspector fills in
 *  when a righting number is first set on a controller without them. */
export const RIGHTING_DEFAULTS: Readonly<RightingParams> = { start: 0.4, full: 0.8, follow: 0.2 };

/** How much (0..1) a root tilted by `tilt` rad engages righting. */
export function rightingWeight(tilt: number, r: RightingParams): number {
  if (tilt <= r.start) return 0;
  if (tilt >= r.full) return 1;
  return (tilt - r.start) / (r.full - r.start);
}

const Y_AXIS: ReadonlyVec3 = [0, 1, 0];
const RIGHTING_UP: Vec3 = [0, 0, 0];

/** Turn and lean the path's world frame for righting (see RightingParams). Leaves it alone when upright. */
export function applyRighting(frame: WorldPathFrame, rootRotation: ReadonlyQuat, r: RightingParams): void {
  const up = quatRotateTo(RIGHTING_UP, rootRotation, Y_AXIS);
  const tilt = Math.acos(Math.max(-1, Math.min(1, up[1])));
  const k = rightingWeight(tilt, r);
  if (k === 0) return;
  const lean = Math.hypot(up[0], up[2]);
  frame.skew *= 1 - k;
  if (lean < 1e-9) return; // exactly upside down: no side is lower; keep the heading, hang level
  frame.yaw = wrapAngle(frame.yaw + k * wrapAngle(Math.atan2(up[0], up[2]) - frame.yaw));
  // Lean about the horizontal axis that tips world +Y toward the root's up (+Y × up, normalised).
  frame.tilt = quatFromAxisAngle([up[2] / lean, 0, -up[0] / lean], k * r.follow * tilt);
}

/** Where the controller acts: the root body, the chain's joints (root → tip) and the IK description. */
export interface ControllerBinding {
  root: BodyHandle;
  joints: readonly JointHandle[];
  chain: Chain;
}

/** What the controller did in its last step (for the timeline, the plots and the overlays). */
export interface ControllerFrame {
  phase: number;
  /** The path's placement this step (heading, steering skew, origin). */
  frame: WorldPathFrame;
  /** World target of the effector (m). */
  target: Vec3;
  /** Where the IK says the effector lands with the targets it set (m); the physics decides the rest. */
  solvedEffector: Vec3;
  /** Motor targets set: [S, θ, θ, …]. */
  values: JointValue[];
  /** Arrival's loop size this step (1 = the path as drawn; 1 without arrival). */
  stroke: number;
  /** Arrival's blend: 1 = the hand on the path, 0 = at the rest point (1 without arrival). */
  engage: number;
  /** Stopped at the target (arrival on, target within stopRadius, not yet beyond restartRadius). */
  arrived: boolean;
}

/**
 * How far ahead of the stroke centre (m, along the travel direction) the steering skew turns the path.
 * A single hand turns the body AWAY from the side it pulls on (a canoeist paddling on the left turns
 * right), so to turn toward a target the stroke must move to the far side while its direction turns toward
 * the target — both at once are one rotation about a vertical axis ahead of the stroke. Measured on the
 * Armed Mine (docs/locomotion.md): about the stroke centre itself the hand's sideways sweep dominates and
 * the mine turns the wrong way; 0.7 m ahead it turns toward the target and travels there.
 */
export const STEER_PIVOT_LEAD = 0.7;

/** Default stroke at the stop radius (arrival.ts): enough push to get inside it, measured on the Armed Mine
 *  (docs/locomotion.md "Arrival"). */
export const ARRIVE_MIN_STROKE = 0.5;

export interface ControllerOptions {
  /** Override the document's steering pivotLead (m). */
  steerPivotLead?: number;
  /** World direction the hand's wrist→effector vector aims at (default [0, −1, 0]: fingers to the floor). */
  handAim?: ReadonlyVec3 | null;
  /** Multi-limb gait (gaitGroup.ts): the shared steering of the limbs on this root, and this limb's index in
   *  it. The controller then asks the group for the steering decision and turns its path (no skew). */
  group?: { group: GaitGroup; member: number };
}

/** How far (fraction of the loop's height) the path must rise after its lowest point to count as lifted. */
export const LIFT_RISE = 0.05;

/**
 * The phase (cycles) at which the hand leaves the floor: the first of 256 samples after the loop's lowest
 * point that is LIFT_RISE of the loop's height above it. On the Armed Mine's path (lowest −0.389 m at
 * phase ≈ 0.31, height 0.44 m) ≈ 0.36, just past the end of the floor stroke.
 */
export function pathLiftPhase(path: CyclicPath): number {
  const n = 256, ys = path.polyline(n).map((p) => p[1]);
  let low = 0;
  for (let i = 1; i < n; i++) if (ys[i]! < ys[low]!) low = i;
  const rise = LIFT_RISE * (Math.max(...ys) - ys[low]!);
  for (let k = 1; k < n; k++) { const i = (low + k) % n; if (ys[i]! >= ys[low]! + rise) return i / n; }
  return low / n;
}

/**
 * Arrival's numbers from a controller's steering block (defaults: arriveRadius = stopRadius, restartRadius =
 * arriveRadius, minStroke = ARRIVE_MIN_STROKE), or null without a stop radius (the gait never stops). With
 * `path`, the stop waits for its lift phase (pathLiftPhase); a gait group passes none. Throws naming
 * `where` and the field on inconsistent numbers.
 */
export function arrivalParams(st: CyclicPathParams['steering'], where: string, path?: CyclicPath): ArrivalParams | null {
  const stop = st.stopRadius ?? 0;
  if (!(stop > 0)) return null;
  const arrive = st.arriveRadius ?? stop, restart = st.restartRadius ?? arrive, minStroke = st.minStroke ?? ARRIVE_MIN_STROKE;
  if (!(arrive >= stop)) throw new Error(`${where}: steering.arriveRadius (${arrive} m) must be ≥ steering.stopRadius (${stop} m)`);
  if (!(restart >= stop)) throw new Error(`${where}: steering.restartRadius (${restart} m) must be ≥ steering.stopRadius (${stop} m)`);
  if (!(minStroke >= 0 && minStroke <= 1)) throw new Error(`${where}: steering.minStroke must be within 0..1, got ${minStroke}`);
  return { arriveRadius: arrive, stopRadius: stop, restartRadius: restart, minStroke, ...(path ? { liftPhase: pathLiftPhase(path) } : {}) };
}

const lerpVec = (a: ReadonlyVec3, b: ReadonlyVec3, t: number): Vec3 => [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])];

export class CyclicPathController {
  readonly path: CyclicPath;
  /** Travel direction of the path in the root frame (the way its floor stroke pushes). */
  readonly travelLocal: Vec3;
  /** The steering skew's vertical axis in the root frame: steering.pivotLead (default STEER_PIVOT_LEAD)
   *  ahead of the stroke centre. */
  steerPivot: Vec3;
  private _phase: number;
  private steering: SteeringParams;
  private readonly law: SteeringLaw;
  /** null when the document has no stopRadius: the gait never stops (bit for bit the gait without arrival). */
  private readonly arrival: Arrival | null;
  /** Arrival's rest point of the hand (root body frame, m): steering.restPoint, else the control points'
   *  centroid (single limb) or the top of the loop above the stroke centre (a limb of a gait group). */
  readonly restPoint: Vec3;
  /** The point arrival shrinks the loop about (root frame, m): the stroke centre at the loop's lowest height. */
  readonly floorAnchor: Vec3;
  private last: ControllerFrame | null = null;
  private readonly handAim: ReadonlyVec3 | null;
  private readonly twoBone: boolean;
  private readonly group: { group: GaitGroup; member: number } | null;
  /** Stroke centre of the path (root frame, y 0): where a multi-limb turn is measured from. */
  readonly strokeCentre: Vec3;
  // Per-step scratch (step() makes no garbage beyond what it hands out in its ControllerFrame).
  private readonly rootPose: { position: Vec3; rotation: Quat } = { position: [0, 0, 0], rotation: [0, 0, 0, 1] };
  private readonly pathPoint: Vec3 = [0, 0, 0];
  private readonly pole: Vec3 = [0, 0, 0];
  private readonly current: JointValue[] = [];
  private readonly currentQuats: Quat[];
  private readonly goal: { target: ReadonlyVec3; pole: ReadonlyVec3; handAim: ReadonlyVec3 | null };

  constructor(readonly params: CyclicPathParams, readonly binding: ControllerBinding, options: ControllerOptions = {}) {
    const where = `controller "${params.name}"`;
    this.path = new CyclicPath(params.controlPoints, params.interpolation, 32, `${where}: controlPoints`);
    if (!Number.isFinite(params.rate)) throw new Error(`${where}: rate must be a finite number of cycles per second, got ${params.rate}`);
    if (binding.joints.length !== binding.chain.joints.length) {
      throw new Error(`${where}: ${binding.joints.length} joint handles for a chain of ${binding.chain.joints.length} joints`);
    }
    this.travelLocal = pathTravelDirection(this.path);
    const c = pathStrokeCentre(this.path);
    this.strokeCentre = [c[0], 0, c[2]];
    this.group = options.group ?? null;
    const lead = options.steerPivotLead ?? params.steering.pivotLead ?? STEER_PIVOT_LEAD;
    this.steerPivot = [c[0] + this.travelLocal[0] * lead, 0, c[2] + this.travelLocal[2] * lead];
    this._phase = wrapPhase(params.phaseOffset);
    this.steering = { target: params.steering.target, gain: params.steering.gain, maxAngle: params.steering.maxAngle };
    this.law = new SteeringLaw({
      gain: params.steering.gain, maxAngle: params.steering.maxAngle, window: params.steering.window ?? 0, rateGain: params.steering.rateGain ?? 0,
    });
    const st = params.steering;
    // In a group the group's Arrival (the leader's numbers) decides; this limb's own numbers are still checked.
    const own = arrivalParams(st, where, this.path);
    this.arrival = own && !this.group ? new Arrival(own) : null;
    let lowest = Infinity, highest = -Infinity;
    for (const p of this.path.polyline(128)) { lowest = Math.min(lowest, p[1]); highest = Math.max(highest, p[1]); }
    this.floorAnchor = [c[0], lowest, c[2]];
    const pts = params.controlPoints, n = pts.length;
    // A single limb rests at the control points' centroid; a limb of a group at the top of its loop above the
    // stroke centre (feet up: the body sets down on its belly and holds still — gaitGroup.ts).
    this.restPoint = st.restPoint
      ? [st.restPoint[0], st.restPoint[1], st.restPoint[2]]
      : this.group ? [c[0], highest, c[2]]
        : [pts.reduce((a, p) => a + p[0], 0) / n, pts.reduce((a, p) => a + p[1], 0) / n, pts.reduce((a, p) => a + p[2], 0) / n];
    this.handAim = options.handAim === undefined ? [0, -1, 0] : options.handAim;
    this.currentQuats = binding.chain.joints.map((): Quat => [0, 0, 0, 1]);
    this.current.length = binding.chain.joints.length;
    this.goal = { target: [0, 0, 0], pole: [0, 0, 0], handAim: this.handAim };
    const t = binding.chain.joints.map((j) => j.type).join(',');
    this.twoBone = t === 'ball,hinge' || t === 'ball,hinge,hinge';
  }

  get phase(): number { return this._phase; }
  get lastFrame(): ControllerFrame | null { return this.last; }

  /** Move the steering target (world, m), or null to go straight. */
  setSteeringTarget(target: ReadonlyVec3 | null): void {
    this.steering = { ...this.steering, target: target ? [target[0], target[1], target[2]] : null };
  }

  get steeringTarget(): ReadonlyVec3 | null { return this.steering.target; }

  /** Back to the phase at t = 0 (after a reset or a scrub to frame 0), with no heading history. */
  reset(phase = this.params.phaseOffset, steeringState?: SteeringLawState, arrivalState?: ArrivalState): void {
    this._phase = wrapPhase(phase); this.last = null; this.arrival?.restore(arrivalState);
    if (this.group) { this.group.group.restore(steeringState); this.group.group.restoreArrival(arrivalState); } else this.law.restore(steeringState);
  }

  /** The steering law's heading history (for snapshots; reset(phase, state) puts it back). */
  steeringState(): SteeringLawState { return this.group ? this.group.group.snapshot() : this.law.snapshot(); }

  /** Arrival's state (for snapshots), undefined without arrival. */
  arrivalState(): ArrivalState | undefined { return this.group ? this.group.group.arrivalState() : this.arrival?.snapshot(); }

  /**
   * One control step. `setTarget(i, value)` receives the target of chain joint i; by default it goes
   * straight to the world's motor (the runtime passes its own, so it stays the one owner of motors).
   */
  step(world: PhysicsWorld, dt: number,
    setTarget: (i: number, value: Quat | number) => void = (i, v) => world.setMotorTarget(this.binding.joints[i]!, v)): ControllerFrame | null {
    if (!this.params.enabled) return null; // a disabled controller keeps its phase frozen and sets nothing
    const { root, joints, chain } = this.binding;
    // The root's pose and the joints' current values go into the controller's scratch (read by this step only).
    const rootPose = this.rootPose;
    world.getPosition(root, rootPose.position); world.getRotation(root, rootPose.rotation);
    const yaw = headingYaw(rootPose.rotation);
    const g = this.group;
    let frame: WorldPathFrame;
    if (g) {
      // Multi-limb: one law for the group (gaitGroup.ts), the path turned rather than skewed.
      const decision = g.group.decide(g.member, rootPose.position, yaw, world.getAngularVelocity(root)[1], this.steering.target, this.params.rate, dt);
      frame = { yaw, skew: 0, origin: [rootPose.position[0], rootPose.position[1], rootPose.position[2]], pivot: [0, 0, 0],
        turn: g.group.turn(decision, this.strokeCentre, this.travelLocal) };
    } else {
      const decision = this.law.step(rootPose.position, yaw, world.getAngularVelocity(root)[1], this.travelLocal, this.steering.target, this.params.rate, dt);
      frame = { yaw, skew: decision.skew, origin: [rootPose.position[0], rootPose.position[1], rootPose.position[2]], pivot: [this.steerPivot[0], 0, this.steerPivot[2]] };
    }
    if (this.params.righting) applyRighting(frame, rootPose.rotation, this.params.righting);
    this._phase = advancePhase(this._phase, this.params.rate, dt);
    let stroke = 1, engage = 1;
    if (this.arrival || g?.group.hasArrival) {
      const t = this.steering.target;
      const distance = t ? Math.hypot(t[0] - rootPose.position[0], t[2] - rootPose.position[2]) : Infinity;
      ({ stroke, engage } = this.arrival
        ? this.arrival.step(distance, this.params.rate, dt, this._phase)
        : g!.group.arrive(g!.member, distance, this.params.rate, dt));
    }
    const pathPoint = this.path.samplePoint(this._phase, this.pathPoint);
    // The full gait takes the plain path (bit for bit the gait without arrival); otherwise arrival.ts.
    const full = stroke === 1 && engage === 1;
    const target = full ? pathPointToWorld(frame, pathPoint) : this.arrivalPoint(frame, rootPose, pathPoint, stroke, engage);
    const pole = full ? pathPointToWorldTo(this.pole, frame, this.params.pole) : this.arrivalPole(frame, rootPose, engage);

    const current = this.current;
    for (let i = 0; i < joints.length; i++) {
      const a = world.getJointAngle(joints[i]!);
      current[i] = chain.joints[i]!.type === 'ball' ? quatFromRotationVectorTo(this.currentQuats[i]!, a as Vec3) : (a as number);
    }
    const goal = this.goal;
    goal.target = target; goal.pole = pole;
    const solved = this.twoBone
      ? solveTwoBone(chain, rootPose, goal, current)
      : solveCcd(chain, rootPose, target, current, { iterations: 8 });
    for (let i = 0; i < solved.values.length; i++) setTarget(i, solved.values[i]!);
    this.last = { phase: this._phase, frame, target, solvedEffector: solved.effector, values: solved.values, stroke, engage, arrived: this.arrival?.arrived ?? g?.group.arrived ?? false };
    return this.last;
  }

  /**
   * arrival.ts: the loop shrunk by `stroke` about its floor anchor (x, z of the stroke centre, y of the
   * loop's lowest point: a smaller loop still on the floor), skewed and carried to the world like the path,
   * then blended by `engage` from the rest point carried by the root's FULL pose (a fixed fold of the arm
   * against the body, whatever its roll: the joint targets of a stopped creature do not change as the body
   * rocks, so the shell settles on its ballast with the arm as part of it).
   */
  private arrivalPoint(frame: WorldPathFrame, root: Pose, local: ReadonlyVec3, stroke: number, engage: number): Vec3 {
    const a = this.floorAnchor;
    const onPath = pathPointToWorld(frame, [a[0] + stroke * (local[0] - a[0]), a[1] + stroke * (local[1] - a[1]), a[2] + stroke * (local[2] - a[2])]);
    return lerpVec(transformPoint(root, this.restPoint), onPath, engage);
  }

  /** The pole, from the root's full pose to the skewed heading frame as the hand engages. */
  private arrivalPole(frame: WorldPathFrame, root: Pose, engage: number): Vec3 {
    return lerpVec(transformPoint(root, this.params.pole), pathPointToWorld(frame, this.params.pole), engage);
  }
}
