/**
 * The benchmark's printed output: one table of results and the issue-3 targets as ratios
 * (ragdoll11 × the largest N with motors on, Marionette against the better of Rapier and Jolt).
 */
import type { EngineName } from './engine';
import type { BenchResult, BenchRow } from './runBenchmark';

const fmt = (v: number | null, digits: number) => (v === null ? '—' : Number.isFinite(v) ? v.toFixed(digits) : String(v));
const fmtExp = (v: number | null) => (v === null ? '—' : Number.isFinite(v) ? v.toExponential(2) : String(v));

export function formatTable(result: BenchResult): string {
  const header = ['scene', 'n', 'motors', 'engine', 'ms/step', 'drift mean (m)', 'drift max (m)', 'fall (s)'];
  const rows = result.results.map((r) => [
    r.scene,
    String(r.n),
    r.scene.startsWith('pile') ? '—' : r.motors ? 'on' : 'off',
    r.engine,
    fmt(r.msPerStep, 3),
    fmtExp(r.driftMeanM),
    fmtExp(r.driftMaxM),
    r.fallTimeS === null ? (r.scene.startsWith('pile') ? '—' : 'never') : r.fallTimeS.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
  const seen = new Set<string>();
  out.push('', 'settings:');
  for (const r of result.results) {
    if (seen.has(r.engine)) continue;
    seen.add(r.engine);
    out.push(`  ${r.engine.padEnd(10)} ${r.settings}`);
  }
  if (result.nsPerRowIteration !== null) out.push(`nsPerRowIteration (marionette, ragdoll11 × largest N, motors on): ${result.nsPerRowIteration.toFixed(2)} ns`);
  return out.join('\n');
}

export interface TargetCheck {
  name: string;
  /** The ratio compared with 1 (see `pass`). */
  ratio: number | null;
  pass: boolean | null;
  detail: string;
}

const find = (rows: readonly BenchRow[], engine: EngineName, n: number, motors = true) =>
  rows.find((r) => r.scene === 'ragdoll11' && r.engine === engine && r.n === n && r.motors === motors);

/** Fall time with "never fell within the run" as +∞ (the best possible). */
const fallOrInfinity = (r: BenchRow) => (r.fallTimeS === null ? Infinity : r.fallTimeS);

/**
 * The issue-3 targets for ragdoll11 × `n` with motors on, and the N = nSmall → n scaling. Checks whose
 * rows are missing (engine or count not run) come back with pass = null. nSmall = null skips the scaling.
 */
export function checkTargets(rows: readonly BenchRow[], n = 128, nSmall: number | null = 16): TargetCheck[] {
  const m = find(rows, 'marionette', n);
  const peers = (['rapier', 'jolt'] as const).map((e) => find(rows, e, n)).filter((r): r is BenchRow => r !== undefined);
  const checks: TargetCheck[] = [];
  const missing = (name: string, why: string): TargetCheck => ({ name, ratio: null, pass: null, detail: `not checked: ${why}` });
  const label = `ragdoll11 × ${n}, motors on`;

  if (!m || peers.length === 0) {
    const why = !m ? 'marionette did not run at this N' : 'no peer ran at this N';
    checks.push(missing(`speed (${label})`, why), missing(`drift (${label})`, why), missing(`fall time (${label})`, why));
  } else {
    const fastest = peers.reduce((a, b) => (b.msPerStep < a.msPerStep ? b : a));
    const speed = m.msPerStep / fastest.msPerStep;
    checks.push({
      name: `speed (${label})`,
      ratio: speed,
      pass: speed <= 1,
      detail: `marionette ${m.msPerStep.toFixed(3)} ms / ${fastest.engine} ${fastest.msPerStep.toFixed(3)} ms — target ≤ 1`,
    });
    const withDrift = peers.filter((p) => p.driftMeanM !== null);
    if (m.driftMeanM === null || withDrift.length === 0) {
      checks.push(missing(`drift (${label})`, 'no drift figure'));
    } else {
      const best = withDrift.reduce((a, b) => (b.driftMeanM! < a.driftMeanM! ? b : a));
      const ratio = m.driftMeanM / best.driftMeanM!;
      checks.push({
        name: `drift (${label})`,
        ratio,
        pass: ratio <= 1,
        detail: `marionette ${fmtExp(m.driftMeanM)} m / ${best.engine} ${fmtExp(best.driftMeanM)} m (mean anchor separation) — target ≤ 1`,
      });
    }
    const bestFall = peers.reduce((a, b) => (fallOrInfinity(b) > fallOrInfinity(a) ? b : a));
    const mf = fallOrInfinity(m), pf = fallOrInfinity(bestFall);
    const ratio = mf === Infinity && pf === Infinity ? 1 : mf / pf;
    checks.push({
      name: `fall time (${label})`,
      ratio: Number.isFinite(ratio) ? ratio : null,
      pass: ratio >= 1,
      detail: `marionette ${m.fallTimeS === null ? 'never' : `${m.fallTimeS.toFixed(2)} s`} / ${bestFall.engine} ${bestFall.fallTimeS === null ? 'never' : `${bestFall.fallTimeS.toFixed(2)} s`} — target ≥ 1`,
    });
  }

  if (nSmall === null) return checks;
  for (const engine of ['marionette', 'rapier', 'jolt', 'mujoco'] as const) {
    const small = find(rows, engine, nSmall), big = find(rows, engine, n);
    const name = `scaling ${engine} (N ${nSmall} → ${n}, motors on)`;
    if (!small || !big) {
      if (engine === 'marionette') checks.push(missing(name, `needs N = ${nSmall} and ${n}`));
      continue;
    }
    const ratio = big.msPerStep / small.msPerStep / (n / nSmall);
    checks.push({
      name,
      ratio,
      // The target is Marionette's; the peers' ratios are shown for reference.
      pass: engine === 'marionette' ? ratio <= 1.1 : null,
      detail: `(${big.msPerStep.toFixed(3)} / ${small.msPerStep.toFixed(3)} ms) / ${n / nSmall}${engine === 'marionette' ? ' — target ≤ 1.10' : ' (reference)'}`,
    });
  }
  return checks;
}

export function formatTargets(checks: readonly TargetCheck[]): string {
  const lines = ['targets (ratios):'];
  for (const c of checks) {
    const verdict = c.pass === null ? '    ' : c.pass ? 'PASS' : 'FAIL';
    lines.push(`  ${verdict}  ${c.name}: ${c.ratio === null ? '—' : c.ratio.toFixed(3)}  ${c.detail}`);
  }
  return lines.join('\n');
}

/**
 * The N = nSmall → n scaling from the FASTEST timed step of each run, for every engine that ran both. On a
 * shared machine the median of a long step grows with the load (a 5 ms step is preempted far more often than
 * a 0.5 ms one), so the median ratio above measures the load as much as the engine; the minimum does not.
 * Shown for information: the issue's target is on the medians.
 */
export function formatMinScaling(minMs: Readonly<Record<string, number>>, key: (n: number, engine: string) => string, n: number, nSmall: number): string {
  const parts: string[] = [];
  for (const engine of ['marionette', 'rapier', 'jolt', 'mujoco']) {
    const big = minMs[key(n, engine)], small = minMs[key(nSmall, engine)];
    if (big === undefined || small === undefined) continue;
    parts.push(`${engine} ${(big / small / (n / nSmall)).toFixed(3)} (${big.toFixed(3)} / ${small.toFixed(3)} ms)`);
  }
  return parts.length === 0 ? '' : `scaling from the fastest step (N ${nSmall} → ${n}, motors on; load-robust, for information): ${parts.join(', ')}`;
}
