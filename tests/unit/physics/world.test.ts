import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quatFromAxisAngle } from '../../../shared/math/quat';
import { World } from '../../../shared/physics/world';
import type { BodyDesc, BodyHandle, JointDesc, JointHandle } from '../../../shared/physics/types';
import { hashState, rng } from './helpers';

/** A small scene with everything in it: a motorised ball/hinge chain, a box pile on the ground. */
function scene(): { w: World; bodies: BodyHandle[]; joints: JointHandle[] } {
  const w = new World({ groundHeight: 0 });
  const bodies: BodyHandle[] = [], joints: JointHandle[] = [];
  const r = rng(3);
  const root = w.addBody({ type: 'static', position: [0, 2, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
  let prev = root;
  for (let i = 0; i < 4; i++) {
    const b = w.addBody({ type: 'dynamic', position: [0.2 + 0.4 * i, 2, 0], shapes: [{ type: 'capsule', radius: 0.05, halfHeight: 0.15, axis: 'x' }] });
    joints.push(w.addJoint(i % 2 === 0
      ? { type: 'ball', bodyA: prev, bodyB: b, frameA: { position: [i === 0 ? 0 : 0.2, 0, 0] }, frameB: { position: [-0.2, 0, 0] }, swingLimit: [0.5, 0.7], twistLimit: [-0.3, 0.3], motor: { mode: 'pd', maxTorque: 20, stiffness: 50, damping: 5 } }
      : { type: 'hinge', bodyA: prev, bodyB: b, frameA: { position: [0.2, 0, 0] }, frameB: { position: [-0.2, 0, 0] }, limit: [-1, 1], motor: { mode: 'position', maxTorque: 10 } }));
    bodies.push(b); prev = b;
  }
  for (let i = 0; i < 6; i++) bodies.push(w.addBody({ type: 'dynamic', position: [3 + r() * 0.1, 0.3 + 0.45 * i, r() * 0.1], rotation: quatFromAxisAngle([0, 1, 0], r()), shapes: [{ type: 'box', halfExtents: [0.2, 0.2, 0.2] }] }));
  return { w, bodies, joints };
}

describe('determinism and snapshots', () => {
  it('two runs of the same scene give the same state hash after 300 steps', () => {
    const a = scene(), b = scene();
    for (let i = 0; i < 300; i++) { a.w.step(1 / 60); b.w.step(1 / 60); }
    expect(hashState(a.w)).toBe(hashState(b.w));
    expect(a.w.getContacts().length).toBeGreaterThan(0);
  });

  it('snapshot → step → restore → step is bit-identical (warm-start caches included)', () => {
    const { w } = scene();
    for (let i = 0; i < 90; i++) w.step(1 / 60);
    const snap = w.snapshot();
    const frames: string[] = [];
    for (let i = 0; i < 60; i++) { w.step(1 / 60); frames.push(hashState(w)); }
    w.restore(snap);
    for (let i = 0; i < 60; i++) { w.step(1 / 60); expect(hashState(w)).toBe(frames[i]); }
    expect(w.time).toBeCloseTo(150 / 60, 12);
  });

  it('restore works after the world grew past the snapshot (more bodies and joints added since)', () => {
    const { w } = scene();
    for (let i = 0; i < 30; i++) w.step(1 / 60);
    const snap = w.snapshot();
    const before = hashState(w);
    let prev = w.addBody({ type: 'static', position: [0, 9, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    for (let i = 0; i < 200; i++) {
      const b = w.addBody({ type: 'dynamic', position: [10 + i, 9, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
      w.addJoint({ type: 'ball', bodyA: prev, bodyB: b, frameA: { position: [0.5, 0, 0] }, frameB: { position: [-0.5, 0, 0] } });
      prev = b;
    }
    w.step(1 / 60);
    w.restore(snap);
    expect(hashState(w)).toBe(before);
    expect(w.getStats().bodies).toBeLessThan(20);
    w.step(1 / 60);
    expect(w.blowUp).toBeNull();
  });

  it('a blow-up is reported by body name and the world restores to its last snapshot', () => {
    const w = new World({ gravity: [0, 0, 0], maxSpeed: 50 });
    const b = w.addBody({ name: 'rocket', type: 'dynamic', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    w.step(1 / 60);
    w.snapshot();
    w.applyImpulse(b, [1e6, 0, 0]);
    w.step(1 / 60);
    expect(w.blowUp?.body).toBe('rocket');
    expect(w.blowUp?.reason).toMatch(/speed/);
    expect(w.restoreLastSnapshot()).toBe(true);
    expect(w.blowUp).toBeNull();
    expect(w.getLinearVelocity(b)).toEqual([0, 0, 0]);
  });

  it('stale handles are detected, removed slots are reused with a new generation', () => {
    const w = new World();
    const a = w.addBody({ type: 'dynamic', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    w.removeBody(a);
    expect(() => w.getPosition(a)).toThrow(/stale/);
    const b = w.addBody({ type: 'dynamic', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    expect(b).not.toBe(a);
    expect(w.bodyIndex(b)).toBe(w.bodies.count - 1);
    expect(() => w.getPosition(a)).toThrow(/stale/);
  });

  it('kinematic bodies reach the transform asked by moveKinematic and carry jointed bodies along', () => {
    const w = new World({ gravity: [0, 0, 0] });
    const k = w.addBody({ type: 'kinematic', position: [0, 0, 0], shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1] }] });
    const d = w.addBody({ type: 'dynamic', position: [0.5, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    w.addJoint({ type: 'fixed', bodyA: k, bodyB: d, frameA: { position: [0.25, 0, 0] }, frameB: { position: [-0.25, 0, 0] } });
    const q = quatFromAxisAngle([0, 1, 0], 0.3);
    w.moveKinematic(k, [1, 0, 0], q, 1 / 60);
    w.step(1 / 60);
    expect(w.getPosition(k)).toEqual([1, 0, 0].map((x) => expect.closeTo(x, 9)));
    expect(Math.abs(w.getRotation(k)[1] - q[1])).toBeLessThan(1e-12);
    // Animate on: 1 s along a smooth path, then hold for 1 s.
    for (let i = 1; i <= 120; i++) {
      const t = Math.min(1, i / 60), s = t * t * (3 - 2 * t);
      w.moveKinematic(k, [1 + s, 0, 0], quatFromAxisAngle([0, 1, 0], 0.3 + 0.5 * s), 1 / 60);
      w.step(1 / 60);
    }
    expect(w.getPosition(k)[0]).toBeCloseTo(2, 9);
    // The welded body ends 0.5 m along the kinematic body's rotated x axis.
    const p = w.getPosition(d);
    expect(Math.hypot(p[0] - (2 + 0.5 * Math.cos(0.8)), p[1], p[2] + 0.5 * Math.sin(0.8))).toBeLessThan(2e-3);
  });

  it('prismatic joint slides along its axis only, stops at its limit, and its motor drives the offset', () => {
    const w = new World();
    const base = w.addBody({ type: 'static', position: [0, 1, 0], shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1] }] });
    const slider = w.addBody({ type: 'dynamic', position: [0, 1, 0], shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1] }] });
    // Slide axis = world −y (frame X rotated onto −Y): gravity pulls the slider along it.
    const down = quatFromAxisAngle([0, 0, 1], -Math.PI / 2);
    const j = w.addJoint({ type: 'prismatic', bodyA: base, bodyB: slider, frameA: { position: [0, 0, 0], rotation: down }, frameB: { position: [0, 0, 0], rotation: down }, limit: [-0.1, 0.5] });
    w.applyImpulse(slider, [3, 0, 2]);
    for (let i = 0; i < 120; i++) w.step(1 / 60);
    expect(w.getJointAngle(j) as number).toBeCloseTo(0.5, 2);
    expect(w.getJointError(j)).toBeLessThan(1e-3);
    const p = w.getPosition(slider);
    expect(Math.hypot(p[0], p[2])).toBeLessThan(1e-3);
    w.setMotor(j, { mode: 'position', maxTorque: 100 });
    w.setMotorTarget(j, 0.2);
    for (let i = 0; i < 120; i++) w.step(1 / 60);
    expect(w.getJointAngle(j) as number).toBeCloseTo(0.2, 2);
  });

  it('getStats counts bodies, joints, rows and iterations', () => {
    const { w } = scene();
    w.step(1 / 60);
    const s = w.getStats();
    expect(s.bodies).toBe(11); // the static root, 4 links, 6 boxes
    expect(s.joints).toBe(4);
    // ball: 3 point + 3 motor + 2 twist + 1 swing; hinge: 5 + 1 motor + 2 limit; + 3 per contact point.
    expect(s.rows).toBe(2 * 9 + 2 * 8 + 3 * s.contacts);
    expect(s.velocityIterations).toBe(8);
  });
});

describe('guard rails', () => {
  const sphere: BodyDesc = { name: 'ball', type: 'dynamic', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] };
  it('rejects bad bodies with the body name and the field', () => {
    const w = new World();
    expect(() => w.addBody({ ...sphere, position: [0, NaN, 0] })).toThrow(/body 'ball'.*position\[1\]/);
    expect(() => w.addBody({ ...sphere, shapes: [{ type: 'sphere', radius: 0 }] })).toThrow(/body 'ball' shape 0: radius/);
    expect(() => w.addBody({ ...sphere, shapes: [{ type: 'box', halfExtents: [1, -1, 1] }] })).toThrow(/body 'ball' shape 0: halfExtents\[1\]/);
    expect(() => w.addBody({ ...sphere, mass: 0 })).toThrow(/body 'ball': mass must be > 0/);
    expect(() => w.addBody({ ...sphere, density: Infinity })).toThrow(/body 'ball': density/);
    expect(() => w.addBody({ ...sphere, rotation: [0, 0, 0, 0] })).toThrow(/body 'ball': rotation/);
  });
  it('rejects bad joints and motors with the joint name and the field', () => {
    const w = new World();
    const a = w.addBody(sphere), b = w.addBody({ ...sphere, name: 'b' });
    const base: JointDesc = { name: 'elbow', type: 'hinge', bodyA: a, bodyB: b, frameA: { position: [0, 0, 0] }, frameB: { position: [0, 0, 0] } };
    expect(() => w.addJoint({ ...base, limit: [1, -1] } as JointDesc)).toThrow(/joint 'elbow': limit is inverted/);
    expect(() => w.addJoint({ ...base, motor: { mode: 'position', maxTorque: -1 } })).toThrow(/joint 'elbow': motor.maxTorque/);
    expect(() => w.addJoint({ ...base, type: 'ball', swingLimit: [0.5, 0] } as JointDesc)).toThrow(/joint 'elbow': swingLimit\[1\]/);
    expect(() => w.addJoint({ ...base, type: 'ball', twistLimit: [0.5, -0.5] } as JointDesc)).toThrow(/joint 'elbow': twistLimit is inverted/);
    expect(() => w.addJoint({ ...base, frameA: { position: [0, Infinity, 0] } })).toThrow(/joint 'elbow': frameA.position\[1\]/);
    const j = w.addJoint(base);
    expect(() => w.setMotor(j, { mode: 'pd', maxTorque: -3, stiffness: 1 })).toThrow(/joint 'elbow': motor.maxTorque/);
    expect(() => w.setMotorTarget(j, NaN)).toThrow(/joint 'elbow'/);
    w.removeBody(b);
    expect(() => w.getMotorReport(j)).toThrow(/stale/);
  });
  it('rejects bad settings and time steps', () => {
    expect(() => new World({ substeps: 0 })).toThrow(/substeps/);
    expect(() => new World().step(0)).toThrow(/dt/);
  });
});

describe('property: random chains and impulses', () => {
  it('never produce NaN, and joint errors stay bounded (< 5 cm) with no blow-up', () => {
    fc.assert(fc.property(
      fc.integer({ min: 2, max: 6 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true })), { minLength: 1, maxLength: 5 }),
      fc.array(fc.constantFrom('ball', 'hinge', 'fixed', 'prismatic'), { minLength: 6, maxLength: 6 }),
      fc.double({ min: 0.2, max: 5, noNaN: true }),
      (n, kicks, types, massRatio) => {
        const w = new World({ groundHeight: -3 });
        const bodies: BodyHandle[] = [w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }] })];
        const joints: JointHandle[] = [];
        for (let i = 0; i < n; i++) {
          const b = w.addBody({ type: 'dynamic', mass: i % 2 ? massRatio : 1, position: [0.2 + 0.4 * i, 0, 0], shapes: [{ type: 'capsule', radius: 0.05, halfHeight: 0.15, axis: 'x' }] });
          const t = types[i]!;
          joints.push(w.addJoint({ type: t, bodyA: bodies[i]!, bodyB: b, frameA: { position: [i === 0 ? 0 : 0.2, 0, 0] }, frameB: { position: [-0.2, 0, 0] },
            ...(t === 'prismatic' ? { limit: [-0.1, 0.1] } : {}), ...(t === 'ball' ? { swingLimit: [0.8, 0.8] } : {}) } as JointDesc));
          bodies.push(b);
        }
        for (let s = 0; s < 120; s++) {
          for (const [k, x, y, z] of kicks) if (s === 10 * k) w.applyImpulse(bodies[1 + (k % n)]!, [x, y, z], w.getCenterOfMass(bodies[1 + (k % n)]!));
          w.step(1 / 60);
          expect(w.blowUp).toBeNull();
        }
        for (const b of bodies) for (const x of [...w.getPosition(b), ...w.getRotation(b), ...w.getLinearVelocity(b)]) expect(Number.isFinite(x)).toBe(true);
        for (const j of joints) expect(w.getJointError(j)).toBeLessThan(0.05);
      },
    ), { numRuns: 40, seed: 42 });
  });
});
