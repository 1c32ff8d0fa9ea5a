/**
 * Preview benchmark (issues 5 and 17), not a test. Two parts, one run:
 *
 * 1. The simulation host (shared/preview/host.ts, the code the Web Worker runs) in Node, for the Armed
 *    Mine and for the largest shipped or corpus creature (corpus rigs generated as the corpus test does):
 *    real-time factor, first fill of the 20 s timeline, and per edit — a controller parameter (a path
 *    point), a motor gain, a steering target key, a poke (blast input), a body's mass — the time from the
 *    edit's message to the batch holding the frame under the playhead (frame PLAYHEAD) and to the full
 *    timeline (bench/previewHost.ts).
 * 2. The editor in Chromium on the production bundle (test build, for window.__marionettePreview), with the
 *    Armed Mine: the worker's speed, the first fill, then path-handle drags with the playhead at frame
 *    PLAYHEAD — each pointer move an edit, timed from the move to the first viewport frame that draws the
 *    re-simulated frame under the playhead, and from the last move to the full timeline; worker → main and
 *    worker → viewport latency per batch; the idle viewport's frame rate, and an empty WebGL canvas of the
 *    same size in the same browser as the reference (SwiftShader's ceiling on a machine without a GPU).
 *
 * 1b. One host against two (shared/preview/pool.ts, issue 17 item 2) in Node worker threads on the Armed
 *    Mine: settled edits and 16 ms path-point drags, edit → playhead frame and → full timeline with one and
 *    with two hosts in the same run (bench/previewPool.ts; --no-pool skips it).
 *
 * Usage: npx tsx bench/preview-latency.ts [--json] [--no-browser] [--no-host] [--no-pool]
 * (builds to a temporary folder, needs /usr/bin/chromium or CHROME_PATH). On a shared machine the figures
 * move with the load: the output says the load average.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
// @ts-expect-error — plain ESM helper without types
import { serveStatic } from '../scripts/staticServer.mjs';
import { loadRig, type RigDocument } from '../shared/rig';
import { generateRagdoll, newRigDocument, scaleForHeight, scaleSkeleton, withGeneratedRagdoll } from '../shared/authoring';
import { readCreatureInput } from '../cli/commands/generate';
import { corpus } from '../scripts/corpus-report';
import { measureHost, summary, type HostEdit, type HostFigures } from './previewHost';
import { measurePool, poolReport } from './previewPool';
import type { EditTrace } from '../renderer/src/preview/editTrace';

const FULL = 1201; // 20 s at 60 Hz, frame 0 included
const PLAYHEAD = 300; // 5 s into the timeline
const DRAGS = 4;
const MOVES = 3; // edits per drag

const json = process.argv.includes('--json');
const browserPart = !process.argv.includes('--no-browser');
const hostPart = !process.argv.includes('--no-host');
const poolPart = !process.argv.includes('--no-pool');
const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const log = (s: string) => { if (!json) console.log(s); };
const round = (x: number, d = 1) => Number.isFinite(x) ? Number(x.toFixed(d)) : null;

// ------------------------------------------------------------------------------------------ creatures

const mine = loadRig(JSON.parse(readFileSync(path.join(root, 'assets/creatures/armed-mine.rig.json'), 'utf8')), { source: 'armed-mine.rig.json' });

async function largestCreature(): Promise<{ name: string; rig: RigDocument }> {
  const found: { name: string; rig: RigDocument }[] = [];
  for (const f of readdirSync(path.join(root, 'assets/creatures')).filter((n) => n.endsWith('.rig.json'))) {
    try { found.push({ name: `${f} (shipped)`, rig: loadRig(JSON.parse(readFileSync(path.join(root, 'assets/creatures', f), 'utf8')), { source: f }) }); } catch { /* not loadable: skip */ }
  }
  for (const entry of corpus()) {
    const { input: raw } = await readCreatureInput(path.join(root, entry.file));
    const scale = scaleForHeight(raw, entry.heightMetres);
    const input = scaleSkeleton(raw, scale);
    const rig = withGeneratedRagdoll({ ...newRigDocument(entry.name, input.bones), skeleton: { bones: [...input.bones], scale } }, generateRagdoll(input));
    found.push({ name: `${entry.name} (corpus, generated)`, rig });
  }
  found.sort((a, b) => b.rig.bodies.length - a.rig.bodies.length || b.rig.joints.length - a.rig.joints.length);
  return found[0]!;
}

/** Edits of every kind the rig has, cumulative (each on the previous rig), `rounds` of each. */
function editsFor(rig: RigDocument, rounds: number): HostEdit[] {
  const out: HostEdit[] = [];
  let cur = rig;
  const next = (f: (r: RigDocument) => void) => { const r = structuredClone(cur); f(r); cur = r; return r; };
  const motors = rig.joints.filter((j) => 'motor' in j && j.motor.mode !== 'off');
  // The poke's impulse (N·s) lands on every body in reach whatever its mass: at most 10 m/s on the lightest
  // body. 2 N·s sent the Quaternius donkey's 43 g tail link to 30+ m/s and whipped it past the blow-up
  // limit (522 rad/s); the Luanti spider's bodies weigh kilograms and keep 2 + k N·s.
  const lightest = Math.min(...rig.bodies.map((b) => b.mass ?? Infinity));
  const pokeCap = Number.isFinite(lightest) ? 10 * lightest : Infinity;
  for (let k = 0; k < rounds; k++) {
    if (rig.controllers.length > 0) out.push({ kind: 'controller parameter', rig: next((r) => { const p = r.controllers[0]!.controlPoints[k % r.controllers[0]!.controlPoints.length]!; p[1] += 0.005 * (k % 2 ? -1 : 1); }) });
    if (motors.length > 0) {
      const name = motors[(k * 7) % motors.length]!.name;
      out.push({ kind: 'motor gain', rig: next((r) => { const j = r.joints.find((x) => x.name === name)!; if ('motor' in j) { j.motor.errorReduction = Math.min(1, j.motor.errorReduction * 1.05); j.motor.stiffness *= 1.05; j.motor.damping *= 1.05; } }) });
    }
    if (rig.controllers.length > 0) out.push({ kind: 'target key', inputs: [{ kind: 'target', frame: 180, target: [1 + k, 0, 3] }] });
    else out.push({ kind: 'poke (blast input)', inputs: [{ kind: 'blast', frame: 180, center: [0, 0, 0], radius: 3, strength: Math.min(2 + k, pokeCap * (2 + k) / 5) }] });
    out.push({ kind: 'body mass', rig: next((r) => { const b = r.bodies[k % r.bodies.length]!; if (b.mass !== null) b.mass *= 1.02; else if (typeof b.density === 'number') b.density *= 1.02; }) });
  }
  return out;
}

function hostReport(f: HostFigures) {
  const byKind: Record<string, { playheadMs: number | null; fullS: number | null; keptFrames: number }[]> = {};
  for (const e of f.edits) (byKind[e.kind] ??= []).push({ playheadMs: round(e.playheadMs, 0), fullS: round(e.fullS, 2), keptFrames: e.keptFrames });
  const ph = summary(f.edits.map((e) => e.playheadMs)), full = summary(f.edits.map((e) => e.fullS));
  return {
    bodies: f.bodies, realTimeFactor: round(f.realTimeFactor), cpuRealTimeFactor: round(f.cpuRealTimeFactor), firstFillS: round(f.firstFillS, 2), playheadFrame: f.playheadFrame,
    editToPlayheadMs: { median: round(ph.median, 0), p95: round(ph.p95, 0), n: ph.n },
    editToFullTimelineS: { median: round(full.median, 2), p95: round(full.p95, 2), n: full.n },
    byKind,
  };
}

const result: Record<string, unknown> = {
  machine: { cores: os.cpus().length, loadAverage: os.loadavg().map((x) => round(x, 1)), node: process.version, note: 'shared with other agents: the figures move with the load' },
};

// ------------------------------------------------------------------------------------------ 1. host in Node

if (hostPart) {
  const mineHost = hostReport(measureHost(mine, editsFor(mine, 3), { frames: FULL, playhead: PLAYHEAD }));
  log(`Armed Mine, preview host in Node (${mineHost.bodies} bodies): ${mineHost.realTimeFactor}× real time (by CPU time ${mineHost.cpuRealTimeFactor}×); first fill ${mineHost.firstFillS} s; edit → playhead frame ${PLAYHEAD}: median ${mineHost.editToPlayheadMs.median} ms, p95 ${mineHost.editToPlayheadMs.p95} ms (${mineHost.editToPlayheadMs.n} edits); edit → full 20 s timeline: median ${mineHost.editToFullTimelineS.median} s, p95 ${mineHost.editToFullTimelineS.p95} s`);
  for (const [k, v] of Object.entries(mineHost.byKind)) log(`    ${k}: ${v.map((e) => `${e.playheadMs} ms / ${e.fullS} s (kept ${e.keptFrames})`).join(', ')}`);
  const big = await largestCreature();
  const bigHost = hostReport(measureHost(big.rig, editsFor(big.rig, 4), { frames: FULL, playhead: PLAYHEAD }));
  log(`${big.name}, preview host in Node (${bigHost.bodies} bodies): ${bigHost.realTimeFactor}× real time (by CPU time ${bigHost.cpuRealTimeFactor}×); first fill ${bigHost.firstFillS} s; edit → playhead frame ${PLAYHEAD}: median ${bigHost.editToPlayheadMs.median} ms, p95 ${bigHost.editToPlayheadMs.p95} ms (${bigHost.editToPlayheadMs.n} edits); edit → full 20 s timeline: median ${bigHost.editToFullTimelineS.median} s, p95 ${bigHost.editToFullTimelineS.p95} s`);
  for (const [k, v] of Object.entries(bigHost.byKind)) log(`    ${k}: ${v.map((e) => `${e.playheadMs} ms / ${e.fullS} s (kept ${e.keptFrames})`).join(', ')}`);
  result.armedMine = { host: mineHost };
  result.largest = { name: big.name, host: bigHost };
}

// ------------------------------------------------------------------------------------------ 1b. one host vs two

if (poolPart) {
  const pool = await measurePool(mine, { frames: FULL, playhead: PLAYHEAD, rounds: 2 });
  log(`Armed Mine, ${poolReport(pool, PLAYHEAD).join('\n')}`);
  result.armedMine = { ...(result.armedMine as object | undefined), pool };
}

// ------------------------------------------------------------------------------------------ 2. the editor in Chromium

interface Hook {
  recorded(): number; current(): boolean; stepsPerSecond(): number; latencies(): number[]; displayLatencies(): number[];
  pathHandleScreen(c: string, i: number): { x: number; y: number } | null; playhead(): number;
  shownEdit(): { index: number; generation: number; sent: number; playhead: number; current: boolean };
  editTraces(): EditTrace[];
}

/** The hops of one edit (renderer/src/preview/editTrace.ts), each the ms between two stamps. */
const HOPS: [string, keyof EditTrace, keyof EditTrace][] = [
  ['input event → store edit', 'move' as keyof EditTrace, 'edited'],
  ['store edit → rig posted to the worker', 'edited', 'sent'],
  ['posted → worker takes it', 'sent', 'received'],
  ['worker: validate', 'received', 'validated'],
  ['worker: build engine', 'validated', 'built'],
  ['worker: edit frontier + resume', 'built', 'resumed'],
  ['worker: simulate to the playhead', 'resumed', 'computed'],
  ['worker: slice + post the batch', 'computed', 'posted'],
  ['batch posted → main takes it', 'posted', 'received2'],
  ['main has it → viewport poses it', 'received2', 'shown'],
  ['posed → scene drawn', 'shown', 'drawn'],
  ['drawn → handed to the compositor', 'drawn', 'painted'],
  ['input event → posed (shown)', 'move' as keyof EditTrace, 'shown'],
  ['input event → handed to the compositor', 'move' as keyof EditTrace, 'painted'],
];
const read = <T>(page: Page, fn: (h: Hook) => T): Promise<T> => page.evaluate(`(${fn.toString()})(window.__marionettePreview)`) as Promise<T>;
const q = (a: number[], p: number) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN; };
const stat = (a: number[], d = 0) => ({ median: round(q(a, 0.5), d), p95: round(q(a, 0.95), d), n: a.length });
const say = (a: { median: number | null; p95: number | null; n: number }, unit = 'ms') => `median ${a.median} ${unit}, p95 ${a.p95} ${unit} (${a.n})`;

/** In the page: wait (requestAnimationFrame) until the viewport draws the re-simulated frame under the
 *  playhead for a rig sent after `before`; ms from the last pointer move, or null when no edit was sent. */
const WAIT_SHOWN = `(before) => new Promise((resolve) => {
  const h = window.__marionettePreview, t0 = window.__benchLastMove;
  const tick = () => {
    const s = h.shownEdit(), now = performance.now();
    if (s.sent <= before && now - t0 > 1000) return resolve(null);
    if (s.sent > before && s.current && s.generation === s.sent && s.index === s.playhead) return resolve(now - t0);
    if (now - t0 > 30000) return resolve(-1);
    requestAnimationFrame(tick);
  };
  tick();
})`;
const WAIT_FULL = `() => new Promise((resolve) => {
  const h = window.__marionettePreview, t0 = window.__benchLastMove;
  const tick = () => { const now = performance.now(); if (h.current() && h.recorded() >= ${FULL}) return resolve(now - t0); if (now - t0 > 60000) return resolve(-1); requestAnimationFrame(tick); };
  tick();
})`;

if (browserPart) {
  const out = mkdtempSync(path.join(tmpdir(), 'marionette-bench-'));
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: json ? 'ignore' : 'inherit', env: { ...process.env, VITE_TEST_BUILD: '1' } });
  if (built.status !== 0) throw new Error('vite build failed');
  const { server, url } = await serveStatic(out, 0) as { server: { close(): void }; url: string };
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--ignore-gpu-blocklist'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // The shipped behaviour: a slow renderer draws interactions at half resolution (Viewport.tsx; the test
    // build, which the benchmark needs for its hooks, keeps full resolution for the e2e tests' pixel counts).
    await page.addInitScript(() => { try { localStorage.setItem('marionette.adaptiveDpr', '1'); } catch { /* no storage */ } });
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
    // The speed is published with the recorded count (throttled): a fill faster than a poll leaves it behind.
    for (let i = 0; i < 20 && speeds.length === 0; i++) {
      await page.waitForTimeout(50);
      const sps = await read(page, (h) => h.stepsPerSecond());
      if (sps > 0) speeds.push(sps);
    }
    const fill = await read(page, (h) => ({ lat: h.latencies(), shown: h.displayLatencies() }));

    // The playhead to frame PLAYHEAD: a click on the timeline (frame 0 at the left padding of 10 px).
    const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
    await page.mouse.click(box.x + 10 + ((box.width - 20) * PLAYHEAD) / (FULL - 1), box.y + box.height - 8);
    await page.waitForFunction(() => (window as unknown as { __marionettePreview: Hook }).__marionettePreview.shownEdit().index > 0, null, { timeout: 10_000 });
    const playhead = await read(page, (h) => h.shownEdit().playhead);
    // The edit's input event: a pointer move (a drag) or a key press (Enter commits a field).
    await page.evaluate(() => {
      const w = window as unknown as { __benchLastMove: number };
      w.__benchLastMove = performance.now();
      window.addEventListener('pointermove', () => { w.__benchLastMove = performance.now(); }, true);
      window.addEventListener('keydown', () => { w.__benchLastMove = performance.now(); }, true);
    });

    const editStart = { lat: fill.lat.length, shown: fill.shown.length };
    const toPlayhead: number[] = [], toPainted: number[] = [], toFull: number[] = [];
    const byKind: Record<string, number[]> = {};
    const hops: Record<string, number[]> = Object.fromEntries(HOPS.map(([name]) => [name, []]));
    const resumedFrom: number[] = [], drawnScale: number[] = [];
    /** One edit made by `act` (an input event): ms from it to the viewport posing the re-simulated frame under
     *  the playhead, with its hops; null when the input made no edit. */
    const measureEdit = async (kind: string, act: () => Promise<void>, what: string): Promise<void> => {
      const before = await read(page, (h) => h.shownEdit().sent);
      await act();
      const ms = await page.evaluate(`(${WAIT_SHOWN})(${before})`) as number | null;
      if (ms === -1) throw new Error(`${what}: the edited frame under the playhead was not drawn within 30 s`);
      if (ms === null) return;
      // The edit's trace, once the frame drawn with it has been handed to the compositor (≤ 2 s).
      const { move, trace } = await page.evaluate(`new Promise((resolve) => {
        const h = window.__marionettePreview, g = h.shownEdit().sent, t0 = performance.now();
        const poll = () => { const t = h.editTraces().find((x) => x.generation === g) ?? null;
          if ((t && Number.isFinite(t.painted)) || performance.now() - t0 > 2000) resolve({ move: window.__benchLastMove, trace: t }); else setTimeout(poll, 5); };
        poll();
      })`) as { move: number; trace: EditTrace | null };
      // Edit → playhead frame: the input to the viewport posing the creature from the re-simulated frame
      // (the state update); the paint is reported apart (input → handed to the compositor).
      const shown = trace && Number.isFinite(trace.shown) ? trace.shown - move : ms;
      toPlayhead.push(shown);
      (byKind[kind] ??= []).push(shown);
      if (trace && Number.isFinite(trace.painted)) toPainted.push(trace.painted - move);
      if (trace) {
        const at = { ...trace, move } as unknown as Record<string, number>;
        for (const [name, a, b] of HOPS) if (Number.isFinite(at[b]! - at[a]!)) hops[name]!.push(at[b]! - at[a]!);
        resumedFrom.push(trace.from);
        if (Number.isFinite(trace.drawnScale)) drawnScale.push(trace.drawnScale);
      }
    };
    /** After the last edit: s from its input to the mirror holding the whole re-simulated timeline. */
    const measureFull = async (what: string): Promise<void> => {
      const full = await page.evaluate(`(${WAIT_FULL})()`) as number;
      if (full < 0) throw new Error(`${what}: the re-simulated timeline did not arrive within 60 s`);
      // The moment the mirror took the timeline's last batch (editTrace.ts 'filled'), not the animation
      // frame that noticed it (with a software renderer frames come ~0.2 s apart).
      const filled = await page.evaluate(`(() => { const h = window.__marionettePreview, g = h.shownEdit().sent; const t = h.editTraces().find((x) => x.generation === g); return t ? t.filled - window.__benchLastMove : null; })()`) as number | null;
      toFull.push((filled !== null && Number.isFinite(filled) ? filled : full) / 1000);
    };

    // Path-handle drags: every pointer move re-shapes the path (a controller parameter edit).
    for (let k = 0; k < DRAGS; k++) {
      const at = await read(page, (h) => h.pathHandleScreen('hand-path', 2));
      if (!at) throw new Error('no path handle on screen');
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      for (let i = 1; i <= MOVES; i++) await measureEdit('path-handle drag (controller parameter)', () => page.mouse.move(at.x + i * 3 * (k % 2 ? -1 : 1), at.y + i * 2), `drag ${k + 1}, move ${i}`);
      await page.mouse.up();
      await measureFull(`drag ${k + 1}`);
    }
    // Inspector fields, typed and committed with Enter: the elbow motor's error reduction (a motor gain) and
    // the hand's mass (a body edit: the host starts from frame 0 with a new layout, the client a new poser).
    const fieldEdits: { kind: string; row: string; label: string; values: number[] }[] = [
      { kind: 'motor gain (inspector field)', row: '[data-joint="elbow"]', label: 'Error reduction', values: [0.45, 0.5, 0.45] },
      { kind: 'body mass (inspector field)', row: '[data-body="hand"]', label: 'Mass', values: [0.75, 0.7, 0.75] },
    ];
    for (const fe of fieldEdits) {
      await page.locator(fe.row).first().click();
      const field = page.getByTestId('inspector').getByRole('textbox', { name: fe.label, exact: true });
      await field.waitFor({ timeout: 10_000 });
      for (const v of fe.values) {
        await field.fill(String(v));
        await measureEdit(fe.kind, () => field.press('Enter'), `${fe.label} = ${v}`);
      }
      await measureFull(fe.kind);
    }
    const edit = await read(page, (h) => ({ lat: h.latencies(), shown: h.displayLatencies() }));
    const fps = async (p: Page, counter: string) => p.evaluate(`(async () => {
      const count = ${counter}; const f0 = count(), t = performance.now();
      await new Promise((r) => setTimeout(r, 3000));
      return ((count() - f0) * 1000) / (performance.now() - t);
    })()`) as Promise<number>;
    // Idle: the pointer off the viewport (a hover raycasts and redraws), the camera caught up with the
    // creature (Follow), and nothing has happened for a second.
    await page.mouse.move(5, 795);
    await page.waitForFunction(() => (window as unknown as { __marionettePreview: { cameraSettled(): boolean } }).__marionettePreview.cameraSettled(), null, { timeout: 20_000 }).catch(() => undefined);
    await page.waitForTimeout(1000);
    const idleFps = await fps(page, '() => window.__marionette.frames()');
    const idleDraws = await fps(page, '() => window.__marionette.renders()');
    // Playing: every frame shows another pose, so every frame draws the scene.
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    const playingDraws = await fps(page, '() => window.__marionette.renders()');
    await page.keyboard.press('Space');
    const canvas = await page.locator('canvas').first().boundingBox();
    await page.close();
    // The reference: an empty WebGL canvas of the viewport's size, cleared every animation frame.
    const empty = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await empty.setContent(`<canvas id="c" width="${Math.round(canvas?.width ?? 1280)}" height="${Math.round(canvas?.height ?? 800)}"></canvas><script>
      const gl = document.getElementById('c').getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
      window.__frames = 0; const loop = () => { gl.clearColor(Math.random(), 0.2, 0.3, 1); gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT); window.__frames++; requestAnimationFrame(loop); }; requestAnimationFrame(loop);
    </script>`);
    const emptyFps = await fps(empty, '() => window.__frames');

    const dt = mine.simulation.dt;
    const browserFigures = {
      bodies: mine.bodies.length,
      realTimeFactor: round(q(speeds, 0.5) * dt), framesPerSecond: round(q(speeds, 0.5), 0),
      firstFillS: round(fillMs / 1000, 2),
      playheadFrame: playhead,
      editKind: 'path-handle drags (controller parameter, each pointer move an edit), motor gain and body mass inspector fields (Enter)',
      editToPlayheadMsByKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, stat(v)])),
      editToPlayheadMs: stat(toPlayhead), editToPaintedMs: stat(toPainted), editToFullTimelineS: stat(toFull, 2),
      editHopsMs: Object.fromEntries(Object.entries(hops).map(([k, v]) => [k, stat(v, 1)])),
      resumedFromFrame: resumedFrom,
      /** Per edit, the pixel ratio its frame was drawn at relative to the canvas's (below 1: a slow renderer's
       *  regressed resolution, Viewport.tsx). */
      editDrawnScale: drawnScale,
      workerToMainMs: { firstFill: stat(fill.lat), editing: stat(edit.lat.slice(editStart.lat)) },
      workerToViewportMs: { firstFill: stat(fill.shown), editing: stat(edit.shown.slice(editStart.shown)) },
      idleViewportFps: round(idleFps), idleSceneDrawsPerSecond: round(idleDraws), playingSceneDrawsPerSecond: round(playingDraws), emptySceneFps: round(emptyFps),
    };
    result.armedMine = { ...(result.armedMine as object), browser: browserFigures };
    log(`Armed Mine preview in the Web Worker (Chromium, production bundle):`);
    log(`  simulation + IK + recording: median ${browserFigures.framesPerSecond} frames/s = ${Math.round(q(speeds, 0.5) * dt)}× real time (${speeds.length} samples)`);
    log(`  first fill of the 20 s timeline (${FULL} frames) recorded and mirrored in ${(fillMs / 1000).toFixed(2)} s wall`);
    log(`  edit → re-simulated frame ${playhead} posed in the viewport: ${say(browserFigures.editToPlayheadMs)} (${browserFigures.editKind})`);
    for (const [k, v] of Object.entries(browserFigures.editToPlayheadMsByKind)) log(`    ${k}: ${say(v)}`);
    log(`  edit → that frame drawn and handed to the compositor: ${say(browserFigures.editToPaintedMs)}`);
    log(`  edit → full 20 s timeline: ${say(browserFigures.editToFullTimelineS, 's')}`);
    log(`  hops of an edit (renderer/src/preview/editTrace.ts; re-simulated from frame ${[...new Set(resumedFrom)].join(', ')}; ${drawnScale.filter((x) => x < 1).length} of ${drawnScale.length} edits drawn at reduced resolution):`);
    for (const [k, v] of Object.entries(browserFigures.editHopsMs)) log(`    ${k.padEnd(40)} ${say(v)}`);
    log(`  worker→main latency: first fill ${say(browserFigures.workerToMainMs.firstFill)}; editing ${say(browserFigures.workerToMainMs.editing)}`);
    log(`  worker→viewport latency: first fill ${say(browserFigures.workerToViewportMs.firstFill)}; editing ${say(browserFigures.workerToViewportMs.editing)}`);
    log(`  viewport frame rate when idle: ${idleFps.toFixed(1)} fps (of which ${idleDraws.toFixed(1)} draw the scene: an unchanged picture is not drawn again); playing: ${playingDraws.toFixed(1)} scene draws/s; an empty WebGL canvas of the same size: ${emptyFps.toFixed(1)} fps (SwiftShader's ceiling here)`);
  } finally {
    await browser.close();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
}
log(`(machine: ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, shared with other agents)`);
if (json) console.log(JSON.stringify(result, null, 2));
