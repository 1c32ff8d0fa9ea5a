/**
 * Checks the schema cannot express: references by name, uniqueness, the joint forest, limit ranges,
 * controller chains, unit quaternions, joint anchors meeting at rest, and computed mass properties that
 * agree with the shapes. Runs on a document that already passed the schema; reports every problem.
 */
import { computeMassProperties, shapeMasses } from '../physics/massProperties';
import type { ShapeDesc } from '../physics/types';
import { quatConj, quatMul, quatNormalize, wrapAngle } from '../math/quat';
import { distance, type Vec3 } from '../math/vec3';
import { transformPoint } from '../math/transform';
import type { RigProblem } from './problems';
import { bodyRestWorld, boneRestWorld, orderBones } from './restPose';
import type { RigBody, RigDocument, RigJoint } from './schema';

/** |q| may differ from 1 by this much (float32 round-trips from DCC tools stay well inside). */
const UNIT_QUAT_TOLERANCE = 1e-3;
/** Joint anchors of frameA and frameB must meet within this distance (m) at the rest pose. */
export const ANCHOR_TOLERANCE = 1e-3;
/** rad: how far a screw joint's frames may disagree about X at rest (its offset there is 0). */
export const SCREW_REST_TOLERANCE = 1e-3;
/** Relative tolerance of `computed` against the mass properties recomputed from the shapes. */
const MASS_TOLERANCE = 1e-4;

/**
 * The largest mass ratio between the two dynamic bodies of a joint. An iterative solver (ours, Box2D, Jolt,
 * PhysX) passes a constraint impulse between two bodies in proportion to their masses: past this ratio the
 * light body of a chain is not held by the heavy one within the solver's iterations, and the random-rig
 * stress run (scripts/stress-rigs.ts) saw such rigs spin up without bound. Generate keeps ≤ 9.5 and the
 * editor warns above 10 (authoring/massRatio.ts); a rig past 100 is refused here, naming the lighter body.
 */
export const MAX_JOINTED_MASS_RATIO = 100;

/** The most steps a steering window may span (RIG_BOUNDS.windowSamples in schema.ts). */
export const MAX_WINDOW_SAMPLES = 100_000;

export function checkSemantics(rig: RigDocument): RigProblem[] {
  const problems: RigProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });

  const bones = indexByName(rig.skeleton.bones, 'skeleton.bones', 'bone', add);
  const bodies = indexByName(rig.bodies, 'bodies', 'body', add);
  const joints = indexByName(rig.joints, 'joints', 'joint', add);
  indexByName(rig.controllers, 'controllers', 'controller', add);

  // ------------------------------------------------------------------ skeleton
  rig.skeleton.bones.forEach((b, i) => {
    checkQuat(b.rest.rotation, `skeleton.bones[${i}].rest.rotation`, add);
    if (b.parent === null) return;
    if (b.parent === b.name) add(`skeleton.bones[${i}].parent`, `bone "${b.name}" cannot be its own parent`);
    else if (!bones.has(b.parent)) add(`skeleton.bones[${i}].parent`, missing('bone', b.parent, bones));
  });
  const { unreachable } = orderBones(rig.skeleton.bones);
  const boneIndex = new Map(rig.skeleton.bones.map((b, i) => [b, i] as const));
  for (const b of unreachable) {
    // Unreachable with an existing parent: the bone hangs below a cycle of parents (or is on it).
    if (b.parent !== null && bones.has(b.parent) && b.parent !== b.name) {
      add(`skeleton.bones[${boneIndex.get(b)}].parent`, `bone "${b.name}" does not lead to a root bone: its parents form a cycle (a skeleton is a tree)`);
    }
  }

  // ------------------------------------------------------------------ bodies
  const bodyOnBone = new Map<string, string>();
  rig.bodies.forEach((body, i) => {
    const at = `bodies[${i}]`;
    if (!bones.has(body.bone)) add(`${at}.bone`, missing('bone', body.bone, bones));
    else if (bodyOnBone.has(body.bone)) add(`${at}.bone`, `bone "${body.bone}" already drives body "${bodyOnBone.get(body.bone)}"; one body per bone`);
    else bodyOnBone.set(body.bone, body.name);
    checkQuat(body.offset.rotation, `${at}.offset.rotation`, add);
    body.shapes.forEach((s, k) => checkQuat(s.rotation, `${at}.shapes[${k}].rotation`, add));
    let shapeMassOk = true;
    body.shapes.forEach((s, k) => {
      if (s.mass !== undefined && s.density !== undefined) {
        add(`${at}.shapes[${k}]`, 'gives both mass and density; give one (or neither, to share the body\'s)');
        shapeMassOk = false;
      }
    });
    if ((body.mass === null) === (body.density === null)) {
      add(at, body.mass === null ? 'needs a mass (kg) or a density (kg/m³); both are null' : 'gives both mass and density; set one of them to null');
    } else if (shapeMassOk) {
      try {
        shapeMasses(body.shapes as readonly ShapeDesc[], body.mass !== null ? { mass: body.mass } : { density: body.density! });
        if (body.computed) checkComputed(body, at, add);
      } catch (e) {
        add(`${at}.shapes`, `mass cannot be shared out: ${(e as Error).message.replace(/^computeMassProperties: /, '')}`);
      }
    }
  });

  // ------------------------------------------------------------------ joints
  const parentJoint = new Map<string, string>();
  rig.joints.forEach((j, i) => {
    const at = `joints[${i}]`;
    if (!bodies.has(j.bodyA)) add(`${at}.bodyA`, missing('body', j.bodyA, bodies));
    if (!bodies.has(j.bodyB)) add(`${at}.bodyB`, missing('body', j.bodyB, bodies));
    if (j.bodyA === j.bodyB) add(`${at}.bodyB`, `joins body "${j.bodyA}" to itself`);
    else if (bodies.has(j.bodyB)) {
      const other = parentJoint.get(j.bodyB);
      if (other !== undefined) add(`${at}.bodyB`, `body "${j.bodyB}" is already the child (bodyB) of joint "${other}"; a body has at most one parent joint`);
      else parentJoint.set(j.bodyB, j.name);
    }
    checkQuat(j.frameA.rotation, `${at}.frameA.rotation`, add);
    checkQuat(j.frameB.rotation, `${at}.frameB.rotation`, add);
    checkLimits(j, at, add);
    if (j.type !== 'fixed') {
      if (j.motor.mode === 'pd' && !(j.motor.stiffness > 0 || j.motor.damping > 0)) {
        add(`${at}.motor`, 'mode "pd" needs stiffness > 0 or damping > 0 (with both 0 the drive does nothing; use mode "off")');
      }
      const t = j.motor.target;
      if (t.source === 'animation' && t.clip === undefined) add(`${at}.motor.target.clip`, 'is required when the target source is "animation"');
      if (t.source === 'controller' && !rig.controllers.some((c) => c.chain.includes(j.name))) {
        add(`${at}.motor.target.source`, `is "controller" but no controller's chain contains joint "${j.name}"`);
      }
    }
  });
  checkJointCycles(rig, bodies, add);

  // ------------------------------------------------------------------ joint anchors meet at rest
  if (problems.length === 0) {
    const rest = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
    rig.joints.forEach((j, i) => {
      const a = rest.get(j.bodyA), b = rest.get(j.bodyB);
      if (!a || !b) return;
      const gap = distance(transformPoint(a, j.frameA.position), transformPoint(b, j.frameB.position));
      if (gap > ANCHOR_TOLERANCE) {
        add(`joints[${i}].frameB.position`, `the anchors of frameA and frameB are ${fmt(gap)} m apart at the rest pose; they must meet (within ${ANCHOR_TOLERANCE} m)`);
      }
      if (j.type === 'screw') {
        // offset = pitch × angle must hold at rest, where the offset is 0: the frames must agree about X.
        const fa = quatMul(a.rotation, quatNormalize(j.frameA.rotation)), fb = quatMul(b.rotation, quatNormalize(j.frameB.rotation));
        const rel = quatMul(quatConj(fa), fb), angle = wrapAngle(2 * Math.atan2(rel[0], rel[3]));
        if (Math.abs(angle) > SCREW_REST_TOLERANCE) {
          add(`joints[${i}].frameB.rotation`, `a screw joint's frames must agree at the rest pose (its offset there is 0, so its angle must be 0 for offset = pitch × angle); frameB is turned ${fmt(angle)} rad about frame X from frameA`);
        }
      }
    });
  }

  // ------------------------------------------------------------------ jointed mass ratios the solver can carry
  if (problems.length === 0) checkMassRatios(rig, bodies, add);

  // ------------------------------------------------------------------ controllers
  rig.controllers.forEach((c, i) => {
    const at = `controllers[${i}]`;
    if (!bodies.has(c.root)) add(`${at}.root`, missing('body', c.root, bodies));
    const seen = new Set<string>();
    let prev: RigJoint | undefined;
    c.chain.forEach((jn, k) => {
      const j = joints.has(jn) ? rig.joints[joints.get(jn)!] : undefined;
      if (!j) { add(`${at}.chain[${k}]`, missing('joint', jn, joints)); prev = undefined; return; }
      if (seen.has(jn)) add(`${at}.chain[${k}]`, `joint "${jn}" appears twice in the chain`);
      seen.add(jn);
      if (j.type !== 'ball' && j.type !== 'hinge') add(`${at}.chain[${k}]`, `joint "${jn}" is a ${j.type} joint; the IK drives ball and hinge joints`);
      if (k === 0 && j.bodyA !== c.root) add(`${at}.chain[0]`, `the chain must start at the root: joint "${jn}" has bodyA "${j.bodyA}", the root is "${c.root}"`);
      if (prev && prev.bodyB !== j.bodyA) {
        add(`${at}.chain[${k}]`, `the chain is not connected: joint "${prev.name}" ends at body "${prev.bodyB}" but joint "${jn}" starts at body "${j.bodyA}"`);
      }
      prev = j;
    });
    const last = joints.has(c.chain.at(-1) ?? '') ? rig.joints[joints.get(c.chain.at(-1)!)!] : undefined;
    if (!bodies.has(c.effector.body)) add(`${at}.effector.body`, missing('body', c.effector.body, bodies));
    else if (last && last.bodyB !== c.effector.body) {
      add(`${at}.effector.body`, `the effector must be on the chain's tip body "${last.bodyB}" (bodyB of joint "${last.name}"), got "${c.effector.body}"`);
    }
    const p0 = c.controlPoints[0]!;
    if (c.controlPoints.every((p) => distance(p as Vec3, p0 as Vec3) < 1e-9)) add(`${at}.controlPoints`, 'all control points are the same point; the path must enclose some distance');
    else {
      // The path's own rule (shared/gait/cyclicPath.ts), checked here so createSimulation cannot throw on it.
      const n = c.controlPoints.length;
      for (let k = 0; k < n; k++) {
        const next = (k + 1) % n;
        if (distance(c.controlPoints[k] as Vec3, c.controlPoints[next] as Vec3) < 1e-6) {
          add(`${at}.controlPoints[${next}]`, `coincides with controlPoints[${k}] (closer than 1e-6 m); neighbouring control points must differ`);
        }
      }
    }
    // The heading average holds (and sums every step) one sample per step over the window: bound the count,
    // as the steering law computes it (shared/gait/steeringLaw.ts), so memory and step time stay bounded.
    const window = c.steering.window ?? 0;
    if (window > 0 && Math.abs(c.rate) > 1e-9) {
      const samples = Math.round(window / Math.abs(c.rate) / rig.simulation.dt);
      if (samples > MAX_WINDOW_SAMPLES) {
        add(`${at}.steering.window`, `averages over ${samples} steps (window ${window} cycles / rate ${Math.abs(c.rate)} Hz / dt ${rig.simulation.dt} s); at most ${MAX_WINDOW_SAMPLES} are held and summed every step: shorten the window or raise the rate or dt`);
      }
    }
  });

  return problems;
}

// ---------------------------------------------------------------------------------------------- helpers

type Add = (path: string, message: string) => void;

function indexByName(items: readonly { name: string }[], at: string, what: string, add: Add): Map<string, number> {
  const map = new Map<string, number>();
  items.forEach((item, i) => {
    const first = map.get(item.name);
    if (first !== undefined) add(`${at}[${i}].name`, `duplicate ${what} name "${item.name}" (also ${at}[${first}])`);
    else map.set(item.name, i);
  });
  return map;
}

/** "names body "arm" which does not exist; did you mean "upper_arm"?" */
function missing(what: string, name: string, known: ReadonlyMap<string, number>): string {
  const near = closest(name, known.keys());
  return `names ${what} "${name}", which does not exist${near ? `; did you mean "${near}"?` : ''}`;
}

function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined, bestD = Infinity;
  let n = 0;
  for (const c of candidates) {
    if (++n > 2000) break; // suggestions are a courtesy; never quadratic on a huge document
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestD) { bestD = d; best = c; }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

function checkQuat(q: readonly number[], path: string, add: Add): void {
  const len = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  if (Math.abs(len - 1) > UNIT_QUAT_TOLERANCE) add(path, `must be a unit quaternion [x, y, z, w], got length ${fmt(len)}`);
}

function checkLimits(j: RigJoint, at: string, add: Add): void {
  const range = (r: readonly [number, number] | null, path: string, unit: string, span: number) => {
    if (!r) return;
    if (r[0] > r[1]) add(path, `min must be ≤ max, got [${r[0]}, ${r[1]}] ${unit}`);
    if (r[0] < -span || r[1] > span) add(path, `must lie within [${fmt(-span)}, ${fmt(span)}] ${unit}, got [${r[0]}, ${r[1]}] (limits are in radians)`);
  };
  if (j.type === 'hinge') range(j.limit, `${at}.limit`, 'rad', 2 * Math.PI);
  if (j.type === 'ball') range(j.twistLimit, `${at}.twistLimit`, 'rad', Math.PI);
  if (j.type === 'prismatic') range(j.limit, `${at}.limit`, 'm', Infinity);
  if (j.type === 'screw' || j.type === 'cylindrical' || j.type === 'planar') range(j.limit, `${at}.limit`, 'rad', 2 * Math.PI);
  if (j.type === 'cylindrical') range(j.slideLimit, `${at}.slideLimit`, 'm', Infinity);
  if (j.type === 'planar') {
    range(j.slideLimitY, `${at}.slideLimitY`, 'm', Infinity);
    range(j.slideLimitZ, `${at}.slideLimitZ`, 'm', Infinity);
    if ((j.slideMotor.target.velocity ?? 0) !== 0) add(`${at}.slideMotor.target.velocity`, `must be 0 on a planar joint (a damper): one velocity has no direction in the plane, got ${j.slideMotor.target.velocity}`);
  }
  if ((j.type === 'cylindrical' || j.type === 'planar') && j.slideMotor.mode === 'pd' && !(j.slideMotor.stiffness > 0 || j.slideMotor.damping > 0)) {
    add(`${at}.slideMotor`, 'mode "pd" needs stiffness > 0 or damping > 0 (with both 0 the drive does nothing; use mode "off")');
  }
}

/** The joints, as undirected edges between bodies, must form a forest: union–find finds the first cycle. */
function checkJointCycles(rig: RigDocument, bodies: ReadonlyMap<string, number>, add: Add): void {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    let y = x;
    while (y !== r) { const next = parent.get(y)!; parent.set(y, r); y = next; }
    return r;
  };
  rig.joints.forEach((j, i) => {
    if (!bodies.has(j.bodyA) || !bodies.has(j.bodyB) || j.bodyA === j.bodyB) return;
    const a = find(j.bodyA), b = find(j.bodyB);
    if (a === b) add(`joints[${i}]`, `joint "${j.name}" closes a cycle in the joint graph (bodies "${j.bodyA}" and "${j.bodyB}" are already connected); joints must form a tree`);
    else parent.set(a, b);
  });
}

function checkMassRatios(rig: RigDocument, bodies: ReadonlyMap<string, number>, add: Add): void {
  const mass = new Map<string, number>();
  const massOf = (name: string): number => {
    let m = mass.get(name);
    if (m === undefined) {
      const body = rig.bodies[bodies.get(name)!]!;
      try {
        m = body.type !== 'dynamic' ? Number.NaN
          : computeMassProperties(body.shapes as readonly ShapeDesc[], body.mass !== null ? { mass: body.mass } : { density: body.density! }).mass;
      } catch { m = Number.NaN; }
      mass.set(name, m);
    }
    return m;
  };
  rig.joints.forEach((j, i) => {
    const ma = massOf(j.bodyA), mb = massOf(j.bodyB);
    if (!(ma > 0 && mb > 0)) return; // a static or kinematic side carries any mass
    const ratio = Math.max(ma, mb) / Math.min(ma, mb);
    if (ratio <= MAX_JOINTED_MASS_RATIO) return;
    const light = ma < mb ? j.bodyA : j.bodyB, heavy = light === j.bodyA ? j.bodyB : j.bodyA;
    const k = bodies.get(light)!, field = rig.bodies[k]!.mass !== null ? 'mass' : 'density';
    add(`bodies[${k}].${field}`, `body "${light}" (${fmt(Math.min(ma, mb))} kg) is jointed by "${j.name}" (joints[${i}]) to "${heavy}" (${fmt(Math.max(ma, mb))} kg): a mass ratio of ${fmt(ratio)}, above ${MAX_JOINTED_MASS_RATIO}, which no iterative solver holds together (keep jointed bodies within 10 of each other; Rig › Fix Mass Ratios does it)`);
  });
}

function checkComputed(body: RigBody, at: string, add: Add): void {
  const c = body.computed!;
  let expected;
  try {
    expected = computeMassProperties(body.shapes as readonly ShapeDesc[], body.mass !== null ? { mass: body.mass } : { density: body.density! });
  } catch (e) {
    add(`${at}.shapes`, `mass properties cannot be computed: ${(e as Error).message}`);
    return;
  }
  const scaleI = Math.max(...expected.inertia.map(Math.abs), 1e-12);
  const off = (a: number, b: number, s: number) => Math.abs(a - b) > MASS_TOLERANCE * s;
  if (off(c.mass, expected.mass, expected.mass)) {
    add(`${at}.computed.mass`, `is ${c.mass} kg but the shapes give ${fmt(expected.mass)} kg; re-export the rig or delete "computed"`);
  }
  const size = Math.cbrt(expected.mass / 1000) + 1e-9; // a length scale (m) for the centroid comparison
  if (c.centroid.some((v, k) => off(v, expected.centroid[k]!, size))) {
    add(`${at}.computed.centroid`, `is [${c.centroid.join(', ')}] m but the shapes give [${expected.centroid.map(fmt).join(', ')}] m`);
  }
  if (c.inertia.some((v, k) => off(v, expected.inertia[k]!, scaleI))) {
    add(`${at}.computed.inertia`, 'does not match the inertia of the shapes; re-export the rig or delete "computed"');
  }
}

const fmt = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(4)).toString() : String(x));
