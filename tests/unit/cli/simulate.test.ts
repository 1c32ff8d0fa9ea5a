import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRig } from '../../../shared/rig';
import type { Trace } from '../../../shared/runtime';
import { fixture, readJson } from '../rig/corpus';
import { runInProcess, runProcess } from './run';

const tmp = mkdtempSync(join(tmpdir(), 'marionette-sim-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const pendulum = fixture('rigs/pendulum.rig.json');

describe('marionette simulate', () => {
  it('writes the documented trace, identical across two runs (determinism, separate processes)', () => {
    const a = join(tmp, 'a.json'), b = join(tmp, 'b.json');
    const args = ['--seconds', '2', '--impulse', 'link3@0.5:0,4,1', '--limp', 'wrist@1'];
    const r1 = runProcess(['simulate', pendulum, ...args, '--out', a]);
    const r2 = runProcess(['simulate', pendulum, ...args, '--out', b]);
    expect(r1.code, r1.err).toBe(0);
    expect(r2.code).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
    const trace = readJson(a) as Trace;
    expect(trace.rig).toBe('pendulum');
    expect(trace.dt).toBeCloseTo(1 / 60, 15);
    expect(trace.frames).toHaveLength(120);
    const f = trace.frames[59]!;
    expect(f.t).toBeCloseTo(1, 12);
    expect(Object.keys(f.bodies)).toEqual(['base', 'link1', 'link2', 'link3']);
    expect(Object.keys(f.bodies.link1!)).toEqual(['p', 'q', 'v', 'w']);
    expect(Object.keys(f.joints.elbow!)).toEqual(['error', 'torque', 'maxTorque', 'saturated', 'torqueMagnitude']);
    // A one-row (hinge) motor's torque vector is its one row.
    expect(f.joints.elbow!.torqueMagnitude).toBe(f.joints.elbow!.torque);
    expect(f.joints.wrist!.maxTorque).toBe(30);
    expect(trace.frames[61]!.joints.wrist!.maxTorque).toBe(0); // limp from t = 1 s
    // The impulse at 0.5 s kicked link3 upward: its vertical velocity jumps between frames 29 and 30.
    expect(trace.frames[30]!.bodies.link3!.v[1]! - trace.frames[29]!.bodies.link3!.v[1]!).toBeGreaterThan(0.5);
    expect(r1.out).toMatch(/root "link1": travelled [\d.]+ m \(net [\d.]+ m\), mean speed [\d.]+ m\/s/);
    expect(r1.out).toMatch(/motor saturation [\d.]+% of powered joint-steps/);
  });

  it('CSV carries the same numbers as JSON, flattened, every K-th step', async () => {
    const json = join(tmp, 'k.json'), csv = join(tmp, 'k.csv');
    expect((await runInProcess(['simulate', pendulum, '--seconds', '1', '--every', '6', '--out', json])).code).toBe(0);
    expect((await runInProcess(['simulate', pendulum, '--seconds', '1', '--every', '6', '--out', csv])).code).toBe(0);
    const trace = readJson(json) as Trace;
    const [header, ...rows] = readFileSync(csv, 'utf8').trim().split('\n');
    expect(trace.frames).toHaveLength(10);
    expect(trace.dt).toBeCloseTo(0.1, 12);
    expect(rows).toHaveLength(10);
    const cols = header!.split(',');
    expect(cols.slice(0, 4)).toEqual(['t', 'base.p.x', 'base.p.y', 'base.p.z']);
    expect(cols).toContain('elbow.saturated');
    const last = rows[9]!.split(',').map(Number);
    expect(last[cols.indexOf('t')]).toBe(trace.frames[9]!.t);
    expect(last[cols.indexOf('link3.q.w')]).toBe(trace.frames[9]!.bodies.link3!.q[3]);
    expect(last[cols.indexOf('shoulder.torque')]).toBe(trace.frames[9]!.joints.shoulder!.torque);
  });

  it('rejects bad options as usage errors naming the option (exit 2), bad rigs with exit 1', async () => {
    const cases: [string[], string][] = [
      [['simulate', pendulum], 'simulate needs --seconds S'],
      [['simulate', pendulum, '--seconds', '0'], '--seconds must be a positive number of seconds, got "0"'],
      [['simulate', pendulum, '--seconds', '1', '--impulse', 'arm@1:0,1,0'], '--impulse: rig "pendulum" has no body "arm"'],
      [['simulate', pendulum, '--seconds', '1', '--impulse', 'link1@1:0,1'], '--impulse vector must be three numbers x,y,z'],
      [['simulate', pendulum, '--seconds', '1', '--limp', 'knee@1'], '--limp: rig "pendulum" has no joint "knee"'],
      [['simulate', pendulum, '--seconds', '1', '--out', 'trace.txt'], '--out must end in .json or .csv'],
      [['simulate', pendulum, '--seconds', '1', '--target', '1,2'], '--target must be three numbers x,y,z'],
    ];
    for (const [argv, message] of cases) {
      const r = await runInProcess(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain(message);
    }
    const bad = await runInProcess(['simulate', fixture('bad-rigs/joint-cycle.json'), '--seconds', '1']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('joint-cycle.json: invalid rig (1 problem)');
  });
});

describe('marionette export', () => {
  it('writes the project\'s rig, validated, with computed mass properties recomputed from the shapes', async () => {
    const rig = readJson(pendulum) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const b of rig.bodies) delete b.computed;
    rig.bodies[1].computed = { mass: 1, centroid: [0, 0, 0], inertia: [1, 0, 0, 0, 1, 0, 0, 0, 1] }; // stale: replaced
    const project = join(tmp, 'p.marionette'), out = join(tmp, 'p.rig.json');
    writeFileSync(project, JSON.stringify({ format: 'marionette-project', version: 1, creature: { name: 'x.glb', path: 'x.glb' }, rig }));
    const r = await runInProcess(['export', project, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('rig "pendulum" written — 4 bodies, 3 joints, 0 controllers, total mass');
    const exported = loadRig(readFileSync(out, 'utf8'));
    expect(exported).toEqual(loadRig(readFileSync(pendulum, 'utf8')));

    rig.joints[0].bodyA = 'nowhere';
    writeFileSync(project, JSON.stringify({ format: 'marionette-project', version: 1, creature: { name: 'x.glb', path: 'x.glb' }, rig }));
    const bad = await runInProcess(['export', project, '--out', out]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`${project}: the project's rig is invalid (1 problem)\n  rig.joints[0].bodyA: names body "nowhere", which does not exist`);
    writeFileSync(project, '{"format":"something-else"}');
    expect((await runInProcess(['export', project, '--out', out])).err).toContain('this is not a Marionette project');
    expect((await runInProcess(['export', project])).code).toBe(2);
  });
});

describe('marionette simulate --solver', () => {
  it('--solver articulated runs the rig in joint coordinates: same trace layout, joint error at rounding; a bad name is a usage error', () => {
    const out = join(tmp, 'art.json');
    const r = runProcess(['simulate', pendulum, '--seconds', '1', '--solver', 'articulated', '--limp', 'wrist@0.5', '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/\(articulated solver\)/);
    const trace = readJson(out) as Trace;
    expect(trace.frames).toHaveLength(60);
    expect(Object.keys(trace.frames[10]!.bodies)).toEqual(['base', 'link1', 'link2', 'link3']);
    const worst = Math.max(...trace.frames.flatMap((f) => Object.values(f.joints).map((j) => j.error)));
    expect(worst).toBeLessThan(1e-9);
    expect(trace.frames[10]!.joints.wrist!.maxTorque).toBe(30);
    expect(trace.frames[40]!.joints.wrist!.maxTorque).toBe(0); // limp from 0.5 s: its friction torque (0)
    const rigid = runProcess(['simulate', pendulum, '--seconds', '0.1', '--solver', 'rigid']);
    expect(rigid.out).toMatch(/\(rigid solver\)/);
    const bad = runProcess(['simulate', pendulum, '--seconds', '1', '--solver', 'featherstone']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--solver must be one of rigid, articulated, particle, got "featherstone"/);
    const particle = runProcess(['simulate', pendulum, '--seconds', '0.5', '--solver', 'particle']);
    expect(particle.code, particle.err).toBe(0);
  });
});
