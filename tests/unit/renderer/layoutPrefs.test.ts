/**
 * The bottom area's size: its default leaves the viewport ≥ 55 % of a 1280×720 window with the plots open,
 * it is clamped so neither the viewport nor the plots vanish, and it is remembered through storage, where a
 * damaged value is ignored rather than trusted.
 */
import { describe, expect, it } from 'vitest';
import {
  LAYOUT_KEY, MIN_BOTTOM, MIN_VIEWPORT, clampBottom, defaultBottomHeight, loadLayoutPrefs, saveLayoutPrefs,
} from '../../../renderer/src/state/layoutPrefs';

/** Menu bar 26 + toolbar 34 + status bar 22 (styles.css .app grid rows). */
const CHROME = 26 + 34 + 22;
const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
};

describe('bottom area size', () => {
  it('by default the viewport keeps at least 55 % of the window height at 1280×720 and 1440×900', () => {
    for (const h of [720, 900, 1080]) {
      const column = h - CHROME;
      const bottom = clampBottom(defaultBottomHeight(h), column);
      const viewport = column - 4 - bottom;
      expect(viewport / h).toBeGreaterThanOrEqual(0.55);
      // And the plots get room beyond the 104 px timeline and their header.
      expect(bottom).toBeGreaterThanOrEqual(MIN_BOTTOM);
    }
  });

  it('clamps a drag: never below the timeline + plots minimum, never leaving the viewport under its minimum', () => {
    expect(clampBottom(10, 638)).toBe(MIN_BOTTOM);
    expect(clampBottom(5000, 638)).toBe(638 - 4 - MIN_VIEWPORT);
    expect(clampBottom(300.4, 638)).toBe(300);
    // A window too short for both: the bottom area keeps its minimum (the viewport gives way).
    expect(clampBottom(400, 200)).toBe(MIN_BOTTOM);
  });
});

describe('layout prefs in storage', () => {
  it('round-trips the bottom height and the plots state', () => {
    const s = memory();
    expect(loadLayoutPrefs(s)).toEqual({ bottomHeight: null, plotsOpen: true });
    saveLayoutPrefs({ bottomHeight: 312, plotsOpen: false }, s);
    expect(JSON.parse(s.m.get(LAYOUT_KEY)!)).toEqual({ bottomHeight: 312, plotsOpen: false });
    expect(loadLayoutPrefs(s)).toEqual({ bottomHeight: 312, plotsOpen: false });
  });

  it('ignores damaged values field by field, and works without storage', () => {
    const s = memory();
    for (const [raw, want] of [
      ['not json', { bottomHeight: null, plotsOpen: true }],
      ['[1,2]', { bottomHeight: null, plotsOpen: true }],
      ['{"bottomHeight":"300","plotsOpen":false}', { bottomHeight: null, plotsOpen: false }],
      ['{"bottomHeight":1e9,"plotsOpen":"yes"}', { bottomHeight: null, plotsOpen: true }],
      [`{"bottomHeight":${MIN_BOTTOM - 1}}`, { bottomHeight: null, plotsOpen: true }],
      ['{"bottomHeight":250.6}', { bottomHeight: 251, plotsOpen: true }],
    ] as const) {
      s.m.set(LAYOUT_KEY, raw);
      expect(loadLayoutPrefs(s), raw).toEqual(want);
    }
    expect(loadLayoutPrefs(null)).toEqual({ bottomHeight: null, plotsOpen: true });
    expect(() => saveLayoutPrefs({ bottomHeight: 200, plotsOpen: true }, { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } })).not.toThrow();
  });
});
