/**
 * The long "never explode on a valid rig" run (issue 11 item 4; tests/fuzz/randomRigs.ts): by default 10,000
 * random rigs that validateRig accepts, each stepped 2 s through createSimulation/step. Counts throws, NaN
 * and bodies faster than 100 m/s (a point of the body: |v| and |ω|·extent), by feature — apart from those flung
 * out along a slide `marionette validate` warns is unbounded (randomRigs.ts flungAlong) — and prints the
 * first failures with their seeds (`--case SEED` re-runs one and prints its rig summary).
 *
 *   npx tsx scripts/stress-rigs.ts [--count 10000] [--seed N] [--from 0] [--seconds 2] [--case SEED] [--coupled] [--solver articulated]
 *
 * --from K: start at the seed's K-th rig (a slice of a long run: `--from 5000 --count 5000` is the second half of
 * the 10,000, the same rigs and case seeds).
 *
 * --coupled: the generator also draws screw, cylindrical and planar joints (randomRig's coupledJoints).
 * --solver articulated: the same rigs on the articulated (reduced-coordinate) solver (docs/articulated.md).
 */
import { randomRig, runRandomRig, stress } from '../tests/fuzz/randomRigs';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const one = arg('case', Number.NaN);
const solverArg = process.argv.indexOf('--solver') >= 0 ? process.argv[process.argv.indexOf('--solver') + 1] : 'rigid';
if (solverArg !== 'rigid' && solverArg !== 'articulated') {
  console.error(`stress-rigs: --solver must be rigid or articulated, got "${String(solverArg)}"`);
  process.exit(2);
}
const options = { coupledJoints: process.argv.includes('--coupled'), solver: solverArg as 'rigid' | 'articulated' };
if (Number.isFinite(one)) {
  const { rig, features } = randomRig(one, options);
  console.log(JSON.stringify({ features, simulation: rig.simulation, bodies: rig.bodies.length, joints: rig.joints.map((j) => j.type) }));
  console.log(JSON.stringify(runRandomRig(one, arg('seconds', 2), options)));
} else {
  const count = arg('count', 10_000);
  const seed = arg('seed', Math.floor(Math.random() * 2 ** 31));
  const started = performance.now();
  const from = arg('from', 0);
  const report = stress(count, seed, arg('seconds', 2), options, from);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const failed = report.failed.length;
  console.log(`stress-rigs: seed ${seed}${from > 0 ? ` from rig ${from}` : ''}${options.coupledJoints ? ' (coupled joints too)' : ''}${options.solver === 'articulated' ? ', articulated solver' : ''}, ${report.cases} rigs in ${seconds} s: ${report.ok} ran clean, ${failed} failed (${JSON.stringify(report.byOutcome)}), ${report.refused} refused by validation`);
  const byFeature: Record<string, number> = {}, ran: Record<string, number> = {};
  for (const f of report.failed) for (const x of [...f.features, `kind:${f.kind}`]) byFeature[x] = (byFeature[x] ?? 0) + 1;
  for (const [x, n] of Object.entries(report.ranByFeature)) ran[x] = n;
  console.log('failures by feature (failed / ran):', Object.keys(ran).sort().map((k) => `${k} ${byFeature[k] ?? 0}/${ran[k]}`).join(', '));
  for (const [i, f] of report.failed.slice(0, 20).entries()) console.log(`  case ${report.failedSeeds[i]} [${f.kind}; ${f.features.join(', ')}] ${f.outcome}: ${f.detail}`);
  if (report.flung.length > 0) console.log(`flung out along a slide validation warned is unbounded (the rig's physics, not counted as failures): ${report.flung.length}`);
  for (const [i, f] of report.flung.slice(0, 20).entries()) console.log(`  case ${report.flungSeeds[i]} [${f.kind}; ${f.features.join(', ')}] flung: ${f.detail}`);
  process.exitCode = failed === 0 ? 0 : 1;
}
