/** Skins → skeleton: the bones are the union of all skins' joints, ordered depth-first so parents come
 *  first; each bone's parent is its nearest ancestor node that is also a joint. */
import { mat4Identity, mat4Invert, mat4Mul, mat4ToTRS, trsIdentity } from '../math';
import type { GltfDocument } from './gltfDocument';
import type { NodeTree } from './nodes';
import type { Bone, SkinInfo } from './types';

export interface SkeletonDraft {
  bones: Bone[];
  roots: number[];
  /** glTF node index → bone index, -1 for nodes that are not joints. */
  boneOfNode: number[];
  skins: SkinInfo[];
  /** Per skin, per joint: the inverse bind matrix (column-major). */
  inverseBind: number[][][];
  warnings: string[];
}

export interface SkeletonOptions {
  /** Two joints with the same name: 'rename' the later one "NAME_2" with a warning (default), or
   *  'refuse' the file (the editor, whose documents refer to bones by the file's names). */
  duplicateNames?: 'rename' | 'refuse';
}

export function readSkeleton(doc: GltfDocument, tree: NodeTree, options: SkeletonOptions = {}): SkeletonDraft {
  const skins = doc.list('skins');
  if (skins.length === 0) doc.fail('no skin — Marionette needs a rigged creature (a mesh skinned to a skeleton)');
  const warnings: string[] = [];
  const isJoint = new Uint8Array(tree.parent.length);
  const jointLists: number[][] = [];
  const inverseBind: number[][][] = [];
  skins.forEach((skin, s) => {
    const joints = skin.joints;
    if (!Array.isArray(joints) || joints.length === 0) doc.fail(`skin ${s} has no joints`);
    const list = (joints as unknown[]).map((j, k) => doc.index(j, 'nodes', `skin ${s} joint ${k}`));
    if (new Set(list).size !== list.length) doc.fail(`skin ${s} lists the same joint node twice`);
    for (const j of list) isJoint[j] = 1;
    jointLists.push(list);
    if (skin.inverseBindMatrices === undefined) {
      inverseBind.push(list.map(() => mat4Identity()));
    } else {
      const acc = doc.accessor(skin.inverseBindMatrices, `skin ${s} inverseBindMatrices`);
      doc.expect(acc, skin.inverseBindMatrices, `skin ${s} inverseBindMatrices`, ['MAT4'], [5126]);
      if (acc.count < list.length) doc.fail(`skin ${s}: ${list.length} joints but only ${acc.count} inverse bind matrices`);
      inverseBind.push(list.map((_, k) => Array.from(acc.values.subarray(k * 16, k * 16 + 16))));
    }
  });

  const boneOfNode = new Array<number>(tree.parent.length).fill(-1);
  const bones: Bone[] = [];
  const usedNames = new Map<string, number>();
  for (const node of tree.order) {
    if (!isJoint[node]) continue;
    let ancestor = tree.parent[node]!;
    while (ancestor >= 0 && !isJoint[ancestor]) ancestor = tree.parent[ancestor]!;
    const parent = ancestor >= 0 ? boneOfNode[ancestor]! : -1;
    const index = bones.length;
    boneOfNode[node] = index;
    let name = tree.names[node] ?? `bone_${node}`;
    if (usedNames.has(name) && options.duplicateNames === 'refuse') {
      doc.fail(`two bones are named "${name}" (nodes ${bones[usedNames.get(name)!]!.node} and ${node}; bone names must be unique to rig them)`);
    }
    if (usedNames.has(name)) {
      let k = 2;
      while (usedNames.has(`${name}_${k}`)) k++;
      warnings.push(`two bones are named "${name}": node ${node} was renamed "${name}_${k}"`);
      name = `${name}_${k}`;
    }
    usedNames.set(name, index);
    const world = tree.world[node]!;
    const parentWorld = parent >= 0 ? tree.world[bones[parent]!.node]! : mat4Identity();
    const nodeParentWorld = tree.parent[node]! >= 0 ? tree.world[tree.parent[node]!]! : mat4Identity();
    const parentInverse = mat4Invert(parentWorld);
    if (!parentInverse) doc.fail(`bone ${name}: its parent's rest transform is singular (zero scale)`);
    const offset = mat4Mul(parentInverse!, nodeParentWorld);
    bones.push({
      name, node, parent, children: [],
      rest: { local: tree.local[node]!, parentOffset: isIdentity(offset) ? trsIdentity() : mat4ToTRS(offset), world: mat4ToTRS(world) },
      inverseBindMatrix: mat4Identity(),
      tail: { position: [0, 0, 0], length: 0, source: 'none', child: -1 },
    });
    if (parent >= 0) bones[parent]!.children.push(index);
  }
  // The inverse bind matrix of the first skin that lists each bone.
  for (let s = jointLists.length - 1; s >= 0; s--) {
    jointLists[s]!.forEach((node, k) => { bones[boneOfNode[node]!]!.inverseBindMatrix = inverseBind[s]![k]!; });
  }

  const meshNodesOf = skins.map(() => [] as number[]);
  tree.skin.forEach((s, node) => { if (s >= 0) meshNodesOf[s]!.push(node); });
  const skinInfos: SkinInfo[] = skins.map((skin, s) => ({
    name: typeof skin.name === 'string' ? skin.name : `skin_${s}`,
    joints: jointLists[s]!.map((node) => boneOfNode[node]!),
    skeletonRoot: skin.skeleton === undefined ? -1 : boneOfNode[doc.index(skin.skeleton, 'nodes', `skin ${s} skeleton`)]!,
    meshNodes: meshNodesOf[s]!,
  }));
  return { bones, roots: bones.flatMap((b, i) => (b.parent < 0 ? [i] : [])), boneOfNode, skins: skinInfos, inverseBind, warnings };
}

function isIdentity(m: readonly number[]): boolean {
  const id = mat4Identity();
  return m.every((v, i) => Math.abs(v - id[i]!) < 1e-9);
}
