/**
 * What a joint type is to the solver: one object per type (ballJoint.ts, hingeJoint.ts, fixedJoint.ts,
 * prismaticJoint.ts), listed once in registry.ts. The World, the JointStore's stages and both position
 * corrections dispatch through it and nowhere else on the type, so a new type is its own file plus a line in
 * the registry (and the rig schema and the editor's type list above the physics).
 *
 * Every method works on the joint's record at offset `o` of ctx.joints (jointLayout.ts) and the body slots
 * iA, iB; vectors go through ctx.scratch (no double crosses a call: V8 would box it). The stages must not
 * allocate: prepare / warmStart / solve / project / correct / finish run per joint per substep (the queries
 * position / anchorError may).
 *
 * The order of the rows inside solve() is the type's own (the hard rows last, as Box2D); the solver only
 * guarantees that joints are visited in slot order inside an island, every velocity iteration.
 */
import type { Vec3 } from '../../math/vec3';
import type { StepContext } from '../stepContext';
import type { JointDesc, JointType } from '../types';

/** A joint's relative degrees of freedom in frame A: rotation about / translation along frame axes. An
 *  articulated (reduced-coordinate) solver builds its motion subspace from these; a coupled joint (a screw)
 *  lists its axes and documents the coupling. */
export type FreeAxis = 'rx' | 'ry' | 'rz' | 'tx' | 'ty' | 'tz';

export interface JointTypeDef<T extends JointType = JointType> {
  /** The type's name in JointDesc.type and the rig format. */
  readonly name: T;
  /** J[o + TYPE]: the type's index in the registry (registry.ts checks JOINT_TYPES[code] === def). */
  readonly code: number;
  /** The relative motion the joint leaves free, frame A axes. */
  readonly freeAxes: readonly FreeAxis[];
  /**
   * Motor: the number of motor rows (0 = the type cannot be driven, its motor mode must be 'off') and what a
   * target is — a rotation of frame B relative to frame A (a unit quaternion; a frame-A angular velocity
   * vector in 'velocity' mode) or one number (angle in rad, offset in m; a rate in 'velocity' mode).
   */
  readonly motorRows: 0 | 1 | 3;
  readonly motorTarget: 'rotation' | 'scalar' | 'none';
  /** Slide motor rows (coupledJoint.ts: cylindrical 1, planar 2; absent = 0): JointDesc.slideMotor, driven by
   *  World.setSlideMotorTarget. */
  readonly slideRows?: 0 | 1 | 2;
  /** Record offsets of the accumulated impulses carried between substeps (zeroed by resetWarmStart). */
  readonly impulses: readonly number[];
  /** Those of them that are limit (stop) rows, ≥ 0 while a stop pushes (absent: none). The warm start
   *  (warmStart.ts) searches a motor together with the rows when its joint's limit is active. */
  readonly limitImpulses?: readonly number[];

  /** Checks of the type's own fields (limits); throw with `label` and the field. Frames, bodies and the
   *  motor are checked by the World before. */
  validate(desc: JointDesc, label: string): void;
  /** Write the type's own configuration (limits, a neutral motor target) into the zeroed record; returns the
   *  FLAG_* bits it sets (FLAG_COLLIDE is the World's). */
  configure(J: Float64Array, o: number, desc: JointDesc): number;
  /** After the record is complete and the bodies placed (hinge: the starting unwrapped angle). */
  init(ctx: StepContext, o: number, iA: number, iB: number): void;

  /** Stage "prepare": frames, arms, effective masses, errors, limits, motor rows. Returns its row count. */
  prepare(ctx: StepContext, o: number, iA: number, iB: number): number;
  /** Stage "warm start": apply the impulses carried from the last substep. */
  warmStart(ctx: StepContext, o: number, iA: number, iB: number): void;
  /** One velocity sweep over the joint's rows (useBias: the solve pass; false: the relax pass). */
  solve(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void;
  /** One iteration of jointCorrection 'projection' (positionProjection.ts): move the bodies onto the rows. */
  project(ctx: StepContext, o: number, iA: number, iB: number): void;
  /** After the positions are integrated, before the projection (jointCorrection 'projection'): note what the
   *  projection must hold (ballJoint.ts: a drive that held inside its clamp). Optional. */
  recordHold?(ctx: StepContext, o: number, iA: number, iB: number): void;
  /** One iteration of jointCorrection 'shake' (positionCorrection.ts); `first` on the first iteration. */
  correct(ctx: StepContext, o: number, iA: number, iB: number, first: boolean): void;
  /** Stage "store impulses": the motor report of this substep. */
  finish(ctx: StepContext, o: number): void;

  /** World.getJointAngle at the current poses: unwrapped angle (rad) / offset (m), or a frame-A rotation
   *  vector for a type with rotational freedom about more than one axis. */
  position(ctx: StepContext, o: number, iA: number, iB: number): number | Vec3;
  /** World.getJointError at the current poses (m): how far the anchors are from satisfying the joint. */
  anchorError(ctx: StepContext, o: number, iA: number, iB: number): number;
}
