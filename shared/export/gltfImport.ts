/**
 * glTF import: a document carrying KHR_physics_rigid_bodies (+ KHR_implicit_shapes) becomes a rig. The
 * physics comes from the draft extensions (motion, colliders, joints, limits, drives, materials, filters);
 * `extras.marionette`, which our export writes, adds what the drafts cannot say (motor mode, the body
 * offset, damping, controllers, solver settings). A file from another tool (no extras) imports with
 * defaults: bodies on the motion nodes, pd drives, the rig format's default solver settings.
 */
import type { Document, Node } from '@gltf-transform/core';
import { mat4ToTRS } from '../math/mat4';
import { composeTransforms, invertTransform, type Transform } from '../math/transform';
import { quatConj, quatMul, quatNormalize, type Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { decodeUtf8 } from '../project/utf8';
import { formatProblem, validateRig } from '../rig';
import type { RigDocument } from '../rig/schema';
import { AXIS_FROM_Y, GROUND_NODE, gltfIO } from './gltf';
import { ImplicitShapesExtension, PhysicsRigidBodiesExtension, type JointLimit, type NodePhysics } from './gltfPhysics';

export class ImportError extends Error {
  override name = 'ImportError';
}

type Json = Record<string, unknown>;
const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const local = (n: Node): Transform => ({ position: [...n.getTranslation()] as Vec3, rotation: quatNormalize(n.getRotation() as Quat) });
const clean = (x: number) => (Math.abs(x) < 1e-15 ? 0 : x);
const cv = (v: readonly number[]): [number, number, number] => [clean(v[0]!), clean(v[1]!), clean(v[2]!)];
const cq = (q: readonly number[]): [number, number, number, number] => { const n = quatNormalize(q as Quat); const s = n[3] < 0 ? -1 : 1; return [clean(s * n[0]), clean(s * n[1]), clean(s * n[2]), clean(s * n[3])]; };

/** A node's world pose in metres without its scale (the rigid frame a bone or body has). */
function rigidWorld(n: Node): Transform {
  const trs = mat4ToTRS(n.getWorldMatrix() as unknown as number[]);
  return { position: trs.translation, rotation: quatNormalize(trs.rotation) };
}

/** The rigid transform of `node` in the rigid frame of `ancestor` (scales of the nodes between applied to positions). */
function relativeTo(ancestor: Node, node: Node): Transform {
  return composeTransforms(invertTransform(rigidWorld(ancestor)), rigidWorld(node));
}

function bitsOf(names: readonly string[] | undefined, fallback: number): number {
  if (!names) return fallback;
  let x = 0;
  for (const s of names) { const m = /^bit(\d+)$/.exec(s); if (m && Number(m[1]) < 32) x |= 1 << Number(m[1]); }
  return x >>> 0;
}

const DEFAULT_SIMULATION = { gravity: [0, -9.81, 0], dt: 1 / 60, substeps: 2, velocityIterations: 8, positionIterations: 2, ground: null };

/** The rig described by a document's physics; throws ImportError naming the source and the reason. */
export function rigFromGltf(doc: Document, source: string): RigDocument {
  const root = doc.getRoot();
  const physics = root.listExtensionsUsed().find((e): e is PhysicsRigidBodiesExtension => e instanceof PhysicsRigidBodiesExtension);
  const shapesExt = root.listExtensionsUsed().find((e): e is ImplicitShapesExtension => e instanceof ImplicitShapesExtension);
  if (!physics) throw new ImportError(`${source}: carries no KHR_physics_rigid_bodies: nothing to import as a rig`);
  const extras = isObj(root.getExtras().marionette) ? (root.getExtras().marionette as Json) : {};
  const rigExtras = isObj(extras.rig) ? extras.rig : {};
  const nodes = root.listNodes();
  const phys = (n: Node): NodePhysics | undefined => physics.nodes.get(n);
  const mx = (n: Node): Json => (isObj(n.getExtras().marionette) ? (n.getExtras().marionette as Json) : {});

  // Bodies: nodes with a motion, and (ours) nodes marked as static bodies.
  const bodyNodes = nodes.filter((n) => phys(n)?.motion || (isObj(mx(n).body) && (mx(n).body as Json).type === 'static'));
  if (bodyNodes.length === 0) throw new ImportError(`${source}: KHR_physics_rigid_bodies has no node with a motion: no bodies to import`);
  const bodyOf = (n: Node): Node | null => { for (let p: Node | null = n; p; p = p.getParentNode()) if (bodyNodes.includes(p)) return p; return null; };

  // Bones: the listed names (ours), else every body node, every skin joint and their ancestors.
  const boneSet = new Set<Node>();
  if (Array.isArray(extras.bones)) {
    for (const name of extras.bones) { const n = nodes.find((x) => x.getName() === name); if (n) boneSet.add(n); }
  } else {
    for (const s of root.listSkins()) for (const j of s.listJoints()) boneSet.add(j);
    for (const b of bodyNodes) boneSet.add(b);
    for (const b of [...boneSet]) for (let p = b.getParentNode(); p; p = p.getParentNode()) boneSet.add(p);
  }
  for (const b of bodyNodes) boneSet.add(b);
  const names = new Set<string>();
  for (const n of boneSet) {
    if (!n.getName()) throw new ImportError(`${source}: node ${nodes.indexOf(n)} is a bone but has no name`);
    if (names.has(n.getName())) throw new ImportError(`${source}: two bone nodes are named "${n.getName()}"`);
    names.add(n.getName());
  }
  const boneParent = (n: Node): Node | null => { for (let p = n.getParentNode(); p; p = p.getParentNode()) if (boneSet.has(p)) return p; return null; };
  const bones = [...boneSet].map((n) => {
    const parent = boneParent(n);
    // Our export carries the rig's own rest pose; otherwise a bone right under its parent bone (or a root
    // bone at the top of the scene) keeps its node's TRS, and any other is placed by its rigid world pose.
    const own = Array.isArray(extras.skeleton) ? (extras.skeleton as { name: string; rest: unknown }[]).find((b) => b.name === n.getName()) : undefined;
    if (own) return { name: n.getName(), parent: parent ? parent.getName() : null, rest: own.rest };
    const direct = (parent && n.getParentNode() === parent) || (!parent && !n.getParentNode());
    const t = direct ? local(n) : parent ? relativeTo(parent, n) : rigidWorld(n);
    return { name: n.getName(), parent: parent ? parent.getName() : null, rest: { translation: cv(t.position), rotation: cq(t.rotation), scale: direct ? cv(n.getScale()) : [1, 1, 1] } };
  });

  const bodyName = new Map<Node, string>();
  const offsets = new Map<Node, Transform>();
  const bodies = bodyNodes.map((n) => {
    const e = isObj(mx(n).body) ? (mx(n).body as Json) : {};
    const name = typeof e.name === 'string' ? e.name : n.getName();
    bodyName.set(n, name);
    const off = isObj(e.offset) ? (e.offset as { position: Vec3; rotation: Quat }) : { position: [0, 0, 0] as Vec3, rotation: [0, 0, 0, 1] as Quat };
    const offset: Transform = { position: [...off.position] as Vec3, rotation: quatNormalize(off.rotation) };
    offsets.set(n, offset);
    const inv = invertTransform(offset);
    const motion = phys(n)?.motion;
    let material = { friction: 0.5, restitution: 0 }, group = 1, mask = 0xffffffff;
    const colliders = nodes.filter((c) => c !== n && phys(c)?.collider && bodyOf(c) === n && !phys(c)?.motion);
    const shapes = colliders.map((c) => {
      const col = phys(c)!.collider!;
      const se = isObj(mx(c).shape) ? (mx(c).shape as Json) : {};
      const pose = composeTransforms(inv, relativeTo(n, c));
      if (col.physicsMaterial !== undefined) {
        const m = physics.physicsMaterials[col.physicsMaterial];
        if (!m) throw new ImportError(`${source}: node "${c.getName()}" names physicsMaterial ${col.physicsMaterial}, which does not exist`);
        const f = m.dynamicFriction ?? m.staticFriction ?? 0.5;
        material = { friction: m.frictionCombine === 'multiply' ? f * f : f, restitution: m.restitution ?? 0 };
      }
      if (col.collisionFilter !== undefined) {
        const f = physics.collisionFilters[col.collisionFilter];
        if (f) {
          group = bitsOf(f.collisionSystems, 1);
          mask = f.collideWithSystems ? bitsOf(f.collideWithSystems, 0xffffffff) : (0xffffffff & ~bitsOf(f.notCollideWithSystems, 0)) >>> 0;
        }
      }
      const own = { ...(typeof se.mass === 'number' ? { mass: se.mass } : {}), ...(typeof se.density === 'number' ? { density: se.density } : {}) };
      const axis = (se.axis === 'x' || se.axis === 'y' || se.axis === 'z' ? se.axis : 'y') as 'x' | 'y' | 'z';
      const unAxis = (p: Transform) => ({ position: cv(p.position), rotation: cq(quatMul(p.rotation, quatConj(AXIS_FROM_Y[axis]))) });
      const plain = { position: cv(pose.position), rotation: cq(pose.rotation) };
      if (col.geometry.shape !== undefined) {
        const s = shapesExt?.shapes[col.geometry.shape];
        if (!s) throw new ImportError(`${source}: node "${c.getName()}" names KHR_implicit_shapes shape ${col.geometry.shape}, which does not exist`);
        switch (s.type) {
          case 'sphere':
            if (se.type === 'capsule') return { type: 'capsule' as const, ...unAxis(pose), radius: s.sphere.radius, halfHeight: 0, axis, ...own };
            return { type: 'sphere' as const, ...plain, radius: s.sphere.radius, hollow: se.hollow === true, ...own };
          case 'box': return { type: 'box' as const, ...plain, halfExtents: cv(s.box.size.map((x) => x / 2)), ...own };
          case 'capsule': return { type: 'capsule' as const, ...unAxis(pose), radius: Math.max(s.capsule.radiusTop, s.capsule.radiusBottom), halfHeight: s.capsule.height / 2, axis, ...own };
          case 'cylinder': return { type: 'cylinder' as const, ...unAxis(pose), radius: Math.max(s.cylinder.radiusTop, s.cylinder.radiusBottom), halfHeight: s.cylinder.height / 2, axis, hollow: se.hollow === true, ...own };
          default: throw new ImportError(`${source}: node "${c.getName()}": implicit shape type "${(s as { type: string }).type}" is not one Marionette reads`);
        }
      }
      // A convex hull of a mesh: our ellipsoid (radii in extras, else the mesh's bounds).
      let radii = Array.isArray(se.radii) ? (se.radii as number[]) : null;
      if (!radii) {
        const acc = (col.geometry.node ?? c).getMesh()?.listPrimitives()[0]?.getAttribute('POSITION');
        if (!acc) throw new ImportError(`${source}: node "${c.getName()}": a mesh collider without positions`);
        const lo = acc.getMin([]), hi = acc.getMax([]);
        radii = [0, 1, 2].map((k) => (hi[k]! - lo[k]!) / 2);
      }
      return { type: 'ellipsoid' as const, ...plain, radii: cv(radii), ...own };
    });
    if (shapes.length === 0) throw new ImportError(`${source}: body node "${n.getName()}" has no collider: a Marionette body needs at least one shape`);
    const hasMass = typeof e.mass === 'number' || (e.mass === undefined && e.density === undefined);
    return {
      name, bone: n.getName(), type: (e.type === 'static' || e.type === 'kinematic' || e.type === 'dynamic' ? e.type : motion?.isKinematic ? 'kinematic' : 'dynamic') as 'dynamic' | 'kinematic' | 'static',
      offset: { position: cv(offset.position), rotation: cq(offset.rotation) }, shapes,
      mass: hasMass ? (typeof e.mass === 'number' ? e.mass : motion?.mass ?? null) : null,
      density: hasMass ? null : (typeof e.density === 'number' ? e.density : 1000),
      material, linearDamping: typeof e.linearDamping === 'number' ? e.linearDamping : 0, angularDamping: typeof e.angularDamping === 'number' ? e.angularDamping : 0,
      collisionGroup: group, collisionMask: mask,
      ...(isObj(e.extras) ? { extras: e.extras } : {}),
    };
  });

  const joints = nodes.filter((n) => phys(n)?.joint).map((na, i) => {
    const pj = phys(na)!.joint!;
    const nb = pj.connectedNode;
    const ba = bodyOf(na), bb = bodyOf(nb);
    const where = `${source}: joint node "${na.getName()}"`;
    if (!ba || !bb) throw new ImportError(`${where}: both ends must be in bodies (nodes with a motion); ${!ba ? 'its own node' : `connectedNode "${nb.getName()}"`} is not`);
    const def = physics.physicsJoints[pj.joint];
    if (!def) throw new ImportError(`${where}: physicsJoints[${pj.joint}] does not exist`);
    const je = isObj(mx(na).joint) ? (mx(na).joint as Json) : {};
    const fa = composeTransforms(invertTransform(offsets.get(ba)!), relativeTo(ba, na));
    const fb = composeTransforms(invertTransform(offsets.get(bb)!), relativeTo(bb, nb));
    const limits = def.limits ?? [];
    const has = (l: JointLimit, lin: number[] | null, ang: number[] | null) =>
      JSON.stringify([...(l.linearAxes ?? [])].sort()) === JSON.stringify(lin ?? []) && JSON.stringify([...(l.angularAxes ?? [])].sort()) === JSON.stringify(ang ?? []);
    const find = (lin: number[] | null, ang: number[] | null) => limits.find((l) => has(l, lin, ang));
    const locked = (lin: number[] | null, ang: number[] | null) => { const l = find(lin, ang); return !!l && (l.min ?? 0) === 0 && (l.max ?? 0) === 0; };
    const inferred = locked(null, [0, 1, 2]) ? (locked([0, 1, 2], null) ? 'fixed' : 'prismatic') : locked(null, [1, 2]) ? 'hinge' : 'ball';
    const type = (je.type === 'ball' || je.type === 'hinge' || je.type === 'fixed' || je.type === 'prismatic' ? je.type : inferred) as 'ball' | 'hinge' | 'fixed' | 'prismatic';
    const range = (l: JointLimit | undefined): [number, number] | null => (l ? [l.min ?? -Infinity, l.max ?? Infinity] : null);
    const common = {
      name: typeof je.name === 'string' ? je.name : na.getName() || `joint${i}`,
      bodyA: bodyName.get(ba)!, bodyB: bodyName.get(bb)!, collideConnected: pj.enableCollision ?? false,
      frameA: { position: cv(fa.position), rotation: cq(fa.rotation) }, frameB: { position: cv(fb.position), rotation: cq(fb.rotation) },
      ...(isObj(je.extras) ? { extras: je.extras } : {}),
    };
    if (type === 'fixed') return { type, ...common };
    const drive = def.drives?.[0];
    const base = isObj(je.motor) ? (je.motor as Json) : null;
    const motor = {
      mode: (base?.mode as string | undefined) ?? (drive ? 'pd' : 'off'),
      target: isObj(base?.target) ? base.target : { source: 'rest' },
      maxTorque: drive?.maxForce ?? (base?.maxTorque as number | undefined) ?? 0,
      errorReduction: (base?.errorReduction as number | undefined) ?? 0.5,
      stiffness: base && base.mode !== 'pd' ? (base.stiffness as number) : drive?.stiffness ?? 0,
      damping: base && base.mode !== 'pd' ? (base.damping as number) : drive?.damping ?? 0,
      frictionTorque: (base?.frictionTorque as number | undefined) ?? 0,
      ...(base?.torqueLimit === 'perAxis' || base?.torqueLimit === 'magnitude' ? { torqueLimit: base.torqueLimit } : {}),
      ...(typeof base?.maxSpeed === 'number' ? { maxSpeed: base.maxSpeed } : {}),
    };
    // Our own screw / cylindrical / planar (the type, pitch and slide motor in extras; GLTF_LOSSES).
    const slideMotor = isObj(je.slideMotor) ? je.slideMotor as typeof motor : { ...motor, mode: 'off', maxTorque: 0, frictionTorque: 0 };
    if (je.type === 'screw' && typeof je.pitch === 'number') return { type: 'screw', ...common, pitch: je.pitch, limit: range(find(null, [0])), motor };
    if (je.type === 'cylindrical') return { type: 'cylindrical', ...common, limit: range(find(null, [0])), slideLimit: range(find([0], null)), motor, slideMotor };
    if (je.type === 'planar') return { type: 'planar', ...common, limit: range(find(null, [0])), slideLimitY: range(find([1], null)), slideLimitZ: range(find([2], null)), motor, slideMotor };
    if (type === 'hinge') return { type, ...common, limit: range(find(null, [0])), motor };
    if (type === 'prismatic') return { type, ...common, limit: range(find([0], null)), motor };
    const cone = find(null, [1, 2]);
    const swing = Array.isArray(je.swingLimit) || je.swingLimit === null ? je.swingLimit : cone ? [cone.max ?? Math.PI, cone.max ?? Math.PI] : null;
    return { type, ...common, twistLimit: range(find(null, [0])), swingLimit: swing, motor };
  });

  // Our export lists the original order of bodies and joints; keep it.
  const order = isObj(extras.order) ? (extras.order as { bodies?: unknown; joints?: unknown }) : {};
  const byOrder = <T extends { name: string }>(list: T[], names: unknown): T[] => {
    if (!Array.isArray(names)) return list;
    const rank = (n: string) => { const i = names.indexOf(n); return i < 0 ? names.length : i; };
    return [...list].sort((a, b) => rank(a.name) - rank(b.name));
  };
  const groundNode = nodes.find((n) => n.getName() === GROUND_NODE);
  const simulation = isObj(rigExtras.simulation) ? rigExtras.simulation : DEFAULT_SIMULATION;
  const rig = {
    ...(typeof rigExtras.$schema === 'string' ? { $schema: rigExtras.$schema } : {}),
    format: 'marionette-rig', version: 1,
    name: typeof rigExtras.name === 'string' ? rigExtras.name : root.listScenes()[0]?.getName() || 'imported',
    units: { length: 'm', mass: 'kg', time: 's', angle: 'rad', torque: 'N·m' },
    axes: { up: '+Y', forward: '+Z', handedness: 'right' },
    solver: rigExtras.solver === 'particle' ? 'particle' : 'rigid',
    skeleton: { bones, ...(typeof extras.skeletonScale === 'number' ? { scale: extras.skeletonScale } : {}) },
    bodies: byOrder(bodies, order.bodies), joints: byOrder(joints, order.joints),
    controllers: Array.isArray(rigExtras.controllers) ? rigExtras.controllers : [],
    simulation: groundNode || isObj(rigExtras.simulation) ? simulation : DEFAULT_SIMULATION,
    ...(isObj(rigExtras.extras) ? { extras: rigExtras.extras } : {}),
  };
  const result = validateRig(rig);
  if (!result.ok) throw new ImportError(`${source}: the imported rig is invalid:\n${result.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
  return result.rig;
}

/** Read GLB bytes (or .gltf JSON with its resources) and import the rig. */
export async function importGltfBytes(bytes: Uint8Array, source: string, resources: Record<string, Uint8Array<ArrayBuffer>> = {}): Promise<{ rig: RigDocument; document: Document }> {
  const io = gltfIO();
  let doc: Document;
  try {
    const isGlb = bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
    doc = isGlb ? await io.readBinary(bytes) : await io.readJSON({ json: JSON.parse(decodeUtf8(bytes) ?? '') as never, resources });
  } catch (e) {
    throw new ImportError(`${source}: not a readable glTF 2.0 file (${(e as Error).message})`);
  }
  return { rig: rigFromGltf(doc, source), document: doc };
}
