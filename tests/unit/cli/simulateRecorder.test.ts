/**
 * `marionette simulate` records through FrameRecorder (flat frames, objects built only when the file is
 * written). Its trace must be byte-for-byte what stepping the runtime and serialising Simulation.frame()
 * after every kept step gives — the format of docs/runtime.md — for JSON and CSV, with --every, an impulse
 * and a limp; and the summary's figures must come from every step, not only the kept ones.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulation, csvHeader, traceColumns, traceRow, type TraceFrame } from '../../../shared/index';
import { loadRig } from '../../../shared/rig';
import { distance, type Vec3 } from '../../../shared/math/vec3';
import { repo } from '../rig/corpus';
import { runInProcess } from './run';

const tmp = mkdtempSync(join(tmpdir(), 'marionette-sim-rec-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const mine = `${repo}assets/creatures/armed-mine.rig.json`;

/** The reference: the runtime stepped by hand, Simulation.frame() after every step. */
function reference(seconds: number, every: number) {
  const rig = loadRig(readFileSync(mine, 'utf8'));
  const sim = createSimulation(rig);
  sim.setTarget([0, 0, 5]);
  const steps = Math.round(seconds / rig.simulation.dt);
  const kept: TraceFrame[] = [];
  let path = 0, prev = sim.bodyPose('body').position as Vec3;
  for (let s = 0; s < steps; s++) {
    if (s === 30) sim.applyImpulse('body', [1, 0.5, 0]);
    if (s === 90) sim.setMotorsEnabled(false, ['elbow']);
    sim.step();
    const f = sim.frame();
    path += distance(f.bodies.body!.p as Vec3, prev);
    prev = f.bodies.body!.p as Vec3;
    if ((s + 1) % every === 0) kept.push(f);
  }
  const json = `{"rig":${JSON.stringify(rig.name)},"dt":${rig.simulation.dt * every},"frames":[\n${kept.map((f) => JSON.stringify(f)).join(',\n')}\n]}\n`;
  const csv = `${[csvHeader(traceColumns(kept[0]!)), ...kept.map(traceRow)].join('\n')}\n`;
  return { json, csv, path, frames: kept.length };
}

describe('simulate records through FrameRecorder', () => {
  it('writes byte-identical JSON and CSV traces to serialising Simulation.frame() per kept step', async () => {
    const ref = reference(2, 3);
    const args = ['--seconds', '2', '--every', '3', '--target', '0,0,5', '--impulse', 'body@0.5:1,0.5,0', '--limp', 'elbow@1.5'];
    const json = join(tmp, 'mine.json'), csv = join(tmp, 'mine.csv');
    const a = await runInProcess(['simulate', mine, ...args, '--out', json]);
    const b = await runInProcess(['simulate', mine, ...args, '--out', csv]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    expect(ref.frames).toBe(40);
    expect(readFileSync(json, 'utf8')).toBe(ref.json);
    expect(readFileSync(csv, 'utf8')).toBe(ref.csv);
    // The path length sums every step's displacement (120 steps), not the 40 kept frames'.
    const reported = Number(/travelled ([\d.]+) m/.exec(a.out)![1]);
    expect(reported).toBe(Number(ref.path.toPrecision(4)));
    expect(a.out).toContain('(40 frames)');
  });
});
