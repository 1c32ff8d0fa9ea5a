/**
 * Builds the Armed Mine straight on a physics World from its RigDocument, with the cyclic-path controller
 * bound to the joint handles — the scenario harness. Bodies start at the rest pose (bone world · offset),
 * joints and motors as the document says. Metrics are measured here from the World's own read API.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { World } from '../../../shared/physics/world';
import type { BodyHandle, JointHandle, ShapeDesc } from '../../../shared/physics/types';
import type { CollisionBackend } from '../../../shared/physics/contacts/collisionBackend';
import { collide, collideGround, raycastGround, raycastShape, SweepAndPrune } from '../../../shared/physics/collision';

/**
 * The collision module wired into the World. (World's default backend is still the empty placeholder while
 * the physics helper connects them; when it does, this becomes the default and can go.)
 */
const collisionBackend: CollisionBackend = {
  collide, collideGround, raycastShape, raycastGround,
  createBroadPhase: () => {
    const sap = new SweepAndPrune();
    return { update: (shapes, count, exclusion) => { sap.update(shapes, count, exclusion); return sap; } };
  },
};
import { loadRig, type RigDocument } from '../../../shared/rig';
import { bodyRestWorld, boneRestWorld } from '../../../shared/rig/restPose';
import { CyclicPathController } from '../../../shared/gait/controller';
import { chainFromRig, paramsFromRig } from '../../../shared/gait/rigChain';
import type { Vec3 } from '../../../shared/math/vec3';

export const RIG_PATH = fileURLToPath(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url));
export const loadArmedMine = (): RigDocument => loadRig(JSON.parse(readFileSync(RIG_PATH, 'utf8')), { source: RIG_PATH });

export interface MineWorld {
  rig: RigDocument;
  world: World;
  bodies: Record<string, BodyHandle>;
  joints: Record<string, JointHandle>;
  controller: CyclicPathController;
  dt: number;
  /** Controller, then physics: one frame. */
  step(): void;
}

export function buildMineWorld(rig: RigDocument): MineWorld {
  const sim = rig.simulation;
  const world = new World({
    gravity: sim.gravity, substeps: sim.substeps, velocityIterations: sim.velocityIterations, positionIterations: sim.positionIterations,
    groundHeight: sim.ground ? sim.ground.height : null,
    groundMaterial: sim.ground ? { friction: sim.ground.friction, restitution: sim.ground.restitution } : undefined,
  }, collisionBackend);
  const rest = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
  const bodies: Record<string, BodyHandle> = {};
  for (const b of rig.bodies) {
    const t = rest.get(b.name)!;
    bodies[b.name] = world.addBody({
      name: b.name, type: b.type, position: t.position, rotation: t.rotation, shapes: b.shapes as ShapeDesc[],
      mass: b.mass ?? undefined, density: b.density ?? undefined, material: b.material,
      linearDamping: b.linearDamping, angularDamping: b.angularDamping, collisionGroup: b.collisionGroup, collisionMask: b.collisionMask,
    });
  }
  const joints: Record<string, JointHandle> = {};
  for (const j of rig.joints) {
    const base = { name: j.name, bodyA: bodies[j.bodyA]!, bodyB: bodies[j.bodyB]!, frameA: j.frameA, frameB: j.frameB, collideConnected: j.collideConnected };
    if (j.type === 'ball') {
      joints[j.name] = world.addJoint({ ...base, type: 'ball', twistLimit: j.twistLimit ?? undefined, swingLimit: j.swingLimit ?? undefined,
        motor: { mode: j.motor.mode, maxTorque: j.motor.maxTorque, errorReduction: j.motor.errorReduction, stiffness: j.motor.stiffness, damping: j.motor.damping, frictionTorque: j.motor.frictionTorque } });
    } else if (j.type === 'hinge') {
      joints[j.name] = world.addJoint({ ...base, type: 'hinge', limit: j.limit ?? undefined,
        motor: { mode: j.motor.mode, maxTorque: j.motor.maxTorque, errorReduction: j.motor.errorReduction, stiffness: j.motor.stiffness, damping: j.motor.damping, frictionTorque: j.motor.frictionTorque } });
    } else throw new Error(`scenario harness: joint type ${j.type} not used by the Armed Mine`);
  }
  const c = rig.controllers[0]!;
  const controller = new CyclicPathController(paramsFromRig(c), { root: bodies[c.root]!, joints: c.chain.map((n) => joints[n]!), chain: chainFromRig(rig, c) });
  const dt = sim.dt;
  return { rig, world, bodies, joints, controller, dt, step() { controller.step(world, dt); world.step(dt); } };
}

/** Horizontal distance (m) from the mine's body to a point. */
export function horizontalDistance(m: MineWorld, p: readonly number[]): number {
  const b = m.world.getPosition(m.bodies.body!);
  return Math.hypot(b[0] - p[0]!, b[2] - p[2]!);
}

/** Does the hand touch the floor (a ground contact on the hand body)? */
export function handOnFloor(m: MineWorld): boolean {
  const hand = m.bodies.hand!;
  return m.world.getContacts().some((c) => (c.bodyA === hand && c.bodyB === null) || (c.bodyB === hand && c.bodyA === null));
}

export type { Vec3 };
