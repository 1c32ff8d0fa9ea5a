/** Creating a RigDocument for a creature and putting generated bodies into it. */
import { RIG_AXES, RIG_FORMAT, RIG_UNITS, RIG_VERSION, type Bone, type RigDocument, type RigSimulationSettings } from '../rig/schema';
import type { GeneratedRagdoll } from './generate';

/** Solver settings of a fresh rig: 60 Hz, 2 substeps, joint correction 'shake' (keeps a swinging limb's energy:
 *  docs/physics.md), a floor at y = 0 with μ = 1. */
export const DEFAULT_SIMULATION: RigSimulationSettings = {
  gravity: [0, -9.81, 0], dt: 1 / 60, substeps: 2, velocityIterations: 8, positionIterations: 2, jointCorrection: 'shake',
  ground: { height: 0, friction: 1, restitution: 0 },
};

/** A rig with the creature's skeleton and nothing else yet (the editor's "empty rig"; it validates once
 *  it has a body). */
export function newRigDocument(name: string, bones: readonly Bone[], simulation: RigSimulationSettings = DEFAULT_SIMULATION): RigDocument {
  return {
    format: RIG_FORMAT, version: RIG_VERSION, name,
    units: RIG_UNITS, axes: RIG_AXES, solver: 'rigid',
    skeleton: { bones: bones.map((b) => structuredCloneBone(b)) },
    bodies: [], joints: [], controllers: [],
    simulation: { ...simulation, gravity: [...simulation.gravity], ground: simulation.ground ? { ...simulation.ground } : null },
  };
}

/** The generated bodies and joints replace the rig's (controllers naming removed joints or bodies go too,
 *  as they could no longer run); the floor moves to the lowest shape when the creature does not stand on
 *  y = 0. */
export function withGeneratedRagdoll(rig: RigDocument, generated: Pick<GeneratedRagdoll, 'bodies' | 'joints'> & { summary?: { lowest: number; height: number } }): RigDocument {
  const bodies = new Set(generated.bodies.map((b) => b.name)), joints = new Set(generated.joints.map((j) => j.name));
  // The floor goes under the creature's lowest shape, when the file put it elsewhere (a rest mesh that
  // reaches below its origin would start inside the floor and be thrown up).
  const s = generated.summary, ground = rig.simulation.ground;
  const simulation = s && ground && Math.abs(s.lowest - ground.height) > 0.01 * s.height ? { ...rig.simulation, ground: { ...ground, height: s.lowest } } : rig.simulation;
  return {
    ...rig,
    simulation,
    bodies: generated.bodies,
    joints: generated.joints,
    controllers: rig.controllers.filter((c) => bodies.has(c.root) && bodies.has(c.effector.body) && c.chain.every((j) => joints.has(j))),
  };
}

const structuredCloneBone = (b: Bone): Bone => ({
  name: b.name, parent: b.parent,
  rest: { translation: [...b.rest.translation], rotation: [...b.rest.rotation], scale: [...b.rest.scale] },
});
