#!/usr/bin/env node
// The README's figures (how long the tests take, how fast the preview runs) are measured here and written
// into README.md between the markers below, never typed in. Each line says when, on how many cores and
// with which Node it was measured; a figure this run did not measure keeps its previous line.
//
//   node scripts/readme-figures.mjs --preview   # bench/preview-latency.ts in Chromium (about 2 minutes)
//   node scripts/readme-figures.mjs --tests     # npm run test:unit and npm run test:e2e, timed (give it the machine)
//   node scripts/readme-figures.mjs --all       # both
//   node scripts/readme-figures.mjs --check     # only parse the block; exit 1 with the reason when malformed
//
// A measurement whose command fails is not written: the script exits 1 and the README keeps its lines.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const README = path.join(root, 'README.md');
export const BEGIN = '<!-- figures:begin — written by `node scripts/readme-figures.mjs`; do not edit by hand -->';
export const END = '<!-- figures:end -->';

/** The block's lines, in order: key → the label that starts the line. */
export const FIGURES = {
  unit: 'Unit tests (`npm run test:unit`)',
  e2e: 'End-to-end suite (`npm run test:e2e`, web build in Chromium)',
  preview: 'Preview (Armed Mine in the Web Worker, Chromium, `npx tsx bench/preview-latency.ts`)',
};
const NOT_MEASURED = 'not measured yet';
const STAMP = /\(measured (\d{4}-\d{2}-\d{2}) on (\d+) cores? at load (\d+\.\d), Node v(\d+\.\d+\.\d+)\)$/;
const VALUE = {
  unit: /^\d+ min \d{2} s$|^\d+ s$/,
  e2e: /^\d+ min \d{2} s$|^\d+ s$/,
  // Since issue 17 also an edit's way back: the frame under the playhead posed (the viewport's state update)
  // and drawn (handed to the compositor), and the whole timeline re-simulated (older form: "shows … (median)").
  preview: /^\d+ frames\/s = \d+× real time; the 20 s timeline recorded in \d+\.\d s(; an edit shows at the playhead in \d+ ms \(median\)|; an edit is posed at the playhead in \d+ ms and drawn in \d+ ms, the whole timeline back in \d+\.\d+ s \(medians\))?$/,
};

/**
 * Parses README text: { lines: Map(key → line), before, after } or throws an Error naming what is wrong.
 * A line is `- <label>: <value> (measured YYYY-MM-DD on N cores at load L, Node vX.Y.Z)` or `- <label>: not measured yet …`.
 */
export function parseFigures(text) {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < 0) throw new Error(`README.md: the figures block is missing (${begin < 0 ? 'begin' : 'end'} marker not found)`);
  if (text.indexOf(BEGIN, begin + 1) >= 0 || text.indexOf(END, end + 1) >= 0) throw new Error('README.md: the figures block markers appear more than once');
  if (end < begin) throw new Error('README.md: the figures end marker comes before the begin marker');
  const body = text.slice(begin + BEGIN.length, end).split('\n').map((line) => line.trim()).filter(Boolean);
  const keys = Object.keys(FIGURES);
  if (body.length !== keys.length) throw new Error(`README.md: the figures block has ${body.length} lines, expected ${keys.length} (${keys.join(', ')})`);
  const lines = new Map();
  body.forEach((line, i) => {
    const key = keys[i];
    const prefix = `- ${FIGURES[key]}: `;
    if (!line.startsWith(prefix)) throw new Error(`README.md: figures line ${i + 1} should start with "${prefix}": ${line}`);
    const rest = line.slice(prefix.length);
    if (!rest.startsWith(NOT_MEASURED)) {
      const stamp = STAMP.exec(rest);
      if (!stamp) throw new Error(`README.md: figures line "${key}" does not end with "(measured YYYY-MM-DD on N cores at load L, Node vX.Y.Z)": ${line}`);
      const value = rest.slice(0, stamp.index).trim();
      if (!VALUE[key].test(value)) throw new Error(`README.md: figures line "${key}" has a malformed value "${value}"`);
    }
    lines.set(key, line);
  });
  return { lines, before: text.slice(0, begin), after: text.slice(end + END.length) };
}

export function formatDuration(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** When, where and under what load (1-minute load average when the measurement started; others' work slows it). */
function stamp(load) {
  return `(measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores at load ${load.toFixed(1)}, Node ${process.version})`;
}

/** Runs a command with its output shown and kept; resolves { ms, output } or rejects naming the command. */
function timed(command, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; process.stdout.write(chunk); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0
      ? resolve({ ms: performance.now() - started, output })
      : reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}); nothing written`))));
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

async function measure(key) {
  if (key === 'unit' || key === 'e2e') {
    const { ms } = await timed(npm, ['run', key === 'unit' ? 'test:unit' : 'test:e2e']);
    return formatDuration(ms);
  }
  const { output } = await timed(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bench/preview-latency.ts', '--json']);
  // --json prints one JSON document last: armedMine.browser has the Chromium figures (issue 17's fields).
  let b;
  try { b = JSON.parse(output.slice(output.indexOf('{'))).armedMine?.browser; } catch { b = undefined; }
  const ok = b && [b.framesPerSecond, b.realTimeFactor, b.firstFillS, b.editToPlayheadMs?.median, b.editToPaintedMs?.median, b.editToFullTimelineS?.median].every((x) => typeof x === 'number');
  if (!ok) throw new Error('bench/preview-latency.ts --json: no armedMine.browser { framesPerSecond, realTimeFactor, firstFillS, editToPlayheadMs.median, editToPaintedMs.median, editToFullTimelineS.median } in its output; nothing written');
  return `${Math.round(b.framesPerSecond)} frames/s = ${Math.round(b.realTimeFactor)}× real time; the 20 s timeline recorded in ${b.firstFillS.toFixed(1)} s; an edit is posed at the playhead in ${Math.round(b.editToPlayheadMs.median)} ms and drawn in ${Math.round(b.editToPaintedMs.median)} ms, the whole timeline back in ${b.editToFullTimelineS.median.toFixed(2)} s (medians)`;
}

async function main(argv) {
  const parsed = parseFigures(readFileSync(README, 'utf8'));
  if (argv.includes('--check')) {
    console.log(`README.md: figures block well-formed (${[...parsed.lines.keys()].join(', ')})`);
    return;
  }
  const keys = argv.includes('--all') ? Object.keys(FIGURES)
    : [...(argv.includes('--tests') ? ['unit', 'e2e'] : []), ...(argv.includes('--preview') ? ['preview'] : [])];
  if (keys.length === 0) throw new Error('say what to measure: --preview, --tests, --all (or --check)');
  for (const key of keys) {
    console.log(`readme-figures: measuring ${key}`);
    const load = os.loadavg()[0];
    const line = `- ${FIGURES[key]}: ${await measure(key)} ${stamp(load)}`;
    // Re-read (the README may have been edited meanwhile) and written after each figure, so a later
    // failure keeps the ones measured so far.
    const now = parseFigures(readFileSync(README, 'utf8'));
    now.lines.set(key, line);
    const next = `${now.before}${BEGIN}\n${[...now.lines.values()].join('\n')}\n${END}${now.after}`;
    parseFigures(next);
    writeFileSync(README, next);
    console.log(`readme-figures: ${line}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`readme-figures: ${error.message}`);
    process.exit(1);
  });
}
