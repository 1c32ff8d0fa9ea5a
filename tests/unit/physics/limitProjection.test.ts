/**
 * The joint stops in the position projection (positionProjection.ts projectAngularStop; jointCorrection
 * 'projection', the default): after the point and lock rows are projected, a ball's twist and swing stops
 * and a hinge's angle stops that the poses are past are turned back at position level, as Box2D v2.4's
 * revolute limit and Jolt's swing-twist position step do, at most maxBiasVelocity·h per substep.
 *
 * Before, the stops were held only by their velocity rows: the equality projection moved limbs into their
 * stops (an elbow's lock projection twisting the light upper arm about its own axis), the stops' bias pushed
 * them back the next substep, and resting limbs rocked. Figures measured before the change are in the
 * comments (docs/physics.md "Stops in the position correction").
 */
import { describe, expect, it } from 'vitest';
import { createMarionetteWorld } from '../../../bench/marionetteEngine';
import { loadRagdollFile } from '../../../bench/runBenchmark';
import { buildRagdollScene } from '../../../bench/scene';
import { quatFromAxisAngle } from '../../../shared/math/quat';
import {
  FLAG_LIMIT, FLAG_SWING, FLAG_TWIST, FLAGS, LIM_C_HI, LIM_C_LO, STRIDE, SW_C, SW_MASS,
} from '../../../shared/physics/joints/jointLayout';
import { StepContext } from '../../../shared/physics/stepContext';
import type { JointHandle } from '../../../shared/physics/types';
import { World } from '../../../shared/physics/world';

/** How far the most-penetrated stop of the world is past its bound (rad, ≥ 0), from the rows prepared at the
 *  last substep's start (C < 0 is past the stop). */
function worstStop(world: World): number {
  const J = world.joints.data;
  let worst = 0;
  for (let j = 0; j < world.joints.count; j++) {
    const o = j * STRIDE, f = J[o + FLAGS]!;
    if (f & (FLAG_TWIST | FLAG_LIMIT)) worst = Math.min(worst, J[o + LIM_C_LO]!, J[o + LIM_C_HI]!);
    if (f & FLAG_SWING && J[o + SW_MASS]! !== 0) worst = Math.min(worst, J[o + SW_C]!);
  }
  return -worst;
}

describe('stops in the position projection', () => {
  // A static torso, an upper arm straight out on a ball joint (twist within ±0.05 rad, swing within 0.1 rad)
  // and a forearm bent 90° sideways on a hinge held at its stop: the forearm's weight twists the upper arm
  // about its own long axis into the twist stop, through the elbow's angular lock, and bends the arm down onto
  // its swing cone. Over 5–10 s, before: twist stop 0.018 rad deep (median; 0.053 at most), swing cone 0.0042
  // (0.0093), the upper arm turning at up to 1.1 rad/s; after: 0.0027 (0.017), 0.0003 (0.0018), 0.44 rad/s.
  it('an arm loaded into its twist and swing stops stays within 0.006 and 0.001 rad of them (median; 0.018 and 0.0042 before)', () => {
    const w = new World({});
    const torso = w.addBody({ type: 'static', position: [0, 1, 0], shapes: [{ type: 'box', halfExtents: [0.1, 0.2, 0.1] }] });
    const upper = w.addBody({ type: 'dynamic', position: [0.25, 1.1, 0], shapes: [{ type: 'capsule', radius: 0.04, halfHeight: 0.11, axis: 'x' }], mass: 2 });
    const fore = w.addBody({ type: 'dynamic', position: [0.4, 1.1, 0.14], shapes: [{ type: 'capsule', radius: 0.035, halfHeight: 0.1, axis: 'z' }], mass: 1.5 });
    w.addJoint({ type: 'ball', bodyA: torso, bodyB: upper, frameA: { position: [0.1, 0.1, 0] }, frameB: { position: [-0.15, 0, 0] }, twistLimit: [-0.05, 0.05], swingLimit: [0.1, 0.1] });
    const up = quatFromAxisAngle([0, 0, 1], Math.PI / 2); // hinge frame X along world +y
    w.addJoint({ type: 'hinge', bodyA: upper, bodyB: fore, frameA: { position: [0.15, 0, 0], rotation: up }, frameB: { position: [0, 0, -0.14], rotation: up }, limit: [-0.05, 0.05] });
    const J = w.joints.data, twist: number[] = [], swing: number[] = [];
    let spin = 0;
    for (let s = 0; s < 600; s++) {
      w.step(1 / 60);
      if (s < 300) continue;
      twist.push(Math.max(0, -J[LIM_C_LO]!, -J[LIM_C_HI]!));
      swing.push(Math.max(0, -J[SW_C]!));
      spin = Math.max(spin, Math.hypot(...w.getAngularVelocity(upper)));
    }
    twist.sort((a, b) => a - b); swing.sort((a, b) => a - b);
    expect(twist[twist.length - 1]!).toBeGreaterThan(0); // the load does reach the stop
    expect(twist[twist.length >> 1]!).toBeLessThan(0.006);
    expect(twist[twist.length - 1]!).toBeLessThan(0.03);
    expect(swing[swing.length >> 1]!).toBeLessThan(0.001);
    expect(swing[swing.length - 1]!).toBeLessThan(0.004);
    expect(spin).toBeLessThan(0.7);
    expect(w.blowUp).toBeNull();
  });

  // Started 0.8 rad past a stop with nothing else acting: the stop's velocity row brings it back at its bias
  // (≤ maxBiasVelocity = 4 rad/s, removed again by the relax sweeps, so no velocity is left) and the position
  // iterations together by at most maxBiasVelocity·h more a substep: ≤ 8 rad/s in all (4 before, 33 steps
  // to return instead of 6), and still no velocity.
  for (const type of ['ball', 'hinge'] as const) {
    it(`a ${type} started 0.8 rad past its stop returns at most at twice maxBiasVelocity (its velocity row's bias and the projection's) and gains no velocity`, () => {
      const w = new World({ gravity: [0, 0, 0] });
      const root = w.addBody({ type: 'static', position: [0, 1, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
      const kid = w.addBody({ type: 'dynamic', position: [0.3, 1, 0], rotation: quatFromAxisAngle([1, 0, 0], 1), shapes: [{ type: 'box', halfExtents: [0.2, 0.05, 0.05] }], mass: 1 });
      const frames = { frameA: { position: [0.1, 0, 0] as [number, number, number] }, frameB: { position: [-0.2, 0, 0] as [number, number, number] } };
      const j: JointHandle = type === 'ball'
        ? w.addJoint({ type, bodyA: root, bodyB: kid, ...frames, twistLimit: [-0.2, 0.2] })
        : w.addJoint({ type, bodyA: root, bodyB: kid, ...frames, limit: [-0.2, 0.2] });
      const angle = () => { const a = w.getJointAngle(j); return typeof a === 'number' ? a : a[0]!; };
      const bound = 2 * new StepContext(w.bodies, w.joints.data, 1).maxBiasVelocity;
      let prev = angle(), fastest = 0, spin = 0, back = -1;
      expect(prev).toBeCloseTo(1, 9);
      for (let s = 0; s < 60; s++) {
        w.step(1 / 60);
        const a = angle();
        fastest = Math.max(fastest, (prev - a) * 60);
        spin = Math.max(spin, Math.hypot(...w.getAngularVelocity(kid)));
        if (back < 0 && a <= 0.2 + 1e-6) back = s + 1;
        prev = a;
      }
      expect(fastest).toBeGreaterThan(4.5); // the projection does turn it back, beyond the bias alone
      expect(fastest).toBeLessThanOrEqual(bound + 1e-9);
      expect(back).toBeGreaterThan(1); // over steps, not snapped into place in one
      expect(back).toBeLessThanOrEqual(8);
      expect(prev).toBeCloseTo(0.2, 6);
      expect(spin).toBeLessThan(1e-9);
    });
  }

  // The bench ragdoll (bench/scenes/ragdoll11.json) × 8, motors off, each pushed differently (seeded) so they
  // fall into different heaps, then lying for 7 s: over the last 5 s the deepest stop of the 80 joints is at
  // most 0.005 rad past (before: median 0.0024, largest 0.0067 on this seed; 0.0055 and 0.0143 on another).
  it('8 ragdolls lying in a heap, motors off: stops within 0.001 rad (median) and 0.005 rad (largest) over 5 s', () => {
    const scene = buildRagdollScene(loadRagdollFile(), 8, false);
    let world!: World;
    const bench = createMarionetteWorld((s) => (world = new World(s)), scene);
    const b = world.bodies;
    let seed = 1;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
    for (let c = 0; c < 8; c++) {
      for (const part of ['pelvis', 'torso', 'head']) {
        const k = b.names.indexOf(`${part}#${c}`);
        b.v.set([rnd() * 1.5, rnd(), rnd() * 1.5], 3 * k);
        b.w.set([rnd() * 2, rnd() * 2, rnd() * 2], 3 * k);
      }
    }
    const depth: number[] = [];
    for (let s = 0; s < 720; s++) {
      bench.step();
      if (s >= 420) depth.push(worstStop(world));
    }
    depth.sort((x, y) => x - y);
    expect(depth[depth.length - 1]!).toBeGreaterThan(0); // stops are loaded in the heap
    expect(depth[depth.length >> 1]!).toBeLessThan(0.001);
    expect(depth[depth.length - 1]!).toBeLessThan(0.005);
    expect(world.blowUp).toBeNull();
  });
});
