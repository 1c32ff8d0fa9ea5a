import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig } from '../../../shared/rig';
import type { EditorDocument } from '../../../shared/document';
import {
  gaitSetting, insertControlPoint, pathController, removeControlPoint, setControlPoint, setGaitEnabled, setGaitSetting, setMotorNumber,
} from '../../../renderer/src/preview/pathEdits';

const rig = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8')));
const doc = { rig } as unknown as EditorDocument;
const name = rig.controllers[0]!.name;
const ctl = (d: EditorDocument) => pathController(d.rig, name);

describe('gait controller edits (inspector)', () => {
  it('sets rate, phase offset and the steering numbers; an unchanged value returns the same document', () => {
    let d = setGaitSetting(doc, name, 'rate', 0.8);
    expect(ctl(d).rate).toBe(0.8);
    d = setGaitSetting(d, name, 'phaseOffset', 0.25);
    expect(ctl(d).phaseOffset).toBe(0.25);
    d = setGaitSetting(d, name, 'steering.maxAngle', 0.5);
    expect(ctl(d).steering.maxAngle).toBe(0.5);
    d = setGaitSetting(d, name, 'steering.pivotLead', 0.4);
    expect(gaitSetting(ctl(d), 'steering.pivotLead')).toBe(0.4);
    expect(setGaitSetting(d, name, 'rate', 0.8)).toBe(d);
    // The untouched parts of the rig are shared, not copied.
    expect(d.rig.joints).toBe(doc.rig.joints);
    expect(ctl(doc).rate).not.toBe(0.8);
  });

  it('refuses values the rig schema refuses, naming the controller, the field and the rule', () => {
    expect(() => setGaitSetting(doc, name, 'phaseOffset', 1.5)).toThrow(`${name} phaseOffset: must be < 1, got 1.5.`);
    expect(() => setGaitSetting(doc, name, 'steering.gain', -1)).toThrow(`${name} steering.gain: must be ≥ 0, got -1.`);
    expect(() => setGaitSetting(doc, name, 'steering.maxAngle', 4)).toThrow(`${name} steering.maxAngle: must be ≤ 3.14159, got 4.`);
    expect(() => setGaitSetting(doc, name, 'steering.window', -0.5)).toThrow(/must be ≥ 0, got -0.5/);
    expect(() => setGaitSetting(doc, name, 'rate', Number.NaN)).toThrow(/rate: must be a number/);
    expect(() => setGaitSetting(doc, 'nope', 'rate', 1)).toThrow(/"nope": not a cyclic-path controller/);
  });

  it('edits the arrival numbers; omitted ones read as what the controller uses (stop 0 = off, slow-down = stop, restart = slow-down, stroke 0.5)', () => {
    const c = ctl(doc);
    expect(gaitSetting(c, 'steering.stopRadius')).toBe(0.5);
    expect(gaitSetting(c, 'steering.arriveRadius')).toBe(1.5);
    expect(gaitSetting(c, 'steering.restartRadius')).toBe(1);
    expect(gaitSetting(c, 'steering.minStroke')).toBe(0.5);
    const { stopRadius: _s, arriveRadius: _a, restartRadius: _r, minStroke: _m, ...bare } = c.steering;
    const old = { ...c, steering: { ...bare, stopRadius: 0.4 } };
    expect(gaitSetting(old, 'steering.arriveRadius')).toBe(0.4);
    expect(gaitSetting(old, 'steering.restartRadius')).toBe(0.4);
    expect(gaitSetting({ ...c, steering: bare }, 'steering.stopRadius')).toBe(0);
    let d = setGaitSetting(doc, name, 'steering.arriveRadius', 2);
    expect(ctl(d).steering.arriveRadius).toBe(2);
    d = setGaitSetting(d, name, 'steering.minStroke', 0.7);
    expect(ctl(d).steering.minStroke).toBe(0.7);
    expect(setGaitSetting(d, name, 'steering.stopRadius', 0.5)).toBe(d);
  });

  it('refuses arrival radii in the wrong order (the schema\'s cross-field rule) and a stroke over 1', () => {
    expect(() => setGaitSetting(doc, name, 'steering.arriveRadius', 0.3)).toThrow(`${name} steering.arriveRadius: must be ≥ stopRadius (0.5 m), got 0.3.`);
    expect(() => setGaitSetting(doc, name, 'steering.restartRadius', 0.2)).toThrow(/steering.restartRadius: must be ≥ stopRadius \(0.5 m\), got 0.2/);
    // Raising the stop radius past the slow-down radius names the field that is now out of order.
    expect(() => setGaitSetting(doc, name, 'steering.stopRadius', 2)).toThrow(/steering.arriveRadius: must be ≥ stopRadius \(2 m\), got 1.5/);
    expect(() => setGaitSetting(doc, name, 'steering.minStroke', 1.5)).toThrow(`${name} steering.minStroke: must be ≤ 1, got 1.5.`);
  });

  it('enables and disables the controller', () => {
    const off = setGaitEnabled(doc, name, false);
    expect(ctl(off).enabled).toBe(false);
    expect(setGaitEnabled(off, name, false)).toBe(off);
  });

  it('moves, inserts and removes control points, keeping at least three and refusing coincident neighbours', () => {
    const n = ctl(doc).controlPoints.length;
    const { doc: d, index } = insertControlPoint(doc, name, 0);
    expect(index).toBe(1);
    const a = ctl(doc).controlPoints[0]!, b = ctl(doc).controlPoints[1]!;
    expect(ctl(d).controlPoints[1]).toEqual([0, 1, 2].map((k) => (a[k]! + b[k]!) / 2));
    expect(ctl(removeControlPoint(d, name, 1)).controlPoints).toEqual(ctl(doc).controlPoints);
    expect(() => setControlPoint(doc, name, 1, [...a])).toThrow(/would coincide with point 1/);
    let small = doc;
    while (ctl(small).controlPoints.length > 3) small = removeControlPoint(small, name, 0);
    expect(n).toBeGreaterThanOrEqual(3);
    expect(() => removeControlPoint(small, name, 0)).toThrow(/at least 3 points/);
  });

  it('sets a chain motor through the checked motor edit', () => {
    const joint = ctl(doc).chain[0]!;
    const d = setMotorNumber(doc, joint, 'maxTorque', 12);
    const j = d.rig.joints.find((x) => x.name === joint)!;
    expect(j.type !== 'fixed' && j.motor.maxTorque).toBe(12);
    expect(() => setMotorNumber(doc, joint, 'maxTorque', -5)).toThrow(new RegExp(`${joint} τmax`));
  });
});
