/** Skinned vertices at the rest pose and what each bone owns. A vertex's rest position is glTF's
 *  skinning formula Σ wₖ · world(jointₖ) · inverseBind(jointₖ) · v; the bone that "mostly owns" it is
 *  the one with the largest summed weight. Owned vertices give each bone its tail (when it has no child
 *  to point at) and the sizes a capsule needs. */
import {
  add, dot, inverseTransformPoint, mat4Mul, mat4TransformPoint, normalize, quatRotate, scale, sub,
  type Mat4, type Vec3,
} from '../math';
import type { GltfDocument } from './gltfDocument';
import type { NodeTree } from './nodes';
import type { SkeletonDraft } from './skeleton';
import type { Bone, BoneVertexStats, MeshSummary, RigidPart, SkinnedPrimitive } from './types';

export interface OwnedVertices {
  /** Per bone: world rest positions of the vertices it mostly owns. */
  owned: Vec3[][];
  primitives: SkinnedPrimitive[];
  rigidParts: RigidPart[];
  mesh: MeshSummary;
}

export function readOwnedVertices(doc: GltfDocument, tree: NodeTree, draft: SkeletonDraft): OwnedVertices {
  const owned: Vec3[][] = draft.bones.map(() => []);
  const mesh: MeshSummary = { vertexCount: 0, skinnedVertexCount: 0, triangleCount: 0 };
  const primitives: SkinnedPrimitive[] = [];
  const rigidParts: RigidPart[] = [];
  const meshes = doc.list('meshes');
  tree.mesh.forEach((m, node) => {
    if (m < 0) return;
    const prims = meshes[m]!.primitives;
    if (!Array.isArray(prims) || prims.length === 0) doc.fail(`mesh ${m} has no primitives`);
    const s = tree.skin[node]!;
    const jointMatrices: Mat4[] = s < 0 ? [] : draft.skins[s]!.joints.map((bone, k) =>
      mat4Mul(tree.world[draft.bones[bone]!.node]!, draft.inverseBind[s]![k]!));
    (prims as unknown[]).forEach((p, pi) => {
      const where = `mesh ${m} primitive ${pi}`;
      if (typeof p !== 'object' || p === null) doc.fail(`${where} is not an object`);
      const prim = p as Record<string, unknown>;
      const attrs = prim.attributes as Record<string, unknown> | undefined;
      if (typeof attrs !== 'object' || attrs === null) doc.fail(`${where} has no attributes`);
      if (attrs!.POSITION === undefined) doc.fail(`${where} has no POSITION attribute`);
      const pos = doc.accessor(attrs!.POSITION, `${where} POSITION`);
      doc.expect(pos, attrs!.POSITION, `${where} POSITION`, ['VEC3'], [5126, 5120, 5121, 5122, 5123]);
      mesh.vertexCount += pos.count;
      const mode = prim.mode === undefined ? 4 : prim.mode;
      if (mode === 4) mesh.triangleCount += prim.indices === undefined ? Math.floor(pos.count / 3) : Math.floor(doc.accessor(prim.indices, `${where} indices`).count / 3);
      if (prim.indices !== undefined) {
        const idx = doc.accessor(prim.indices, `${where} indices`);
        doc.expect(idx, prim.indices, `${where} indices`, ['SCALAR'], [5121, 5123, 5125]);
        for (const v of idx.values) if (v >= pos.count) doc.fail(`${where}: index ${v} is out of range (${pos.count} vertices)`);
      }
      if (s < 0) {
        // A rigid mesh parented to a bone (a robot's plates, a helmet): that bone's geometry.
        let a = node;
        while (a >= 0 && draft.boneOfNode[a]! < 0) a = tree.parent[a]!;
        if (a < 0) return;
        const bone = draft.boneOfNode[a]!;
        const world = tree.world[node]!;
        const positions: number[] = [];
        for (let v = 0; v < pos.count; v++) {
          const p = mat4TransformPoint(world, [pos.values[v * 3]!, pos.values[v * 3 + 1]!, pos.values[v * 3 + 2]!]);
          positions.push(p[0], p[1], p[2]);
          owned[bone]!.push(p);
        }
        rigidParts.push({ node, mesh: m, primitive: pi, bone, positions });
        return;
      }
      const sets: Array<{ joints: Float64Array; weights: Float64Array }> = [];
      for (let set = 0; attrs![`JOINTS_${set}`] !== undefined || attrs![`WEIGHTS_${set}`] !== undefined; set++) {
        const jn = `JOINTS_${set}`, wn = `WEIGHTS_${set}`;
        if (attrs![jn] === undefined || attrs![wn] === undefined) doc.fail(`${where} has ${attrs![jn] === undefined ? wn : jn} without ${attrs![jn] === undefined ? jn : wn}`);
        const j = doc.accessor(attrs![jn], `${where} ${jn}`);
        doc.expect(j, attrs![jn], `${where} ${jn}`, ['VEC4'], [5121, 5123]);
        const w = doc.accessor(attrs![wn], `${where} ${wn}`);
        doc.expect(w, attrs![wn], `${where} ${wn}`, ['VEC4'], [5126, 5121, 5123]);
        if (j.count !== pos.count || w.count !== pos.count) doc.fail(`${where}: ${jn}/${wn} have ${j.count}/${w.count} elements for ${pos.count} vertices`);
        sets.push({ joints: j.values, weights: w.values });
      }
      if (sets.length === 0) doc.fail(`${where} is drawn with skin ${s} but has no JOINTS_0/WEIGHTS_0`);
      // Positions at the rest pose (the skinning formula, as the viewer draws the file), not the raw bind-space
      // POSITION: a rest pose that differs from the bind pose moves every vertex with its bones.
      const meshWorld = tree.world[node]!;
      const posed: number[] = new Array<number>(pos.count * 3);
      primitives.push({ node, mesh: m, primitive: pi, skin: s, positions: posed, joints: Array.from(sets[0]!.joints), weights: Array.from(sets[0]!.weights) });
      const jointCount = jointMatrices.length;
      const weightOf = new Float64Array(jointCount);
      for (let v = 0; v < pos.count; v++) {
        weightOf.fill(0);
        let total = 0;
        for (const set of sets) {
          for (let c = 0; c < 4; c++) {
            const w = set.weights[v * 4 + c]!;
            if (w <= 0) continue;
            const joint = set.joints[v * 4 + c]!;
            if (joint >= jointCount) doc.fail(`${where}: vertex ${v} refers to joint ${joint}, skin ${s} has ${jointCount}`);
            weightOf[joint] = weightOf[joint]! + w;
            total += w;
          }
        }
        // glTF ignores a skinned mesh node's own transform (three.js too: its bind matrix is taken before the
        // node is placed); only an unweighted vertex stays where the mesh node puts it.
        const local: Vec3 = [pos.values[v * 3]!, pos.values[v * 3 + 1]!, pos.values[v * 3 + 2]!];
        if (total <= 0) {
          const p = mat4TransformPoint(meshWorld, local);
          posed[3 * v] = p[0]; posed[3 * v + 1] = p[1]; posed[3 * v + 2] = p[2];
          continue;
        }
        let world: Vec3 = [0, 0, 0];
        let best = 0;
        for (let k = 0; k < jointCount; k++) {
          const w = weightOf[k]!;
          if (w <= 0) continue;
          world = add(world, scale(mat4TransformPoint(jointMatrices[k]!, local), w / total));
          if (w > weightOf[best]!) best = k;
        }
        posed[3 * v] = world[0]; posed[3 * v + 1] = world[1]; posed[3 * v + 2] = world[2];
        owned[draft.skins[s]!.joints[best]!]!.push(world);
        mesh.skinnedVertexCount++;
      }
    });
  });
  return { owned, primitives, rigidParts, mesh };
}

const COS_30 = Math.cos(Math.PI / 6);

/** Fills each bone's tail (rules in types.ts BoneTail) and returns its vertex statistics. */
export function boneTailsAndStats(bones: Bone[], owned: Vec3[][]): BoneVertexStats[] {
  return bones.map((bone, i) => {
    const frame = { position: bone.rest.world.translation, rotation: bone.rest.world.rotation };
    const head = bone.rest.world.translation;
    const verts = owned[i]!.map((p) => inverseTransformPoint(frame, p));
    const childDirs = bone.children
      .map((c) => ({ c, d: inverseTransformPoint(frame, bones[c]!.rest.world.translation) }))
      .filter(({ d }) => Math.hypot(d[0], d[1], d[2]) > 1e-6);
    let best = -1, bestCos = COS_30;
    for (const { c, d } of childDirs) {
      const cos = d[1] / Math.hypot(d[0], d[1], d[2]);
      if (cos > bestCos) { bestCos = cos; best = c; }
    }
    if (best < 0 && childDirs.length === 1) best = childDirs[0]!.c;
    if (best >= 0) {
      const tip = bones[best]!.rest.world.translation;
      bone.tail = { position: [...tip], length: Math.hypot(...sub(tip, head)), source: 'child', child: best };
    } else {
      const reach = verts.reduce((m, p) => Math.max(m, p[1]), 0);
      bone.tail = reach > 1e-6
        ? { position: add(head, quatRotate(bone.rest.world.rotation, [0, reach, 0])), length: reach, source: 'vertices', child: -1 }
        : { position: [...head], length: 0, source: 'none', child: -1 };
    }
    const axis: Vec3 = bone.tail.length > 1e-9
      ? normalize(inverseTransformPoint(frame, bone.tail.position), [0, 1, 0])
      : [0, 1, 0];
    return vertexStats(i, verts, axis);
  });
}

function vertexStats(bone: number, verts: Vec3[], axis: Vec3): BoneVertexStats {
  if (verts.length === 0) {
    return { bone, count: 0, boundsMin: [0, 0, 0], boundsMax: [0, 0, 0], axis, axialMin: 0, axialMax: 0, meanRadius: 0, maxRadius: 0 };
  }
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  let axialMin = Infinity, axialMax = -Infinity, sumR = 0, maxR = 0;
  for (const p of verts) {
    for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k]!, p[k]!); max[k] = Math.max(max[k]!, p[k]!); }
    const along = dot(p, axis);
    axialMin = Math.min(axialMin, along);
    axialMax = Math.max(axialMax, along);
    const r = Math.hypot(...sub(p, scale(axis, along)));
    sumR += r;
    maxR = Math.max(maxR, r);
  }
  return { bone, count: verts.length, boundsMin: min, boundsMax: max, axis, axialMin, axialMax, meanRadius: sumR / verts.length, maxRadius: maxR };
}
