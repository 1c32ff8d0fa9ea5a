/** Small rigs built in code for the export tests: a hinge pendulum and a PD lever, each on a static base. */
import { quatFromAxisAngle, type Quat } from '../../../shared/math/quat';
import { loadRig, type RigDocument } from '../../../shared/rig';

const X_TO_Z: Quat = [0, -Math.SQRT1_2, 0, Math.SQRT1_2]; // rotates +X onto +Z (hinge axis = world Z)

interface TwoBodyOptions {
  name: string;
  /** Rest angle (rad) of the link about world Z, 0 = hanging straight down (pendulum) or horizontal (lever). */
  angle: number;
  /** The link's capsule axis and centre in its body frame. */
  shapeAxis: 'x' | 'y';
  centre: [number, number, number];
  motor: Record<string, unknown>;
  limit?: [number, number] | null;
  substeps?: number;
}

export function twoBodyRig(o: TwoBodyOptions): RigDocument {
  const q = quatFromAxisAngle([0, 0, 1], o.angle);
  return loadRig({
    format: 'marionette-rig', version: 1, name: o.name,
    units: { length: 'm', mass: 'kg', time: 's', angle: 'rad', torque: 'N·m' },
    axes: { up: '+Y', forward: '+Z', handedness: 'right' },
    solver: 'rigid',
    skeleton: { bones: [
      { name: 'base', parent: null, rest: { translation: [0, 2, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
      { name: 'link', parent: 'base', rest: { translation: [0, 0, 0], rotation: q, scale: [1, 1, 1] } },
    ] },
    bodies: [
      body('base', 'static', { type: 'box', position: [0, 0, 0], rotation: [0, 0, 0, 1], halfExtents: [0.05, 0.05, 0.05] }),
      body('link', 'dynamic', { type: 'capsule', position: o.centre, rotation: [0, 0, 0, 1], radius: 0.04, halfHeight: 0.4, axis: o.shapeAxis }),
    ],
    joints: [{
      type: 'hinge', name: 'pivot', bodyA: 'base', bodyB: 'link', collideConnected: false,
      frameA: { position: [0, 0, 0], rotation: X_TO_Z }, frameB: { position: [0, 0, 0], rotation: X_TO_Z },
      limit: o.limit ?? null,
      motor: { mode: 'off', target: { source: 'rest' }, maxTorque: 0, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0, ...o.motor },
    }],
    controllers: [],
    simulation: { gravity: [0, -9.81, 0], dt: 1 / 60, substeps: o.substeps ?? 2, velocityIterations: 8, positionIterations: 2, ground: null },
  });
}

function body(name: string, type: string, shape: Record<string, unknown>) {
  return {
    name, bone: name, type, offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, shapes: [shape],
    mass: null, density: 1000, material: { friction: 0.8, restitution: 0 }, linearDamping: 0, angularDamping: 0,
    collisionGroup: 1, collisionMask: 0xffffffff,
  };
}

/** A pendulum hanging from the pivot, started `angle` rad from the vertical, no motor, no limit. */
export const pendulumRig = (angle: number, substeps = 2) =>
  twoBodyRig({ name: 'pendulum', angle, shapeAxis: 'y', centre: [0, -0.5, 0], motor: {}, substeps });

/** A horizontal lever held at rest by a PD motor whose torque limit is `torqueLimit` N·m. */
export const leverRig = (torqueLimit: number) =>
  twoBodyRig({ name: 'lever', angle: 0, shapeAxis: 'x', centre: [0.5, 0, 0], motor: { mode: 'pd', maxTorque: torqueLimit, stiffness: 3000, damping: 60 } });

