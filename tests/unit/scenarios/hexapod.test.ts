/**
 * Issue 15 item 1, the multi-limb gait on the shipped Hexapod (assets/creatures/hexapod.rig.json: six legs,
 * one cyclicPath controller each, tripod phases, one shared steering law — shared/gait/gaitGroup.ts), run
 * headless through the runtime: it crawls toward a target 8 m ahead (≥ 3 m in 30 s, never over a torque
 * limit), turns toward a target at either side, its feet keep the tripod's alternation, and the gait
 * diagram read from a preview recording's contacts agrees with the world's own foot contacts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadRig, serializeRig, type RigDocument } from '../../../shared/rig';
import { createSimulation, type Simulation } from '../../../shared/runtime/simulation';
import { cyclicPathControllerFactory, type CyclicPathInstance } from '../../../shared/gait/register';
import { headingYaw, signedYawBetween, yawDirection } from '../../../shared/gait/steering';
import { gaitLanes } from '../../../shared/gait/gaitDiagram';
import { PreviewEngine } from '../../../shared/preview/engine';
import { hexapodBones, hexapodRig } from '../../../assets/scripts/hexapod-rig';
import type { ReadonlyVec3 } from '../../../shared/math/vec3';

const RIG_PATH = fileURLToPath(new URL('../../../assets/creatures/hexapod.rig.json', import.meta.url));
const GLB_PATH = fileURLToPath(new URL('../../../assets/creatures/hexapod.glb', import.meta.url));
const loadHexapod = (): RigDocument => loadRig(JSON.parse(readFileSync(RIG_PATH, 'utf8')), { source: RIG_PATH });
const DEG = 180 / Math.PI;

interface Hexapod { sim: Simulation; limbs: CyclicPathInstance[] }

function hexapodSimulation(rig: RigDocument = loadHexapod()): Hexapod {
  const limbs: CyclicPathInstance[] = [];
  const sim = createSimulation(rig, {
    controllers: { cyclicPath: (config, ctx) => { const i = cyclicPathControllerFactory(config, ctx) as CyclicPathInstance; limbs.push(i); return i; } },
  });
  return { sim, limbs };
}

const distanceTo = (h: Hexapod, p: ReadonlyVec3) => { const b = h.sim.bodyPose('body').position; return Math.hypot(p[0] - b[0], p[2] - b[2]); };
const headingError = (h: Hexapod, p: ReadonlyVec3) => {
  const pose = h.sim.bodyPose('body');
  return signedYawBetween(yawDirection(headingYaw(pose.rotation)), [p[0] - pose.position[0], 0, p[2] - pose.position[2]]);
};
/** The motors over their limit this step, if any. */
const overLimit = (h: Hexapod): string | null => {
  for (const [name, j] of Object.entries(h.sim.frame().joints)) if (j.torque > j.maxTorque * (1 + 1e-9) + 1e-9) return `${name}: ${j.torque} > ${j.maxTorque} N·m`;
  return null;
};
const footDown = (h: Hexapod, body: string) => {
  const b = h.sim.bodyHandle(body);
  return h.sim.world.getContacts().some((c) => (c.bodyA === b && c.bodyB === null) || (c.bodyB === b && c.bodyA === null));
};

/** Run to `seconds` toward `target`; the torque check every step. */
function run(h: Hexapod, target: ReadonlyVec3, seconds: number, each?: (step: number) => void): { over: string | null } {
  h.sim.setTarget(target);
  let over: string | null = null;
  const n = Math.round(seconds / h.sim.dt);
  for (let i = 1; i <= n; i++) { h.sim.step(); over ??= overLimit(h); each?.(i); }
  return { over };
}

describe('the Hexapod (six legs, one steering law)', () => {
  it('the committed rig is what assets/scripts/hexapod-rig.ts makes of hexapod.glb', () => {
    const bones = hexapodBones({ name: 'hexapod.glb', bytes: new Uint8Array(readFileSync(GLB_PATH)) });
    expect(serializeRig(hexapodRig(bones))).toBe(readFileSync(RIG_PATH, 'utf8'));
  });

  it('has six limbs on one root with tripod phases (L1 R2 L3 at 0, R1 L2 R3 at ½), all at one rate', () => {
    const rig = loadHexapod();
    const phase = Object.fromEntries(rig.controllers.map((c) => [c.name, c.type === 'cyclicPath' ? c.phaseOffset : NaN]));
    expect(phase).toEqual({ leg_l1: 0, leg_r2: 0, leg_l3: 0, leg_r1: 0.5, leg_l2: 0.5, leg_r3: 0.5 });
    expect(new Set(rig.controllers.map((c) => (c.type === 'cyclicPath' ? `${c.root}@${c.rate}` : '')))).toEqual(new Set(['body@0.9']));
  });

  it('crawls ≥ 3 m toward a target 8 m ahead in 30 s, never over a torque limit', () => {
    const h = hexapodSimulation();
    const target: ReadonlyVec3 = [0, 0, 8];
    const d0 = distanceTo(h, target);
    let within1 = Infinity, at10 = 0;
    const { over } = run(h, target, 30, (i) => {
      const d = distanceTo(h, target);
      if (within1 === Infinity && d < 1) within1 = i * h.sim.dt;
      if (i === Math.round(10 / h.sim.dt)) at10 = d0 - d;
    });
    const progress = d0 - distanceTo(h, target);
    console.log(`hexapod crawl: ${progress.toFixed(2)} m toward the target in 30 s, ${at10.toFixed(2)} m in the first 10 s (${(at10 / 10 * 1000).toFixed(0)} mm/s), within 1 m of it from ${within1.toFixed(1)} s (then it slows and stops: arrival)`);
    expect(over).toBeNull();
    expect(h.sim.blowUp).toBeNull();
    expect(progress).toBeGreaterThanOrEqual(3);
  }, 60_000);

  for (const side of [1, -1]) {
    it(`turns toward a target 8 m to its ${side > 0 ? 'left (+X)' : 'right (−X)'}: heading error 90° → under 30° within 15 s, held to a mean under 45° (half the start) over 8–15 s, and closes in`, () => {
      const h = hexapodSimulation();
      const target: ReadonlyVec3 = [8 * side, 0, 0];
      const e0 = headingError(h, target), d0 = distanceTo(h, target);
      let firstUnder = Infinity, sum = 0, sq = 0, n = 0, worst = 0;
      const { over } = run(h, target, 15, (i) => {
        const e = headingError(h, target);
        if (firstUnder === Infinity && Math.abs(e) < 30 / DEG) firstUnder = i * h.sim.dt;
        if (i * h.sim.dt >= 8) { sum += Math.abs(e); sq += e * e; n++; worst = Math.max(worst, Math.abs(e)); }
      });
      const d1 = distanceTo(h, target), mean = sum / n;
      console.log(`hexapod turn ${side > 0 ? 'left' : 'right'}: heading error ${(e0 * DEG).toFixed(0)}° → under 30° from ${firstUnder.toFixed(1)} s; over 8–15 s mean |error| ${(mean * DEG).toFixed(1)}°, RMS ${(Math.sqrt(sq / n) * DEG).toFixed(1)}°, max ${(worst * DEG).toFixed(0)}°; distance ${d0.toFixed(2)} → ${d1.toFixed(2)} m`);
      expect(Math.abs(e0 * DEG - 90 * side)).toBeLessThan(1);
      expect(firstUnder).toBeLessThan(15);
      // The crawl weaves (RMS 30–33° on this rig): the mean over 7 s says it stays turned toward the target.
      expect(mean).toBeLessThan(45 / DEG);
      expect(d0 - d1).toBeGreaterThan(1);
      expect(over).toBeNull();
    }, 60_000);
  }

  it('arrives: toward a target 3 m ahead it stops within its stop radius, sits down, and its root then moves < 0.1 m in 5 s; it restarts when the target moves 3 m on', () => {
    const h = hexapodSimulation();
    const lead = h.limbs[0]!.controller;
    const stopRadius = lead.params.steering.stopRadius!;
    expect(stopRadius).toBe(0.5);
    const target: ReadonlyVec3 = [0, 0, 3];
    h.sim.setTarget(target);
    const horizontal = (a: ReadonlyVec3, b: ReadonlyVec3) => Math.hypot(a[0] - b[0], a[2] - b[2]);
    let arrivedAt = -1, arrivedDistance = NaN, over: string | null = null;
    for (let i = 1; i <= Math.round(30 / h.sim.dt) && arrivedAt < 0; i++) {
      h.sim.step(); over ??= overLimit(h);
      if (lead.lastFrame!.arrived) { arrivedAt = i * h.sim.dt; arrivedDistance = distanceTo(h, target); }
    }
    expect(arrivedAt).toBeGreaterThan(0);
    // Every limb stops together (one Arrival for the group).
    for (const l of h.limbs) expect(l.controller.lastFrame!.arrived).toBe(true);
    const p0 = h.sim.bodyPose('body').position, atStop: ReadonlyVec3 = [p0[0], p0[1], p0[2]];
    let fromStop = 0, stoodAt = -1, fromStand = 0, stood: ReadonlyVec3 = atStop;
    for (let i = 1; i <= Math.round(8 / h.sim.dt); i++) {
      h.sim.step(); over ??= overLimit(h);
      const p = h.sim.bodyPose('body').position, t = i * h.sim.dt;
      if (t <= 5) fromStop = Math.max(fromStop, horizontal(p, atStop));
      if (stoodAt < 0 && h.limbs.every((l) => l.controller.lastFrame!.engage === 0)) { stoodAt = t; stood = [p[0], p[1], p[2]]; }
      if (stoodAt >= 0 && t <= stoodAt + 5) fromStand = Math.max(fromStand, horizontal(p, stood));
    }
    const held = distanceTo(h, target);
    // The target 3 m further on: it gets up and crawls again.
    const moved: ReadonlyVec3 = [0, 0, 6];
    const before = distanceTo(h, moved);
    run(h, moved, 10);
    const restart = before - distanceTo(h, moved);
    console.log(`hexapod arrive (0, 0, 3): stopped at ${arrivedAt.toFixed(2)} s, ${arrivedDistance.toFixed(3)} m from the target (stop radius ${stopRadius} m); the root moved at most ${fromStop.toFixed(3)} m in the 5 s after the stop, ${fromStand.toFixed(3)} m in the 5 s after the feet were up (${stoodAt.toFixed(2)} s after the stop); ${held.toFixed(3)} m from the target 8 s after the stop; restart: ${restart.toFixed(2)} m toward (0, 0, 6) in 10 s`);
    expect(arrivedDistance).toBeLessThanOrEqual(stopRadius);
    expect(fromStop).toBeLessThan(0.1);
    expect(fromStand).toBeLessThan(0.02);
    expect(held).toBeLessThan(stopRadius + 0.1);
    expect(restart).toBeGreaterThan(1);
    expect(over).toBeNull();
    expect(h.sim.blowUp).toBeNull();
  }, 60_000);

  it('one steering law for the six legs: every limb turns by the same amount each step; the stroke sides differ', () => {
    const h = hexapodSimulation();
    let turning = 0;
    run(h, [4, 0, 0], 3, () => {
      const turns = h.limbs.map((l) => l.controller.lastFrame!.frame.turn!);
      for (const t of turns) expect(t.a).toBe(turns[0]!.a);
      if (turns[0]!.a !== 0) turning++;
      // A turn on the spot strokes the left feet (+X) and the right feet (−X) in opposite directions along Z.
      expect(Math.sign(turns[0]!.tangent[2])).toBe(-Math.sign(turns[1]!.tangent[2]));
    });
    expect(turning).toBe(Math.round(3 / h.sim.dt));
  });

  it('the tripods alternate: L1, R2, L3 are on the floor together, and mostly not with R1, L2, R3', () => {
    const h = hexapodSimulation();
    const feet = ['shin_l1', 'shin_r2', 'shin_l3', 'shin_r1', 'shin_l2', 'shin_r3'];
    let same = 0, opposite = 0, steps = 0;
    const a = [0, 0], both = [0];
    run(h, [0, 0, 8], 10, (i) => {
      if (i * h.sim.dt < 2) return; // past the start
      const down = feet.map((f) => footDown(h, f));
      const A = down.slice(0, 3).filter(Boolean).length, B = down.slice(3).filter(Boolean).length;
      a[0] += A; a[1] += B; steps++;
      if (A >= 2 && B >= 2) both[0]++;
      if (down[0] === down[1]) same++;
      if (down[0] === down[3]) opposite++;
    });
    console.log(`hexapod tripods: mean feet down ${(a[0] / steps).toFixed(2)} + ${(a[1] / steps).toFixed(2)}, both tripods ≥ 2 feet down ${(100 * both[0]! / steps).toFixed(0)} % of steps, L1 with R2 ${(100 * same / steps).toFixed(0)} %, L1 with R1 ${(100 * opposite / steps).toFixed(0)} %`);
    expect(same / steps).toBeGreaterThan(0.6);
    expect(same / steps).toBeGreaterThan(opposite / steps + 0.15);
  }, 60_000);

  it('the gait diagram from a preview recording\'s contacts matches the world\'s foot contacts frame by frame', () => {
    const e = new PreviewEngine(loadHexapod());
    const N = 360;
    const exact: boolean[][] = [[]];
    const feet = e.rig.controllers.map((c) => (c.type === 'cyclicPath' ? c.effector.body : ''));
    exact[0] = feet.map(() => false); // frame 0: no contacts recorded
    let maxContacts = 0;
    for (let f = 1; f <= N; f++) {
      e.advance(1);
      const cs = e.sim.world.getContacts();
      maxContacts = Math.max(maxContacts, cs.length);
      exact.push(feet.map((b) => { const h = e.sim.bodyHandle(b); return cs.some((c) => (c.bodyA === h && c.bodyB === null) || (c.bodyB === h && c.bodyA === null)); }));
    }
    const { frames, aux } = e.slice(0, N + 1);
    const lanes = gaitLanes({ rig: e.rig, bodies: e.sim.bodyNames, frames, frameSize: e.frameSize, aux, auxSize: e.aux.size, contactsOffset: e.aux.contacts, count: N + 1 });
    expect(lanes.map((l) => l.name)).toEqual(['leg_l1', 'leg_r1', 'leg_l2', 'leg_r2', 'leg_l3', 'leg_r3']);
    let agree = 0;
    lanes.forEach((l, k) => { for (let f = 0; f <= N; f++) if ((l.stance[f] === 1) === exact[f]![k]) agree++; });
    const fraction = agree / (lanes.length * (N + 1));
    console.log(`gait diagram: ${(100 * fraction).toFixed(1)} % of lane-frames agree with the world's contacts (at most ${maxContacts} contacts a frame, ${e.aux.size} aux numbers), duty ${lanes.map((l) => l.duty.toFixed(2)).join(' ')}`);
    expect(fraction).toBeGreaterThan(0.97);
    for (const l of lanes) { expect(l.duty).toBeGreaterThan(0.3); expect(l.duty).toBeLessThan(0.95); }
  }, 60_000);
});
