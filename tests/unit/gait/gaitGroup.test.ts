/**
 * Multi-limb gait groups (shared/gait/gaitGroup.ts): the turn's path remap, one law decision per step, no
 * group for a single limb (the Armed Mine), and snapshot/restore of a group reproducing the future bit for bit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GaitGroup } from '../../../shared/gait/gaitGroup';
import { turnPoint, type PathTurn } from '../../../shared/gait/steering';
import { cyclicPathControllerFactory, type CyclicPathInstance } from '../../../shared/gait/register';
import { createSimulation } from '../../../shared/runtime/simulation';
import { loadRig, type RigDocument } from '../../../shared/rig';

const load = (file: string): RigDocument => loadRig(JSON.parse(readFileSync(new URL(`../../../assets/creatures/${file}`, import.meta.url), 'utf8')), { source: file });

function simulate(rig: RigDocument) {
  const limbs: CyclicPathInstance[] = [];
  const sim = createSimulation(rig, { controllers: { cyclicPath: (c, ctx) => { const i = cyclicPathControllerFactory(c, ctx) as CyclicPathInstance; limbs.push(i); return i; } } });
  return { sim, limbs };
}

describe('turnPoint', () => {
  // A left foot stroking along Z at x = 0.5: travel +Z, stroke centre (0.5, 0, 0); R̄ = 0.5 → tangent (0, 0, −1).
  const base: Omit<PathTurn, 'a'> = { centre: [0.5, 0, 0], travel: [0, 0, 1], tangent: [0, 0, -1] };
  it('a = 0 leaves the path as drawn', () => {
    expect(turnPoint({ ...base, a: 0 }, [0.5, -0.1, 0.09])).toEqual([0.5, -0.1, 0.09]);
  });
  it('a = ±1 runs the stroke along ± the tangent; heights and the sideways part stay', () => {
    const p = turnPoint({ ...base, a: 1 }, [0.55, -0.1, 0.09]);
    expect(p[0]).toBeCloseTo(0.55, 12); expect(p[1]).toBe(-0.1); expect(p[2]).toBeCloseTo(-0.09, 12);
    expect(turnPoint({ ...base, a: -1 }, [0.5, 0, 0.09])[2]).toBeCloseTo(0.09, 12);
  });
  it('a = ½ halves the stroke along travel and adds half of the tangent stroke', () => {
    const side: PathTurn = { a: 0.5, centre: [0.5, 0, 0], travel: [0, 0, 1], tangent: [0.4, 0, -1] };
    const p = turnPoint(side, [0.5, 0, 0.1]);
    expect(p[0]).toBeCloseTo(0.5 + 0.1 * 0.5 * 0.4, 12); expect(p[2]).toBeCloseTo(0.1 * (0.5 - 0.5), 12);
  });
});

describe('GaitGroup', () => {
  it('steps its law once per step: the first member to ask decides, a member asking again starts the next step', () => {
    const g = new GaitGroup({ gain: 1, maxAngle: 1, window: 0, rateGain: 0 }, [[0, 0, 1], [0, 0, 1]], [[0.5, 0, 0], [-0.5, 0, 0]], ['a', 'b']);
    const d1 = g.decide(0, [0, 0, 0], 0, 0, [1, 0, 1], 1, 0.01);
    expect(d1.skew).toBeCloseTo(Math.PI / 4, 12);
    // Member 1 in the same step gets the same decision even from another heading.
    expect(g.decide(1, [0, 0, 0], 0.3, 0, [1, 0, 1], 1, 0.01)).toBe(d1);
    // Member 0 again: a new step, decided afresh from what it passes.
    expect(g.decide(0, [0, 0, 0], 0.3, 0, [1, 0, 1], 1, 0.01).skew).toBeCloseTo(Math.PI / 4 - 0.3, 12);
    expect(g.tangentAt([0.5, 0, 0])).toEqual([0, 0, -1]);
    expect(g.turn({ skew: Math.PI, heading: 0 }, [0.5, 0, 0], [0, 0, 1]).a).toBe(1);
  });

  it('a single limb on a root forms no group (the Armed Mine steers by its skew, as before)', () => {
    const { sim, limbs } = simulate(load('armed-mine.rig.json'));
    sim.setTarget([2, 0, 3]);
    for (let i = 0; i < 30; i++) sim.step();
    expect(limbs).toHaveLength(1);
    expect(limbs[0]!.controller.lastFrame!.frame.turn).toBeUndefined();
    expect(limbs[0]!.controller.lastFrame!.frame.skew).not.toBe(0);
  });

  it('the Hexapod\'s six limbs are one group; restore(snapshot()) reproduces the future bit for bit', () => {
    const { sim, limbs } = simulate(load('hexapod.rig.json'));
    sim.setTarget([3, 0, 2]);
    for (let i = 0; i < 90; i++) sim.step();
    const snap = sim.snapshot();
    const future: number[] = [];
    for (let i = 0; i < 60; i++) { sim.step(); future.push(...sim.bodyPose('body').position, limbs[3]!.controller.lastFrame!.frame.turn!.a); }
    sim.restore(snap);
    const again: number[] = [];
    for (let i = 0; i < 60; i++) { sim.step(); again.push(...sim.bodyPose('body').position, limbs[3]!.controller.lastFrame!.frame.turn!.a); }
    expect(again).toEqual(future);
    expect(limbs.every((l) => l.controller.lastFrame!.frame.skew === 0)).toBe(true);
  });

  it('one Arrival for the group: stepped once per step by the first member to ask, the others get the same stroke and engage', () => {
    const g = new GaitGroup({ gain: 1, maxAngle: 1, window: 0, rateGain: 0 }, [[0, 0, 1], [0, 0, 1]], [[0.5, 0, 0], [-0.5, 0, 0]], ['a', 'b'],
      { stopRadius: 0.5, arriveRadius: 1, restartRadius: 1, minStroke: 0.5 });
    expect(g.hasArrival).toBe(true);
    // 0.75 m: halfway through the slow zone → stroke goal 0.75; one step at rate 1, dt 0.1 moves it by 0.1.
    const d = g.arrive(0, 0.75, 1, 0.1);
    expect(d.stroke).toBeCloseTo(0.9, 12);
    expect(g.arrive(1, 0.2, 1, 0.1)).toBe(d); // same step: member 1's distance is not read
    expect(g.arrived).toBe(false);
    const inside = g.arrive(0, 0.2, 1, 0.1); // member 0 again: a new step, inside the stop radius (no lift gate)
    expect(g.arrived).toBe(true);
    expect(inside.engage).toBeCloseTo(0.9, 12);
    const saved = g.arrivalState()!;
    g.arrive(1, 2, 1, 0.1); g.arrive(1, 2, 1, 0.1); // beyond restartRadius: moving again
    expect(g.arrived).toBe(false);
    g.restoreArrival(saved);
    expect(g.arrived).toBe(true);
    expect(g.arrivalState()).toEqual(saved);
    expect(new GaitGroup({ gain: 1, maxAngle: 1, window: 0, rateGain: 0 }, [[0, 0, 1]], [[0.5, 0, 0]], ['a']).hasArrival).toBe(false);
  });

  it('the Hexapod arrives as one group: every limb stops on the same step, rests at the top of its loop, and restore(snapshot()) mid-stop reproduces the future', () => {
    const { sim, limbs } = simulate(load('hexapod.rig.json'));
    sim.setTarget([0, 0, 0.3]); // inside the stop radius from the start
    let first = -1;
    for (let i = 1; i <= 30 && first < 0; i++) { sim.step(); if (limbs[0]!.controller.lastFrame!.arrived) first = i; }
    expect(first).toBe(1);
    for (const l of limbs) {
      expect(l.controller.lastFrame!.arrived).toBe(true);
      const top = Math.max(...l.controller.path.polyline(128).map((p) => p[1]));
      expect(l.controller.restPoint[1]).toBe(top);
      expect(l.controller.restPoint[0]).toBe(l.controller.strokeCentre[0]);
    }
    for (let i = 0; i < 20; i++) sim.step();
    const snap = sim.snapshot();
    const future: number[] = [];
    for (let i = 0; i < 60; i++) { sim.step(); future.push(...sim.bodyPose('body').position, limbs[2]!.controller.lastFrame!.engage); }
    sim.restore(snap);
    const again: number[] = [];
    for (let i = 0; i < 60; i++) { sim.step(); again.push(...sim.bodyPose('body').position, limbs[2]!.controller.lastFrame!.engage); }
    expect(again).toEqual(future);
    expect(future[future.length - 1]).toBe(0);
  });
});
