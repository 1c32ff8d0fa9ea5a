/**
 * Live simulate's host (shared/preview/live.ts), headless with a fake clock: a session starts from a frame
 * of the recording in exactly the recorded state, then steps at real time (one step per dt of clock, at
 * most MAX_CATCHUP per tick), posting only its newest frame; a grab acts at once and pulls the body toward
 * the spring's end; stop ends the stepping. Also PreviewEngine.applyNow.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig } from '../../../shared/rig';
import { PreviewEngine } from '../../../shared/preview/engine';
import { MAX_CATCHUP, createLiveHost, type FromLive } from '../../../shared/preview/live';
import type { PreviewInput } from '../../../shared/preview/input';
import { headingYaw, signedYawBetween, yawDirection } from '../../../shared/gait/steering';

const raw = JSON.parse(readFileSync(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8'));
const rig = loadRig(raw, { source: 'armed-mine.rig.json' });

function harness() {
  let now = 0;
  const queue: { at: number; fn: () => void }[] = [];
  const posted: FromLive[] = [];
  const host = createLiveHost((m) => posted.push(m), (fn, ms) => queue.push({ at: now + ms, fn }), { now: () => now });
  /** Let `ms` of clock pass, running every tick due. */
  const run = (ms: number) => {
    const end = now + ms;
    for (;;) {
      queue.sort((a, b) => a.at - b.at);
      const next = queue[0];
      if (!next || next.at > end) break;
      queue.shift();
      now = Math.max(now, next.at);
      next.fn();
    }
    now = end;
  };
  const frames = () => posted.filter((m): m is Extract<FromLive, { type: 'frame' }> => m.type === 'frame');
  return { host, run, posted, frames, jump: (ms: number) => { now += ms; } };
}

const bodyY = (frame: Float64Array) => frame[2]!; // 'body' p.y (index 0 is t)

describe('Live simulate host', () => {
  const inputs: PreviewInput[] = [{ kind: 'impulse', frame: 20, body: 'body', point: [0, 0.3, 0], impulse: [30, 0, 0] }, { kind: 'impulse', frame: 80, body: 'body', point: [0, 0.3, 0], impulse: [0, 0, 30] }];

  it('starts from the recorded frame bit for bit (inputs before it replayed, later ones not), then runs at real time', () => {
    const h = harness();
    h.host.receive({ type: 'start', session: 1, rig: raw, clips: [], inputs, frame: 60 });
    const rec = new PreviewEngine(rig);
    rec.setInputs(inputs);
    rec.advance(120);
    const first = h.frames()[0]!;
    expect(first.index).toBe(60);
    expect(Array.from(first.frame)).toEqual(Array.from(rec.slice(60, 61).frames));
    // One second of clock: 60 steps at the rig's dt (1/60 s), in ticks of about one step each.
    h.run(1000);
    const last = h.frames().at(-1)!;
    expect(last.index).toBeGreaterThanOrEqual(60 + 59);
    expect(last.index).toBeLessThanOrEqual(60 + 60);
    // Up to frame 80 it is the recording; the impulse at frame 80 is not replayed live.
    const live = h.host.engine!;
    expect(Array.from(live.slice(80, 81).frames)).toEqual(Array.from(rec.slice(80, 81).frames));
    expect(Array.from(live.slice(100, 101).frames)).not.toEqual(Array.from(rec.slice(100, 101).frames));
    expect(h.frames().length).toBeGreaterThan(40); // a frame per tick, only the newest each
    expect(h.frames().every((m) => m.frame.length === live.frameSize)).toBe(true);
  });

  it('a stall of the clock runs at most MAX_CATCHUP steps in the next tick (slow motion, not a spiral)', () => {
    const h = harness();
    h.host.receive({ type: 'start', session: 1, rig: raw, clips: [], inputs: [], frame: 0 });
    h.run(100);
    const before = h.frames().at(-1)!.index;
    h.jump(10_000);
    h.run(0); // the one tick that was due
    expect(h.frames().at(-1)!.index - before).toBeLessThanOrEqual(MAX_CATCHUP);
  });

  it('a grab acts at once: the body rises toward the spring end held 0.6 m above it; release and stop end it', () => {
    const a = harness(), b = harness();
    for (const h of [a, b]) h.host.receive({ type: 'start', session: 7, rig: raw, clips: [], inputs: [], frame: 30 });
    a.run(200); b.run(200);
    const y0 = bodyY(a.frames().at(-1)!.frame);
    const p: [number, number, number] = [a.frames().at(-1)!.frame[1]!, y0, a.frames().at(-1)!.frame[3]!];
    a.host.receive({ type: 'input', session: 7, input: { kind: 'grab', frame: 0, body: 'body', point: p } });
    a.host.receive({ type: 'input', session: 7, input: { kind: 'grabMove', frame: 0, target: [p[0], p[1] + 0.6, p[2]] } });
    a.host.receive({ type: 'input', session: 6, input: { kind: 'release', frame: 0 } }); // an old session's: ignored
    a.run(1000); b.run(1000);
    const grabbed = bodyY(a.frames().at(-1)!.frame), free = bodyY(b.frames().at(-1)!.frame);
    expect(grabbed - free).toBeGreaterThan(0.3);
    expect(a.host.engine!.slice(a.host.engine!.length - 1, a.host.engine!.length).aux[a.host.engine!.aux.grab]).toBe(1);
    a.host.receive({ type: 'input', session: 7, input: { kind: 'release', frame: 0 } });
    a.run(100);
    expect(a.host.engine!.slice(a.host.engine!.length - 1, a.host.engine!.length).aux[a.host.engine!.aux.grab]).toBe(0);
    a.host.receive({ type: 'stop' });
    const n = a.frames().length;
    a.run(1000);
    expect(a.frames().length).toBe(n);
    expect(a.host.engine).toBeNull();
  });

  it('a steering target steers at once: the frames record it and the mine turns toward it (90° → under 30°), where the free session keeps its heading', () => {
    const a = harness(), b = harness();
    for (const h of [a, b]) { h.host.receive({ type: 'start', session: 3, rig: raw, clips: [], inputs: [], frame: 0 }); h.run(1000); }
    const e = a.host.engine!;
    const body = () => e.sim.bodyPose('body');
    const errorTo = (h: ReturnType<typeof harness>, t: readonly number[]) => {
      const pose = h.host.engine!.sim.bodyPose('body');
      return Math.abs(signedYawBetween(yawDirection(headingYaw(pose.rotation)), [t[0]! - pose.position[0], 0, t[2]! - pose.position[2]]));
    };
    // 4 m to the creature's left (+X of the rig's frame, the mine facing +Z toward its default target (0, 0, 5)).
    const p = body().position;
    const target: [number, number, number] = [p[0] + 4, 0, p[2]];
    const e0 = errorTo(a, target);
    a.host.receive({ type: 'input', session: 3, input: { kind: 'target', frame: 0, target } });
    a.run(100);
    const aux = e.slice(e.length - 1, e.length).aux;
    expect([aux[0], aux[1], aux[2], aux[3]]).toEqual([...target, 1]);
    let firstUnder = Infinity;
    for (let ms = 100; ms <= 8000; ms += 100) { a.run(100); b.run(100); if (firstUnder === Infinity && errorTo(a, target) < Math.PI / 6) firstUnder = ms / 1000; }
    const free = errorTo(b, target);
    console.log(`live steering: heading error to a target 4 m to the left ${(e0 * 180 / Math.PI).toFixed(0)}° → under 30° after ${firstUnder.toFixed(1)} s; ${(errorTo(a, target) * 180 / Math.PI).toFixed(0)}° at 8 s (${(free * 180 / Math.PI).toFixed(0)}° without the target input)`);
    expect(e0).toBeGreaterThan(1.2);
    expect(firstUnder).toBeLessThan(8);
    expect(free).toBeGreaterThan(1);
    // From the newest frame on: the frames before it keep the rig's target.
    expect(e.targetAt(30)).toEqual([0, 0, 5]);
    expect(e.targetAt(e.length - 1)).toEqual(target);
  });

  it('an invalid rig is a problem message, not a throw', () => {
    const h = harness();
    h.host.receive({ type: 'start', session: 2, rig: { ...raw, bodies: 'x' }, clips: [], inputs: [], frame: 0 });
    const p = h.posted.find((m) => m.type === 'problem');
    expect(p && p.type === 'problem' && p.message).toMatch(/cannot be simulated/);
  });
});
