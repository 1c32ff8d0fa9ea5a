/**
 * The Rapier, Jolt, Marionette (rigid and articulated) and MuJoCo adapters build the file's scene: masses, start heights, no contacts across joints,
 * motors that hold the pose, and finite numbers after 60 steps. N = 2 keeps it to a few seconds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngine } from '../../../bench/engines';
import { loadJolt } from '../../../bench/joltEngine';
import { loadRapier } from '../../../bench/rapierEngine';
import { FALL_HEIGHT_M, loadRagdollFile, measureWorld } from '../../../bench/runBenchmark';
import type { BenchEngine, BenchWorld } from '../../../bench/engine';
import { buildBoxPile, buildRagdollScene, type BenchScene } from '../../../bench/scene';
import type { Quat } from '../../../shared/math/quat';
import type { Vec3 } from '../../../shared/math/vec3';

const file = loadRagdollFile();
const engines: Record<string, BenchEngine> = {};

beforeAll(async () => {
  engines.rapier = await loadRapier();
  engines.jolt = await loadJolt();
  engines.marionette = await loadEngine('marionette');
  engines.mujoco = await loadEngine('mujoco'); // the MJCF of shared/export/mjcf.ts
  engines.articulated = await loadEngine('articulated'); // the rig in an ArticulatedWorld
});

function pose(world: BenchWorld, body: number): { p: Vec3; q: Quat } {
  const p: Vec3 = [0, 0, 0], q: Quat = [0, 0, 0, 1];
  world.getPose(body, p, q);
  return { p, q };
}

function withWorld<T>(engine: string, scene: BenchScene, f: (w: BenchWorld) => T): T {
  const world = engines[engine]!.create(scene);
  try {
    return f(world);
  } finally {
    world.dispose();
  }
}

describe.each(['rapier', 'jolt', 'marionette', 'mujoco', 'articulated'])('%s adapter', (engine) => {
  it('builds the file: 22 bodies with the file masses, the head at its start height', () => {
    const scene = buildRagdollScene(file, 2, true);
    withWorld(engine, scene, (w) => {
      expect(scene.bodies).toHaveLength(22);
      scene.bodies.forEach((b, i) => {
        // Both engines store masses in 32-bit floats.
        expect(Math.abs(w.getMass(i) - b.mass) / b.mass).toBeLessThan(1e-5);
      });
      const headSpec = file.bodies.find((b) => b.name === file.headBody)!;
      const head = pose(w, scene.headBody!);
      expect(head.p[1]).toBeCloseTo(headSpec.position[1], 5);
      // Copy 1 is 5 m along x (cols = ceil(sqrt(2)) = 2).
      expect(pose(w, scene.headBody! + 11).p[0]).toBeCloseTo(headSpec.position[0] + 5, 5);
    });
  });

  it('reports contact for resting boxes but none between jointed bodies, even where they overlap', () => {
    // The query itself: two stacked boxes settle into contact.
    const stack = buildBoxPile(file, { nx: 1, nz: 1, layers: 2 });
    withWorld(engine, stack, (w) => {
      for (let k = 0; k < 60; k++) w.step();
      expect(w.inContact(0, 1)).toBe(true);
    });

    // Pelvis and torso capsules overlap by 3 cm at rest: they would touch if the joint did not filter them.
    const pelvis = file.bodies.find((b) => b.name === 'pelvis')!, torso = file.bodies.find((b) => b.name === 'torso')!;
    expect(torso.position[1] - torso.halfHeight - torso.radius).toBeLessThan(pelvis.position[1] + pelvis.radius);

    const scene = buildRagdollScene(file, 2, false);
    withWorld(engine, scene, (w) => {
      for (let k = 0; k < 30; k++) {
        w.step();
        for (const j of scene.joints) {
          if (w.inContact(j.bodyA, j.bodyB)) throw new Error(`${engine}: jointed bodies of ${j.name}#${j.copy} collide at step ${k + 1}`);
        }
      }
    });
  });

  it('60 steps give finite poses and joints that stay connected', () => {
    for (const motors of [true, false]) {
      const scene = buildRagdollScene(file, 2, motors);
      withWorld(engine, scene, (w) => {
        const m = measureWorld(w, scene, 10, 50, 60);
        expect(Number.isFinite(m.msPerStep)).toBe(true);
        expect(Number.isFinite(m.driftMeanM!)).toBe(true);
        expect(Number.isFinite(m.driftMaxM!)).toBe(true);
        // Standing the joints hold to 2 cm, limp and folding against the limits to 10 cm (a missing or
        // misplaced joint drifts by decimetres in 1 s). Solver accuracy itself is compared by the
        // benchmark and tested in tests/unit/physics.
        expect(m.driftMaxM!).toBeLessThan(motors ? 0.02 : 0.1);
        for (let i = 0; i < scene.bodies.length; i++) {
          const { p, q } = pose(w, i);
          if (![...p, ...q].every(Number.isFinite)) throw new Error(`${engine}: body ${i} is not finite after 60 steps`);
          expect(Math.hypot(...q)).toBeCloseTo(1, 4);
        }
      });
    }
  });
});

/** The peers' motor wiring (units, axes, targets) is this folder's own work; Marionette's motor semantics
 *  are tested with the physics core (tests/unit/physics) against the torque-limit cases of issue 3. */
describe.each(['rapier', 'jolt'])('%s motors', (engine) => {
  it('hold the head above the fall line after 1 s and at least 5 cm above the limp ragdoll', () => {
    const heads = [true, false].map((motors) => {
      const scene = buildRagdollScene(file, 2, motors);
      return withWorld(engine, scene, (w) => {
        for (let k = 0; k < 60; k++) w.step();
        return pose(w, scene.headBody!).p[1];
      });
    });
    expect(heads[0]!).toBeGreaterThan(FALL_HEIGHT_M);
    expect(heads[0]! - heads[1]!).toBeGreaterThan(0.05);
  });
});
