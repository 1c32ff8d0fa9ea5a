/**
 * Gait presets (shared/authoring/gaitPresets.ts) on the shipped Hexapod and on four- and two-limb rigs made
 * from it (its front and back legs; its front legs): the phase offsets each pattern gives each limb, the
 * common rate, and the reasons given when a preset does not fit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyGaitPreset, gaitPresetPhases, limbsOf, setGaitPreset, GAIT_PRESETS } from '../../../shared/authoring';
import { loadRig, validateRig, type RigDocument } from '../../../shared/rig';

const hexapod = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/hexapod.rig.json', import.meta.url), 'utf8')), { source: 'hexapod.rig.json' });
const keep = (rig: RigDocument, names: string[]): RigDocument => ({ ...rig, controllers: rig.controllers.filter((c) => names.includes(c.name)) });
const phases = (rig: RigDocument) => Object.fromEntries(rig.controllers.map((c) => [c.name, c.type === 'cyclicPath' ? c.phaseOffset : NaN]));
const quad = keep(hexapod, ['leg_l1', 'leg_r1', 'leg_l3', 'leg_r3']);
const pair = keep(hexapod, ['leg_l1', 'leg_r1']);

describe('gait presets', () => {
  it('tells the limbs apart by side (x of the path centroid) and front to back (z)', () => {
    const limbs = limbsOf(hexapod);
    expect(limbs.map((l) => `${l.name}:${l.side}`)).toEqual(['leg_l1:l', 'leg_r1:r', 'leg_l2:l', 'leg_r2:r', 'leg_l3:l', 'leg_r3:r']);
    expect(limbs.find((l) => l.name === 'leg_l1')!.z).toBeGreaterThan(limbs.find((l) => l.name === 'leg_l2')!.z);
  });

  it('tripod: L1 R2 L3 at 0, R1 L2 R3 at ½', () => {
    const r = applyGaitPreset({ ...hexapod, controllers: hexapod.controllers.map((c) => ({ ...c, phaseOffset: 0.3 })) }, 'tripod');
    expect(phases(r)).toEqual({ leg_l1: 0, leg_r2: 0, leg_l3: 0, leg_r1: 0.5, leg_l2: 0.5, leg_r3: 0.5 });
    expect(validateRig(r).ok).toBe(true);
  });

  it('wave: one leg at a time, back to front on the left, then on the right, ⅙ cycle apart', () => {
    const p = phases(applyGaitPreset(hexapod, 'wave'));
    const sixth = (k: number) => Math.round((k / 6) * 1e9) / 1e9;
    expect(p).toEqual({ leg_l3: 0, leg_l2: sixth(1), leg_l1: sixth(2), leg_r3: sixth(3), leg_r2: sixth(4), leg_r1: sixth(5) });
  });

  it('trot (diagonal pairs) and walk (LH LF RH RF, ¼ apart) on four legs', () => {
    expect(phases(applyGaitPreset(quad, 'trot'))).toEqual({ leg_l1: 0, leg_r3: 0, leg_r1: 0.5, leg_l3: 0.5 });
    expect(phases(applyGaitPreset(quad, 'walk'))).toEqual({ leg_l3: 0, leg_l1: 0.25, leg_r3: 0.5, leg_r1: 0.75 });
  });

  it('alternating on two limbs: left 0, right ½', () => {
    expect(phases(applyGaitPreset(pair, 'alternating'))).toEqual({ leg_l1: 0, leg_r1: 0.5 });
  });

  it('gives every limb the first limb\'s rate', () => {
    const rig = { ...hexapod, controllers: hexapod.controllers.map((c, i) => ({ ...c, rate: 0.5 + i * 0.1 })) };
    const r = applyGaitPreset(rig, 'tripod');
    expect(new Set(r.controllers.map((c) => c.rate))).toEqual(new Set([0.5]));
  });

  it('says why a preset does not fit: the number of limbs, or of limbs a side', () => {
    expect(() => applyGaitPreset(quad, 'tripod')).toThrow('the tripod gait is for 6 limbs on one root body; this root has 4 cyclicPath controllers');
    expect(() => applyGaitPreset(hexapod, 'trot')).toThrow('the trot gait is for 4 limbs on one root body; this root has 6 cyclicPath controllers');
    const lopsided = keep(hexapod, ['leg_l1', 'leg_l2', 'leg_l3', 'leg_r1']);
    expect(() => applyGaitPreset(lopsided, 'walk')).toThrow('the walk gait needs 2 limbs on each side (path centroid x > 0 is the left); found 3 left (leg_l1, leg_l2, leg_l3) and 1 right (leg_r1)');
    expect(gaitPresetPhases(limbsOf(pair), 'wave')).toEqual({ error: 'the wave gait is for 6 limbs on one root body; this root has 2 cyclicPath controllers' });
  });

  it('the editor\'s edit (setGaitPreset) applies to the limbs on the named controller\'s root, or names the field and reason', () => {
    const r = setGaitPreset(quad, 'leg_r3', 'walk');
    expect(r.ok && phases(r.rig)).toEqual({ leg_l3: 0, leg_l1: 0.25, leg_r3: 0.5, leg_r1: 0.75 });
    expect(setGaitPreset(quad, 'leg_l1', 'tripod')).toEqual({ ok: false, field: 'leg_l1 gait preset', message: 'the tripod gait is for 6 limbs on one root body; this root has 4 cyclicPath controllers.' });
    expect(setGaitPreset(quad, 'nope', 'trot')).toEqual({ ok: false, field: 'nope gait preset', message: 'no cyclicPath controller named "nope"' });
  });

  it('lists each preset with its limb count', () => {
    expect(GAIT_PRESETS.map((p) => `${p.preset}:${p.limbs}`)).toEqual(['tripod:6', 'wave:6', 'trot:4', 'walk:4', 'alternating:2']);
  });
});
