/** Typed access to the test build's read-only hook (renderer/src/testing/testHook.ts). */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { MarionetteTestHook } from '../../../renderer/src/testing/testHook';

type Fns<H> = { [K in keyof H]: H[K] extends (...a: never[]) => unknown ? K : never }[keyof H];
type FnOf<H, K extends keyof H> = Extract<H[K], (...a: never[]) => unknown>;
export type HookCall<H> = <K extends Fns<H>>(page: Page, name: K, ...args: Parameters<FnOf<H, K>>) => Promise<Awaited<ReturnType<FnOf<H, K>>>>;

/**
 * A typed caller for one of the test build's window hooks (`__marionette`, `__marionettePreview`,
 * `__marionetteParticles`, `__marionetteAuthoring`): runs `window[global][name](...args)` in the page.
 */
export function hookCaller<H>(global: string): HookCall<H> {
  return ((page: Page, name: string, ...args: unknown[]) => page.evaluate(
    ([g, n, a]) => {
      const h = (window as unknown as Record<string, Record<string, (...x: unknown[]) => unknown>>)[g]!;
      return h[n]!(...a);
    },
    [global, name, args] as const,
  )) as HookCall<H>;
}

/** The editor's hook (renderer/src/testing/testHook.ts). */
export const hook = hookCaller<MarionetteTestHook>('__marionette');

export interface PixelCounts { total: number; nonBackground: number; highlight: number }

/**
 * Reads the WebGL canvas (the test build keeps its drawing buffer) and counts pixels that differ from the
 * viewport background by more than 10/255 in any channel, and pixels in the selection colour as the skeleton
 * draws it: the selection colour blended over the background at 60–100 % opacity (joint spheres are drawn at
 * 90 %, bone sticks at 75 %), within 16/255 per channel of that blend (what shows through a 90 % sphere — a
 * grid line, another bone's stick — moves a channel by up to 0.1 × 160).
 */
export function countPixels(page: Page): Promise<PixelCounts> {
  return page.evaluate(() => {
    const h = (window as unknown as { __marionette: { colors: { background: string; selected: string } } }).__marionette;
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="viewport"] canvas')!;
    const c2 = document.createElement('canvas');
    c2.width = canvas.width;
    c2.height = canvas.height;
    const ctx = c2.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, c2.width, c2.height).data;
    const rgb = (hex: string) => { const v = parseInt(hex.slice(1), 16); return [(v >> 16) & 255, (v >> 8) & 255, v & 255] as const; };
    const [br, bgG, bb] = rgb(h.colors.background);
    const [sr, sg, sb] = rgb(h.colors.selected);
    let nonBackground = 0;
    let highlight = 0;
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i]!, g = data[i + 1]!, b = data[i + 2]!;
      if (Math.abs(r - br) > 10 || Math.abs(g - bgG) > 10 || Math.abs(b - bb) > 10) nonBackground++;
      // Opacity read from the red channel (the selection colour's red is far from the background's).
      const a = (r - br) / (sr - br);
      if (a >= 0.6 && a <= 1.02 && Math.abs(g - (bgG + a * (sg - bgG))) <= 16 && Math.abs(b - (bb + a * (sb - bb))) <= 16) highlight++;
    }
    return { total: data.length / 4, nonBackground, highlight };
  });
}

/**
 * Pixels of the WebGL canvas in one overlay colour (hex) as the skeleton draws it: that colour blended over
 * the viewport background at 60–100 % opacity, the opacity read from the channel where the colour is
 * farthest from the background, the other channels within 16/255 of the blend (as countPixels).
 */
export function countColorPixels(page: Page, hex: string): Promise<number> {
  return page.evaluate((color) => {
    const h = (window as unknown as { __marionette: { colors: { background: string } } }).__marionette;
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="viewport"] canvas')!;
    const c2 = document.createElement('canvas');
    c2.width = canvas.width;
    c2.height = canvas.height;
    const ctx = c2.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, c2.width, c2.height).data;
    const rgb = (x: string) => { const v = parseInt(x.slice(1), 16); return [(v >> 16) & 255, (v >> 8) & 255, v & 255]; };
    const bg = rgb(h.colors.background), c = rgb(color);
    const k = [0, 1, 2].reduce((best, i) => (Math.abs(c[i]! - bg[i]!) > Math.abs(c[best]! - bg[best]!) ? i : best), 0);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      const a = (data[i + k]! - bg[k]!) / (c[k]! - bg[k]!);
      if (a < 0.6 || a > 1.02) continue;
      if ([0, 1, 2].every((j) => Math.abs(data[i + j]! - (bg[j]! + a * (c[j]! - bg[j]!))) <= 16)) n++;
    }
    return n;
  }, hex);
}

/** Pixels the creature's mesh covers: non-background pixels with the mesh shown minus with it hidden (the
 *  skeleton, drawn over the mesh, hidden for both); both toolbar toggles are left as they were. */
export async function meshPixels(page: Page): Promise<number> {
  const toolbar = (name: string) => page.getByRole('toolbar').getByRole('button', { name, exact: true });
  await toolbar('Show skeleton').click();
  await nextFrames(page);
  const withMesh = await countPixels(page);
  await toolbar('Show mesh').click();
  await nextFrames(page);
  const withoutMesh = await countPixels(page);
  await toolbar('Show mesh').click();
  await toolbar('Show skeleton').click();
  return withMesh.nonBackground - withoutMesh.nonBackground;
}

/** Largest distance (m) between the same particles of two frames (Infinity when either is missing). */
export function maxDelta(a: Record<string, number[]> | null, b: Record<string, number[]> | null): number {
  if (!a || !b) return Infinity;
  let d = 0;
  for (const [n, p] of Object.entries(a)) { const q = b[n]!; d = Math.max(d, Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!)); }
  return d;
}

/** Wait until the viewport has drawn at least `n` more frames (so a state change is on screen). */
export async function nextFrames(page: Page, n = 3): Promise<void> {
  const start = await hook(page, 'frames');
  await page.waitForFunction(([s, k]) => (window as unknown as { __marionette: { frames(): number } }).__marionette.frames() >= s + k, [start, n] as const);
}

/** expect.poll with a timeout fit for a loaded 2-core machine (file reads, IndexedDB, WebGL in software). */
export const eventually = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 100 });
