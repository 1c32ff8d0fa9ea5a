/**
 * The long fuzz run (tests/fuzz/core.ts): by default 10,000 mutants of every shipped rig and particle scene,
 * each accepted one stepped 2 s (at most 240 steps) under a 10 s per-case budget. Prints a summary and the
 * first failures with their seeds; exits 1 on any failure.
 *
 *   npx tsx scripts/fuzz.ts [--count 10000] [--seed N] [--seconds 2] [--max-steps 240] [--budget-ms 10000]
 */
import { fuzz, shippedCorpus } from '../tests/fuzz/core';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const count = arg('count', 10_000);
const seed = arg('seed', Math.floor(Math.random() * 2 ** 31));
const corpus = shippedCorpus();
const started = performance.now();
const report = fuzz(corpus, count, seed, { seconds: arg('seconds', 2), maxSteps: arg('max-steps', 240), budgetMs: arg('budget-ms', 10_000) });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`fuzz: seed ${seed}, ${corpus.length} files × ${count} = ${report.cases} cases in ${seconds} s: ${report.refused} refused, ${report.ran} ran, ${report.failures.length} failed`);
for (const f of report.failures.slice(0, 20)) console.log(`  ${f.file} case seed ${f.seed} (${f.note}): ${f.problem}`);
process.exitCode = report.failures.length === 0 ? 0 : 1;
