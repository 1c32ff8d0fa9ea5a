/**
 * docs/physics.md's speed table (issue 11 item 6), measured, never typed: one run of the benchmark
 * (runBenchmark, the engines of each case stepped in turn so they share the machine's load) over every case
 * `npm run bench` reports — ragdoll11 at N = 1, 16, 128 with motors on and off, and pile500 — in Marionette,
 * Rapier, Jolt and MuJoCo, as a Markdown table with Marionette's time over the fastest peer's per case, and
 * Marionette's ns per row-iteration. MuJoCo steps pile500 at about a second a step (its 500 free boxes in one
 * dense constraint problem), so the table leaves it out of pile500 (`npm run bench` runs it there).
 *
 *   npx tsx bench/speed-figures.ts                 # print the table
 *   npx tsx bench/speed-figures.ts --write-docs    # and write it into docs/physics.md between its markers
 *   npx tsx bench/speed-figures.ts --steps 300     # fewer timed steps (default: the scene file's 600)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineName } from './engine';
import { replaceBetween } from './pendulum-energy';
import { CODE_WARMUP_STEPS, minKey, runBenchmark, type BenchResult } from './runBenchmark';

export const SPEED_BEGIN = '<!-- speed-figures:begin — written by `npx tsx bench/speed-figures.ts --write-docs`; do not edit by hand -->';
export const SPEED_END = '<!-- speed-figures:end -->';

const PEERS: readonly EngineName[] = ['rapier', 'jolt', 'mujoco'];

/** Markdown table of one run: per case the engines' median ms/step (— where one did not run) and Marionette ÷ the fastest peer that ran. */
export function speedTable(result: BenchResult): string {
  const cases = [...new Set(result.results.map((r) => `${r.scene}|${r.n}|${r.motors}`))];
  const lines = [
    '| case | Marionette (ms/step) | Rapier | Jolt | MuJoCo | Marionette ÷ fastest peer |',
    '|---|---|---|---|---|---|',
  ];
  let worst = 0;
  for (const key of cases) {
    const rows = result.results.filter((r) => `${r.scene}|${r.n}|${r.motors}` === key);
    const ms = (e: EngineName) => rows.find((r) => r.engine === e)?.msPerStep ?? NaN;
    const m = ms('marionette');
    const fastest = Math.min(...PEERS.map(ms).filter((x) => Number.isFinite(x)));
    const ratio = m / fastest;
    worst = Math.max(worst, ratio);
    const r0 = rows[0]!;
    const name = r0.scene === 'ragdoll11' ? `ragdoll11 × ${r0.n}, motors ${r0.motors ? 'on' : 'off'}` : r0.scene;
    const cell = (e: EngineName) => (Number.isFinite(ms(e)) ? ms(e).toFixed(3) : '—');
    lines.push(`| ${name} | ${m.toFixed(3)} | ${cell('rapier')} | ${cell('jolt')} | ${cell('mujoco')} | ${ratio.toFixed(2)}${ratio <= 1 ? '' : ' — slower'} |`);
  }
  const ns = result.nsPerRowIteration;
  // The same per row-iteration from the fastest timed step: the least load-disturbed estimate on a shared machine.
  const big = result.results.filter((r) => r.engine === 'marionette' && r.scene === 'ragdoll11' && r.motors).reduce((m, r) => Math.max(m, r.n), 0);
  const bigRow = result.results.find((r) => r.engine === 'marionette' && r.scene === 'ragdoll11' && r.motors && r.n === big);
  const fastest = result.minMsPerStep?.[minKey('ragdoll11', big, 'marionette', true)];
  const nsFastest = ns !== null && bigRow && fastest !== undefined ? (ns * fastest) / bigRow.msPerStep : null;
  return `${lines.join('\n')}\n\nLargest Marionette ÷ fastest peer: ${worst.toFixed(2)} (target ≤ 1). ` +
    `Marionette per row-iteration (ragdoll11 × ${big}, motors on; ms/step ÷ rows × velocity iterations × substeps): ` +
    `${ns === null ? '—' : `${ns.toFixed(1)} ns`} from the median step, ${nsFastest === null ? '—' : `${nsFastest.toFixed(1)} ns`} from the fastest (target ≤ 25 ns).`;
}

/** The × 1 cases timed with no code warm-up, as the first worlds of the process: Marionette ÷ the fastest peer. */
export function coldLine(cold: BenchResult): string {
  const parts: string[] = [];
  for (const motors of [true, false]) {
    const rows = cold.results.filter((r) => r.scene === 'ragdoll11' && r.n === 1 && r.motors === motors);
    const m = rows.find((r) => r.engine === 'marionette')?.msPerStep;
    const peers = rows.filter((r) => PEERS.includes(r.engine)).map((r) => r.msPerStep);
    if (m === undefined || peers.length === 0) continue;
    const fastest = Math.min(...peers);
    parts.push(`motors ${motors ? 'on' : 'off'} ${m.toFixed(3)} ms ÷ ${fastest.toFixed(3)} = ${(m / fastest).toFixed(2)}`);
  }
  return parts.length === 0 ? '' : `With no code warm-up (the protocol before 2026-11-28; these worlds the first of the process), ragdoll11 × 1 in the same run: ${parts.join(', ')}.`;
}

async function main(argv: readonly string[]): Promise<number> {
  let timedSteps: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--write-docs') continue;
    if (a === '--steps') {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 1) { process.stderr.write(`speed-figures: --steps must be an integer ≥ 1 (got "${argv[i]}")\n`); return 2; }
      timedSteps = v;
      continue;
    }
    process.stderr.write(`speed-figures: unknown option "${a}" (known: --write-docs, --steps N)\n`);
    return 2;
  }
  const load = os.loadavg()[0]!;
  const common = { isolation: 'worker' as const, ...(timedSteps ? { timedSteps } : {}), onProgress: (line: string) => process.stderr.write(`${line}\n`) };
  // First, while every engine's code is still cold: the × 1 cases as the protocol before 2026-11-28 timed them.
  const cold = await runBenchmark({ engines: ['marionette', 'rapier', 'jolt', 'mujoco'], scenes: ['ragdoll11'], counts: [1], codeWarmupSteps: 0, ...common });
  const ragdolls = await runBenchmark({ engines: ['marionette', 'rapier', 'jolt', 'mujoco'], scenes: ['ragdoll11'], ...common });
  const pile = await runBenchmark({ engines: ['marionette', 'rapier', 'jolt'], scenes: ['pile500'], ...common });
  const result: BenchResult = { ...ragdolls, results: [...ragdolls.results, ...pile.results], warnings: [...(ragdolls.warnings ?? []), ...(pile.warnings ?? [])] };
  const steps = timedSteps ?? 600;
  const table = `${speedTable(result)}\n\nMedian of ${steps} timed steps after the warm-up, the engines of a scene stepped in turn, each engine in its own worker thread (its own V8 isolate), each engine's ` +
    `code warmed first by ${CODE_WARMUP_STEPS.toLocaleString('en-US')} steps of a throwaway ragdoll11 × 1 with motors on and off; ` +
    `measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores at load ${load.toFixed(1)} (shared with other work: compare ` +
    `ratios within the table, not times across runs), Node ${process.version}. ${coldLine(cold)}`.trimEnd();
  process.stdout.write(`${table}\n`);
  for (const w of result.warnings ?? []) process.stdout.write(`warning: ${w}\n`);
  if (argv.includes('--write-docs')) {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'physics.md');
    writeFileSync(file, replaceBetween(readFileSync(file, 'utf8'), SPEED_BEGIN, SPEED_END, table, 'docs/physics.md'));
    process.stdout.write('written into docs/physics.md\n');
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
