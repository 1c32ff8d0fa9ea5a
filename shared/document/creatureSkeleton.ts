/**
 * The skeleton of a glTF 2.0 creature as plain data, read from the file's JSON (no three.js): the joints
 * of its first skin, each with its parent joint, rest TRS and glTF node index. The renderer draws the mesh
 * with three's loader and matches its bone objects to these by node index; the document stores the same
 * bones in the rig format's shape (parents by name).
 */
import { gltfJsonText } from '../project/gltfResources';
import type { Bone } from '../rig/schema';
import type { Quat, Vec3 } from '../math';

export interface SkeletonBone {
  name: string;
  /** Index into `bones`, -1 for a root. */
  parent: number;
  /** Rest pose relative to the parent joint (m; unit quaternion [x, y, z, w]; unitless scale). */
  translation: Vec3;
  rotation: Quat;
  scale: Vec3;
  /** glTF node index. */
  node: number;
}

export interface SkeletonData { bones: SkeletonBone[] }

interface GltfNode { name?: unknown; children?: unknown; translation?: unknown; rotation?: unknown; scale?: unknown; matrix?: unknown }

const isNumbers = (v: unknown, n: number): v is number[] => Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'number' && Number.isFinite(x));

export function skeletonFromGltf(bytes: Uint8Array, fileName: string): SkeletonData {
  let json: { nodes?: unknown; skins?: unknown; asset?: { version?: unknown } };
  try {
    json = JSON.parse(gltfJsonText(bytes, fileName)) as typeof json;
  } catch (e) {
    if (e instanceof SyntaxError) throw new Error(`${fileName}: not a glTF file (its JSON does not parse: ${e.message})`);
    throw e;
  }
  if (typeof json !== 'object' || json === null) throw new Error(`${fileName}: not a glTF file (the JSON is not an object)`);
  const version = json.asset?.version;
  if (typeof version !== 'string' || !version.startsWith('2.')) throw new Error(`${fileName}: asset.version ${JSON.stringify(version)} is not glTF 2.0`);
  const nodes = (Array.isArray(json.nodes) ? json.nodes : []) as GltfNode[];
  const skins = Array.isArray(json.skins) ? (json.skins as { joints?: unknown }[]) : [];
  const joints = skins[0]?.joints;
  if (!Array.isArray(joints) || joints.length === 0) throw new Error(`${fileName}: no skin (the file has no skeleton to rig)`);

  const parentOf = new Map<number, number>();
  nodes.forEach((n, i) => {
    if (Array.isArray(n.children)) for (const c of n.children) if (typeof c === 'number') parentOf.set(c, i);
  });
  const jointIndex = new Map<number, number>();
  joints.forEach((node, i) => {
    if (typeof node !== 'number' || !nodes[node]) throw new Error(`${fileName}: skins[0].joints[${i}] points at missing node ${JSON.stringify(node)}`);
    jointIndex.set(node, i);
  });
  const seen = new Set<string>();
  const bones = (joints as number[]).map((node, i): SkeletonBone => {
    const n = nodes[node]!;
    if (n.matrix !== undefined) throw new Error(`${fileName}: joint node ${node} uses a matrix; only translation/rotation/scale joints are supported`);
    const name = typeof n.name === 'string' && n.name !== '' ? n.name : `joint_${i}`;
    if (seen.has(name)) throw new Error(`${fileName}: two bones are named "${name}" (bone names must be unique to rig them)`);
    seen.add(name);
    // A joint's parent is the nearest ancestor node that is also a joint (helper nodes in between are skipped).
    let p = parentOf.get(node);
    for (let guard = 0; p !== undefined && !jointIndex.has(p); guard++) {
      if (guard > nodes.length) throw new Error(`${fileName}: the node hierarchy has a cycle`);
      p = parentOf.get(p);
    }
    const field = <T extends number[]>(v: unknown, n: number, fallback: T, what: string): T => {
      if (v === undefined) return fallback;
      if (!isNumbers(v, n)) throw new Error(`${fileName}: node ${node} ("${name}") ${what} must be ${n} finite numbers`);
      return [...v] as T;
    };
    return {
      name,
      parent: p === undefined ? -1 : jointIndex.get(p)!,
      translation: field<Vec3>(n.translation, 3, [0, 0, 0], 'translation'),
      rotation: field<Quat>(n.rotation, 4, [0, 0, 0, 1], 'rotation'),
      scale: field<Vec3>(n.scale, 3, [1, 1, 1], 'scale'),
      node,
    };
  });
  return { bones };
}

/** The skeleton in the rig format's shape: parents by name. */
export function rigBonesOf(skeleton: SkeletonData): Bone[] {
  return skeleton.bones.map((b) => ({
    name: b.name,
    parent: b.parent >= 0 ? skeleton.bones[b.parent]!.name : null,
    rest: { translation: [...b.translation], rotation: [...b.rotation], scale: [...b.scale] },
  }));
}
