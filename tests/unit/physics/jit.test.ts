/**
 * A second World must not throw away the solver's optimised code (shared/physics/stepContext.ts). Object
 * literals for the per-world objects, and number fields first given an integer, made V8 deoptimise 36 of
 * the solver's compiled functions when a process made its second World ("marking dependent code … for
 * deoptimization, reason: code dependencies"), which then ran ~300 steps slowly until re-optimised — in
 * the editor that is every re-simulation after an edit (the second engine's first 300 frames of the Armed
 * Mine took 158–160 ms, 65–72 ms without the deopts). The probe is bundled with esbuild and run under
 * `node --trace-deopt`; V8's own trace says which compiled code it discards while the second World is made.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('V8 keeps the solver optimised across worlds', () => {
  it('making a second World discards none of the first one\'s compiled solver code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marionette-jit-'));
    try {
      const out = join(dir, 'probe.mjs');
      await build({ entryPoints: [fileURLToPath(new URL('./probes/secondWorld.ts', import.meta.url))], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'warning' });
      const r = spawnSync(process.execPath, ['--trace-opt', '--trace-deopt', out], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      expect(r.status, r.stderr).toBe(0);
      const lines = r.stdout.split('\n');
      const from = lines.indexOf('--- world 1 create'), to = lines.indexOf('--- world 1 created');
      expect(from).toBeGreaterThan(0);
      expect(to).toBeGreaterThan(from);
      const discarded = lines.slice(from, to).filter((l) => l.startsWith('[marking dependent code')).map((l) => /SharedFunctionInfo (\w+)/.exec(l)?.[1] ?? l);
      // The first world's solver was optimised (else there would be nothing to discard).
      const optimised = new Set(lines.slice(0, from).map((l) => /^\[completed optimizing .*<JSFunction (\w+)/.exec(l)?.[1]).filter((f) => f !== undefined));
      const solver = ['solveBall', 'solveHinge', 'solveList', 'solveJointList', 'prepareJoints', 'projectJointPositions'].filter((f) => optimised.has(f));
      console.log(`second World: ${discarded.length} compiled functions discarded${discarded.length ? `: ${discarded.join(', ')}` : ''}; optimised before it: ${optimised.size} functions, of them ${solver.join(', ')}`);
      expect(solver.length).toBeGreaterThanOrEqual(5);
      expect(discarded).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
