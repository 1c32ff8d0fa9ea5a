/**
 * Minimal cases from the random-rig stress run (tests/fuzz/randomRigs.ts, issue 11 item 4), with their
 * numbers. docs/physics.md "Random rigs" says what each shows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateRig, type RigDocument } from '../../../shared/rig';
import { createSimulation } from '../../../shared/runtime';
import { quatFromAxisAngle } from '../../../shared/math/quat';
import { World } from '../../../shared/physics/world';
import { MAX_PUSH_VELOCITY } from '../../../shared/physics/contacts/contactSolver';

const fixture = new URL('../../fixtures/stress/ball-motor-twist.rig.json', import.meta.url);

/** Largest angular speed (rad/s) of any body over `seconds`, the rig's settings changed by `edit`. */
function maxSpin(seconds = 2): number {
  const doc = JSON.parse(readFileSync(fixture, 'utf8')) as RigDocument;
  const v = validateRig(doc);
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  const sim = createSimulation(v.rig);
  let max = 0;
  for (let s = 0; s < Math.round(seconds / v.rig.simulation.dt); s++) {
    sim.step();
    for (const b of Object.values(sim.frame().bodies)) max = Math.max(max, Math.hypot(...b.w));
    if (!(max < 1e6)) break;
  }
  return max;
}

describe('three capsules at rest, gravity 0, a ball position motor against a twist limit violated at rest', () => {
  // Stress case 7646, reduced: 3 capsules (77 kg/m³), ball joint with a position motor (τmax 373 N·m,
  // r 0.42) toward rest while its twist limit [0.84, 2.56] rad excludes rest, then a free hinge; dt 1/120,
  // 4 substeps, 1 velocity and 0 position iterations, no ground, no collisions. With the joints' warm start
  // applied in full it reached 2.3e5 rad/s within 0.42 s (8.6e5 in 2 s): the energy entered in the warm
  // start (the hinge's angular lock and the point rows carried from the last substep), the one iteration
  // took back only part of it. With the warm start line-searched on the island's kinetic energy
  // (shared/physics/warmStart.ts) the largest spin over 2 s is 8.5 rad/s.
  it('stays below 100 rad/s for 2 s', () => {
    const spin = maxSpin();
    expect(spin).toBeGreaterThan(1); // the motor does move it
    expect(spin).toBeLessThan(100);
  });
});

describe('depenetration is bounded', () => {
  it(`two sibling capsules started in the same place (fully inside each other) (self-collision, motors off, no gravity, no ground) part at most at MAX_PUSH_VELOCITY (${MAX_PUSH_VELOCITY} m/s)`, () => {
    for (const substeps of [2, 4]) {
      const w = new World({ gravity: [0, 0, 0], substeps });
      const parent = w.addBody({ type: 'dynamic', position: [0, 1, 0], shapes: [{ type: 'sphere', radius: 0.1 }], density: 1000, collisionGroup: 1, collisionMask: 0 });
      const kids = [-1, 1].map((s) => w.addBody({
        type: 'dynamic', position: [0, 0.7, 0], rotation: quatFromAxisAngle([0, 0, 1], s * 0.05),
        shapes: [{ type: 'capsule', radius: 0.05, halfHeight: 0.25 }], density: 1000,
      }));
      for (const k of kids) {
        const p = w.getPosition(k);
        w.addJoint({ type: 'ball', bodyA: parent, bodyB: k, frameA: { position: [p[0], p[1] + 0.3 - 1, 0] }, frameB: { position: [0, 0.3, 0] } });
      }
      let vmax = 0;
      for (let s = 0; s < 120; s++) {
        w.step(1 / 60);
        for (const b of [parent, ...kids]) vmax = Math.max(vmax, Math.hypot(...w.getLinearVelocity(b)));
      }
      expect(vmax).toBeGreaterThan(0.1); // they do push apart
      expect(vmax).toBeLessThanOrEqual(MAX_PUSH_VELOCITY);
    }
  });
});
