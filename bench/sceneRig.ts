/**
 * A benchmark scene as a rig document, so an engine that reads rigs through an exporter (MuJoCo, through
 * shared/export/mjcf.ts) builds the same bodies and joints as the adapters that read the scene directly.
 * Every body is a root bone at its rest position (identity orientation, as the scene says); the ground is a
 * static box body; motors are 'pd' toward the rest pose with the file's gains, or off.
 */
import type { RigDocument } from '../shared/rig/schema';
import { frameRotation } from './engine';
import type { BenchScene, SceneShape } from './scene';

export const sceneBodyName = (name: string, copy: number) => `${name}#${copy}`;
export const BENCH_GROUND = 'ground';

const identity = [0, 0, 0, 1] as [number, number, number, number];

const shape = (s: SceneShape) => (s.type === 'box'
  ? { type: 'box' as const, position: [0, 0, 0] as [number, number, number], rotation: identity, halfExtents: s.halfExtents }
  : { type: 'capsule' as const, position: [0, 0, 0] as [number, number, number], rotation: identity, radius: s.radius, halfHeight: s.halfHeight, axis: s.axis });

/** `substeps`: solver steps per scene step (an exporter's timestep is dt / substeps). */
export function benchSceneRig(scene: BenchScene, substeps = 1): RigDocument {
  const material = { friction: scene.material.friction, restitution: scene.material.restitution };
  const body = (name: string, type: 'dynamic' | 'static', s: SceneShape, mass: number | null) => ({
    name, bone: name, type, offset: { position: [0, 0, 0] as [number, number, number], rotation: identity }, shapes: [shape(s)],
    mass, density: mass === null ? 1000 : null, material,
    linearDamping: scene.material.linearDamping, angularDamping: scene.material.angularDamping, collisionGroup: 1, collisionMask: 0xffffffff,
  });
  const names = scene.bodies.map((b) => sceneBodyName(b.name, b.copy));
  return {
    format: 'marionette-rig', version: 1, name: `${scene.name}x${scene.n}`,
    units: { length: 'm', mass: 'kg', time: 's', angle: 'rad', torque: 'N·m' },
    axes: { up: '+Y', forward: '+Z', handedness: 'right' },
    solver: 'rigid',
    skeleton: { bones: [
      { name: BENCH_GROUND, parent: null, rest: { translation: scene.ground.position, rotation: identity, scale: [1, 1, 1] } },
      ...scene.bodies.map((b, i) => ({ name: names[i]!, parent: null, rest: { translation: b.position, rotation: identity, scale: [1, 1, 1] as [number, number, number] } })),
    ] },
    bodies: [
      body(BENCH_GROUND, 'static', { type: 'box', halfExtents: scene.ground.halfExtents }, null),
      ...scene.bodies.map((b, i) => body(names[i]!, 'dynamic', b.shape, b.mass)),
    ],
    joints: scene.joints.map((j) => {
      const frame = j.type === 'ball' ? frameRotation(j.twistAxis, j.planeAxis) : frameRotation(j.axis, j.normalAxis);
      const motor = j.motor
        ? { mode: 'pd' as const, target: { source: 'rest' as const }, maxTorque: j.motor.maxTorque, errorReduction: 0.5, stiffness: j.motor.stiffness, damping: j.motor.damping, frictionTorque: 0 }
        : { mode: 'off' as const, target: { source: 'rest' as const }, maxTorque: 0, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0 };
      const base = {
        name: sceneBodyName(j.name, j.copy), bodyA: names[j.bodyA]!, bodyB: names[j.bodyB]!, collideConnected: false,
        frameA: { position: j.localAnchorA, rotation: frame }, frameB: { position: j.localAnchorB, rotation: frame }, motor,
      };
      return j.type === 'ball'
        ? { ...base, type: 'ball' as const, twistLimit: j.twistLimit, swingLimit: [j.swingLimitY, j.swingLimitZ] as [number, number] }
        : { ...base, type: 'hinge' as const, limit: j.limit };
    }),
    controllers: [],
    simulation: { gravity: scene.gravity, dt: scene.dt, substeps, velocityIterations: 8, positionIterations: 2, ground: null },
  };
}
