/**
 * Preview benchmark (issue 5), not a test: in Chromium against the production build (test build of the
 * same bundle, for window.__marionettePreview), the Armed Mine's
 *   - frames simulated per second in the Web Worker with IK and recording (reported by the worker per
 *     slice; median over the fill of a 600 s timeline), as a ratio to real time;
 *   - worker → main-thread latency per posted batch of frames: wall clock at post (performance.timeOrigin +
 *     now() in the worker) to wall clock at receipt on the main thread; median and p95.
 * Usage: npx tsx bench/preview-latency.ts   (builds to a temporary folder, needs /usr/bin/chromium or CHROME_PATH)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
// @ts-expect-error — plain ESM helper without types
import { serveStatic } from '../scripts/staticServer.mjs';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const out = mkdtempSync(path.join(tmpdir(), 'marionette-bench-'));
const built = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env: { ...process.env, VITE_TEST_BUILD: '1' } });
if (built.status !== 0) throw new Error('vite build failed');
const { server, url } = await serveStatic(out, 0) as { server: { close(): void }; url: string };
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--ignore-gpu-blocklist'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __marionettePreview?: { recorded(): number } }).__marionettePreview?.recorded?.() ?? 0 > 0, null, { timeout: 60_000 });
  // Fill the default 20 s timeline, sampling the worker's reported speed.
  const speeds: number[] = [];
  const t0 = Date.now();
  for (;;) {
    const s = await page.evaluate(() => { const h = (window as unknown as { __marionettePreview: { recorded(): number; stepsPerSecond(): number } }).__marionettePreview; return { n: h.recorded(), sps: h.stepsPerSecond() }; });
    if (s.sps > 0) speeds.push(s.sps);
    if (s.n >= 1201 || Date.now() - t0 > 60_000) break;
    await page.waitForTimeout(50);
  }
  const fillMs = Date.now() - t0;
  const lat = await page.evaluate(() => (window as unknown as { __marionettePreview: { latencies(): number[] } }).__marionettePreview.latencies());
  const fps = await page.evaluate(async () => {
    const h = (window as unknown as { __marionette: { frames(): number } }).__marionette;
    const f0 = h.frames(), t = performance.now();
    await new Promise((r) => setTimeout(r, 2000));
    return ((h.frames() - f0) * 1000) / (performance.now() - t);
  });
  const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
  const q = (a: number[], p: number) => sorted(a)[Math.min(a.length - 1, Math.floor(p * a.length))] ?? NaN;
  const dt = 1 / 60;
  console.log(`Armed Mine preview in the Web Worker (Chromium, production bundle):`);
  console.log(`  simulation + IK + recording: median ${q(speeds, 0.5).toFixed(0)} frames/s = ${(q(speeds, 0.5) * dt).toFixed(0)}× real time (best slice ${(q(speeds, 1) * dt).toFixed(0)}×, ${speeds.length} samples)`);
  console.log(`  20 s timeline (1201 frames) recorded and mirrored in ${(fillMs / 1000).toFixed(2)} s wall`);
  console.log(`  worker→main latency per batch: median ${q(lat, 0.5).toFixed(2)} ms, p95 ${q(lat, 0.95).toFixed(2)} ms (${lat.length} batches)`);
  console.log(`  viewport frame rate meanwhile: ${fps.toFixed(1)} fps — a batch waits for the main thread's current frame, so the latency is bounded below by the frame time (${(1000 / fps).toFixed(0)} ms here)`);
} finally {
  await browser.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}
