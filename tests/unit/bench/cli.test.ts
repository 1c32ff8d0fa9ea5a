import { describe, expect, it } from 'vitest';
import { benchMain, parseBenchArgs } from '../../../bench/main';
import { checkTargets, formatMinScaling } from '../../../bench/report';
import { minKey, type BenchRow } from '../../../bench/runBenchmark';

describe('bench command line', () => {
  it('parses the subset options', () => {
    const { json, options } = parseBenchArgs(['--engines', 'rapier,jolt', '--n=1,16', '--steps', '100', '--warmup', '0', '--code-warmup', '0', '--motors', 'on', '--scenes', 'ragdoll11', '--json']);
    expect(json).toBe(true);
    expect(options).toEqual({ engines: ['rapier', 'jolt'], counts: [1, 16], timedSteps: 100, warmupSteps: 0, codeWarmupSteps: 0, motors: [true], scenes: ['ragdoll11'] });
  });

  it('rejects bad options with the option and the reason', () => {
    expect(() => parseBenchArgs(['--engines', 'bullet'])).toThrow(/--engines: unknown engine "bullet"/);
    expect(() => parseBenchArgs(['--n', '0'])).toThrow(/--n must be an integer ≥ 1/);
    expect(() => parseBenchArgs(['--steps'])).toThrow(/--steps needs a value/);
    expect(() => parseBenchArgs(['--motors', 'maybe'])).toThrow(/"maybe" is neither on nor off/);
    expect(() => parseBenchArgs(['--fast'])).toThrow(/unknown option "--fast"/);
    expect(() => parseBenchArgs(['--code-warmup', '-1'])).toThrow(/--code-warmup must be an integer ≥ 0/);
    expect(() => parseBenchArgs(['--code-warmup'])).toThrow(/--code-warmup needs a value/);
    expect(() => parseBenchArgs(['--isolation', 'process'])).toThrow(/--isolation must be worker or shared \(got "process"\)/);
    expect(parseBenchArgs(['--isolation=worker']).options).toEqual({ isolation: 'worker' });
  });

  it('prints the result object of issue 3 as the last line with --json', async () => {
    const out: string[] = [];
    const code = await benchMain(['--engines', 'rapier', '--n', '1', '--scenes', 'ragdoll11', '--motors', 'on', '--steps', '5', '--warmup', '0', '--code-warmup', '0', '--json'], {
      out: (t) => out.push(...t.split('\n')),
      err: () => undefined,
      progress: false,
    });
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('no code warm-up');
    const last = JSON.parse(out[out.length - 1]!) as Record<string, unknown>;
    expect(Object.keys(last).sort()).toEqual(['nsPerRowIteration', 'results']);
    expect(last.nsPerRowIteration).toBeNull();
    const rows = last.results as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!).sort()).toEqual(['driftMaxM', 'driftMeanM', 'engine', 'fallTimeS', 'motors', 'msPerStep', 'n', 'scene', 'settings'].sort());
    expect(rows[0]).toMatchObject({ scene: 'ragdoll11', n: 1, engine: 'rapier', motors: true, fallTimeS: null });
    expect(rows[0]!.msPerStep as number).toBeGreaterThan(0);
  });
});

describe('code warm-up', () => {
  // Each engine steps a throwaway ragdoll11 × 1 with motors on, then off, before anything is measured: the
  // measured worlds are made afterwards, fresh, so their figures (drift, fall) are the same as without it.
  it('steps each engine on throwaway worlds first, says so, and leaves the measured world\'s figures as they were', async () => {
    const run = async (warm: string) => {
      const out: string[] = [], err: string[] = [];
      const code = await benchMain(['--engines', 'marionette', '--n', '1', '--scenes', 'ragdoll11', '--motors', 'off', '--steps', '30', '--warmup', '0', '--code-warmup', warm, '--json'], {
        out: (t) => out.push(...t.split('\n')),
        err: (t) => err.push(t),
        progress: true,
      });
      expect(code).toBe(0);
      const rows = (JSON.parse(out[out.length - 1]!) as { results: BenchRow[] }).results;
      return { text: out.join('\n'), err: err.join('\n'), row: rows[0]! };
    };
    const cold = await run('0'), warm = await run('40');
    expect(warm.err).toMatch(/code warm-up: 40 steps of ragdoll11 × 1, motors on and off, per engine/);
    expect(cold.err).not.toMatch(/code warm-up:/);
    expect(warm.text).toContain('code warmed first by 40 steps of a throwaway ragdoll11 × 1 with motors on and off');
    expect(cold.row.driftMeanM).toBeGreaterThan(0);
    expect(warm.row.driftMeanM).toBe(cold.row.driftMeanM);
    expect(warm.row.driftMaxM).toBe(cold.row.driftMaxM);
  });
});

describe('one isolate per engine', () => {
  // --isolation worker (npm run bench's default): each engine steps in its own worker thread, still in turn
  // with the others. The worlds are the same; only where they run changes, so every figure but the times
  // is what the shared isolate gives, bit for bit.
  it('runs each engine in its own worker and measures the same worlds as the shared isolate', async () => {
    const run = async (isolation: string) => {
      const out: string[] = [], err: string[] = [];
      const code = await benchMain(['--engines', 'marionette,rapier', '--n', '1', '--scenes', 'ragdoll11', '--motors', 'on', '--steps', '40', '--warmup', '0', '--code-warmup', '0', '--isolation', isolation, '--json'], {
        out: (t) => out.push(...t.split('\n')),
        err: (t) => err.push(t),
        progress: true,
      });
      expect(code).toBe(0);
      return { text: out.join('\n'), err: err.join('\n'), rows: (JSON.parse(out[out.length - 1]!) as { results: BenchRow[] }).results };
    };
    const shared = await run('shared'), worker = await run('worker');
    expect(worker.err).toMatch(/2 engines interleaved, each in its own worker/);
    expect(worker.text).toContain('each engine in its own worker thread');
    expect(shared.text).toContain('all engines in one isolate');
    expect(worker.rows.map((r) => r.engine)).toEqual(['marionette', 'rapier']);
    for (const [k, row] of worker.rows.entries()) {
      const same = shared.rows[k]!;
      expect(row.engine).toBe(same.engine);
      expect(row.settings).toBe(same.settings);
      expect(row.driftMeanM).toBeGreaterThan(0);
      expect(row.driftMeanM).toBe(same.driftMeanM);
      expect(row.driftMaxM).toBe(same.driftMaxM);
      expect(row.msPerStep).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('target ratios', () => {
  const row = (engine: BenchRow['engine'], n: number, msPerStep: number, driftMeanM: number, fallTimeS: number | null): BenchRow => ({
    scene: 'ragdoll11', n, engine, motors: true, msPerStep, driftMeanM, driftMaxM: driftMeanM * 3, fallTimeS, settings: '',
  });

  it('compares Marionette with the faster, the more accurate and the longer-standing peer', () => {
    const rows = [
      row('marionette', 128, 6, 2e-4, 4), row('rapier', 128, 8, 3e-4, 1.6), row('jolt', 128, 12, 5e-4, 5),
      row('marionette', 16, 0.6, 2e-4, 4), row('rapier', 16, 1, 3e-4, 1.6), row('jolt', 16, 1.5, 5e-4, 5),
    ];
    const checks = checkTargets(rows, 128, 16);
    const byName = (prefix: string) => checks.find((c) => c.name.startsWith(prefix))!;
    expect(byName('speed').ratio).toBeCloseTo(6 / 8, 12);
    expect(byName('speed').pass).toBe(true);
    expect(byName('drift').ratio).toBeCloseTo(2 / 3, 12);
    expect(byName('fall time').ratio).toBeCloseTo(4 / 5, 12);
    expect(byName('fall time').pass).toBe(false);
    expect(byName('scaling marionette').ratio).toBeCloseTo(6 / 0.6 / 8, 12);
    expect(byName('scaling marionette').pass).toBe(false);
    expect(byName('scaling rapier').pass).toBeNull();
  });

  it('treats "never fell" as the best fall time', () => {
    const never = checkTargets([row('marionette', 128, 1, 1e-4, null), row('jolt', 128, 2, 1e-4, 5)], 128, null);
    expect(never.find((c) => c.name.startsWith('fall'))!.pass).toBe(true);
    const peerNever = checkTargets([row('marionette', 128, 1, 1e-4, 9), row('jolt', 128, 2, 1e-4, null)], 128, null);
    expect(peerNever.find((c) => c.name.startsWith('fall'))!.pass).toBe(false);
    expect(peerNever.some((c) => c.name.startsWith('scaling'))).toBe(false);
  });

  it('marks the checks it cannot make', () => {
    const checks = checkTargets([row('rapier', 128, 8, 3e-4, 1.6)], 128, 16);
    expect(checks.filter((c) => c.pass === null && c.detail.startsWith('not checked'))).toHaveLength(4);
  });

  it('reports the load-robust scaling from the fastest steps for the engines that ran both counts', () => {
    const key = (n: number, engine: string) => minKey('ragdoll11', n, engine, true);
    const line = formatMinScaling({ [key(16, 'marionette')]: 0.5, [key(128, 'marionette')]: 4.4, [key(128, 'rapier')]: 3 }, key, 128, 16);
    expect(line).toContain('marionette 1.100 (4.400 / 0.500 ms)');
    expect(line).not.toContain('rapier');
    expect(formatMinScaling({}, key, 128, 16)).toBe('');
  });
});
