/** The Armed Mine (seed 000): a spiked, riveted sphere resting on the floor with one mechanical arm on
 *  its upper front. Bones body → upper_arm → forearm → hand (shoulder ball, elbow hinge about X, wrist).
 *  Faces +Z, +Y up, metres. Local +Y of every arm bone runs along the bone; local +X is world +X, so
 *  the elbow and wrist hinge axis is the bones' local X. */
import { add, dot, normalize, quatFromAxisAngle, quatMul, quatRotate, scale, type Quat, type Vec3 } from '../../shared/math';
import type { BoneSpec, CreatureSpec } from './creatureSpec';
import { MeshPart, blendedWeights, box, frameAlong, rigid, sphere, taperedCylinder } from './meshBuilder';

export const MINE_RADIUS = 0.35;
export const UPPER_ARM_LENGTH = 0.45;
export const FOREARM_LENGTH = 0.4;
export const HAND_LENGTH = 0.16;

const deg = (d: number) => (d * Math.PI) / 180;
const X: Vec3 = [1, 0, 0];

export function armedMine(): CreatureSpec {
  const centre: Vec3 = [0, MINE_RADIUS, 0];
  // Shoulder 40° above the equator on the front, just outside the shell.
  const shoulderDir: Vec3 = [0, Math.sin(deg(40)), Math.cos(deg(40))];
  const shoulder = add(centre, scale(shoulderDir, MINE_RADIUS + 0.01));
  // Rest pose: upper arm 20° above forward, forearm 50° below forward, hand 70° below forward — an arch
  // over the front, bent in the YZ plane so the elbow and wrist hinges are about X.
  const upperDir: Vec3 = [0, Math.sin(deg(20)), Math.cos(deg(20))];
  const foreDir: Vec3 = [0, -Math.sin(deg(50)), Math.cos(deg(50))];
  const handDir: Vec3 = [0, -Math.sin(deg(70)), Math.cos(deg(70))];
  const elbow = add(shoulder, scale(upperDir, UPPER_ARM_LENGTH));
  const wrist = add(elbow, scale(foreDir, FOREARM_LENGTH));

  const bones: BoneSpec[] = [
    { name: 'body', parent: null, head: centre, rotation: [0, 0, 0, 1] },
    { name: 'upper_arm', parent: 'body', head: shoulder, rotation: frameAlong(upperDir, X) },
    { name: 'forearm', parent: 'upper_arm', head: elbow, rotation: frameAlong(foreDir, X) },
    { name: 'hand', parent: 'forearm', head: wrist, rotation: frameAlong(handDir, X) },
  ];
  const [BODY, UPPER, FORE, HAND] = [0, 1, 2, 3];
  const rot = (i: number): Quat => bones[i]!.rotation;

  const shell = new MeshPart('mine-shell');
  const arm = new MeshPart('arm-metal');
  const accent = new MeshPart('accent');
  const identity: Quat = [0, 0, 0, 1];

  // --- body: shell, spikes, riveted equator band, sensor lens, shoulder socket
  shell.add(sphere(MINE_RADIUS, 32, 20), { position: centre, rotation: identity }, rigid(BODY));
  // Spikes on a Fibonacci sphere (golden-angle spiral: deterministic, evenly spread); none on the
  // underside (so it rests on the shell) and none near the shoulder (the arm must swing freely).
  const spikeCount = 30;
  for (let i = 0; i < spikeCount; i++) {
    const y = 1 - (2 * (i + 0.5)) / spikeCount;
    const r = Math.sqrt(1 - y * y);
    const th = i * Math.PI * (3 - Math.sqrt(5));
    const n: Vec3 = [r * Math.sin(th), y, r * Math.cos(th)];
    if (n[1] < -0.3 || dot(n, shoulderDir) > Math.cos(deg(38))) continue;
    shell.add(taperedCylinder(0.032, 0.004, 0.11, 10, 1), { position: add(centre, scale(n, MINE_RADIUS - 0.01)), rotation: frameAlong(n, anyHint(n)) }, rigid(BODY));
  }
  accent.add(taperedCylinder(MINE_RADIUS + 0.008, MINE_RADIUS + 0.008, 0.05, 48, 1), { position: add(centre, [0, -0.025, 0]), rotation: identity }, rigid(BODY));
  const rivets = 16;
  for (let i = 0; i < rivets; i++) {
    const th = (2 * Math.PI * i) / rivets;
    const n: Vec3 = [Math.sin(th), 0, Math.cos(th)];
    arm.add(sphere(0.014, 8, 5), { position: add(centre, scale(n, MINE_RADIUS + 0.01)), rotation: identity }, rigid(BODY));
  }
  const lensDir = normalize([0, -0.05, 1]);
  accent.add(sphere(0.06, 16, 10, [1, 1, 0.45]), { position: add(centre, scale(lensDir, MINE_RADIUS - 0.005)), rotation: frameAlong([0, 1, 0], X) }, rigid(BODY));
  accent.add(sphere(0.09, 16, 10), { position: add(centre, scale(shoulderDir, MINE_RADIUS - 0.02)), rotation: identity }, rigid(BODY));

  // --- arm: ball at the shoulder, tapered segments, hinge discs at elbow and wrist
  arm.add(sphere(0.07, 16, 10), { position: shoulder, rotation: rot(UPPER) }, rigid(UPPER));
  arm.add(taperedCylinder(0.06, 0.045, UPPER_ARM_LENGTH, 16, 9, 0.8), { position: shoulder, rotation: rot(UPPER) },
    blendedWeights(UPPER, [
      { otherBone: BODY, position: add(shoulder, scale(upperDir, 0.03)), towardOther: scale(upperDir, -1), halfWidth: 0.05 },
      { otherBone: FORE, position: elbow, towardOther: upperDir, halfWidth: 0.05 },
    ]));
  accent.add(taperedCylinder(0.065, 0.065, 0.11, 20, 1), { position: add(elbow, [-0.055, 0, 0]), rotation: frameAlong(X, [0, 1, 0]) }, rigid(UPPER));
  arm.add(taperedCylinder(0.048, 0.036, FOREARM_LENGTH, 16, 8, 0.8), { position: elbow, rotation: rot(FORE) },
    blendedWeights(FORE, [
      { otherBone: UPPER, position: elbow, towardOther: scale(foreDir, -1), halfWidth: 0.05 },
      { otherBone: HAND, position: wrist, towardOther: foreDir, halfWidth: 0.04 },
    ]));
  accent.add(taperedCylinder(0.045, 0.045, 0.09, 16, 1), { position: add(wrist, [-0.045, 0, 0]), rotation: frameAlong(X, [0, 1, 0]) }, rigid(FORE));

  // --- hand: palm plate and a three-finger claw with an opposed thumb, curled toward the palm (+Z local)
  const handFrame = { position: wrist, rotation: rot(HAND) };
  arm.add(box([0.11, 0.085, 0.035], [0, 0.05, 0], 3), handFrame,
    blendedWeights(HAND, [{ otherBone: FORE, position: wrist, towardOther: scale(handDir, -1), halfWidth: 0.025 }]));
  for (const [x, curl] of [[-0.037, 1], [0, 1], [0.037, 1], [0, -1]] as const) {
    const thumb = curl < 0;
    const base: Vec3 = thumb ? [0, 0.03, 0.02] : [x, 0.09, 0];
    const bend1 = quatFromAxisAngle(X, thumb ? deg(-60) : deg(15));
    const seg1 = thumb ? 0.045 : 0.05;
    const q1 = quatMul(rot(HAND), bend1);
    const p1 = add(wrist, quatRotate(rot(HAND), base));
    arm.add(taperedCylinder(0.014, 0.011, seg1, 8, 1), { position: p1, rotation: q1 }, rigid(HAND));
    const q2 = quatMul(q1, quatFromAxisAngle(X, thumb ? deg(-40) : deg(40)));
    const p2 = add(p1, quatRotate(q1, [0, seg1, 0]));
    accent.add(taperedCylinder(0.011, 0.002, 0.045, 8, 1), { position: p2, rotation: q2 }, rigid(HAND));
  }

  return {
    name: 'armed-mine',
    bones,
    materials: {
      'mine-shell': { color: [0.09, 0.1, 0.11], metallic: 0.85, roughness: 0.45 },
      'arm-metal': { color: [0.55, 0.57, 0.6], metallic: 0.9, roughness: 0.32 },
      accent: { color: [0.95, 0.42, 0.06], metallic: 0.2, roughness: 0.5 },
    },
    parts: [shell, arm, accent],
    clips: [{
      // Reach forward and down to the floor and back (loops: first key = last key = rest).
      name: 'reach',
      times: [0, 0.4, 0.8, 1.2, 1.6],
      rotations: {
        upper_arm: [[0, 0, 0], [0.35, 0, 0.15], [0.6, 0, 0], [0.35, 0, -0.15], [0, 0, 0]],
        forearm: [[0, 0, 0], [-0.3, 0, 0], [-0.55, 0, 0], [-0.3, 0, 0], [0, 0, 0]],
        hand: [[0, 0, 0], [0.2, 0, 0], [0.45, 0, 0], [0.2, 0, 0], [0, 0, 0]],
      },
    }],
  };
}


const anyHint = (n: Vec3): Vec3 => (Math.abs(n[0]) < 0.9 ? X : [0, 1, 0]);
