/**
 * A contact between two bodies whose normal the joints lock makes no row (drives.ts LOCKED_CONTACT_RATIO): it
 * cannot be pushed out, and pushing anyway moved the creature through the one nearly aligned DOF at thousands of
 * m/s. Found on the CI seed's random rig 1826048208 (13 bodies, zero gravity, started overlapping): a contact
 * with K = 9e-8 against a free 6e-3 took impulses of 1.6e8 N·s in its first substep.
 */
import { describe, expect, it } from 'vitest';
import { LOCKED_CONTACT_RATIO } from '../../../../shared/physics/articulated';
import { loadRig, validateRig } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';

const motorOff = { mode: 'off', target: { source: 'rest' }, maxTorque: 0, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0 };
const box = (name: string, y: number) => ({
  name, bone: name, type: 'dynamic', offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
  shapes: [{ type: 'box', position: [0, y, 0], rotation: [0, 0, 0, 1], halfExtents: [0.1, 0.1, 0.1] }],
  mass: 1, density: null, material: { friction: 0.5, restitution: 0 }, linearDamping: 0, angularDamping: 0, collisionGroup: 1, collisionMask: 0xffffffff,
});

/**
 * A free root 'a'; 'b' welded to it 0.15 m up; 'c' on a slide from 'a' 0.25 m up, so that b and c overlap by
 * 0.1 m along Y. The slide runs along X tilted by `tilt` toward Y: b and c can separate only through it, at
 * sin(tilt) of the slide's speed.
 */
function rig(tilt: number) {
  const frame = [0, 0, Math.sin(tilt / 2), Math.cos(tilt / 2)];
  return loadRig({
    format: 'marionette-rig', version: 1, name: 'locked-contact',
    units: { length: 'm', mass: 'kg', time: 's', angle: 'rad', torque: 'N·m' },
    axes: { up: '+Y', forward: '+Z', handedness: 'right' },
    solver: 'articulated',
    skeleton: { bones: ['a', 'b', 'c'].map((name) => ({ name, parent: name === 'a' ? null : 'a', rest: { translation: name === 'a' ? [0, 2, 0] : [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } })) },
    bodies: [box('a', 0), box('b', 0.15), box('c', 0.25)],
    joints: [
      { type: 'fixed', name: 'weld', bodyA: 'a', bodyB: 'b', frameA: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, frameB: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, collideConnected: false },
      { type: 'prismatic', name: 'slide', bodyA: 'a', bodyB: 'c', frameA: { position: [0, 0, 0], rotation: frame }, frameB: { position: [0, 0, 0], rotation: frame }, collideConnected: false, limit: null, motor: motorOff },
    ],
    controllers: [],
    simulation: { gravity: [0, 0, 0], dt: 1 / 60, substeps: 2, velocityIterations: 8, positionIterations: 1, ground: null },
  });
}

describe('a contact the joints lock', () => {
  it(`b and c overlapping across a slide tilted 1e-3 rad (K/K_free ≈ 5e-7 < ${LOCKED_CONTACT_RATIO}): no impulse, nothing moves; tilted 0.5 rad the contact pushes them apart`, () => {
    const run = (tilt: number) => {
      const v = validateRig(rig(tilt));
      if (!v.ok) throw new Error(JSON.stringify(v.problems));
      const sim = createSimulation(v.rig), j = sim.jointHandle('slide');
      let fastest = 0, contacts = 0, impulse = 0;
      for (let s = 0; s < 60; s++) {
        sim.step();
        const f = sim.frame();
        for (const n of sim.bodyNames) fastest = Math.max(fastest, Math.hypot(...f.bodies[n]!.v));
        for (const c of sim.world.getContacts()) { contacts++; impulse = Math.max(impulse, Math.abs(c.normalImpulse)); }
      }
      return { fastest, slide: sim.world.getJointAngle(j) as number, contacts, impulse }; // a prismatic's angle is its slide (m)
    };
    const locked = run(1e-3), open = run(0.5);
    console.log(`locked contact (tilt 1e-3): fastest ${locked.fastest.toExponential(2)} m/s, slide ${locked.slide.toExponential(2)} m, ${locked.contacts} contacts; open (tilt 0.5): fastest ${open.fastest.toFixed(3)} m/s, slide ${open.slide.toFixed(3)} m, ${open.contacts} contacts`);
    // The contact is still reported (the geometry overlaps), with no impulse; without the lock the push moved c
    // 4.9 m along its slide in the first step (all of it position: the relax takes the velocity back).
    expect(locked.impulse).toBe(0);
    expect(locked.fastest).toBeLessThan(1e-9);
    expect(Math.abs(locked.slide)).toBeLessThan(1e-9);
    // Where the slide can separate them, the contact is there and pushes them apart along it (bounded).
    expect(open.contacts).toBeGreaterThan(0);
    expect(open.impulse).toBeGreaterThan(0);
    expect(Math.abs(open.slide)).toBeGreaterThan(0.05);
    expect(open.fastest).toBeLessThan(10);
  });
});
