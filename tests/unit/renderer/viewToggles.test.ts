/**
 * One list of view toggles for the toolbar and the web View menu, and the native View menu in step with it:
 * the same overlays in the same order, "Toggle X" natively for the web's "Show X". Bodies appear once —
 * the rig's shapes are one switch, whether editing or previewing — and so do joints (axes and limits).
 */
import { describe, expect, it } from 'vitest';
import { PREVIEW_OVERLAYS } from '../../../electron/menuTemplate';
import { VIEW_TOGGLES } from '../../../renderer/src/panels/viewToggles';
import { useAuthoring } from '../../../renderer/src/authoring/authoringStore';

describe('view toggles', () => {
  it('the native View menu lists the web View menu\'s overlays, in the same order, as Toggle items', () => {
    expect(PREVIEW_OVERLAYS.map(([, key]) => key)).toEqual(VIEW_TOGGLES.map((t) => t.key));
    expect(PREVIEW_OVERLAYS.map(([label]) => label.replace(/^Toggle /, 'Show '))).toEqual(VIEW_TOGGLES.map((t) => t.menu));
  });

  it('each overlay is there once, and its button name is its menu item in sentence case', () => {
    expect(new Set(VIEW_TOGGLES.map((t) => t.key)).size).toBe(VIEW_TOGGLES.length);
    expect(VIEW_TOGGLES.filter((t) => /bod(y|ies)/i.test(t.menu))).toHaveLength(1);
    expect(VIEW_TOGGLES.filter((t) => /joint|limit/i.test(`${t.menu} ${t.name}`)).map((t) => t.key)).toEqual(['joints']);
    for (const t of VIEW_TOGGLES) expect(t.name.toLowerCase()).toBe(t.menu.toLowerCase());
  });

  it('the authoring session holds no second switch for the joint limits (the Joints toggle draws them)', () => {
    expect(Object.keys(useAuthoring.getState()).filter((k) => /limit|joint|bod(y|ies)/i.test(k) && /show/i.test(k))).toEqual([]);
    expect(VIEW_TOGGLES.find((t) => t.key === 'joints')!.title).toMatch(/axes and limits/);
  });
});
