/**
 * The rig format: the RigDocument a game loads with the Marionette runtime. One zod schema is the single
 * source of truth — the TypeScript types below are inferred from it and `rig.schema.json` (JSON Schema
 * 2020-12) is generated from it (`npm run cli -- schema`, checked up to date by a test).
 *
 * Conventions, fixed by the format (see docs/rig-format.md):
 *  - units: metres, kilograms, seconds, radians, newton-metres (newtons for prismatic motors);
 *  - axes: right-handed, +Y up, +Z forward (glTF);
 *  - vectors [x, y, z]; quaternions [x, y, z, w] (unit length);
 *  - every object is closed (an unknown key is an error, so a typo never silently becomes a default);
 *    data of your own goes in `extras`, which the runtime carries but never reads.
 *
 * What zod cannot express (references between names, cycles, min ≤ max, connected controller chains,
 * unit quaternions) is checked in semantics.ts; `validateRig` runs both and reports every problem at once.
 */
import { z } from 'zod';

export const RIG_FORMAT = 'marionette-rig';
/** The version this code writes. Older versions are migrated on load (migrations.ts); newer are refused. */
export const RIG_VERSION = 1;

// ---------------------------------------------------------------------------------------------- physical bounds

/**
 * Every number is bounded to what the solvers can simulate in double precision; a value outside is refused
 * here, at the edge, instead of overflowing to Infinity/NaN inside a step (a position of 1.8e308, a mass of
 * 1e-300, a capsule radius of 1e-12, a dt of 5e-324 all validated once and then ran NaN or forever).
 * The bounds are far outside any creature: they only cut off what cannot work. Each description says why.
 */
export const RIG_BOUNDS = {
  /** m: coordinates, offsets, control points, targets. */
  length: 1e4,
  /** m: the smallest shape dimension (radius, half extent): below it inertias ~m·r² make 1/I overflow the solver. */
  minSize: 1e-4,
  /** m: the largest shape dimension. */
  maxSize: 1e3,
  /** m: how far a shape's centre may sit from its body's origin. */
  shapeOffset: 10,
  /** kg */
  minMass: 1e-6, maxMass: 1e6,
  /** kg/m³ (air ≈ 1.2, osmium ≈ 22 600) */
  minDensity: 1e-3, maxDensity: 1e6,
  /** m/s² per component (100 g) */
  gravity: 1e3,
  /** rad/s or m/s */
  speed: 1e3,
  /** Screw pitch (m/rad): 1 m per radian is already a slide with a slight twist. */
  pitch: 1,
  /** N·m or N */
  torque: 1e9,
  /** N·m/rad and N·m·s/rad */
  stiffness: 1e12,
  /** 1/s */
  dampingRate: 1e6,
  /** unitless friction coefficient */
  friction: 1e3,
  /** cycles per second */
  rate: 100,
  /** s: the smallest step; 1e-5 s is 100 kHz, ten times finer than any stable stiff creature needs. */
  minDt: 1e-5,
  /** steering window samples (window / |rate| / dt) held and summed every step (semantics.ts) */
  windowSamples: 100_000,
  /** unitless scale of a bone */
  scale: 1e3,
  /** array sizes */
  bones: 1024, bodies: 1024, joints: 1024, shapes: 64, controllers: 64, chain: 64, controlPoints: 1024,
} as const;
const B = RIG_BOUNDS;

// ---------------------------------------------------------------------------------------------- building blocks

/** A number in [min, max]; `why` is appended to the description. */
const bounded = (min: number, max: number, description: string) => z.number().min(min).max(max).describe(description);

const coord = z.number().min(-B.length).max(B.length);
const vec3 = (description: string) => z.tuple([coord, coord, coord]).describe(`${description} Each coordinate within ±${B.length} m (what double precision simulates to well under a micrometre).`);
const qc = z.number().min(-1e3).max(1e3);
const quat = (description: string) =>
  z.tuple([qc, qc, qc, qc]).describe(`${description} Unit quaternion [x, y, z, w].`);
const range = (description: string) => z.tuple([coord, coord]).describe(`${description} [min, max], min ≤ max.`);
const size = (description: string) => z.number().min(B.minSize).max(B.maxSize)
  .describe(`${description} ${B.minSize}–${B.maxSize} m: thinner shapes have inertias too small for the solver (1/I overflows), larger ones are no creature part.`);
const halfLength = (description: string) => z.number().min(0).max(B.maxSize).describe(`${description} At most ${B.maxSize} m.`);

/** Names are how the format refers to things (bodies name bones, joints name bodies). */
const name = (what: string) => z.string().min(1).max(256).describe(`Name of this ${what}; unique among ${what}s.`);
const ref = (what: string) => z.string().min(1).max(256).describe(`Name of a ${what} in this document.`);

const extras = z.record(z.string(), z.unknown()).optional()
  .describe('Application data carried along unchanged; the runtime never reads it. The whole rig, extras included, must stay a file loadRig reads (16 MB by default): validateRig refuses a document that would serialise to more, so what validates also loads.');

const pose = (frame: string) => z.strictObject({
  position: vec3(`Translation (m) in ${frame}.`),
  rotation: quat(`Rotation in ${frame}.`),
});

// ---------------------------------------------------------------------------------------------- skeleton

export const boneSchema = z.strictObject({
  name: name('bone'),
  parent: ref('bone').nullable().describe('Parent bone name, or null for a root bone.'),
  rest: z.strictObject({
    translation: vec3('Rest translation (m) relative to the parent bone (model space for a root bone).'),
    rotation: quat('Rest rotation relative to the parent bone.'),
    scale: z.tuple([z.number().min(-B.scale).max(B.scale), z.number().min(-B.scale).max(B.scale), z.number().min(-B.scale).max(B.scale)]).describe(`Rest scale (unitless, each within ±${B.scale}) relative to the parent bone; carried for skinning, physics ignores it except where it scales child translations.`),
  }).describe('Rest (bind) transform, as the glTF node\'s TRS.'),
}).describe('A bone of the creature\'s skeleton (a glTF joint node).');

export const skeletonSchema = z.strictObject({
  bones: z.array(boneSchema).min(1).max(B.bones).describe(`Bones, in any order; parents are referenced by name. At most ${B.bones}.`),
  scale: z.number().gt(0).lte(1e6).describe('Creature scale: metres per unit of the creature file (1: the file is in metres; 0.01: a file authored in centimetres, or rescaled to a height). The bones, bodies and joints above are already in metres; an editor draws the file\'s mesh scaled by this. Omit = 1.').optional(),
}).describe('The skeleton the bodies drive; bone names match the skinned mesh.');

// ---------------------------------------------------------------------------------------------- bodies

const axis = z.enum(['x', 'y', 'z']).describe('Local axis the shape is aligned with.');

const shapePoseFields = {
  position: z.tuple([z.number().min(-B.shapeOffset).max(B.shapeOffset), z.number().min(-B.shapeOffset).max(B.shapeOffset), z.number().min(-B.shapeOffset).max(B.shapeOffset)])
    .describe(`Shape centre (m) in the body frame, each coordinate within ±${B.shapeOffset} m: a shape far from its body gives lever arms the solver cannot hold (offsets of 170 m and 2 km ran NaN in the fuzz suite).`),
  rotation: quat('Shape rotation in the body frame.'),
  // Optional (absent in older files, so no migration): a shape's own mass makes a ballast.
  mass: bounded(B.minMass, B.maxMass, `This shape's own mass (kg, ${B.minMass}–${B.maxMass}: lighter parts make the solver's mass ratios and 1/m overflow), e.g. a ballast low inside a shell; overrides the body's spread. At most one of mass and density. Omit to take a share of the body's mass or density.`).optional(),
  density: bounded(B.minDensity, B.maxDensity, `This shape's own density (kg/m³, ${B.minDensity}–${B.maxDensity}): its mass is density × its enclosed volume. At most one of mass and density.`).optional(),
};

export const shapeSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('sphere'), ...shapePoseFields,
    radius: size('Radius (m).'),
    hollow: z.boolean().describe('Thin shell instead of a solid ball (changes the inertia, not the collision).'),
  }).describe('Sphere.'),
  z.strictObject({
    type: z.literal('capsule'), ...shapePoseFields,
    radius: size('Radius (m).'),
    halfHeight: halfLength('Half length (m) of the cylindrical part; total length is 2·halfHeight + 2·radius.'),
    axis,
  }).describe('Capsule.'),
  z.strictObject({
    type: z.literal('box'), ...shapePoseFields,
    halfExtents: z.tuple([z.number().min(B.minSize).max(B.maxSize), z.number().min(B.minSize).max(B.maxSize), z.number().min(B.minSize).max(B.maxSize)])
      .describe(`Half extents (m) along local x, y, z, each ${B.minSize}–${B.maxSize} m (thinner boxes have inertias too small for the solver).`),
  }).describe('Box.'),
  z.strictObject({
    type: z.literal('cylinder'), ...shapePoseFields,
    radius: size('Radius (m).'),
    halfHeight: size('Half height (m); total height 2·halfHeight.'),
    axis,
    hollow: z.boolean().describe('Thin tube instead of a solid cylinder (changes the inertia).'),
  }).describe('Cylinder.'),
  z.strictObject({
    type: z.literal('ellipsoid'), ...shapePoseFields,
    radii: z.tuple([z.number().min(B.minSize).max(B.maxSize), z.number().min(B.minSize).max(B.maxSize), z.number().min(B.minSize).max(B.maxSize)])
      .describe(`Semi-axes (m) along local x, y, z, each ${B.minSize}–${B.maxSize} m (mass properties exact; collides as its bounding sphere).`),
  }).describe('Solid ellipsoid.'),
]).describe('A collision and mass shape with its local pose in the body frame.');

export const materialSchema = z.strictObject({
  friction: bounded(0, B.friction, `Coulomb friction coefficient μ (unitless, 0–${B.friction}); a pair uses the geometric mean.`),
  restitution: z.number().min(0).max(1).describe('Restitution (unitless, 0..1); a pair uses the larger.'),
}).describe('Surface material.');

export const massPropertiesSchema = z.strictObject({
  mass: bounded(B.minMass, B.maxMass * B.shapes, 'Total mass (kg).'),
  centroid: vec3('Centre of mass (m) in the body frame.'),
  inertia: z.array(z.number().min(-1e18).max(1e18)).length(9)
    .describe('Inertia tensor (kg·m²) about the centre of mass in body axes, row-major 3×3.'),
}).describe('Mass properties computed from the shapes at export (primitive formulas + parallel-axis theorem), so a runtime need not recompute them. Must agree with the shapes.');

const collisionBits = z.number().int().min(0).max(0xffffffff);

export const bodySchema = z.strictObject({
  name: name('body'),
  bone: ref('bone').describe('The bone this body drives; at most one body per bone.'),
  type: z.enum(['dynamic', 'kinematic', 'static'])
    .describe('dynamic: moved by physics; kinematic: moved by the game, pushes dynamics; static: never moves.'),
  offset: pose('the bone frame').describe('Body frame relative to its bone: body world = bone world · offset.'),
  shapes: z.array(shapeSchema).min(1).max(B.shapes).describe(`At most ${B.shapes}. ` + 'Shapes. A shape with its own mass or density keeps it; the others share the body\'s mass (by volume) or take its density.'),
  mass: bounded(B.minMass, B.maxMass, `Total mass (kg, ${B.minMass}–${B.maxMass}: lighter bodies make 1/m and the mass ratios overflow the solver) of the body including shapes with their own mass; what those leave is spread over the other shapes by volume. null to use density.`).nullable(),
  density: bounded(B.minDensity, B.maxDensity, `Density (kg/m³, ${B.minDensity}–${B.maxDensity}; air ≈ 1.2, osmium ≈ 22 600) of the shapes without their own mass or density; null when mass is given. Exactly one of mass and density is a number.`).nullable(),
  material: materialSchema,
  linearDamping: bounded(0, B.dampingRate, `Linear damping (1/s, 0–${B.dampingRate}): v ← v / (1 + linearDamping·dt) each step.`),
  angularDamping: bounded(0, B.dampingRate, `Angular damping (1/s, 0–${B.dampingRate}): ω ← ω / (1 + angularDamping·dt) each step.`),
  collisionGroup: collisionBits.describe('Collision group bits (0..2³²−1). Two bodies collide iff (a.group & b.mask) ≠ 0 and (b.group & a.mask) ≠ 0.'),
  collisionMask: collisionBits.describe('Collision mask bits (0..2³²−1), see collisionGroup.'),
  computed: massPropertiesSchema.optional(),
  extras,
}).describe('A rigid body attached to a bone.');

// ---------------------------------------------------------------------------------------------- joints

export const motorTargetSchema = z.strictObject({
  source: z.enum(['rest', 'animation', 'controller'])
    .describe('Where the drive target comes from each step: rest = the rest pose; animation = the game sets it from a clip (Simulation.setMotorTargets); controller = a controller whose chain holds this joint (IK).'),
  clip: z.string().min(1).optional().describe('Animation clip name; required when source is "animation".'),
  velocity: bounded(-B.speed, B.speed, `Target velocity for mode "velocity": rad/s about the hinge axis, m/s along a prismatic axis (ball joints: 0, a damper); within ±${B.speed}.`).optional(),
}).describe('The drive target.');

export const motorSchema = z.strictObject({
  mode: z.enum(['off', 'position', 'pd', 'velocity'])
    .describe('off: no drive (frictionTorque still resists motion); position: velocity rows with bias errorReduction·ε/dt; pd: τ = stiffness·(θd−θ) + damping·(θ̇d−θ̇) as soft rows; velocity: drive to target.velocity. All modes clamp the accumulated impulse of each row to ±maxTorque·dt.'),
  target: motorTargetSchema,
  maxTorque: bounded(0, B.torque, `Torque limit τmax (N·m; N for prismatic; 0–${B.torque}, past which one step's impulse overflows the velocities): each motor row's accumulated impulse per step is clamped to [−τmax·dt, τmax·dt].`),
  errorReduction: z.number().gt(0).max(1).describe('Error reduction r (unitless, 0 < r ≤ 1) for mode "position": bias velocity r·ε/dt.'),
  stiffness: bounded(0, B.stiffness, `PD stiffness kp (N·m/rad; N/m for prismatic; 0–${B.stiffness}) for mode "pd"; in that mode stiffness or damping must be > 0.`),
  damping: bounded(0, B.stiffness, `PD damping kv (N·m·s/rad; N·s/m for prismatic; 0–${B.stiffness}) for mode "pd".`),
  frictionTorque: bounded(0, B.torque, `Joint friction (N·m; N for prismatic; 0–${B.torque}) applied by the motor rows when mode is "off".`),
  torqueLimit: z.enum(['perAxis', 'magnitude']).optional()
    .describe('How maxTorque bounds a ball joint\'s three motor rows. perAxis (the default when absent; seed 000\'s per-element clamp): each row\'s accumulated impulse on its own to ±maxTorque·dt, so together up to √3·maxTorque; magnitude: the accumulated impulse vector to ‖λ‖ ≤ maxTorque·dt, so ‖τ‖ ≤ maxTorque. One-row motors (hinge, prismatic) are the same either way.'),
  maxSpeed: z.number().gt(0).max(B.speed).optional()
    .describe(`The fastest the drive asks its joint to move (rad/s; m/s for prismatic and slide motors; 0 < maxSpeed ≤ ${B.speed}; 50 when absent, as Unity's default maximum angular speed): position mode's errorReduction·ε/dt, pd mode's θ̇d − stiffness/(damping + dt·stiffness)·ε and velocity mode's target are clamped to ±maxSpeed (a ball joint's three rows scaled together: the rotation vector's rate ≤ maxSpeed). A bound on the request, not on the joint: gravity, contacts and other joints can still move it faster.`),
}).describe('Torque-limited motor on the joint\'s angular (or, for prismatic, linear) degrees of freedom.');

const jointFields = {
  name: name('joint'),
  bodyA: ref('body').describe('Parent body.'),
  bodyB: ref('body').describe('Child body.'),
  frameA: pose('bodyA\'s frame').describe('Joint frame on bodyA: anchor and axes. Local X is the twist / hinge / slide axis, Y the reference from which angles are measured.'),
  frameB: pose('bodyB\'s frame').describe('Joint frame on bodyB. At the rest pose the anchors of frameA and frameB coincide in world.'),
  collideConnected: z.boolean().describe('Let bodyA and bodyB collide with each other.'),
  extras,
};

export const jointSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('ball'), ...jointFields,
    twistLimit: range('Twist of bodyB about frame X relative to bodyA (rad, within ±π), signed; null = free.').nullable(),
    swingLimit: z.tuple([z.number().min(1e-3).max(Math.PI), z.number().min(1e-3).max(Math.PI)]).nullable()
      .describe('Swing half-angles (rad, 0.001 ≤ a ≤ π) about frame Y and frame Z: an elliptical cone. null = free. Narrower cones divide by ~0 in the cone\'s error (the solver ran NaN at 1e-300); lock a direction with a hinge or fixed joint instead.'),
    motor: motorSchema,
  }).describe('Ball-and-socket joint: 3 rotational degrees of freedom.'),
  z.strictObject({
    type: z.literal('hinge'), ...jointFields,
    limit: range('Signed angle (rad, within ±2π) of bodyB about frame X relative to bodyA; null = free.').nullable(),
    motor: motorSchema,
  }).describe('Hinge (revolute) joint about frame X.'),
  z.strictObject({ type: z.literal('fixed'), ...jointFields }).describe('Fixed joint: welds the two bodies.'),
  z.strictObject({
    type: z.literal('prismatic'), ...jointFields,
    limit: range('Offset (m) of bodyB along frame X relative to bodyA; null = free.').nullable(),
    motor: motorSchema,
  }).describe('Prismatic (slider) joint along frame X.'),
  z.strictObject({
    type: z.literal('screw'), ...jointFields,
    pitch: z.number().min(-B.pitch).max(B.pitch).refine((p) => p !== 0, 'must not be 0 (a screw of pitch 0 is a hinge)')
      .describe(`Pitch (m/rad, ≠ 0, within ±${B.pitch}): bodyB's offset along frame X is pitch × its angle about frame X (a thread of lead L mm per turn has pitch L/(2000π)). At the rest pose the frames agree (angle 0, offset 0).`),
    limit: range('Signed angle (rad, within ±2π) of bodyB about frame X relative to bodyA; the offset is pitch × the angle, so this bounds it too. null = free.').nullable(),
    motor: motorSchema.describe('Motor on the angle (N·m about frame X); the thread turns its torque into the thrust.'),
  }).describe('Screw (helical) joint: one coupled DOF — rotation about frame X with translation pitch × angle along it.'),
  z.strictObject({
    type: z.literal('cylindrical'), ...jointFields,
    limit: range('Signed angle (rad, within ±2π) of bodyB about frame X relative to bodyA; null = free.').nullable(),
    slideLimit: range('Offset (m) of bodyB along frame X relative to bodyA; null = free.').nullable(),
    motor: motorSchema.describe('Motor on the angle about frame X (N·m).'),
    slideMotor: motorSchema.describe('Motor on the offset along frame X (force units: maxTorque and frictionTorque in N, stiffness N/m, damping N·s/m).'),
  }).describe('Cylindrical joint: rotation about frame X and translation along it, two independent DOFs.'),
  z.strictObject({
    type: z.literal('planar'), ...jointFields,
    limit: range('Signed angle (rad, within ±2π) of bodyB about frame X, the plane\'s normal, relative to bodyA; null = free.').nullable(),
    slideLimitY: range('Offset (m) of bodyB along frame Y in the plane; null = free.').nullable(),
    slideLimitZ: range('Offset (m) of bodyB along frame Z in the plane; null = free.').nullable(),
    motor: motorSchema.describe('Motor on the angle about the normal (N·m).'),
    slideMotor: motorSchema.describe('Motor on the two offsets in the plane, one row along frame Y and one along Z (force units: N, N/m, N·s/m; torqueLimit magnitude bounds the force vector in the plane). Its target.velocity must be 0 (a damper): a velocity target has no direction in the plane.'),
  }).describe('Planar joint: translation in frame A\'s YZ plane and rotation about its normal, frame X (three DOFs).'),
]).describe('A joint between a parent body (bodyA) and a child body (bodyB). The joints form a forest: no cycles, one parent joint per body.');

// ---------------------------------------------------------------------------------------------- controllers

export const cyclicPathControllerSchema = z.strictObject({
  name: name('controller'),
  type: z.literal('cyclicPath'),
  root: ref('body').describe('Body whose frame the control points are expressed in (the creature\'s trunk).'),
  chain: z.array(ref('joint')).min(1).max(B.chain)
    .describe(`At most ${B.chain}. ` + 'Limb joints from the root to the tip (e.g. shoulder, elbow, wrist); each joint\'s bodyB is the next joint\'s bodyA and the first joint\'s bodyA is the root.'),
  effector: z.strictObject({
    body: ref('body').describe('Body at the tip of the chain (the last joint\'s bodyB).'),
    offset: vec3('Effector point (m) in that body\'s frame (e.g. the fingertip).'),
  }).describe('The point the IK drives along the path.'),
  controlPoints: z.array(z.tuple([coord, coord, coord])).min(3).max(B.controlPoints)
    .describe(`Coordinates within ±${B.length} m; at most ${B.controlPoints} points. ` + 'Control points (m) of the closed path, at least 3, in the root\'s heading frame: the root body\'s frame at rest, carried each step by the root\'s position and yaw only (not its roll or pitch), then turned by the steering skew.'),
  rate: bounded(-B.rate, B.rate, `Cycles per second (1/s, within ±${B.rate}); negative runs the path backwards.`),
  phaseOffset: z.number().min(0).lt(1).describe('Phase at t = 0 (cycles, 0 ≤ phaseOffset < 1).'),
  interpolation: z.enum(['centripetal-catmull-rom', 'linear']).describe('How the closed curve passes through the control points.'),
  pole: vec3('IK pole: a POINT (m) in the root\'s heading frame (root position + yaw only, turned with the path by the steering skew, like the control points) that the middle joint (elbow/knee) bends toward: the chain bends in the plane through the first joint, the target and this point, on the pole\'s side.'),
  steering: z.strictObject({
    target: vec3('Steering target (m, world).').nullable().describe('Steering target point (m, world); null = walk straight.'),
    gain: bounded(0, 1e3, 'Skew per radian of heading error (unitless, 0–1000; the skew is clamped to maxAngle anyway).'),
    maxAngle: z.number().min(0).max(Math.PI).describe('Largest skew of the path toward the target (rad, 0..π).'),
    window: bounded(0, 16, 'Heading averaging window (gait cycles, 0–16; the window / |rate| / dt samples it spans, at most 100 000, are held and summed every step): the skew follows the root\'s yaw averaged over this many cycles, so the back-and-forth yaw within each stroke does not swing the path; 1 cancels a per-stroke wobble exactly. Omit or 0 = the heading now.').optional(),
    rateGain: bounded(0, 1e3, 'Heading-rate (derivative) term (s, 0–1000): the heading steered by is carried ahead by rateGain × the root\'s current yaw rate, so the path turns against a spin as it starts (the arm damps the body\'s yaw). Omit or 0 = none.').optional(),
    pivotLead: bounded(-B.length, B.length, 'Where the skew turns the path (within ±1e4 m): about the vertical this far (m) ahead of the floor stroke\'s centre along the travel direction (a single hand turns the body away from the side it pulls on, so the stroke must move to the far side). Omit = 0.7 m.').optional(),
    stopRadius: bounded(0, B.length, 'Arrival (0–1e4 m): stop when the root is within this horizontal distance (m, ≥ 0) of the target — over one gait cycle the hand leaves the path for restPoint and holds still off the floor. Omit or 0 = no arrival (the gait never stops). Limbs of a multi-limb gait (two or more enabled controllers on one root) stop together by the FIRST limb\'s arrival numbers.').optional(),
    arriveRadius: bounded(0, B.length, 'Arrival (0–1e4 m): start slowing within this distance (m, ≥ stopRadius): the loop shrinks on the floor about its stroke centre, smoothly from full size to minStroke at stopRadius. Omit = stopRadius (no slow zone).').optional(),
    restartRadius: bounded(0, B.length, 'Arrival (0–1e4 m): once stopped, crawl again only when the target is farther than this (m, ≥ stopRadius; the gap is the hysteresis that keeps a stopped creature from twitching). Omit = arriveRadius.').optional(),
    minStroke: z.number().min(0).max(1).describe('Arrival: size of the loop at stopRadius (0..1, fraction of the drawn path), so the creature still pushes until it is inside. Omit = 0.5.').optional(),
    restPoint: vec3('Arrival: where the hand rests when stopped (m, in the root body\'s frame — its full pose, so the arm holds one fixed fold as the body rocks); a fold off the floor just out of the arm\'s reach rests the joints on a limit, which the motors hold still. Omit = the control points\' centroid (single limb) or the top of the loop above its stroke centre (a limb of a multi-limb gait: feet up, the body sets down).').optional(),
  }).superRefine((s, ctx) => {
    const stop = s.stopRadius ?? 0;
    if (stop <= 0) return;
    const arrive = s.arriveRadius ?? stop;
    if (arrive < stop) ctx.addIssue({ code: 'custom', path: ['arriveRadius'], message: `must be ≥ stopRadius (${stop} m), got ${arrive}` });
    if ((s.restartRadius ?? arrive) < stop) ctx.addIssue({ code: 'custom', path: ['restartRadius'], message: `must be ≥ stopRadius (${stop} m), got ${s.restartRadius ?? arrive}` });
  }).describe('Skews the path toward a target so the creature turns: skew = clamp(gain · θ, ±maxAngle), θ = angle from the travel direction at the (averaged, rate-predicted) heading to the target; with stopRadius, arrives: slows, stops with the hand at restPoint, restarts when the target moves away.'),
  righting: z.strictObject({
    start: z.number().min(0).max(Math.PI).describe('Tilt (rad, 0..π) of the root\'s rest up-axis from vertical at which the path starts to turn toward the side the body leans to and to lean with it.'),
    full: z.number().min(0).max(Math.PI).describe('Tilt (rad, start..π) at which the path follows fully; between start and full the turn and the lean grow linearly and the steering skew fades out.'),
    follow: z.number().min(0).max(1).describe('Fraction (0..1) of the root\'s tilt the path leans with once it follows fully: the floor stroke lands on the low side and pushes the body back up.'),
  }).superRefine((r, ctx) => {
    if (r.full < r.start) ctx.addIssue({ code: 'custom', path: ['full'], message: `must be ≥ start (${r.start} rad), got ${r.full}` });
  }).optional().describe('Righting: how the path follows the root when it tips over (docs/locomotion.md "Righting"). Omit = the path hangs level from the root\'s position and heading whatever its tilt.'),
  enabled: z.boolean().describe('A disabled controller keeps its phase frozen and sets no targets.'),
  extras,
}).describe('Cyclic hand/foot path (Armed Mine): the effector follows a closed curve at `rate`, solved by IK into motor targets for the chain.');

export const controllerSchema = z.discriminatedUnion('type', [cyclicPathControllerSchema])
  .describe('A controller that sets motor targets every step.');

// ---------------------------------------------------------------------------------------------- simulation

export const simulationSchema = z.strictObject({
  gravity: z.tuple([z.number().min(-B.gravity).max(B.gravity), z.number().min(-B.gravity).max(B.gravity), z.number().min(-B.gravity).max(B.gravity)])
    .describe(`Gravity (m/s²), world frame; each component within ±${B.gravity} (100 g).`),
  dt: z.number().min(B.minDt).max(0.1).describe(`Fixed step (s), ${B.minDt} ≤ dt ≤ 0.1; one Simulation.step() advances this much. Finer steps than ${B.minDt} s (100 kHz) serve no creature and make a simulated second take unbounded time.`),
  substeps: z.number().int().min(1).max(64).describe('Substeps per step (1..64).'),
  velocityIterations: z.number().int().min(1).max(256).describe('Velocity solver iterations per substep (1..256).'),
  positionIterations: z.number().int().min(0).max(256).describe('Position relax iterations per substep (0..256).'),
  jointCorrection: z.enum(['projection', 'shake']).optional()
    .describe('How joint position errors are corrected after each substep (docs/physics.md "Joint correction"). shake: the correction is a pseudo-impulse along the start-of-substep constraint directions and the velocities change with it (SHAKE/RATTLE): a 60° rod pendulum keeps its energy within 1.5 %, a double pendulum within 2.3 % over 10 s at 1/60 s, 2 substeps — the editor\'s default for new rigs; projection (also when absent, the mode rigs were tuned on before): the bodies are moved and the velocities left alone, which loses 25 % of a pendulum\'s swing energy in 10 s.'),
  ground: z.strictObject({
    height: bounded(-B.length, B.length, `Height (m, within ±${B.length}) of the ground plane y = height.`),
    friction: bounded(0, B.friction, `Ground friction coefficient μ (unitless, 0–${B.friction}).`),
    restitution: z.number().min(0).max(1).describe('Ground restitution (unitless, 0..1).'),
  }).nullable().describe('Static ground plane, or null for none.'),
  gyroscopic: z.enum(['conserving', 'damped']).optional()
    .describe('The gyroscopic step. conserving: implicit midpoint in the body frame, a free body keeps |L| and its kinetic energy; damped (also when absent, the step rigs were tuned on before): one Newton step of implicit Euler, which bleeds off-axis spin (a box tumbling about its middle axis loses 3–11 % of |L| in 5 s at 60 Hz).'),
}).describe('Solver settings; the runtime steps exactly these.');

// ---------------------------------------------------------------------------------------------- document

export const rigSchema = z.strictObject({
  $schema: z.string().optional().describe('Optional URL or path of rig.schema.json, for editors.'),
  format: z.literal(RIG_FORMAT).describe('Always "marionette-rig".'),
  version: z.literal(RIG_VERSION).describe(`Format version (integer). This schema describes version ${RIG_VERSION}.`),
  name: z.string().min(1).max(256).describe('Creature name.'),
  units: z.strictObject({
    length: z.literal('m'), mass: z.literal('kg'), time: z.literal('s'), angle: z.literal('rad'), torque: z.literal('N·m'),
  }).describe('The units every number uses; fixed, written out so a reader never has to guess.'),
  axes: z.strictObject({
    up: z.literal('+Y'), forward: z.literal('+Z'), handedness: z.literal('right'),
  }).describe('Axis conventions (glTF); fixed.'),
  solver: z.enum(['rigid', 'articulated', 'particle']).describe('rigid: sequential-impulse rigid bodies (maximal coordinates); articulated: Featherstone\'s articulated-body method in joint coordinates (the joints must form a tree; joints cannot come apart); particle: Jakobsen Verlet particles. docs/physics.md "Three solvers".'),
  skeleton: skeletonSchema,
  bodies: z.array(bodySchema).min(1).max(B.bodies).describe(`Rigid bodies, one per driven bone; at most ${B.bodies}.`),
  joints: z.array(jointSchema).max(B.joints).describe(`Joints between bodies; at most ${B.joints}.`),
  controllers: z.array(controllerSchema).max(B.controllers).describe(`Controllers run every step before the motors; at most ${B.controllers}.`),
  simulation: simulationSchema,
  extras,
}).describe('Marionette rig: a powered ragdoll (skeleton, rigid bodies, joints with torque-limited motors, gait controllers, solver settings). Units m, kg, s, rad, N·m; +Y up, +Z forward, right-handed.');

export type RigDocument = z.infer<typeof rigSchema>;
export type Bone = z.infer<typeof boneSchema>;
export type RigBody = z.infer<typeof bodySchema>;
export type RigShape = z.infer<typeof shapeSchema>;
export type RigJoint = z.infer<typeof jointSchema>;
export type RigMotor = z.infer<typeof motorSchema>;
export type RigController = z.infer<typeof controllerSchema>;
export type CyclicPathController = z.infer<typeof cyclicPathControllerSchema>;
export type RigSimulationSettings = z.infer<typeof simulationSchema>;
export type RigMassProperties = z.infer<typeof massPropertiesSchema>;

/** The fixed `units` and `axes` blocks, for writers. */
export const RIG_UNITS: RigDocument['units'] = { length: 'm', mass: 'kg', time: 's', angle: 'rad', torque: 'N·m' };
export const RIG_AXES: RigDocument['axes'] = { up: '+Y', forward: '+Z', handedness: 'right' };
