/**
 * fast-check generator of valid rigs: a random bone tree, a body per bone with 1–2 random shapes, a joint per
 * parent/child pair anchored at the child bone's origin with coinciding frames at rest (random orientation),
 * random joint types, limits, motors and solver settings, and sometimes a cyclic-path controller on the root's
 * longest ball/hinge chain (≤ 3 joints). Everything it builds must validate, round-trip
 * and simulate.
 */
import fc from 'fast-check';
import { quatConj, quatMul, quatNormalize, type Quat } from '../../../shared/math/quat';
import { inverseTransformPoint } from '../../../shared/math/transform';
import type { Vec3 } from '../../../shared/math/vec3';
import { computeMassProperties } from '../../../shared/physics/massProperties';
import { MAX_JOINTED_MASS_RATIO } from '../../../shared/rig/semantics';
import type { ShapeDesc } from '../../../shared/physics/types';
import { bodyRestWorld, boneRestWorld, RIG_AXES, RIG_UNITS, type RigDocument, type RigJoint, type RigMotor, type RigShape } from '../../../shared/rig';

const real = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
const vec = (r: number) => fc.tuple(real(-r, r), real(-r, r), real(-r, r));
const unitQuat = fc.tuple(real(-1, 1), real(-1, 1), real(-1, 1), real(0.2, 1)).map((q) => quatNormalize(q));
const size = real(0.05, 0.2);
const range = (lo: number, hi: number) => fc.tuple(real(lo, hi), real(lo, hi)).map(([a, b]) => (a <= b ? [a, b] : [b, a]) as [number, number]);

const shape: fc.Arbitrary<RigShape> = fc.tuple(fc.integer({ min: 0, max: 4 }), vec(0.1), unitQuat, size, size, size, fc.boolean(), fc.constantFrom('x', 'y', 'z' as const))
  .map(([kind, position, rotation, a, b, c, hollow, axis]): RigShape => {
    const pose = { position: position as Vec3, rotation };
    switch (kind) {
      case 0: return { type: 'sphere', ...pose, radius: a, hollow };
      case 1: return { type: 'capsule', ...pose, radius: a * 0.5, halfHeight: b, axis };
      case 2: return { type: 'box', ...pose, halfExtents: [a, b, c] };
      case 3: return { type: 'cylinder', ...pose, radius: a, halfHeight: b, axis, hollow };
      default: return { type: 'ellipsoid', ...pose, radii: [a, b, c] };
    }
  });

const motor: fc.Arbitrary<RigMotor> = fc.record({
  mode: fc.constantFrom('off', 'position', 'pd', 'velocity' as const),
  target: fc.constant({ source: 'rest' as const }),
  maxTorque: real(0, 60), errorReduction: real(0.05, 1), stiffness: real(0, 200), damping: real(0.01, 20), frictionTorque: real(0, 2),
});

const boneSpec = fc.record({
  parentPick: real(0, 1), translation: vec(0.4), rotation: unitQuat,
  offset: vec(0.1), offsetRotation: unitQuat, shapes: fc.array(shape, { minLength: 1, maxLength: 2 }),
  byMass: fc.boolean(), massOrDensity: real(0.5, 5),
  jointType: fc.constantFrom('ball', 'hinge', 'fixed', 'prismatic', 'screw', 'cylindrical', 'planar' as const), jointFrame: unitQuat,
  pitch: real(0.005, 0.05), pitchSign: fc.boolean(),
  limit: fc.option(range(-2.5, 2.5), { nil: null }), swing: fc.option(fc.tuple(real(0.1, 2), real(0.1, 2)), { nil: null }),
  motor, collideConnected: fc.boolean(), damping: real(0, 1),
});

const anyRig: fc.Arbitrary<RigDocument> = fc.record({
  bones: fc.array(boneSpec, { minLength: 1, maxLength: 5 }),
  staticRoot: fc.boolean(),
  dt: fc.constantFrom(1 / 30, 1 / 60, 1 / 120),
  substeps: fc.integer({ min: 1, max: 3 }),
  iterations: fc.integer({ min: 4, max: 10 }),
  ground: fc.option(real(-1, 0), { nil: null }),
  gait: fc.option(fc.record({
    count: fc.integer({ min: 3, max: 6 }), centre: vec(0.5), radius: real(0.05, 0.5), lift: real(-0.5, 0.5), rate: fc.tuple(fc.boolean(), real(0.05, 2)).map(([backwards, r]) => (backwards ? -r : r)), phaseOffset: real(0, 0.99), pole: vec(1),
    interpolation: fc.constantFrom('centripetal-catmull-rom', 'linear' as const), target: fc.option(vec(5), { nil: null }),
    gain: real(0, 5), maxAngle: real(0, 3), window: fc.option(real(0, 2), { nil: undefined }), rateGain: fc.option(real(0, 0.05), { nil: undefined }),
    enabled: fc.boolean(),
  }), { nil: null }),
}).map(({ bones: specs, staticRoot, dt, substeps, iterations, ground, gait }) => {
  const names = specs.map((_, i) => `bone${i}`);
  const bones: RigDocument['skeleton']['bones'] = specs.map((s, i) => ({
    name: names[i]!,
    parent: i === 0 ? null : names[Math.min(i - 1, Math.floor(s.parentPick * i))]!,
    rest: { translation: i === 0 ? [0, 1, 0] : s.translation, rotation: s.rotation, scale: [1, 1, 1] },
  }));
  const bodies: RigDocument['bodies'] = specs.map((s, i) => ({
    name: `body${i}`, bone: names[i]!, type: i === 0 && staticRoot ? 'static' : 'dynamic',
    offset: { position: s.offset, rotation: s.offsetRotation }, shapes: s.shapes,
    mass: s.byMass ? s.massOrDensity : null, density: s.byMass ? null : s.massOrDensity * 400,
    material: { friction: 0.6, restitution: 0 }, linearDamping: s.damping, angularDamping: s.damping,
    collisionGroup: 1, collisionMask: 0xffffffff,
    computed: computeMassProperties(s.shapes as ShapeDesc[], s.byMass ? { mass: s.massOrDensity } : { density: s.massOrDensity * 400 }),
  }));
  const boneWorld = boneRestWorld(bones);
  const rest = bodyRestWorld(bodies, boneWorld);
  const joints: RigJoint[] = specs.slice(1).map((s, k) => {
    const i = k + 1;
    const parentBody = `body${names.indexOf(bones[i]!.parent!)}`;
    const a = rest.get(parentBody)!, b = rest.get(`body${i}`)!;
    const anchor = boneWorld.get(names[i]!)!.position;
    const frame = (t: { rotation: Quat }) => quatNormalize(quatMul(quatConj(t.rotation), s.jointFrame));
    const base = {
      name: `joint${i}`, bodyA: parentBody, bodyB: `body${i}`, collideConnected: s.collideConnected,
      frameA: { position: inverseTransformPoint(a, anchor), rotation: frame(a) },
      frameB: { position: inverseTransformPoint(b, anchor), rotation: frame(b) },
    };
    switch (s.jointType) {
      case 'ball': return { ...base, type: 'ball', twistLimit: s.limit, swingLimit: s.swing, motor: s.motor };
      case 'hinge': return { ...base, type: 'hinge', limit: s.limit, motor: s.motor };
      case 'prismatic': return { ...base, type: 'prismatic', limit: s.limit && [s.limit[0] * 0.1, s.limit[1] * 0.1], motor: s.motor };
      case 'screw': return { ...base, type: 'screw', pitch: s.pitchSign ? s.pitch : -s.pitch, limit: s.limit, motor: s.motor };
      case 'cylindrical': return { ...base, type: 'cylindrical', limit: s.limit, slideLimit: s.limit && [s.limit[0] * 0.1, s.limit[1] * 0.1], motor: s.motor, slideMotor: s.motor };
      case 'planar': return { ...base, type: 'planar', limit: s.limit, slideLimitY: s.limit && [s.limit[0] * 0.1, s.limit[1] * 0.1], slideLimitZ: null, motor: s.motor, slideMotor: s.motor };
      default: return { ...base, type: 'fixed' };
    }
  });
  // A cyclic path on a ball/hinge chain (≤ 3 joints) hanging from the root body, its motors driven by it.
  const controllers: RigDocument['controllers'] = [];
  if (gait) {
    const chain: RigJoint[] = [];
    for (let at = 'body0'; chain.length < 3;) {
      const next = joints.find((j) => j.bodyA === at && (j.type === 'ball' || j.type === 'hinge')); // what the IK drives
      if (!next) break;
      chain.push(next);
      at = next.bodyB;
    }
    if (chain.length > 0) {
      const names = new Set(chain.map((j) => j.name));
      joints.forEach((j, i) => {
        if (names.has(j.name) && (j.type === 'ball' || j.type === 'hinge')) joints[i] = { ...j, motor: { ...j.motor, target: { source: 'controller' } } };
      });
      controllers.push({
        name: 'gait', type: 'cyclicPath', root: 'body0', chain: chain.map((j) => j.name),
        effector: { body: chain.at(-1)!.bodyB, offset: [0, 0, 0] },
        controlPoints: Array.from({ length: gait.count }, (_, k): [number, number, number] => {
          // A loop round a centre (the validator refuses a path that encloses no distance).
          const a = (2 * Math.PI * k) / gait.count;
          return [gait.centre[0] + gait.radius * Math.cos(a), gait.centre[1] + gait.lift * gait.radius * Math.sin(a), gait.centre[2] + gait.radius * Math.sin(a)];
        }),
        rate: gait.rate, phaseOffset: gait.phaseOffset,
        interpolation: gait.interpolation, pole: gait.pole as Vec3,
        steering: {
          target: gait.target as Vec3 | null, gain: gait.gain, maxAngle: gait.maxAngle,
          ...(gait.window === undefined ? {} : { window: gait.window }), ...(gait.rateGain === undefined ? {} : { rateGain: gait.rateGain }),
        },
        enabled: gait.enabled,
      });
    }
  }
  return {
    format: 'marionette-rig', version: 1, name: `random ${specs.length}`, units: RIG_UNITS, axes: RIG_AXES, solver: 'rigid',
    skeleton: { bones }, bodies, joints, controllers,
    simulation: {
      gravity: [0, -9.81, 0], dt, substeps, velocityIterations: iterations, positionIterations: 2,
      ground: ground === null ? null : { height: ground, friction: 0.8, restitution: 0 },
    },
  } satisfies RigDocument;
});

/** Jointed dynamic bodies within the mass ratio validation allows (rig/semantics.ts MAX_JOINTED_MASS_RATIO):
 *  shapes of random sizes and densities can differ in mass by more than 100×, which is now refused. */
function withinMassRatio(rig: RigDocument): boolean {
  const mass = new Map(rig.bodies.map((b) => [b.name, b.type === 'dynamic' ? b.computed!.mass : Number.NaN]));
  return rig.joints.every((j) => {
    const a = mass.get(j.bodyA)!, b = mass.get(j.bodyB)!;
    return !(a > 0 && b > 0) || Math.max(a, b) / Math.min(a, b) <= MAX_JOINTED_MASS_RATIO;
  });
}

export const arbitraryRig: fc.Arbitrary<RigDocument> = anyRig.filter(withinMassRatio);
