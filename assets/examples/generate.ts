/**
 * Writes the particle-ragdoll demo scenes of the paper (seed 001, §5) into assets/examples/*.json.
 * Deterministic: same code and humanoid.glb, same bytes.
 *
 *   npx tsx assets/examples/generate.ts           (writes the files)
 *   npx tsx assets/examples/generate.ts --check   (exit 1 if a file on disk differs)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bone } from '../../shared/rig/schema';
import {
  PARTICLE_SCENE_FORMAT, PARTICLE_SCENE_VERSION, type ParticleScene,
} from '../../shared/physics/particles';
import { DEFAULT_PARTICLE_SETTINGS, particleSceneFromSkeleton, type BoneLimits } from '../../shared/runtime/particles';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEG = Math.PI / 180;
const r9 = (v: number) => Math.round(v * 1e9) / 1e9 + 0;

const base = (name: string, description: string): Pick<ParticleScene, 'format' | 'version' | 'name' | 'description'> =>
  ({ format: PARTICLE_SCENE_FORMAT, version: PARTICLE_SCENE_VERSION, name, description });
const calm: ParticleScene['settings'] = { ...DEFAULT_PARTICLE_SETTINGS, damping: 0, floor: null };

/** The paper's fig. 3: pinned at the top, upper bone horizontal, lower bone hanging — released. */
function doublePendulum(name: string, description: string, constraints: ParticleScene['constraints'] = []): ParticleScene {
  return {
    ...base(name, description),
    settings: calm,
    particles: [
      { name: 'pin', position: [0, 2, 0], mass: 1 },
      { name: 'elbow', position: [1, 2, 0], mass: 1 },
      { name: 'end', position: [1, 1, 0], mass: 1 },
    ],
    bones: [
      { name: 'upper', head: 'pin', tip: 'elbow', radius: 0.04, frame: null, attached: [], collide: false },
      { name: 'lower', head: 'elbow', tip: 'end', radius: 0.04, frame: null, attached: [], collide: false },
    ],
    constraints: [{ type: 'fixed', particle: 'pin' }, ...constraints],
    impulses: [],
  };
}

/** The paper's figs. 6–7: two bones hung from two pins 0.2 m apart, released from opposite sides; they
 *  swing through the same space and must hit each other. */
function collidingBones(minDistance: boolean): ParticleScene {
  return {
    ...base(minDistance ? 'colliding bones (minimum distance)' : 'colliding bones',
      minDistance
        ? 'Paper fig. 7: the same two bones with capsule collision off and the paper\'s workaround, a minimum distance of 0.3 m between the two free ends.'
        : 'Paper fig. 6, which failed in the paper: two 1 m bones (capsules of radius 5 cm) hung 0.2 m apart and released from opposite sides collide and bounce instead of passing through each other.'),
    settings: { ...calm, friction: 0.2 },
    particles: [
      { name: 'pin_a', position: [-0.1, 2, 0], mass: 1 },
      { name: 'end_a', position: [-1.1, 2, 0], mass: 1 },
      { name: 'pin_b', position: [0.1, 2, 0], mass: 1 },
      { name: 'end_b', position: [0.1 + 0.7, 2 - 0.714142843, 0], mass: 1 },
    ],
    bones: [
      { name: 'bone_a', head: 'pin_a', tip: 'end_a', radius: 0.05, frame: null, attached: [], collide: !minDistance },
      { name: 'bone_b', head: 'pin_b', tip: 'end_b', radius: 0.05, frame: null, attached: [], collide: !minDistance },
    ],
    constraints: [
      { type: 'fixed', particle: 'pin_a' }, { type: 'fixed', particle: 'pin_b' },
      ...(minDistance ? [{ type: 'minDistance' as const, a: 'end_a', b: 'end_b', distance: 0.3 }] : []),
    ],
    impulses: [],
  };
}

// ------------------------------------------------------------------------------------------- ragdoll

/** Skeleton of the first skin of a .glb (rest TRS per bone, parents by name). */
export function skeletonFromGlb(bytes: Uint8Array, source: string): Bone[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== 0x46546c67) throw new Error(`${source}: not a binary glTF (bad magic)`);
  const jsonLength = view.getUint32(12, true);
  const gltf = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as {
    nodes: { name?: string; children?: number[]; translation?: number[]; rotation?: number[]; scale?: number[] }[];
    skins?: { joints: number[] }[];
  };
  const joints = gltf.skins?.[0]?.joints;
  if (!joints) throw new Error(`${source}: no skin`);
  const parentOf = new Map<number, number>();
  gltf.nodes.forEach((n, i) => n.children?.forEach((c) => parentOf.set(c, i)));
  return joints.map((i) => {
    const n = gltf.nodes[i]!;
    const p = parentOf.get(i);
    return {
      name: n.name!,
      parent: p !== undefined && joints.includes(p) ? gltf.nodes[p]!.name! : null,
      rest: {
        translation: (n.translation ?? [0, 0, 0]) as [number, number, number],
        rotation: (n.rotation ?? [0, 0, 0, 1]) as [number, number, number, number],
        scale: (n.scale ?? [1, 1, 1]) as [number, number, number],
      },
    };
  });
}

/** Limits of a 70 kg humanoid, per child bone (rad). Elbows bend forward, knees backward, about world
 *  axes at the T-pose; the neck twist limit is what stops the paper's 360° head spin. */
export const HUMANOID_LIMITS: Record<string, BoneLimits> = {
  spine: { swing: 0.5, twist: [-0.5, 0.5] },
  head: { swing: 0.7, twist: [-70 * DEG, 70 * DEG] },
  upper_arm_l: { swing: 1.6, twist: [-1.2, 1.2] },
  upper_arm_r: { swing: 1.6, twist: [-1.2, 1.2] },
  forearm_l: { hinge: { axis: [0, -1, 0], min: 0, max: 150 * DEG }, twist: [-0.8, 0.8] },
  forearm_r: { hinge: { axis: [0, 1, 0], min: 0, max: 150 * DEG }, twist: [-0.8, 0.8] },
  thigh_l: { swing: 1.3, twist: [-0.5, 0.5] },
  thigh_r: { swing: 1.3, twist: [-0.5, 0.5] },
  shin_l: { hinge: { axis: [1, 0, 0], min: 0, max: 145 * DEG }, twist: [-0.1, 0.1] },
  shin_r: { hinge: { axis: [1, 0, 0], min: 0, max: 145 * DEG }, twist: [-0.1, 0.1] },
  foot_l: { hinge: { axis: [1, 0, 0], min: -35 * DEG, max: 35 * DEG }, twist: [-0.2, 0.2] },
  foot_r: { hinge: { axis: [1, 0, 0], min: -35 * DEG, max: 35 * DEG }, twist: [-0.2, 0.2] },
};
export const HUMANOID_RADIUS: Record<string, number> = {
  pelvis: 0.14, spine: 0.15, head: 0.11, upper_arm_l: 0.05, upper_arm_r: 0.05, forearm_l: 0.045, forearm_r: 0.045,
  thigh_l: 0.07, thigh_r: 0.07, shin_l: 0.055, shin_r: 0.055, foot_l: 0.04, foot_r: 0.04,
};
export const HUMANOID_MASS: Record<string, number> = {
  pelvis: 11, spine: 22, head: 5, upper_arm_l: 2, upper_arm_r: 2, forearm_l: 1.5, forearm_r: 1.5,
  thigh_l: 8, thigh_r: 8, shin_l: 4, shin_r: 4, foot_l: 1, foot_r: 1,
};
export const HUMANOID_LEAF: Record<string, number> = { head: 0.23, forearm_l: 0.4, forearm_r: 0.4, foot_l: 0.2, foot_r: 0.2 };

export function humanoidParticleScene(skeleton: readonly Bone[], lift = 0): ParticleScene {
  const bones = skeleton.map((b) => (b.parent === null
    ? { ...b, rest: { ...b.rest, translation: [b.rest.translation[0], b.rest.translation[1] + lift, b.rest.translation[2]] as [number, number, number] } }
    : b));
  return particleSceneFromSkeleton(bones, {
    name: 'humanoid', radius: HUMANOID_RADIUS, mass: HUMANOID_MASS, leafLength: HUMANOID_LEAF, limits: HUMANOID_LIMITS,
  });
}

function ragdoll(skeleton: readonly Bone[]): ParticleScene {
  const scene = humanoidParticleScene(skeleton, 0.3);
  const at = (name: string) => scene.particles.find((p) => p.name === name)!.position;
  const mid = (a: string, b: string, dx = 0, dz = 0): [number, number, number] =>
    [r9((at(a)[0] + at(b)[0]) / 2 + dx), r9((at(a)[1] + at(b)[1]) / 2), r9((at(a)[2] + at(b)[2]) / 2 + dz)];
  return {
    ...scene,
    name: 'ragdoll',
    description: 'Paper fig. 8: the full ragdoll (the 13-bone humanoid, 70 kg) dropped from 0.3 m onto the floor, with scheduled mouse clicks: a shove on the chest, a kick on the left shin, a slap on the side of the head (which must not spin round its neck).',
    impulses: [
      { time: 0.25, bone: 'spine', point: mid('spine', 'head', 0, 0.15), impulse: [0, 0, -60] },
      { time: 1.2, bone: 'shin_l', point: mid('shin_l', 'foot_l', 0, 0.055), impulse: [0, 10, -15] },
      { time: 2.0, bone: 'head', point: mid('head', 'head_tip', 0.11, 0), impulse: [0, 0, 12] },
    ],
  };
}

export function buildExamples(humanoidSkeleton: readonly Bone[]): Record<string, ParticleScene> {
  const limit170 = { type: 'hinge' as const, parent: 'upper', child: 'lower', from: 'parent-bone' as const, axis: [0, 0, 1] as [number, number, number], axisSpace: 'world' as const, planar: true, min: r9(10 * DEG), max: r9(170 * DEG) };
  return {
    'double-pendulum': doublePendulum('double pendulum', 'Paper fig. 3: two 1 m bones of 1 kg particles, pinned at the top, released with the upper bone horizontal. Length and fixed constraints, Verlet.'),
    'double-pendulum-90': doublePendulum('double pendulum, 90° limit', 'Paper fig. 4: the angle between the two bones (π = straight) is kept in [90°, 180°] by the arc rule, which turns the bones about the elbow and leaves their lengths alone.',
      [{ type: 'angle', parent: 'upper', child: 'lower', rule: 'arc', from: 'parent-bone', min: r9(90 * DEG), max: Math.PI }]),
    'double-pendulum-170': doublePendulum('double pendulum, 170° limit', 'Paper fig. 5, which failed in the paper: the SIGNED angle from the upper bone to the lower one about +Z is kept in [10°, 170°]. The paper could not tell 170° from 190° and let it through; the hinge limit holds.',
      [limit170]),
    'colliding-bones': collidingBones(false),
    'colliding-bones-min-distance': collidingBones(true),
    ragdoll: ragdoll(humanoidSkeleton),
  };
}

/** JSON the way the rig export writes it: 2-space indent, short numeric arrays on one line. */
export function sceneText(scene: ParticleScene): string {
  return `${JSON.stringify(scene, null, 2).replace(/\[\s+(-?[\d.e+-]+),\s+(-?[\d.e+-]+),\s+(-?[\d.e+-]+)\s+\]/g, '[$1, $2, $3]')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const glb = join(HERE, '../creatures/humanoid.glb');
  const examples = buildExamples(skeletonFromGlb(readFileSync(glb), glb));
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [file, scene] of Object.entries(examples)) {
    const path = join(HERE, `${file}.json`), text = sceneText(scene);
    if (check) {
      let old = '';
      try { old = readFileSync(path, 'utf8'); } catch { /* missing counts as stale */ }
      if (old !== text) { console.error(`${path} is out of date: run npx tsx assets/examples/generate.ts`); stale++; }
    } else writeFileSync(path, text);
  }
  process.exitCode = stale > 0 ? 1 : 0;
}
