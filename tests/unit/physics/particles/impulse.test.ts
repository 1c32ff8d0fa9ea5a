/** The mouse impulse (paper eqs. 10–11, weighting corrected) and ray picking of bone capsules. */
import { describe, expect, it } from 'vitest';
import type { ParticleScene } from '../../../../shared/physics/particles';
import { loadExample, pos, simOf } from './helpers';

function rod(frame: boolean): ParticleScene {
  return {
    format: 'marionette-particles', version: 1, name: 'rod',
    settings: { dt: 1 / 100, iterations: 20, gravity: [0, 0, 0], damping: 0, friction: 0, floor: null, duration: 1 },
    particles: [
      { name: 'a', position: [0, 0, 0], mass: 2 }, { name: 'b', position: [1, 0, 0], mass: 3 },
      ...(frame ? [{ name: 'f', position: [0.5, 0.1, 0] as [number, number, number], mass: 0.5 }] : []),
    ],
    bones: [{ name: 'rod', head: 'a', tip: 'b', radius: 0.1, frame: frame ? 'f' : null, attached: [], collide: false }],
    constraints: [], impulses: [],
  };
}

/** Momentum of every particle from the Verlet pair after one step: p = m·(x − x0)/dt, read from positions
 *  before and after (the impulse is applied before the step). */
function momentaAfterImpulse(scene: ParticleScene, point: [number, number, number], J: [number, number, number]) {
  const sim = simOf(scene);
  const before = Array.from(sim.positions);
  sim.applyImpulse('rod', point, J);
  sim.step();
  return sim.particleNames.map((_, i) => [0, 1, 2].map((k) => (sim.masses[i]! * (sim.positions[3 * i + k]! - before[3 * i + k]!)) / sim.dt));
}

describe('mouse impulse', () => {
  it('gives the NEARER particle the larger share (lever rule; the paper had it backwards)', () => {
    // Click at 20 % of the way from a to b, impulse along the rod (the length constraint passes it on
    // unchanged, so each particle's momentum is exactly its share after one step).
    const p = momentaAfterImpulse(rod(false), [0.2, 0, 0], [0, 0, 0]); // sanity: no impulse, no motion
    expect(Math.hypot(...p[0]!) + Math.hypot(...p[1]!)).toBe(0);
    const sim = simOf(rod(false));
    sim.applyImpulse('rod', [0.2, 0.05, 0], [0, 0, 10]); // perpendicular, on the capsule surface
    const x0a = pos(sim, 'a'), x0b = pos(sim, 'b');
    // Read the shares directly from the implied velocity before any constraint acts: Verlet's
    // x − x0 after the impulse is Δv·dt.
    sim.step();
    const va = (pos(sim, 'a')[2] - x0a[2]) / sim.dt, vb = (pos(sim, 'b')[2] - x0b[2]) / sim.dt;
    // Momenta: a (nearer, at 20 %) gets 80 %, b gets 20 % of J = 10 N·s — before the rod's length
    // constraint (only second order here: a 0.1 mm move on a 1 m rod) redistributes anything.
    expect(2 * va).toBeCloseTo(8, 2);
    expect(3 * vb).toBeCloseTo(2, 2);
  });

  it('total momentum given equals the impulse, for clicks anywhere on the bone', () => {
    for (const [u, J] of [[0, [1, 2, 3]], [0.37, [0, -5, 1]], [1, [4, 0, 0]], [0.8, [0, 0, -7]]] as const) {
      for (const withFrame of [false, true]) {
        const p = momentaAfterImpulse(rod(withFrame), [u, withFrame ? 0.1 : 0, 0], [...J] as [number, number, number]);
        const total = [0, 1, 2].map((k) => p.reduce((s, v) => s + v[k]!, 0));
        total.forEach((t, k) => expect(t).toBeCloseTo(J[k]!, 9));
      }
    }
  });

  it('an off-axis click spins a bone that has a frame about its own axis', () => {
    const sim = simOf(rod(true));
    sim.applyImpulse('rod', [0.5, 0, 0.1], [0, 1, 0]); // at the surface, tangential: axial moment −0.1 N·m·s about +x
    const f0 = pos(sim, 'f');
    sim.step();
    const f1 = pos(sim, 'f');
    // The frame particle (0.5 kg at 0.1 m) takes the axial angular impulse τ = 0.1: Δv = τ/(r·m) = 2 m/s
    // tangentially (its direction at (0.5, 0.1, 0) about +x is ±z).
    expect(Math.abs((f1[2] - f0[2]) / sim.dt)).toBeCloseTo(2, 1);
  });

  it('rejects unknown bones and non-finite input with clear messages', () => {
    const sim = simOf(rod(false));
    expect(() => sim.applyImpulse('tail', [0, 0, 0], [1, 0, 0])).toThrow(/no bone named "tail".*rod/);
    expect(() => sim.applyImpulse('rod', [0, 0, 0], [Number.NaN, 0, 0])).toThrow(/finite/);
  });
});

describe('bone picking', () => {
  it('a ray through a bone hits its capsule surface; a ray beside it misses', () => {
    const sim = simOf(rod(false));
    const hit = sim.pick([0.3, 0, 5], [0, 0, -1]);
    expect(hit?.bone).toBe('rod');
    expect(hit!.point[2]).toBeCloseTo(0.1, 9); // radius 0.1
    expect(hit!.distance).toBeCloseTo(4.9, 9);
    expect(sim.pick([0.3, 0.2, 5], [0, 0, -1])).toBeNull();
  });

  it('picks the nearest bone of the ragdoll and the click moves it', () => {
    const sim = simOf(loadExample('ragdoll'));
    const head = pos(sim, 'head'), top = pos(sim, 'head_tip');
    const mid: [number, number, number] = [(head[0] + top[0]) / 2, (head[1] + top[1]) / 2, 3];
    const hit = sim.pick(mid, [0, 0, -1]);
    expect(hit?.bone).toBe('head');
    const ref = simOf(loadExample('ragdoll'));
    sim.applyImpulse(hit!.bone, hit!.point, [0, 0, -20]);
    for (let i = 0; i < 30; i++) { sim.step(); ref.step(); }
    expect(pos(sim, 'head_tip')[2] - pos(ref, 'head_tip')[2]).toBeLessThan(-0.05);
  });

  it('bone poses: centre between the particles, unit quaternion with +Y along the bone', () => {
    const sim = simOf(loadExample('ragdoll'));
    for (let i = 0; i < 50; i++) sim.step();
    const poses = new Float64Array(7 * sim.boneNames.length), seg = new Float64Array(6 * sim.boneNames.length);
    sim.writeBonePoses(poses); sim.writeBoneSegments(seg);
    for (let b = 0; b < sim.boneNames.length; b++) {
      const [cx, cy, cz, qx, qy, qz, qw] = Array.from(poses.subarray(7 * b, 7 * b + 7)) as number[];
      expect(Math.hypot(qx!, qy!, qz!, qw!)).toBeCloseTo(1, 12);
      for (let k = 0; k < 3; k++) expect([cx, cy, cz][k]).toBeCloseTo((seg[6 * b + k]! + seg[6 * b + 3 + k]!) / 2, 12);
      // +Y rotated by q: (2(xy − wz), 1 − 2(x² + z²), 2(yz + wx))
      const y = [2 * (qx! * qy! - qw! * qz!), 1 - 2 * (qx! * qx! + qz! * qz!), 2 * (qy! * qz! + qw! * qx!)];
      const d = [0, 1, 2].map((k) => seg[6 * b + 3 + k]! - seg[6 * b + k]!), L = Math.hypot(...d);
      for (let k = 0; k < 3; k++) expect(y[k]).toBeCloseTo(d[k]! / L, 9);
    }
  });
});
