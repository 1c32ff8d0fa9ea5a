/**
 * MJCF (MuJoCo XML) from a rig: `writeMjcf(rig, options)` is pure (rig in, text out) and also the model
 * another engine can build from (`buildMjcf` returns the element tree, the actuator map and the losses).
 *
 * Mapping (docs/interop.md has the table):
 *  - axes: ours are +Y up, +Z forward; MuJoCo is +Z up. The world is turned by C: (x, y, z) → (z, x, y)
 *    (a proper rotation, 120° about (1,1,1)), so our up is MuJoCo's +Z and our forward its +X. Only the
 *    root bodies, gravity and the ground carry C; everything else is relative to a parent and unchanged.
 *  - bodies: nested by the joint tree (bodyA is the parent). A dynamic root gets a free joint, a static
 *    one is welded to the world (no joint), a kinematic root is a mocap body. Each body has the exact
 *    `<inertial>` (mass, centre, full inertia) of its shapes; geoms carry only collision.
 *  - shapes: sphere, capsule, cylinder, box and ellipsoid are all native geoms (capsules and cylinders
 *    turned from their axis onto MuJoCo's local Z).
 *  - joints: hinge and slide about frame B's X in the child, with `ref` = the rest angle (or offset) so
 *    MuJoCo's joint value is ours and `range` is our limit unchanged; ball with `range = 0 cone`; fixed is
 *    no joint (the child is welded to its parent). The kinematic pairs are several MuJoCo joints in one
 *    body: cylindrical = hinge + slide on frame X (`<name>`, `<name>_slide`); planar = slides along frame
 *    A's Y and Z (`<name>_y`, `<name>_z`, listed first so the hinge does not turn them) + hinge about X;
 *    screw = hinge + slide on X tied by a joint equality slide = pitch × angle (`polycoef="0 pitch"`; MuJoCo
 *    holds an equality softly, by solref, so this one is approximate).
 *  - motors: `pd` → `<position kp kv forcerange=±τmax>`; `position` (bias r·ε/Δt, clamped) has no MuJoCo
 *    twin and becomes the PD that a converged velocity row equals: kv = I/Δt, kp = r·I/Δt², with I the
 *    effective inertia about the joint axis at rest (the child's subtree against the rest of the creature,
 *    both about the anchor); `velocity` → `<velocity kv=I/Δt>`; a ball motor → three actuators whose
 *    gears are frame B's X, Y, Z; `off` with friction → the joint's `frictionloss`.
 *  - collision: `filterparent` is disabled and every pair our filters keep apart (group/mask, or joined
 *    without collideConnected) is an explicit `<exclude>`, so exactly our pairs collide.
 *  - timestep = dt / substeps (our solver step Δt), gravity and the ground plane.
 */
import { quatConj, quatMul, quatNormalize, quatRotate, wrapAngle, type Quat, type ReadonlyQuat } from '../math/quat';
import { composeTransforms, invertTransform, type Transform } from '../math/transform';
import { dot, sub, type ReadonlyVec3, type Vec3 } from '../math/vec3';
import { inertiaAboutPoint } from '../authoring/pdGains';
import { bodyRestWorld, boneRestWorld } from '../rig/restPose';
import type { RigBody, RigDocument, RigJoint, RigMotor } from '../rig/schema';
import { lossesText, type ExportLosses } from './losses';
import { DEFAULT_MAX_DRIVE_SPEED } from '../physics/joints/motor';
import { bodyMassProperties } from './rig';
import { writeXml, type XmlElement } from './xml';

/** Every driven motor (its `maxSpeed`, DEFAULT_MAX_DRIVE_SPEED when unset, bounds the speed the drive asks for). */
const DRIVE_SPEED_LOSS = `motor maxSpeed (${DEFAULT_MAX_DRIVE_SPEED} rad/s or m/s unless a motor sets it): MuJoCo's actuators do not bound the speed their servo asks for`;

export interface MjcfOptions {
  /** MuJoCo integrator (default 'implicitfast': the position actuators' kv is integrated implicitly). */
  integrator?: 'Euler' | 'implicitfast' | 'implicit' | 'RK4';
  /** Timestep (s); default the rig's solver step dt / substeps. */
  timestep?: number;
  /** Write the losses as a comment at the top (default true). */
  lossComment?: boolean;
}

/** One MuJoCo actuator and the rig DOF it drives. */
export interface MjcfActuator {
  name: string;
  joint: string;
  /** 0..2: the frame axis (X, Y, Z) of a ball motor or of a slide motor (cylindrical X, planar Y and Z); 0 for hinge and prismatic. */
  axis: number;
  /** A cylindrical or planar joint's slide motor (force units); absent otherwise. */
  slide?: boolean;
  kind: 'position' | 'velocity';
  kp: number;
  kv: number;
  forceLimit: number;
  /** The control that holds the rig's own target (0 for rest targets, the target velocity for velocity motors). */
  ctrl: number;
}

export interface MjcfModel {
  root: XmlElement;
  actuators: MjcfActuator[];
  losses: ExportLosses;
}

/** C: our frame (+Y up, +Z forward) → MuJoCo's (+Z up, forward +X): (x, y, z) → (z, x, y). */
export const Y_UP_TO_Z_UP: Quat = [0.5, 0.5, 0.5, 0.5];
export const toZUp = (v: ReadonlyVec3): Vec3 => [v[2], v[0], v[1]];
export const fromZUp = (v: ReadonlyVec3): Vec3 => [v[1], v[2], v[0]];

const X: Vec3 = [1, 0, 0];
/** Rotation taking MuJoCo's local Z (capsule / cylinder axis) onto our shape axis. */
const AXIS_FROM_Z: Record<'x' | 'y' | 'z', Quat> = {
  x: [0, Math.SQRT1_2, 0, Math.SQRT1_2],
  y: [-Math.SQRT1_2, 0, 0, Math.SQRT1_2],
  z: [0, 0, 0, 1],
};

/** A number as MJCF text: 15 significant digits, no "-0", tiny noise flushed to 0. */
export function num(x: number): string {
  const v = Math.abs(x) < 1e-14 ? 0 : x;
  return String(Number(v.toPrecision(15)));
}
const nums = (xs: readonly number[]) => xs.map(num).join(' ');
/** MuJoCo quaternions are w x y z; ours x y z w. */
const wxyz = (q: ReadonlyQuat) => { const n = quatNormalize(q); return nums(n[3] < 0 ? [-n[3], -n[0], -n[1], -n[2]] : [n[3], n[0], n[1], n[2]]); };

const el = (name: string, attributes: Record<string, string> = {}, children: XmlElement[] = []): XmlElement => ({ name, attributes, children });

const isIdentity = (q: ReadonlyQuat) => Math.abs(Math.abs(quatNormalize(q)[3]) - 1) < 1e-15;
const isZero = (v: ReadonlyVec3) => v[0] === 0 && v[1] === 0 && v[2] === 0;

function poseAttrs(p: ReadonlyVec3, q: ReadonlyQuat): Record<string, string> {
  const a: Record<string, string> = {};
  if (!isZero(p)) a.pos = nums(p);
  if (!isIdentity(q)) a.quat = wxyz(q);
  return a;
}

/** Frame A and frame B of a joint in world at rest, and the rest value (hinge angle, slide offset). */
export function jointRestValue(joint: RigJoint, world: ReadonlyMap<string, Transform>): number {
  const ta = world.get(joint.bodyA)!, tb = world.get(joint.bodyB)!;
  const fa = composeTransforms(ta, { position: joint.frameA.position as Vec3, rotation: quatNormalize(joint.frameA.rotation) });
  const fb = composeTransforms(tb, { position: joint.frameB.position as Vec3, rotation: quatNormalize(joint.frameB.rotation) });
  if (joint.type === 'hinge' || joint.type === 'screw' || joint.type === 'cylindrical' || joint.type === 'planar') {
    const rel = quatMul(quatConj(fa.rotation), fb.rotation);
    return wrapAngle(2 * Math.atan2(rel[0], rel[3]));
  }
  if (joint.type === 'prismatic') return dot(sub(fb.position, fa.position), quatRotate(fa.rotation, X));
  return 0;
}

/** The rest offsets of a joint's slide DOFs (m, anchors' separation in frame A): cylindrical [along X],
 *  planar [along Y, along Z] (≈ 0 in a valid rig: the anchors meet at rest); [] for the other types. */
export function jointRestSlides(joint: RigJoint, world: ReadonlyMap<string, Transform>): number[] {
  if (joint.type !== 'cylindrical' && joint.type !== 'planar') return [];
  const ta = world.get(joint.bodyA)!, tb = world.get(joint.bodyB)!;
  const fa = composeTransforms(ta, { position: joint.frameA.position as Vec3, rotation: quatNormalize(joint.frameA.rotation) });
  const fb = composeTransforms(tb, { position: joint.frameB.position as Vec3, rotation: quatNormalize(joint.frameB.rotation) });
  const d = sub(fb.position, fa.position);
  const axes: Vec3[] = joint.type === 'cylindrical' ? [X] : [[0, 1, 0], [0, 0, 1]];
  return axes.map((a) => dot(d, quatRotate(fa.rotation, a)));
}

/** Collision rule of the rig: do bodies a and b collide (group/mask both ways, and joined pairs only with collideConnected)? */
export function bodiesCollide(rig: RigDocument, a: RigBody, b: RigBody): boolean {
  if (((a.collisionGroup & b.collisionMask) >>> 0) === 0 || ((b.collisionGroup & a.collisionMask) >>> 0) === 0) return false;
  for (const j of rig.joints) {
    if ((j.bodyA === a.name && j.bodyB === b.name) || (j.bodyA === b.name && j.bodyB === a.name)) return j.collideConnected;
  }
  return true;
}

/**
 * Effective inertia (kg·m², or kg along a slide) of a joint's DOF about axis n (world, at rest): the
 * child's whole subtree about the anchor against the rest of its creature (infinite when that holds a
 * static or kinematic body) — what a converged velocity row moves.
 */
export function subtreeInertia(rig: RigDocument, joint: RigJoint, world: ReadonlyMap<string, Transform>, nWorld: Vec3): number {
  const children = new Map<string, string[]>();
  const parentOf = new Map<string, string>();
  for (const j of rig.joints) { children.set(j.bodyA, [...(children.get(j.bodyA) ?? []), j.bodyB]); parentOf.set(j.bodyB, j.bodyA); }
  const subtree = new Set<string>();
  const walk = (b: string) => { subtree.add(b); for (const c of children.get(b) ?? []) walk(c); };
  walk(joint.bodyB);
  let root = joint.bodyA;
  while (parentOf.has(root)) root = parentOf.get(root)!;
  const component = new Set<string>();
  const walkAll = (b: string) => { component.add(b); for (const c of children.get(b) ?? []) walkAll(c); };
  walkAll(root);
  const tb = world.get(joint.bodyB)!;
  const anchor = composeTransforms(tb, { position: joint.frameB.position as Vec3, rotation: [0, 0, 0, 1] }).position;
  const sideValue = (names: Iterable<string>): number => {
    let s = 0;
    for (const name of names) {
      const body = rig.bodies.find((b) => b.name === name)!;
      if (body.type !== 'dynamic') return Infinity;
      const t = world.get(name)!;
      const { mass, tensor } = inertiaAboutPoint(body, t.rotation, t.position, anchor);
      if (joint.type === 'prismatic') s += mass;
      else for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) s += nWorld[i]! * tensor[3 * i + k]! * nWorld[k]!;
    }
    return s;
  };
  const child = sideValue(subtree);
  const rest = sideValue([...component].filter((b) => !subtree.has(b)));
  const inv = (child === Infinity ? 0 : 1 / child) + (rest === Infinity ? 0 : 1 / rest);
  return inv > 0 ? 1 / inv : Infinity;
}

/**
 * The gains a motor DOF exports with (about world axis n at rest): `pd` its own; `position` the PD a
 * converged velocity row with bias r·ε/Δt equals (kv = I/Δt, kp = r·I/Δt²); `velocity` a damper kv = I/Δt
 * toward the target velocity. I is the effective inertia of the DOF (subtreeInertia).
 */
export function motorGains(rig: RigDocument, joint: RigJoint & { motor: RigMotor }, nWorld: Vec3, world: ReadonlyMap<string, Transform>, h: number): { kp: number; kv: number; kind: 'position' | 'velocity' } {
  const m = joint.motor;
  if (m.mode === 'pd') return { kp: m.stiffness, kv: m.damping, kind: 'position' };
  const I = subtreeInertia(rig, joint, world, nWorld);
  const inertia = Number.isFinite(I) ? I : 0;
  if (m.mode === 'velocity') return { kp: 0, kv: inertia / h, kind: 'velocity' };
  return { kp: (m.errorReduction * inertia) / (h * h), kv: inertia / h, kind: 'position' };
}

export function buildMjcf(rig: RigDocument, options: MjcfOptions = {}): MjcfModel {
  const world = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
  const sim = rig.simulation;
  const h = options.timestep ?? sim.dt / sim.substeps;
  const bodyByName = new Map(rig.bodies.map((b) => [b.name, b]));
  const parentJoint = new Map<string, RigJoint>();
  for (const j of rig.joints) parentJoint.set(j.bodyB, j);
  const childrenOf = new Map<string, RigBody[]>();
  for (const b of rig.bodies) {
    const pj = parentJoint.get(b.name);
    if (pj) childrenOf.set(pj.bodyA, [...(childrenOf.get(pj.bodyA) ?? []), b]);
  }
  const losses: ExportLosses = {
    exact: [
      'bodies as nested MuJoCo bodies (the joint tree), rest pose, names',
      'mass, centre of mass and full inertia of every body (<inertial>, from the shapes)',
      'shapes: sphere, capsule, cylinder, box, ellipsoid (native geoms)',
      'hinge and prismatic joints: axis, anchor, limits (range, with ref = the rest value)',
      'cylindrical and planar joints: a hinge and slides in the child body (axes, anchor, angle and slide limits, their motors)',
      'fixed joints (the child is welded to its parent)',
      'pd motors: stiffness, damping and the torque limit (position actuator kp, kv, forcerange)',
      'mode off with friction: joint frictionloss',
      'collision filters: group/mask and collideConnected (filterparent disabled, explicit <exclude> pairs)',
      'gravity, ground plane height, solver step (timestep = dt / substeps)',
    ],
    approximated: [
      'axes: +Y up / +Z forward becomes MuJoCo +Z up / +X forward (a rotation of the whole world)',
      'motor mode position (bias r·ε/Δt, clamped): exported as the PD it equals when converged, kv = I/Δt, kp = r·I/Δt² with I the effective inertia at rest',
      'motor mode velocity: a velocity actuator with kv = I/Δt and forcerange ±τmax',
      'ball motors: three actuators on the rotation vector components about frame B\'s X, Y, Z (ours: rotation vector of the world error)',
      'ball limits: MuJoCo limits the total rotation angle; the cone is the larger swing half-angle',
      'friction: MuJoCo combines a pair by the larger μ (ours the geometric mean)',
      'contacts are MuJoCo soft contacts (solref/solimp defaults)',
      'ellipsoids collide as true ellipsoids in MuJoCo (ours as their bounding sphere)',
    ],
    lost: [
      'restitution (MuJoCo contacts do not bounce by a coefficient)',
      'body linear and angular damping (MuJoCo has joint damping only)',
      'the ball twist limit as a separate range and the ellipse of the swing cone',
      'controllers (cyclicPath gait and IK): MuJoCo sees only the actuators; drive ctrl yourself',
      'animation motor targets: set ctrl from the clip',
      'solver iterations and substeps as such (MuJoCo\'s own solver)',
      'the skeleton\'s bones without bodies and the skinned mesh',
    ],
  };
  const extraLoss = (kind: 'approximated' | 'lost', s: string) => { if (!losses[kind].includes(s)) losses[kind].push(s); };

  const actuators: MjcfActuator[] = [];
  const actuatorEls: XmlElement[] = [];
  const keyCtrl: number[] = [];

  /** A slide motor's actuators: one per slide DOF, on the MuJoCo slide joints `mjJoints` along the frame axes `axes`. */
  const slideActuators = (joint: RigJoint & { slideMotor: RigMotor }, mjJoints: string[], axes: number[], world: ReadonlyMap<string, Transform>) => {
    const m = joint.slideMotor;
    if (m.mode === 'off') return;
    if (!(m.maxTorque > 0)) { extraLoss('lost', `motors with maxTorque 0 (joint "${joint.name}") have no actuator`); return; }
    extraLoss('approximated', DRIVE_SPEED_LOSS);
    if (m.torqueLimit === 'magnitude' && axes.length > 1) extraLoss('approximated', `planar slide motor torqueLimit "magnitude" (joint "${joint.name}"): two actuators each clamped to ±F, so the force in the plane can reach √2·F`);
    const tb = world.get(joint.bodyB)!;
    const asSlide = { ...joint, type: 'prismatic', motor: m } as RigJoint & { motor: RigMotor };
    axes.forEach((k, i) => {
      const e: Vec3 = [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0];
      const { kp, kv, kind } = motorGains(rig, asSlide, quatRotate(tb.rotation, quatRotate(quatNormalize(joint.frameB.rotation), e)), world, h);
      const name = mjJoints[i]!;
      const ctrl = kind === 'velocity' && joint.type === 'cylindrical' ? (m.target.velocity ?? 0) : 0;
      const attrs: Record<string, string> = { name, joint: name };
      if (kind === 'position') { attrs.kp = num(kp); if (kv > 0) attrs.kv = num(kv); } else attrs.kv = num(kv);
      attrs.forcerange = `${num(-m.maxTorque)} ${num(m.maxTorque)}`;
      actuatorEls.push(el(kind, attrs));
      actuators.push({ name, joint: joint.name, axis: k, slide: true, kind, kp, kv, forceLimit: m.maxTorque, ctrl });
      keyCtrl.push(ctrl);
    });
  };

  const motorActuators = (joint: RigJoint & { motor: RigMotor }, world: ReadonlyMap<string, Transform>) => {
    const m = joint.motor;
    if (m.mode === 'off') return;
    if (!(m.maxTorque > 0)) { extraLoss('lost', `motors with maxTorque 0 (joint "${joint.name}") have no actuator`); return; }
    extraLoss('approximated', DRIVE_SPEED_LOSS);
    if (joint.type === 'ball' && m.torqueLimit === 'magnitude') {
      // MuJoCo bounds each actuator on its own: no actuator couples three forceranges into ‖τ‖ ≤ τmax.
      extraLoss('approximated', `ball motor torqueLimit "magnitude" (joint "${joint.name}"): three actuators each clamped to ±τmax, so the torque can reach √3·τmax (ours ‖τ‖ ≤ τmax)`);
    }
    const tb = world.get(joint.bodyB)!;
    const axesLocal: Vec3[] = joint.type === 'ball'
      ? [[1, 0, 0], [0, 1, 0], [0, 0, 1]].map((a) => quatRotate(quatNormalize(joint.frameB.rotation), a as Vec3))
      : [quatRotate(quatNormalize(joint.frameB.rotation), X)];
    axesLocal.forEach((gLocal, k) => {
      const { kp, kv, kind } = motorGains(rig, joint, quatRotate(tb.rotation, gLocal), world, h);
      const name = joint.type === 'ball' ? `${joint.name}_${'xyz'[k]}` : joint.name;
      const ctrl = kind === 'velocity' && joint.type !== 'ball' ? (m.target.velocity ?? 0) : 0;
      const attrs: Record<string, string> = { name, joint: joint.name };
      if (joint.type === 'ball') attrs.gear = nums(gLocal);
      if (kind === 'position') { attrs.kp = num(kp); if (kv > 0) attrs.kv = num(kv); }
      else attrs.kv = num(kv);
      attrs.forcerange = `${num(-m.maxTorque)} ${num(m.maxTorque)}`;
      actuatorEls.push(el(kind, attrs));
      actuators.push({ name, joint: joint.name, axis: k, kind, kp, kv, forceLimit: m.maxTorque, ctrl });
      keyCtrl.push(ctrl);
    });
  };

  const geomEls = (body: RigBody): XmlElement[] => body.shapes.map((s, i) => {
    const name = `${body.name}_geom${i}`;
    const q = quatNormalize(s.rotation);
    const common = (rot: ReadonlyQuat) => ({ name, ...poseAttrs(s.position, rot) });
    const tail = { friction: `${num(body.material.friction)} 0.005 0.0001` };
    switch (s.type) {
      case 'sphere': return el('geom', { ...common(q), type: 'sphere', size: num(s.radius), ...tail });
      case 'capsule':
        if (s.halfHeight <= 0) return el('geom', { ...common(q), type: 'sphere', size: num(s.radius), ...tail });
        return el('geom', { ...common(quatMul(q, AXIS_FROM_Z[s.axis])), type: 'capsule', size: nums([s.radius, s.halfHeight]), ...tail });
      case 'cylinder': return el('geom', { ...common(quatMul(q, AXIS_FROM_Z[s.axis])), type: 'cylinder', size: nums([s.radius, s.halfHeight]), ...tail });
      case 'box': return el('geom', { ...common(q), type: 'box', size: nums(s.halfExtents), ...tail });
      case 'ellipsoid': return el('geom', { ...common(q), type: 'ellipsoid', size: nums(s.radii), ...tail });
    }
  });

  const equalities: XmlElement[] = [];
  /** The MuJoCo joints of a screw, cylindrical or planar joint (in the child body; axes: frame A's in the child at rest). */
  const pairJoints = (pj: Extract<RigJoint, { type: 'screw' | 'cylindrical' | 'planar' }>): XmlElement[] => {
    const fa = composeTransforms(world.get(pj.bodyA)!, { position: pj.frameA.position as Vec3, rotation: quatNormalize(pj.frameA.rotation) });
    const inChild = quatMul(quatConj(world.get(pj.bodyB)!.rotation), fa.rotation);
    const axis = (k: number) => nums(quatRotate(inChild, [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0]));
    const pos: Record<string, string> = isZero(pj.frameB.position) ? {} : { pos: nums(pj.frameB.position) };
    const friction = (m: RigMotor): Record<string, string> => (m.mode === 'off' && m.frictionTorque > 0 ? { frictionloss: num(m.frictionTorque) } : {});
    const ref = jointRestValue(pj, world), slideRest = jointRestSlides(pj, world);
    const hinge = el('joint', {
      name: pj.name, type: 'hinge', ...pos, axis: axis(0), ...(Math.abs(ref) > 1e-12 ? { ref: num(ref) } : {}),
      ...(pj.limit ? { range: nums(pj.limit) } : {}), ...friction(pj.motor),
    });
    const slide = (name: string, k: number, rest: number, limit: readonly [number, number] | null, m: RigMotor | null) => el('joint', {
      name, type: 'slide', ...pos, axis: axis(k), ...(Math.abs(rest) > 1e-12 ? { ref: num(rest) } : {}),
      ...(limit ? { range: nums(limit) } : {}), ...(m ? friction(m) : {}),
    });
    if (pj.type === 'cylindrical') return [hinge, slide(`${pj.name}_slide`, 0, slideRest[0]!, pj.slideLimit, pj.slideMotor)];
    if (pj.type === 'planar') return [slide(`${pj.name}_y`, 1, slideRest[0]!, pj.slideLimitY, pj.slideMotor), slide(`${pj.name}_z`, 2, slideRest[1]!, pj.slideLimitZ, pj.slideMotor), hinge];
    // Screw: the slide follows the hinge through a joint equality (y − y0 = pitch·(x − x0)); its range is the thread's.
    const lim = pj.limit && [Math.min(pj.pitch * pj.limit[0], pj.pitch * pj.limit[1]), Math.max(pj.pitch * pj.limit[0], pj.pitch * pj.limit[1])] as [number, number];
    // Stiffer than MuJoCo's default equality (solref 0.02 s, solimp 0.9–0.95): the time constant at its floor
    // of 2 steps and an impedance near 1, so the thread gives 3e-4 m under a 2 kg nut instead of 1.3e-2 m.
    equalities.push(el('joint', {
      name: `${pj.name}_thread`, joint1: `${pj.name}_slide`, joint2: pj.name, polycoef: `0 ${num(pj.pitch)} 0 0 0`,
      solref: `${num(2 * h)} 1`, solimp: '0.99 0.999 0.001',
    }));
    extraLoss('approximated', `screw joints (joint "${pj.name}"): a hinge and a slide on frame X tied by a joint equality slide = pitch × angle, which MuJoCo holds softly (solref), not exactly`);
    return [hinge, slide(`${pj.name}_slide`, 0, 0, lim, null)];
  };

  const bodyEl = (body: RigBody, parentWorld: Transform | null): XmlElement => {
    const w = world.get(body.name)!;
    let pose: Transform;
    if (parentWorld) pose = composeTransforms(invertTransform(parentWorld), w);
    else pose = { position: toZUp(w.position), rotation: quatMul(Y_UP_TO_Z_UP, w.rotation) };
    const attrs: Record<string, string> = { name: body.name, ...poseAttrs(pose.position, pose.rotation) };
    const children: XmlElement[] = [];
    const pj = parentJoint.get(body.name);
    if (!parentWorld) {
      if (body.type === 'dynamic') children.push(el('freejoint', { name: `${body.name}_root` }));
      else if (body.type === 'kinematic') attrs.mocap = 'true';
    } else if (body.type !== 'dynamic') {
      extraLoss('lost', `a ${body.type} body inside the joint tree ("${body.name}") becomes dynamic in MuJoCo`);
    }
    if (pj && (pj.type === 'screw' || pj.type === 'cylindrical' || pj.type === 'planar')) {
      children.push(...pairJoints(pj));
      motorActuators(pj, world);
      if (pj.type !== 'screw') slideActuators(pj, pj.type === 'cylindrical' ? [`${pj.name}_slide`] : [`${pj.name}_y`, `${pj.name}_z`], pj.type === 'cylindrical' ? [0] : [1, 2], world);
    } else if (pj && pj.type !== 'fixed') {
      const ja: Record<string, string> = { name: pj.name, type: pj.type === 'prismatic' ? 'slide' : pj.type };
      if (!isZero(pj.frameB.position)) ja.pos = nums(pj.frameB.position);
      if (pj.type !== 'ball') {
        ja.axis = nums(quatRotate(quatNormalize(pj.frameB.rotation), X));
        const ref = jointRestValue(pj, world);
        if (Math.abs(ref) > 1e-12) ja.ref = num(ref);
        if (pj.limit) ja.range = nums(pj.limit);
      } else if (pj.swingLimit) {
        ja.range = `0 ${num(Math.max(pj.swingLimit[0], pj.swingLimit[1]))}`;
      }
      if (pj.motor.mode === 'off' && pj.motor.frictionTorque > 0) ja.frictionloss = num(pj.motor.frictionTorque);
      children.push(el('joint', ja));
      motorActuators(pj, world);
    }
    const mp = bodyMassProperties(body);
    const I = mp.inertia;
    children.push(el('inertial', { pos: nums(mp.centroid), mass: num(mp.mass), fullinertia: nums([I[0]!, I[4]!, I[8]!, I[1]!, I[2]!, I[5]!]) }));
    children.push(...geomEls(body));
    for (const c of childrenOf.get(body.name) ?? []) children.push(bodyEl(c, w));
    return el('body', attrs, children);
  };

  const worldbody: XmlElement[] = [];
  if (sim.ground) {
    worldbody.push(el('geom', { name: 'ground', type: 'plane', size: '0 0 1', pos: `0 0 ${num(sim.ground.height)}`, friction: `${num(sim.ground.friction)} 0.005 0.0001` }));
  }
  for (const b of rig.bodies) if (!parentJoint.has(b.name) || !bodyByName.has(parentJoint.get(b.name)!.bodyA)) worldbody.push(bodyEl(b, null));

  const excludes: XmlElement[] = [];
  for (let i = 0; i < rig.bodies.length; i++) {
    for (let k = i + 1; k < rig.bodies.length; k++) {
      const a = rig.bodies[i]!, b = rig.bodies[k]!;
      if (a.type !== 'dynamic' && b.type !== 'dynamic') continue;
      if (!bodiesCollide(rig, a, b)) excludes.push(el('exclude', { body1: a.name, body2: b.name }));
    }
  }
  if (rig.bodies.some((b) => b.linearDamping > 0 || b.angularDamping > 0) === false) losses.lost = losses.lost.filter((s) => !s.startsWith('body linear'));
  if (!rig.bodies.some((b) => b.material.restitution > 0) && !(sim.ground && sim.ground.restitution > 0)) losses.lost = losses.lost.filter((s) => !s.startsWith('restitution'));
  if (rig.controllers.length === 0) losses.lost = losses.lost.filter((s) => !s.startsWith('controllers'));

  const children: XmlElement[] = [
    el('compiler', { angle: 'radian', autolimits: 'true', inertiafromgeom: 'false' }),
    el('option', { timestep: num(h), gravity: nums(toZUp(sim.gravity)), integrator: options.integrator ?? 'implicitfast' }, [el('flag', { filterparent: 'disable' })]),
    el('worldbody', {}, worldbody),
  ];
  if (excludes.length) children.push(el('contact', {}, excludes));
  if (equalities.length) children.push(el('equality', {}, equalities));
  if (actuatorEls.length) children.push(el('actuator', {}, actuatorEls));
  if (keyCtrl.some((c) => c !== 0)) children.push(el('keyframe', {}, [el('key', { name: 'rest', ctrl: nums(keyCtrl) })]));
  const root = el('mujoco', { model: rig.name }, children);
  return { root, actuators, losses };
}

/** The MJCF text of a rig (pure). The losses head the file as a comment unless options.lossComment is false. */
export function writeMjcf(rig: RigDocument, options: MjcfOptions = {}): string {
  const model = buildMjcf(rig, options);
  const comments = new Map<XmlElement, string>();
  if (options.lossComment !== false) comments.set(model.root, `\n${lossesText('MJCF', model.losses)}`);
  return writeXml(model.root, 0, comments);
}
