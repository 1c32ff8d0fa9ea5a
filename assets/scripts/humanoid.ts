/** A simple humanoid for ragdoll work: 13 bones (pelvis, spine, head, upper_arm/forearm/thigh/shin/foot
 *  left and right), 1.80 m tall, T-pose, standing on y = 0, facing +Z, +X is the character's left.
 *  Local +Y of every bone runs along the bone toward its child (feet: toward the toes). Local +Z points
 *  forward on spine, arms and legs (up on the feet), so elbows, knees and ankles hinge about local X. */
import { add, scale, sub, normalize, type Quat, type ReadonlyVec3, type Vec3 } from '../../shared/math';
import type { BoneSpec, ClipSpec, CreatureSpec } from './creatureSpec';
import { MeshPart, blendedWeights, box, capsule, frameAlong, rigid, sphere, taperedCylinder, type JointBlend } from './meshBuilder';

export const HUMANOID_HEIGHT = 1.8;
const THIGH = 0.42, SHIN = 0.41;

export function humanoid(): CreatureSpec {
  const up: Vec3 = [0, 1, 0], down: Vec3 = [0, -1, 0], left: Vec3 = [1, 0, 0], right: Vec3 = [-1, 0, 0], fwd: Vec3 = [0, 0, 1];
  const I: Quat = [0, 0, 0, 1];
  // Roll hints chosen so local +Z ends up world +Z (forward) on arms and legs, world +Y on the feet.
  const armL = frameAlong(left, down), armR = frameAlong(right, up), leg = frameAlong(down, right), foot = frameAlong(fwd, right);

  const hipL: Vec3 = [0.1, 0.92, 0], hipR: Vec3 = [-0.1, 0.92, 0];
  const shoulderL: Vec3 = [0.18, 1.44, 0], shoulderR: Vec3 = [-0.18, 1.44, 0];
  const bones: BoneSpec[] = [
    { name: 'pelvis', parent: null, head: [0, 0.95, 0], rotation: I },
    { name: 'spine', parent: 'pelvis', head: [0, 1.08, 0], rotation: I },
    { name: 'head', parent: 'spine', head: [0, 1.57, 0], rotation: I },
    { name: 'upper_arm_l', parent: 'spine', head: shoulderL, rotation: armL },
    { name: 'forearm_l', parent: 'upper_arm_l', head: add(shoulderL, [0.29, 0, 0]), rotation: armL },
    { name: 'upper_arm_r', parent: 'spine', head: shoulderR, rotation: armR },
    { name: 'forearm_r', parent: 'upper_arm_r', head: add(shoulderR, [-0.29, 0, 0]), rotation: armR },
    { name: 'thigh_l', parent: 'pelvis', head: hipL, rotation: leg },
    { name: 'shin_l', parent: 'thigh_l', head: add(hipL, [0, -THIGH, 0]), rotation: leg },
    { name: 'foot_l', parent: 'shin_l', head: add(hipL, [0, -THIGH - SHIN, 0]), rotation: foot },
    { name: 'thigh_r', parent: 'pelvis', head: hipR, rotation: leg },
    { name: 'shin_r', parent: 'thigh_r', head: add(hipR, [0, -THIGH, 0]), rotation: leg },
    { name: 'foot_r', parent: 'shin_r', head: add(hipR, [0, -THIGH - SHIN, 0]), rotation: foot },
  ];
  const idx = (n: string) => bones.findIndex((b) => b.name === n);
  const head = (n: string) => bones[idx(n)]!.head;
  const rot = (n: string) => bones[idx(n)]!.rotation;

  const skin = new MeshPart('mannequin');
  const accent = new MeshPart('accent');
  const blend = (other: string, at: ReadonlyVec3, toward: ReadonlyVec3, hw: number): JointBlend =>
    ({ otherBone: idx(other), position: at, towardOther: toward, halfWidth: hw });

  // --- trunk: pelvis block, torso widening to the shoulders, neck, head with a nose (shows +Z)
  const waist: Vec3 = [0, 1.06, 0], neck = head('head');
  skin.add(taperedCylinder(0.15, 0.14, 0.22, 24, 4, 0.65), { position: [0, 0.85, 0], rotation: I },
    blendedWeights(idx('pelvis'), [blend('spine', waist, up, 0.05)]));
  skin.add(taperedCylinder(0.135, 0.19, 0.4, 24, 8, 0.6), { position: [0, 1.03, 0], rotation: I },
    blendedWeights(idx('spine'), [blend('pelvis', waist, down, 0.05)]));
  skin.add(taperedCylinder(0.19, 0.07, 0.1, 24, 2, 0.6), { position: [0, 1.43, 0], rotation: I }, rigid(idx('spine')));
  skin.add(taperedCylinder(0.05, 0.045, 0.13, 12, 4), { position: [0, 1.5, 0], rotation: I },
    blendedWeights(idx('spine'), [blend('head', neck, up, 0.03)]));
  skin.add(sphere(0.115, 24, 16, [0.85, 1, 0.95]), { position: [0, 1.685, 0.01], rotation: I }, rigid(idx('head')));
  accent.add(box([0.03, 0.035, 0.04], [0, 1.675, 0.12]), { position: [0, 0, 0], rotation: I }, rigid(idx('head')));

  // --- arms: capsules overlapping at the joints, blended over ±5 cm; flat hands on the forearms
  for (const side of ['l', 'r'] as const) {
    const upper = `upper_arm_${side}`, fore = `forearm_${side}`;
    const dir = side === 'l' ? left : right;
    const s = head(upper), e = head(fore), w = add(e, scale(dir, 0.26));
    skin.add(capsule(0.05, 0.34, 16, 6), { position: sub(s, scale(dir, 0.025)), rotation: rot(upper) },
      blendedWeights(idx(upper), [blend('spine', add(s, scale(dir, 0.02)), scale(dir, -1), 0.05), blend(fore, e, dir, 0.04)]));
    skin.add(capsule(0.042, 0.3, 16, 6), { position: sub(e, scale(dir, 0.02)), rotation: rot(fore) },
      blendedWeights(idx(fore), [blend(upper, e, scale(dir, -1), 0.04)]));
    accent.add(box([0.03, 0.17, 0.08], [0, 0.085, 0]), { position: w, rotation: rot(fore) }, rigid(idx(fore)));
  }

  // --- legs: thigh and shin capsules, box feet with the sole on y = 0
  for (const side of ['l', 'r'] as const) {
    const thigh = `thigh_${side}`, shin = `shin_${side}`, footName = `foot_${side}`;
    const h = head(thigh), k = head(shin), a = head(footName);
    skin.add(capsule(0.07, THIGH + 0.08, 16, 8), { position: add(h, [0, 0.04, 0]), rotation: rot(thigh) },
      blendedWeights(idx(thigh), [blend('pelvis', add(h, [0, -0.02, 0]), up, 0.05), blend(shin, k, down, 0.05)]));
    skin.add(capsule(0.055, SHIN + 0.04, 16, 8), { position: add(k, [0, 0.02, 0]), rotation: rot(shin) },
      blendedWeights(idx(shin), [blend(thigh, k, up, 0.05), blend(footName, add(a, [0, 0.03, 0]), down, 0.03)]));
    // Foot frame: local Y = world +Z (toward the toes), local Z = world +Y; the ankle is 9 cm up.
    accent.add(box([0.09, 0.25, a[1]], [0, 0.065, -a[1] / 2]), { position: a, rotation: rot(footName) }, rigid(idx(footName)));
  }

  return {
    name: 'humanoid',
    bones,
    materials: {
      mannequin: { color: [0.62, 0.66, 0.72], metallic: 0, roughness: 0.6 },
      accent: { color: [0.16, 0.2, 0.3], metallic: 0.1, roughness: 0.55 },
    },
    parts: [skin, accent],
    clips: [wave(), squat()],
  };
}

/** Right arm raised from the T-pose, forearm waving about the forward axis; 2 s, loops. Right-arm local
 *  Z is world +Z, and a negative rotation about it lifts the arm. */
function wave(): ClipSpec {
  const raise: Vec3 = [0, 0, -1.1];
  return {
    name: 'wave',
    times: [0, 0.4, 0.7, 1.0, 1.3, 1.6, 2.0],
    rotations: {
      upper_arm_r: [[0, 0, 0], raise, raise, raise, raise, raise, [0, 0, 0]],
      forearm_r: [[0, 0, 0], [0, 0, -0.9], [0, 0, -0.3], [0, 0, -0.9], [0, 0, -0.3], [0, 0, -0.9], [0, 0, 0]],
      head: [[0, 0, 0], [0, -0.2, 0], [0, -0.2, 0], [0, -0.2, 0], [0, -0.2, 0], [0, -0.2, 0], [0, 0, 0]],
    },
  };
}

/** Squat down and up in 2 s with the feet kept flat on the floor: hip flexion a(t) = 1 rad·sin²(πt/2),
 *  knee 2a, ankle a, so the shin and thigh tilt by a from vertical in opposite directions; the pelvis
 *  drops by (thigh + shin)(1 − cos a) and moves by (shin − thigh)·sin a along z, which keeps the ankles
 *  exactly where they were at every key. Leg local X is world −X: +a about it swings the thigh forward. */
function squat(): ClipSpec {
  const times: number[] = [], pelvis: Vec3[] = [], hip: Vec3[] = [], knee: Vec3[] = [], ankle: Vec3[] = [], spine: Vec3[] = [];
  for (let i = 0; i <= 8; i++) {
    const t = i * 0.25;
    const a = Math.sin((Math.PI * t) / 2) ** 2;
    times.push(t);
    pelvis.push([0, -(THIGH + SHIN) * (1 - Math.cos(a)), (SHIN - THIGH) * Math.sin(a)]);
    hip.push([a, 0, 0]);
    knee.push([-2 * a, 0, 0]);
    ankle.push([a, 0, 0]);
    spine.push([0.45 * a, 0, 0]);
  }
  return {
    name: 'squat',
    times,
    rotations: { spine, thigh_l: hip, thigh_r: hip, shin_l: knee, shin_r: knee, foot_l: ankle, foot_r: ankle },
    translations: { pelvis },
  };
}

export const humanoidForward = normalize([0, 0, 1]);
