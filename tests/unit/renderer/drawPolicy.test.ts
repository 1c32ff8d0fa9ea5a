/**
 * When the viewport draws and at which resolution (renderer/src/viewport/drawPolicy.ts, issue 17): an
 * unchanged picture is not drawn again until the idle safety draw; an edit's hold keeps the picture but a
 * cleared (resized) canvas; a renderer whose full-resolution draw held the thread past SLOW_DRAW_MS draws
 * interactions (from the input on) and holds at REGRESSED_SCALE, full resolution again REGRESS_MS after;
 * a fast renderer, or the test build (adaptive off), never regresses.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVE_MS, IDLE_REDRAW_MS, REGRESSED_SCALE, REGRESS_MS, SLOW_DRAW_MS, decideDraw, newDrawMemory, noteDraw, regressOnInput, type DrawMemory, type FrameFacts } from '../../../renderer/src/viewport/drawPolicy';

const facts = (now: number, over: Partial<FrameFacts> = {}): FrameFacts => ({
  now, epoch: 1, index: 300, w: 800, h: 600, dpr: 1, initialDpr: 1, invalidated: false, playing: false, cameraMoved: false, holding: false, ...over,
});

/** The viewport's frame: decide, set the ratio and draw when told to (the renderer's ratio carried in `gl`). */
function frame(m: DrawMemory, gl: { dpr: number }, now: number, over: Partial<FrameFacts> = {}) {
  const f = facts(now, { dpr: gl.dpr, ...over });
  const d = decideDraw(m, f);
  if (d.draw) { gl.dpr = d.dpr; noteDraw(m, f, d.dpr); }
  return { t: now, ...d };
}
const run = (m: DrawMemory, gl: { dpr: number }, t0: number, n: number, dt: number, over: (t: number) => Partial<FrameFacts> = () => ({})) =>
  Array.from({ length: n }, (_, i) => frame(m, gl, t0 + i * dt, over(t0 + i * dt)));

describe('viewport draw policy', () => {
  it('draws an unchanged picture only at the idle safety interval; a new frame index draws at once', () => {
    const m = newDrawMemory(true), gl = { dpr: 1 };
    run(m, gl, 0, 1, 16); // first frame: size unknown, drawn
    const idle = run(m, gl, 16, 200, 16); // 3.2 s with nothing happening
    const draws = idle.filter((x) => x.draw).map((x) => x.t);
    expect(draws.length).toBe(3);
    for (let i = 1; i < draws.length; i++) expect(draws[i]! - draws[i - 1]!).toBeGreaterThanOrEqual(IDLE_REDRAW_MS);
    expect(idle.every((x) => x.dpr === 1)).toBe(true);
    expect(frame(m, gl, 3300, { index: 301 }).draw).toBe(true);
  });

  it('draws every frame for ACTIVE_MS after an input, then stops', () => {
    const m = newDrawMemory(true), gl = { dpr: 1 };
    run(m, gl, 0, 1, 16);
    regressOnInput(m, 16); // the next frame (frames 16 ms apart: a fast renderer)
    const after = run(m, gl, 16, 100, 16);
    expect(after.filter((x) => x.t < 16 + ACTIVE_MS).every((x) => x.draw)).toBe(true);
    expect(after.filter((x) => x.t >= 16 + ACTIVE_MS + 16 && x.t < 16 + ACTIVE_MS + 500).some((x) => x.draw)).toBe(false);
    expect(after.every((x) => x.dpr === 1)).toBe(true);
  });

  it('holding keeps the picture, even with an input or a new frame; a cleared canvas is drawn', () => {
    const m = newDrawMemory(true), gl = { dpr: 1 };
    run(m, gl, 0, 1, 16);
    regressOnInput(m, 50);
    expect(frame(m, gl, 60, { holding: true, index: 0, epoch: 2 }).draw).toBe(false);
    expect(frame(m, gl, 76, { holding: true, w: 640 }).draw).toBe(true);
    expect(frame(m, gl, 92, { holding: false, index: 0, epoch: 2 }).draw).toBe(true);
  });

  it('a fast renderer never regresses', () => {
    const m = newDrawMemory(true), gl = { dpr: 1 };
    regressOnInput(m, 0);
    expect(run(m, gl, 0, 60, 16).every((x) => x.dpr === 1)).toBe(true);
  });

  it('a slow renderer draws an interaction at the regressed scale from the input on, through a hold, and full again REGRESS_MS after', () => {
    const m = newDrawMemory(true), gl = { dpr: 2 };
    const slowFrame = SLOW_DRAW_MS + 190; // SwiftShader: the next animation frame 250 ms after a full draw
    expect(frame(m, gl, 0, { initialDpr: 2 })).toEqual({ t: 0, draw: true, dpr: 2 });
    expect(m.slow).toBe(false);
    // Idle safety draw at full resolution, measured at the next frame: slow.
    expect(frame(m, gl, IDLE_REDRAW_MS, { initialDpr: 2 })).toEqual({ t: IDLE_REDRAW_MS, draw: true, dpr: 2 });
    expect(frame(m, gl, IDLE_REDRAW_MS + slowFrame, { initialDpr: 2 }).draw).toBe(false);
    expect(m.slow).toBe(true);
    // An input: the very next frame draws at the regressed ratio (a new ratio: drawn even if nothing else).
    const t1 = 2000;
    regressOnInput(m, t1);
    expect(frame(m, gl, t1 + 5, { initialDpr: 2 })).toEqual({ t: t1 + 5, draw: true, dpr: 2 * REGRESSED_SCALE });
    // An edit's hold: no draw, the scale kept however long it lasts.
    for (let t = t1 + ACTIVE_MS + 100; t < t1 + ACTIVE_MS + 100 + 3 * REGRESS_MS; t += 50) expect(frame(m, gl, t, { initialDpr: 2, holding: true })).toEqual({ t, draw: false, dpr: 2 * REGRESSED_SCALE });
    // Nothing more happens: full resolution REGRESS_MS after the last regressed frame, drawn (the canvas is cleared).
    const last = t1 + ACTIVE_MS + 100 + 3 * REGRESS_MS - 50;
    expect(frame(m, gl, last + REGRESS_MS - 1, { initialDpr: 2 }).dpr).toBe(2 * REGRESSED_SCALE);
    expect(frame(m, gl, last + REGRESS_MS + 1, { initialDpr: 2 })).toEqual({ t: last + REGRESS_MS + 1, draw: true, dpr: 2 });
    // Low-resolution draws do not measure the renderer: it stays slow.
    expect(m.slow).toBe(true);
  });

  it('a slow renderer does not regress when adaptive resolution is off (the test build)', () => {
    const m = newDrawMemory(false), gl = { dpr: 1 };
    m.slow = true;
    regressOnInput(m, 0);
    const r = run(m, gl, 0, 4, 250); // within ACTIVE_MS of the input
    expect(r.every((x) => x.draw && x.dpr === 1)).toBe(true);
  });
});
