import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig, migrate, migrations, RIG_VERSION } from '../../../shared/rig';
import { fixture, readJson } from './corpus';

describe('migrations', () => {
  it('form an unbroken chain from the oldest version to the current one', () => {
    const froms = migrations.map((m) => m.from).sort((a, b) => a - b);
    expect(migrations.every((m) => m.to === m.from + 1)).toBe(true);
    expect(froms.at(-1)! + 1).toBe(RIG_VERSION);
    froms.forEach((v, i) => expect(v).toBe(froms[0]! + i));
  });

  it('each has a before/after fixture: migrating `before` gives exactly `after`, which validates', () => {
    const dirs = readdirSync(fixture('migrations'));
    for (const m of migrations) {
      const dir = `v${m.from}-to-v${m.to}`;
      expect(dirs, `missing tests/fixtures/migrations/${dir}`).toContain(dir);
      const before = readJson(fixture(`migrations/${dir}/before.json`)) as Record<string, unknown>;
      const after = readJson(fixture(`migrations/${dir}/after.json`));
      const frozen = JSON.stringify(before);
      expect(m.migrate(structuredClone(before))).toEqual(after);
      expect(JSON.stringify(before)).toBe(frozen);
      expect(loadRig(before)).toEqual(loadRig(after));
    }
  });

  it('converts draft degrees to radians and renames motor fields', () => {
    const before = readJson(fixture('migrations/v0-to-v1/before.json')) as Record<string, unknown>;
    const rig = loadRig(before);
    const elbow = rig.joints[1]!;
    expect(elbow.type).toBe('hinge');
    if (elbow.type !== 'hinge') return;
    expect(elbow.limit![1]).toBeCloseTo(Math.PI / 2, 12);
    expect(elbow.motor).toMatchObject({ mode: 'pd', maxTorque: 30, stiffness: 120, damping: 4 });
    expect(rig.joints[2]!.type === 'hinge' && rig.joints[2]!.motor.target).toEqual({ source: 'animation', clip: 'wave' });
  });

  it('refuses newer and unknown-older versions with a clear message', () => {
    expect(migrate({}, RIG_VERSION + 6)).toEqual({ ok: false, message: `rig version ${RIG_VERSION + 6} is newer than this Marionette (knows ≤ ${RIG_VERSION}); update Marionette to load it` });
    expect(migrate({}, -1).ok).toBe(false);
  });

  it('never throws on malformed old documents, leaving problems to validation', () => {
    for (const junk of [{ joints: 5 }, { joints: [null, 3, { motor: 'x' }] }, { bodies: [[]], simulation: [] }]) {
      expect(() => migrations[0]!.migrate(structuredClone(junk))).not.toThrow();
    }
  });
});
