/**
 * Guard rails: descriptions that cannot be simulated are rejected at the door with an Error whose message
 * names the body or joint (by its `name`) and the field, never discovered later as NaN.
 */
import type { BodyDesc, JointDesc, MotorDesc, ShapeDesc, WorldSettings } from './types';

const fin = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** v, when given, is an array of n finite numbers. */
export function vec(label: string, field: string, v: readonly number[] | undefined, n: number): void {
  if (v === undefined) return;
  if (!Array.isArray(v) && !(v as unknown as { length?: number }).length) throw new Error(`${label}: ${field} must be an array of ${n} numbers`);
  if (v.length !== n) throw new Error(`${label}: ${field} must have ${n} components, got ${v.length}`);
  for (let i = 0; i < n; i++) if (!fin(v[i])) throw new Error(`${label}: ${field}[${i}] must be a finite number, got ${String(v[i])}`);
}

function quat(label: string, field: string, q: readonly number[] | undefined): void {
  if (q === undefined) return;
  vec(label, field, q, 4);
  const l = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  if (l < 1e-6) throw new Error(`${label}: ${field} is a zero quaternion (not a rotation)`);
}

function positive(label: string, field: string, x: number): void {
  if (!fin(x)) throw new Error(`${label}: ${field} must be a finite number, got ${String(x)}`);
  if (!(x > 0)) throw new Error(`${label}: ${field} must be > 0 (degenerate shape), got ${x}`);
}

function nonNegative(label: string, field: string, x: number | undefined): void {
  if (x === undefined) return;
  if (!fin(x)) throw new Error(`${label}: ${field} must be a finite number, got ${String(x)}`);
  if (x < 0) throw new Error(`${label}: ${field} must be ≥ 0, got ${x}`);
}

export function validateShape(label: string, s: ShapeDesc): void {
  vec(label, 'position', s.position, 3);
  quat(label, 'rotation', s.rotation);
  switch (s.type) {
    case 'sphere': positive(label, 'radius', s.radius); break;
    case 'capsule': positive(label, 'radius', s.radius); nonNegative(label, 'halfHeight', s.halfHeight); break;
    case 'cylinder': positive(label, 'radius', s.radius); positive(label, 'halfHeight', s.halfHeight); break;
    case 'box': vec(label, 'halfExtents', s.halfExtents, 3); s.halfExtents.forEach((h, i) => positive(label, `halfExtents[${i}]`, h)); break;
    case 'ellipsoid': vec(label, 'radii', s.radii, 3); s.radii.forEach((h, i) => positive(label, `radii[${i}]`, h)); break;
    default: throw new Error(`${label}: unknown shape type '${(s as { type: string }).type}'`);
  }
}

export function bodyLabel(desc: BodyDesc, index: number): string {
  return `body '${desc.name ?? `#${index}`}'`;
}

export function validateBody(desc: BodyDesc, label: string): void {
  if (desc.type !== 'dynamic' && desc.type !== 'kinematic' && desc.type !== 'static') throw new Error(`${label}: type must be 'dynamic', 'kinematic' or 'static', got '${String(desc.type)}'`);
  vec(label, 'position', desc.position, 3);
  if (desc.position === undefined) throw new Error(`${label}: position is required`);
  quat(label, 'rotation', desc.rotation);
  vec(label, 'linearVelocity', desc.linearVelocity, 3);
  vec(label, 'angularVelocity', desc.angularVelocity, 3);
  if (!Array.isArray(desc.shapes) || desc.shapes.length === 0) throw new Error(`${label}: shapes must list at least one shape`);
  desc.shapes.forEach((s, i) => validateShape(`${label} shape ${i}`, s));
  if (desc.mass !== undefined) {
    if (!fin(desc.mass)) throw new Error(`${label}: mass must be a finite number, got ${String(desc.mass)}`);
    if (desc.type === 'dynamic' && !(desc.mass > 0)) throw new Error(`${label}: mass must be > 0 for a dynamic body, got ${desc.mass}`);
  }
  if (desc.density !== undefined) {
    if (!fin(desc.density)) throw new Error(`${label}: density must be a finite number, got ${String(desc.density)}`);
    if (desc.type === 'dynamic' && !(desc.density > 0)) throw new Error(`${label}: density must be > 0 for a dynamic body, got ${desc.density}`);
  }
  nonNegative(label, 'linearDamping', desc.linearDamping);
  nonNegative(label, 'angularDamping', desc.angularDamping);
  if (desc.gravityScale !== undefined && !fin(desc.gravityScale)) throw new Error(`${label}: gravityScale must be a finite number`);
  nonNegative(label, 'material.friction', desc.material?.friction);
  const r = desc.material?.restitution;
  if (r !== undefined && !(fin(r) && r >= 0 && r <= 1)) throw new Error(`${label}: material.restitution must be in [0, 1], got ${String(r)}`);
  for (const f of ['collisionGroup', 'collisionMask'] as const) {
    const v = desc[f];
    if (v !== undefined && !(Number.isInteger(v) && v >= -0x80000000 && v <= 0xffffffff)) throw new Error(`${label}: ${f} must be a 32-bit integer bit mask, got ${String(v)}`);
  }
}

/** A motor for a joint of type `type` with `motorRows` motor rows (0: the type has no free axis to drive). */
export function validateMotor(label: string, m: MotorDesc, type: JointDesc['type'], motorRows: number): void {
  if (!['off', 'position', 'pd', 'velocity'].includes(m.mode)) throw new Error(`${label}: motor.mode must be 'off', 'position', 'pd' or 'velocity', got '${String(m.mode)}'`);
  if (motorRows === 0 && m.mode !== 'off') throw new Error(`${label}: a ${type} joint has no free axis to drive (motor.mode must be 'off')`);
  if (!fin(m.maxTorque)) throw new Error(`${label}: motor.maxTorque must be a finite number, got ${String(m.maxTorque)}`);
  if (m.maxTorque < 0) throw new Error(`${label}: motor.maxTorque must be ≥ 0 (a torque limit), got ${m.maxTorque}`);
  if (m.errorReduction !== undefined && !(fin(m.errorReduction) && m.errorReduction > 0 && m.errorReduction <= 1)) {
    throw new Error(`${label}: motor.errorReduction must be in (0, 1], got ${String(m.errorReduction)}`);
  }
  nonNegative(label, 'motor.stiffness', m.stiffness);
  nonNegative(label, 'motor.damping', m.damping);
  nonNegative(label, 'motor.frictionTorque', m.frictionTorque);
  if (m.torqueLimit !== undefined && m.torqueLimit !== 'perAxis' && m.torqueLimit !== 'magnitude') {
    throw new Error(`${label}: motor.torqueLimit must be 'perAxis' or 'magnitude', got '${String(m.torqueLimit)}'`);
  }
  if (m.maxSpeed !== undefined && !(fin(m.maxSpeed) && m.maxSpeed > 0)) throw new Error(`${label}: motor.maxSpeed must be a finite number > 0 (rad/s, m/s for a slide), got ${String(m.maxSpeed)}`);
  if (m.mode === 'pd' && !((m.stiffness ?? 0) > 0 || (m.damping ?? 0) > 0)) throw new Error(`${label}: motor.stiffness or motor.damping must be > 0 in 'pd' mode`);
}

/** r, when given, is [min, max] finite with min ≤ max, within ±bound. */
export function range(label: string, field: string, r: readonly [number, number] | undefined, bound?: number): void {
  if (r === undefined) return;
  vec(label, field, r as unknown as number[], 2);
  if (r[0] > r[1]) throw new Error(`${label}: ${field} is inverted (min ${r[0]} > max ${r[1]})`);
  if (bound !== undefined && (r[0] < -bound || r[1] > bound)) throw new Error(`${label}: ${field} must lie within [−${bound}, ${bound}], got [${r[0]}, ${r[1]}]`);
}

/** The checks every joint type shares (frames, the two bodies); the type is checked by the registry
 *  (joints/registry.ts jointTypeDef) and its own fields by its validate(), the motor by validateMotor. */
export function validateJointFrames(desc: JointDesc, label: string): void {
  if (!desc.frameA || !desc.frameB) throw new Error(`${label}: frameA and frameB are required`);
  vec(label, 'frameA.position', desc.frameA.position, 3);
  vec(label, 'frameB.position', desc.frameB.position, 3);
  quat(label, 'frameA.rotation', desc.frameA.rotation);
  quat(label, 'frameB.rotation', desc.frameB.rotation);
  if (desc.bodyA === desc.bodyB) throw new Error(`${label}: bodyA and bodyB are the same body`);
}

export function validateSettings(s: WorldSettings): void {
  vec('world settings', 'gravity', s.gravity, 3);
  if (!(Number.isInteger(s.substeps) && s.substeps >= 1)) throw new Error(`world settings: substeps must be an integer ≥ 1, got ${s.substeps}`);
  if (!(Number.isInteger(s.velocityIterations) && s.velocityIterations >= 1)) throw new Error(`world settings: velocityIterations must be an integer ≥ 1, got ${s.velocityIterations}`);
  if (!(Number.isInteger(s.positionIterations) && s.positionIterations >= 0)) throw new Error(`world settings: positionIterations must be an integer ≥ 0, got ${s.positionIterations}`);
  if (s.groundHeight !== null && !fin(s.groundHeight)) throw new Error(`world settings: groundHeight must be a finite number or null`);
  if (!(fin(s.jointErrorReduction) && s.jointErrorReduction >= 0 && s.jointErrorReduction <= 1)) throw new Error(`world settings: jointErrorReduction must be in [0, 1], got ${s.jointErrorReduction}`);
  if (s.jointCorrection !== undefined && s.jointCorrection !== 'projection' && s.jointCorrection !== 'shake') throw new Error(`world settings: jointCorrection must be 'projection' or 'shake', got '${String(s.jointCorrection)}'`);
  if (s.warmStart !== undefined && s.warmStart !== 'full' && s.warmStart !== 'energy') throw new Error(`world settings: warmStart must be 'full' or 'energy', got '${String(s.warmStart)}'`);
  if (s.contactCache !== undefined && typeof s.contactCache !== 'boolean') throw new Error(`world settings: contactCache must be true or false, got '${String(s.contactCache)}'`);
  if (s.gyroscopic !== undefined && s.gyroscopic !== 'conserving' && s.gyroscopic !== 'damped') throw new Error(`world settings: gyroscopic must be 'conserving' or 'damped', got '${String(s.gyroscopic)}'`);
  if (!(s.maxSpeed > 0)) throw new Error(`world settings: maxSpeed must be > 0, got ${s.maxSpeed}`);
}
