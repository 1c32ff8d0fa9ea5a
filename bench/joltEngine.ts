/**
 * Jolt (jolt-physics, single-threaded WASM build `jolt-physics/wasm-compat`) adapter for the benchmark
 * scenes.
 *
 * Default PhysicsSettings (velocity/position steps, Baumgarte), one collision step per Step, sleeping off.
 * Wiring notes:
 * - Jointed pairs: Jolt collides every pair unless a group filter says otherwise. Each ragdoll copy is
 *   one CollisionGroup (group id = copy) sharing a GroupFilterTable whose sub-groups are the body indices
 *   within a copy; DisableCollision(parent, child) for each joint. Other pairs in a copy still collide.
 * - SwingTwistConstraint: the swing limits are named after the axis they lie around, not the plane they
 *   open in. SwingTwistConstraint::UpdateLimits passes (−mPlaneHalfConeAngle, +mPlaneHalfConeAngle) as the
 *   limits of rotation about frame Y (the plane axis) and mNormalHalfConeAngle as those about frame Z
 *   (the normal axis). So the file's swingLimitY → mPlaneHalfConeAngle, swingLimitZ → mNormalHalfConeAngle.
 * - Motors: MotorSettings with SpringSettings in ESpringMode_StiffnessAndDamping — k in N·m/rad and c in
 *   N·m·s/rad, Jolt's own units — and torque limits ±maxTorque; position mode toward the identity
 *   orientation (ball) or angle 0 (hinge).
 */
import initJolt from 'jolt-physics/wasm-compat';
import type { Quat } from '../shared/math/quat';
import type { Vec3 } from '../shared/math/vec3';
import type { BenchEngine, BenchWorld } from './engine';
import type { BenchScene, SceneShape } from './scene';

type JoltModule = Awaited<ReturnType<typeof initJolt>>;

let loading: Promise<JoltModule> | null = null;

const LAYER_STATIC = 0;
const LAYER_MOVING = 1;

/** Load Jolt's WASM once per process. */
export async function loadJolt(): Promise<BenchEngine> {
  loading ??= initJolt();
  const Jolt = await loading;
  return { name: 'jolt', create: (scene) => createJoltWorld(Jolt, scene) };
}

function createJoltWorld(Jolt: JoltModule, scene: BenchScene): BenchWorld {
  const temporaries: unknown[] = [];
  const keep = <T>(obj: T): T => {
    temporaries.push(obj);
    return obj;
  };
  const v3 = (v: readonly number[]) => keep(new Jolt.Vec3(v[0]!, v[1]!, v[2]!));
  const r3 = (v: readonly number[]) => keep(new Jolt.RVec3(v[0]!, v[1]!, v[2]!));
  const quat = (q: readonly number[]) => keep(new Jolt.Quat(q[0]!, q[1]!, q[2]!, q[3]!));

  const objectFilter = new Jolt.ObjectLayerPairFilterTable(2);
  objectFilter.EnableCollision(LAYER_STATIC, LAYER_MOVING);
  objectFilter.EnableCollision(LAYER_MOVING, LAYER_MOVING);
  const bpInterface = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_STATIC, keep(new Jolt.BroadPhaseLayer(0)));
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, keep(new Jolt.BroadPhaseLayer(1)));
  const joltSettings = new Jolt.JoltSettings();
  // Jolt.js defaults for bodies, body pairs and contact constraints (10240 / 65536 / 10240) cover the
  // largest scene (1409 bodies); more contact constraints would overflow the fixed 10 MB temp allocator.
  joltSettings.mMaxBodies = Math.max(joltSettings.mMaxBodies, scene.bodies.length + 1);
  joltSettings.mObjectLayerPairFilter = objectFilter;
  joltSettings.mBroadPhaseLayerInterface = bpInterface;
  joltSettings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, objectFilter, 2);
  const jolt = new Jolt.JoltInterface(joltSettings);
  Jolt.destroy(joltSettings);

  const system = jolt.GetPhysicsSystem();
  system.SetGravity(v3(scene.gravity));
  const ps = system.GetPhysicsSettings();
  const settings =
    `jolt-physics 1.1 (wasm-compat, single thread): defaults — numVelocitySteps=${ps.mNumVelocitySteps}, ` +
    `numPositionSteps=${ps.mNumPositionSteps}, baumgarte=${ps.mBaumgarte.toFixed(3)}, ` +
    `speculativeContactDistance=${+ps.mSpeculativeContactDistance.toPrecision(4)}, penetrationSlop=${+ps.mPenetrationSlop.toPrecision(4)}; ` +
    `1 collision step; sleeping off; motors StiffnessAndDamping (N·m/rad)`;
  const bi = system.GetBodyInterface();

  const groundSettings = new Jolt.BodyCreationSettings(
    new Jolt.BoxShapeSettings(v3(scene.ground.halfExtents), 0.05).Create().Get(),
    r3(scene.ground.position),
    quat([0, 0, 0, 1]),
    Jolt.EMotionType_Static,
    LAYER_STATIC,
  );
  groundSettings.mFriction = scene.material.friction;
  groundSettings.mRestitution = scene.material.restitution;
  const ground = bi.CreateBody(groundSettings);
  bi.AddBody(ground.GetID(), Jolt.EActivation_DontActivate);
  Jolt.destroy(groundSettings);

  // One group filter per scene; sub-group = body index within its copy, group = copy.
  const perCopy = scene.n > 0 ? scene.bodies.length / scene.n : scene.bodies.length;
  const groupFilter = scene.joints.length > 0 ? new Jolt.GroupFilterTable(perCopy) : null;
  if (groupFilter) {
    for (const joint of scene.joints) {
      if (joint.copy !== 0) continue; // the table is shared: pairs are per copy
      groupFilter.DisableCollision(joint.bodyA % perCopy, joint.bodyB % perCopy);
    }
  }

  const shapeOf = (shape: SceneShape) => {
    // Shape settings are reference counted by the shapes made from them: never destroyed by hand.
    if (shape.type === 'box') return new Jolt.BoxShapeSettings(v3(shape.halfExtents)).Create().Get();
    const capsule = new Jolt.CapsuleShapeSettings(shape.halfHeight, shape.radius);
    if (shape.axis === 'y') return capsule.Create().Get();
    const h = Math.SQRT1_2;
    const r = shape.axis === 'x' ? [0, 0, -h, h] : [h, 0, 0, h]; // native +y → +x (or +z)
    return new Jolt.RotatedTranslatedShapeSettings(v3([0, 0, 0]), quat(r), capsule).Create().Get();
  };

  const bodies: InstanceType<JoltModule['Body']>[] = [];
  scene.bodies.forEach((body, i) => {
    const bcs = new Jolt.BodyCreationSettings(shapeOf(body.shape), r3(body.position), quat([0, 0, 0, 1]), Jolt.EMotionType_Dynamic, LAYER_MOVING);
    // Mass given, inertia from the shape scaled to that mass (the file's convention).
    bcs.mOverrideMassProperties = Jolt.EOverrideMassProperties_CalculateInertia;
    bcs.mMassPropertiesOverride.mMass = body.mass;
    bcs.mFriction = scene.material.friction;
    bcs.mRestitution = scene.material.restitution;
    bcs.mLinearDamping = scene.material.linearDamping;
    bcs.mAngularDamping = scene.material.angularDamping;
    bcs.mAllowSleeping = false;
    if (groupFilter) bcs.mCollisionGroup = keep(new Jolt.CollisionGroup(groupFilter, body.copy, i % perCopy));
    const b = bi.CreateBody(bcs);
    Jolt.destroy(bcs);
    bi.AddBody(b.GetID(), Jolt.EActivation_Activate);
    bodies.push(b);
  });

  const motorSettings = (target: InstanceType<JoltModule['MotorSettings']>, motor: { stiffness: number; damping: number; maxTorque: number }) => {
    const spring = target.mSpringSettings;
    spring.mMode = Jolt.ESpringMode_StiffnessAndDamping;
    spring.mStiffness = motor.stiffness;
    spring.mDamping = motor.damping;
    target.mMinTorqueLimit = -motor.maxTorque;
    target.mMaxTorqueLimit = motor.maxTorque;
  };

  for (const joint of scene.joints) {
    const a = bodies[joint.bodyA]!, b = bodies[joint.bodyB]!;
    if (joint.type === 'ball') {
      const cs = new Jolt.SwingTwistConstraintSettings();
      cs.mSpace = Jolt.EConstraintSpace_WorldSpace;
      cs.mPosition1 = r3(joint.anchor);
      cs.mPosition2 = r3(joint.anchor);
      cs.mTwistAxis1 = v3(joint.twistAxis);
      cs.mTwistAxis2 = v3(joint.twistAxis);
      cs.mPlaneAxis1 = v3(joint.planeAxis);
      cs.mPlaneAxis2 = v3(joint.planeAxis);
      cs.mTwistMinAngle = joint.twistLimit[0];
      cs.mTwistMaxAngle = joint.twistLimit[1];
      cs.mPlaneHalfConeAngle = joint.swingLimitY; // rotation about frame Y (see header)
      cs.mNormalHalfConeAngle = joint.swingLimitZ; // rotation about frame Z
      if (joint.motor) {
        motorSettings(cs.mSwingMotorSettings, joint.motor);
        motorSettings(cs.mTwistMotorSettings, joint.motor);
      }
      const c = Jolt.castObject(cs.Create(a, b), Jolt.SwingTwistConstraint);
      Jolt.destroy(cs);
      if (joint.motor) {
        c.SetSwingMotorState(Jolt.EMotorState_Position);
        c.SetTwistMotorState(Jolt.EMotorState_Position);
        c.SetTargetOrientationCS(quat([0, 0, 0, 1]));
      }
      system.AddConstraint(c);
    } else {
      const cs = new Jolt.HingeConstraintSettings();
      cs.mSpace = Jolt.EConstraintSpace_WorldSpace;
      cs.mPoint1 = r3(joint.anchor);
      cs.mPoint2 = r3(joint.anchor);
      cs.mHingeAxis1 = v3(joint.axis);
      cs.mHingeAxis2 = v3(joint.axis);
      cs.mNormalAxis1 = v3(joint.normalAxis);
      cs.mNormalAxis2 = v3(joint.normalAxis);
      cs.mLimitsMin = joint.limit[0];
      cs.mLimitsMax = joint.limit[1];
      if (joint.motor) motorSettings(cs.mMotorSettings, joint.motor);
      const c = Jolt.castObject(cs.Create(a, b), Jolt.HingeConstraint);
      Jolt.destroy(cs);
      if (joint.motor) {
        c.SetMotorState(Jolt.EMotorState_Position);
        c.SetTargetAngle(0);
      }
      system.AddConstraint(c);
    }
  }
  system.OptimizeBroadPhase();

  return {
    engine: 'jolt',
    settings,
    step: () => jolt.Step(scene.dt, 1),
    getPose(i: number, outPosition: Vec3, outRotation: Quat) {
      const body = bodies[i]!;
      const p = body.GetPosition();
      outPosition[0] = p.GetX(); outPosition[1] = p.GetY(); outPosition[2] = p.GetZ();
      const q = body.GetRotation();
      outRotation[0] = q.GetX(); outRotation[1] = q.GetY(); outRotation[2] = q.GetZ(); outRotation[3] = q.GetW();
    },
    getMass: (i: number) => 1 / bodies[i]!.GetMotionProperties().GetInverseMass(),
    inContact: (i: number, j: number) => system.WereBodiesInContact(bodies[i]!.GetID(), bodies[j]!.GetID()),
    rowIterations: () => null,
    dispose() {
      Jolt.destroy(jolt);
      for (const t of temporaries) Jolt.destroy(t);
    },
  };
}
