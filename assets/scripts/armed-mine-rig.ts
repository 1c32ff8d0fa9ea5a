/**
 * Generates assets/creatures/armed-mine.rig.json — the Armed Mine's powered ragdoll — from the skeleton in
 * assets/creatures/armed-mine.gltf plus the tuned numbers below. Deterministic: same glTF, same bytes.
 *
 *   npx tsx assets/scripts/armed-mine-rig.ts            (writes the file)
 *   npx tsx assets/scripts/armed-mine-rig.ts --check    (exit 1 if the file on disk differs)
 *
 * Creature (seed 000): a 0.35 m spherical mine resting on the floor, one arm on its upper front:
 * body → upper_arm (shoulder: ball) → forearm (elbow: hinge) → hand (wrist: hinge). Each arm bone's local
 * +Y runs along the bone and its local +X is world +X, so the elbow and wrist bend about X.
 *
 * Tuning, and why (measured figures in docs/locomotion.md):
 *  - body 30 kg with a flat square foot, μ 0.02 (a smooth shell; the pair with the μ 1 ground is 0.14):
 *    the foot stops the ball rolling over its own arm, the low friction lets the hand drag it.
 *  - 22 of the 30 kg are ballast: a compact 0.1 m core 0.106 m below the shell's centre (a per-shape mass),
 *    which puts the centre of mass 8.2 cm below the centre. On its side the mine then has a righting moment
 *    of m·g·d·sin θ ≈ 30·9.81·0.082 ≈ 24 N·m about the floor contact (a weeble), which rolls it back with
 *    the arm's help; without it the 60 N·m shoulder could not roll the 30 kg ball off its back (6/10 of
 *    the seeded blasts recovered). The low centre of mass also stops a strong shoulder from tipping the
 *    body while crawling, so the shoulder could go from 60 to 90 N·m.
 *  - masses for the mass-ratio check (issue 10: jointed mass and inertia ratios ≤ 10, shared/authoring
 *    checkMassRatios): the ballast was a 10 kg, 0.12 m ball 0.215 m down, leaving a 1.36 kg·m² body against a
 *    0.038 kg·m² upper arm (36×) and 12× in mass; the compact core (0.55 kg·m²), an upper arm of 3.2 kg
 *    with 0.35 kg actuator weights at both ends (0.065 kg·m²; the forearm gives up 0.6 kg for it, so the
 *    arm weighs about what it did) and a 0.7 kg hand with 0.3 kg weights at both ends (0.0023 against the
 *    forearm's 0.011) give shoulder 9.4× / 8.5×, elbow 3.6× / 6.0×, wrist 1.3× / 4.8×. The lighter core
 *    turns more easily, so the body's angular damping went from 3 to 5 (crawl heading RMS 6.1°). Chosen by
 *    running the scenario tests over ballast, arm and damping variants: this one passes all seven.
 *  - hand μ 1.0 (pair with the ground 1.0): the grip the stroke pulls against.
 *  - motors in 'position' mode (Armed Mine bias r·ε/Δt), r = 0.5, τmax 90 / 60 / 15 N·m (shoulder, elbow,
 *    wrist): strong enough to drag the body, too weak to lift it over. At 10 % the arm cannot hold its own
 *    weight up (≈ 4.6 kg at ≈ 0.4 m ≈ 18 N·m > 9 N·m), so it cannot crawl.
 *  - the path: reach forward and down to the floor, pull back along it pressing 2.5 cm into it (the
 *    position motor then presses with its full torque, which is what makes the hand grip) from 0.92 m to
 *    0.5 m ahead of the centre (a long stroke: the hand is on the floor ≈ 35 % of the cycle), lift in front
 *    of the body and swing forward-up back to the reach — a swimmer's pull, 0.7 cycles/s. The elbow pole sits
 *    forward and above the shoulder so the elbow stays up and never swings over the top.
 *  - steering (shared/gait/steeringLaw.ts, docs/locomotion.md "Steering"): skew = clamp(2.5·θ, ±0.8 rad) about
 *    a vertical 0.7 m ahead of the stroke, θ from the heading averaged over one stroke (window 1 cycle:
 *    the intra-stroke wobble no longer swings the path) carried ahead by 0.015 s × the body's yaw rate now
 *    (the arm damps each touchdown's yaw kick as it happens). Chosen from a sweep of gain, limit, window,
 *    rateGain and pivot over seven crawl targets, the steer scenario and the other three scenarios: heading
 *    error RMS over 5–20 s of the crawl 15.5° → 7.3° (max 36.8° → 16.4°).
 *  - arrival (shared/gait/arrival.ts, docs/locomotion.md "Arrival"): slow from 1.5 m (the loop shrinks on
 *    the floor to half its size at 0.5 m: 273 → 73 mm/s), stop at 0.5 m with the hand at a fold in front of
 *    the shoulder (0, 0.1, 0.4) — the arm folds against its elbow limit, so the position motors hold it
 *    still (an outstretched hold saturated the shoulder and the body drifted 0.1 m/s); restart beyond 1 m.
 */
import { quatConj, quatFromAxisAngle, quatMul, quatNormalize, quatRotate, type Quat } from '../../shared/math/quat';
import { sub, type Vec3 } from '../../shared/math/vec3';
import { round3v, round9 } from '../../shared/authoring/frames';
import { rigBonesFromSkeleton } from '../../shared/authoring/fromCreature';
import { boneRestWorld } from '../../shared/rig/restPose';
import { RIG_AXES, RIG_FORMAT, RIG_UNITS, RIG_VERSION, type Bone, type RigBody, type RigDocument, type RigJoint, type RigMotor } from '../../shared/rig/schema';
import { parseSkeleton, type CreatureSource } from '../../shared/skeleton';

// ------------------------------------------------------------------------------------------- tuned numbers

const DEG = Math.PI / 180;
const round = round9;
const r3 = (v: readonly number[]) => round3v(v as Vec3);
/** Normalised and rounded, sign as computed (round4q would flip it to w ≥ 0). */
const r4 = (q: readonly number[]): [number, number, number, number] => { const n = quatNormalize(q as Quat); return [round(n[0]), round(n[1]), round(n[2]), round(n[3])]; };

export const ARMED_MINE_TUNING = {
  bodyMass: 30, bodyFriction: 0.02, bodyAngularDamping: 5, footHalfWidth: 0.17, footHalfHeight: 0.04,
  /** Ballast (kg, part of bodyMass; 0 = none): a solid sphere of ballastRadius (m) centred ballastY (m)
   *  from the shell's centre (negative = below), inside the shell. */
  ballastMass: 22, ballastRadius: 0.1, ballastY: -0.106,
  upperArmMass: 3.2, forearmMass: 0.9, handMass: 0.7, handFriction: 1.0, armAngularDamping: 0.2,
  /** Actuator weights (kg each, part of the bone's mass; 0 = none): two small solid spheres on the bone's
   *  axis near both ends, endWeightInset (m) inside the capsule's surface, so they never touch anything
   *  the capsule does not — mass only, where a motor housing sits. */
  upperArmEndMass: 0.35, handEndMass: 0.3, endWeightRadius: 0.02, handEndWeightRadius: 0.012, endWeightInset: 0.01,
  shoulderMaxTorque: 90, elbowMaxTorque: 60, wristMaxTorque: 15, errorReduction: 0.5, shoulderSwingDeg: 120,
  rate: 0.7,
  /** Root (body) frame at rest: origin at the sphere's centre, floor at y = −0.35. */
  controlPoints: [
    [0, -0.3, 1.05],
    [0, -0.375, 0.92],
    [0, -0.375, 0.7],
    [0, -0.375, 0.5],
    [0, -0.15, 0.47],
    [0, 0.05, 0.8],
  ] as [number, number, number][],
  pole: [0, 0.9, 1.3] as [number, number, number],
  steering: {
    target: [0, 0, 5] as [number, number, number], gain: 2.5, maxAngle: 0.8, window: 1, rateGain: 0.015, pivotLead: 0.7,
    stopRadius: 0.5, arriveRadius: 1.5, restartRadius: 1, minStroke: 0.5, restPoint: [0, 0.1, 0.4] as [number, number, number],
  },
  /** Righting (shared/gait/controller.ts RightingParams, docs/locomotion.md "Righting"): tipped past 0.4 rad
   *  (23°; the crawl never tips past 18°), the path turns toward the low side and leans with the body, fully
   *  at 0.8 rad, by 0.2 of its tilt. Chosen on the righting scenario's 48 blasts (tests/unit/scenarios):
   *  follow 0 (turn only) rights about half the tipped cases, 0.1–0.2 over 80 %, 0.5 and more fewer again — a
   *  path that leans with the body as far as it does reaches past the floor on the low side and levers the
   *  shell further over. */
  righting: { start: 0.4, full: 0.8, follow: 0.2 },
};

// ------------------------------------------------------------------------------------------- skeleton

/** The rig-format bones of the creature file (shared/skeleton's reader: first skin's joint order,
 *  parent-relative rest TRS as in the file). */
export function armedMineBones(file: CreatureSource): Bone[] {
  return rigBonesFromSkeleton(parseSkeleton(file, { duplicateNames: 'refuse' }));
}

// ------------------------------------------------------------------------------------------- the rig

/** The drives may ask for any speed up to the format's bound (the tuning below predates motor.maxSpeed): a
 *  blast's push-up asks up to 187 rad/s of one row and the crawl 68; at a bound of 100 the righting scenario got
 *  37 of 44 tipped cases upright instead of 40 (docs/physics.md "What prevents explosions"; the default is 50). */
const MINE_DRIVE_MAX_SPEED = 1000;

const motor = (maxTorque: number): RigMotor => ({
  mode: 'position', target: { source: 'controller' }, maxTorque, errorReduction: ARMED_MINE_TUNING.errorReduction,
  stiffness: 0, damping: 0, frictionTorque: 0, maxSpeed: MINE_DRIVE_MAX_SPEED,
});

export function armedMineRig(bones: Bone[], tuning: Partial<typeof ARMED_MINE_TUNING> = {}): RigDocument {
  const T = { ...ARMED_MINE_TUNING, ...tuning };
  for (const need of ['body', 'upper_arm', 'forearm', 'hand']) {
    if (!bones.some((b) => b.name === need)) throw new Error(`armed-mine.gltf: bone "${need}" is missing (found ${bones.map((b) => b.name).join(', ')})`);
  }
  const world = boneRestWorld(bones);
  const W = (name: string) => world.get(name)!;
  const length = (from: string, to: string) => Math.hypot(...sub(W(to).position, W(from).position));
  const upperLen = length('upper_arm', 'forearm'), foreLen = length('forearm', 'hand'), handLen = 0.16;

  // Bodies: body frame = bone frame (offset identity); arm capsules run along local +Y from the joint.
  const identity = { position: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] };
  const body = (name: string, shapes: RigBody['shapes'], mass: number, friction: number, angularDamping: number): RigBody => ({
    name, bone: name, type: 'dynamic', offset: identity, shapes, mass, density: null,
    material: { friction, restitution: 0 }, linearDamping: 0.05, angularDamping, collisionGroup: 1, collisionMask: 0xffffffff,
  });
  const capsule = (len: number, radius: number): RigBody['shapes'][number] => ({
    type: 'capsule', position: [0, round(len / 2), 0], rotation: [0, 0, 0, 1], radius, halfHeight: round(Math.max(0, len / 2 - radius)), axis: 'y',
  });
  // A capsule along +Y from the joint, plus (endMass > 0) a weight of endMass at each end, inside it.
  const limb = (len: number, radius: number, endMass: number, endRadius: number): RigBody['shapes'] => {
    if (endMass <= 0) return [capsule(len, radius)];
    // On the axis at x from a tip, a sphere of radius r clears the capsule's cap by x − r (x ≤ radius).
    const x = endRadius + T.endWeightInset;
    if (x > radius) throw new Error(`armed-mine tuning: an end weight of radius ${endRadius} m inset ${T.endWeightInset} m does not fit in a ${radius} m capsule`);
    const weight = (y: number): RigBody['shapes'][number] => ({ type: 'sphere', position: [0, round(y), 0], rotation: [0, 0, 0, 1], radius: endRadius, hollow: false, mass: endMass });
    return [capsule(len, radius), weight(x), weight(len - x)];
  };
  const bodies: RigBody[] = [
    // The shell, plus a flat square foot flush with its bottom: the mine sits on the floor instead of
    // balancing on a point, so the arm's pull slides it rather than rolling it over (a ball rolls one turn
    // per 2.2 m and would carry the shoulder under itself).
    body('body', mineShapes(T), T.bodyMass, T.bodyFriction, T.bodyAngularDamping),
    body('upper_arm', limb(upperLen, 0.055, T.upperArmEndMass, T.endWeightRadius), T.upperArmMass, 0.6, T.armAngularDamping),
    body('forearm', [capsule(foreLen, 0.045)], T.forearmMass, 0.6, T.armAngularDamping),
    body('hand', limb(handLen, 0.04, T.handEndMass, T.handEndWeightRadius), T.handMass, T.handFriction, T.armAngularDamping),
  ];

  // Joint frames: choose the frame's world rotation F at rest, then frameA = R_A⁻¹·F, frameB = R_B⁻¹·F, so
  // the two frames coincide at rest by construction; anchors at the child bone's head.
  const frames = (a: string, b: string, F: Quat) => {
    const A = W(a), B = W(b), anchor = B.position;
    return {
      frameA: { position: r3(quatRotate(quatConj(A.rotation), sub(anchor, A.position))), rotation: r4(quatMul(quatConj(A.rotation), F)) },
      frameB: { position: r3(quatRotate(quatConj(B.rotation), sub(anchor, B.position))), rotation: r4(quatMul(quatConj(B.rotation), F)) },
    };
  };
  // Shoulder twist axis (frame X) along the upper arm (bone +Y): F = R_upper · Rz(90°), which maps X → Y.
  const shoulderF = quatMul(W('upper_arm').rotation, quatFromAxisAngle([0, 0, 1], Math.PI / 2));
  const joints: RigJoint[] = [
    { type: 'ball', name: 'shoulder', bodyA: 'body', bodyB: 'upper_arm', ...frames('body', 'upper_arm', shoulderF),
      collideConnected: false, twistLimit: [round(-50 * DEG), round(50 * DEG)], swingLimit: [round(T.shoulderSwingDeg * DEG), round(T.shoulderSwingDeg * DEG)],
      motor: motor(T.shoulderMaxTorque) },
    // Elbow and wrist: frame X = world X (the bones' local X); + angle folds the arm further.
    { type: 'hinge', name: 'elbow', bodyA: 'upper_arm', bodyB: 'forearm', ...frames('upper_arm', 'forearm', W('upper_arm').rotation),
      collideConnected: false, limit: [round(-65 * DEG), round(80 * DEG)], motor: motor(T.elbowMaxTorque) },
    { type: 'hinge', name: 'wrist', bodyA: 'forearm', bodyB: 'hand', ...frames('forearm', 'hand', W('forearm').rotation),
      collideConnected: false, limit: [round(-60 * DEG), round(75 * DEG)], motor: motor(T.wristMaxTorque) },
  ];

  return {
    $schema: '../../shared/rig/rig.schema.json',
    format: RIG_FORMAT, version: RIG_VERSION, name: 'armed-mine',
    units: RIG_UNITS, axes: RIG_AXES, solver: 'rigid',
    skeleton: { bones },
    bodies, joints,
    controllers: [{
      name: 'hand-path', type: 'cyclicPath', root: 'body', chain: ['shoulder', 'elbow', 'wrist'],
      effector: { body: 'hand', offset: [0, round(handLen - 0.01), 0] },
      controlPoints: T.controlPoints.map(r3), rate: T.rate, phaseOffset: 0, interpolation: 'centripetal-catmull-rom',
      pole: r3(T.pole),
      steering: {
        target: T.steering.target, gain: T.steering.gain, maxAngle: T.steering.maxAngle,
        window: T.steering.window, rateGain: T.steering.rateGain, pivotLead: T.steering.pivotLead,
        stopRadius: T.steering.stopRadius, arriveRadius: T.steering.arriveRadius, restartRadius: T.steering.restartRadius,
        minStroke: T.steering.minStroke, restPoint: r3(T.steering.restPoint),
      },
      righting: T.righting,
      enabled: true,
    }],
    simulation: {
      gravity: [0, -9.81, 0], dt: round(1 / 60), substeps: 2, velocityIterations: 8, positionIterations: 2,
      ground: { height: 0, friction: 1, restitution: 0 },
    },
  };
}

type Shape = RigBody['shapes'][number];

/** The mine's body: the shell, the optional flat foot, the optional ballast inside the shell. */
function mineShapes(T: typeof ARMED_MINE_TUNING): Shape[] {
  const shapes: Shape[] = [{ type: 'sphere', position: [0, 0, 0], rotation: [0, 0, 0, 1], radius: 0.35, hollow: false }];
  if (T.footHalfWidth > 0) {
    shapes.push({ type: 'box', position: [0, round(-0.35 + T.footHalfHeight), 0], rotation: [0, 0, 0, 1], halfExtents: [T.footHalfWidth, T.footHalfHeight, T.footHalfWidth] });
  }
  if (T.ballastMass > 0) {
    if (Math.abs(T.ballastY) + T.ballastRadius > 0.35) throw new Error(`armed-mine tuning: the ballast (radius ${T.ballastRadius} m at y ${T.ballastY} m) sticks out of the 0.35 m shell`);
    shapes.push({ type: 'sphere', position: [0, round(T.ballastY), 0], rotation: [0, 0, 0, 1], radius: T.ballastRadius, hollow: false, mass: T.ballastMass });
  }
  return shapes;
}

// ------------------------------------------------------------------------------------------- CLI

async function main(): Promise<void> {
  const { creatureFile, writeOrCheckRig } = await import('./rigFile');
  const bones = armedMineBones({ name: 'armed-mine.gltf', bytes: await creatureFile('armed-mine.gltf'), resources: { 'armed-mine.bin': await creatureFile('armed-mine.bin') } });
  await writeOrCheckRig(armedMineRig(bones), 'armed-mine.rig.json', 'assets/scripts/armed-mine-rig.ts');
}

if (import.meta.url === `file://${process.argv[1]}`) main().catch((e: unknown) => { console.error(e); process.exit(1); });
