import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRig } from '../../../shared/rig';
import { repo } from '../rig/corpus';
import { validateGlb } from '../export/validator';
import { loadMjcf } from '../export/mujoco';
import { runInProcess } from './run';

const mine = `${repo}assets/creatures/armed-mine.rig.json`;

describe('marionette export --format / marionette import (real files in a temp folder)', () => {
  it('rig: a rig JSON input is written with its computed blocks', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'marionette-export-'));
    const out = join(tmp, 'mine.rig.json');
    const r = await runInProcess(['export', mine, '--format', 'rig', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const rig = loadRig(readFileSync(out, 'utf8'));
    expect(rig.bodies.every((b) => b.computed && b.computed.mass > 0)).toBe(true);
  });

  it('mjcf: MuJoCo loads the file; import gives back a rig with the same bodies, joints and total mass', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'marionette-export-'));
    const xml = join(tmp, 'mine.xml'), back = join(tmp, 'back.rig.json');
    const r = await runInProcess(['export', mine, '--format', 'mjcf', '--out', xml]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/mjcf of rig "armed-mine" written — 4 bodies, 3 joints/);
    const { model } = await loadMjcf(readFileSync(xml, 'utf8'), xml);
    expect(model.nbody).toBe(5);
    const i = await runInProcess(['import', xml, '--out', back]);
    expect(i.code, i.err).toBe(0);
    const original = loadRig(readFileSync(mine, 'utf8')), imported = loadRig(readFileSync(back, 'utf8'));
    expect(imported.bodies.map((b) => b.name)).toEqual(original.bodies.map((b) => b.name));
    expect(imported.joints.map((j) => `${j.name}:${j.type}:${j.bodyA}>${j.bodyB}`)).toEqual(original.joints.map((j) => `${j.name}:${j.type}:${j.bodyA}>${j.bodyB}`));
    const mass = (rig: typeof original) => rig.bodies.reduce((m, b) => m + b.computed!.mass, 0);
    expect(mass(imported)).toBeCloseTo(34.8, 9); // body 30 + upper arm 3.2 + forearm 0.9 + hand 0.7 kg
    // Limits survive (hinge ranges are our limits, ref = 0 here).
    const elbow = (rig: typeof original) => rig.joints.find((j) => j.name === 'elbow') as { limit: [number, number] };
    expect(elbow(imported).limit[0]).toBeCloseTo(elbow(original).limit[0], 9);
    expect(elbow(imported).limit[1]).toBeCloseTo(elbow(original).limit[1], 9);
    // and the imported rig exports to an MJCF MuJoCo loads again
    const xml2 = join(tmp, 'again.xml');
    expect((await runInProcess(['export', back, '--format', 'mjcf', '--out', xml2])).code).toBe(0);
    expect((await loadMjcf(readFileSync(xml2, 'utf8'), xml2)).model.nu).toBe(model.nu);
  });

  it('gltf --creature: a GLB the validator accepts with 0 errors, which imports back to the same rig', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'marionette-export-'));
    const glb = join(tmp, 'mine.glb'), back = join(tmp, 'back.rig.json');
    const r = await runInProcess(['export', mine, '--format', 'gltf', '--creature', `${repo}assets/creatures/armed-mine.gltf`, '--out', glb]);
    expect(r.code, r.err).toBe(0);
    const report = await validateGlb(new Uint8Array(readFileSync(glb)));
    expect(report.issues.numErrors).toBe(0);
    const i = await runInProcess(['import', glb, '--out', back]);
    expect(i.code, i.err).toBe(0);
    expect(JSON.stringify(loadRig(readFileSync(back, 'utf8')).joints.map((j) => j.name))).toBe(JSON.stringify(loadRig(readFileSync(mine, 'utf8')).joints.map((j) => j.name)));
  });

  it('bad input: unknown format, --creature without gltf, a creature lacking the bones, an MJCF the rig cannot hold', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'marionette-export-'));
    const out = join(tmp, 'x');
    const f = await runInProcess(['export', mine, '--format', 'usd', '--out', out]);
    expect(f.code).toBe(2);
    expect(f.err).toContain('--format must be one of rig, mjcf, gltf, got "usd"');
    expect((await runInProcess(['export', mine, '--format', 'mjcf', '--creature', 'x.glb', '--out', out])).err).toContain('--creature only applies to --format gltf');
    const wrong = await runInProcess(['export', mine, '--format', 'gltf', '--creature', `${repo}assets/creatures/humanoid.glb`, '--out', out]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/humanoid\.glb: the creature has no node named "body"/);
    const xml = join(tmp, 'two.xml');
    writeFileSync(xml, '<mujoco><worldbody><body name="a"><joint type="hinge"/><joint type="slide"/><geom size="0.1"/></body></worldbody></mujoco>');
    const two = await runInProcess(['import', xml, '--out', out]);
    expect(two.code).toBe(1);
    expect(two.err).toContain(`${xml}: line 1: <body> "a": has 2 joints; Marionette reads several joints in one body only as a cylindrical joint`);
    writeFileSync(xml, '<mujoco><worldbody><body name="a"></worldbody></mujoco>');
    expect((await runInProcess(['import', xml, '--out', out])).err).toContain('not well-formed XML: line 1: </worldbody> closes <body>');
  });
});
