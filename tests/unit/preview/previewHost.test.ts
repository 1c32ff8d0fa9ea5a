/**
 * The preview host's flow control (renderer/src/preview/host.ts): while it fills the timeline at most one
 * 'frames' batch is in flight — the worker never queues batches behind a slow main-thread frame — and the
 * next batch, sent on the client's ack, carries everything computed meanwhile, so the recording the client
 * mirrors is complete and contiguous, and what arrives is always the newest the host has. Two batches go
 * out without waiting: the one holding the frame under the playhead after an edit, and the last frames of
 * the timeline (a busy client takes them with the batch before, a round trip sooner).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../../shared/preview/host';
import type { FromHost } from '../../../shared/preview/protocol';
import { PreviewEngine } from '../../../shared/preview/engine';
import { loadRig } from '../../../shared/rig';

const rig = JSON.parse(readFileSync(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8'));
type Frames = Extract<FromHost, { type: 'frames' }>;

/** The host's clock: each reading advances it 1 ms, so a 12 ms slice is the same few loops of frames on every
 *  machine (with the wall clock a fast enough machine would fill 600 frames in one slice). */
function tickClock() { let t = 0; const now = () => (t += 1); return { now, wall: now }; }

function harness() {
  const posted: FromHost[] = [];
  const queue: (() => void)[] = [];
  const host = createHost((m) => posted.push(m), (fn) => queue.push(fn), tickClock());
  const drain = () => { for (let i = 0; i < 1000 && queue.length > 0; i++) queue.shift()!(); };
  const batches = () => posted.filter((m): m is Frames => m.type === 'frames');
  return { host, posted, queue, drain, batches };
}

describe('preview host flow control', () => {
  it('keeps one batch in flight while filling; the last frames go out at once; on ack the next carries every frame computed meanwhile', () => {
    const h = harness();
    // 600 frames take several 12 ms slices (the host computes ~16 000 frames/s at best).
    h.host.receive({ type: 'horizon', frames: 600 });
    h.host.receive({ type: 'rig', rig, generation: 1 });
    expect(h.posted[0]!.type).toBe('reset');
    h.drain(); // the host simulates all 600 frames in several slices without any ack
    // The first slice's batch, then — no ack yet — only the last frames, which complete the timeline.
    expect(h.batches()).toHaveLength(2);
    const first = h.batches()[0]!;
    expect(first.start).toBe(0);
    expect(first.count).toBeLessThan(600);
    expect(first.computedAt).toBeLessThanOrEqual(first.postedAt);
    const second = h.batches()[1]!;
    expect(second.start).toBe(first.count);
    expect(second.start + second.count).toBe(600);

    h.host.receive({ type: 'ack' });
    h.host.receive({ type: 'ack' });
    h.drain();
    expect(h.batches()).toHaveLength(2); // nothing left to send

    // The two batches are the recording: the same numbers as the engine run directly.
    const direct = new PreviewEngine(loadRig(rig));
    direct.advance(599);
    const size = direct.frameSize;
    const all = new Float64Array(600 * size);
    all.set(first.frames, 0);
    all.set(second.frames, first.count * size);
    expect(Array.from(all)).toEqual(Array.from(direct.slice(0, 600).frames));
  });

  it('a new rig while a batch is in flight waits for the ack, then sends the new recording from frame 0', () => {
    const h = harness();
    h.host.receive({ type: 'horizon', frames: 600 });
    h.host.receive({ type: 'rig', rig, generation: 1 });
    h.queue.shift()!(); // one slice: its batch is in flight
    expect(h.batches()).toHaveLength(1);
    h.host.receive({ type: 'rig', rig: { ...rig, name: 'armed-mine-2' }, generation: 2 });
    h.queue.shift()!(); // one slice of the new rig (12 ms: not the whole timeline): nothing posted
    expect(h.batches()).toHaveLength(1);
    h.host.receive({ type: 'ack' });
    const next = h.batches()[1]!;
    const resetAt = h.posted.findIndex((m) => m.type === 'reset' && m.generation === 2);
    expect(resetAt).toBeGreaterThan(0);
    expect(h.posted.indexOf(next)).toBeGreaterThan(resetAt);
    expect(next.start).toBe(0);
    expect(next.count).toBeGreaterThan(0);
    expect(next.count).toBeLessThan(600);
    // No ack: the rest of the timeline, once complete, goes out at once.
    h.drain();
    expect(h.batches()).toHaveLength(3);
    expect([h.batches()[2]!.start, h.batches()[2]!.start + h.batches()[2]!.count]).toEqual([next.count, 600]);
  });

  it('a motor-gain edit with the motors limp until frame 150 resets keeping the frames before the snapshot, and re-simulates the rest exactly', () => {
    const h = harness();
    const inputs = [{ kind: 'limp', frame: 0, joints: 'all', limp: true }, { kind: 'limp', frame: 150, joints: 'all', limp: false }] as const;
    h.host.receive({ type: 'horizon', frames: 301 });
    h.host.receive({ type: 'inputs', inputs: inputs.map((i) => ({ ...i })) as never });
    h.host.receive({ type: 'rig', rig, generation: 1 });
    h.drain(); h.host.receive({ type: 'ack' }); h.drain(); h.host.receive({ type: 'ack' });
    expect(h.batches().reduce((n, b) => n + b.count, 0)).toBe(301);
    const edited = structuredClone(rig);
    edited.joints.find((j: { name: string }) => j.name === 'elbow').motor.errorReduction = 0.3;
    const mark = h.posted.length;
    h.host.receive({ type: 'rig', rig: edited, generation: 2 });
    const reset = h.posted[mark] as Extract<FromHost, { type: 'reset' }>;
    expect(reset.type).toBe('reset');
    expect(reset.keep).toBe(150 + 1);
    h.drain(); h.host.receive({ type: 'ack' }); h.drain(); h.host.receive({ type: 'ack' });
    const after = h.batches().filter((b) => h.posted.indexOf(b) > mark);
    expect(after[0]!.start).toBe(151);
    expect(after.reduce((n, b) => n + b.count, 0)).toBe(150);
    // The kept frames and the new ones are a full run of the edited rig.
    const direct = new PreviewEngine(loadRig(edited));
    direct.setInputs(inputs.map((i) => ({ ...i })) as never);
    direct.advance(300);
    const size = direct.frameSize, got = new Float64Array(150 * size);
    let o = 0;
    for (const b of after) { got.set(b.frames, o); o += b.frames.length; }
    expect(Array.from(got)).toEqual(Array.from(direct.slice(151, 301).frames));
  });

  it('after an edit the frame under the playhead is posted first, at once, even with a batch in flight', () => {
    const h = harness();
    h.host.receive({ type: 'horizon', frames: 1201 });
    h.host.receive({ type: 'rig', rig, generation: 1 });
    h.drain(); h.host.receive({ type: 'ack' }); h.drain();
    const mark = h.posted.length;
    // A batch is in flight (not acknowledged); the user moves a path point with the playhead at frame 400.
    const edited = structuredClone(rig);
    edited.controllers[0].controlPoints[2][1] += 0.03;
    h.host.receive({ type: 'rig', rig: edited, generation: 2, playhead: 400 });
    const reset = h.posted[mark] as Extract<FromHost, { type: 'reset' }>;
    expect(reset.keep).toBe(1); // a controller parameter: frame 0 stays
    h.drain();
    const after = h.batches().filter((b) => h.posted.indexOf(b) > mark);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after[0]!.start).toBe(1);
    expect(after[0]!.start + after[0]!.count).toBe(401);
  });
});
