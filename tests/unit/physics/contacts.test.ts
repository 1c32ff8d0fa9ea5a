import { describe, expect, it } from 'vitest';
import { World } from '../../../shared/physics/world';
import type { BodyHandle } from '../../../shared/physics/types';

describe('contacts', () => {
  it('a sphere comes to rest on the ground plane at its radius (penetration ≤ 2 mm slop + 3 mm)', () => {
    const w = new World({ groundHeight: 0 });
    const b = w.addBody({ type: 'dynamic', position: [0, 1, 0], shapes: [{ type: 'sphere', radius: 0.25 }] });
    for (let i = 0; i < 180; i++) w.step(1 / 60);
    expect(Math.abs(w.getPosition(b)[1] - 0.25)).toBeLessThan(0.005);
    expect(Math.hypot(...w.getLinearVelocity(b))).toBeLessThan(1e-3);
    const c = w.getContacts();
    expect(c.length).toBe(1);
    expect(c[0]!.bodyB).toBeNull();
    // At rest the normal impulse per step carries the weight: λ = m·g·h.
    expect(c[0]!.normalImpulse).toBeCloseTo(w.getMassProperties(b).mass * 9.81 / 60, 3);
  });

  it('Coulomb friction: a box sliding on the ground decelerates at μ·g (μ = sqrt(μ_box·μ_ground))', () => {
    const w = new World({ groundHeight: 0, groundMaterial: { friction: 0.4, restitution: 0 } });
    const b = w.addBody({ type: 'dynamic', position: [0, 0.1, 0], material: { friction: 0.9 }, linearVelocity: [3, 0, 0], shapes: [{ type: 'box', halfExtents: [0.2, 0.1, 0.2] }] });
    w.step(1 / 60);
    const v0 = w.getLinearVelocity(b)[0];
    for (let i = 0; i < 20; i++) w.step(1 / 60);
    const decel = (v0 - w.getLinearVelocity(b)[0]) / (20 / 60);
    expect(Math.abs(decel - Math.sqrt(0.9 * 0.4) * 9.81) / (0.6 * 9.81)).toBeLessThan(0.02);
  });

  it('restitution: a ball dropped from 1 m bounces to e²·1 m (within 5 %), not at all below the threshold', () => {
    const w = new World({ groundHeight: 0, groundMaterial: { friction: 0.5, restitution: 0 } });
    const b = w.addBody({ type: 'dynamic', position: [0, 1.1, 0], material: { restitution: 0.8 }, shapes: [{ type: 'sphere', radius: 0.1 }] });
    let peak = 0, bounced = false;
    for (let i = 0; i < 300; i++) {
      w.step(1 / 240);
      const v = w.getLinearVelocity(b)[1];
      if (v > 0) bounced = true;
      if (bounced) peak = Math.max(peak, w.getPosition(b)[1] - 0.1);
    }
    expect(Math.abs(peak - 0.64) / 0.64).toBeLessThan(0.05);
    // Below the 1 m/s threshold a contact does not bounce: drop from 2 cm (impact ≈ 0.63 m/s).
    const w2 = new World({ groundHeight: 0 });
    const c = w2.addBody({ type: 'dynamic', position: [0, 0.12, 0], material: { restitution: 0.8 }, shapes: [{ type: 'sphere', radius: 0.1 }] });
    let up = 0;
    for (let i = 0; i < 120; i++) { w2.step(1 / 240); up = Math.max(up, w2.getLinearVelocity(c)[1]); }
    expect(up).toBeLessThan(0.05);
  });

  it('a stack of 5 boxes comes to rest and stays within 1 mm for 10 s', () => {
    const w = new World({ groundHeight: 0 });
    const boxes: BodyHandle[] = [];
    for (let i = 0; i < 5; i++) boxes.push(w.addBody({ type: 'dynamic', position: [0, 0.25 + 0.5 * i, 0], shapes: [{ type: 'box', halfExtents: [0.25, 0.25, 0.25] }] }));
    for (let i = 0; i < 120; i++) w.step(1 / 60); // settle 2 s
    const rest = boxes.map((b) => w.getPosition(b));
    let drift = 0;
    for (let i = 0; i < 600; i++) {
      w.step(1 / 60);
      boxes.forEach((b, k) => {
        const p = w.getPosition(b);
        drift = Math.max(drift, Math.hypot(p[0] - rest[k]![0], p[1] - rest[k]![1], p[2] - rest[k]![2]));
      });
    }
    expect(drift).toBeLessThan(1e-3);
    // and it is still a stack: the top box sits within 2 cm of 2.25 m (5 contacts × slop + soft sag).
    expect(Math.abs(w.getPosition(boxes[4]!)[1] - 2.25)).toBeLessThan(0.02);
  });

  it('jointed bodies do not collide by default; collideConnected turns it back on', () => {
    for (const collideConnected of [false, true]) {
      const w = new World({ gravity: [0, 0, 0] });
      const a = w.addBody({ type: 'dynamic', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.3 }] });
      const b = w.addBody({ type: 'dynamic', position: [0.4, 0, 0], shapes: [{ type: 'sphere', radius: 0.3 }] });
      w.addJoint({ type: 'ball', bodyA: a, bodyB: b, frameA: { position: [0.2, 0, 0] }, frameB: { position: [-0.2, 0, 0] }, collideConnected });
      w.step(1 / 60);
      expect(w.getContacts().length > 0).toBe(collideConnected);
    }
  });

  it('collision groups and masks filter pairs', () => {
    const w = new World({ gravity: [0, 0, 0] });
    w.addBody({ type: 'dynamic', position: [0, 0, 0], collisionGroup: 1, collisionMask: 1, shapes: [{ type: 'sphere', radius: 0.3 }] });
    w.addBody({ type: 'dynamic', position: [0.4, 0, 0], collisionGroup: 2, collisionMask: 2, shapes: [{ type: 'sphere', radius: 0.3 }] });
    w.step(1 / 60);
    expect(w.getContacts().length).toBe(0);
  });

  it('raycast picks the nearest body, or the ground', () => {
    const w = new World({ groundHeight: 0 });
    const near = w.addBody({ type: 'static', position: [0, 1, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
    w.addBody({ type: 'static', position: [0, 1, 3], shapes: [{ type: 'sphere', radius: 0.5 }] });
    const hit = w.raycast([0, 1, -5], [0, 0, 1], 100)!;
    expect(hit.body).toBe(near);
    expect(hit.distance).toBeCloseTo(4.5, 9);
    expect(hit.normal).toEqual([0, 0, -1].map((x) => expect.closeTo(x, 9)));
    const down = w.raycast([5, 3, 0], [0, -1, 0], 100)!;
    expect(down.distance).toBeCloseTo(3, 9);
    expect(w.raycast([5, 3, 0], [0, 1, 0], 100)).toBeNull();
  });
});
