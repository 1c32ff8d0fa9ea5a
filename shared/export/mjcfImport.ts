/**
 * MJCF import: a MuJoCo model becomes a rig (shapes, no skin) — at least everything writeMjcf writes:
 * nested bodies with pos/quat, free / no / hinge / slide / ball joints, <inertial> masses, sphere, capsule,
 * cylinder, box and ellipsoid geoms (size, or fromto), a ground plane, position and velocity actuators
 * with forcerange, frictionloss, contact excludes between joined bodies, gravity and timestep.
 *
 * Several joints in one body are read as the kinematic pairs writeMjcf writes (cylindrical: hinge + slide
 * on one axis; screw: the same tied by a joint equality slide = pitch·angle; planar: two slides then a hinge).
 * What the rig format cannot hold is reported, not guessed: other multi-joint bodies, mesh or
 * height-field geoms, tendons, other equality constraints are refused with the element's line. The rig's mass
 * properties come from its shapes, so a body keeps MuJoCo's mass but its inertia is the shapes'.
 */
import { quatConj, quatFromTo, quatMul, quatNormalize } from '../math/quat';
import { composeTransforms, invertTransform, type Transform } from '../math/transform';
import { length, normalize, sub, type Vec3 } from '../math/vec3';
import { decodeUtf8 } from '../project/utf8';
import { formatProblem, validateRig } from '../rig';
import type { RigDocument } from '../rig/schema';
import { frameFromXY } from '../authoring/frames';
import { fromZUp, Y_UP_TO_Z_UP } from './mjcf';
import { parseXml, XmlError, type XmlElement } from './xml';

export class MjcfImportError extends Error {
  override name = 'MjcfImportError';
}

const Z_UP_TO_Y_UP = quatConj(Y_UP_TO_Z_UP);

export function readMjcf(text: string, source: string): RigDocument {
  let root: XmlElement;
  try { root = parseXml(text); } catch (e) {
    if (e instanceof XmlError) throw new MjcfImportError(`${source}: not well-formed XML: ${e.message}`);
    throw e;
  }
  const fail = (el: XmlElement, reason: string): never => { throw new MjcfImportError(`${source}: line ${el.line ?? '?'}: <${el.name}>${el.attributes.name ? ` "${el.attributes.name}"` : ''}: ${reason}`); };
  if (root.name !== 'mujoco') fail(root, 'the root element of an MJCF file is <mujoco>');
  const child = (el: XmlElement, name: string) => el.children.find((c) => c.name === name);
  const numbers = (el: XmlElement, attr: string, count?: number): number[] | undefined => {
    const v = el.attributes[attr];
    if (v === undefined) return undefined;
    const xs = v.trim().split(/\s+/).map(Number);
    if (xs.some((x) => !Number.isFinite(x)) || (count !== undefined && xs.length !== count)) fail(el, `${attr}="${v}" must be ${count ?? 'some'} numbers`);
    return xs;
  };
  const tendon = child(root, 'tendon');
  if (tendon && tendon.children.length) fail(tendon.children[0]!, 'tendon elements have no counterpart in a Marionette rig');
  const compiler = child(root, 'compiler');
  const degrees = (compiler?.attributes.angle ?? 'degree') === 'degree';
  const angle = (x: number) => (degrees ? (x * Math.PI) / 180 : x);
  const option = child(root, 'option');
  const timestep = option ? numbers(option, 'timestep', 1)?.[0] ?? 0.002 : 0.002;
  const gravityZ = (option && numbers(option, 'gravity', 3)) ?? [0, 0, -9.81];

  const pose = (el: XmlElement): Transform => {
    for (const a of ['euler', 'axisangle', 'xyaxes', 'zaxis']) if (el.attributes[a] !== undefined) fail(el, `orientation by ${a} is not read; write quat (w x y z)`);
    const p = numbers(el, 'pos', 3) ?? [0, 0, 0];
    const q = numbers(el, 'quat', 4) ?? [1, 0, 0, 0];
    return { position: [p[0]!, p[1]!, p[2]!], rotation: quatNormalize([q[1]!, q[2]!, q[3]!, q[0]!]) };
  };

  const bones: unknown[] = [], bodies: unknown[] = [], joints: unknown[] = [];
  const excluded = new Set<string>();
  for (const e of child(root, 'contact')?.children ?? []) if (e.name === 'exclude') excluded.add([e.attributes.body1, e.attributes.body2].sort().join('\u0000'));
  const filterParent = (child(option ?? root, 'flag')?.attributes.filterparent ?? 'enable') === 'enable';
  const worldbody = child(root, 'worldbody');
  if (!worldbody) fail(root, 'has no <worldbody>');
  let ground: { height: number; friction: number; restitution: number } | null = null;
  const jointOfBody = new Map<string, string>();

  const shapesOf = (body: XmlElement): { shapes: unknown[]; friction: number } => {
    let friction = 1;
    const shapes = body.children.filter((c) => c.name === 'geom').map((g) => {
      const type = g.attributes.type ?? 'sphere';
      const size = numbers(g, 'size') ?? [];
      const f = numbers(g, 'friction');
      if (f) friction = f[0]!;
      const fromto = numbers(g, 'fromto', 6);
      let t = pose(g);
      let half = size[1] ?? 0;
      if (fromto) {
        const a: Vec3 = [fromto[0]!, fromto[1]!, fromto[2]!], b: Vec3 = [fromto[3]!, fromto[4]!, fromto[5]!];
        const d = sub(b, a);
        half = length(d) / 2;
        t = { position: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2], rotation: quatFromTo([0, 0, 1], normalize(d)) };
      }
      const base = { position: t.position, rotation: t.rotation };
      const need = (n: number) => { if (size.length < n) fail(g, `a ${type} needs ${n} size numbers, got ${size.length}`); };
      switch (type) {
        case 'sphere': need(1); return { type, ...base, radius: size[0], hollow: false };
        case 'capsule': if (!fromto) need(2); else need(1); return { type, ...base, radius: size[0], halfHeight: half, axis: 'z' };
        case 'cylinder': if (!fromto) need(2); else need(1); return { type, ...base, radius: size[0], halfHeight: half, axis: 'z', hollow: false };
        case 'box': need(3); return { type, ...base, halfExtents: size.slice(0, 3) };
        case 'ellipsoid': need(3); return { type, ...base, radii: size.slice(0, 3) };
        default: return fail(g, `geom type "${type}" has no Marionette shape (sphere, capsule, cylinder, box, ellipsoid)`);
      }
    });
    return { shapes, friction };
  };

  const actuatorsByJoint = new Map<string, XmlElement[]>();
  for (const a of child(root, 'actuator')?.children ?? []) {
    const j = a.attributes.joint;
    if (!j) fail(a, 'only joint actuators are read');
    actuatorsByJoint.set(j!, [...(actuatorsByJoint.get(j!) ?? []), a]);
  }

  const motorOf = (jel: XmlElement): Record<string, unknown> => {
    const friction = numbers(jel, 'frictionloss', 1)?.[0] ?? 0;
    const motor: Record<string, unknown> = { mode: 'off', target: { source: 'rest' }, maxTorque: 0, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: friction };
    const a = (actuatorsByJoint.get(jel.attributes.name ?? '') ?? [])[0];
    if (!a) return motor;
    const fr = numbers(a, 'forcerange', 2);
    if (!fr) fail(a, 'needs a forcerange: a Marionette motor is torque-limited');
    const kind = a.name;
    if (kind !== 'position' && kind !== 'velocity') fail(a, `<${kind}> actuators are not read (position and velocity are)`);
    const kp = numbers(a, 'kp', 1)?.[0] ?? 1, kv = numbers(a, 'kv', 1)?.[0] ?? (kind === 'velocity' ? 1 : 0);
    return kind === 'position'
      ? { ...motor, mode: 'pd', maxTorque: Math.max(Math.abs(fr![0]!), Math.abs(fr![1]!)), stiffness: kp, damping: kv, frictionTorque: 0 }
      : { ...motor, mode: 'velocity', maxTorque: Math.max(Math.abs(fr![0]!), Math.abs(fr![1]!)), frictionTorque: 0 };
  };

  // Joint equalities (joint1 = poly(joint2)): a screw's thread, as writeMjcf writes it.
  const threads = new Map<string, { hinge: string; pitch: number; el: XmlElement; used: boolean }>();
  for (const e of child(root, 'equality')?.children ?? []) {
    const c = e.name === 'joint' ? numbers(e, 'polycoef') ?? [0, 1, 0, 0, 0] : null;
    if (!c || !e.attributes.joint1 || !e.attributes.joint2 || c[0] !== 0 || !(c[1] !== 0) || c.slice(2).some((x) => x !== 0)) {
      fail(e, 'equality elements have no counterpart in a Marionette rig, but for a joint equality joint1 = pitch·joint2 (polycoef "0 pitch"), a screw\'s thread');
    }
    threads.set(e.attributes.joint1!, { hinge: e.attributes.joint2!, pitch: c![1]!, el: e, used: false });
  }

  /** Several joints in one body: a cylindrical (hinge + slide on one axis), screw (the same tied by a joint
   *  equality) or planar (two slides, then a hinge about their normal) joint, as writeMjcf writes them. */
  const kinematicPair = (el: XmlElement, js: XmlElement[], hasParent: boolean): { type: 'screw' | 'cylindrical' | 'planar'; hinge: XmlElement; slides: XmlElement[]; pitch: number; yAxis: Vec3; zSign: number } => {
    const refuse = (): never => fail(el, `has ${js.length} joints; Marionette reads several joints in one body only as a cylindrical joint (a hinge and a slide on one axis), a screw (the same tied by a joint equality) or a planar joint (two slides, then a hinge about their normal), at one anchor, in a body inside another`);
    if (!hasParent) refuse();
    const types = js.map((x) => x.attributes.type ?? 'hinge');
    const axisOf = (x: XmlElement) => normalize((numbers(x, 'axis', 3) ?? [0, 0, 1]) as Vec3);
    const posOf = (x: XmlElement) => numbers(x, 'pos', 3) ?? [0, 0, 0];
    const p0 = posOf(js[0]!);
    if (js.some((x) => length(sub(posOf(x) as Vec3, p0 as Vec3)) > 1e-9)) refuse();
    const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    if (js.length === 2 && types.includes('hinge') && types.includes('slide')) {
      const hinge = js[types.indexOf('hinge')]!, slide = js[types.indexOf('slide')]!;
      if (Math.abs(dot(axisOf(hinge), axisOf(slide)) - 1) > 1e-9) refuse();
      const thread = threads.get(slide.attributes.name ?? '');
      const screw = thread && thread.hinge === hinge.attributes.name;
      if (screw) thread.used = true;
      return { type: screw ? 'screw' : 'cylindrical', hinge, slides: [slide], pitch: screw ? thread.pitch : 0, yAxis: [0, 1, 0], zSign: 1 };
    }
    if (js.length === 3 && types[0] === 'slide' && types[1] === 'slide' && types[2] === 'hinge') {
      const y = axisOf(js[0]!), z = axisOf(js[1]!), x = axisOf(js[2]!);
      if (Math.abs(dot(x, y)) > 1e-9 || Math.abs(dot(x, z)) > 1e-9 || Math.abs(dot(y, z)) > 1e-9) refuse();
      const zSign = dot([x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]], z) > 0 ? 1 : -1;
      return { type: 'planar', hinge: js[2]!, slides: [js[0]!, js[1]!], pitch: 0, yAxis: y, zSign };
    }
    return refuse();
  };

  const visit = (el: XmlElement, parent: { name: string; world: Transform } | null, mjParentWorld: Transform) => {
    const name = el.attributes.name;
    if (!name) fail(el, 'every body needs a name (it becomes the bone and body name)');
    const local = pose(el);
    const mjWorld = composeTransforms(mjParentWorld, local);
    const world: Transform = { position: fromZUp(mjWorld.position), rotation: quatNormalize(quatMul(Z_UP_TO_Y_UP, mjWorld.rotation)) };
    const rest = parent ? composeTransforms(invertTransform(parent.world), world) : world;
    bones.push({ name, parent: parent?.name ?? null, rest: { translation: rest.position, rotation: quatNormalize(rest.rotation), scale: [1, 1, 1] } });
    const js = el.children.filter((c) => c.name === 'joint' || c.name === 'freejoint');
    const pair = js.length > 1 ? kinematicPair(el, js, parent !== null) : null;
    const j = pair ? pair.hinge : js[0];
    const free = j && (j.name === 'freejoint' || j.attributes.type === 'free');
    if (free && parent) fail(j, 'a free joint is only allowed on a body of the worldbody');
    const { shapes, friction } = shapesOf(el);
    if (shapes.length === 0) fail(el, 'has no geom: a Marionette body needs at least one shape');
    const inertial = child(el, 'inertial');
    const mass = inertial ? numbers(inertial, 'mass', 1)?.[0] : undefined;
    const type = el.attributes.mocap === 'true' ? 'kinematic' : !parent && !free ? 'static' : 'dynamic';
    bodies.push({
      name, bone: name, type, offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, shapes,
      mass: mass ?? null, density: mass === undefined ? 1000 : null, material: { friction, restitution: 0 },
      linearDamping: 0, angularDamping: 0, collisionGroup: 1, collisionMask: 0xffffffff,
    });
    if (parent && !free) {
      const jname = j?.attributes.name ?? `${name}_joint`;
      jointOfBody.set(name, jname);
      const jtype = j ? (j.attributes.type ?? 'hinge') : 'fixed';
      const anchor = j ? (numbers(j, 'pos', 3) ?? [0, 0, 0]) : [0, 0, 0];
      const axis = j ? normalize((numbers(j, 'axis', 3) ?? [0, 0, 1]) as Vec3) : ([1, 0, 0] as Vec3);
      // A planar pair's frame: X the hinge axis, Y its first slide.
      const frameB: Transform = { position: anchor as Vec3, rotation: pair?.type === 'planar' ? frameFromXY(axis, pair.yAxis) : quatFromTo([1, 0, 0], axis) };
      const frameA = composeTransforms(invertTransform(parent.world), composeTransforms(world, frameB));
      const collide = !excluded.has([parent.name, name].sort().join('\u0000')) && !filterParent;
      const common = {
        name: jname, bodyA: parent.name, bodyB: name, collideConnected: collide,
        frameA: { position: frameA.position, rotation: quatNormalize(frameA.rotation) }, frameB: { position: frameB.position, rotation: quatNormalize(frameB.rotation) },
      };
      if (jtype === 'fixed') joints.push({ type: 'fixed', ...common });
      else {
        const range = numbers(j!, 'range', 2)?.map((x) => (jtype === 'slide' ? x : angle(x)));
        // MuJoCo's joint value is `ref` at the model pose, where the imported frames coincide (our 0).
        const refRaw = numbers(j!, 'ref', 1)?.[0] ?? 0;
        const ref = jtype === 'slide' ? refRaw : angle(refRaw);
        const limited = range && (j!.attributes.limited ?? 'auto') !== 'false';
        const motor = motorOf(j!);
        if (pair) {
          // A kinematic pair: the hinge is the angle (jname), the slides its offsets, their refs subtracted.
          const slideRange = (sl: XmlElement): [number, number] | null => {
            const r = numbers(sl, 'range', 2), ref0 = numbers(sl, 'ref', 1)?.[0] ?? 0;
            return r && (sl.attributes.limited ?? 'auto') !== 'false' ? [r[0]! - ref0, r[1]! - ref0] : null;
          };
          const limit = limited ? [range![0]! - ref, range![1]! - ref] : null;
          const slideMotor = motorOf(pair.slides[0]!);
          if (pair.type === 'screw') joints.push({ type: 'screw', ...common, pitch: pair.pitch, limit, motor });
          else if (pair.type === 'cylindrical') joints.push({ type: 'cylindrical', ...common, limit, slideLimit: slideRange(pair.slides[0]!), motor, slideMotor });
          else {
            // Frame Z = X × Y; a second slide along −Z reads its range negated.
            const z = pair.zSign < 0 ? (r: [number, number] | null) => r && [-r[1], -r[0]] : (r: [number, number] | null) => r;
            joints.push({ type: 'planar', ...common, limit, slideLimitY: slideRange(pair.slides[0]!), slideLimitZ: z(slideRange(pair.slides[1]!)), motor, slideMotor });
          }
        } else if (jtype === 'hinge') joints.push({ type: 'hinge', ...common, limit: limited ? [range![0]! - ref, range![1]! - ref] : null, motor });
        else if (jtype === 'slide') joints.push({ type: 'prismatic', ...common, limit: limited ? [range![0]! - ref, range![1]! - ref] : null, motor });
        else if (jtype === 'ball') {
          const cone = limited ? Math.min(range![1]!, Math.PI) : null;
          joints.push({ type: 'ball', ...common, twistLimit: cone ? [-cone, cone] : null, swingLimit: cone ? [cone, cone] : null, motor });
        } else fail(j!, `joint type "${jtype}" is not read`);
      }
    }
    for (const c of el.children) if (c.name === 'body') visit(c, { name: name!, world }, mjWorld);
  };
  for (const c of worldbody!.children) {
    if (c.name === 'body') visit(c, null, { position: [0, 0, 0], rotation: [0, 0, 0, 1] });
    else if (c.name === 'geom' && c.attributes.type === 'plane') {
      const p = numbers(c, 'pos', 3) ?? [0, 0, 0];
      ground = { height: p[2]!, friction: numbers(c, 'friction')?.[0] ?? 1, restitution: 0 };
    }
  }
  for (const t of threads.values()) {
    if (!t.used) fail(t.el, `a joint equality is read only as a screw's thread: a hinge "${t.hinge}" and the slide joint1 in one body, on one axis`);
  }
  const rig = {
    format: 'marionette-rig', version: 1, name: root.attributes.model || 'imported',
    units: { length: 'm', mass: 'kg', time: 's', angle: 'rad', torque: 'N·m' },
    axes: { up: '+Y', forward: '+Z', handedness: 'right' },
    solver: 'rigid', skeleton: { bones }, bodies, joints, controllers: [],
    simulation: { gravity: fromZUp(gravityZ as Vec3), dt: Math.min(0.1, 2 * timestep), substeps: 2, velocityIterations: 8, positionIterations: 2, ground },
  };
  const result = validateRig(rig);
  if (!result.ok) throw new MjcfImportError(`${source}: the imported rig is invalid:\n${result.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
  return result.rig;
}


/**
 * What the editor opens for an MJCF file: the rig, and a glTF creature made from it — a node per bone in a
 * skin (no mesh, so only the bodies' shapes are drawn) — whose bones are exactly the rig's.
 */
export async function mjcfCreature(bytes: Uint8Array, source: string): Promise<{ rig: RigDocument; glb: Uint8Array }> {
  const rig = readMjcf(decodeUtf8(bytes), source);
  const { buildGltfDocument, gltfIO } = await import('./gltf');
  const doc = buildGltfDocument(rig);
  const root = doc.getRoot();
  const skin = doc.createSkin(`${rig.name}-skeleton`);
  for (const b of rig.skeleton.bones) {
    const node = root.listNodes().find((n) => n.getName() === b.name);
    if (node) skin.addJoint(node);
  }
  return { rig, glb: await gltfIO().writeBinary(doc) };
}
