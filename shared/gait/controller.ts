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
import { headingYaw, pathPointToWorld, pathStrokeCentre, pathTravelDirection, type SteeringParams, type WorldPathFrame } from './steering';
import { SteeringLaw, type SteeringLawState } from './steeringLaw';
import { quatFromRotationVector, type Quat } from '../math/quat';
import type { ReadonlyVec3, Vec3 } from '../math/vec3';
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
  };
  enabled: boolean;
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

export interface ControllerOptions {
  /** Override the document's steering pivotLead (m). */
  steerPivotLead?: number;
  /** World direction the hand's wrist→effector vector aims at (default [0, −1, 0]: fingers to the floor). */
  handAim?: ReadonlyVec3 | null;
}

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
  private last: ControllerFrame | null = null;
  private readonly handAim: ReadonlyVec3 | null;
  private readonly twoBone: boolean;

  constructor(readonly params: CyclicPathParams, readonly binding: ControllerBinding, options: ControllerOptions = {}) {
    const where = `controller "${params.name}"`;
    this.path = new CyclicPath(params.controlPoints, params.interpolation, 32, `${where}: controlPoints`);
    if (!Number.isFinite(params.rate)) throw new Error(`${where}: rate must be a finite number of cycles per second, got ${params.rate}`);
    if (binding.joints.length !== binding.chain.joints.length) {
      throw new Error(`${where}: ${binding.joints.length} joint handles for a chain of ${binding.chain.joints.length} joints`);
    }
    this.travelLocal = pathTravelDirection(this.path);
    const c = pathStrokeCentre(this.path);
    const lead = options.steerPivotLead ?? params.steering.pivotLead ?? STEER_PIVOT_LEAD;
    this.steerPivot = [c[0] + this.travelLocal[0] * lead, 0, c[2] + this.travelLocal[2] * lead];
    this._phase = wrapPhase(params.phaseOffset);
    this.steering = { target: params.steering.target, gain: params.steering.gain, maxAngle: params.steering.maxAngle };
    this.law = new SteeringLaw({
      gain: params.steering.gain, maxAngle: params.steering.maxAngle, window: params.steering.window ?? 0, rateGain: params.steering.rateGain ?? 0,
    });
    this.handAim = options.handAim === undefined ? [0, -1, 0] : options.handAim;
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
  reset(phase = this.params.phaseOffset, steeringState?: SteeringLawState): void {
    this._phase = wrapPhase(phase); this.last = null; this.law.restore(steeringState);
  }

  /** The steering law's heading history (for snapshots; reset(phase, state) puts it back). */
  steeringState(): SteeringLawState { return this.law.snapshot(); }

  /**
   * One control step. `setTarget(i, value)` receives the target of chain joint i; by default it goes
   * straight to the world's motor (the runtime passes its own, so it stays the one owner of motors).
   */
  step(world: PhysicsWorld, dt: number,
    setTarget: (i: number, value: Quat | number) => void = (i, v) => world.setMotorTarget(this.binding.joints[i]!, v)): ControllerFrame | null {
    if (!this.params.enabled) return null; // a disabled controller keeps its phase frozen and sets nothing
    const { root, joints, chain } = this.binding;
    const rootPose = { position: world.getPosition(root), rotation: world.getRotation(root) };
    const yaw = headingYaw(rootPose.rotation);
    const decision = this.law.step(rootPose.position, yaw, world.getAngularVelocity(root)[1], this.travelLocal, this.steering.target, this.params.rate, dt);
    const frame: WorldPathFrame = { yaw, skew: decision.skew, origin: [rootPose.position[0], rootPose.position[1], rootPose.position[2]], pivot: [this.steerPivot[0], 0, this.steerPivot[2]] };
    this._phase = advancePhase(this._phase, this.params.rate, dt);
    const target = pathPointToWorld(frame, this.path.sample(this._phase).point);
    const pole = pathPointToWorld(frame, this.params.pole);

    const current: JointValue[] = joints.map((j, i) => {
      const a = world.getJointAngle(j);
      return chain.joints[i]!.type === 'ball' ? quatFromRotationVector(a as Vec3) : (a as number);
    });
    const solved = this.twoBone
      ? solveTwoBone(chain, rootPose, { target, pole, handAim: this.handAim }, current)
      : solveCcd(chain, rootPose, target, current, { iterations: 8 });
    solved.values.forEach((v, i) => setTarget(i, v));
    this.last = { phase: this._phase, frame, target, solvedEffector: solved.effector, values: solved.values };
    return this.last;
  }
}
