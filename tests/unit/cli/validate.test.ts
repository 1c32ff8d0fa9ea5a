import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { badRigDir, badRigManifest, fixture, readJson, shippedRigs } from '../rig/corpus';
import { runInProcess, runProcess } from './run';

const tmp = mkdtempSync(join(tmpdir(), 'marionette-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('marionette validate', () => {
  it('lists every broken rig of the corpus with its expected messages, in one batch process (exit 1)', () => {
    const files = Object.keys(badRigManifest).map((f) => `${badRigDir}/${f}`);
    const r = runProcess(['validate', '--json', ...files]);
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as { file: string; ok: boolean; problems: { path: string; message: string }[] });
    expect(lines.map((l) => l.file)).toEqual(files);
    for (const line of lines) {
      const name = line.file.slice(badRigDir.length + 1);
      const text = line.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('\n');
      expect(line.ok, name).toBe(false);
      for (const fragment of badRigManifest[name]!.expect) expect(text, name).toContain(fragment);
    }
  });

  it('human output names each file and indents its problems', () => {
    const files = ['max-torque-negative.json', 'truncated.json'].map((f) => `${badRigDir}/${f}`);
    const r = runProcess(['validate', fixture('rigs/pendulum.rig.json'), ...files]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${fixture('rigs/pendulum.rig.json')}: valid — rig "pendulum", 5 bones, 4 bodies, 3 joints, 0 controllers`);
    expect(r.out).toContain(`${files[0]}: INVALID — 1 problem\n  joints[1].motor.maxTorque: must be ≥ 0, got -5\n`);
    expect(r.out).toContain(`${files[1]}: INVALID — 1 problem\n  is not valid JSON: it ends too early`);
    expect(r.out).toContain('1 of 3 files valid');
  });

  it('gives each broken rig its manifest exit code when validated alone', async () => {
    for (const [file, { exit, expect: fragments }] of Object.entries(badRigManifest)) {
      const r = await runInProcess(['validate', `${badRigDir}/${file}`]);
      expect(r.code, file).toBe(exit);
      expect(r.out, file).toContain(fragments[0]!);
    }
  });

  it('exits 0 for valid rigs, including a migrated old version', async () => {
    const r = await runInProcess(['validate', ...shippedRigs(), fixture('migrations/v0-to-v1/before.json')]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('(migrated from version 0)');
  });

  it('warns of a slide with no limit that nothing brings back and still exits 0 (text and --json)', async () => {
    const rig = readJson(fixture('rigs/pendulum.rig.json')) as { joints: Record<string, unknown>[]; bodies: { name: string; type: string }[] };
    // The pendulum's first joint made a free slider between two dynamic bodies (its drive off).
    const j = rig.joints.find((x) => rig.bodies.find((b) => b.name === x.bodyA)?.type !== 'static')!;
    const file = join(tmp, 'free-slide.rig.json');
    writeFileSync(file, JSON.stringify({ ...rig, joints: rig.joints.map((x) => (x === j ? { ...x, type: 'prismatic', limit: null, motor: { ...(x.motor as object), mode: 'off' } } : x)) }));
    const r = await runInProcess(['validate', file]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`: valid — .*\\n  warning: joints\\[${rig.joints.indexOf(j)}\\]: joint "${j.name}": the slide of .* has no limit and no drive holds it`));
    const json = await runInProcess(['validate', '--json', file, fixture('rigs/pendulum.rig.json')]);
    const lines = json.out.trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; warnings: { path: string }[] });
    expect(lines.map((l) => [l.ok, l.warnings.map((w) => w.path)])).toEqual([[true, [`joints[${rig.joints.indexOf(j)}]`]], [true, []]]);
  });

  it('refuses a generated 50 MB file by its size without reading it (exit 1)', () => {
    const big = join(tmp, 'huge.rig.json');
    const rig = readJson(fixture('rigs/pendulum.rig.json')) as Record<string, unknown>;
    rig.extras = { blob: 'x'.repeat(50 * 1024 * 1024) };
    writeFileSync(big, JSON.stringify(rig));
    const r = runProcess(['validate', big]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${big}: INVALID — 1 problem\n  is 50.0 MB; rigs are limited to 16.0 MB`);
  });

  it('names a missing file, and treats command-line mistakes as usage errors (exit 2)', async () => {
    const missing = await runInProcess(['validate', join(tmp, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('nope.json: INVALID — 1 problem\n  no such file');
    const noFiles = await runInProcess(['validate']);
    expect(noFiles.code).toBe(2);
    expect(noFiles.err).toContain('marionette validate: validate needs at least one rig file');
    expect((await runInProcess(['validate', '--frobnicate', 'x.json'])).code).toBe(2);
    expect((await runInProcess(['validate', '--max-size', 'big', 'x.json'])).err).toContain('--max-size must be a positive number of megabytes, got "big"');
    expect((await runInProcess(['nonsense'])).code).toBe(2);
  });

  it('--help works for every command and for the tool', async () => {
    const top = await runInProcess(['--help']);
    expect(top.code).toBe(0);
    const names = [...top.out.matchAll(/^ {2}(\w+) {2,}/gm)].map((m) => m[1]!);
    expect(names).toEqual(expect.arrayContaining(['validate', 'schema']));
    for (const name of names) {
      const r = await runInProcess([name, '--help']);
      expect(r.code, name).toBe(0);
      expect(r.out, name).toMatch(new RegExp(`^Usage: marionette ${name}`));
    }
  });
});

describe('marionette schema', () => {
  it('prints the committed JSON Schema', async () => {
    const r = await runInProcess(['schema']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(readJson(`${fixture('../../shared/rig/rig.schema.json')}`));
  });
});
