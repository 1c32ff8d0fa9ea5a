import { describe, expect, it } from 'vitest';
import { BodyStore, DYNAMIC, STATIC } from '../../../shared/physics/bodies';
import { Islands } from '../../../shared/physics/islands';
import { BODY_A, BODY_B, STRIDE } from '../../../shared/physics/joints/jointLayout';
import { JointStore } from '../../../shared/physics/joints/jointStore';
import { World } from '../../../shared/physics/world';
import { hashState } from './helpers';

/** Bodies 1..n of the given types, joints and contact pairs between slots. */
function scene(types: number[], joints: [number, number][], contacts: [number, number][]) {
  const b = new BodyStore();
  for (const t of types) { const i = b.allocate(); b.alive[i] = 1; b.type[i] = t; }
  const js = new JointStore();
  for (const [a, c] of joints) { const j = js.allocate(); js.alive[j] = 1; js.data[j * STRIDE + BODY_A] = a; js.data[j * STRIDE + BODY_B] = c; }
  return { b, js, m: { count: contacts.length, bodyA: (c: number) => contacts[c]![0], bodyB: (c: number) => contacts[c]![1] } };
}

const group = (isl: Islands, order: Int32Array, start: Int32Array) =>
  Array.from({ length: isl.count }, (_, k) => Array.from(order.subarray(start[k]!, start[k + 1]!)));

describe('islands', () => {
  it('groups joints and contacts by connected dynamic bodies, in their global order; statics do not connect', () => {
    // Slots: 1 static ground, 2-3-4 a jointed chain, 5-6 jointed, 7 alone; contacts: 4–ground, 6–ground,
    // 3–7 (joins 7 to the chain), 5–ground.
    const { b, js, m } = scene([STATIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC],
      [[2, 3], [5, 6], [3, 4], [1, 1]], [[4, 1], [6, 1], [3, 7], [5, 1]]);
    const isl = new Islands();
    isl.build(b, js, m);
    // Islands by first body: {2,3,4,7}, {5,6}, then the leftover (the static–static joint 3).
    expect(isl.count).toBe(3);
    expect(group(isl, isl.jointOrder, isl.jointStart)).toEqual([[0, 2], [1], [3]]);
    expect(group(isl, isl.contactOrder, isl.contactStart)).toEqual([[0, 2], [1, 3], []]);
  });

  it('rebuilds from scratch each call (a contact that breaks splits the island)', () => {
    const { b, js } = scene([DYNAMIC, DYNAMIC], [], []);
    const isl = new Islands();
    isl.build(b, js, { count: 1, bodyA: () => 1, bodyB: () => 2 });
    expect(isl.count).toBe(2);
    isl.build(b, js, { count: 0, bodyA: () => 0, bodyB: () => 0 });
    expect(isl.count).toBe(3);
  });

  it('a pendulum next to a bouncing box evolves bit for bit as it does alone (islands never mix)', () => {
    const build = (withBox: boolean) => {
      const w = new World({ groundHeight: 0 });
      const pivot = w.addBody({ type: 'static', position: [0, 3, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
      const bob = w.addBody({ type: 'dynamic', mass: 1, position: [0.8, 3, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
      w.addJoint({ type: 'ball', bodyA: pivot, bodyB: bob, frameA: { position: [0, 0, 0] }, frameB: { position: [-0.8, 0, 0] } });
      if (withBox) w.addBody({ type: 'dynamic', mass: 2, position: [10, 1, 0], shapes: [{ type: 'box', halfExtents: [0.2, 0.2, 0.2] }], angularVelocity: [1, 2, 3] });
      return { w, bob };
    };
    const alone = build(false), paired = build(true);
    for (let i = 0; i < 120; i++) { alone.w.step(1 / 60); paired.w.step(1 / 60); }
    expect(paired.w.getCenterOfMass(paired.bob)).toEqual(alone.w.getCenterOfMass(alone.bob));
    expect(paired.w.getAngularVelocity(paired.bob)).toEqual(alone.w.getAngularVelocity(alone.bob));
    expect(hashState(paired.w)).not.toBe(hashState(alone.w));
  });
});
