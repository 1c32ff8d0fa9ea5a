/**
 * Rapier (@dimforge/rapier3d-compat) adapter for the benchmark scenes.
 *
 * Default integration parameters, sleeping off. Three things differ from the naive wiring:
 * - Ball joints: `createImpulseJoint(JointData.spherical(...))` hands back a joint object without
 *   per-axis motor methods, so limits and motors go through the raw joint set
 *   (`RawImpulseJointSet.jointSetLimits / jointConfigureMotorModel / jointConfigureMotor /
 *   jointSetMotorMaxForce`) on the angular axes AngX (twist), AngY, AngZ of the joint frame.
 * - Motor units: Rapier's default MotorModel is AccelerationBased — stiffness and damping are multiplied
 *   by the constraint's effective mass, so they are 1/s² and 1/s, not N·m/rad and N·m·s/rad. We select
 *   MotorModel.ForceBased, for which Rapier solves the row as a soft constraint with
 *   erp/Δt = k/(Δt·k + c) and cfm = 1/(Δt²·k + Δt·c): the implicit spring τ = k·ε − c·ω with k in
 *   N·m/rad and c in N·m·s/rad, i.e. the file's gains unchanged. The clamp `max_force` is a torque in
 *   N·m (Rapier turns it into the impulse bound max_force·Δt). The angle error per axis is
 *   2·asin(q_axis) of the joint frame's relative rotation, a true angle in radians.
 * - Contacts between jointed bodies stay on unless the joint says otherwise: `setContactsEnabled(false)`.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import type { Quat } from '../shared/math/quat';
import type { Vec3 } from '../shared/math/vec3';
import { frameRotation, type BenchEngine, type BenchWorld } from './engine';
import type { BenchScene, SceneShape } from './scene';

let initialised: Promise<void> | null = null;

/** Load Rapier's WASM once per process. */
export async function loadRapier(): Promise<BenchEngine> {
  initialised ??= RAPIER.init();
  await initialised;
  return { name: 'rapier', create: createRapierWorld };
}

const rot = (q: Quat) => ({ x: q[0], y: q[1], z: q[2], w: q[3] });

/** Rotation taking the capsule's native +Y axis to the requested body-local axis. */
function capsuleRotation(axis: 'x' | 'y' | 'z'): Quat {
  const h = Math.SQRT1_2;
  if (axis === 'x') return [0, 0, -h, h]; // −90° about z: +y → +x
  if (axis === 'z') return [h, 0, 0, h]; // +90° about x: +y → +z
  return [0, 0, 0, 1];
}

function colliderDesc(shape: SceneShape): RAPIER.ColliderDesc {
  if (shape.type === 'box') return RAPIER.ColliderDesc.cuboid(shape.halfExtents[0], shape.halfExtents[1], shape.halfExtents[2]);
  return RAPIER.ColliderDesc.capsule(shape.halfHeight, shape.radius).setRotation(rot(capsuleRotation(shape.axis)));
}

function createRapierWorld(scene: BenchScene): BenchWorld {
  const [gx, gy, gz] = scene.gravity;
  const world = new RAPIER.World({ x: gx, y: gy, z: gz });
  world.timestep = scene.dt;
  const p = world.integrationParameters;
  const settings =
    `rapier3d-compat ${RAPIER.version()}: defaults — numSolverIterations=${p.numSolverIterations}, ` +
    `numInternalPgsIterations=${p.numInternalPgsIterations}, contact_erp=${p.contact_erp.toFixed(3)}, ` +
    `allowedLinearError=${+p.normalizedAllowedLinearError.toPrecision(4)}, predictionDistance=${+p.normalizedPredictionDistance.toPrecision(4)}; ` +
    `sleeping off; motors MotorModel.ForceBased (N·m/rad)`;

  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(...scene.ground.position));
  world.createCollider(
    RAPIER.ColliderDesc.cuboid(...scene.ground.halfExtents).setFriction(scene.material.friction).setRestitution(scene.material.restitution),
    ground,
  );

  const bodies: RAPIER.RigidBody[] = [];
  const colliders: RAPIER.Collider[] = [];
  for (const body of scene.bodies) {
    const rb = world.createRigidBody(
      RAPIER.RigidBodyDesc.dynamic()
        .setTranslation(...body.position)
        .setCanSleep(false)
        .setLinearDamping(scene.material.linearDamping)
        .setAngularDamping(scene.material.angularDamping),
    );
    // setMass: Rapier scales the shape's own (solid) inertia to this mass, as the scene file asks.
    const desc = colliderDesc(body.shape).setMass(body.mass).setFriction(scene.material.friction).setRestitution(scene.material.restitution);
    colliders.push(world.createCollider(desc, rb));
    bodies.push(rb);
  }

  const raw = world.impulseJoints.raw;
  const { AngX, AngY, AngZ } = RAPIER.JointAxis;
  for (const joint of scene.joints) {
    const a = bodies[joint.bodyA]!, b = bodies[joint.bodyB]!;
    const la = { x: joint.localAnchorA[0], y: joint.localAnchorA[1], z: joint.localAnchorA[2] };
    const lb = { x: joint.localAnchorB[0], y: joint.localAnchorB[1], z: joint.localAnchorB[2] };
    if (joint.type === 'ball') {
      const ball = world.createImpulseJoint(RAPIER.JointData.spherical(la, lb), a, b, true);
      const handle = ball.handle;
      // Bodies start with identity orientation: the same frame rotation on both sides makes the rest
      // pose the identity relative rotation, with frame X = twist axis and frame Y = plane axis.
      const frame = frameRotation(joint.twistAxis, joint.planeAxis);
      ball.setLocalFrame1(la, rot(frame));
      ball.setLocalFrame2(lb, rot(frame));
      raw.jointSetContactsEnabled(handle, false);
      raw.jointSetLimits(handle, AngX as never, joint.twistLimit[0], joint.twistLimit[1]);
      raw.jointSetLimits(handle, AngY as never, -joint.swingLimitY, joint.swingLimitY);
      raw.jointSetLimits(handle, AngZ as never, -joint.swingLimitZ, joint.swingLimitZ);
      if (joint.motor) {
        for (const axis of [AngX, AngY, AngZ]) {
          raw.jointConfigureMotorModel(handle, axis as never, RAPIER.MotorModel.ForceBased as never);
          raw.jointConfigureMotor(handle, axis as never, 0, 0, joint.motor.stiffness, joint.motor.damping);
          raw.jointSetMotorMaxForce(handle, axis as never, joint.motor.maxTorque);
        }
      }
    } else {
      const axis = { x: joint.axis[0], y: joint.axis[1], z: joint.axis[2] };
      const hinge = world.createImpulseJoint(RAPIER.JointData.revolute(la, lb, axis), a, b, true) as RAPIER.RevoluteImpulseJoint;
      hinge.setContactsEnabled(false);
      hinge.setLimits(joint.limit[0], joint.limit[1]);
      if (joint.motor) {
        hinge.configureMotorModel(RAPIER.MotorModel.ForceBased);
        hinge.configureMotor(0, 0, joint.motor.stiffness, joint.motor.damping);
        hinge.setMotorMaxForce(joint.motor.maxTorque);
      }
    }
  }

  return {
    engine: 'rapier',
    settings,
    step: () => world.step(),
    getPose(i: number, outPosition: Vec3, outRotation: Quat) {
      const rb = bodies[i]!;
      const t = rb.translation();
      const r = rb.rotation();
      outPosition[0] = t.x; outPosition[1] = t.y; outPosition[2] = t.z;
      outRotation[0] = r.x; outRotation[1] = r.y; outRotation[2] = r.z; outRotation[3] = r.w;
    },
    getMass: (i: number) => bodies[i]!.mass(),
    inContact(i: number, j: number) {
      let touching = false;
      // Any contact point counts, including Rapier's speculative ones (within its 2 cm prediction
      // distance): a pair whose contacts are disabled gets no points at all.
      world.contactPair(colliders[i]!, colliders[j]!, (manifold) => {
        if (manifold.numContacts() > 0) touching = true;
      });
      return touching;
    },
    rowIterations: () => null,
    dispose: () => world.free(),
  };
}
