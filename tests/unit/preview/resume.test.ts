/**
 * Partial re-simulation (issue 17): an edit that cannot change the past keeps the recorded frames before
 * it and re-simulates from the last snapshot at or before its first affected frame (editFrontier.ts,
 * PreviewEngine.resumeFrom). Each kind of edit — a controller parameter, a motor gain, a steering target
 * key, a body — gives exactly the frames (flat frames and aux records, bit for bit) of a full run of the
 * edited rig from frame 0, and only a body edit has to start from frame 0.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { PreviewEngine, SNAPSHOT_EVERY, type PreviewInput } from '../../../shared/preview/engine';
import { editFrontier } from '../../../shared/preview/editFrontier';

const path = new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url);
const mine = loadRig(JSON.parse(readFileSync(path, 'utf8')), { source: 'armed-mine.rig.json' });
const FRAMES = 400;

/** FNV-1a over the bytes of the recorded frames and aux records [0, n): equal digests = equal bits. */
function digest(e: PreviewEngine, n = FRAMES + 1): string {
  const { frames, aux } = e.slice(0, n);
  let h = 0x811c9dc5;
  for (const a of [frames, aux]) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) >>> 0;
  }
  return `${h.toString(16)}:${n}`;
}

function run(rig: RigDocument, inputs: PreviewInput[], frames = FRAMES): PreviewEngine {
  const e = new PreviewEngine(rig);
  e.setInputs(inputs);
  e.advance(frames);
  return e;
}

/** The edited rig after a run of the old one: resume as the host does; returns the engine and where it resumed. */
function resume(prev: PreviewEngine, next: RigDocument, inputs: PreviewInput[]): { engine: PreviewEngine; from: number; frontier: number } {
  const frontier = editFrontier(prev.rig, next, inputs);
  const engine = new PreviewEngine(next);
  engine.setInputs(inputs);
  const from = engine.resumeFrom(prev, frontier);
  expect(engine.length).toBe(from + 1);
  engine.advance(FRAMES + 1 - engine.length);
  return { engine, from, frontier };
}

const edit = (f: (r: RigDocument) => void): RigDocument => { const r = structuredClone(mine); f(r); return r; };

describe('partial re-simulation from a snapshot', () => {
  it('motor gain: with the motors limp until frame 150, an elbow gain edit keeps frames 0 … 150 and re-simulates the rest exactly', () => {
    const inputs: PreviewInput[] = [{ kind: 'limp', frame: 0, joints: 'all', limp: true }, { kind: 'limp', frame: 150, joints: 'all', limp: false }];
    const prev = run(mine, inputs);
    const next = edit((r) => { const j = r.joints.find((x) => x.name === 'elbow')!; if ('motor' in j) j.motor.errorReduction = 0.3; });
    const { engine, from, frontier } = resume(prev, next, inputs);
    expect(frontier).toBe(150);
    expect(from).toBe(150 - (150 % SNAPSHOT_EVERY));
    expect(digest(engine)).toBe(digest(run(next, inputs)));
    // The edit did change the recording after frame 150 (and not before).
    expect(digest(engine, 151)).toBe(digest(prev, 151));
    expect(digest(engine)).not.toBe(digest(prev));
  });

  it('motor gain on powered motors (the default) starts at frame 0 and still gives the full run\'s frames', () => {
    const prev = run(mine, []);
    const next = edit((r) => { const j = r.joints.find((x) => x.name === 'shoulder')!; if ('motor' in j) j.motor.errorReduction = 0.7; });
    const { engine, frontier } = resume(prev, next, []);
    expect(frontier).toBe(0);
    expect(digest(engine)).toBe(digest(run(next, [])));
    expect(digest(engine)).not.toBe(digest(prev));
  });

  it('controller parameter: the steering gain and largest skew, with no target until a key at frame 200, keep frames 0 … 200', () => {
    const inputs: PreviewInput[] = [{ kind: 'target', frame: 0, target: null }, { kind: 'target', frame: 200, target: [2, 0, 3] }];
    const prev = run(mine, inputs);
    // maxAngle too: a skew clamped at maxAngle by both gains would not change at all.
    const next = edit((r) => { r.controllers[0]!.steering.gain = 6; r.controllers[0]!.steering.maxAngle = 0.5; });
    const { engine, from, frontier } = resume(prev, next, inputs);
    expect(frontier).toBe(200);
    expect(from).toBe(200 - (200 % SNAPSHOT_EVERY));
    expect(digest(engine)).toBe(digest(run(next, inputs)));
    expect(digest(engine)).not.toBe(digest(prev));
  });

  it('controller parameter: a moved path control point re-simulates from frame 0\'s snapshot and matches the full run', () => {
    const prev = run(mine, []);
    const next = edit((r) => { const p = r.controllers[0]!.controlPoints[2]!; p[1] += 0.03; });
    const { engine, frontier } = resume(prev, next, []);
    expect(frontier).toBe(0);
    expect(digest(engine)).toBe(digest(run(next, [])));
    expect(digest(engine)).not.toBe(digest(prev));
  });

  it('target key: moving a steering key re-simulates from the snapshot before it and matches a full run with the new key', () => {
    const before: PreviewInput[] = [{ kind: 'target', frame: 250, target: [2, 0, 3] }];
    const after: PreviewInput[] = [{ kind: 'target', frame: 250, target: [-2, 0, 3] }];
    const e = run(mine, before);
    const len = e.setInputs(after);
    expect(len).toBe(250 - (250 % SNAPSHOT_EVERY) + 1);
    e.advance(FRAMES + 1 - e.length);
    expect(digest(e)).toBe(digest(run(mine, after)));
    expect(digest(e)).not.toBe(digest(run(mine, before)));
  });

  it('target key ON a snapshot frame: the kept snapshot frame records the new target too (its aux as a full run has it)', () => {
    const at = 2 * SNAPSHOT_EVERY; // a key exactly on a kept snapshot: the recording is truncated to that frame and keeps it
    const before: PreviewInput[] = [{ kind: 'target', frame: at, target: [2, 0, 3] }];
    const after: PreviewInput[] = [{ kind: 'target', frame: at, target: [-2, 0, 3] }];
    const e = run(mine, before);
    expect(e.setInputs(after)).toBe(at + 1);
    const kept = e.slice(at, at + 1).aux;
    expect(Array.from(kept.subarray(0, 4))).toEqual([-2, 0, 3, 1]);
    e.advance(FRAMES + 1 - e.length);
    expect(digest(e)).toBe(digest(run(mine, after)));
  });

  it('body edit: a heavier hand cannot keep any frame (frontier −1) and the fresh run is the full run', () => {
    const inputs: PreviewInput[] = [{ kind: 'limp', frame: 0, joints: 'all', limp: true }, { kind: 'limp', frame: 150, joints: 'all', limp: false }];
    const prev = run(mine, inputs);
    const next = edit((r) => { const b = r.bodies.find((x) => x.name === 'hand')!; if (b.mass == null) throw new Error('the hand has no mass'); b.mass *= 1.5; });
    const { engine, from, frontier } = resume(prev, next, inputs);
    expect(frontier).toBe(-1);
    expect(from).toBe(0);
    expect(digest(engine)).toBe(digest(run(next, inputs)));
  });

  it('motor gain on the hexapod (six limbs in a gait group, PD motors), limp until frame 90: resumes from frame 90 and matches the full run', () => {
    const hexapod = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/hexapod.rig.json', import.meta.url), 'utf8')), { source: 'hexapod.rig.json' });
    const inputs: PreviewInput[] = [{ kind: 'limp', frame: 0, joints: 'all', limp: true }, { kind: 'limp', frame: 90, joints: 'all', limp: false }];
    const runH = (r: RigDocument) => { const e = new PreviewEngine(r); e.setInputs(inputs); e.advance(200); return e; };
    const prev = runH(hexapod);
    const joint = hexapod.joints.find((j) => 'motor' in j && j.motor.mode === 'pd')!;
    const next = structuredClone(hexapod);
    const j = next.joints.find((x) => x.name === joint.name)!;
    if ('motor' in j) { j.motor.stiffness *= 1.3; j.motor.damping *= 1.1; }
    const frontier = editFrontier(hexapod, next, inputs);
    expect(frontier).toBe(90);
    const e = new PreviewEngine(next);
    e.setInputs(inputs);
    expect(e.resumeFrom(prev, frontier)).toBe(90);
    e.advance(201 - e.length);
    expect(digest(e, 201)).toBe(digest(runH(next), 201));
    expect(digest(e, 201)).not.toBe(digest(prev, 201));
    // Several limbs: a steering gain edit cannot wait for a target (the group steers together).
    expect(editFrontier(hexapod, { ...structuredClone(hexapod), controllers: hexapod.controllers.map((c, i) => (i === 0 ? { ...c, steering: { ...c.steering, gain: c.steering.gain + 1 } } : c)) }, [{ kind: 'target', frame: 0, target: null }])).toBe(0);
  });

  it('editFrontier: no change → Infinity; a joint limit or a motor target source → −1; friction of a motor limp from frame 90 → 90', () => {
    expect(editFrontier(mine, structuredClone(mine), [])).toBe(Infinity);
    expect(editFrontier(mine, edit((r) => { const j = r.joints.find((x) => x.name === 'elbow')!; if (j.type === 'hinge') j.limit = [-1, 1]; }), [])).toBe(-1);
    expect(editFrontier(mine, edit((r) => { const j = r.joints[0]!; if ('motor' in j) j.motor.target = { source: 'rest' }; }), [])).toBe(-1);
    const limp: PreviewInput[] = [{ kind: 'limp', frame: 90, joints: ['wrist'], limp: true }];
    expect(editFrontier(mine, edit((r) => { const j = r.joints.find((x) => x.name === 'wrist')!; if ('motor' in j) j.motor.frictionTorque = 2; }), limp)).toBe(90);
  });
});
