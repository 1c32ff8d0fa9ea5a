/** The glTF node hierarchy: each node's local TRS (from TRS or a matrix), its parent, a depth-first
 *  order, and world matrices at the rest pose. Rejects bad child indices, shared children and cycles. */
import { mat4FromTRS, mat4Mul, mat4ToTRS, type Mat4, type TRS } from '../math';
import type { GltfDocument, Json } from './gltfDocument';

export interface NodeTree {
  names: Array<string | null>;
  local: TRS[];
  parent: number[];
  children: number[][];
  /** Every node, parents first: default scene's roots in order, then any other roots by index. */
  order: number[];
  world: Mat4[];
  mesh: number[];
  skin: number[];
}

export function readNodes(doc: GltfDocument): NodeTree {
  const nodes = doc.list('nodes');
  const n = nodes.length;
  const parent = new Array<number>(n).fill(-1);
  const children: number[][] = [];
  const local: TRS[] = [];
  nodes.forEach((node, i) => {
    const kids = node.children === undefined ? [] : node.children;
    if (!Array.isArray(kids)) doc.fail(`node ${i}: children is not an array`);
    const list: number[] = [];
    for (const c of kids as unknown[]) {
      const ci = doc.index(c, 'nodes', `node ${i} children`);
      if (ci === i) doc.fail(`node ${i} lists itself as its child`);
      if (parent[ci] !== -1) doc.fail(`node ${ci} is a child of both node ${parent[ci]} and node ${i}`);
      parent[ci] = i;
      list.push(ci);
    }
    children.push(list);
    local.push(readLocal(doc, node, i));
  });

  const order: number[] = [];
  const seen = new Uint8Array(n);
  const visit = (root: number) => {
    const stack = [root];
    while (stack.length) {
      const i = stack.pop()!;
      if (seen[i]) continue;
      seen[i] = 1;
      order.push(i);
      for (let k = children[i]!.length - 1; k >= 0; k--) stack.push(children[i]![k]!);
    }
  };
  const scenes = doc.list('scenes');
  const sceneIndex = doc.json.scene === undefined ? (scenes.length ? 0 : -1) : doc.index(doc.json.scene, 'scenes', 'the default scene');
  if (sceneIndex >= 0) {
    const roots = scenes[sceneIndex]!.nodes ?? [];
    if (!Array.isArray(roots)) doc.fail(`scene ${sceneIndex}: nodes is not an array`);
    for (const r of roots as unknown[]) {
      const ri = doc.index(r, 'nodes', `scene ${sceneIndex}`);
      if (parent[ri] !== -1) doc.fail(`scene ${sceneIndex} lists node ${ri} as a root, but it is a child of node ${parent[ri]}`);
      visit(ri);
    }
  }
  for (let i = 0; i < n; i++) if (parent[i] === -1) visit(i);
  // Nodes never reached from a root can only sit on a parent cycle.
  if (order.length < n) doc.fail(`the node hierarchy has a cycle through node ${seen.indexOf(0)}`);

  const world = new Array<Mat4>(n);
  for (const i of order) {
    const m = mat4FromTRS(local[i]!);
    world[i] = parent[i]! < 0 ? m : mat4Mul(world[parent[i]!]!, m);
  }
  return {
    names: nodes.map((node) => (typeof node.name === 'string' && node.name.length ? node.name : null)),
    local, parent, children, order, world,
    mesh: nodes.map((node, i) => (node.mesh === undefined ? -1 : doc.index(node.mesh, 'meshes', `node ${i} mesh`))),
    skin: nodes.map((node, i) => (node.skin === undefined ? -1 : doc.index(node.skin, 'skins', `node ${i} skin`))),
  };
}

function readLocal(doc: GltfDocument, node: Json, i: number): TRS {
  if (node.matrix !== undefined) {
    const m = numbers(doc, node.matrix, 16, `node ${i} matrix`);
    return mat4ToTRS(m);
  }
  const t = node.translation === undefined ? [0, 0, 0] : numbers(doc, node.translation, 3, `node ${i} translation`);
  const r = node.rotation === undefined ? [0, 0, 0, 1] : numbers(doc, node.rotation, 4, `node ${i} rotation`);
  const s = node.scale === undefined ? [1, 1, 1] : numbers(doc, node.scale, 3, `node ${i} scale`);
  const len = Math.hypot(r[0]!, r[1]!, r[2]!, r[3]!);
  if (Math.abs(len - 1) > 0.01) doc.fail(`node ${i} rotation is not a unit quaternion (length ${len.toFixed(4)})`);
  return {
    translation: [t[0]!, t[1]!, t[2]!],
    rotation: [r[0]! / len, r[1]! / len, r[2]! / len, r[3]! / len],
    scale: [s[0]!, s[1]!, s[2]!],
  };
}

function numbers(doc: GltfDocument, v: unknown, n: number, what: string): number[] {
  if (!Array.isArray(v) || v.length !== n || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    doc.fail(`${what} must be ${n} finite numbers`);
  }
  return v as number[];
}
