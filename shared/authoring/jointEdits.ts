/** Joint edits: pure functions RigDocument → EditResult (editResult.ts). */
import { composeTransforms, invertTransform, type Transform } from '../math/transform';
import { quatNormalize, quatRotate, type Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { bodyRestWorld, boneRestWorld } from '../rig/restPose';
import { motorSchema, type RigDocument, type RigJoint, type RigMotor } from '../rig/schema';
import { checkNumber, fail, finishEdit, type EditResult } from './editResult';
import { cloneJson, frameFromXY, round3v, round4q } from './frames';
import { motorFor } from './generate';
import { applyMotorPreset, type MotorPreset } from './presets';

type MotorJoint = Extract<RigJoint, { motor: RigMotor }>;
const jointIndex = (rig: RigDocument, name: string) => rig.joints.findIndex((j) => j.name === name);
const noJoint = (name: string) => fail('joint', `there is no joint named "${name}"`);

function updateJoint(rig: RigDocument, name: string, f: (j: RigJoint, at: string) => RigJoint | EditResult): EditResult {
  const i = jointIndex(rig, name);
  if (i < 0) return noJoint(name);
  const next = f(rig.joints[i]!, `joints[${i}]`);
  if ('ok' in next) return next;
  return finishEdit(rig, { ...rig, joints: rig.joints.map((j, k) => (k === i ? next : j)) });
}

/** Default limits of a new joint or a type change (rad). */
const DEFAULTS = { twistLimit: [-0.8, 0.8] as [number, number], swingLimit: [1.3, 1.3] as [number, number], hinge: [-1.5, 1.5] as [number, number] };

/**
 * A joint between two bodies (bodyA the parent): anchor at bodyB's origin (its bone's head); frame X
 * along bodyB's local +Y (the bone), so a hinge made this way turns about the bone — set the frames'
 * rotation to turn about another axis.
 */
export function createJoint(rig: RigDocument, spec: { name?: string; bodyA: string; bodyB: string; type: RigJoint['type'] }): EditResult {
  const name = spec.name ?? spec.bodyB;
  if (rig.joints.some((j) => j.name === name)) return fail('name', `a joint named "${name}" already exists`);
  if (spec.bodyA === spec.bodyB) return fail('bodyB', 'must be a different body from bodyA');
  const rest = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
  const A = rest.get(spec.bodyA), B = rest.get(spec.bodyB);
  if (!A) return fail('bodyA', `there is no body named "${spec.bodyA}"`);
  if (!B) return fail('bodyB', `there is no body named "${spec.bodyB}"`);
  const F = frameFromXY(quatRotate(B.rotation, [0, 1, 0]), quatRotate(B.rotation, [0, 0, 1]));
  const world: Transform = { position: B.position, rotation: F };
  const local = (T: Transform) => { const t = composeTransforms(invertTransform(T), world); return { position: round3v(t.position), rotation: round4q(t.rotation) }; };
  const base = { name, bodyA: spec.bodyA, bodyB: spec.bodyB, frameA: local(A), frameB: local(B), collideConnected: false };
  return finishEdit(rig, { ...rig, joints: [...rig.joints, withType(base, spec.type, motorFor('position', 50))] });
}

/** A new screw's pitch (m/rad): 1 cm per radian, 6.3 cm per turn. */
export const DEFAULT_SCREW_PITCH = 0.01;

type TypeFields = 'type' | 'motor' | 'limit' | 'twistLimit' | 'swingLimit' | 'pitch' | 'slideLimit' | 'slideLimitY' | 'slideLimitZ' | 'slideMotor';
function withType(base: Omit<RigJoint, TypeFields> & Partial<RigJoint>, type: RigJoint['type'], motor: RigMotor): RigJoint {
  const { name, bodyA, bodyB, frameA, frameB, collideConnected, extras } = base;
  const common = { name, bodyA, bodyB, frameA, frameB, collideConnected, ...(extras ? { extras } : {}) };
  switch (type) {
    case 'ball': return { type, ...common, twistLimit: DEFAULTS.twistLimit, swingLimit: DEFAULTS.swingLimit, motor };
    case 'hinge': return { type, ...common, limit: DEFAULTS.hinge, motor };
    case 'prismatic': return { type, ...common, limit: null, motor };
    case 'fixed': return { type, ...common };
    case 'screw': return { type, ...common, pitch: 'pitch' in base && typeof base.pitch === 'number' ? base.pitch : DEFAULT_SCREW_PITCH, limit: DEFAULTS.hinge, motor };
    case 'cylindrical': return { type, ...common, limit: DEFAULTS.hinge, slideLimit: null, motor, slideMotor: slideMotorOf(base) };
    case 'planar': return { type, ...common, limit: null, slideLimitY: null, slideLimitZ: null, motor, slideMotor: slideMotorOf(base) };
  }
}

/** The slide motor a type change keeps (cylindrical ⇄ planar), or a new one: position mode, 50 N. */
function slideMotorOf(base: Partial<RigJoint>): RigMotor {
  return 'slideMotor' in base && base.slideMotor ? base.slideMotor : motorFor('position', 50);
}

const JOINT_TYPES: readonly RigJoint['type'][] = ['ball', 'hinge', 'fixed', 'prismatic', 'screw', 'cylindrical', 'planar'];

export function removeJoint(rig: RigDocument, name: string): EditResult {
  if (jointIndex(rig, name) < 0) return noJoint(name);
  return finishEdit(rig, { ...rig, joints: rig.joints.filter((j) => j.name !== name), controllers: rig.controllers.filter((c) => !c.chain.includes(name)) });
}

/** Changes the type; the motor carries over, limits get the new type's defaults. */
export function setJointType(rig: RigDocument, name: string, type: RigJoint['type']): EditResult {
  if (!JOINT_TYPES.includes(type)) return fail('type', `must be ${JOINT_TYPES.slice(0, -1).join(', ')} or ${JOINT_TYPES.at(-1)}, got "${String(type)}"`);
  return updateJoint(rig, name, (j) => (j.type === type ? j : withType(j, type, 'motor' in j ? j.motor : motorFor('position', 50))));
}

type Range = readonly [number, number] | null;
function checkAngleRange(field: string, r: Range): EditResult | null {
  if (r === null) return null;
  if (!Array.isArray(r) || r.length !== 2) return fail(field, 'must be [min, max] in radians, or null for no limit');
  const bad = checkNumber(`${field}[0]`, r[0], { unit: 'rad' }) ?? checkNumber(`${field}[1]`, r[1], { unit: 'rad' });
  if (bad) return bad;
  if (r[0] > r[1]) return fail(field, `min must be ≤ max, got [${r[0]}, ${r[1]}] rad`);
  for (const [k, v] of [[0, r[0]], [1, r[1]]] as const) {
    if (!(v > -Math.PI && v <= Math.PI)) return fail(`${field}[${k}]`, `must lie within (−π, π] rad (−180°, 180°], got ${v}`);
  }
  return null;
}

function checkMetreRange(field: string, r: Range): EditResult | null {
  if (r === null) return null;
  if (!Array.isArray(r) || r.length !== 2) return fail(field, 'must be [min, max] in metres, or null for no limit');
  const bad = checkNumber(`${field}[0]`, r[0], { unit: 'm' }) ?? checkNumber(`${field}[1]`, r[1], { unit: 'm' });
  if (bad) return bad;
  if (r[0] > r[1]) return fail(field, `min must be ≤ max, got [${r[0]}, ${r[1]}] m`);
  return null;
}

/** Limits (rad): hinge, screw, cylindrical and planar `limit` (the angle about frame X); ball `twistLimit`
 *  [min, max] and `swingLimit` [about Y, about Z] half-angles (0, π]; prismatic `limit` in metres;
 *  cylindrical `slideLimit` and planar `slideLimitY`, `slideLimitZ` in metres. null removes a limit. */
export function setJointLimits(rig: RigDocument, name: string, limits: { limit?: Range; twistLimit?: Range; swingLimit?: Range; slideLimit?: Range; slideLimitY?: Range; slideLimitZ?: Range }): EditResult {
  return updateJoint(rig, name, (j, at) => {
    if (j.type === 'fixed') return fail(`${at}.type`, 'a fixed joint has no limits');
    if (j.type === 'screw' || j.type === 'cylindrical' || j.type === 'planar') {
      let next: RigJoint = j;
      if (limits.limit !== undefined) {
        const bad = checkAngleRange(`${at}.limit`, limits.limit);
        if (bad) return bad;
        next = { ...next, limit: limits.limit && [limits.limit[0], limits.limit[1]] } as RigJoint;
      }
      const slides = j.type === 'cylindrical' ? (['slideLimit'] as const) : j.type === 'planar' ? (['slideLimitY', 'slideLimitZ'] as const) : ([] as const);
      for (const field of ['slideLimit', 'slideLimitY', 'slideLimitZ'] as const) {
        const r = limits[field];
        if (r === undefined) continue;
        if (!(slides as readonly string[]).includes(field)) return fail(`${at}.${field}`, `a ${j.type} joint has no ${field}${slides.length ? ` (it has ${slides.join(' and ')})` : ''}`);
        const bad = checkMetreRange(`${at}.${field}`, r);
        if (bad) return bad;
        next = { ...next, [field]: r && [r[0], r[1]] } as RigJoint;
      }
      return next;
    }
    if (j.type === 'hinge') {
      if (limits.limit === undefined) return j;
      return checkAngleRange(`${at}.limit`, limits.limit) ?? { ...j, limit: limits.limit && [limits.limit[0], limits.limit[1]] };
    }
    if (j.type === 'prismatic') {
      if (limits.limit === undefined) return j;
      const l = limits.limit;
      if (l !== null) {
        const bad = checkNumber(`${at}.limit[0]`, l[0], { unit: 'm' }) ?? checkNumber(`${at}.limit[1]`, l[1], { unit: 'm' });
        if (bad) return bad;
        if (l[0] > l[1]) return fail(`${at}.limit`, `min must be ≤ max, got [${l[0]}, ${l[1]}] m`);
      }
      return { ...j, limit: l && [l[0], l[1]] };
    }
    let next = j;
    if (limits.twistLimit !== undefined) {
      const bad = checkAngleRange(`${at}.twistLimit`, limits.twistLimit);
      if (bad) return bad;
      next = { ...next, twistLimit: limits.twistLimit && [limits.twistLimit[0], limits.twistLimit[1]] };
    }
    if (limits.swingLimit !== undefined) {
      const s = limits.swingLimit;
      if (s !== null) {
        for (const k of [0, 1] as const) {
          const bad = checkNumber(`${at}.swingLimit[${k}]`, s[k], { min: 0, exclusiveMin: true, max: Math.PI, unit: 'rad' });
          if (bad) return bad;
        }
      }
      next = { ...next, swingLimit: s && [s[0], s[1]] };
    }
    return next;
  });
}

/** Motor settings: mode, maxTorque (N·m), errorReduction r, stiffness kp, damping kv, frictionTorque,
 *  target { source, clip, velocity }. `field` 'slideMotor': a cylindrical or planar joint's slide motor (N). */
export function setMotor(rig: RigDocument, name: string, patch: Partial<RigMotor>, field: 'motor' | 'slideMotor' = 'motor'): EditResult {
  return updateJoint(rig, name, (j, at) => {
    if (j.type === 'fixed') return fail(`${at}.type`, 'a fixed joint has no motor');
    if (field === 'slideMotor' && j.type !== 'cylindrical' && j.type !== 'planar') return fail(`${at}.slideMotor`, `a ${j.type} joint has no slide motor (cylindrical and planar joints do)`);
    const current = field === 'slideMotor' && (j.type === 'cylindrical' || j.type === 'planar') ? j.slideMotor : j.motor;
    const merged = { ...current, ...patch, target: { ...current.target, ...(patch.target ?? {}) } };
    if (merged.target.source !== 'animation') delete merged.target.clip;
    const parsed = motorSchema.safeParse(merged);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return fail(`${at}.${field}.${issue.path.join('.')}`, issue.message);
    }
    return { ...j, [field]: parsed.data } as MotorJoint;
  });
}

/** A screw joint's pitch (m/rad, ≠ 0). */
export function setJointPitch(rig: RigDocument, name: string, pitch: number): EditResult {
  return updateJoint(rig, name, (j, at) => {
    if (j.type !== 'screw') return fail(`${at}.pitch`, `a ${j.type} joint has no pitch (screw joints do)`);
    const bad = checkNumber(`${at}.pitch`, pitch, { min: -1, max: 1, unit: 'm/rad' });
    if (bad) return bad;
    if (pitch === 0) return fail(`${at}.pitch`, 'must not be 0 (a screw of pitch 0 is a hinge)');
    return { ...j, pitch };
  });
}

/** Applies a preset to many joints at once (one undo step). `baseTorque` per joint defaults to its τmax. */
export function applyPreset(rig: RigDocument, joints: readonly string[], preset: MotorPreset, baseTorque?: Readonly<Record<string, number>>): EditResult {
  if (!['stiff', 'loose', 'limp'].includes(preset)) return fail('preset', `must be stiff, loose or limp, got "${String(preset)}"`);
  return editMotors(rig, joints, (m, name) => applyMotorPreset(m, preset, baseTorque?.[name] ?? m.maxTorque));
}

/** Copy/paste: the motor of `from` onto every joint in `to` (one undo step). */
export function copyMotorSettings(rig: RigDocument, from: string, to: readonly string[]): EditResult {
  const src = rig.joints.find((j) => j.name === from);
  if (!src) return fail('from', `there is no joint named "${from}"`);
  if (src.type === 'fixed') return fail('from', `joint "${from}" is fixed and has no motor to copy`);
  return editMotors(rig, to, () => cloneJson(src.motor));
}

function editMotors(rig: RigDocument, names: readonly string[], f: (m: RigMotor, name: string) => RigMotor): EditResult {
  const wanted = new Set(names);
  for (const n of names) {
    const j = rig.joints.find((x) => x.name === n);
    if (!j) return fail('joints', `there is no joint named "${n}"`);
    if (j.type === 'fixed') return fail('joints', `joint "${n}" is fixed and has no motor`);
  }
  return finishEdit(rig, { ...rig, joints: rig.joints.map((j) => (wanted.has(j.name) && j.type !== 'fixed' ? { ...j, motor: f(j.motor, j.name) } as MotorJoint : j)) });
}

/** The joint's frame on bodyB as a world transform at rest (for gizmos). */
export function jointWorldFrame(rig: RigDocument, name: string): Transform | null {
  const j = rig.joints.find((x) => x.name === name);
  const B = j && bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones)).get(j.bodyB);
  if (!j || !B) return null;
  const t = composeTransforms(B, { position: j.frameB.position as Vec3, rotation: quatNormalize(j.frameB.rotation as Quat) });
  return t;
}

const r6 = (v: number) => Number(v.toFixed(6));

/**
 * Both joint frames re-expressed from one world frame W at rest: frameA = A⁻¹·W, frameB = B⁻¹·W (A, B the
 * bodies' rest poses), so the anchors keep meeting at rest — what the viewport's joint gizmo edits.
 * Numbers are rounded to 1e-6 (the file stays readable). `rest`: the bodies' rest poses when the caller
 * has them already (else computed from the rig).
 */
export function setJointWorldFrame(rig: RigDocument, name: string, W: Transform, rest: ReadonlyMap<string, Transform> = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones))): EditResult {
  const j = rig.joints.find((x) => x.name === name);
  if (!j) return noJoint(name);
  const A = rest.get(j.bodyA), B = rest.get(j.bodyB);
  if (!A || !B) return fail('joint', `joint "${name}" needs both its bodies`);
  if (![...W.position, ...W.rotation].every(Number.isFinite)) return fail('joint', `joint "${name}": the world frame must be finite numbers, got ${JSON.stringify(W)}`);
  const local = (T: Transform) => {
    const t = composeTransforms(invertTransform(T), W);
    return { position: t.position.map(r6) as Vec3, rotation: t.rotation.map(r6) as Quat };
  };
  return finishEdit(rig, { ...rig, joints: rig.joints.map((x) => (x.name === name ? { ...x, frameA: local(A), frameB: local(B) } : x)) });
}
