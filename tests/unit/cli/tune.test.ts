import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRig } from '../../../shared/rig';
import type { JointTune, TunableJoint } from '../../../shared/authoring/tune';
import type { RigDocument } from '../../../shared/rig/schema';
import { fixture, repo } from '../rig/corpus';
import { runInProcess } from './run';

const motorOf = (rig: RigDocument, name: string) => (rig.joints.find((j) => j.name === name) as TunableJoint).motor;
const tmp = mkdtempSync(join(tmpdir(), 'marionette-tune-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('marionette tune', () => {
  it('tunes the humanoid for 0.3 s, prints the table and writes a valid rig with the new gains', async () => {
    const out = join(tmp, 'humanoid.tuned.rig.json');
    const r = await runInProcess(['tune', `${repo}assets/creatures/humanoid.rig.json`, '--settle', '0.3', '--out', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/joint\s+mode\s+I kg·m²\s+kp\s+kv/);
    expect(r.out).toMatch(/^\s+forearm_l\s+pd\s.*\sok$/m);
    expect(r.out).toMatch(/^\s+spine\s+pd\s.*MISS: settled in 0\.\d+ s for 0\.3 s/m);
    expect(r.out).toContain('11 of 12 joints within 20 % of the requested settle time');
    const rig = loadRig(readFileSync(out, 'utf8'));
    const original = loadRig(readFileSync(`${repo}assets/creatures/humanoid.rig.json`, 'utf8'));
    expect(motorOf(rig, 'forearm_l').stiffness).not.toBe(motorOf(original, 'forearm_l').stiffness);
  });

  it('--joint wrist and --json on the pendulum: one result, settle within 20 % of 0.3 s', async () => {
    const out = join(tmp, 'pendulum.tuned.rig.json');
    const r = await runInProcess(['tune', fixture('rigs/pendulum.rig.json'), '--joint', 'wrist', '--json', '--out', out]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as JointTune[];
    expect(rows.map((x) => x.joint)).toEqual(['wrist']);
    expect(rows[0]!.ok).toBe(true);
    expect(Math.abs(rows[0]!.achieved!.settle! - 0.3) / 0.3).toBeLessThanOrEqual(0.2);
    expect(motorOf(loadRig(readFileSync(out, 'utf8')), 'wrist').errorReduction).toBeCloseTo(rows[0]!.params.errorReduction, 9);
  });

  it('refuses a bad --settle, a missing --out, an unknown --joint (usage, exit 2) and an invalid rig (exit 1)', async () => {
    const out = join(tmp, 'x.rig.json');
    for (const bad of ['0', '-1', 'fast', '1e9']) {
      const r = await runInProcess(['tune', fixture('rigs/pendulum.rig.json'), `--settle=${bad}`, '--out', out]);
      expect(r.code, bad).toBe(2);
      expect(r.err, bad).toContain(`--settle must be a settle time in (0, 60] seconds, got "${bad}"`);
    }
    const noOut = await runInProcess(['tune', fixture('rigs/pendulum.rig.json')]);
    expect(noOut.code).toBe(2);
    expect(noOut.err).toContain('tune needs --out FILE');
    const joint = await runInProcess(['tune', fixture('rigs/pendulum.rig.json'), '--joint', 'knee', '--out', out]);
    expect(joint.code).toBe(2);
    expect(joint.err).toContain('has no joint "knee"');
    const invalid = await runInProcess(['tune', fixture('bad-rigs/truncated.json'), '--out', out]);
    expect(invalid.code).toBe(1);
    expect(invalid.err).toContain('truncated.json');
  });
});
