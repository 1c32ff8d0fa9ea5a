/**
 * Before a display loader (three's GLTFLoader, which trusts what the file declares) sees a glTF: the
 * container, the asset version, every accessor's declared size against its bytes and the cap of
 * gltfDocument.ts, every index one object uses to name another (meshes → accessors, nodes → meshes, skins
 * and children, skins → joints, animations → nodes and samplers), and the node tree (no cycles, one parent
 * per node). Throws a CreatureLoadError naming the file, the object and the reason; allocates nothing.
 */
import { readContainer } from './container';
import { GltfDocument, type Json } from './gltfDocument';

export function preflightGltf(bytes: Uint8Array, fileName: string, resources: Record<string, Uint8Array> = {}): void {
  const doc = new GltfDocument(fileName, readContainer(fileName, bytes), resources);
  doc.checkAccessorSizes();
  const accessor = (value: unknown, what: string) => { if (value !== undefined) doc.index(value, 'accessors', what); };
  const objects = (value: unknown, what: string): Json => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) doc.fail(`${what} is not an object`);
    return value as Json;
  };
  const array = (value: unknown, what: string): unknown[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) doc.fail(`${what} is not an array`);
    return value as unknown[];
  };

  doc.list('meshes').forEach((mesh, m) => {
    array(mesh.primitives, `meshes[${m}].primitives`).forEach((p, k) => {
      const where = `meshes[${m}].primitives[${k}]`;
      const primitive = objects(p, where);
      for (const [name, index] of Object.entries(objects(primitive.attributes ?? {}, `${where}.attributes`))) accessor(index, `${where}.attributes.${name}`);
      accessor(primitive.indices, `${where}.indices`);
      array(primitive.targets, `${where}.targets`).forEach((t, ti) => {
        for (const [name, index] of Object.entries(objects(t, `${where}.targets[${ti}]`))) accessor(index, `${where}.targets[${ti}].${name}`);
      });
    });
  });

  const nodes = doc.list('nodes');
  const parent = new Array<number>(nodes.length).fill(-1);
  nodes.forEach((node, n) => {
    if (node.mesh !== undefined) doc.index(node.mesh, 'meshes', `nodes[${n}].mesh`);
    if (node.skin !== undefined) doc.index(node.skin, 'skins', `nodes[${n}].skin`);
    for (const c of array(node.children, `nodes[${n}].children`)) {
      const child = doc.index(c, 'nodes', `nodes[${n}].children`);
      if (child === n) doc.fail(`nodes[${n}] is its own child`);
      if (parent[child] !== -1 && parent[child] !== n) doc.fail(`nodes[${child}] has two parents (nodes ${parent[child]} and ${n}); the node tree must be a tree`);
      parent[child] = n;
    }
  });
  // A parent chain that never reaches a root is a cycle.
  for (let n = 0; n < nodes.length; n++) {
    let at = n;
    for (let hops = 0; parent[at]! !== -1; hops++) {
      if (hops > nodes.length) doc.fail(`nodes[${n}]: its parents form a cycle; the node tree must be a tree`);
      at = parent[at]!;
    }
  }

  doc.list('skins').forEach((skin, s) => {
    accessor(skin.inverseBindMatrices, `skins[${s}].inverseBindMatrices`);
    for (const j of array(skin.joints, `skins[${s}].joints`)) doc.index(j, 'nodes', `skins[${s}].joints`);
    if (skin.skeleton !== undefined) doc.index(skin.skeleton, 'nodes', `skins[${s}].skeleton`);
  });

  doc.list('animations').forEach((animation, a) => {
    const samplers = array(animation.samplers, `animations[${a}].samplers`);
    samplers.forEach((sm, k) => {
      const sampler = objects(sm, `animations[${a}].samplers[${k}]`);
      accessor(sampler.input, `animations[${a}].samplers[${k}].input`);
      accessor(sampler.output, `animations[${a}].samplers[${k}].output`);
    });
    array(animation.channels, `animations[${a}].channels`).forEach((ch, k) => {
      const channel = objects(ch, `animations[${a}].channels[${k}]`);
      const sampler = channel.sampler;
      if (typeof sampler !== 'number' || !Number.isInteger(sampler) || sampler < 0 || sampler >= samplers.length) doc.fail(`animations[${a}].channels[${k}].sampler refers to sampler ${JSON.stringify(sampler)}, but the animation has ${samplers.length}`);
      const target = channel.target === undefined ? {} : objects(channel.target, `animations[${a}].channels[${k}].target`);
      if (target.node !== undefined) doc.index(target.node, 'nodes', `animations[${a}].channels[${k}].target.node`);
    });
  });
}
