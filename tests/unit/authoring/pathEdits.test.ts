/** The gait path and its settings as pure rig edits (shared/authoring/pathEdits.ts: RigDocument → EditResult). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig, type RigDocument } from '../../../shared/rig';
import * as edits from '../../../shared/authoring';
import { gaitSetting, pathController, type EditResult, type GaitSetting } from '../../../shared/authoring';
import { ARRIVE_MIN_STROKE, RIGHTING_DEFAULTS, STEER_PIVOT_LEAD } from '../../../shared/gait/controller';

const rig0: RigDocument = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8')));
const name = rig0.controllers[0]!.name;
const ctl = (r: RigDocument) => pathController(r, name)!;

/** The edited rig; a refusal is thrown as "field: message" (the text the editor shows) for toThrow. */
const run = (r: EditResult): RigDocument => { if (!r.ok) throw new Error(`${r.field}: ${r.message}`); return r.rig; };
const setGaitSetting = (r: RigDocument, c: string, f: GaitSetting, v: number) => run(edits.setGaitSetting(r, c, f, v));
const setGaitEnabled = (r: RigDocument, c: string, on: boolean) => run(edits.setGaitEnabled(r, c, on));
const insertControlPoint = (r: RigDocument, c: string, i: number) => run(edits.insertControlPoint(r, c, i));
const removeControlPoint = (r: RigDocument, c: string, i: number) => run(edits.removeControlPoint(r, c, i));
const setControlPoint = (r: RigDocument, c: string, i: number, p: number[]) => run(edits.setControlPoint(r, c, i, p));
const setMotorNumber = (r: RigDocument, j: string, f: 'maxTorque' | 'errorReduction', v: number) => run(edits.setMotorNumber(r, j, f, v));

describe('gait controller edits (inspector)', () => {
  it('sets rate, phase offset and the steering numbers; an unchanged value returns the same document', () => {
    let d = setGaitSetting(rig0, name, 'rate', 0.8);
    expect(ctl(d).rate).toBe(0.8);
    d = setGaitSetting(d, name, 'phaseOffset', 0.25);
    expect(ctl(d).phaseOffset).toBe(0.25);
    d = setGaitSetting(d, name, 'steering.maxAngle', 0.5);
    expect(ctl(d).steering.maxAngle).toBe(0.5);
    d = setGaitSetting(d, name, 'steering.pivotLead', 0.4);
    expect(gaitSetting(ctl(d), 'steering.pivotLead')).toBe(0.4);
    expect(setGaitSetting(d, name, 'rate', 0.8)).toBe(d);
    // The untouched parts of the rig are shared, not copied.
    expect(d.joints).toBe(rig0.joints);
    expect(ctl(rig0).rate).not.toBe(0.8);
  });

  it('refuses values the rig schema refuses, naming the controller, the field and the rule', () => {
    expect(() => setGaitSetting(rig0, name, 'phaseOffset', 1.5)).toThrow(`${name} phaseOffset: must be < 1, got 1.5.`);
    expect(() => setGaitSetting(rig0, name, 'steering.gain', -1)).toThrow(`${name} steering.gain: must be ≥ 0, got -1.`);
    expect(() => setGaitSetting(rig0, name, 'steering.maxAngle', 4)).toThrow(`${name} steering.maxAngle: must be ≤ 3.14159, got 4.`);
    expect(() => setGaitSetting(rig0, name, 'steering.window', -0.5)).toThrow(/must be ≥ 0, got -0.5/);
    expect(() => setGaitSetting(rig0, name, 'rate', Number.NaN)).toThrow(/rate: must be a number/);
    expect(() => setGaitSetting(rig0, 'nope', 'rate', 1)).toThrow(/"nope": not a cyclic-path controller/);
  });

  it('edits the arrival numbers; omitted ones read as what the controller uses (stop 0 = off, slow-down = stop, restart = slow-down, stroke 0.5)', () => {
    const c = ctl(rig0);
    expect(gaitSetting(c, 'steering.stopRadius')).toBe(0.5);
    expect(gaitSetting(c, 'steering.arriveRadius')).toBe(1.5);
    expect(gaitSetting(c, 'steering.restartRadius')).toBe(1);
    expect(gaitSetting(c, 'steering.minStroke')).toBe(0.5);
    const { stopRadius: _s, arriveRadius: _a, restartRadius: _r, minStroke: _m, ...bare } = c.steering;
    const old = { ...c, steering: { ...bare, stopRadius: 0.4 } };
    expect(gaitSetting(old, 'steering.arriveRadius')).toBe(0.4);
    expect(gaitSetting(old, 'steering.restartRadius')).toBe(0.4);
    expect(gaitSetting({ ...c, steering: bare }, 'steering.stopRadius')).toBe(0);
    let d = setGaitSetting(rig0, name, 'steering.arriveRadius', 2);
    expect(ctl(d).steering.arriveRadius).toBe(2);
    d = setGaitSetting(d, name, 'steering.minStroke', 0.7);
    expect(ctl(d).steering.minStroke).toBe(0.7);
    expect(setGaitSetting(d, name, 'steering.stopRadius', 0.5)).toBe(d);
  });

  it('refuses arrival radii in the wrong order (the schema\'s cross-field rule) and a stroke over 1', () => {
    expect(() => setGaitSetting(rig0, name, 'steering.arriveRadius', 0.3)).toThrow(`${name} steering.arriveRadius: must be ≥ stopRadius (0.5 m), got 0.3.`);
    expect(() => setGaitSetting(rig0, name, 'steering.restartRadius', 0.2)).toThrow(/steering.restartRadius: must be ≥ stopRadius \(0.5 m\), got 0.2/);
    // Raising the stop radius past the slow-down radius names the field that is now out of order.
    expect(() => setGaitSetting(rig0, name, 'steering.stopRadius', 2)).toThrow(/steering.arriveRadius: must be ≥ stopRadius \(2 m\), got 1.5/);
    expect(() => setGaitSetting(rig0, name, 'steering.minStroke', 1.5)).toThrow(`${name} steering.minStroke: must be ≤ 1, got 1.5.`);
  });

  it('enables and disables the controller', () => {
    const off = setGaitEnabled(rig0, name, false);
    expect(ctl(off).enabled).toBe(false);
    expect(setGaitEnabled(off, name, false)).toBe(off);
  });

  it('moves, inserts and removes control points, keeping at least three and refusing coincident neighbours', () => {
    const n = ctl(rig0).controlPoints.length;
    const d = insertControlPoint(rig0, name, 0); // the new point is at index + 1
    const a = ctl(rig0).controlPoints[0]!, b = ctl(rig0).controlPoints[1]!;
    expect(ctl(d).controlPoints[1]).toEqual([0, 1, 2].map((k) => (a[k]! + b[k]!) / 2));
    expect(ctl(removeControlPoint(d, name, 1)).controlPoints).toEqual(ctl(rig0).controlPoints);
    expect(() => setControlPoint(rig0, name, 1, [...a])).toThrow(/would coincide with point 1/);
    let small = rig0;
    while (ctl(small).controlPoints.length > 3) small = removeControlPoint(small, name, 0);
    expect(n).toBeGreaterThanOrEqual(3);
    expect(() => removeControlPoint(small, name, 0)).toThrow(/at least 3 points/);
  });

  it('reads omitted pivot lead and stroke as the controller\'s own constants (one place for the defaults)', () => {
    const c = ctl(rig0);
    const { pivotLead: _p, minStroke: _m, ...bare } = c.steering;
    expect(gaitSetting({ ...c, steering: bare }, 'steering.pivotLead')).toBe(STEER_PIVOT_LEAD);
    expect(gaitSetting({ ...c, steering: bare }, 'steering.minStroke')).toBe(ARRIVE_MIN_STROKE);
    expect([STEER_PIVOT_LEAD, ARRIVE_MIN_STROKE]).toEqual([0.7, 0.5]);
  });

  it('returns refusals as results, never throws', () => {
    const r = edits.setControlPoint(rig0, name, 99, [0, 0, 0]);
    expect(r).toEqual({ ok: false, field: `${name} point 100`, message: `there are ${ctl(rig0).controlPoints.length} points.` });
    expect(edits.setSteeringTarget(rig0, name, [0, Number.NaN, 0])).toMatchObject({ ok: false, field: `${name} steering target` });
  });

  it('sets a chain motor through the checked motor edit', () => {
    const joint = ctl(rig0).chain[0]!;
    const d = setMotorNumber(rig0, joint, 'maxTorque', 12);
    const j = d.joints.find((x) => x.name === joint)!;
    expect(j.type !== 'fixed' && j.motor.maxTorque).toBe(12);
    expect(() => setMotorNumber(rig0, joint, 'maxTorque', -5)).toThrow(new RegExp(`${joint} τmax`));
  });
});

describe('righting numbers (inspector)', () => {
  const without: RigDocument = { ...rig0, controllers: rig0.controllers.map(({ righting: _, ...c }) => c) };
  it('the shipped mine rights itself with RIGHTING_DEFAULTS; a controller without a righting block reads as off (start π)', () => {
    expect(ctl(rig0).righting).toEqual(RIGHTING_DEFAULTS);
    expect(gaitSetting(ctl(without), 'righting.start')).toBe(Math.PI);
    expect(ctl(without).righting).toBeUndefined();
  });

  it('setting one number on a controller without them turns righting on with the defaults for the others', () => {
    expect(ctl(setGaitSetting(without, name, 'righting.follow', 0.3)).righting).toEqual({ ...RIGHTING_DEFAULTS, follow: 0.3 });
    expect(ctl(setGaitSetting(without, name, 'righting.start', 1.2)).righting).toEqual({ start: 1.2, full: 1.2, follow: RIGHTING_DEFAULTS.follow });
    const d = setGaitSetting(rig0, name, 'righting.full', 1.1);
    expect(ctl(d).righting).toEqual({ ...RIGHTING_DEFAULTS, full: 1.1 });
  });

  it('refuses numbers outside the schema and a full tilt below the start, naming the field', () => {
    expect(() => setGaitSetting(rig0, name, 'righting.follow', 1.5)).toThrow(`${name} righting.follow: must be ≤ 1, got 1.5.`);
    expect(() => setGaitSetting(rig0, name, 'righting.full', 0.2)).toThrow(/righting\.full: must be ≥ start \(0\.4 rad\), got 0\.2/);
  });
});
