/**
 * Every corpus bone's rigid rest (shared/skeleton/rigid.ts through the rig bones of
 * rigBonesFromSkeleton, composed by the rig's own boneRestWorld) against three.js's world matrices for the
 * same file: the glTF node graph rebuilt as three Object3Ds the way GLTFLoader builds it (matrix, or
 * translation / rotation / scale), updateMatrixWorld, then each joint node's world position and rotation.
 * Positions agree within 1e-5 of the creature's size (metres for a metre-sized creature), rotations within
 * 1e-5 rad wherever the ancestors' scale is uniform (with a non-uniform scale three's matrix has shear and
 * only the position is comparable).
 */
import { readFileSync } from 'node:fs';
import { Matrix4, Object3D, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { rigBonesFromSkeleton } from '../../../shared/authoring';
import { boneRestWorld } from '../../../shared/rig/restPose';
import { parseSkeleton, readContainer } from '../../../shared/skeleton';
import { corpus } from '../../../scripts/corpus-report';

interface Node { name?: string; children?: number[]; matrix?: number[]; translation?: number[]; rotation?: number[]; scale?: number[] }

const root = new URL('../../../', import.meta.url).pathname;
const files = corpus().filter((e) => /\.(glb|gltf)$/.test(e.file));

describe.each(files)('$name: bone rest world vs three.js', (entry) => {
  it('positions within 1e-5 of the size, rotations within 1e-5 rad (uniform scale)', () => {
    const bytes = new Uint8Array(readFileSync(root + entry.file));
    const json = readContainer(entry.file, bytes).json as { nodes: Node[]; scenes?: { nodes: number[] }[]; scene?: number };
    const objects = json.nodes.map((n) => {
      const o = new Object3D();
      if (n.matrix) new Matrix4().fromArray(n.matrix).decompose(o.position, o.quaternion, o.scale);
      else {
        if (n.translation) o.position.fromArray(n.translation);
        if (n.rotation) o.quaternion.fromArray(n.rotation);
        if (n.scale) o.scale.fromArray(n.scale);
      }
      return o;
    });
    json.nodes.forEach((n, i) => { for (const c of n.children ?? []) objects[i]!.add(objects[c]!); });
    for (const o of objects) if (!o.parent) o.updateMatrixWorld(true);

    const creature = parseSkeleton({ name: entry.file, bytes, resources: {} });
    const world = boneRestWorld(rigBonesFromSkeleton(creature));
    const size = Math.max(...creature.skeleton.bones.map((b) => Math.hypot(...b.rest.world.translation)), 1);
    let worstP = 0, worstR = 0, compared = 0;
    for (const b of creature.skeleton.bones) {
      const o = objects[b.node]!;
      const p = new Vector3(), q = new Quaternion(), s = new Vector3();
      o.matrixWorld.decompose(p, q, s);
      const mine = world.get(b.name)!;
      worstP = Math.max(worstP, Math.hypot(p.x - mine.position[0], p.y - mine.position[1], p.z - mine.position[2]));
      // Uniform scale along the whole chain: three's rotation is exact and comparable.
      let uniform = true;
      for (let a: Object3D | null = o; a; a = a.parent) if (Math.max(a.scale.x, a.scale.y, a.scale.z) - Math.min(a.scale.x, a.scale.y, a.scale.z) > 1e-4 * Math.abs(a.scale.x)) uniform = false;
      if (!uniform) continue;
      // Angle of q⁻¹·mine by atan2 (acos of a dot product near 1 loses half the digits).
      const r = new Quaternion(...mine.rotation).normalize().premultiply(q.clone().normalize().invert());
      worstR = Math.max(worstR, 2 * Math.atan2(Math.hypot(r.x, r.y, r.z), Math.abs(r.w)));
      compared++;
    }
    expect(worstP / size, 'position').toBeLessThan(1e-5);
    expect(worstR, 'rotation').toBeLessThan(1e-5);
    if (!/nonuniform/i.test(entry.file)) expect(compared).toBe(creature.skeleton.bones.length);
  });
});
