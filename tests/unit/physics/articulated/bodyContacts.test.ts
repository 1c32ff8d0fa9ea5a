/**
 * Contacts between bodies under the articulated solver (issue 12 item 1): found by the rigid solver's narrow
 * phase, each point a normal row and two friction rows (|λt| ≤ μλn, μ = √(μa·μb)) through the articulated
 * system — the ground contact's model. Rigs built in code; no ground plane, so every contact here is
 * body–body (static–dynamic and dynamic–dynamic).
 */
import { describe, expect, it } from 'vitest';
import { loadRig, type RigDocument } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';

type Shape = Record<string, unknown>;
interface B { name: string; type: 'static' | 'dynamic'; at: [number, number, number]; shape: Shape; friction?: number; mask?: number }

function rig(bodies: B[], joints: Record<string, unknown>[] = []): RigDocument {
  return loadRig({
    format: 'marionette-rig', version: 1, name: 'contacts',
    units: { length: 'm', mass: 'kg', time: 's', angle: 'rad', torque: 'N·m' },
    axes: { up: '+Y', forward: '+Z', handedness: 'right' },
    solver: 'articulated',
    skeleton: { bones: bodies.map((b) => ({ name: b.name, parent: null, rest: { translation: b.at, rotation: [0, 0, 0, 1], scale: [1, 1, 1] } })) },
    bodies: bodies.map((b) => ({
      name: b.name, bone: b.name, type: b.type, offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      shapes: [{ position: [0, 0, 0], rotation: [0, 0, 0, 1], ...b.shape }],
      mass: b.type === 'dynamic' ? 1 : null, density: b.type === 'dynamic' ? null : 1000,
      material: { friction: b.friction ?? 0.5, restitution: 0 }, linearDamping: 0, angularDamping: 0,
      collisionGroup: 1, collisionMask: b.mask ?? 0xffffffff,
    })),
    joints, controllers: [],
    simulation: { gravity: [0, -9.81, 0], dt: 1 / 60, substeps: 2, velocityIterations: 8, positionIterations: 2, ground: null },
  });
}

const table: B = { name: 'table', type: 'static', at: [0, 0.5, 0], shape: { type: 'box', halfExtents: [2, 0.05, 2] } };

describe('body–body contacts in the articulated solver', () => {
  it('a sphere dropped on a static box comes to rest on it (centre at 0.55 + r within 2 mm)', () => {
    const sim = createSimulation(rig([table, { name: 'ball', type: 'dynamic', at: [0, 1.2, 0], shape: { type: 'sphere', radius: 0.1, hollow: false } }]));
    let lowest = Infinity;
    for (let s = 0; s < 180; s++) { sim.step(); lowest = Math.min(lowest, sim.bodyPose('ball').position[1]); }
    const y = sim.bodyPose('ball').position[1];
    const v = Math.hypot(...sim.world.getLinearVelocity(sim.bodyHandle('ball')));
    console.log(`sphere on a static box: rests at ${y.toFixed(5)} m (surface + r = 0.65), lowest ${lowest.toFixed(5)} m, |v| ${v.toExponential(2)} m/s, contacts ${sim.world.getContacts().length}`);
    expect(Math.abs(y - 0.65)).toBeLessThan(2e-3);
    expect(lowest).toBeGreaterThan(0.65 - 5e-3);
    expect(v).toBeLessThan(1e-2);
    expect(sim.world.getContacts().some((c) => c.bodyB !== null && c.normalImpulse > 0)).toBe(true);
  });

  it('a box sliding at 3 m/s on a static box stops after v²/(2μg) (μ = √(μa·μb)) within 3 %', () => {
    const sim = createSimulation(rig([
      { ...table, friction: 0.64 },
      { name: 'crate', type: 'dynamic', at: [0, 0.65 + 1e-4, -1.5], shape: { type: 'box', halfExtents: [0.1, 0.1, 0.1] }, friction: 0.25 },
    ]));
    sim.step();
    sim.setBodyVelocity('crate', [0, 0, 3], [0, 0, 0]);
    const z0 = sim.bodyPose('crate').position[2];
    for (let s = 0; s < 180; s++) sim.step();
    const mu = Math.sqrt(0.64 * 0.25), expected = 9 / (2 * mu * 9.81);
    const slid = sim.bodyPose('crate').position[2] - z0;
    console.log(`box sliding on a static box, μ ${mu}: slid ${slid.toFixed(4)} m, analytic ${expected.toFixed(4)} m (${((slid / expected - 1) * 100).toFixed(2)} %)`);
    expect(Math.abs(slid / expected - 1)).toBeLessThan(0.03);
    expect(Math.abs(sim.world.getLinearVelocity(sim.bodyHandle('crate'))[2])).toBeLessThan(1e-3);
  });

  it('dynamic on dynamic: a capsule dropped across a free sphere resting on the table; both come to rest stacked', () => {
    const sim = createSimulation(rig([
      table,
      { name: 'low', type: 'dynamic', at: [0, 0.75, 0], shape: { type: 'sphere', radius: 0.2, hollow: false } },
      { name: 'rod', type: 'dynamic', at: [0, 1.2, 0], shape: { type: 'capsule', radius: 0.05, halfHeight: 0.3, axis: 'x' } },
    ]));
    for (let s = 0; s < 240; s++) sim.step();
    const low = sim.bodyPose('low').position, rod = sim.bodyPose('rod').position;
    console.log(`stack: sphere centre y ${low[1].toFixed(4)} (0.75), capsule centre y ${rod[1].toFixed(4)} (≥ 1.0 while balanced, else rolled off)`);
    expect(Math.abs(low[1] - 0.75)).toBeLessThan(3e-3);
    // The capsule either balances on the sphere or has slid off onto the table: never inside either.
    const gap = Math.hypot(rod[0] - low[0], rod[1] - low[1], rod[2] - low[2]);
    expect(gap).toBeGreaterThan(0.25 - 5e-3);
    expect(rod[1]).toBeGreaterThan(0.6 - 5e-3);
  });

  it('self-collision: a hinged arm folding onto its own base stops on it; with the mask cleared it passes through', () => {
    // A 0.68 m arm hinged (about world z) at x = −0.34 on a static post swings down onto a static block whose
    // top face (y = 0.7) lies under its far end. Jointed bodies do not collide (collideConnected false); the
    // arm and the block do, unless the masks say no.
    const build = (mask: number) => rig([
      { name: 'post', type: 'static', at: [0, 1, 0], shape: { type: 'box', halfExtents: [0.05, 0.05, 0.05] } },
      { name: 'arm', type: 'dynamic', at: [0, 1, 0], shape: { type: 'capsule', radius: 0.04, halfHeight: 0.3, axis: 'x' }, mask },
      { name: 'block', type: 'static', at: [0.2, 0.5, 0], shape: { type: 'box', halfExtents: [0.2, 0.2, 0.2] }, mask },
    ], [{
      type: 'hinge', name: 'pivot', bodyA: 'post', bodyB: 'arm', collideConnected: false,
      frameA: { position: [-0.34, 0, 0], rotation: [0, -Math.SQRT1_2, 0, Math.SQRT1_2] }, frameB: { position: [-0.34, 0, 0], rotation: [0, -Math.SQRT1_2, 0, Math.SQRT1_2] },
      limit: null, motor: { mode: 'off', target: { source: 'rest' }, maxTorque: 0, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0 },
    }]);
    const tipY = (mask: number) => {
      const sim = createSimulation(build(mask));
      let lowest = Infinity;
      for (let s = 0; s < 120; s++) {
        sim.step();
        const p = sim.bodyPose('arm');
        // The arm's far end (+x end of the capsule axis, with its radius) in world.
        const [x, y, z, w] = p.rotation;
        const ax = [1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)];
        lowest = Math.min(lowest, p.position[1] + ax[1]! * 0.34);
      }
      return lowest;
    };
    const stopped = tipY(0xffffffff), through = tipY(0);
    console.log(`arm onto a block: lowest far end y ${stopped.toFixed(4)} m with collisions (block top 0.7 m, the capsule's tip rests ≈ 0.7 + r·(1 − sin θ)), ${through.toFixed(4)} m without`);
    expect(stopped).toBeGreaterThan(0.7 - 5e-3);
    expect(through).toBeLessThan(0.4);
  });
});
