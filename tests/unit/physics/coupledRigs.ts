/** One-joint rigs for the screw, cylindrical and planar joints (issue 12 item 2): a static base at (0, 2, 0) and a
 *  2 kg box (0.4 × 0.1 × 0.2 m) whose body frame is the joint's anchor; its centre `centre` in that frame. */
import { quatFromAxisAngle, type Quat } from '../../../shared/math/quat';
import { loadRig, type RigDocument } from '../../../shared/rig';

export const FRAME_X_UP: Quat = quatFromAxisAngle([0, 0, 1], Math.PI / 2); // frame X = world +Y
export const FRAME_X_Z: Quat = quatFromAxisAngle([0, 1, 0], -Math.PI / 2); // frame X = world +Z, frame Y = world +Y

export const motorOff = { mode: 'off', target: { source: 'rest' }, maxTorque: 0, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0 };

export interface PairRigOptions {
  name?: string;
  frame: Quat;
  centre?: [number, number, number];
  /** The joint's type and its own fields (limits, motors, pitch); motor and slideMotor default to off. */
  joint: Record<string, unknown> & { type: 'screw' | 'cylindrical' | 'planar' };
  gravity?: [number, number, number];
  substeps?: number;
}

export function pairRig(o: PairRigOptions): RigDocument {
  const t = o.joint.type;
  const defaults: Record<string, unknown> = t === 'screw' ? { pitch: 0.02, limit: null, motor: motorOff }
    : t === 'cylindrical' ? { limit: null, slideLimit: null, motor: motorOff, slideMotor: motorOff }
      : { limit: null, slideLimitY: null, slideLimitZ: null, motor: motorOff, slideMotor: motorOff };
  return loadRig({
    format: 'marionette-rig', version: 1, name: o.name ?? `${t}-pair`,
    units: { length: 'm', mass: 'kg', time: 's', angle: 'rad', torque: 'N·m' },
    axes: { up: '+Y', forward: '+Z', handedness: 'right' },
    solver: 'rigid',
    skeleton: { bones: [
      { name: 'base', parent: null, rest: { translation: [0, 2, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
      { name: 'part', parent: 'base', rest: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
    ] },
    bodies: [
      body('base', 'static', { type: 'box', position: [0, 0, 0], rotation: [0, 0, 0, 1], halfExtents: [0.05, 0.05, 0.05] }, null),
      body('part', 'dynamic', { type: 'box', position: o.centre ?? [0, 0, 0], rotation: [0, 0, 0, 1], halfExtents: [0.2, 0.05, 0.1] }, 2),
    ],
    joints: [{
      name: 'pair', bodyA: 'base', bodyB: 'part', collideConnected: false,
      frameA: { position: [0, 0, 0], rotation: o.frame }, frameB: { position: [0, 0, 0], rotation: o.frame },
      ...defaults, ...o.joint,
    }],
    controllers: [],
    simulation: { gravity: o.gravity ?? [0, -9.81, 0], dt: 1 / 60, substeps: o.substeps ?? 4, velocityIterations: 8, positionIterations: 2, ground: null },
  });
}

function body(name: string, type: string, shape: Record<string, unknown>, mass: number | null) {
  return {
    name, bone: name, type, offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, shapes: [shape],
    mass, density: mass === null ? 1000 : null, material: { friction: 0.8, restitution: 0 }, linearDamping: 0, angularDamping: 0,
    collisionGroup: 1, collisionMask: 0xffffffff,
  };
}
