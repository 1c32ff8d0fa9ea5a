import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { gltfIO, writeGlb } from '../../../shared/export/gltf';
import { importGltfBytes } from '../../../shared/export/gltfImport';
import { withComputedMass } from '../../../shared/export/rig';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { repo, shippedRigs } from '../rig/corpus';
import { leverRig } from './testRigs';
import { validateGlb } from './validator';

/** Every number of `b` within tol of `a` (structure equal otherwise); collects the paths that differ. */
function differences(a: unknown, b: unknown, tol: number, path = '', out: string[] = []): string[] {
  if (typeof a === 'number' && typeof b === 'number') {
    if (!(Math.abs(a - b) <= tol * Math.max(1, Math.abs(a)))) out.push(`${path}: ${a} vs ${b}`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: length ${a.length} vs ${b.length}`);
    else a.forEach((x, i) => differences(x, b[i], tol, `${path}[${i}]`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], tol, `${path}.${k}`, out);
  } else if (a !== b) out.push(`${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  return out;
}

const creatureOf: Record<string, string> = { 'armed-mine.rig.json': 'armed-mine.glb', 'humanoid.rig.json': 'humanoid.glb' };

/** A rig whose quaternions are written with w ≥ 0 (a quaternion and its negative are one rotation). */
function canonical(rig: RigDocument): unknown {
  return JSON.parse(JSON.stringify(withComputedMass(rig)), (_k, v: unknown) =>
    Array.isArray(v) && v.length === 4 && v.every((x) => typeof x === 'number') && (v[3] as number) < 0 ? v.map((x) => -(x as number)) : v);
}

describe('glTF export (KHR_physics_rigid_bodies + KHR_implicit_shapes), judged by the Khronos glTF-Validator', () => {
  for (const path of shippedRigs()) {
    const file = path.split('/').pop()!;
    const creature = creatureOf[file];
    it(`${file}${creature ? ` on ${creature}` : ''}: 0 validator errors, skin and animations kept, a motion per body, a joint per joint; import(export) = the rig within 1e-6`, async () => {
      const rig = loadRig(readFileSync(path, 'utf8'), { source: path });
      const doc = creature ? await new NodeIO().read(`${repo}assets/creatures/${creature}`) : undefined;
      const skins = doc?.getRoot().listSkins().length ?? 0, animations = doc?.getRoot().listAnimations().length ?? 0;
      const glb = await writeGlb(rig, { creature: doc });
      // Real files: written to a temp folder and read back.
      const dir = mkdtempSync(join(tmpdir(), 'marionette-gltf-'));
      writeFileSync(join(dir, 'out.glb'), glb);
      const bytes = new Uint8Array(readFileSync(join(dir, 'out.glb')));
      const report = await validateGlb(bytes);
      const errors = report.issues.messages.filter((m) => m.severity === 0);
      expect(errors, JSON.stringify(errors)).toEqual([]);
      expect(report.issues.numErrors).toBe(0);

      const { rig: back, document } = await importGltfBytes(bytes, 'out.glb');
      if (creature) {
        expect(skins).toBeGreaterThan(0);
        expect(document.getRoot().listSkins()).toHaveLength(skins);
        expect(document.getRoot().listAnimations()).toHaveLength(animations);
      }
      const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true)))) as {
        extensionsUsed: string[]; nodes: { name?: string; extensions?: Record<string, { motion?: unknown; joint?: unknown }> }[]; extensions: Record<string, { physicsJoints?: unknown[] }>; extras: { marionette: { losses: { lost: string[] } } };
      };
      expect(json.extensionsUsed).toEqual(expect.arrayContaining(['KHR_physics_rigid_bodies', 'KHR_implicit_shapes']));
      const motions = json.nodes.filter((n) => n.extensions?.KHR_physics_rigid_bodies?.motion).map((n) => n.name);
      expect(motions.sort()).toEqual(rig.bodies.filter((b) => b.type !== 'static').map((b) => b.bone).sort());
      expect(json.nodes.filter((n) => n.extensions?.KHR_physics_rigid_bodies?.joint)).toHaveLength(rig.joints.length);
      expect(json.extensions.KHR_physics_rigid_bodies!.physicsJoints).toHaveLength(rig.joints.length);
      expect(json.extras.marionette.losses.lost.length).toBeGreaterThan(0);

      const diff = differences(canonical(rig), canonical(back), 1e-6);
      expect(diff, diff.slice(0, 10).join('\n')).toEqual([]);
    });
  }

  it('every shape type round-trips, the ellipsoid through its convex-hull mesh; the validator still reports 0 errors', async () => {
    const rig = leverRig(10);
    const shapes = [
      { type: 'sphere', position: [0.1, 0, 0], rotation: [0, 0, 0, 1], radius: 0.05, hollow: true },
      { type: 'box', position: [0.2, 0, 0], rotation: [0, 0.2588190451, 0, 0.9659258263], halfExtents: [0.05, 0.02, 0.03] },
      { type: 'cylinder', position: [0.3, 0, 0], rotation: [0, 0, 0, 1], radius: 0.03, halfHeight: 0.05, axis: 'z', hollow: false },
      { type: 'ellipsoid', position: [0.4, 0, 0], rotation: [0, 0, 0, 1], radii: [0.05, 0.03, 0.02], mass: 0.5 },
    ];
    const all = loadRig({ ...rig, bodies: rig.bodies.map((b) => (b.name === 'link' ? { ...b, shapes: [...b.shapes, ...shapes], offset: { position: [0, 0, 0], rotation: [0, 0, 0.3826834324, 0.9238795325] }, collisionGroup: 2, collisionMask: 5 } : b)) });
    const glb = await writeGlb(all);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors).toBe(0);
    const { rig: back } = await importGltfBytes(glb, 'shapes.glb');
    const diff = differences(canonical(all), canonical(back), 1e-6);
    expect(diff, diff.join('\n')).toEqual([]);
  });

  it('without extras.marionette (as another tool writes it) the KHR data alone gives the bodies, masses, joint types, limits, drives and friction', async () => {
    const rig = loadRig(readFileSync(`${repo}assets/creatures/armed-mine.rig.json`, 'utf8'));
    const doc = await gltfIO().readBinary(await writeGlb(rig));
    doc.getRoot().setExtras({});
    for (const n of doc.getRoot().listNodes()) n.setExtras({});
    const bare = await gltfIO().writeBinary(doc);
    expect(new TextDecoder().decode(bare)).not.toContain('"marionette":');
    const { rig: back } = await importGltfBytes(bare, 'bare.glb');
    const original = withComputedMass(rig), imported = withComputedMass(back);
    expect(imported.bodies.map((b) => b.name)).toEqual(original.bodies.map((b) => b.bone));
    imported.bodies.forEach((b, i) => {
      expect(b.computed!.mass).toBeCloseTo(original.bodies[i]!.computed!.mass, 9);
      expect(b.material.friction).toBeCloseTo(original.bodies[i]!.material.friction, 12);
    });
    expect(imported.joints.map((j) => j.type)).toEqual(original.joints.map((j) => j.type));
    for (const [a, b] of imported.joints.map((j, i) => [j, original.joints[i]!] as const)) {
      if (a.type === 'hinge' && b.type === 'hinge') expect(a.limit).toEqual(b.limit);
      if (a.type !== 'fixed' && b.type !== 'fixed') expect(a.motor.maxTorque).toBe(b.motor.maxTorque);
      if (a.type === 'ball' && b.type === 'ball') expect(a.twistLimit).toEqual(b.twistLimit);
    }
  });

  it('a rig whose creature file is not in metres (skeleton.scale) round-trips its scale; with that creature the export says why it cannot', async () => {
    const rig = leverRig(10);
    const scaled = loadRig({ ...rig, skeleton: { ...rig.skeleton, scale: 0.01 } });
    const { rig: back } = await importGltfBytes(await writeGlb(scaled), 'scaled.glb');
    expect(back.skeleton.scale).toBe(0.01);
    expect(differences(canonical(scaled), canonical(back), 1e-6)).toEqual([]);
    const doc = await new NodeIO().read(`${repo}assets/creatures/armed-mine.glb`);
    const mine = loadRig(readFileSync(`${repo}assets/creatures/armed-mine.rig.json`, 'utf8'));
    await expect(writeGlb(loadRig({ ...mine, skeleton: { ...mine.skeleton, scale: 0.01 } }), { creature: doc })).rejects.toThrow(/the creature's file is not in metres \(the rig's skeleton.scale is 0.01 m per file unit\)/);
  });

  it('refuses a glTF without KHR_physics_rigid_bodies, naming the file', async () => {
    const plain = new Uint8Array(readFileSync(`${repo}assets/creatures/armed-mine.glb`));
    await expect(importGltfBytes(plain, 'armed-mine.glb')).rejects.toThrow(/armed-mine\.glb: carries no KHR_physics_rigid_bodies/);
  });
});
