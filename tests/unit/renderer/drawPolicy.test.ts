/**
 * When the viewport draws and at which resolution (renderer/src/viewport/drawPolicy.ts, issue 17): an
 * unchanged picture is not drawn again until the idle safety draw; an edit's hold keeps the picture but a
 * cleared (resized) canvas; a renderer whose full-resolution draw held the thread past SLOW_DRAW_MS
 * regresses the resolution for interactions and through a hold, a fast one never does, and the end of a
 * regression (R3F's own invalidation on the pixel-ratio change) is drawn without counting as an interaction.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVE_MS, IDLE_REDRAW_MS, SLOW_DRAW_MS, decideDraw, newDrawMemory, noteDraw, type FrameFacts } from '../../../renderer/src/viewport/drawPolicy';

const facts = (now: number, over: Partial<FrameFacts> = {}): FrameFacts => ({
  now, epoch: 1, index: 300, w: 800, h: 600, dpr: 1, initialDpr: 1, invalidated: false, playing: false, cameraMoved: false, holding: false, ...over,
});

/** Run frames every `dt` ms from t0 with the given facts; returns the decisions, drawing when told to. */
function frames(m: ReturnType<typeof newDrawMemory>, t0: number, n: number, dt: number, over: (t: number) => Partial<FrameFacts> = () => ({})) {
  const out: { t: number; draw: boolean; regress: boolean }[] = [];
  for (let i = 0; i < n; i++) {
    const t = t0 + i * dt, f = facts(t, over(t));
    const d = decideDraw(m, f);
    if (d.draw) noteDraw(m, f);
    out.push({ t, ...d });
  }
  return out;
}

describe('viewport draw policy', () => {
  it('draws an unchanged picture only at the idle safety interval; a new frame index draws at once', () => {
    const m = newDrawMemory(true);
    frames(m, 0, 1, 16); // first frame: size unknown, drawn
    const idle = frames(m, 16, 200, 16); // 3.2 s with nothing happening
    const draws = idle.filter((x) => x.draw).map((x) => x.t);
    expect(draws.length).toBe(3);
    for (let i = 1; i < draws.length; i++) expect(draws[i]! - draws[i - 1]!).toBeGreaterThanOrEqual(IDLE_REDRAW_MS);
    expect(idle.some((x) => x.regress)).toBe(false);
    expect(decideDraw(m, facts(3300, { index: 301 })).draw).toBe(true);
  });

  it('draws every frame for ACTIVE_MS after an input, then stops', () => {
    const m = newDrawMemory(true);
    frames(m, 0, 1, 16);
    m.active = 100;
    const after = frames(m, 100, 100, 16);
    expect(after.filter((x) => x.t < 100 + ACTIVE_MS).every((x) => x.draw)).toBe(true);
    expect(after.filter((x) => x.t >= 100 + ACTIVE_MS + 16 && x.t < 100 + ACTIVE_MS + 500).some((x) => x.draw)).toBe(false);
  });

  it('holding keeps the picture, even with an input or a new frame; a cleared canvas is drawn', () => {
    const m = newDrawMemory(true);
    frames(m, 0, 1, 16);
    m.active = 50;
    expect(decideDraw(m, facts(60, { holding: true, index: 0, epoch: 2 })).draw).toBe(false);
    expect(decideDraw(m, facts(76, { holding: true, dpr: 0.5 })).draw).toBe(true);
    expect(decideDraw(m, facts(92, { holding: false, index: 0, epoch: 2 })).draw).toBe(true);
  });

  it('a fast renderer never regresses; a slow one regresses for interactions and through a hold, not for the idle draw', () => {
    const fast = newDrawMemory(true);
    fast.active = 0;
    expect(frames(fast, 0, 60, 16).some((x) => x.regress)).toBe(false);

    const slow = newDrawMemory(true);
    slow.active = 0;
    // A full-resolution draw at t = 0, the next animation frame 250 ms later (SwiftShader's read-back).
    const first = frames(slow, 0, 2, SLOW_DRAW_MS + 190);
    expect(first[0]).toEqual({ t: 0, draw: true, regress: false });
    expect(first[1]!.regress).toBe(true);
    // Through a hold: no draw, but the regression is kept.
    expect(decideDraw(slow, facts(600, { holding: true, dpr: 0.5 }))).toEqual({ draw: true, regress: true }); // resized: drawn
    noteDraw(slow, facts(600, { dpr: 0.5 }));
    expect(decideDraw(slow, facts(650, { holding: true, dpr: 0.5 }))).toEqual({ draw: false, regress: true });
    // The regression ends (pixel ratio 1 again, R3F invalidates): drawn, not an interaction, so no regress.
    expect(decideDraw(slow, facts(5000, { dpr: 1, invalidated: true }))).toEqual({ draw: true, regress: false });
    // Low-resolution draws do not measure the renderer: it stays slow.
    noteDraw(slow, facts(5000, { dpr: 1 }));
    expect(decideDraw(slow, facts(5250, { playing: true })).regress).toBe(true);
  });

  it('a slow renderer does not regress when adaptive resolution is off (the test build)', () => {
    const m = newDrawMemory(false);
    m.active = 0;
    const r = frames(m, 0, 4, 250); // within ACTIVE_MS of the input
    expect(r.every((x) => x.draw)).toBe(true);
    expect(r.some((x) => x.regress)).toBe(false);
  });
});
