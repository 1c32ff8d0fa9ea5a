/** The synthetic members of the real-creature corpus (assets/third-party/synthetic/): rig features no
 *  redistributable third-party file in the corpus has, built from the shipped humanoid (humanoid.ts) so
 *  every one is a real skinned mesh with sensible weights that stands on y = 0 in a T-pose.
 *
 *   - mixamo-cm: Mixamo names (`mixamorig:*`), authored in centimetres under an `Armature` node scaled
 *     0.01, with IK and pole bones and `*_End` bones inside the skin that deform nothing; also written as
 *     an ASCII FBX in centimetres (UnitScaleFactor 1) through toFbx.ts.
 *   - unreal-zup: Unreal mannequin names (root, pelvis, spine_01, thigh_l, calf_l, foot_l, ik_foot_root …)
 *     under a Z-up `Armature` node (turned −90° about X) scaled 0.01.
 *   - rigify-nonuniform: Rigify names (DEF-/ORG-/MCH- and controls) under a Z-up object node and a
 *     non-uniformly scaled `rig` node.
 *   - hexapod-rigid-legs: a six-legged walker whose body is one skinned mesh (abdomen, thorax, head) and
 *     whose 18 leg segments are unskinned meshes parented to the leg bones.
 *
 *  How the node chain above the skeleton is built: the creature is designed in world metres (humanoid()),
 *  then every point is mapped into the inner frame of the chain C (p' = C⁻¹·p, directions by C's rotation
 *  only), bones and mesh are written there (toGltf.ts: inverse bind matrices = inverse inner rest), and the
 *  root bones and the mesh node are hung under the chain nodes. The skinned mesh at rest is then
 *  C·innerBone·innerBone⁻¹·C⁻¹·p = p: the same world creature whatever the chain. With a non-uniform scale
 *  in C the bones' world frames are sheared, as in real files. Deterministic: same code → same bytes. */
import { NodeIO, type Node } from '@gltf-transform/core';
import {
  mat4FromTRS, mat4Invert, mat4Mul, mat4TransformPoint, quatConj, quatFromAxisAngle, quatMul,
  type Quat, type Vec3,
} from '../../shared/math';
import type { BoneSpec, CreatureSpec } from './creatureSpec';
import { humanoid } from './humanoid';
import { MeshPart, blendedWeights, capsule, frameAlong, rigid, sphere, type ShapeGeometry } from './meshBuilder';
import { creatureDocument } from './toGltf';
import { toFbx } from './toFbx';

export interface ChainNode { name: string; translation?: Vec3; rotation?: Quat; scale?: Vec3 }

/** An extra bone in world metres; its rest rotation is its parent's (or identity for a root). It is a
 *  joint of the skin that no vertex is weighted to. */
export interface ExtraBone { name: string; parent: string | null; head: Vec3 }

export interface CorpusVariant {
  name: string;
  /** humanoid bone name → the variant's name (every humanoid bone must be listed). */
  rename: Record<string, string>;
  /** Bones placed before the humanoid's (e.g. a root the pelvis hangs from) and after them. */
  before: ExtraBone[];
  after: ExtraBone[];
  /** The humanoid bone (new name) → new parent among `before`, for re-rooting the pelvis. */
  reparent?: Record<string, string>;
  /** Non-bone nodes above the skeleton and the mesh, outermost first. */
  chain: ChainNode[];
}

const Z_UP_TURN = quatFromAxisAngle([1, 0, 0], -Math.PI / 2); // inner +Z → world +Y

const ankle = (side: 1 | -1): Vec3 => [0.1 * side, 0.09, 0];
const wrist = (side: 1 | -1): Vec3 => [0.76 * side, 1.44, 0];

export const MIXAMO_CM: CorpusVariant = {
  name: 'mixamo-cm',
  rename: {
    pelvis: 'mixamorig:Hips', spine: 'mixamorig:Spine', head: 'mixamorig:Head',
    upper_arm_l: 'mixamorig:LeftArm', forearm_l: 'mixamorig:LeftForeArm', upper_arm_r: 'mixamorig:RightArm', forearm_r: 'mixamorig:RightForeArm',
    thigh_l: 'mixamorig:LeftUpLeg', shin_l: 'mixamorig:LeftLeg', foot_l: 'mixamorig:LeftFoot',
    thigh_r: 'mixamorig:RightUpLeg', shin_r: 'mixamorig:RightLeg', foot_r: 'mixamorig:RightFoot',
  },
  before: [],
  after: [
    { name: 'mixamorig:HeadTop_End', parent: 'mixamorig:Head', head: [0, 1.8, 0] },
    { name: 'mixamorig:LeftHand_End', parent: 'mixamorig:LeftForeArm', head: wrist(1) },
    { name: 'mixamorig:RightHand_End', parent: 'mixamorig:RightForeArm', head: wrist(-1) },
    { name: 'mixamorig:LeftToe_End', parent: 'mixamorig:LeftFoot', head: [0.1, 0, 0.2] },
    { name: 'mixamorig:RightToe_End', parent: 'mixamorig:RightFoot', head: [-0.1, 0, 0.2] },
    { name: 'mixamorig:LeftFoot_IK', parent: 'mixamorig:Hips', head: ankle(1) },
    { name: 'mixamorig:RightFoot_IK', parent: 'mixamorig:Hips', head: ankle(-1) },
    { name: 'mixamorig:LeftKnee_Pole', parent: 'mixamorig:Hips', head: [0.1, 0.5, 0.5] },
    { name: 'mixamorig:RightKnee_Pole', parent: 'mixamorig:Hips', head: [-0.1, 0.5, 0.5] },
  ],
  chain: [{ name: 'Armature', scale: [0.01, 0.01, 0.01] }],
};

export const UNREAL_ZUP: CorpusVariant = {
  name: 'unreal-zup',
  rename: {
    pelvis: 'pelvis', spine: 'spine_01', head: 'head',
    upper_arm_l: 'upperarm_l', forearm_l: 'lowerarm_l', upper_arm_r: 'upperarm_r', forearm_r: 'lowerarm_r',
    thigh_l: 'thigh_l', shin_l: 'calf_l', foot_l: 'foot_l', thigh_r: 'thigh_r', shin_r: 'calf_r', foot_r: 'foot_r',
  },
  before: [{ name: 'root', parent: null, head: [0, 0, 0] }],
  reparent: { pelvis: 'root' },
  after: [
    { name: 'ball_l', parent: 'foot_l', head: [0.1, 0.02, 0.14] },
    { name: 'ball_r', parent: 'foot_r', head: [-0.1, 0.02, 0.14] },
    { name: 'ik_foot_root', parent: 'root', head: [0, 0, 0] },
    { name: 'ik_foot_l', parent: 'ik_foot_root', head: ankle(1) },
    { name: 'ik_foot_r', parent: 'ik_foot_root', head: ankle(-1) },
    { name: 'ik_hand_root', parent: 'root', head: [0, 0, 0] },
    { name: 'ik_hand_gun', parent: 'ik_hand_root', head: wrist(-1) },
    { name: 'ik_hand_l', parent: 'ik_hand_gun', head: wrist(1) },
    { name: 'ik_hand_r', parent: 'ik_hand_gun', head: wrist(-1) },
  ],
  chain: [{ name: 'Armature', rotation: Z_UP_TURN, scale: [0.01, 0.01, 0.01] }],
};

export const RIGIFY_NONUNIFORM: CorpusVariant = {
  name: 'rigify-nonuniform',
  rename: {
    pelvis: 'DEF-spine', spine: 'DEF-spine.003', head: 'DEF-spine.006',
    upper_arm_l: 'DEF-upper_arm.L', forearm_l: 'DEF-forearm.L', upper_arm_r: 'DEF-upper_arm.R', forearm_r: 'DEF-forearm.R',
    thigh_l: 'DEF-thigh.L', shin_l: 'DEF-shin.L', foot_l: 'DEF-foot.L', thigh_r: 'DEF-thigh.R', shin_r: 'DEF-shin.R', foot_r: 'DEF-foot.R',
  },
  before: [{ name: 'root', parent: null, head: [0, 0, 0] }],
  reparent: { 'DEF-spine': 'root' },
  after: [
    { name: 'ORG-spine', parent: 'root', head: [0, 0.95, 0] },
    { name: 'ORG-thigh.L', parent: 'ORG-spine', head: [0.1, 0.92, 0] },
    { name: 'ORG-thigh.R', parent: 'ORG-spine', head: [-0.1, 0.92, 0] },
    { name: 'MCH-thigh_ik.L', parent: 'root', head: [0.1, 0.92, 0] },
    { name: 'MCH-thigh_ik.R', parent: 'root', head: [-0.1, 0.92, 0] },
    { name: 'foot_ik.L', parent: 'root', head: ankle(1) },
    { name: 'foot_ik.R', parent: 'root', head: ankle(-1) },
    { name: 'thigh_ik_target.L', parent: 'root', head: [0.1, 0.5, 0.5] },
    { name: 'thigh_ik_target.R', parent: 'root', head: [-0.1, 0.5, 0.5] },
    { name: 'torso', parent: 'root', head: [0, 1.0, 0] },
    { name: 'DEF-toe.L', parent: 'DEF-foot.L', head: [0.1, 0.02, 0.15] },
    { name: 'DEF-toe.R', parent: 'DEF-foot.R', head: [-0.1, 0.02, 0.15] },
  ],
  // Blender object turned Z-up, and a rig node an artist stretched: 1.15 along its Z (world up), 0.9 deep.
  chain: [
    { name: 'metarig_object', rotation: Z_UP_TURN },
    { name: 'rig', scale: [1, 0.9, 1.15] },
  ],
};

export const CORPUS_VARIANTS: readonly CorpusVariant[] = [MIXAMO_CM, UNREAL_ZUP, RIGIFY_NONUNIFORM];

/** The humanoid renamed, with the variant's extra bones, still in world metres (what toFbx.ts takes). */
export function variantWorldSpec(v: CorpusVariant): CreatureSpec {
  const base = humanoid();
  const named = (n: string): string => {
    const r = v.rename[n];
    if (!r) throw new Error(`${v.name}: humanoid bone ${n} has no name`);
    return r;
  };
  const bonesByName = new Map<string, BoneSpec>();
  const extra = (e: ExtraBone): BoneSpec => {
    const parent = e.parent === null ? null : bonesByName.get(e.parent);
    if (e.parent !== null && !parent) throw new Error(`${v.name}: bone ${e.name}: parent ${e.parent} comes later or is missing`);
    const b: BoneSpec = { name: e.name, parent: e.parent, head: [...e.head], rotation: parent ? [...parent.rotation] : [0, 0, 0, 1] };
    bonesByName.set(b.name, b);
    return b;
  };
  const before = v.before.map(extra);
  const main = base.bones.map((b) => {
    const name = named(b.name);
    const out: BoneSpec = { name, parent: b.parent === null ? (v.reparent?.[name] ?? null) : named(b.parent), head: [...b.head], rotation: [...b.rotation] };
    bonesByName.set(name, out);
    return out;
  });
  const after = v.after.map(extra);
  // Vertex joint indices point into the humanoid's bone list: shift them past the bones put before it.
  const shift = before.length;
  const parts = base.parts.map((p) => {
    const q = new MeshPart(p.material);
    q.positions.push(...p.positions);
    q.normals.push(...p.normals);
    q.joints.push(...p.joints.map((j) => j + shift));
    q.weights.push(...p.weights);
    q.indices.push(...p.indices);
    return q;
  });
  return { name: v.name, bones: [...before, ...main, ...after], materials: base.materials, parts, clips: [] };
}

const round = (x: number, step: number): number => Math.round(x / step) * step;

/** The spec mapped into the chain's inner frame (see the file comment). */
export function innerSpec(v: CorpusVariant): CreatureSpec {
  const world = variantWorldSpec(v);
  let C = mat4FromTRS({ translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] });
  let R: Quat = [0, 0, 0, 1];
  for (const c of v.chain) {
    C = mat4Mul(C, mat4FromTRS({ translation: c.translation ?? [0, 0, 0], rotation: c.rotation ?? [0, 0, 0, 1], scale: c.scale ?? [1, 1, 1] }));
    R = quatMul(R, c.rotation ?? [0, 0, 0, 1]);
  }
  const inv = mat4Invert(C);
  if (!inv) throw new Error(`${v.name}: singular node chain`);
  const Rinv = quatConj(R);
  // Keep the file's numbers short and platform-independent: round to 1e-7 of the inner unit.
  const unit = Math.cbrt(Math.abs(inv[0]! * (inv[5]! * inv[10]! - inv[6]! * inv[9]!) - inv[4]! * (inv[1]! * inv[10]! - inv[2]! * inv[9]!) + inv[8]! * (inv[1]! * inv[6]! - inv[2]! * inv[5]!)));
  const step = 1e-7 * unit;
  const point = (p: readonly number[]): Vec3 => mat4TransformPoint(inv, [p[0]!, p[1]!, p[2]!]).map((x) => round(x, step)) as Vec3;
  const bones = world.bones.map((b) => ({ ...b, head: point(b.head), rotation: quatMul(Rinv, b.rotation) }));
  const parts = world.parts.map((p) => {
    const q = new MeshPart(p.material);
    for (let i = 0; i < p.positions.length; i += 3) {
      q.positions.push(...point(p.positions.slice(i, i + 3)));
      // Normals transform by Cᵀ (the inverse transpose of C⁻¹), then renormalised.
      const n = p.normals.slice(i, i + 3);
      const t = [C[0]! * n[0]! + C[1]! * n[1]! + C[2]! * n[2]!, C[4]! * n[0]! + C[5]! * n[1]! + C[6]! * n[2]!, C[8]! * n[0]! + C[9]! * n[1]! + C[10]! * n[2]!];
      const l = Math.hypot(t[0]!, t[1]!, t[2]!) || 1;
      q.normals.push(round(t[0]! / l, 1e-7), round(t[1]! / l, 1e-7), round(t[2]! / l, 1e-7));
    }
    q.joints.push(...p.joints);
    q.weights.push(...p.weights);
    q.indices.push(...p.indices);
    return q;
  });
  return { ...world, bones, parts };
}

/** The glTF document with the chain nodes above the skeleton and the mesh node. */
export async function variantGlb(v: CorpusVariant): Promise<Uint8Array> {
  const doc = creatureDocument(innerSpec(v));
  doc.getRoot().getAsset().generator = 'Marionette assets/scripts/corpusCreatures.ts';
  const scene = doc.getRoot().getDefaultScene()!;
  const top = scene.listChildren();
  let parent: Node | null = null;
  for (const c of v.chain) {
    const node = doc.createNode(c.name);
    if (c.translation) node.setTranslation(c.translation);
    if (c.rotation) node.setRotation(c.rotation);
    if (c.scale) node.setScale(c.scale);
    if (parent) parent.addChild(node); else scene.addChild(node);
    parent = node;
  }
  if (parent) for (const n of top) { scene.removeChild(n); parent.addChild(n); }
  return new NodeIO().writeBinary(doc);
}

// ---------------------------------------------------------------------------------------------------
// Hexapod: skinned body, rigid legs

const BODY_Y = 0.2;
const LEG_RADIUS = 0.018;

interface LegSegment { bone: string; parent: string; from: Vec3; to: Vec3; radius: number }

/** Six legs, three segments each (coxa, femur, tibia), in world metres; the tibia tips touch y = 0. */
export function hexapodLegs(): LegSegment[] {
  const out: LegSegment[] = [];
  const mounts: Array<[string, number]> = [['1', 0.11], ['2', 0], ['3', -0.11]];
  for (const side of [1, -1] as const) {
    const s = side === 1 ? 'L' : 'R';
    for (const [i, z] of mounts) {
      const spread = z * 1.6; // front legs reach forward, hind legs back
      const hip: Vec3 = [0.07 * side, BODY_Y, z];
      const knee0: Vec3 = [0.13 * side, BODY_Y + 0.01, z + spread * 0.3];
      const knee1: Vec3 = [0.27 * side, BODY_Y + 0.1, z + spread * 0.8];
      const foot: Vec3 = [0.4 * side, LEG_RADIUS * 0.6, z + spread * 1.2];
      out.push({ bone: `coxa_${s}${i}`, parent: 'thorax', from: hip, to: knee0, radius: LEG_RADIUS * 1.4 });
      out.push({ bone: `femur_${s}${i}`, parent: `coxa_${s}${i}`, from: knee0, to: knee1, radius: LEG_RADIUS * 1.2 });
      out.push({ bone: `tibia_${s}${i}`, parent: `femur_${s}${i}`, from: knee1, to: foot, radius: LEG_RADIUS });
    }
  }
  return out;
}

const sub3 = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const len3 = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
const boneFrame = (dir: Vec3): Quat => frameAlong(dir, Math.abs(dir[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0]);

export function hexapodSpec(): CreatureSpec {
  const I: Quat = [0, 0, 0, 1];
  const legs = hexapodLegs();
  const bones: BoneSpec[] = [
    { name: 'thorax', parent: null, head: [0, BODY_Y, 0], rotation: I },
    { name: 'abdomen', parent: 'thorax', head: [0, BODY_Y, -0.12], rotation: frameAlong([0, 0, -1], [1, 0, 0]) },
    { name: 'head', parent: 'thorax', head: [0, BODY_Y + 0.01, 0.14], rotation: frameAlong([0, 0, 1], [1, 0, 0]) },
    ...legs.map((l) => ({ name: l.bone, parent: l.parent, head: l.from, rotation: boneFrame(sub3(l.to, l.from)) })),
  ];
  const body = new MeshPart('shell');
  const I3 = (n: string) => bones.findIndex((b) => b.name === n);
  const [THORAX, ABDOMEN, HEAD] = [I3('thorax'), I3('abdomen'), I3('head')];
  body.add(sphere(0.1, 20, 12, [0.9, 0.55, 1.1]), { position: [0, BODY_Y, 0], rotation: I },
    blendedWeights(THORAX, [
      { otherBone: ABDOMEN, position: [0, BODY_Y, -0.1], towardOther: [0, 0, -1], halfWidth: 0.03 },
      { otherBone: HEAD, position: [0, BODY_Y, 0.11], towardOther: [0, 0, 1], halfWidth: 0.02 },
    ]));
  body.add(sphere(0.13, 20, 12, [0.85, 0.7, 1.2]), { position: [0, BODY_Y + 0.02, -0.24], rotation: I },
    blendedWeights(ABDOMEN, [{ otherBone: THORAX, position: [0, BODY_Y, -0.12], towardOther: [0, 0, 1], halfWidth: 0.03 }]));
  body.add(sphere(0.06, 16, 10, [1, 0.8, 1.1]), { position: [0, BODY_Y + 0.01, 0.17], rotation: I }, rigid(HEAD));
  return {
    name: 'hexapod-rigid-legs',
    bones,
    materials: {
      shell: { color: [0.25, 0.32, 0.18], metallic: 0.05, roughness: 0.55 },
      leg: { color: [0.12, 0.13, 0.1], metallic: 0.05, roughness: 0.6 },
    },
    parts: [body],
    clips: [],
  };
}

/** The skinned body written by toGltf.ts, then each leg segment as an unskinned mesh node under its bone,
 *  its vertices in the bone's frame (a capsule along the bone's +Y). */
export async function hexapodGlb(): Promise<Uint8Array> {
  const spec = hexapodSpec();
  const doc = creatureDocument(spec);
  doc.getRoot().getAsset().generator = 'Marionette assets/scripts/corpusCreatures.ts';
  const buffer = doc.getRoot().listBuffers()[0]!;
  const m = spec.materials.leg!;
  const material = doc.createMaterial('leg').setBaseColorFactor([m.color[0], m.color[1], m.color[2], 1]).setMetallicFactor(m.metallic).setRoughnessFactor(m.roughness);
  for (const leg of hexapodLegs()) {
    const length = len3(sub3(leg.to, leg.from));
    // The capsule spans the bone and overlaps the next joint by its radius; the tibia ends at its tip.
    const g: ShapeGeometry = capsule(leg.radius, length + leg.radius, 10, 3);
    const r = (x: number) => Math.round(x * 1e7) / 1e7;
    const positions = new Float32Array(g.positions.flatMap((p) => [r(p[0]), r(p[1] - leg.radius / 2), r(p[2])]));
    const normals = new Float32Array(g.normals.flatMap((n) => [r(n[0]), r(n[1]), r(n[2])]));
    const prim = doc.createPrimitive().setMaterial(material)
      .setAttribute('POSITION', doc.createAccessor(`${leg.bone}-position`).setType('VEC3').setArray(positions).setBuffer(buffer))
      .setAttribute('NORMAL', doc.createAccessor(`${leg.bone}-normal`).setType('VEC3').setArray(normals).setBuffer(buffer))
      .setIndices(doc.createAccessor(`${leg.bone}-indices`).setType('SCALAR').setArray(new Uint16Array(g.indices)).setBuffer(buffer));
    const node = doc.getRoot().listNodes().find((n) => n.getName() === leg.bone);
    if (!node) throw new Error(`hexapod: no bone node ${leg.bone}`);
    node.addChild(doc.createNode(`${leg.bone}_mesh`).setMesh(doc.createMesh(`${leg.bone}_mesh`).addPrimitive(prim)));
  }
  return new NodeIO().writeBinary(doc);
}

/** File name (relative to assets/third-party/synthetic/) → bytes. */
export async function corpusCreatureFiles(): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const v of CORPUS_VARIANTS) out[`${v.name}.glb`] = await variantGlb(v);
  out['hexapod-rigid-legs.glb'] = await hexapodGlb();
  out['mixamo-cm.fbx'] = new TextEncoder().encode(toFbx(variantWorldSpec(MIXAMO_CM), 'Marionette assets/scripts/corpusCreatures.ts'));
  return out;
}
