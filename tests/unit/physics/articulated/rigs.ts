/** Rigs built in code for the articulated-solver tests: hinge (or ball) chains of rods hung from a static base. */
import { quatFromAxisAngle, quatMul, type Quat } from '../../../../shared/math/quat';
import { loadRig, type RigDocument } from '../../../../shared/rig';

const X_TO_Z: Quat = [0, -Math.SQRT1_2, 0, Math.SQRT1_2]; // rotates +X onto +Z (hinge axis = world Z)

export interface ChainOptions {
  links: number;
  /** Rod length (m): a capsule of radius `radius` whose hemisphere tips span the length. */
  length?: number;
  radius?: number;
  /** Initial angle of each link (rad, about world Z, relative to its parent; 0 = straight down). */
  angles: number[];
  /** Optional extra turn of each link about world X (rad), after `angles` — a chain out of the plane. */
  tilts?: number[];
  joint?: 'hinge' | 'ball';
  /** Hinge limit (rad) of every joint but the first, which gets [−1.5, 1.5] when this is given. */
  limit?: [number, number];
  /** The base is a dynamic 1 kg box (a free root) instead of static. */
  floating?: boolean;
  /** Extra joints appended (for the refusal tests). */
  extraJoints?: Record<string, unknown>[];
  /** A fixed joint welds a second capsule at the tip of the first link (merging test). */
  weldTip?: boolean;
}

/** A chain hung from a static base at (0, 2, 0); link i's body frame is at its top joint, the rod along its −Y. */
export function chainRig(o: ChainOptions): RigDocument {
  const L = o.length ?? 1, r = o.radius ?? 0.02;
  const bones: Record<string, unknown>[] = [{ name: 'base', parent: null, rest: { translation: [0, 2, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }];
  const bodies = [body('base', o.floating ? 'dynamic' : 'static', { type: 'box', position: [0, 0, 0], rotation: [0, 0, 0, 1], halfExtents: [0.05, 0.05, 0.05] })];
  const joints: Record<string, unknown>[] = [];
  let parent = 'base';
  for (let i = 0; i < o.links; i++) {
    const name = `link${i}`;
    const q = quatMul(quatFromAxisAngle([0, 0, 1], o.angles[i] ?? 0), quatFromAxisAngle([1, 0, 0], o.tilts?.[i] ?? 0));
    bones.push({ name, parent, rest: { translation: i === 0 ? [0, 0, 0] : [0, -L, 0], rotation: q, scale: [1, 1, 1] } });
    bodies.push(body(name, 'dynamic', { type: 'capsule', position: [0, -L / 2, 0], rotation: [0, 0, 0, 1], radius: r, halfHeight: L / 2 - r, axis: 'y' }));
    // frameA on the parent: at the parent's tip, X = world Z at rest; frameB the same point on the child.
    // frameA in the parent's axes: the child's rest turn q, then X onto world Z.
    const frameARot = quatMul(q, X_TO_Z);
    joints.push({
      type: o.joint ?? 'hinge', name: `j${i}`, bodyA: parent, bodyB: name, collideConnected: false,
      frameA: { position: i === 0 ? [0, 0, 0] : [0, -L, 0], rotation: frameARot }, frameB: { position: [0, 0, 0], rotation: X_TO_Z },
      ...((o.joint ?? 'hinge') === 'hinge' ? { limit: o.limit ? (i === 0 ? [-1.5, 1.5] : o.limit) : null } : { twistLimit: null, swingLimit: null }),
      motor: { mode: 'off', target: { source: 'rest' }, maxTorque: 0, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0 },
    });
    parent = name;
  }
  if (o.weldTip) {
    bones.push({ name: 'tip', parent: 'link0', rest: { translation: [0, -L, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } });
    bodies.push(body('tip', 'dynamic', { type: 'sphere', position: [0, 0, 0], rotation: [0, 0, 0, 1], radius: 0.1, hollow: false }));
    joints.push({ type: 'fixed', name: 'weld', bodyA: 'link0', bodyB: 'tip', collideConnected: false,
      frameA: { position: [0, -L, 0], rotation: [0, 0, 0, 1] }, frameB: { position: [0, 0, 0], rotation: [0, 0, 0, 1] } });
  }
  joints.push(...(o.extraJoints ?? []));
  return loadRig({
    format: 'marionette-rig', version: 1, name: 'chain',
    units: { length: 'm', mass: 'kg', time: 's', angle: 'rad', torque: 'N·m' },
    axes: { up: '+Y', forward: '+Z', handedness: 'right' },
    solver: 'rigid',
    skeleton: { bones },
    bodies, joints, controllers: [],
    simulation: { gravity: [0, -9.81, 0], dt: 1 / 240, substeps: 1, velocityIterations: 8, positionIterations: 2, ground: null },
  });
}

function body(name: string, type: string, shape: Record<string, unknown>) {
  return {
    name, bone: name, type, offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, shapes: [shape],
    mass: type === 'dynamic' ? 1 : null, density: type === 'dynamic' ? null : 1000, material: { friction: 0.8, restitution: 0 },
    linearDamping: 0, angularDamping: 0, collisionGroup: 1, collisionMask: 0,
  };
}
