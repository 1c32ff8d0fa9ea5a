/**
 * The articulated (reduced-coordinate) solver as a benchmark engine: the scene becomes a rig (sceneRig.ts,
 * the same rig MuJoCo gets as MJCF) and runs in an ArticulatedWorld (shared/physics/articulated), the back
 * end `"solver": "articulated"` selects. Every ragdoll is one tree with a free root; the ground is the
 * scene's static box, met through the body–body contact rows. Its joints cannot drift: the benchmark's
 * drift column measures rounding. Run on the one-ragdoll scenes only: its joint-space rows (solved on their
 * Delassus matrix, a dense matrix per creature) cost more per step than the rigid solver's.
 */
import type { Quat } from '../shared/math/quat';
import type { Vec3 } from '../shared/math/vec3';
import { ArticulatedWorld } from '../shared/physics/articulated/world';
import type { BodyHandle } from '../shared/physics/types';
import type { BenchEngine, BenchWorld } from './engine';
import type { BenchScene } from './scene';
import { benchSceneRig } from './sceneRig';

/** The largest ragdoll copy count the articulated engine runs in `npm run bench`: one ragdoll (×16 took
 *  573 ms/step here, six minutes per motor mode — docs/articulated.md "Bench"). */
export const ARTICULATED_MAX_COPIES = 1;

export const articulatedEngine: BenchEngine = {
  name: 'articulated',
  create: (scene) => createArticulatedWorld(scene),
  supports: (scene) => scene.name === 'ragdoll11' && scene.n <= ARTICULATED_MAX_COPIES,
};

function createArticulatedWorld(scene: BenchScene): BenchWorld {
  const world = new ArticulatedWorld(benchSceneRig(scene, 1));
  // The rig's bodies: the ground first, then the scene's in order (handles are rig index + 1).
  const handle = (i: number) => (i + 2) as BodyHandle;
  return {
    engine: 'articulated',
    settings: `marionette ArticulatedWorld (Featherstone ABA, joint coordinates): 1 substep, joint-space motor/limit/contact rows on their Delassus matrix, Gauss-Seidel sweeps + Newton steps (≤ ${100} sweeps, tolerance 1e-10), drift–kick–drift (Störmer–Verlet); motors 'pd'`,
    step: () => world.step(scene.dt),
    getPose(i: number, outPosition: Vec3, outRotation: Quat) {
      world.getPosition(handle(i), outPosition);
      world.getRotation(handle(i), outRotation);
    },
    getMass: (i: number) => world.getMassProperties(handle(i)).mass,
    inContact(i: number, j: number) {
      const a = handle(i), b = handle(j);
      return world.getContacts().some((c) => (c.bodyA === a && c.bodyB === b) || (c.bodyA === b && c.bodyB === a));
    },
    rowIterations() {
      const s = world.getStats();
      return s.rows * s.velocityIterations * s.substeps;
    },
    dispose: () => undefined,
  };
}
