/**
 * Integration of the authoring UI with the shell, in the production build on the Armed Mine (bodies
 * body/upper_arm/forearm/hand on the bones of the same names; joints shoulder/elbow/wrist):
 *  - the skeleton highlights a bone only for a bone selection; a body selection shows its bone in the
 *    secondary colour, a joint selection none (the names coincide, the kinds do not);
 *  - the Rig menu runs the authoring actions (generate dialog, mirror, mass ratios, go limp / power on);
 *  - Space plays/pauses exactly once per press — also with the Play button focused — and never while the
 *    user types in a text field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, type App, type MenuPath } from './harness/app';
import { eventually, hook, nextFrames } from './harness/hook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const playing = (page: Page) => page.evaluate(() => (window as unknown as { __marionettePreview: { playing(): boolean } }).__marionettePreview.playing());
const rig = (item: string, command: MenuPath['command']): MenuPath => ({ menu: 'Rig', item, command });
const bodyRow = (name: string) => app.page.locator(`[data-testid="outliner-bodies"] [data-body="${name}"]`);
const jointRow = (name: string) => app.page.locator(`[data-testid="outliner-joints"] [data-joint="${name}"]`);
const boneRow = (name: string) => app.page.locator(`[data-testid="outliner"] [data-bone="${name}"]`);

describe('selection highlights by kind', () => {
  it('body "forearm": no bone in the selection colour, bone forearm in the secondary colour, bone row not selected', async () => {
    await eventually(() => bodyRow('forearm').count()).toBe(1);
    await bodyRow('forearm').click();
    await nextFrames(app.page);
    expect(await hook(app.page, 'selection')).toEqual({ kind: 'body', name: 'forearm' });
    expect(await hook(app.page, 'highlightedBones')).toEqual([]);
    expect(await hook(app.page, 'secondaryBones')).toEqual(['forearm']);
    expect(await boneRow('forearm').getAttribute('aria-selected')).toBe('false');
    expect(await bodyRow('forearm').getAttribute('aria-selected')).toBe('true');
  });

  it('joint "elbow": no bone highlighted; bone "forearm": that bone and only in the selection colour', async () => {
    await jointRow('elbow').click();
    await nextFrames(app.page);
    expect(await hook(app.page, 'highlightedBones')).toEqual([]);
    expect(await hook(app.page, 'secondaryBones')).toEqual([]);
    await boneRow('forearm').click();
    await nextFrames(app.page);
    expect(await hook(app.page, 'highlightedBones')).toEqual(['forearm']);
    expect(await hook(app.page, 'secondaryBones')).toEqual([]);
    expect(await bodyRow('forearm').getAttribute('aria-selected')).toBe('false');
  });
});

describe('Space plays and pauses', () => {
  it('one press = one toggle, with nothing focused and with the Play button focused; held keys do not repeat', async () => {
    await app.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const start = await playing(app.page);
    await app.page.keyboard.press('Space');
    await eventually(() => playing(app.page)).toBe(!start);
    await app.page.keyboard.press('Space');
    await eventually(() => playing(app.page)).toBe(start);
    // Clicking Play focuses it; Space then pauses — the button must not be pressed a second time.
    await app.page.getByRole('toolbar').getByRole('button', { name: start ? 'Pause preview' : 'Play preview', exact: true }).click();
    await eventually(() => playing(app.page)).toBe(!start);
    await app.page.keyboard.press('Space');
    await nextFrames(app.page);
    expect(await playing(app.page)).toBe(start);
    // An auto-repeating held Space toggles once.
    await app.page.keyboard.down('Space');
    await app.page.keyboard.down('Space');
    await app.page.keyboard.down('Space');
    await app.page.keyboard.up('Space');
    await nextFrames(app.page);
    expect(await playing(app.page)).toBe(!start);
    await app.page.keyboard.press('Space');
    await eventually(() => playing(app.page)).toBe(start);
  });

  it('typing a space in a text field types it and leaves playback alone', async () => {
    await jointRow('elbow').click();
    const field = app.page.getByTestId('inspector').getByRole('textbox', { name: 'Max torque', exact: true });
    await field.click();
    const before = await playing(app.page);
    const text = await field.inputValue();
    await field.press('End');
    await app.page.keyboard.press('Space');
    await nextFrames(app.page);
    expect(await playing(app.page)).toBe(before);
    expect(await field.inputValue()).toBe(`${text} `);
    await field.press('Escape');
  });
});

describe('Rig menu', () => {
  it('lists the authoring actions and runs them: generate dialog, limp / power on at the shown frame, messages when nothing applies', async () => {
    await app.page.getByRole('menubar').getByRole('menuitem', { name: 'Rig', exact: true }).click();
    const items = await app.page.getByRole('menu').getByRole('menuitem').allTextContents();
    expect(items.map((t) => t.trim())).toEqual([
      'Generate Bodies from Skeleton…', 'Mirror Left → Right', 'Fix Mass Ratios', 'Fix Rest Overlaps', 'Apply Rig From…', 'Go Limp (All Joints)', 'Power On (All Joints)', 'Clear Preview Inputs',
    ]);
    await app.page.keyboard.press('Escape');

    await app.menu(rig('Generate Bodies from Skeleton…', 'generate-bodies'));
    await eventually(() => app.page.getByTestId('generate-dialog').count()).toBe(1);
    await app.page.getByTestId('generate-dialog').getByRole('button', { name: 'Cancel', exact: true }).click();
    await eventually(() => app.page.getByTestId('generate-dialog').count()).toBe(0);

    // The Armed Mine has no left side: mirroring says so and changes nothing.
    const depth = await hook(app.page, 'undoDepth');
    await app.menu(rig('Mirror Left → Right', 'mirror-left-to-right'));
    await eventually(() => app.page.getByTestId('toast-error').last().textContent()).toContain('no body is on the left side');
    expect(await hook(app.page, 'undoDepth')).toBe(depth);

    // Nothing of the Armed Mine overlaps at rest: Fix Rest Overlaps says so and changes nothing.
    await app.menu(rig('Fix Rest Overlaps', 'fix-rest-overlaps'));
    await eventually(() => app.page.getByTestId('toast-info').last().textContent()).toContain('nothing to fix');
    expect(await hook(app.page, 'undoDepth')).toBe(depth);

    // Go limp / power on: the joint inspector's preview state follows at the shown frame.
    await jointRow('elbow').click();
    const pill = app.page.getByTestId('joint-inspector').locator('.state-pill');
    await expect.poll(() => pill.textContent()).toBe('powered');
    await app.menu(rig('Go Limp (All Joints)', 'go-limp-all'));
    await eventually(() => pill.textContent()).toBe('limp');
    await app.menu(rig('Power On (All Joints)', 'power-on-all'));
    await eventually(() => pill.textContent()).toBe('powered');
  });
});
