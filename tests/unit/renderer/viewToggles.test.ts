/**
 * One list of view toggles for the toolbar and the web View menu, and the native View menu in step with it:
 * the same overlays in the same order, "Toggle X" natively for the web's "Show X". Bodies appear once —
 * the rig's shapes are one switch, whether editing or previewing.
 */
import { describe, expect, it } from 'vitest';
import { PREVIEW_OVERLAYS } from '../../../electron/menuTemplate';
import { VIEW_TOGGLES } from '../../../renderer/src/panels/viewToggles';

describe('view toggles', () => {
  it('the native View menu lists the web View menu\'s overlays, in the same order, as Toggle items', () => {
    expect(PREVIEW_OVERLAYS.map(([, key]) => key)).toEqual(VIEW_TOGGLES.map((t) => t.key));
    expect(PREVIEW_OVERLAYS.map(([label]) => label.replace(/^Toggle /, 'Show '))).toEqual(VIEW_TOGGLES.map((t) => t.menu));
  });

  it('each overlay is there once, and its button name is its menu item in sentence case', () => {
    expect(new Set(VIEW_TOGGLES.map((t) => t.key)).size).toBe(VIEW_TOGGLES.length);
    expect(VIEW_TOGGLES.filter((t) => /bod(y|ies)/i.test(t.menu))).toHaveLength(1);
    for (const t of VIEW_TOGGLES) expect(t.name.toLowerCase()).toBe(t.menu.toLowerCase());
  });
});
