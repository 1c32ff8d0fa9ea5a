/** Body edits: pure functions RigDocument → EditResult (editResult.ts). Fields are named as JSON paths of
 *  the document ("bodies[2].density") or of the edit's own input ("name") when the input is at fault. */
import { shapeSchema, type RigBody, type RigDocument, type RigShape } from '../rig/schema';
import { checkNumber, fail, finishEdit, type EditResult } from './editResult';

const bodyIndex = (rig: RigDocument, name: string) => rig.bodies.findIndex((b) => b.name === name);
const noBody = (name: string) => fail('body', `there is no body named "${name}"`);

function checkName(rig: RigDocument, name: unknown, field = 'name'): EditResult | null {
  if (typeof name !== 'string' || name.trim() === '') return fail(field, 'must be a non-empty name');
  if (name.length > 256) return fail(field, `must be at most 256 characters, got ${name.length}`);
  if (rig.bodies.some((b) => b.name === name)) return fail(field, `a body named "${name}" already exists`);
  return null;
}

/** Replace body `i` after the edit `f`; drops `computed` (stale once shapes or mass change). */
function updateBody(rig: RigDocument, name: string, f: (b: RigBody, at: string) => RigBody | EditResult): EditResult {
  const i = bodyIndex(rig, name);
  if (i < 0) return noBody(name);
  const next = f(rig.bodies[i]!, `bodies[${i}]`);
  if ('ok' in next) return next;
  const { computed: _stale, ...body } = next;
  return finishEdit(rig, { ...rig, bodies: rig.bodies.map((b, k) => (k === i ? body : b)) });
}

export function addBody(rig: RigDocument, spec: { name: string; bone: string; shape?: RigShape }): EditResult {
  const bad = checkName(rig, spec.name);
  if (bad) return bad;
  if (!rig.skeleton.bones.some((b) => b.name === spec.bone)) return fail('bone', `there is no bone named "${spec.bone}"`);
  const owner = rig.bodies.find((b) => b.bone === spec.bone);
  if (owner) return fail('bone', `bone "${spec.bone}" already drives body "${owner.name}"; one body per bone`);
  const body: RigBody = {
    name: spec.name, bone: spec.bone, type: 'dynamic', offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    shapes: [spec.shape ?? { type: 'capsule', position: [0, 0.1, 0], rotation: [0, 0, 0, 1], radius: 0.05, halfHeight: 0.05, axis: 'y' }],
    mass: null, density: 985, material: { friction: 0.8, restitution: 0 }, linearDamping: 0.05, angularDamping: 0.5,
    collisionGroup: 1, collisionMask: 0xfffffffe,
  };
  return finishEdit(rig, { ...rig, bodies: [...rig.bodies, body] });
}

/** Removes the body, the joints that use it and the controllers that need it. */
export function removeBody(rig: RigDocument, name: string): EditResult {
  if (bodyIndex(rig, name) < 0) return noBody(name);
  const joints = rig.joints.filter((j) => j.bodyA !== name && j.bodyB !== name);
  const kept = new Set(joints.map((j) => j.name));
  return finishEdit(rig, {
    ...rig, bodies: rig.bodies.filter((b) => b.name !== name), joints,
    controllers: rig.controllers.filter((c) => c.root !== name && c.effector.body !== name && c.chain.every((j) => kept.has(j))),
  });
}

export function renameBody(rig: RigDocument, name: string, newName: string): EditResult {
  if (bodyIndex(rig, name) < 0) return noBody(name);
  if (newName === name) return { ok: true, rig };
  const bad = checkName(rig, newName);
  if (bad) return bad;
  const r = (n: string) => (n === name ? newName : n);
  return finishEdit(rig, {
    ...rig,
    bodies: rig.bodies.map((b) => (b.name === name ? { ...b, name: newName } : b)),
    joints: rig.joints.map((j) => ({ ...j, bodyA: r(j.bodyA), bodyB: r(j.bodyB) })),
    controllers: rig.controllers.map((c) => ({ ...c, root: r(c.root), effector: { ...c.effector, body: r(c.effector.body) } })),
  });
}

/** Moves the body to another bone, keeping its offset relative to the bone. */
export function assignBodyToBone(rig: RigDocument, name: string, bone: string): EditResult {
  if (!rig.skeleton.bones.some((b) => b.name === bone)) return fail('bone', `there is no bone named "${bone}"`);
  const owner = rig.bodies.find((b) => b.bone === bone && b.name !== name);
  if (owner) return fail('bone', `bone "${bone}" already drives body "${owner.name}"; one body per bone`);
  return updateBody(rig, name, (b) => ({ ...b, bone }));
}

export function addShape(rig: RigDocument, name: string, shape: RigShape): EditResult {
  const parsed = shapeSchema.safeParse(shape);
  if (!parsed.success) return fail(`shape.${parsed.error.issues[0]!.path.join('.')}`, parsed.error.issues[0]!.message);
  return updateBody(rig, name, (b) => ({ ...b, shapes: [...b.shapes, parsed.data] }));
}

export function removeShape(rig: RigDocument, name: string, index: number): EditResult {
  return updateBody(rig, name, (b, at) => {
    if (!Number.isInteger(index) || index < 0 || index >= b.shapes.length) return fail(`${at}.shapes`, `has no shape ${index} (it has ${b.shapes.length})`);
    if (b.shapes.length === 1) return fail(`${at}.shapes`, 'a body needs at least one shape; remove the body instead');
    return { ...b, shapes: b.shapes.filter((_, k) => k !== index) };
  });
}

/** Changes some fields of one shape (radius, halfHeight, halfExtents, position, rotation, …). */
export function setShapeParams(rig: RigDocument, name: string, index: number, patch: Partial<Record<string, unknown>>): EditResult {
  return updateBody(rig, name, (b, at) => {
    const old = b.shapes[index];
    if (!old) return fail(`${at}.shapes`, `has no shape ${index} (it has ${b.shapes.length})`);
    if ('type' in patch && patch.type !== old.type) return fail(`${at}.shapes[${index}].type`, 'cannot change a shape\'s type; remove it and add another');
    const parsed = shapeSchema.safeParse({ ...old, ...patch });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return fail(`${at}.shapes[${index}].${issue.path.join('.')}`, issue.message);
    }
    return { ...b, shapes: b.shapes.map((s, k) => (k === index ? parsed.data : s)) };
  });
}

export function setDensity(rig: RigDocument, name: string, density: number): EditResult {
  return updateBody(rig, name, (b, at) => checkNumber(`${at}.density`, density, { min: 0, exclusiveMin: true, unit: 'kg/m³' }) ?? { ...b, density, mass: null });
}

export function setMass(rig: RigDocument, name: string, mass: number): EditResult {
  return updateBody(rig, name, (b, at) => checkNumber(`${at}.mass`, mass, { min: 0, exclusiveMin: true, unit: 'kg' }) ?? { ...b, mass, density: null });
}

export function setMaterial(rig: RigDocument, name: string, material: { friction?: number; restitution?: number }): EditResult {
  return updateBody(rig, name, (b, at) => {
    const m = { ...b.material, ...material };
    return checkNumber(`${at}.material.friction`, m.friction, { min: 0 })
      ?? checkNumber(`${at}.material.restitution`, m.restitution, { min: 0, max: 1 })
      ?? { ...b, material: m };
  });
}

export function setCollisionFilter(rig: RigDocument, name: string, filter: { group?: number; mask?: number }): EditResult {
  return updateBody(rig, name, (b, at) => {
    const group = filter.group ?? b.collisionGroup, mask = filter.mask ?? b.collisionMask;
    for (const [field, v] of [['collisionGroup', group], ['collisionMask', mask]] as const) {
      if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) return fail(`${at}.${field}`, `must be an integer bit set 0..4294967295, got ${v}`);
    }
    return { ...b, collisionGroup: group, collisionMask: mask };
  });
}
