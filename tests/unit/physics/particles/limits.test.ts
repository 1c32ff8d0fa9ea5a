/** Twist (axial) limit and collisions — two of the paper's listed failures. */
import { describe, expect, it } from 'vitest';
import type { ParticleScene } from '../../../../shared/physics/particles';
import { frame, loadExample, pos, simOf, twist } from './helpers';

/** Spine and head (paper §4: "allows the ragdoll's head to spin a complete 360° around its neck"), each
 *  with an orientation particle; the spine's base and frame particle pinned, so the spin can only go into
 *  the neck. */
function neck(twistLimit: boolean): ParticleScene {
  return {
    format: 'marionette-particles', version: 1, name: 'neck',
    settings: { dt: 1 / 120, iterations: 20, gravity: [0, -9.81, 0], damping: 0, friction: 0, floor: null, duration: 5 },
    particles: [
      { name: 'pelvis', position: [0, 1, 0], mass: 10 }, { name: 'neck', position: [0, 1.5, 0], mass: 5 },
      { name: 'top', position: [0, 1.75, 0], mass: 2 }, { name: 'spine_frame', position: [0.15, 1.25, 0], mass: 3 },
      { name: 'head_frame', position: [0.1, 1.625, 0], mass: 1 },
    ],
    bones: [
      { name: 'spine', head: 'pelvis', tip: 'neck', radius: 0.15, frame: 'spine_frame', attached: [], collide: false },
      { name: 'head', head: 'neck', tip: 'top', radius: 0.1, frame: 'head_frame', attached: [], collide: false },
    ],
    constraints: [
      { type: 'fixed', particle: 'pelvis' }, { type: 'fixed', particle: 'spine_frame' },
      { type: 'swing', parent: 'spine', child: 'head', max: 0.6 },
      ...(twistLimit ? [{ type: 'twist' as const, parent: 'spine', child: 'head', min: -1, max: 1 }] : []),
    ],
    impulses: [],
  };
}

function spin(twistLimit: boolean, impulse: number): { maxTwist: number; finite: boolean } {
  const sim = simOf(neck(twistLimit));
  const F = () => ({ P: frame(pos(sim, 'pelvis'), pos(sim, 'neck'), pos(sim, 'spine_frame')), C: frame(pos(sim, 'neck'), pos(sim, 'top'), pos(sim, 'head_frame')) });
  const rest = F();
  // A slap on the side of the head: tangential at the capsule surface, so it spins the head about its axis.
  sim.applyImpulse('head', [0.1, 1.625, 0], [0, 0, impulse]);
  let maxTwist = 0, unwrapped = 0, prev = 0;
  for (let i = 0; i < 600; i++) {
    sim.step();
    const now = F();
    const t = twist(now.P, now.C, rest.P, rest.C);
    // Unwrap, so a full turn shows as 2π rather than wrapping back to 0.
    let d = t - prev; if (d > Math.PI) d -= 2 * Math.PI; if (d < -Math.PI) d += 2 * Math.PI;
    unwrapped += d; prev = t;
    maxTwist = Math.max(maxTwist, Math.abs(unwrapped));
  }
  return { maxTwist, finite: sim.positions.every(Number.isFinite) };
}

describe('twist limit', () => {
  it('stops the head at ±1 rad under spinning impulses of 5 and 30 N·s', () => {
    for (const j of [5, 30]) {
      const r = spin(true, j);
      expect(r.finite).toBe(true);
      expect(r.maxTwist).toBeLessThan(1 + 0.5 * Math.PI / 180);
      expect(r.maxTwist).toBeGreaterThan(0.99); // it does reach the limit
    }
  });

  it('without it, the same slap spins the head more than a full turn (the paper\'s failure)', () => {
    expect(spin(false, 30).maxTwist).toBeGreaterThan(2 * Math.PI);
  });
});

describe('bone collisions', () => {
  const run = (collide: boolean) => {
    const scene = loadExample('colliding-bones');
    for (const b of scene.bones) b.collide = collide;
    const sim = simOf(scene);
    let deepest = 0, closest = Infinity;
    for (let i = 0; i < Math.round(10 / sim.dt); i++) {
      sim.step();
      deepest = Math.max(deepest, sim.maxPenetration());
      // closest approach of the two segments, sampled (independent of the solver's segment routine)
      const a0 = pos(sim, 'pin_a'), a1 = pos(sim, 'end_a'), b0 = pos(sim, 'pin_b'), b1 = pos(sim, 'end_b');
      for (let u = 0; u <= 20; u++) for (let v = 0; v <= 20; v++) {
        const p = a0.map((c, k) => c + (a1[k]! - c) * (u / 20)), q = b0.map((c, k) => c + (b1[k]! - c) * (v / 20));
        closest = Math.min(closest, Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!));
      }
    }
    return { deepest, closest };
  };

  it('two swinging bones never interpenetrate by more than 1 mm, and do touch', () => {
    const { deepest, closest } = run(true);
    expect(deepest).toBeLessThan(1e-3);
    expect(closest).toBeGreaterThan(0.1 - 2e-3); // radii 0.05 + 0.05; sampling error ≤ 1 mm
    expect(closest).toBeLessThan(0.1 + 0.01); // they came into contact
  });

  it('without collision they pass through each other (the paper\'s fig. 6)', () => {
    expect(run(false).closest).toBeLessThan(0.02);
  });

  it('the paper\'s minimum-distance workaround keeps the two free ends 0.3 m apart', () => {
    const sim = simOf(loadExample('colliding-bones-min-distance'));
    let closest = Infinity;
    for (let i = 0; i < Math.round(10 / sim.dt); i++) {
      sim.step();
      const a = pos(sim, 'end_a'), b = pos(sim, 'end_b');
      closest = Math.min(closest, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    }
    expect(closest).toBeGreaterThan(0.3 - 1e-6);
    expect(closest).toBeLessThan(0.31);
  });

  it('a bone dropped on the floor rests on it at its radius and stops sliding (friction)', () => {
    const scene: ParticleScene = {
      format: 'marionette-particles', version: 1, name: 'stick',
      settings: { dt: 1 / 120, iterations: 20, gravity: [0, -9.81, 0], damping: 0, friction: 0.5, floor: { height: 0, friction: 0.8 }, duration: 3 },
      particles: [{ name: 'a', position: [0, 0.5, 0], mass: 1 }, { name: 'b', position: [1, 0.6, 0], mass: 1 }],
      bones: [{ name: 'stick', head: 'a', tip: 'b', radius: 0.05, frame: null, attached: [], collide: true }],
      constraints: [], impulses: [],
    };
    const sim = simOf(scene);
    sim.applyImpulse('stick', [0.5, 0.55, 0], [0, 0, 3]); // 1.5 m/s sideways
    for (let i = 0; i < 360; i++) sim.step();
    const a = pos(sim, 'a'), b = pos(sim, 'b');
    expect(a[1]).toBeCloseTo(0.05, 4);
    expect(b[1]).toBeCloseTo(0.05, 4);
    const z = a[2];
    for (let i = 0; i < 60; i++) sim.step();
    expect(Math.abs(pos(sim, 'a')[2] - z)).toBeLessThan(1e-6); // stopped by friction
    expect(z).toBeGreaterThan(0); expect(z).toBeLessThan(0.6); // slid some, not forever (μ = 0.8: d = v²/2μg ≈ 0.14 m)
  });
});
