import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadRig, RigError, serializeRig, validateRig, type RigDocument } from '../../../shared/rig';
import { badRigDir, badRigManifest, fixture, readJson, shippedRigs } from './corpus';

const pendulum = () => readJson(fixture('rigs/pendulum.rig.json')) as RigDocument;

describe('validateRig', () => {
  it('accepts every shipped rig and fixture, and they round-trip: save → load → deep-equal', () => {
    const rigs = shippedRigs();
    expect(rigs.length).toBeGreaterThan(0);
    for (const path of rigs) {
      const rig = loadRig(readFileSync(path, 'utf8'), { source: path });
      const again = loadRig(serializeRig(rig));
      expect(again, path).toEqual(rig);
      expect(JSON.parse(serializeRig(again))).toEqual(JSON.parse(readFileSync(path, 'utf8')));
    }
  });

  it('reports each broken rig of the corpus with its expected message (library)', () => {
    const files = readdirSync(badRigDir).filter((f) => f !== 'manifest.json');
    expect(files.length).toBeGreaterThanOrEqual(30);
    expect(Object.keys(badRigManifest).sort()).toEqual(files.sort());
    for (const [file, { expect: fragments }] of Object.entries(badRigManifest)) {
      const result = validateRig(readFileSync(`${badRigDir}/${file}`, 'utf8'));
      expect(result.ok, file).toBe(false);
      if (result.ok) continue;
      const text = result.problems.map(formatProblem).join('\n');
      for (const fragment of fragments) expect(text, file).toContain(fragment);
    }
  });

  it('reports every problem at once, not just the first', () => {
    const rig = pendulum() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    rig.joints[0].motor.maxTorque = -1;
    rig.joints[1].motor.errorReduction = 0;
    rig.bodies[2].material.friction = 'high';
    const result = validateRig(rig);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map(formatProblem)).toEqual([
      'bodies[2].material.friction: must be a number, got the string "high"',
      'joints[0].motor.maxTorque: must be ≥ 0, got -1',
      'joints[1].motor.errorReduction: must be > 0, got 0',
    ]);
  });

  it('never mutates its input and returns a copy', () => {
    const rig = pendulum();
    const before = JSON.stringify(rig);
    const result = validateRig(rig);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rig).not.toBe(rig);
    result.rig.bodies[1]!.linearDamping = 99;
    expect(JSON.stringify(rig)).toBe(before);
  });

  it('loadRig throws a RigError listing the problems, prefixed with the source', () => {
    const rig = pendulum() as unknown as Record<string, unknown>;
    rig.version = 7;
    let error: unknown;
    try { loadRig(rig, { source: 'mine.rig.json' }); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(RigError);
    expect((error as RigError).message).toContain('mine.rig.json: invalid rig (1 problem)');
    expect((error as RigError).message).toContain('rig version 7 is newer than this Marionette (knows ≤ 1); update Marionette');
    expect((error as RigError).problems).toHaveLength(1);
  });

  it('refuses a 50 MB rig by size without parsing it, and accepts it when the limit is raised', () => {
    // A legal document grown to 50 MB by a huge `extras` payload: the size limit, not a parse, rejects it.
    const rig = pendulum() as unknown as Record<string, unknown>;
    const blob = 'x'.repeat(50 * 1024 * 1024);
    rig.extras = { blob };
    const text = JSON.stringify(rig);
    expect(text.length).toBeGreaterThan(50 * 1024 * 1024);
    const refused = validateRig(text);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problems[0]!.message).toMatch(/^is 50\.0 MB long; rigs are limited to 16\.0 MB/);
    const accepted = validateRig(text, { maxBytes: 64 * 1024 * 1024 });
    expect(accepted.ok).toBe(true);
    if (accepted.ok) expect((accepted.rig.extras as { blob: string }).blob.length).toBe(blob.length);
  });

  it('caps a flood of problems with a count of the rest', () => {
    const rig = pendulum() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    rig.skeleton.bones = Array.from({ length: 1000 }, (_, i) => ({ name: `b${i}`, parent: null, rest: { translation: [0, 0, 'NaN'], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }));
    const result = validateRig(rig, { maxProblems: 100 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(101);
    expect(result.problems[100]!.message).toBe('… and 900 more problems');
  });

  it('rejects values a JSON file cannot hold when handed objects directly (NaN, Infinity)', () => {
    const rig = pendulum() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    rig.simulation.gravity = [0, Number.NaN, Infinity];
    const result = validateRig(rig);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.problems.map(formatProblem);
    expect(text).toContain('simulation.gravity[1]: must be a finite number, got NaN');
    expect(text).toContain('simulation.gravity[2]: must be a finite number, got Infinity');
  });
});
