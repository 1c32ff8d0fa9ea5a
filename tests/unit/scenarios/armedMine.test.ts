/**
 * Issue 5 "How it is checked": the Armed Mine crawls, steers, needs its torque, recovers from being blasted
 * into awkward poses and from a kick — run headless through the runtime (createSimulation + the cyclic-path
 * gait) on the shipped rig. The thresholds are the issue's; the rig is tuned to meet them, never the other
 * way round. The scenarios themselves are in scenarios.ts (report.ts prints the same figures); measured
 * figures are in docs/locomotion.md.
 */
import { describe, expect, it } from 'vitest';
import { ARRIVE_TARGETS, arrive, crawl, kick, recover, steer, weak } from './scenarios';
import { loadArmedMine } from './armedMineWorld';
import { RIGHTING_BLASTS, righting, UPRIGHT_ANGLE, WITHIN } from './righting';

const DEG = Math.PI / 180;

describe('Armed Mine crawls to a target 5 m ahead', () => {
  it('gets ≥ 2 m closer in 20 s, heading within 20°, hand on the floor ≥ 30 % of the time, joints within 5 mm, torque within limits — and holds its heading steady on the way', () => {
    const c = crawl();
    console.log(`crawl: ${c.progress.toFixed(2)} m closer, heading at 20 s ${(c.headingAt20 / DEG).toFixed(1)}°, contact ${(100 * c.contact).toFixed(0)} %\n  ${c.steadiness}`);
    expect(c.blowUp).toBe(false);
    expect(c.progress).toBeGreaterThanOrEqual(2);
    expect(Math.abs(c.headingAt20)).toBeLessThanOrEqual(20 * DEG);
    expect(c.contact).toBeGreaterThanOrEqual(0.3);
    expect(c.maxJointError).toBeLessThanOrEqual(0.005);
    expect(c.overLimit).toBeNull();
    // Steadiness (not in the issue; the weave a user saw in the preview). |heading error| every frame over
    // 5–20 s: with the proportional skew on the instantaneous heading RMS 15.5°, max 36.8°; with the
    // stroke-averaged heading + yaw-rate term 7.3°, 16.4° (docs/locomotion.md "Steering").
    expect(c.steadiness.samples).toBeGreaterThan(500); // most of the crawl is more than 1 m from the target
    expect(c.steadiness.rms).toBeLessThanOrEqual(10 * DEG);
    expect(c.steadiness.max).toBeLessThanOrEqual(25 * DEG);
  });
});

describe('Armed Mine steers toward a target 90° to the side', () => {
  it('turns its heading toward (5, 0, 0) within 10 s and is ≥ 1 m closer after 20 s', () => {
    const s = steer();
    console.log(`steer: turned at ${s.turnedAt.toFixed(2)} s, ${s.progress.toFixed(2)} m closer\n  ${s.steadiness}`);
    expect(s.turnedAt).toBeLessThanOrEqual(10);
    expect(s.progress).toBeGreaterThanOrEqual(1);
  });
});

describe('torque limits matter', () => {
  it('with every τmax at 10 % the mine makes < 0.3 m of progress in 20 s, and no motor ever reports more than its limit', () => {
    const w = weak();
    expect(w.progress).toBeLessThan(0.3);
    expect(w.overLimit).toBeNull();
    expect(w.saturatedShare).toBeGreaterThan(0.5); // the weak motors are pinned at their limit, not idle
  });
});

describe('recovers from being blasted into awkward poses (no recovery code: the same gait)', () => {
  it('in ≥ 7 of 10 seeded poses (one with the arm pinned under the body) it gets ≥ 0.5 m closer to the target within 15 s of the blast', () => {
    const r = recover();
    console.log(`recover: ${r.recovered}/10\n  ${r.lines.join('\n  ')}`);
    expect(r.recovered).toBeGreaterThanOrEqual(7);
  });
});

describe('rights itself after being tipped over (issue 11: the seed\'s headline, the same gait with its righting fields)', () => {
  it(`upright again (rest up-axis within 37° of vertical, held 1 s) within 6 s in ≥ 80 % of ${RIGHTING_BLASTS} blasts that tip it over`, () => {
    const r = righting();
    const lines = r.cases.map((c) => `${c.seed} ${c.on} at ${c.at.toFixed(2)} s: tilt ${(Math.acos(Math.max(-1, c.minUp)) * 180 / Math.PI).toFixed(0)}°, ${c.tipped ? (Number.isFinite(c.rightedAfter) ? `upright after ${c.rightedAfter.toFixed(2)} s` : 'NOT upright') : 'not tipped'}`);
    console.log(`righting: ${r.righted}/${r.tipped} tipped cases upright within ${WITHIN} s (${(100 * r.fraction).toFixed(0)} %), median ${r.medianTime.toFixed(2)} s\n  ${lines.join('\n  ')}`);
    expect(r.cases.length).toBe(RIGHTING_BLASTS);
    expect(r.tipped).toBeGreaterThanOrEqual(24); // the blasts do tip it: the fraction is over real falls
    for (const c of r.cases) expect(c.blowUp, `case ${c.seed}`).toBe(false);
    expect(r.fraction).toBeGreaterThanOrEqual(0.8);
    expect(UPRIGHT_ANGLE).toBeCloseTo(37 * Math.PI / 180, 12);
  });

  it('without its righting fields the same blasts leave it on its side far more often (the fields are what does it)', () => {
    const rig = loadArmedMine();
    const without = righting({ ...rig, controllers: rig.controllers.map(({ righting: _, ...c }) => c) });
    const withIt = righting(rig);
    console.log(`righting off: ${without.righted}/${without.tipped}; on: ${withIt.righted}/${withIt.tipped}`);
    expect(withIt.fraction - without.fraction).toBeGreaterThanOrEqual(0.2);
  });
});

describe('resumes after a kick', () => {
  it('knocked sideways mid-crawl, it is making progress toward the target again within 5 s', () => {
    const k = kick();
    expect(k.blowUp).toBe(false);
    expect(k.resumedAt).toBeLessThanOrEqual(5);
  });
});

describe('arrives at the target, stays, and starts again when it moves (not in the issue: docs/locomotion.md "Arrival")', () => {
  it('slows inside 1.5 m, stops within 0.5 m of (0, 0, 5), holds still 6 s with the hand off the floor, and crawls ≥ 1 m toward the target moved 3 m on', () => {
    const stopRadius = loadArmedMine().controllers[0]!.steering.stopRadius!;
    const a = arrive();
    console.log(`arrive: at ${a.arrivedAt.toFixed(2)} s, ${a.arrivedDistance.toFixed(2)} m; hold max ${a.holdMaxDistance.toFixed(2)} m, ` +
      `last 3 s mean ${(a.holdMeanSpeed * 1000).toFixed(1)} mm/s; restart ${a.restartProgress.toFixed(2)} m (1 m at ${a.restartAt1m.toFixed(2)} s)`);
    expect(a.blowUp).toBe(false);
    expect(a.arrivedAt).toBeLessThanOrEqual(30);
    // Arrival is declared at d ≤ stopRadius; 5 cm of margin for the step it is declared in.
    expect(a.arrivedDistance).toBeLessThanOrEqual(stopRadius + 0.05);
    // The stop takes one gait cycle to fold the arm; it may coast a little: stays within stopRadius + 0.25 m.
    expect(a.holdMaxDistance).toBeLessThanOrEqual(stopRadius + 0.25);
    expect(a.holdRestarted).toBe(false);
    // At rest: root speed averaged over the last 3 s of the hold below 5 mm/s (measured 0.5 mm/s; crawling is ≈ 270 mm/s).
    expect(a.holdMeanSpeed).toBeLessThanOrEqual(0.005);
    expect(a.holdContact).toBeLessThanOrEqual(0.05); // the hand is held off the floor
    expect(a.maxJointError).toBeLessThanOrEqual(0.005);
    expect(a.overLimit).toBeNull();
    expect(a.restartProgress).toBeGreaterThanOrEqual(1);
  });
});

describe('arrives and settles from eight directions (docs/locomotion.md "Arrival")', () => {
  it('in ≥ 6 of 8 approaches it holds within stopRadius + 0.25 m at < 5 mm/s with the hand off the floor (≤ 5 %), and every one restarts', () => {
    const stopRadius = loadArmedMine().controllers[0]!.steering.stopRadius!;
    let settled = 0;
    for (const target of ARRIVE_TARGETS) {
      const a = arrive(undefined, { target, approach: 60 });
      const ok = a.holdMaxDistance <= stopRadius + 0.25 && a.holdMeanSpeed <= 0.005 && a.holdContact <= 0.05 && !a.holdRestarted;
      console.log(`(${target.join(', ')}): arrived ${a.arrivedAt.toFixed(1)} s, hold ${(a.holdMeanSpeed * 1000).toFixed(1)} mm/s, hand ${(100 * a.holdContact).toFixed(0)} %, ` +
        `restart ${a.restartProgress.toFixed(2)} m${ok ? '' : ' — NOT SETTLED'}`);
      expect(a.blowUp).toBe(false);
      expect(a.arrivedAt).toBeLessThanOrEqual(60);
      expect(a.arrivedDistance).toBeLessThanOrEqual(stopRadius + 0.05);
      expect(a.restartProgress).toBeGreaterThanOrEqual(1);
      if (ok) settled++;
    }
    // Stopping mid-stroke: 5/8 (three tipped ≈ 54° onto the folded hand, 13 mm/s, hand down 86–96 %); the
    // stop declared as the hand lifts: 7/8 at 0.5 mm/s. One of margin: the approaches are chaotic.
    expect(settled).toBeGreaterThanOrEqual(6);
  });
});
