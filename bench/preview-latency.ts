/**
 * Preview benchmark (issue 5), not a test: in Chromium against the production build (test build of the
 * same bundle, for window.__marionettePreview), the Armed Mine's
 *   - frames simulated per second in the Web Worker with IK and recording (reported by the worker per
 *     slice; median), as a ratio to real time;
 *   - worker → main-thread latency per batch of frames: wall clock when the batch's newest frame had been
 *     computed (performance.timeOrigin + now() in the worker) to its receipt on the main thread; and, where
 *     the build reports it, to the first viewport frame after receipt (when it can be drawn). Median, p95;
 *   in two phases: the first fill of the 20 s timeline while the editor starts, and re-simulation while
 *     the user drags a gait-path handle (EDITS drags, each waits for the re-simulated timeline).
 * Usage: npx tsx bench/preview-latency.ts   (builds to a temporary folder, needs /usr/bin/chromium or CHROME_PATH)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
// @ts-expect-error — plain ESM helper without types
import { serveStatic } from '../scripts/staticServer.mjs';

const EDITS = 4;
const FULL = 1201; // 20 s at 60 Hz, frame 0 included

interface Hook { recorded(): number; current(): boolean; stepsPerSecond(): number; latencies(): number[]; displayLatencies?(): number[]; pathHandleScreen(c: string, i: number): { x: number; y: number } | null }
const read = <T>(page: Page, fn: (h: Hook) => T): Promise<T> =>
  page.evaluate(`(${fn.toString()})(window.__marionettePreview)`) as Promise<T>;

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const out = mkdtempSync(path.join(tmpdir(), 'marionette-bench-'));
const built = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env: { ...process.env, VITE_TEST_BUILD: '1' } });
if (built.status !== 0) throw new Error('vite build failed');
const { server, url } = await serveStatic(out, 0) as { server: { close(): void }; url: string };
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--ignore-gpu-blocklist'] });
const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
const q = (a: number[], p: number) => sorted(a)[Math.min(a.length - 1, Math.floor(p * a.length))] ?? NaN;
const stats = (a: number[]) => `median ${q(a, 0.5).toFixed(0)} ms, p95 ${q(a, 0.95).toFixed(0)} ms (${a.length} batches)`;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.waitForFunction(() => ((window as unknown as { __marionettePreview?: { recorded(): number } }).__marionettePreview?.recorded?.() ?? 0) > 0, null, { timeout: 60_000 });
  const speeds: number[] = [];
  const t0 = Date.now();
  for (;;) {
    const s = await read(page, (h) => ({ n: h.recorded(), sps: h.stepsPerSecond() }));
    if (s.sps > 0) speeds.push(s.sps);
    if (s.n >= FULL || Date.now() - t0 > 60_000) break;
    await page.waitForTimeout(50);
  }
  const fillMs = Date.now() - t0;
  const fill = await read(page, (h) => ({ lat: h.latencies(), shown: h.displayLatencies?.() ?? null }));

  // Re-simulation while editing: drag handle 3 of the hand path a few pixels, as a user would.
  const editStart = { lat: fill.lat.length, shown: fill.shown?.length ?? 0 };
  const t1 = Date.now();
  for (let k = 0; k < EDITS; k++) {
    const at = await read(page, (h) => h.pathHandleScreen('hand-path', 2));
    if (!at) throw new Error('no path handle on screen');
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    for (let i = 1; i <= 6; i++) await page.mouse.move(at.x + i * 2 * (k % 2 ? -1 : 1), at.y + i);
    await page.mouse.up();
    await page.waitForFunction(() => { const h = (window as unknown as { __marionettePreview: Hook }).__marionettePreview; return h.current() && h.recorded() >= 1201; }, null, { timeout: 60_000, polling: 100 })
      .catch(async (e: unknown) => {
        const state = await read(page, (h) => ({ current: h.current(), recorded: h.recorded() }));
        throw new Error(`drag ${k + 1}: the re-simulated timeline did not arrive (${JSON.stringify(state)}): ${String(e)}`);
      });
  }
  const editMs = (Date.now() - t1) / EDITS;
  const edit = await read(page, (h) => ({ lat: h.latencies(), shown: h.displayLatencies?.() ?? null }));
  const fps = await page.evaluate(async () => {
    const h = (window as unknown as { __marionette: { frames(): number } }).__marionette;
    const f0 = h.frames(), t = performance.now();
    await new Promise((r) => setTimeout(r, 2000));
    return ((h.frames() - f0) * 1000) / (performance.now() - t);
  });
  const dt = 1 / 60;
  console.log(`Armed Mine preview in the Web Worker (Chromium, production bundle):`);
  console.log(`  simulation + IK + recording: median ${q(speeds, 0.5).toFixed(0)} frames/s = ${(q(speeds, 0.5) * dt).toFixed(0)}× real time (best slice ${(q(speeds, 1) * dt).toFixed(0)}×, ${speeds.length} samples)`);
  console.log(`  first fill of the 20 s timeline (${FULL} frames) recorded and mirrored in ${(fillMs / 1000).toFixed(2)} s wall`);
  console.log(`  worker→main latency, first fill: ${stats(fill.lat)}`);
  if (fill.shown) console.log(`  worker→viewport latency, first fill: ${stats(fill.shown)}`);
  console.log(`  path-handle drag → re-simulated timeline: ${(editMs / 1000).toFixed(2)} s wall per drag (${EDITS} drags)`);
  console.log(`  worker→main latency while editing: ${stats(edit.lat.slice(editStart.lat))}`);
  if (edit.shown) console.log(`  worker→viewport latency while editing: ${stats(edit.shown.slice(editStart.shown))}`);
  console.log(`  viewport frame rate when idle: ${fps.toFixed(1)} fps (${(1000 / fps).toFixed(0)} ms per frame: a batch arriving mid-frame waits for it)`);
} finally {
  await browser.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}
