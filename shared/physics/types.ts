/**
 * The public contract of the rigid-body core (shared/physics). Everything outside shared/physics — the rig
 * runtime, the editor, the CLI, the benchmark — programs against these types only.
 *
 * Units: metres, kilograms, seconds, radians, newtons, newton-metres. Right-handed, +Y up.
 * Vectors are [x, y, z]; quaternions [x, y, z, w].
 */
import type { Quat, ReadonlyQuat } from '../math/quat';
import type { ReadonlyVec3, Vec3 } from '../math/vec3';

// ---------------------------------------------------------------------------------------------- shapes

/** Local pose of a shape inside its body (body frame). Defaults: origin, identity. */
export interface ShapePose { position?: ReadonlyVec3; rotation?: ReadonlyQuat }

/** A shape's own mass, for ballast: `mass` (kg) or `density` (kg/m³), at most one. A shape with neither
 *  takes its share of the body's mass or density (computeMassProperties in massProperties.ts). */
export interface ShapeMass { mass?: number; density?: number }

export type ShapeDesc = ShapePose & ShapeMass & (
  /** Solid sphere, or a thin hollow shell when `hollow`. */
  | { type: 'sphere'; radius: number; hollow?: boolean }
  /** Capsule along the local `axis` (default 'y'); `halfHeight` is half the cylindrical part, so total
   *  length is 2·halfHeight + 2·radius (the Rapier/Jolt convention). */
  | { type: 'capsule'; radius: number; halfHeight: number; axis?: 'x' | 'y' | 'z' }
  /** Box with half extents along local x, y, z. */
  | { type: 'box'; halfExtents: ReadonlyVec3 }
  /** Cylinder along local `axis` (default 'y'), total height 2·halfHeight; hollow = thin tube. */
  | { type: 'cylinder'; radius: number; halfHeight: number; axis?: 'x' | 'y' | 'z'; hollow?: boolean }
  /** Solid ellipsoid with semi-axes along local x, y, z (mass properties; collides as its bounding sphere
   *  scaled — see the collision module's notes). */
  | { type: 'ellipsoid'; radii: ReadonlyVec3 }
);

/** Surface material. friction: Coulomb μ (pairs combine by geometric mean); restitution in [0, 1]
 *  (pairs take the max). */
export interface Material { friction: number; restitution: number }

// ---------------------------------------------------------------------------------------------- bodies

export type BodyType = 'dynamic' | 'kinematic' | 'static';

export interface BodyDesc {
  name?: string;
  type: BodyType;
  position: ReadonlyVec3;
  rotation?: ReadonlyQuat;
  shapes: readonly ShapeDesc[];
  /** Either a total mass (kg), distributed by the shapes' volumes, or a density (kg/m³, default 1000). Shapes
   *  with their own mass/density keep it; with a total `mass` the others share what is left. */
  mass?: number;
  density?: number;
  material?: Partial<Material>;
  /** Per-second velocity damping, applied as v *= 1 / (1 + damping·dt). */
  linearDamping?: number;
  angularDamping?: number;
  linearVelocity?: ReadonlyVec3;
  angularVelocity?: ReadonlyVec3;
  /** Collision filtering: two bodies collide iff (a.group & b.mask) && (b.group & a.mask). Bits 0..31. */
  collisionGroup?: number;
  collisionMask?: number;
  /** Let the body take part in gravity (default true). */
  gravityScale?: number;
}

/** Mass properties computed from the shapes, about the centre of mass, in the body frame. */
export interface MassProperties {
  mass: number;
  /** Centre of mass in the body frame. */
  centroid: Vec3;
  /** Inertia tensor about the centroid, body axes, row-major 3×3 (kg·m²). */
  inertia: number[];
}

// ---------------------------------------------------------------------------------------------- joints

export type MotorMode =
  /** No drive. The rows become joint friction when `frictionTorque` > 0 (Jolt's behaviour). */
  | 'off'
  /** Armed Mine position drive: velocity rows with bias c = r·ε/Δt toward the target, impulse clamped. */
  | 'position'
  /** PD drive τ = kp(θd − θ) + kv(θ̇d − θ̇), solved as a soft row, same clamp. */
  | 'pd'
  /** Velocity target θ̇d, same clamp. */
  | 'velocity';

export interface MotorDesc {
  mode: MotorMode;
  /** Torque limit τmax (N·m) per motor row: accumulated impulse ∈ [−τmax·Δt, τmax·Δt]. */
  maxTorque: number;
  /** Error reduction r ∈ (0, 1] for 'position' mode (default 0.5). */
  errorReduction?: number;
  /** PD stiffness kp (N·m/rad) and damping kv (N·m·s/rad) for 'pd' mode. */
  stiffness?: number;
  damping?: number;
  /** Joint friction torque (N·m) used when mode is 'off'. */
  frictionTorque?: number;
  /**
   * How τmax bounds a ball motor's three rows (default 'perAxis'): 'perAxis' clamps each row's accumulated
   * impulse to ±τmax·h on its own (seed 000's per-element clamp: the combined torque can reach √3·τmax);
   * 'magnitude' clamps the accumulated impulse VECTOR to the ball ‖λ‖ ≤ τmax·h (‖τ‖ ≤ τmax). The same for
   * one-row motors (hinge, prismatic).
   */
  torqueLimit?: 'perAxis' | 'magnitude';
  /**
   * The fastest the drive asks its joint to move (rad/s; m/s for a slide; default DEFAULT_MAX_DRIVE_SPEED,
   * 50, as Unity's default maximum angular speed): the row's target velocity rhs — r·ε/h in 'position' mode,
   * θ̇d − biasRate·ε in 'pd', θ̇d in 'velocity' — is clamped to ±maxSpeed (a ball's three rows scaled
   * together, ‖rhs‖ ≤ maxSpeed). It bounds the request, not the joint: gravity, contacts and the other
   * joints can still move it faster. No effect in mode 'off'.
   */
  maxSpeed?: number;
}

interface JointBase {
  name?: string;
  bodyA: BodyHandle;
  bodyB: BodyHandle;
  /** Joint frame on each body, in that body's frame: anchor point and orientation. The frame's local X is
   *  the twist axis (ball), hinge axis (hinge) or slide axis (prismatic); Y is the reference axis from
   *  which angles are measured. At the neutral pose both frames coincide in world. */
  frameA: { position: ReadonlyVec3; rotation?: ReadonlyQuat };
  frameB: { position: ReadonlyVec3; rotation?: ReadonlyQuat };
  /** Let the two jointed bodies collide with each other (default false). */
  collideConnected?: boolean;
  motor?: MotorDesc;
}

export type JointDesc =
  | (JointBase & {
      type: 'ball';
      /** Twist about frame X, [min, max] rad, signed. */
      twistLimit?: readonly [number, number];
      /** Swing half-angles about frame Y and frame Z (an elliptical cone), rad. */
      swingLimit?: readonly [number, number];
    })
  | (JointBase & { type: 'hinge'; /** Signed angle of B about frame X relative to A, [min, max] rad. */ limit?: readonly [number, number] })
  | (JointBase & { type: 'fixed' })
  | (JointBase & { type: 'prismatic'; /** Slide along frame X, metres. */ limit?: readonly [number, number] })
  /** Screw: one DOF, the angle θ about frame X with the offset along frame X locked to pitch·θ. `motor`
   *  drives θ (a torque about X, N·m); `limit` bounds θ (rad), and so the offset. */
  | (JointBase & { type: 'screw'; /** m/rad, finite, ≠ 0 (pitch 0 is a hinge). */ pitch: number; limit?: readonly [number, number] })
  /** Cylindrical: the angle about frame X (`limit`, rad; `motor`, N·m) and the offset along it
   *  (`slideLimit`, m; `slideMotor`, N). */
  | (JointBase & { type: 'cylindrical'; limit?: readonly [number, number]; slideLimit?: readonly [number, number]; slideMotor?: MotorDesc })
  /** Planar: the angle about frame X, the plane's normal (`limit`, rad; `motor`, N·m), and the offsets
   *  along frame Y and Z in the plane (`slideLimitY`, `slideLimitZ`, m; `slideMotor`: two rows along Y
   *  and Z, N, its torqueLimit 'magnitude' bounding the force vector in the plane). */
  | (JointBase & { type: 'planar'; limit?: readonly [number, number]; slideLimitY?: readonly [number, number]; slideLimitZ?: readonly [number, number]; slideMotor?: MotorDesc });

export type JointType = JointDesc['type'];

// ---------------------------------------------------------------------------------------------- handles

/** A handle is an index plus a generation: a handle to a removed body is detected, never reused. */
export type BodyHandle = number & { readonly __brand: 'BodyHandle' };
export type JointHandle = number & { readonly __brand: 'JointHandle' };

// ---------------------------------------------------------------------------------------------- world

export interface WorldSettings {
  gravity: ReadonlyVec3;          // m/s², default [0, −9.81, 0]
  substeps: number;               // per step(dt), default 1 (the motor clamp is per substep h = dt/substeps)
  velocityIterations: number;     // default 8
  /** Position iterations, default 2 (0 allowed): each one is a position-level joint correction sweep (NGS)
   *  followed by a relax velocity sweep (useBias = false) over joints and contacts. */
  positionIterations: number;
  /** Static ground plane y = groundHeight (null = none). */
  groundHeight: number | null;
  groundMaterial: Material;
  /** Joint error correction: Baumgarte factor β ∈ [0, 1] applied at the POSITION level — the fraction of a
   *  joint's anchor/angle error removed per position iteration by moving the bodies (world.ts); default 1.
   *  Joint velocity rows carry no bias, so the correction adds no kinetic energy. */
  jointErrorReduction: number;
  /** How the position correction treats velocities (world.ts): 'projection' (default) moves the bodies
   *  only — dissipative on fast swings; 'shake' moves them along the start-of-substep Jacobian and changes
   *  the velocities by the same pseudo-impulse / h for the drift the substep made (SHAKE/RATTLE: a double
   *  pendulum keeps its energy). */
  jointCorrection?: 'projection' | 'shake';
  /**
   * The gyroscopic term of Euler's equations (bodies.ts integrateVelocities). 'conserving' (default): the
   * implicit midpoint rule in the body frame, which keeps a free body's |L| and kinetic energy; 'damped':
   * one Newton step of implicit Euler (the previous default), which bleeds off-axis spin.
   */
  gyroscopic?: 'conserving' | 'damped';
  /**
   * The joints' warm start (world.ts, warmStart.ts). 'full' (the World's default, Box2D's): every impulse
   * carried from the last substep applied again. 'energy' (what the runtime uses for every rig): free
   * motors in full, then the limits and the constraint rows each scaled, per island, by the factor in
   * [0, 1] that leaves the least kinetic energy — a warm start can then not pump energy into a rig
   * (random valid rigs ran away to thousands of m/s through it; docs/physics.md "Random rigs").
   */
  warmStart?: 'full' | 'energy';
  /**
   * The contacts' caches across substeps (Jolt's body pair cache and Box2D's fat AABBs). A shape pair whose
   * relative pose has moved less than 1 mm and 1° since the narrow phase ran reuses that geometry
   * (contactSolver.ts PAIR_CACHE_DISTANCE, PAIR_CACHE_ANGLE): its points kept as material points of the two
   * bodies, each depth measured again. The broad phase keeps its candidate pairs while every shape stays
   * inside its AABB grown by 5 cm (collision/fatPairs.ts), and reports the pairs in a canonical order (by
   * shape index). Default true; false runs the broad and narrow phases from scratch every substep. The
   * ground plane is always tested.
   */
  contactCache?: boolean;
  /** Speed (m/s) or angular speed (rad/s) past which the world reports a blow-up. */
  maxSpeed: number;
}

export interface RayHit { body: BodyHandle; point: Vec3; normal: Vec3; distance: number }

export interface ContactPoint { bodyA: BodyHandle; bodyB: BodyHandle | null; point: Vec3; normal: Vec3; depth: number; normalImpulse: number }

/** Per joint, per step: what the motor did. */
export interface MotorReport {
  /** Largest per-row torque magnitude applied during the last step (N·m) = |accumulated impulse| / h,
   *  the largest over the step's substeps. */
  torque: number;
  /** Magnitude of the motor's torque vector ‖λ_acc‖ / h (N·m), the largest over the step's substeps (equal
   *  to `torque` for one-row motors). */
  torqueMagnitude: number;
  maxTorque: number;
  /** True when the accumulated impulse sat at the clamp at the end of the step (a row at ±τmax·h in
   *  'perAxis', the vector on the ball ‖λ‖ = τmax·h in 'magnitude'). */
  saturated: boolean;
}

export interface WorldSnapshot { readonly kind: 'marionette-world-snapshot'; readonly data: unknown }

/** The World API. The implementation is `World` in shared/physics/world.ts. */
export interface PhysicsWorld {
  readonly settings: Readonly<WorldSettings>;
  /** Simulated time (s). */
  readonly time: number;

  addBody(desc: BodyDesc): BodyHandle;
  removeBody(body: BodyHandle): void;
  addJoint(desc: JointDesc): JointHandle;
  removeJoint(joint: JointHandle): void;

  step(dt: number): void;

  getPosition(body: BodyHandle, out?: Vec3): Vec3;
  getRotation(body: BodyHandle, out?: Quat): Quat;
  getLinearVelocity(body: BodyHandle, out?: Vec3): Vec3;
  getAngularVelocity(body: BodyHandle, out?: Vec3): Vec3;
  getMassProperties(body: BodyHandle): MassProperties;
  setPose(body: BodyHandle, position: ReadonlyVec3, rotation: ReadonlyQuat): void;
  setVelocity(body: BodyHandle, linear: ReadonlyVec3, angular: ReadonlyVec3): void;
  /** Kinematic bodies: move to this pose over the next step (velocity derived from the transforms). */
  moveKinematic(body: BodyHandle, position: ReadonlyVec3, rotation: ReadonlyQuat, dt: number): void;
  setBodyType(body: BodyHandle, type: BodyType): void;

  applyImpulse(body: BodyHandle, impulse: ReadonlyVec3, worldPoint?: ReadonlyVec3): void;
  applyForce(body: BodyHandle, force: ReadonlyVec3, worldPoint?: ReadonlyVec3): void;
  applyTorque(body: BodyHandle, torque: ReadonlyVec3): void;

  /** Motor target: ball → rotation of frame B relative to frame A (S of DESIGN.md); hinge → angle (rad);
   *  prismatic → offset (m). Velocity mode: target velocity (a number for hinge/prismatic, an angular
   *  velocity [x, y, z] in frame A axes for a ball). */
  setMotorTarget(joint: JointHandle, target: ReadonlyQuat | ReadonlyVec3 | number): void;
  /** PD mode's target velocity θ̇d (default 0): number for hinge/prismatic, frame-A vector for a ball. */
  setMotorTargetVelocity(joint: JointHandle, velocity: number | ReadonlyVec3): void;
  setMotor(joint: JointHandle, motor: MotorDesc): void;
  getMotorReport(joint: JointHandle): MotorReport;
  /** Cylindrical and planar joints' slide motor (force units) and its target: offset (m) along X, or [Y, Z]
   *  for planar; in 'velocity' mode the velocity (m/s). Optional: a world without these joint types may omit them. */
  setSlideMotor?(joint: JointHandle, motor: MotorDesc): void;
  setSlideMotorTarget?(joint: JointHandle, target: number | readonly number[]): void;
  getSlideMotorReport?(joint: JointHandle): MotorReport;
  /** Screw / cylindrical / planar: the slide offsets (m): [X] or, planar, [Y, Z]; [] for other types. */
  getJointSlide?(joint: JointHandle): number[];
  /** Positional error of the joint's anchors (m) after the last step. */
  getJointError(joint: JointHandle): number;
  /** Hinge angle / prismatic offset, or for ball joints the rotation vector of B relative to A. */
  getJointAngle(joint: JointHandle): number | Vec3;

  raycast(origin: ReadonlyVec3, direction: ReadonlyVec3, maxDistance: number): RayHit | null;
  getContacts(): ContactPoint[];

  snapshot(): WorldSnapshot;
  restore(snapshot: WorldSnapshot): void;
  /** Forget cached impulses (after a teleport, a scrub or a pose set). */
  resetWarmStart(): void;
  /** Non-null after a step in which a speed exceeded settings.maxSpeed or a value became non-finite. */
  readonly blowUp: { body: string; reason: string } | null;
  /** Counts from the last step, for benchmarks (nsPerRowIteration) and the status bar. */
  getStats(): WorldStats;
}

export interface WorldStats {
  bodies: number;
  joints: number;
  contacts: number;
  /** Constraint rows (joint + limit + motor + contact normal + friction) in the last substep. */
  rows: number;
  velocityIterations: number;
  substeps: number;
  /** Gauss-Seidel sweeps run past velocityIterations in the last step, over all substeps and islands, because
   *  an island's last sweep still moved a jointed body by UNCONVERGED_SPEED or more (rigid solver; 0 when
   *  every island converged, which is every step of the shipped creatures). */
  extraSweeps?: number;
  /** Joints whose drive took the loaded-link compliance in the last step (the most in any substep; rigid
   *  solver): a drive on a link its load ratio says carries over LOAD_RATIO_FROM times what its rows assume
   *  (shared/physics/joints/motor.ts), softened so the sweeps cannot pump it, at the price of some sag.
   *  0 for the shipped creatures and for Generate's (tests/unit/authoring/corpus.test.ts). */
  compliantDrives?: number;
  /** Shape pairs whose contact geometry came from the pair cache in the last substep (WorldSettings.contactCache). */
  cachedPairs?: number;
  /** Pieces the articulated solver cut its substeps into beyond `substeps` in the last step, because a tree's
   *  mass matrix would have changed by more than MAX_MASS_CHANGE of itself in one (articulated/world.ts; 0 for
   *  calm motion). */
  splitSubsteps?: number;
  /** Time (ms, on the clock given to World.setStageTiming) each stage of the last step took, summed over its
   *  substeps; only while stage timing is on (rigid solver). */
  stageMs?: Record<StepStage, number>;
}

/** The stages of the rigid World's step, in pipeline order (world.ts; WorldStats.stageMs). */
export const STEP_STAGES = [
  'integrateVelocities', 'prepareJoints', 'prepareContacts', 'islands', 'warmStart', 'solveVelocities',
  'integratePositions', 'projectPositions', 'relax', 'finish',
] as const;
export type StepStage = (typeof STEP_STAGES)[number];
