/**
 * Issue 4's CLI figure, as a benchmark (never a timed test): CPU seconds (user + system, Node start-up
 * included) of `marionette simulate assets/creatures/armed-mine.rig.json --seconds 10`, best of several
 * runs, and whether two runs' traces are byte-identical (determinism). Target: < 1 s of CPU.
 *
 *   npx tsx bench/cli-simulate.ts [--runs 3]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Math.max(2, Number(process.argv[runsArg + 1]) || 3) : 3;
const tmp = mkdtempSync(join(tmpdir(), 'marionette-cli-bench-'));

/** One CLI run in a child bash whose `times` builtin reports its children's CPU (user, system). */
function run(out: string): { cpu: number; wall: number } {
  const cmd = `node bin/marionette.mjs simulate assets/creatures/armed-mine.rig.json --seconds 10 --out '${out}' >/dev/null; times`;
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', cmd], { cwd: root, encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`simulate failed: ${r.stderr}`);
  // `times` prints two lines: the shell's own times, then its children's: "0m0.512s 0m0.061s".
  const child = r.stdout.trim().split('\n').at(-1)!.trim().split(/\s+/);
  const secs = (s: string) => { const m = /^(\d+)m([\d.]+)s$/.exec(s); return m ? Number(m[1]) * 60 + Number(m[2]) : NaN; };
  return { cpu: secs(child[0]!) + secs(child[1]!), wall };
}

// The first run may build dist/cli.mjs (bin/marionette.mjs rebuilds a stale bundle): warm it up.
run(join(tmp, 'warmup.json'));
const results = Array.from({ length: runs }, (_, i) => run(join(tmp, `trace-${i}.json`)));
const identical = results.every((_, i) => readFileSync(join(tmp, `trace-${i}.json`)).equals(readFileSync(join(tmp, 'trace-0.json'))));
const best = Math.min(...results.map((r) => r.cpu));
const median = results.map((r) => r.cpu).sort((a, b) => a - b)[Math.floor(runs / 2)]!;
rmSync(tmp, { recursive: true, force: true });

console.log(`marionette simulate armed-mine.rig.json --seconds 10 (600 steps), ${runs} runs`);
console.log(`  CPU (user+sys, incl. Node start-up): best ${best.toFixed(3)} s, median ${median.toFixed(3)} s — target < 1 s: ${best < 1 ? 'met' : 'MISSED'}`);
console.log(`  wall: ${results.map((r) => r.wall.toFixed(2)).join(', ')} s`);
console.log(`  traces byte-identical across runs: ${identical ? 'yes' : 'NO'}`);
if (process.argv.includes('--json')) console.log(JSON.stringify({ cpuBestS: best, cpuMedianS: median, identical }));
