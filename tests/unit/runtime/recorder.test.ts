/**
 * FrameRecorder: flat frames in a typed array, trace objects on demand — and exactly the frames (and CSV
 * rows) that Simulation.frame() gives, bit for bit, so the trace format of docs/runtime.md is unchanged.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { createSimulation, FrameRecorder, frameFromFlat, traceColumns, traceRow, type TraceFrame } from '../../../shared/runtime';
import { cyclicPathControllerFactory } from '../../../shared/gait/register';
import { fixture } from '../rig/corpus';

const pendulum = (): RigDocument => loadRig(readFileSync(fixture('rigs/pendulum.rig.json'), 'utf8'));
const armedMinePath = new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url);
const armedMine = (): RigDocument => loadRig(readFileSync(armedMinePath, 'utf8'));
const gait = { controllers: { cyclicPath: cyclicPathControllerFactory } };

describe('FrameRecorder', () => {
  it('records frames identical to Simulation.frame() (bodies, joints with motors and saturation, controller phase)', () => {
    const sim = createSimulation(armedMine(), gait);
    sim.setTarget([0, 0, 5]);
    const rec = new FrameRecorder(sim, { capacity: 200 });
    const direct: TraceFrame[] = [];
    for (let i = 0; i < 120; i++) {
      sim.step();
      rec.record();
      direct.push(sim.frame());
    }
    expect(rec.length).toBe(120);
    for (let i = 0; i < 120; i++) expect(rec.frame(i)).toEqual(direct[i]);
    expect(JSON.stringify(rec.trace().frames)).toBe(JSON.stringify(direct));
    // The run was not trivial: the motors worked and the gait's phase moved.
    expect(direct.some((f) => Object.values(f.joints).some((j) => j.torque > 1))).toBe(true);
    expect(direct[119]!.controllers['hand-path']!.phase).not.toBe(direct[0]!.controllers['hand-path']!.phase);
  });

  it('stores a frame as the CSV columns in order: read(i) joined is traceRow(frame(i))', () => {
    const sim = createSimulation(pendulum());
    const rec = new FrameRecorder(sim, { capacity: 4 });
    sim.applyImpulse('link2', [3, 0, 1]);
    for (let i = 0; i < 3; i++) { sim.step(); rec.record(); }
    const out = new Float64Array(rec.frameSize);
    expect(rec.frameSize).toBe(traceColumns(rec.frame(0)).length);
    for (let i = 0; i < 3; i++) {
      const row = traceRow(rec.frame(i)).split(',').map(Number);
      expect(Array.from(rec.read(i, out))).toEqual(row);
    }
    expect(frameFromFlat(rec.layout, out)).toEqual(rec.frame(2));
  });

  it('grows past its capacity without losing frames, and trace(every) samples with dt = rig dt × every', () => {
    const sim = createSimulation(pendulum());
    const rec = new FrameRecorder(sim, { capacity: 2 });
    const direct: TraceFrame[] = [];
    for (let i = 0; i < 9; i++) { sim.step(); rec.record(); direct.push(sim.frame()); }
    expect(rec.capacity).toBeGreaterThanOrEqual(9);
    direct.forEach((f, i) => expect(rec.frame(i)).toEqual(f));
    const t = rec.trace(3);
    expect(t.rig).toBe('pendulum');
    expect(t.dt).toBeCloseTo(sim.dt * 3, 15);
    expect(t.frames.map((f) => f.t)).toEqual([direct[2]!.t, direct[5]!.t, direct[8]!.t]);
    // A column over time: link1's p.y (column 1 + 13·body index + 1).
    const body = sim.bodyNames.indexOf('link1');
    expect(Array.from(rec.column(1 + 13 * body + 1))).toEqual(direct.map((f) => f.bodies.link1!.p[1]));
  });

  it('truncate + restore re-simulates the same frames (the timeline after a scrub)', () => {
    const sim = createSimulation(armedMine(), gait);
    sim.setTarget([0, 0, 5]);
    const rec = new FrameRecorder(sim, { capacity: 64 });
    let snap = sim.snapshot();
    for (let i = 0; i < 60; i++) { if (i === 30) snap = sim.snapshot(); sim.step(); rec.record(); }
    const before = JSON.stringify(rec.trace().frames.slice(30));
    rec.truncate(30);
    sim.restore(snap);
    for (let i = 30; i < 60; i++) { sim.step(); rec.record(); }
    expect(rec.length).toBe(60);
    expect(JSON.stringify(rec.trace().frames.slice(30))).toBe(before);
  });

  it('refuses frames it has not recorded and bad arguments, saying which', () => {
    const sim = createSimulation(pendulum());
    const rec = new FrameRecorder(sim, { capacity: 2 });
    expect(() => rec.frame(0)).toThrow(/frame 0 is not recorded/);
    expect(() => new FrameRecorder(sim, { capacity: 0 })).toThrow(/capacity must be an integer ≥ 1/);
    sim.step(); rec.record();
    expect(() => rec.read(0, new Float64Array(3))).toThrow(/out holds 3 numbers, a frame needs/);
    expect(() => rec.column(rec.frameSize)).toThrow(/column \d+ is outside/);
    expect(() => sim.writeFrame(new Float64Array(rec.frameSize), 1)).toThrow(/need \d+ numbers from offset 1/);
  });
});
