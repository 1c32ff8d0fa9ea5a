/**
 * Marionette adapter for the benchmark scenes, written against the PhysicsWorld contract only
 * (shared/physics/types.ts), so it runs wherever the world runs (Node, a worker, the renderer).
 *
 * The world is used at its default settings; the ground is the scene's static box (not the world's
 * built-in plane) so all three engines collide against the same shape. Motors are 'pd' drives with the
 * file's stiffness/damping/maxTorque, target = identity (the rest pose). Jointed pairs do not collide:
 * that is the world's default (collideConnected = false).
 */
import type { Quat } from '../shared/math/quat';
import type { Vec3 } from '../shared/math/vec3';
import type { BodyHandle, MotorDesc, PhysicsWorld, WorldSettings } from '../shared/physics/types';
import { frameRotation, type BenchEngine, type BenchWorld } from './engine';
import type { BenchScene, SceneShape } from './scene';

/** How to make a world: `(settings) => new World(settings)`. */
export type WorldFactory = (settings: Partial<WorldSettings>) => PhysicsWorld;

export function marionetteEngine(makeWorld: WorldFactory): BenchEngine {
  return { name: 'marionette', create: (scene) => createMarionetteWorld(makeWorld, scene) };
}

const shapeDesc = (shape: SceneShape) =>
  shape.type === 'box'
    ? { type: 'box' as const, halfExtents: shape.halfExtents }
    : { type: 'capsule' as const, radius: shape.radius, halfHeight: shape.halfHeight, axis: shape.axis };

export function createMarionetteWorld(makeWorld: WorldFactory, scene: BenchScene): BenchWorld {
  const world = makeWorld({ gravity: scene.gravity, groundHeight: null });
  const s = world.settings;
  const settings =
    `marionette World: defaults — substeps=${s.substeps}, velocityIterations=${s.velocityIterations}, ` +
    `positionIterations=${s.positionIterations}, jointErrorReduction=${s.jointErrorReduction}; no sleeping; motors 'pd' (N·m/rad)`;
  const material = { friction: scene.material.friction, restitution: scene.material.restitution };

  world.addBody({
    name: 'ground',
    type: 'static',
    position: scene.ground.position,
    shapes: [{ type: 'box', halfExtents: scene.ground.halfExtents }],
    material,
  });

  const handles: BodyHandle[] = [];
  for (const body of scene.bodies) {
    const h = world.addBody({
      name: `${body.name}#${body.copy}`,
      type: 'dynamic',
      position: body.position,
      shapes: [shapeDesc(body.shape)],
      mass: body.mass,
      material,
      linearDamping: scene.material.linearDamping,
      angularDamping: scene.material.angularDamping,
    });
    handles.push(h);
  }

  for (const joint of scene.joints) {
    const motor: MotorDesc | undefined = joint.motor
      ? { mode: 'pd', stiffness: joint.motor.stiffness, damping: joint.motor.damping, maxTorque: joint.motor.maxTorque }
      : undefined;
    // Identity start orientation: the same frame rotation on both bodies puts the rest pose at identity.
    const frame = joint.type === 'ball' ? frameRotation(joint.twistAxis, joint.planeAxis) : frameRotation(joint.axis, joint.normalAxis);
    const base = {
      name: `${joint.name}#${joint.copy}`,
      bodyA: handles[joint.bodyA]!,
      bodyB: handles[joint.bodyB]!,
      frameA: { position: joint.localAnchorA, rotation: frame },
      frameB: { position: joint.localAnchorB, rotation: frame },
      ...(motor ? { motor } : {}),
    };
    if (joint.type === 'ball') {
      world.addJoint({ ...base, type: 'ball', twistLimit: joint.twistLimit, swingLimit: [joint.swingLimitY, joint.swingLimitZ] });
    } else {
      world.addJoint({ ...base, type: 'hinge', limit: joint.limit });
    }
  }

  return {
    engine: 'marionette',
    settings,
    step: () => world.step(scene.dt),
    getPose(i: number, outPosition: Vec3, outRotation: Quat) {
      world.getPosition(handles[i]!, outPosition);
      world.getRotation(handles[i]!, outRotation);
    },
    getMass: (i: number) => world.getMassProperties(handles[i]!).mass,
    inContact(i: number, j: number) {
      const a = handles[i]!, b = handles[j]!;
      return world.getContacts().some((c) => (c.bodyA === a && c.bodyB === b) || (c.bodyA === b && c.bodyB === a));
    },
    rowIterations() {
      const stats = world.getStats();
      return stats.rows * stats.velocityIterations * stats.substeps;
    },
    dispose: () => undefined,
  };
}
