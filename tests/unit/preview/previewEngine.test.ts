/**
 * The preview engine (renderer/src/preview/engine.ts) on the shipped Armed Mine: the recording is a pure
 * function of (rig, inputs), so re-simulating from a snapshot after a scrub or an input edit reproduces
 * the frames bit for bit, and inputs act exactly at their frame.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig } from '../../../shared/rig';
import { PreviewEngine, SNAPSHOT_EVERY } from '../../../shared/preview/engine';

const path = new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url);
const rig = loadRig(JSON.parse(readFileSync(path, 'utf8')), { source: 'armed-mine.rig.json' });

const bodyY = (e: PreviewEngine, f: number, body = 'body') => e.recorder.frame(f).bodies[body]!.p[1]!;

describe('PreviewEngine', () => {
  it('records frame 0 at the rest pose and one frame per step after it', () => {
    const e = new PreviewEngine(rig);
    expect(e.length).toBe(1);
    expect(e.advance(10)).toBe(10);
    expect(e.length).toBe(11);
    expect(e.recorder.frame(10).t).toBeCloseTo(10 * rig.simulation.dt, 12);
  });

  it('re-simulates from the snapshot before a new input and reproduces the untouched frames bit for bit', () => {
    const e = new PreviewEngine(rig);
    e.advance(150);
    const before = e.slice(0, 151).frames;
    const len = e.setInputs([{ kind: 'impulse', frame: 100, body: 'body', point: [0, 0.3, 0], impulse: [40, 0, 0] }]);
    // Truncated to the snapshot at or before frame 100.
    expect(len).toBe(100 - (100 % SNAPSHOT_EVERY) + 1);
    e.advance(151 - len);
    const after = e.slice(0, 151).frames;
    const size = e.frameSize;
    // Frames up to the input's frame (inclusive) are the same numbers; the impulse changes frame 101 on.
    expect(Array.from(after.subarray(0, 101 * size))).toEqual(Array.from(before.subarray(0, 101 * size)));
    const vx = (frames: Float64Array, f: number) => frames[f * size + 1 + 7]!; // body v.x
    expect(vx(after, 101) - vx(before, 101)).toBeGreaterThan(0.5);
    // Removing the input again gives back the original recording exactly.
    e.setInputs([]);
    e.advance(151 - e.length);
    expect(Array.from(e.slice(0, 151).frames)).toEqual(Array.from(before));
  });

  it('a rebuilt engine with the same inputs gives the same frames (determinism)', () => {
    const inputs = [
      { kind: 'blast', frame: 20, center: [0.3, 0, 0.2], radius: 2, strength: 30 },
      { kind: 'limp', frame: 40, joints: 'all', limp: true },
    ] as const;
    const a = new PreviewEngine(rig), b = new PreviewEngine(rig);
    a.setInputs(inputs.map((i) => ({ ...i })) as never); b.setInputs(inputs.map((i) => ({ ...i })) as never);
    a.advance(80); b.advance(80);
    expect(Array.from(a.slice(0, 81).frames)).toEqual(Array.from(b.slice(0, 81).frames));
  });

  it('going limp switches the motors off in the aux record and carries the last two transforms\' velocity over', () => {
    const e = new PreviewEngine(rig);
    e.setInputs([{ kind: 'limp', frame: 60, joints: ['elbow'], limp: true }]);
    e.advance(70);
    const a = e.aux, aux = e.slice(0, 71).aux;
    const elbow = rig.joints.findIndex((j) => j.name === 'elbow');
    expect(aux[60 * a.size + a.motors + elbow]).toBe(1);
    expect(aux[61 * a.size + a.motors + elbow]).toBe(0);
    expect(aux[61 * a.size + a.motors + 0]).toBe(1);
    // Limp motors report no torque after the switch.
    expect(Math.abs(e.recorder.frame(65).joints.elbow!.torque)).toBeLessThan(1e-9);
  });

  it('a grab spring lifts the body toward the target and lets go on release', () => {
    const e = new PreviewEngine(rig);
    e.advance(30);
    const p = e.recorder.frame(30).bodies.body!.p as [number, number, number];
    e.setInputs([
      { kind: 'grab', frame: 30, body: 'body', point: [p[0], p[1], p[2]] },
      { kind: 'grabMove', frame: 31, target: [p[0], p[1] + 0.5, p[2]] },
      { kind: 'release', frame: 120 },
    ]);
    e.advance(200 - e.length);
    expect(bodyY(e, 110) - p[1]).toBeGreaterThan(0.25);
    // Released: it falls back under 10 cm of where it started.
    expect(bodyY(e, 199) - p[1]).toBeLessThan(0.1);
    // The aux record shows the spring while held.
    expect(e.slice(100, 101).aux[e.aux.grab]).toBe(1);
    expect(e.slice(150, 151).aux[e.aux.grab]).toBe(0);
  });

  it('steering keys switch the target at their frame', () => {
    const e = new PreviewEngine(rig);
    e.setInputs([{ kind: 'target', frame: 10, target: [5, 0, 0] }]);
    e.advance(20);
    const aux = e.slice(0, 20).aux, a = e.aux;
    expect(Array.from(aux.subarray(9 * a.size, 9 * a.size + 4))).toEqual([0, 0, 5, 1]);
    expect(Array.from(aux.subarray(10 * a.size, 10 * a.size + 4))).toEqual([5, 0, 0, 1]);
  });
});
