/**
 * `marionette simulate` / `validate` on particle scenes and particle rigs (issue 7): the trace carries
 * "particles": {NAME: [x,y,z]}, the CSV its columns, --impulse acts at the bone's midpoint, bad scenes
 * fail with the file, the field and the reason.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createParticleSimulation } from '../../../shared/physics/particles';
import { repo, readJson } from '../rig/corpus';
import { runInProcess } from './run';

const tmp = mkdtempSync(join(tmpdir(), 'marionette-particles-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const example = (name: string) => `${repo}assets/examples/${name}.json`;

interface ParticleTrace { rig: string; solver: string; dt: number; frames: { t: number; particles: Record<string, number[]> }[] }

describe('marionette simulate on particle scenes', () => {
  it('runs the ragdoll example for 1 s: every frame has every particle, finite, matching the library run', async () => {
    const out = join(tmp, 'ragdoll.json');
    const r = await runInProcess(['simulate', example('ragdoll'), '--seconds', '1', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const trace = readJson(out) as ParticleTrace;
    expect(trace.solver).toBe('particle');
    expect(trace.dt).toBeCloseTo(1 / 120, 15);
    expect(trace.frames).toHaveLength(120);
    const sim = createParticleSimulation(readFileSync(example('ragdoll'), 'utf8'));
    for (const f of trace.frames) {
      expect(Object.keys(f.particles)).toEqual(sim.particleNames);
      for (const p of Object.values(f.particles)) { expect(p).toHaveLength(3); expect(p.every(Number.isFinite)).toBe(true); }
    }
    // The CLI is the library, step for step (the scene's scheduled clicks included).
    for (let s = 0; s < 120; s++) sim.step();
    const last = trace.frames[119]!;
    sim.particleNames.forEach((n, i) => {
      for (let k = 0; k < 3; k++) expect(last.particles[n]![k]).toBe(sim.positions[3 * i + k]);
    });
    // It fell: the pelvis (dropped from 1.25 m) is lower after 1 s.
    expect(last.particles.pelvis![1]!).toBeLessThan(trace.frames[0]!.particles.pelvis![1]! - 0.05);
    expect(r.out).toMatch(/root particle "pelvis": travelled [\d.]+ m \(net [\d.]+ m\)/);
    expect(r.out).toMatch(/max length error [\d.e-]+% \(bone "\w+"\)/);
    expect(r.out).toMatch(/clicks: \d+ scheduled by the scene, 0 from --impulse/);
  });

  it('--impulse BONE@T:x,y,z pushes the bone at its midpoint: the planar pendulum leaves its plane only with it', async () => {
    const plain = join(tmp, 'plain.json'), kicked = join(tmp, 'kicked.json');
    const a = await runInProcess(['simulate', example('double-pendulum'), '--seconds', '1', '--out', plain]);
    const b = await runInProcess(['simulate', example('double-pendulum'), '--seconds', '1', '--impulse', 'lower@0.5:0,0,0.4', '--out', kicked]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    const ta = readJson(plain) as ParticleTrace, tb = readJson(kicked) as ParticleTrace;
    // Before the click (step 60) the runs are identical; the plain one stays in z = 0.
    for (let i = 0; i < 59; i++) expect(tb.frames[i]!.particles).toEqual(ta.frames[i]!.particles);
    for (const f of ta.frames) expect(Math.abs(f.particles.end![2]!)).toBeLessThan(1e-12);
    // After it, the free end moves toward +z (half of 0.4 N·s on its 1 kg, the other half on the elbow).
    const end = tb.frames[80]!.particles.end!;
    expect(end[2]!).toBeGreaterThan(0.01);
    expect(b.out).toMatch(/0 scheduled by the scene, 1 from --impulse/);
  });

  it('CSV has t and NAME.x/.y/.z per particle, the same numbers as the JSON', async () => {
    const json = join(tmp, 'c.json'), csv = join(tmp, 'c.csv');
    expect((await runInProcess(['simulate', example('colliding-bones'), '--seconds', '1', '--every', '10', '--out', json])).code).toBe(0);
    expect((await runInProcess(['simulate', example('colliding-bones'), '--seconds', '1', '--every', '10', '--out', csv])).code).toBe(0);
    const trace = readJson(json) as ParticleTrace;
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    const names = Object.keys(trace.frames[0]!.particles);
    expect(lines[0]).toBe(['t', ...names.flatMap((n) => [`${n}.x`, `${n}.y`, `${n}.z`])].join(','));
    expect(lines).toHaveLength(1 + trace.frames.length);
    const row = lines[5]!.split(',').map(Number), f = trace.frames[4]!;
    expect(row[0]).toBe(f.t);
    expect(row.slice(1)).toEqual(names.flatMap((n) => f.particles[n]!));
  });

  it('a rig with solver "particle" runs under the particle solver, particles named after its bones', async () => {
    const rig = readJson(`${repo}assets/creatures/humanoid.rig.json`) as Record<string, unknown> & { skeleton: { bones: { name: string }[] } };
    const file = join(tmp, 'humanoid-particle.rig.json'), out = join(tmp, 'h.json');
    writeFileSync(file, JSON.stringify({ ...rig, solver: 'particle' }));
    const r = await runInProcess(['simulate', file, '--seconds', '0.5', '--impulse', `${rig.skeleton.bones[1]!.name}@0.1:0,0,10`, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/particle rig "/);
    const trace = readJson(out) as ParticleTrace;
    const particles = Object.keys(trace.frames.at(-1)!.particles);
    for (const b of rig.skeleton.bones) expect(particles).toContain(b.name);
    expect(Object.values(trace.frames.at(-1)!.particles).flat().every(Number.isFinite)).toBe(true);
    // The same rig as "rigid" still runs the rigid runtime (bodies in the trace, no particles).
    const rigidOut = join(tmp, 'h-rigid.json');
    expect((await runInProcess(['simulate', `${repo}assets/creatures/humanoid.rig.json`, '--seconds', '0.1', '--out', rigidOut])).code).toBe(0);
    const rigid = readJson(rigidOut) as { frames: Record<string, unknown>[] };
    expect(rigid.frames[0]!.particles).toBeUndefined();
    expect(Object.keys(rigid.frames[0]!.bodies as object).length).toBeGreaterThan(0);
  });

  it('a bad scene exits 1 naming the file, the field and the reason; so does validate', async () => {
    const scene = readJson(example('double-pendulum')) as { bones: { tip: string }[] };
    scene.bones[1]!.tip = 'nowhere';
    const file = join(tmp, 'broken-pendulum.json');
    writeFileSync(file, JSON.stringify(scene));
    const r = await runInProcess(['simulate', file, '--seconds', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('broken-pendulum.json');
    expect(r.err).toMatch(/bones\[1\]\.tip.*"nowhere".*not in `particles`/);
    const v = await runInProcess(['validate', file]);
    expect(v.code).toBe(1);
    expect(v.out).toMatch(/INVALID particle scene/);
    expect(v.out).toMatch(/bones\[1\]\.tip/);
    const limp = await runInProcess(['simulate', example('double-pendulum'), '--seconds', '1', '--limp', 'x@0']);
    expect(limp.code).toBe(2);
    expect(limp.err).toMatch(/no motors/);
  });

  it('validate accepts every shipped example as a particle scene', async () => {
    const names = ['double-pendulum', 'double-pendulum-90', 'double-pendulum-170', 'colliding-bones', 'colliding-bones-min-distance', 'ragdoll'];
    const r = await runInProcess(['validate', ...names.map(example)]);
    expect(r.code, r.out).toBe(0);
    expect(r.out.match(/valid — particle scene/g)).toHaveLength(names.length);
  });
});
