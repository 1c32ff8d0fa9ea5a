/**
 * Rig transfer: a rig's bodies, shapes, joints, limits, motors and controllers applied to another
 * creature's skeleton, matched by bone name (issue 15 item 3).
 *
 * Matching, in order, each target bone taken at most once:
 *  1. exact name;
 *  2. the same name without namespace, prefix and case (`mixamorig:Hips` = `Hips`, `DEF-thigh.L` = `thigh.L`);
 *  3. the same words with the side spelt one way (`upper_arm_l` = `LeftUpperArm` = `upperArm.L`);
 *  4. the same anatomy (anatomy.ts: role, side and the n-th bone of that role from the root), which maps
 *     between our names, Mixamo, the Unreal mannequin and Rigify (`thigh_l` = `mixamorig:LeftUpLeg` =
 *     `DEF-thigh.L`, `shin_l` = `LeftLeg` = `calf_l`).
 * A body whose bone finds no match is left out with the reason, and so is every joint and controller
 * that names it: nothing is dropped silently.
 *
 * Placement: each body keeps its place along its bone. Its bone's direction (to the child that carries
 * on the chain) is turned onto the target bone's direction and its length ratio k scales the body's
 * offset from the bone and its shapes; an explicit mass goes ×k³ (a density stays), a motor's torque
 * limit, friction and gains ×k⁴ (m·g·L) — a prismatic's force ×k³ and gains ×k², as rescaleRig. Joint
 * frames are rebuilt from the moved child body, so the two anchors coincide at the new rest pose as they
 * did at the old one (a rest angle between the frames is kept); angle limits are unchanged. A leaf bone
 * (no child to measure) takes its parent body's k and turn.
 * Onto the same skeleton the result is the input, body for body.
 */
import type { Quat, ReadonlyQuat, Transform, Vec3 } from '../math';
import { composeTransforms, invertTransform, quatFromTo, quatMul, quatNormalize, quatRotate } from '../math';
import { boneRestWorld, type BoneWorld } from '../rig/restPose';
import type { Bone, RigBody, RigController, RigDocument, RigJoint, RigShape } from '../rig/schema';
import { boneAnatomy, tokens } from './anatomy';

export type BoneMatchKind = 'exact' | 'name' | 'side' | 'anatomy';

export interface BoneMatch { from: string; to: string; kind: BoneMatchKind }

export interface TransferResult {
  rig: RigDocument;
  /** Source bones that carry a body, and the target bone each went to. */
  matched: BoneMatch[];
  /** Source bones that carry a body and found no target bone. */
  unmatched: string[];
  /** What was left out and why (bodies, joints, controllers). */
  dropped: { kind: 'body' | 'joint' | 'controller'; name: string; reason: string }[];
  /** Per transferred body, the bone-length ratio k it was scaled by. */
  scale: Record<string, number>;
}

const SIDE_WORDS = new Set(['l', 'r', 'left', 'right', 'lt', 'rt']);

/** Rigify numbers its trunk `spine`, `spine.001` … `spine.006`: hips, spine, chest, neck, head — a name
 *  the plain and side rules must not take ("spine" is not the hips), so it is matched by anatomy only. */
const RIGIFY_TRUNK = /^(?:DEF[-_.])?spine(?:\.(\d{3}))?$/i;
function rigifyTrunkRole(name: string): string | null {
  const m = name.replace(/^.*[:|]/, '').match(RIGIFY_TRUNK);
  if (!m || !/^DEF/i.test(name.replace(/^.*[:|]/, ''))) return null;
  const n = m[1] === undefined ? 0 : Number(m[1]);
  return n === 0 ? 'pelvis' : n <= 2 ? 'spine' : n === 3 ? 'chest' : n <= 5 ? 'neck' : 'head';
}

/** Lower-case name without namespace, prefix or separators. */
const plainKey = (name: string) => (rigifyTrunkRole(name) ? '' : tokens(name).join(''));

/** Words with the side spelt one way and moved to the front: `upper_arm_l` → `left:upperarm`. */
function sideKey(name: string): string | null {
  if (rigifyTrunkRole(name)) return null;
  const a = boneAnatomy(name);
  const rest = a.tokens.filter((t) => !SIDE_WORDS.has(t)).join('');
  return rest ? `${a.side ?? 'mid'}:${rest}` : null;
}

/** Anatomy keys `role.side.n` (n-th bone of that role and side from the root) of a skeleton's bones. */
function anatomyKeys(bones: readonly Bone[], mergeTrunk = false): Map<string, string> {
  const depth = new Map<string, number>();
  const byName = new Map(bones.map((b) => [b.name, b]));
  const depthOf = (name: string, seen = 0): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    const b = byName.get(name);
    const d = !b || b.parent === null || seen > bones.length ? 0 : depthOf(b.parent, seen + 1) + 1;
    depth.set(name, d);
    return d;
  };
  const counts = new Map<string, number>();
  const out = new Map<string, string>();
  // A Rigify rig deforms with its DEF- bones; the rest (torso, ORG-, MCH-, the IK targets) are controls.
  const rigify = bones.some((b) => /^DEF[-_.]/i.test(b.name.replace(/^.*[:|]/, '')));
  const ordered = bones.map((b, i) => ({ b, i, d: depthOf(b.name) })).sort((x, y) => x.d - y.d || x.i - y.i);
  for (const { b } of ordered) {
    if (rigify && !/^DEF[-_.]/i.test(b.name.replace(/^.*[:|]/, ''))) continue;
    const a = boneAnatomy(b.name);
    const trunkRole = rigifyTrunkRole(b.name);
    if (!trunkRole && (a.role === 'other' || a.helper !== null)) continue;
    let base = trunkRole ? `${trunkRole}.mid` : `${a.role}.${a.side ?? 'mid'}`;
    if (mergeTrunk && (base === 'spine.mid' || base === 'chest.mid')) base = 'trunk.mid';
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    out.set(b.name, `${base}.${n}`);
  }
  return out;
}

/**
 * Which target bone each of `sourceBones` goes to (only bones named in `wanted`, in its order). Each target
 * bone is taken once; the earlier rules win.
 */
export function matchBones(sourceBones: readonly Bone[], targetBones: readonly Bone[], wanted: readonly string[]): { matched: BoneMatch[]; unmatched: string[] } {
  const taken = new Set<string>();
  const result = new Map<string, BoneMatch>();
  const anatomy = { src: anatomyKeys(sourceBones), dst: anatomyKeys(targetBones) };
  const trunk = { src: anatomyKeys(sourceBones, true), dst: anatomyKeys(targetBones, true) };
  // Last: spine and chest as one trunk sequence (a rig with one spine bone onto a file that calls it chest).
  const rules: [BoneMatchKind, (name: string, side: 'src' | 'dst') => string | null | undefined][] = [
    ['exact', (n) => n],
    ['name', (n) => plainKey(n) || null],
    ['side', (n) => sideKey(n)],
    ['anatomy', (n, side) => anatomy[side].get(n)],
    ['anatomy', (n, side) => trunk[side].get(n)],
  ];
  for (const [kind, key] of rules) {
    const index = new Map<string, string>();
    for (const b of targetBones) {
      if (taken.has(b.name)) continue;
      const k = key(b.name, 'dst');
      if (k && !index.has(k)) index.set(k, b.name);
    }
    for (const name of wanted) {
      if (result.has(name)) continue;
      const k = key(name, 'src');
      const to = k ? index.get(k) : undefined;
      if (to === undefined || taken.has(to)) continue;
      taken.add(to);
      result.set(name, { from: name, to, kind });
    }
  }
  return { matched: wanted.filter((n) => result.has(n)).map((n) => result.get(n)!), unmatched: wanted.filter((n) => !result.has(n)) };
}

const v3 = (v: readonly number[], k: number): Vec3 => [v[0]! * k, v[1]! * k, v[2]! * k];
const sub = (a: readonly number[], b: readonly number[]): Vec3 => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
const len = (v: readonly number[]) => Math.hypot(v[0]!, v[1]!, v[2]!);
const ROUND = 1e12;
const r12 = (x: number) => Math.round(x * ROUND) / ROUND;
const rv = (v: readonly number[]): Vec3 => [r12(v[0]!), r12(v[1]!), r12(v[2]!)];
const rq = (q: ReadonlyQuat): Quat => { const n = quatNormalize(q); const s = n[3] < 0 ? -1 : 1; return [r12(s * n[0]), r12(s * n[1]), r12(s * n[2]), r12(s * n[3])]; };

function scaleShape(s: RigShape, k: number): RigShape {
  const out = { ...s, position: v3(s.position, k) } as RigShape & Record<string, unknown>;
  for (const key of ['radius', 'halfHeight']) if (typeof out[key] === 'number') out[key] = (out[key] as number) * k;
  for (const key of ['halfExtents', 'radii']) if (Array.isArray(out[key])) out[key] = v3(out[key] as number[], k);
  if (typeof out.mass === 'number') out.mass = (out.mass as number) * k ** 3;
  return out;
}

/** Per source bone with a body: k (length ratio) and the world turn of its direction onto the target's. */
interface BoneMap { k: number; turn: Quat; src: BoneWorld; dst: BoneWorld }

function boneMaps(source: readonly Bone[], target: readonly Bone[], match: ReadonlyMap<string, string>, fallbackK: number): Map<string, BoneMap> {
  const srcWorld = boneRestWorld(source), dstWorld = boneRestWorld(target);
  const srcChildren = new Map<string, string[]>();
  for (const b of source) if (b.parent !== null) srcChildren.set(b.parent, [...(srcChildren.get(b.parent) ?? []), b.name]);
  const dstParent = new Map(target.map((b) => [b.name, b.parent]));
  const isBelow = (name: string, ancestor: string) => {
    for (let p = dstParent.get(name) ?? null, n = 0; p !== null && n < target.length; p = dstParent.get(p) ?? null, n++) if (p === ancestor) return true;
    return false;
  };
  // A child bone whose match lies below the target bone: the source and target directions it gives.
  const direction = (from: string): { a: Vec3; b: Vec3 } | null => {
    const to = match.get(from)!;
    const s = srcWorld.get(from), d = dstWorld.get(to);
    if (!s || !d) return null;
    const queue = [...(srcChildren.get(from) ?? [])];
    while (queue.length) {
      const c = queue.shift()!;
      const ct = match.get(c);
      const cs = srcWorld.get(c), cd = ct ? dstWorld.get(ct) : undefined;
      if (ct && cs && cd && isBelow(ct, to)) {
        const a = sub(cs.position, s.position), b = sub(cd.position, d.position);
        if (len(a) > 1e-9 && len(b) > 1e-9) return { a, b };
      }
      queue.push(...(srcChildren.get(c) ?? []));
    }
    return null;
  };
  const out = new Map<string, BoneMap>();
  const order = source.map((b) => b.name);
  const parentOf = new Map(source.map((b) => [b.name, b.parent]));
  const resolve = (name: string, depth = 0): BoneMap | null => {
    const known = out.get(name);
    if (known) return known;
    const to = match.get(name);
    const src = srcWorld.get(name), dst = to ? dstWorld.get(to) : undefined;
    if (!to || !src || !dst) return null;
    const dir = direction(name);
    let map: BoneMap;
    if (dir) {
      map = { k: len(dir.b) / len(dir.a), turn: quatFromTo(v3(dir.a, 1 / len(dir.a)), v3(dir.b, 1 / len(dir.b))), src, dst };
    } else {
      // A leaf: its parent's ratio and turn (the nearest mapped ancestor), else the skeletons' ratio.
      let up: BoneMap | null = null;
      for (let p = parentOf.get(name) ?? null; p !== null && !up && depth < order.length; p = parentOf.get(p) ?? null) up = match.has(p) ? resolve(p, depth + 1) : null;
      map = { k: up?.k ?? fallbackK, turn: up?.turn ?? [0, 0, 0, 1], src, dst };
    }
    out.set(name, map);
    return map;
  };
  for (const name of order) if (match.has(name)) resolve(name);
  return out;
}

/** Vertical extent of a skeleton's bones (m). */
function boneHeight(bones: readonly Bone[]): number {
  const ys = [...boneRestWorld(bones).values()].map((w) => w.position[1]);
  return ys.length ? Math.max(...ys) - Math.min(...ys) : 0;
}

/**
 * `rig` applied to the skeleton `targetBones` (rig-format bones in metres, e.g. an AuthoringSkeleton's).
 * The result has the target's skeleton (with `skeletonScale` when given) and the rest of `rig` (name,
 * solver, simulation settings) unchanged.
 */
export function transferRig(rig: RigDocument, targetBones: readonly Bone[], options: { name?: string; skeletonScale?: number } = {}): TransferResult {
  if (targetBones.length === 0) throw new Error('the target creature has no bones');
  const wanted = [...new Set(rig.bodies.map((b) => b.bone))];
  const { matched, unmatched } = matchBones(rig.skeleton.bones, targetBones, wanted);
  const match = new Map(matched.map((m) => [m.from, m.to]));
  const hs = boneHeight(rig.skeleton.bones), ht = boneHeight(targetBones);
  const fallbackK = hs > 1e-9 && ht > 1e-9 ? ht / hs : 1;
  const maps = boneMaps(rig.skeleton.bones, targetBones, match, fallbackK);
  const dropped: TransferResult['dropped'] = [];
  const scale: Record<string, number> = {};

  // Bodies: world pose moved with their bone (turned and scaled about it), then re-expressed on the target bone.
  const srcBody = new Map<string, { world: Transform; map: BoneMap }>();
  const dstBody = new Map<string, Transform>();
  const bodies: RigBody[] = [];
  for (const body of rig.bodies) {
    const map = maps.get(body.bone);
    if (!map) {
      dropped.push({ kind: 'body', name: body.name, reason: `its bone "${body.bone}" has no match in the target skeleton` });
      continue;
    }
    const offset: Transform = { position: [...body.offset.position] as Vec3, rotation: quatNormalize(body.offset.rotation) };
    const world = composeTransforms(map.src, offset);
    const rel = sub(world.position, map.src.position);
    const moved: Transform = {
      position: (() => { const p = quatRotate(map.turn, v3(rel, map.k)); return [map.dst.position[0] + p[0], map.dst.position[1] + p[1], map.dst.position[2] + p[2]] as Vec3; })(),
      rotation: quatNormalize(quatMul(map.turn, world.rotation)),
    };
    const local = composeTransforms(invertTransform(map.dst), moved);
    srcBody.set(body.name, { world, map });
    dstBody.set(body.name, moved);
    scale[body.name] = map.k;
    const { computed: _computed, ...rest } = body;
    bodies.push({
      ...rest,
      bone: match.get(body.bone)!,
      offset: { position: rv(local.position), rotation: rq(local.rotation) },
      shapes: body.shapes.map((s) => scaleShape(s, map.k)),
      mass: body.mass === null ? null : body.mass * map.k ** 3,
    });
  }

  // Joints: frameB scales with bodyB; frameA is where that frame now sits, seen from the moved bodyA.
  const joints: RigJoint[] = [];
  for (const joint of rig.joints) {
    const missing = [joint.bodyA, joint.bodyB].filter((b) => !dstBody.has(b));
    if (missing.length) {
      dropped.push({ kind: 'joint', name: joint.name, reason: `its body ${missing.map((m) => `"${m}"`).join(' and ')} was left out` });
      continue;
    }
    const k = scale[joint.bodyB]!;
    const frameB: Transform = { position: v3(joint.frameB.position, k), rotation: quatNormalize(joint.frameB.rotation) };
    // Any rest angle (or gap) between the two frames in the source is kept: frameA's world pose relative
    // to frameB's, its offset scaled.
    const srcA = composeTransforms(srcBody.get(joint.bodyA)!.world, { position: [...joint.frameA.position] as Vec3, rotation: quatNormalize(joint.frameA.rotation) });
    const srcB = composeTransforms(srcBody.get(joint.bodyB)!.world, { position: [...joint.frameB.position] as Vec3, rotation: quatNormalize(joint.frameB.rotation) });
    const rel = composeTransforms(invertTransform(srcB), srcA);
    const world = composeTransforms(composeTransforms(dstBody.get(joint.bodyB)!, frameB), { position: v3(rel.position, k), rotation: rel.rotation });
    const frameA = composeTransforms(invertTransform(dstBody.get(joint.bodyA)!), world);
    const out = { ...joint, frameA: { position: rv(frameA.position), rotation: rq(frameA.rotation) }, frameB: { position: rv(frameB.position), rotation: rq(frameB.rotation) } } as RigJoint;
    if ('motor' in out && out.motor) {
      const m = out.motor, linear = out.type === 'prismatic';
      const kt = linear ? k ** 3 : k ** 4, kg = linear ? k ** 2 : k ** 4;
      (out as { motor: typeof m }).motor = { ...m, maxTorque: m.maxTorque * kt, stiffness: m.stiffness * kg, damping: m.damping * kg, frictionTorque: m.frictionTorque * kt };
    }
    if (out.type === 'prismatic' && out.limit) out.limit = [out.limit[0] * k, out.limit[1] * k];
    if (out.type === 'screw') out.pitch *= k;
    if (out.type === 'cylindrical' || out.type === 'planar') {
      const m = out.slideMotor, r = (l: readonly [number, number] | null): [number, number] | null => (l ? [l[0] * k, l[1] * k] : null);
      out.slideMotor = { ...m, maxTorque: m.maxTorque * k ** 3, stiffness: m.stiffness * k ** 2, damping: m.damping * k ** 2, frictionTorque: m.frictionTorque * k ** 3 };
      if (out.type === 'cylindrical') out.slideLimit = r(out.slideLimit);
      else { out.slideLimitY = r(out.slideLimitY); out.slideLimitZ = r(out.slideLimitZ); }
    }
    joints.push(out);
  }

  // Controllers: kept when their root, chain and effector all came across; lengths scale with the limb.
  const jointNames = new Set(joints.map((j) => j.name));
  const controllers: RigController[] = [];
  for (const c of rig.controllers) {
    const lostJoints = c.chain.filter((j) => !jointNames.has(j));
    const lostBodies = [c.root, c.effector.body].filter((b) => !dstBody.has(b));
    if (lostJoints.length || lostBodies.length) {
      dropped.push({ kind: 'controller', name: c.name, reason: `it names ${[...lostBodies.map((b) => `body "${b}"`), ...lostJoints.map((j) => `joint "${j}"`)].join(', ')}, left out` });
      continue;
    }
    const limb = c.chain.map((j) => scale[rig.joints.find((x) => x.name === j)!.bodyB]!);
    const k = limb.reduce((s, x) => s + x, 0) / limb.length;
    const steering = { ...c.steering } as Record<string, unknown>;
    for (const key of ['stopRadius', 'arriveRadius', 'restartRadius', 'pivotLead']) if (typeof steering[key] === 'number') steering[key] = (steering[key] as number) * k;
    if (Array.isArray(steering.restPoint)) steering.restPoint = v3(steering.restPoint as number[], k);
    controllers.push({
      ...c, controlPoints: c.controlPoints.map((p) => v3(p, k)), pole: v3(c.pole, k),
      effector: { ...c.effector, offset: v3(c.effector.offset, scale[c.effector.body]!) }, steering: steering as typeof c.steering,
    });
  }

  const skeleton: RigDocument['skeleton'] = { bones: targetBones.map((b) => ({ ...b, rest: { ...b.rest } })) };
  if (options.skeletonScale !== undefined && options.skeletonScale !== 1) skeleton.scale = options.skeletonScale;
  if (bodies.length === 0) throw new Error(`no body's bone matches the target skeleton (rig bones: ${wanted.slice(0, 6).join(', ')}${wanted.length > 6 ? ', …' : ''}; target bones: ${targetBones.slice(0, 6).map((b) => b.name).join(', ')}${targetBones.length > 6 ? ', …' : ''})`);
  return {
    rig: { ...rig, ...(options.name ? { name: options.name } : {}), skeleton, bodies, joints, controllers },
    matched, unmatched, dropped, scale,
  };
}
