/**
 * Refusals in the field's own unit and words (shared/editor/fieldMessages.ts): zod's wording rewritten,
 * radians shown as degrees under a degree field, the unit added where the message has none.
 */
import { describe, expect, it } from 'vitest';
import { fieldMessage } from '../../../shared/editor';
import { setJointLimits, setMotor, setMass } from '../../../shared/authoring';
import type { RigDocument } from '../../../shared/rig';
import { readFileSync } from 'node:fs';
import { assetsDir } from './testEditor';

const DEG = 180 / Math.PI;
const mine = JSON.parse(readFileSync(new URL('armed-mine.rig.json', assetsDir), 'utf8')) as RigDocument;
const refusal = (r: { ok: boolean; message?: string }): string => (r.ok ? '' : r.message!);

describe('fieldMessage', () => {
  it('zod’s "Too small" becomes "must be ≥ 0" in the field’s unit', () => {
    expect(fieldMessage('Too small: expected number to be >=0', { unit: 'kg' })).toBe('must be ≥ 0 kg');
    expect(fieldMessage('Too small: expected number to be >0', { unit: 'N·m' })).toBe('must be > 0 N·m');
    expect(fieldMessage('Too big: expected number to be <=1')).toBe('must be ≤ 1');
    expect(fieldMessage('Invalid input: expected number, received NaN', { unit: 's' })).toBe('must be a number');
    // Through a real edit: a negative τmax refused by the motor schema.
    const r = setMotor(mine, 'elbow', { maxTorque: -5 });
    expect(fieldMessage(refusal(r as never), { unit: 'N·m' })).toBe('must be ≥ 0 N·m');
  });

  it('the unit is added where the message has none, kept where it has it', () => {
    expect(fieldMessage('must be > 0, got -2', { unit: 'kg' })).toBe('must be > 0 kg, got -2 kg');
    expect(fieldMessage(refusal(setMass(mine, 'hand', -2) as never), { unit: 'kg' })).toBe('must be > 0 kg, got -2 kg');
    expect(fieldMessage('must be ≤ 1, got 1.5.', { unit: '' })).toBe('must be ≤ 1, got 1.5.');
    expect(fieldMessage('min must be ≤ max, got [0.4, 0.1] m', { unit: 'm' })).toBe('min must be ≤ max, got [0.4, 0.1] m');
  });

  it('under a degree field, radians are shown in degrees', () => {
    const r = setJointLimits(mine, 'elbow', { limit: [1.5, 0.5] });
    expect(refusal(r as never)).toBe('min must be ≤ max, got [1.5, 0.5] rad');
    expect(fieldMessage(refusal(r as never), { unit: '°', scale: DEG, digits: 1 })).toBe('min must be ≤ max, got [85.9°, 28.6°]');
    const out = setJointLimits(mine, 'elbow', { limit: [-0.5, 4] });
    expect(fieldMessage(refusal(out as never), { unit: '°', scale: DEG, digits: 1 })).toBe('must lie within (−180°, 180°], got 229.2°');
    expect(fieldMessage('must be ≥ -1.5708 rad, got -2 rad', { unit: '°', scale: DEG, digits: 1 })).toBe('must be ≥ -90°, got -114.6°');
    // Degrees already: untouched.
    expect(fieldMessage('must be within 0° and 90°, got 120°', { unit: '°', scale: DEG })).toBe('must be within 0° and 90°, got 120°');
  });
});
