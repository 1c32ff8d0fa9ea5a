/** The Hexapod: a flat armoured body with six two-segment legs, three a side (front, middle, back), for the
 *  multi-limb gaits (docs/locomotion.md "Multi-limb gaits"). Bones body → thigh_SK → shin_SK with side S =
 *  l (+X, the creature's left) or r, and K = 1 (front), 2 (middle), 3 (back): hip ball joint at the body's
 *  side, knee hinge. Each leg lies in a vertical plane through its hip, splayed: the front legs point 25°
 *  forward of sideways, the back legs 25° back. Local +Y of every leg bone runs along the bone; its local
 *  +X is the knee's hinge axis (horizontal, across the leg's plane). Faces +Z, +Y up, metres; the feet
 *  (spheres at the shin tips) touch y = 0. */
import { add, cross, normalize, scale, type Quat, type Vec3 } from '../../shared/math';
import type { BoneSpec, CreatureSpec } from './creatureSpec';
import { MeshPart, blendedWeights, box, frameAlong, rigid, sphere, taperedCylinder } from './meshBuilder';

/** Body: half extents (m) of its box and the height of its centre above the floor. */
export const HEXAPOD_BODY = { halfWidth: 0.14, halfHeight: 0.05, halfLength: 0.28, height: 0.13 };
export const THIGH_LENGTH = 0.2;
export const SHIN_LENGTH = 0.26;
export const FOOT_RADIUS = 0.03;
/** Hips along the body (z, m) and how far the legs splay forward/back (rad) — front, middle, back. */
export const LEG_ROWS = [{ k: 1, z: 0.2, splay: 25 }, { k: 2, z: 0, splay: 0 }, { k: 3, z: -0.2, splay: -25 }] as const;
export const LEG_SIDES = [{ s: 'l', x: 1 }, { s: 'r', x: -1 }] as const;
/** Thigh elevation above horizontal at rest (deg). */
export const THIGH_ELEVATION = 35;

const deg = (d: number) => (d * Math.PI) / 180;
const Y: Vec3 = [0, 1, 0];

export interface HexapodLeg {
  side: 'l' | 'r'; row: 1 | 2 | 3;
  thigh: string; shin: string;
  hip: Vec3; knee: Vec3; foot: Vec3;
  /** Horizontal outward direction of the leg's plane. */
  out: Vec3;
  /** Knee hinge axis (the leg bones' local +X). */
  axis: Vec3;
}

/** The six legs' rest geometry (world, m). */
export function hexapodLegs(): HexapodLeg[] {
  const B = HEXAPOD_BODY, legs: HexapodLeg[] = [];
  for (const row of LEG_ROWS) {
    for (const side of LEG_SIDES) {
      const a = deg(row.splay);
      const out = normalize([side.x * Math.cos(a), 0, Math.sin(a)]);
      const hip: Vec3 = [side.x * (B.halfWidth + 0.035), B.height, row.z];
      const thighDir = add(scale(out, Math.cos(deg(THIGH_ELEVATION))), scale(Y, Math.sin(deg(THIGH_ELEVATION))));
      const knee = add(hip, scale(thighDir, THIGH_LENGTH));
      const drop = knee[1] - FOOT_RADIUS;
      const reach = Math.sqrt(SHIN_LENGTH * SHIN_LENGTH - drop * drop);
      const foot = add(add(knee, scale(out, reach)), [0, -drop, 0]);
      legs.push({ side: side.s, row: row.k, thigh: `thigh_${side.s}${row.k}`, shin: `shin_${side.s}${row.k}`, hip, knee, foot, out, axis: normalize(cross(out, Y)) });
    }
  }
  return legs;
}

export function hexapod(): CreatureSpec {
  const B = HEXAPOD_BODY;
  const centre: Vec3 = [0, B.height, 0];
  const legs = hexapodLegs();
  const bones: BoneSpec[] = [{ name: 'body', parent: null, head: centre, rotation: [0, 0, 0, 1] }];
  for (const l of legs) {
    bones.push({ name: l.thigh, parent: 'body', head: l.hip, rotation: frameAlong(sub3(l.knee, l.hip), l.axis) });
    bones.push({ name: l.shin, parent: l.thigh, head: l.knee, rotation: frameAlong(sub3(l.foot, l.knee), l.axis) });
  }
  const index = new Map(bones.map((b, i) => [b.name, i]));
  const BODY = 0;
  const identity: Quat = [0, 0, 0, 1];

  const shell = new MeshPart('hexapod-shell');
  const legMetal = new MeshPart('leg-metal');
  const accent = new MeshPart('accent');

  // --- body: a low box hull, a raised spine plate, a head with two sensor eyes, hip sockets.
  shell.add(box([2 * B.halfWidth, 2 * B.halfHeight, 2 * B.halfLength], [0, 0, 0], 2), { position: centre, rotation: identity }, rigid(BODY));
  shell.add(box([1.4 * B.halfWidth, 0.03, 1.6 * B.halfLength], [0, B.halfHeight + 0.015, 0]), { position: centre, rotation: identity }, rigid(BODY));
  shell.add(box([1.2 * B.halfWidth, 1.4 * B.halfHeight, 0.08], [0, 0.005, B.halfLength + 0.04]), { position: centre, rotation: identity }, rigid(BODY));
  for (const x of [-0.05, 0.05]) {
    accent.add(sphere(0.022, 12, 8), { position: add(centre, [x, 0.02, B.halfLength + 0.08]), rotation: identity }, rigid(BODY));
  }
  for (let i = 0; i < 5; i++) {
    accent.add(box([1.45 * B.halfWidth, 0.012, 0.025]), { position: add(centre, [0, B.halfHeight + 0.036, -0.2 + i * 0.1]), rotation: identity }, rigid(BODY));
  }

  // --- legs: hip ball, tapered thigh, knee disc, tapered shin, foot ball.
  for (const l of legs) {
    const T = index.get(l.thigh)!, S = index.get(l.shin)!;
    const thighDir = normalize(sub3(l.knee, l.hip)), shinDir = normalize(sub3(l.foot, l.knee));
    accent.add(sphere(0.042, 12, 8), { position: l.hip, rotation: identity }, rigid(T));
    legMetal.add(taperedCylinder(0.032, 0.026, THIGH_LENGTH, 12, 6), { position: l.hip, rotation: frameAlong(thighDir, l.axis) },
      blendedWeights(T, [{ otherBone: S, position: l.knee, towardOther: thighDir, halfWidth: 0.03 }]));
    accent.add(taperedCylinder(0.036, 0.036, 0.07, 14, 1), { position: add(l.knee, scale(l.axis, -0.035)), rotation: frameAlong(l.axis, thighDir) }, rigid(T));
    legMetal.add(taperedCylinder(0.026, 0.016, SHIN_LENGTH, 12, 6), { position: l.knee, rotation: frameAlong(shinDir, l.axis) },
      blendedWeights(S, [{ otherBone: T, position: l.knee, towardOther: scale(shinDir, -1), halfWidth: 0.03 }]));
    shell.add(sphere(FOOT_RADIUS, 12, 8), { position: l.foot, rotation: identity }, rigid(S));
  }

  return {
    name: 'hexapod',
    bones,
    materials: {
      'hexapod-shell': { color: [0.2, 0.24, 0.2], metallic: 0.6, roughness: 0.5 },
      'leg-metal': { color: [0.62, 0.64, 0.68], metallic: 0.35, roughness: 0.45 },
      accent: { color: [0.95, 0.42, 0.06], metallic: 0.2, roughness: 0.5 },
    },
    parts: [shell, legMetal, accent],
    clips: [],
  };
}

function sub3(a: Vec3, b: Vec3): Vec3 { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
