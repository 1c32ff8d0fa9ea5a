/**
 * Generates assets/creatures/hexapod.rig.json — the Hexapod's powered ragdoll with a six-legged tripod gait —
 * from the skeleton in assets/creatures/hexapod.glb plus the tuned numbers below. Deterministic: same glb,
 * same bytes.
 *
 *   npx tsx assets/scripts/hexapod-rig.ts            (writes the file)
 *   npx tsx assets/scripts/hexapod-rig.ts --check    (exit 1 if the file on disk differs)
 *
 * Creature (assets/scripts/hexapod.ts): a 0.56 × 0.28 m body 0.13 m up, six legs thigh (hip: ball) → shin
 * (knee: hinge about the bones' local X). One cyclicPath controller per leg, all on the body: the limbs of
 * one root share one steering law (shared/gait/gaitGroup.ts) and turn by stroke direction; the phase
 * offsets come from the 'tripod' preset (shared/authoring/gaitPresets.ts).
 *
 * Tuning, and why (figures in docs/locomotion.md "Multi-limb gaits"):
 *  - masses for the mass-ratio check (≤ 10× in mass and in largest inertia across each joint): the body is
 *    a light box hull plus a compact 3 kg ballast at its centre (a 3.5 kg box alone would have 17× a
 *    thigh's inertia); the thighs carry 0.22 kg end weights (actuator housings) so their inertia is not
 *    tiny: hips 5.8× in mass, 8.3× in inertia.
 *  - motors 'pd' with kp = 2·τmax per rad (60 / 40 N·m/rad at τmax 30 / 20 N·m) and kd = 0.05 s·kp. Stiffer
 *    (kp = 6.7·τmax, what Generate gives the humanoid) and the 'position' drive (r 0.5, as on the Armed
 *    Mine) both stand still at rest but shake apart once the legs move: a 1 kg leg on a stiff servo, its
 *    thigh's twist inertia about 0.0005 kg·m², overshoots by 20–40° per step and the body tips past 40°.
 *    At 2·τmax the feet track their paths within a few cm.
 *  - belly friction 0.1: when fewer than three feet are down the body rests on its belly and slides; feet
 *    μ 1.0 grip.
 *  - each foot's path: a loop around its rest position, the floor stroke 0.18 m long at 1 cm ABOVE the foot's
 *    touching height, lifted 10 cm on the swing; 0.9 cycles/s, tripod phases. The feet reach the floor as
 *    the soft legs sag under the body. Pressing 1.5 cm into the floor instead (as the Armed Mine's hand
 *    does) made the tripods lever the body onto its side: the legs of the high side reached for a floor
 *    below them and pushed it higher, and the body crawled rolled 37° (median) to one side; 1 cm above,
 *    the roll is 7–8° median and stays under 20°.
 *  - steering (one law for the six legs): gain 1, limit 0.8 rad (a = 0.51 of a turn on the spot at most),
 *    window 1 cycle. Gain 1.5 / 1.2 rad weaved ±40°. Figures in docs/locomotion.md.
 *  - arrival (the group's, from the first leg's numbers): slow from 1 m (stroke down to ½ at the stop
 *    radius), stop within 0.5 m, restart beyond 1 m; stopped, the feet rise to the top of their loops and the
 *    body sets down on its belly (the group's default rest point). Standing on the feet instead crept 3 cm/s.
 */
import { quatConj, quatFromAxisAngle, quatMul, quatNormalize, quatRotate, type Quat } from '../../shared/math/quat';
import { sub, type Vec3 } from '../../shared/math/vec3';
import { round3v, round9 } from '../../shared/authoring/frames';
import { rigBonesFromSkeleton } from '../../shared/authoring/fromCreature';
import { applyGaitPreset } from '../../shared/authoring/gaitPresets';
import { boneRestWorld } from '../../shared/rig/restPose';
import { RIG_AXES, RIG_FORMAT, RIG_UNITS, RIG_VERSION, type Bone, type RigBody, type RigController, type RigDocument, type RigJoint, type RigMotor } from '../../shared/rig/schema';
import { parseSkeleton, type CreatureSource } from '../../shared/skeleton';
import { FOOT_RADIUS, HEXAPOD_BODY, LEG_ROWS, LEG_SIDES, SHIN_LENGTH, THIGH_LENGTH } from './hexapod';

const DEG = Math.PI / 180;
const round = round9;
const r3 = (v: readonly number[]) => round3v(v as Vec3);
const r4 = (q: readonly number[]): [number, number, number, number] => { const n = quatNormalize(q as Quat); return [round(n[0]), round(n[1]), round(n[2]), round(n[3])]; };

export const HEXAPOD_TUNING = {
  bodyMass: 3.5, bodyFriction: 0.1, bodyAngularDamping: 1,
  /** Ballast (kg, part of bodyMass): a solid sphere of ballastRadius (m) at the body's centre. */
  ballastMass: 3, ballastRadius: 0.045,
  thighMass: 0.6, thighEndMass: 0.22, shinMass: 0.45, endMass: 0.18, endRadius: 0.012, footFriction: 1.0, legAngularDamping: 0.2,
  hipMaxTorque: 30, kneeMaxTorque: 20, hipTwistDeg: 30, hipSwingDeg: 70, errorReduction: 0.5,
  motorMode: 'pd' as 'pd' | 'position', pdStiffness: 2, pdDampingTime: 0.05, jointCorrection: 'shake' as 'shake' | undefined,
  rate: 0.9,
  /** Foot path about the rest foot position: stroke length, lift, press into the floor (m). */
  stroke: 0.18, lift: 0.1, press: -0.01,
  steering: { target: [0, 0, 8] as [number, number, number], gain: 1, maxAngle: 0.8, window: 1, rateGain: 0, stopRadius: 0.5, arriveRadius: 1 },
};

export function hexapodBones(file: CreatureSource): Bone[] {
  return rigBonesFromSkeleton(parseSkeleton(file, { duplicateNames: 'refuse' }));
}

/** A 'pd' motor (stiffness kp = pdStiffness·τmax per rad, damping kp·pdDampingTime) or a 'position' one. */
const motor = (maxTorque: number, T: typeof HEXAPOD_TUNING): RigMotor => (T.motorMode === 'pd'
  ? { mode: 'pd', target: { source: 'controller' }, maxTorque, errorReduction: T.errorReduction, stiffness: round(T.pdStiffness * maxTorque), damping: round(T.pdStiffness * maxTorque * T.pdDampingTime), frictionTorque: 0 }
  : { mode: 'position', target: { source: 'controller' }, maxTorque, errorReduction: T.errorReduction, stiffness: 0, damping: 0, frictionTorque: 0 });

export function hexapodRig(bones: Bone[], tuning: Partial<typeof HEXAPOD_TUNING> = {}): RigDocument {
  const T = { ...HEXAPOD_TUNING, ...tuning };
  const legs = LEG_ROWS.flatMap((row) => LEG_SIDES.map((side) => ({ thigh: `thigh_${side.s}${row.k}`, shin: `shin_${side.s}${row.k}`, name: `${side.s}${row.k}` })));
  for (const need of ['body', ...legs.flatMap((l) => [l.thigh, l.shin])]) {
    if (!bones.some((b) => b.name === need)) throw new Error(`hexapod.glb: bone "${need}" is missing (found ${bones.map((b) => b.name).join(', ')})`);
  }
  const world = boneRestWorld(bones);
  const W = (name: string) => world.get(name)!;
  const identity = { position: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] };
  const body = (name: string, shapes: RigBody['shapes'], mass: number, friction: number, angularDamping: number): RigBody => ({
    name, bone: name, type: 'dynamic', offset: identity, shapes, mass, density: null,
    material: { friction, restitution: 0 }, linearDamping: 0.05, angularDamping, collisionGroup: 1, collisionMask: 0xffffffff,
  });
  const capsule = (from: number, to: number, radius: number): RigBody['shapes'][number] => ({
    type: 'capsule', position: [0, round((from + to) / 2), 0], rotation: [0, 0, 0, 1], radius, halfHeight: round(Math.max(0, (to - from) / 2 - radius)), axis: 'y',
  });
  const weight = (y: number, mass = T.endMass): RigBody['shapes'][number] => ({ type: 'sphere', position: [0, round(y), 0], rotation: [0, 0, 0, 1], radius: T.endRadius, hollow: false, mass });
  const B = HEXAPOD_BODY;
  const bodies: RigBody[] = [body('body', [
    { type: 'box', position: [0, 0, 0], rotation: [0, 0, 0, 1], halfExtents: [B.halfWidth, B.halfHeight, B.halfLength] },
    { type: 'sphere', position: [0, 0, 0], rotation: [0, 0, 0, 1], radius: T.ballastRadius, hollow: false, mass: T.ballastMass },
  ], T.bodyMass, T.bodyFriction, T.bodyAngularDamping)];
  const inset = T.endRadius + 0.008;
  for (const l of legs) {
    // Thigh: a capsule from just outside the hip to the knee, weights at both ends. Shin: capsule to the
    // foot ball, a weight near the knee; the foot ball is the gripping shape.
    bodies.push(body(l.thigh, [capsule(0.03, THIGH_LENGTH, 0.026), weight(inset + 0.03, T.thighEndMass), weight(THIGH_LENGTH - inset, T.thighEndMass)], T.thighMass, 0.6, T.legAngularDamping));
    bodies.push(body(l.shin, [capsule(0.02, SHIN_LENGTH - FOOT_RADIUS, 0.018), weight(inset + 0.02),
      { type: 'sphere', position: [0, round(SHIN_LENGTH), 0], rotation: [0, 0, 0, 1], radius: FOOT_RADIUS, hollow: false, mass: T.endMass }],
    T.shinMass, T.footFriction, T.legAngularDamping));
  }

  const frames = (a: string, b: string, F: Quat) => {
    const A = W(a), Bw = W(b), anchor = Bw.position;
    return {
      frameA: { position: r3(quatRotate(quatConj(A.rotation), sub(anchor, A.position))), rotation: r4(quatMul(quatConj(A.rotation), F)) },
      frameB: { position: r3(quatRotate(quatConj(Bw.rotation), sub(anchor, Bw.position))), rotation: r4(quatMul(quatConj(Bw.rotation), F)) },
    };
  };
  const joints: RigJoint[] = [];
  const controllers: RigController[] = [];
  const bodyPos = W('body').position;
  const floorY = -bodyPos[1]; // the floor in the body's frame (the body's rest rotation is the identity)
  for (const l of legs) {
    // Hip: ball, twist axis (frame X) along the thigh: F = R_thigh · Rz(90°) maps X → the bone's +Y.
    const hipF = quatMul(W(l.thigh).rotation, quatFromAxisAngle([0, 0, 1], Math.PI / 2));
    joints.push({ type: 'ball', name: `hip_${l.name}`, bodyA: 'body', bodyB: l.thigh, ...frames('body', l.thigh, hipF),
      collideConnected: false, twistLimit: [round(-T.hipTwistDeg * DEG), round(T.hipTwistDeg * DEG)], swingLimit: [round(T.hipSwingDeg * DEG), round(T.hipSwingDeg * DEG)],
      motor: motor(T.hipMaxTorque, T) });
    // Knee: hinge about the bones' local X.
    joints.push({ type: 'hinge', name: `knee_${l.name}`, bodyA: l.thigh, bodyB: l.shin, ...frames(l.thigh, l.shin, W(l.thigh).rotation),
      collideConnected: false, limit: [round(-80 * DEG), round(80 * DEG)], motor: motor(T.kneeMaxTorque, T) });
    // The foot's rest position in the body frame: the shin tip.
    const shin = W(l.shin);
    const foot = sub(quatRotate(shin.rotation, [0, SHIN_LENGTH, 0]) as Vec3, [0, 0, 0]);
    const fx = shin.position[0] + foot[0] - bodyPos[0], fz = shin.position[2] + foot[2] - bodyPos[2];
    const low = floorY + FOOT_RADIUS - T.press, h = T.stroke / 2;
    // Floor stroke front → back, lift at the back, swing forward over the top, touch down at the front.
    const points: [number, number, number][] = [
      [fx, low, fz + h], [fx, low, fz], [fx, low, fz - h],
      [fx, low + 0.7 * T.lift, fz - 0.8 * h], [fx, low + T.lift, fz], [fx, low + 0.7 * T.lift, fz + 0.8 * h],
    ];
    controllers.push({
      name: `leg_${l.name}`, type: 'cyclicPath', root: 'body', chain: [`hip_${l.name}`, `knee_${l.name}`],
      effector: { body: l.shin, offset: [0, round(SHIN_LENGTH), 0] },
      controlPoints: points.map(r3), rate: T.rate, phaseOffset: 0, interpolation: 'centripetal-catmull-rom',
      // Knee pole: 0.6 m above the foot's rest point, so the knee bends up.
      pole: r3([fx, floorY + 0.6, fz]),
      steering: { target: T.steering.target, gain: T.steering.gain, maxAngle: T.steering.maxAngle, window: T.steering.window, rateGain: T.steering.rateGain,
        stopRadius: T.steering.stopRadius, arriveRadius: T.steering.arriveRadius },
      enabled: true,
    });
  }

  const rig: RigDocument = {
    $schema: '../../shared/rig/rig.schema.json',
    format: RIG_FORMAT, version: RIG_VERSION, name: 'hexapod',
    units: RIG_UNITS, axes: RIG_AXES, solver: 'rigid',
    skeleton: { bones },
    bodies, joints, controllers,
    simulation: {
      gravity: [0, -9.81, 0], dt: round(1 / 60), substeps: 2, velocityIterations: 8, positionIterations: 2,
      ...(T.jointCorrection ? { jointCorrection: T.jointCorrection } : {}),
      ground: { height: 0, friction: 1, restitution: 0 },
    },
  };
  return applyGaitPreset(rig, 'tripod');
}

async function main(): Promise<void> {
  const { creatureFile, writeOrCheckRig } = await import('./rigFile');
  const bones = hexapodBones({ name: 'hexapod.glb', bytes: await creatureFile('hexapod.glb') });
  await writeOrCheckRig(hexapodRig(bones), 'hexapod.rig.json', 'assets/scripts/hexapod-rig.ts');
}

if (import.meta.url === `file://${process.argv[1]}`) main().catch((e: unknown) => { console.error(e); process.exit(1); });
