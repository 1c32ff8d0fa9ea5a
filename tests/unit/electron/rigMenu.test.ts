/**
 * The native Rig menu (electron/menuTemplate.ts): after View, before Help, on every platform; each item
 * sends its MenuCommand, which the renderer runs through the authoring actions (renderer/src/authoring/
 * rigMenu.ts) — the same commands as the in-app menu bar's Rig menu.
 */
import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate, type MenuContext } from '../../../electron/menuTemplate';
import type { MenuCommand } from '../../../shared/platform';

type Item = MenuItemConstructorOptions;

function menuFor(platform: NodeJS.Platform) {
  const sent: MenuCommand[] = [];
  const ctx: MenuContext = {
    appName: 'Marionette', platform, isDev: false, recent: [], examples: [], hasDocumentation: true,
    send: (c) => void sent.push(c), showAbout: () => undefined, openDocumentation: () => undefined, clearRecent: () => undefined,
  };
  return { menu: buildMenuTemplate(ctx), sent };
}

describe('native Rig menu', () => {
  for (const platform of ['linux', 'win32', 'darwin'] as const) {
    it(`${platform}: sits after View and before Help, and every item sends its command`, () => {
      const { menu, sent } = menuFor(platform);
      const labels = menu.map((m) => m.label ?? m.role);
      const rigAt = labels.indexOf('&Rig');
      expect(labels[rigAt - 1]).toBe('&View');
      expect(labels[rigAt + 1]).toBe(platform === 'darwin' ? 'windowMenu' : '&Help');
      const items = (menu[rigAt]!.submenu as Item[]).filter((i) => i.type !== 'separator');
      expect(items.map((i) => i.label)).toEqual([
        'Generate Bodies from Skeleton…', 'Mirror Left → Right', 'Fix Mass Ratios', 'Fix Rest Overlaps', 'Apply Rig From…', 'Go Limp (All Joints)', 'Power On (All Joints)', 'Clear Preview Inputs',
      ]);
      for (const i of items) (i.click as () => void)();
      expect(sent).toEqual(['generate-bodies', 'mirror-left-to-right', 'fix-mass-ratios', 'fix-rest-overlaps', 'apply-rig-from', 'go-limp-all', 'power-on-all', 'clear-inputs']);
      // No bare-letter accelerators: they would swallow keys typed into the inspector's fields.
      for (const i of items) expect(i.accelerator).toBeUndefined();
    });
  }
});
