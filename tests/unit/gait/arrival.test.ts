import { describe, expect, it } from 'vitest';
import { Arrival, LIFT_WINDOW, smoothstep, type ArrivalParams } from '../../../shared/gait/arrival';
import { CyclicPath } from '../../../shared/gait/cyclicPath';
import { LIFT_RISE, pathLiftPhase } from '../../../shared/gait/controller';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { cyclicPathControllerSchema } from '../../../shared/rig/schema';
import { loadArmedMine, mineSimulation } from '../scenarios/armedMineWorld';

const DT = 1 / 60, RATE = 0.7;
const P: ArrivalParams = { arriveRadius: 1.5, stopRadius: 0.5, restartRadius: 1, minStroke: 0.5 };

/** Run the law at a fixed distance until its ramps settle (two gait cycles). */
const settle = (a: Arrival, d: number) => { let r = a.step(d, RATE, DT); for (let i = 0; i < 2 / RATE / DT; i++) r = a.step(d, RATE, DT); return r; };

describe('arrival law', () => {
  it('is the full gait, exactly, beyond the arrive radius', () => {
    const a = new Arrival(P);
    for (const d of [1.5, 2, 40, Infinity]) expect(settle(a, d)).toEqual({ stroke: 1, engage: 1 });
  });

  it('shrinks the stroke smoothly across the slow zone to minStroke at the stop radius', () => {
    for (const d of [0.6, 0.9, 1.2, 1.4]) {
      const r = settle(new Arrival(P), d);
      expect(r.stroke).toBeCloseTo(0.5 + 0.5 * smoothstep((d - 0.5) / 1), 12);
      expect(r.engage).toBe(1);
    }
  });

  it('stops at the stop radius, holds through the hysteresis band, restarts only beyond restartRadius', () => {
    const a = new Arrival(P);
    settle(a, 0.55);
    expect(a.arrived).toBe(false);
    expect(settle(a, 0.5)).toEqual({ stroke: 0.5, engage: 0 });
    expect(a.arrived).toBe(true);
    expect(settle(a, 0.95).engage).toBe(0); // drifted or target nudged inside restartRadius: still stopped
    expect(a.arrived).toBe(true);
    settle(a, 1.01);
    expect(a.arrived).toBe(false);
    expect(settle(new Arrival(P), 3)).toEqual({ stroke: 1, engage: 1 });
  });

  it('never changes stroke or engage by more than |rate|·dt per step (a start or stop takes one cycle)', () => {
    const a = new Arrival(P);
    let prev = a.step(0.3, RATE, DT); // target reached at once
    let steps = 1;
    for (; prev.engage > 0; steps++) {
      const r = a.step(0.3, RATE, DT);
      expect(Math.abs(r.engage - prev.engage)).toBeLessThanOrEqual(RATE * DT + 1e-15);
      expect(Math.abs(r.stroke - prev.stroke)).toBeLessThanOrEqual(RATE * DT + 1e-15);
      prev = r;
    }
    expect(steps).toBe(Math.ceil(1 / (RATE * DT)));
    const b = a.step(5, RATE, DT); // target jumps away: ramps back in
    expect(b.engage).toBeCloseTo(RATE * DT, 12);
  });

  it('with liftPhase, declares the stop only in the window just after the hand leaves the floor (a stroke is never cut)', () => {
    const a = new Arrival({ ...P, liftPhase: 0.36 });
    // Inside the stop radius but mid-stroke (phase 0.1 … 0.35) and in the swing after the window: keeps going.
    for (const phase of [0.1, 0.2, 0.35, 0.36 + LIFT_WINDOW + 0.01, 0.9, 0.99]) {
      expect(a.step(0.3, RATE, DT, phase).engage).toBe(1);
      expect(a.arrived).toBe(false);
    }
    a.step(0.3, RATE, DT, 0.37);
    expect(a.arrived).toBe(true);
    // The window wraps round the cycle: a lift phase of 0.95 accepts 0.01.
    const b = new Arrival({ ...P, liftPhase: 0.95 });
    b.step(0.3, RATE, DT, 0.01);
    expect(b.arrived).toBe(true);
    // Restart does not wait for the lift.
    a.step(1.2, RATE, DT, 0.1);
    expect(a.arrived).toBe(false);
  });

  it('finds the lift phase of a path: the first phase after its lowest point LIFT_RISE of its height above it', () => {
    // A loop whose floor stroke runs at y = −0.4 and that climbs to 0 after it.
    const path = new CyclicPath([[0, -0.2, 1], [0, -0.4, 0.9], [0, -0.4, 0.5], [0, -0.2, 0.45], [0, 0, 0.7]], 'centripetal-catmull-rom');
    const ys = path.polyline(256).map((p) => p[1]);
    const low = Math.min(...ys), rise = LIFT_RISE * (Math.max(...ys) - low);
    const lift = pathLiftPhase(path);
    expect(path.sample(lift).point[1]).toBeGreaterThanOrEqual(low + rise);
    expect(path.sample(lift - 1 / 256).point[1]).toBeLessThan(low + rise);
    // Every sample from the lowest point up to the lift is still below the threshold: it is the FIRST rise.
    const lowAt = ys.indexOf(low), liftAt = Math.round(lift * 256);
    expect(liftAt).toBeGreaterThan(lowAt);
    for (let i = lowAt; i < liftAt; i++) expect(ys[i]).toBeLessThan(low + rise);
    const c = loadArmedMine().controllers[0]!;
    expect(pathLiftPhase(new CyclicPath(c.controlPoints, c.interpolation))).toBeCloseTo(0.355, 2);
  });

  it('snapshot/restore reproduces the future exactly', () => {
    const a = new Arrival(P);
    for (let i = 0; i < 50; i++) a.step(2 - i * 0.03, RATE, DT);
    const saved = a.snapshot();
    const next = [0.7, 0.45, 0.4, 1.2].map((d) => a.step(d, RATE, DT));
    const b = new Arrival(P);
    b.restore(saved);
    expect([0.7, 0.45, 0.4, 1.2].map((d) => b.step(d, RATE, DT))).toEqual(next);
  });
});

describe('arrival in the rig format', () => {
  const steeringOf = (rig: RigDocument) => rig.controllers[0]!.steering;
  const withoutArrival = (rig: RigDocument): RigDocument => ({
    ...rig,
    controllers: rig.controllers.map((c) => {
      const { stopRadius: _s, arriveRadius: _a, restartRadius: _r, minStroke: _m, restPoint: _p, ...steering } = c.steering;
      return { ...c, steering };
    }),
  });

  it('old files (no arrival fields) stay valid and crawl bit for bit as the gait with arrival that never acts', () => {
    const shipped = loadArmedMine();
    expect(steeringOf(shipped).stopRadius).toBe(0.5);
    const old = loadRig(JSON.parse(JSON.stringify(withoutArrival(shipped))), { source: 'old.rig.json' });
    expect(steeringOf(old).stopRadius).toBeUndefined();
    // Target 50 m away: arrival on but the mine stays outside arriveRadius, so stroke and engage are
    // exactly 1 and the controller must draw the plain path.
    const a = mineSimulation(old), b = mineSimulation(shipped);
    a.sim.setTarget([0, 0, 50]); b.sim.setTarget([0, 0, 50]);
    for (let i = 0; i < 240; i++) {
      a.sim.step(); b.sim.step();
      expect(b.sim.bodyPose('hand').position).toEqual(a.sim.bodyPose('hand').position);
    }
    expect(b.gait.controller.lastFrame!.stroke).toBe(1);
    expect(a.gait.controller.lastFrame!.arrived).toBe(false);
    // ... and without arrival the mine does not stop at a target under it (it circles round it).
    a.sim.setTarget(a.sim.bodyPose('body').position);
    for (let i = 0; i < 120; i++) a.sim.step();
    expect(a.gait.controller.lastFrame!.engage).toBe(1);
  });

  it('refuses radii in the wrong order and a stroke outside 0..1, naming the field', () => {
    const c = loadArmedMine().controllers[0]!;
    const bad = (steering: Record<string, unknown>) => cyclicPathControllerSchema.safeParse({ ...c, steering: { ...c.steering, ...steering } });
    const r1 = bad({ arriveRadius: 0.3 });
    expect(r1.success).toBe(false);
    expect(r1.error!.issues[0]!.path).toEqual(['steering', 'arriveRadius']);
    expect(r1.error!.issues[0]!.message).toMatch(/≥ stopRadius \(0.5 m\)/);
    expect(bad({ restartRadius: 0.2 }).error!.issues[0]!.path).toEqual(['steering', 'restartRadius']);
    expect(bad({ minStroke: 1.5 }).success).toBe(false);
    expect(bad({ stopRadius: 0, arriveRadius: 0.1, restartRadius: 0 }).success).toBe(true); // arrival off: radii unchecked
  });
});
