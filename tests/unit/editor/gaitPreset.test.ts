/**
 * The editor's gait preset command (edits.setGaitPreset) on the shipped Hexapod: one undo step that sets
 * the phase offsets of the six limbs sharing the body, refused with a reason where the pattern does not fit.
 */
import { describe, expect, it } from 'vitest';
import type { RigDocument } from '../../../shared/rig';
import { openedEditor } from './testEditor';

const phases = (rig: RigDocument): Map<string, number> =>
  new Map(rig.controllers.flatMap((c) => (c.type === 'cyclicPath' ? [[c.name, c.phaseOffset ?? 0] as const] : [])));

describe('edits.setGaitPreset', () => {
  it('wave on the Hexapod: six distinct phases a sixth apart, one undo step; tripod puts the two tripods half a cycle apart', async () => {
    const e = await openedEditor('hexapod');
    const before = structuredClone(e.rig!);
    expect(phases(before).size).toBe(6);
    const r = e.edits.setGaitPreset('leg_l1', 'wave');
    expect(r.ok).toBe(true);
    const wave = [...phases(e.rig!).values()].map((p) => ((p % 1) + 1) % 1).sort((a, b) => a - b);
    expect(new Set(wave.map((p) => p.toFixed(6))).size).toBe(6);
    wave.slice(1).forEach((p, k) => expect(p - wave[k]!).toBeCloseTo(1 / 6, 6));
    e.undo();
    expect(e.rig).toEqual(before);

    expect(e.edits.setGaitPreset('leg_l1', 'tripod').ok).toBe(true);
    const tri = phases(e.rig!);
    // Alternating tripods: L1, R2, L3 against R1, L2, R3.
    const a = ['leg_l1', 'leg_r2', 'leg_l3'].map((n) => tri.get(n)!), b = ['leg_r1', 'leg_l2', 'leg_r3'].map((n) => tri.get(n)!);
    a.forEach((p) => expect(p).toBeCloseTo(a[0]!, 9));
    b.forEach((p) => expect(p).toBeCloseTo(b[0]!, 9));
    expect(Math.abs((((b[0]! - a[0]!) % 1) + 1) % 1 - 0.5)).toBeLessThan(1e-9);
  });

  it('refuses a controller that does not exist and a pattern that does not fit the limbs, and changes nothing', async () => {
    const e = await openedEditor('hexapod');
    const before = structuredClone(e.rig!);
    const missing = e.edits.setGaitPreset('leg_x9', 'wave');
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.message).toMatch(/leg_x9/);
    const trot = e.edits.setGaitPreset('leg_l1', 'trot');
    expect(trot.ok).toBe(false);
    expect(e.rig).toEqual(before);
  });
});
