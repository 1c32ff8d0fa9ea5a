/**
 * generateRagdoll: a skeleton (+ skinned vertices, + clips) → bodies and joints for a RigDocument.
 *
 * Bodies (one per bone that is included and not tiny; body frame = bone frame, so offsets are identity):
 *   - the bone axis d and length L come from boneGeometry (head → main child; end bones along local +Y);
 *   - the vertices the bone mostly owns (plus those of tiny or excluded bones merged into it) give, along d,
 *     the extent [P2, P98] of their projections s = (v − head)·d, and across d their centroid offset c⊥
 *     and the radius = P75 of their distances from the line head + c⊥ + s·d (`radiusPercentile`);
 *     a bone that owns no vertices spans [0, L] (an end bone: half its parent's length) with radius
 *     max(2 cm, 0.15·L);
 *   - capsule: spans exactly that extent (total length = 2·halfHeight + 2·radius); sphere: radius =
 *     max(radius, half the extent); box: the P2–P98 box in the frame (bone X ⟂ d, d, X × d);
 *   - a bone shorter than `minBoneLength` (end bones: whose extent is) gets no body: its vertices merge
 *     into the nearest included ancestor's body and its children join that body;
 *   - density `density` (kg/m³, default 985, the mean density of a human body).
 * Joints (one per body with an ancestor body): type and hinge axis by jointChoice.ts; frames at the child
 * bone's head; ball frame X along the child bone (twist axis), Y toward the child bone's local +Z
 * (forward on a glTF limb); hinge frame X = hinge axis, Y along the child bone. Limits (signed, rad) and
 * motors as documented on `jointDefaults` below. Deterministic: bones are visited parents first in file
 * order and every number is rounded to 1e-9.
 */
import { computeMassProperties } from '../physics/massProperties';
import type { ShapeDesc } from '../physics/types';
import { quatConj, quatMul, quatRotate, type Quat } from '../math/quat';
import { add, cross, dot, scale, sub, type Vec3 } from '../math/vec3';
import { orderBones } from '../rig/restPose';
import type { RigBody, RigJoint, RigMotor, RigShape } from '../rig/schema';
import { boneGeometry, type BoneGeometry } from './boneGeometry';
import { frameFromXY, perpendicularPart, quatFromBasis, round3v, round4q, round9 } from './frames';
import { chooseJoints, type JointChoice, type JointReason } from './jointChoice';
import { ownedVertices, type AuthoringSkeleton } from './skeletonInput';

export type ShapeKind = 'capsule' | 'sphere' | 'box';

export interface GenerateOptions {
  /** Shape for every body (default 'capsule'), overridden per bone by `shapes`. */
  shape?: ShapeKind;
  shapes?: Readonly<Record<string, ShapeKind>>;
  /** Bones that get bodies (default: all). Excluded bones merge into their nearest included ancestor. */
  include?: readonly string[] | ((bone: string) => boolean);
  /** Bones shorter than this (m) get no body (default 0.04). */
  minBoneLength?: number;
  /** kg/m³ (default 985). */
  density?: number;
  /** Which percentile of the owned vertices' distances from the bone axis is the radius (default 0.75). */
  radiusPercentile?: number;
  /** Motor mode of every joint (default 'position'). */
  motorMode?: 'position' | 'pd';
  /** τmax = torqueScale · g · (mass of the child's subtree) · (child body length) (default 2). */
  torqueScale?: number;
  /** Let the ragdoll's own bodies collide with each other (default false: group 1, mask all but 1). */
  selfCollision?: boolean;
}

export interface GeneratedRagdoll {
  bodies: RigBody[];
  joints: RigJoint[];
  /** Bones that got no body, and why, for the UI's report. */
  skipped: { bone: string; reason: 'excluded' | 'too-small'; mergedInto: string | null }[];
  /** Why each joint got its type (jointChoice.ts's rule). */
  jointReasons: Record<string, JointReason>;
}

export const DEFAULT_DENSITY = 985;
const G = 9.81;
const MIN_RADIUS = 0.02;

export function generateRagdoll(skeleton: AuthoringSkeleton, options: GenerateOptions = {}): GeneratedRagdoll {
  const minLength = options.minBoneLength ?? 0.04;
  const density = options.density ?? DEFAULT_DENSITY;
  const percentile = options.radiusPercentile ?? 0.75;
  const included = typeof options.include === 'function' ? options.include
    : options.include ? ((s: Set<string>) => (b: string) => s.has(b))(new Set(options.include)) : () => true;
  for (const [key, v] of [['density', density], ['minBoneLength', minLength], ['torqueScale', options.torqueScale ?? 2]] as const) {
    if (!(Number.isFinite(v) && v >= 0) || (key === 'density' && v === 0)) throw new Error(`generateRagdoll: options.${key} must be a ${key === 'density' ? 'positive' : 'non-negative'} number, got ${v}`);
  }
  if (!(percentile > 0 && percentile <= 1)) throw new Error(`generateRagdoll: options.radiusPercentile must be in (0, 1], got ${percentile}`);

  const bones = orderBones(skeleton.bones).ordered;
  const geometry = boneGeometry(skeleton.bones);
  const owned = ownedVertices(skeleton.skins);

  // 1. Which bones get a body. End bones are measured by their vertices' extent.
  const extentOf = (g: BoneGeometry, verts: readonly Vec3[]) => axialExtent(g, verts, geometry);
  const hasBody = new Set<string>();
  const skipped: GeneratedRagdoll['skipped'] = [];
  for (const b of bones) {
    const g = geometry.get(b.name)!;
    if (!included(b.name)) { skipped.push({ bone: b.name, reason: 'excluded', mergedInto: null }); continue; }
    const [lo, hi] = extentOf(g, owned.get(b.name) ?? []);
    const size = g.mainChild ? g.length : Math.max(hi - lo, 0);
    if (size < minLength) { skipped.push({ bone: b.name, reason: 'too-small', mergedInto: null }); continue; }
    hasBody.add(b.name);
  }
  const bodyAncestor = (bone: string): string | null => {
    let p = geometry.get(bone)!.parent;
    while (p !== null && !hasBody.has(p)) p = geometry.get(p)!.parent;
    return p;
  };
  // 2. Vertices of body-less bones merge into the nearest ancestor body.
  const verts = new Map<string, Vec3[]>([...hasBody].map((b) => [b, [...(owned.get(b) ?? [])]]));
  for (const s of skipped) {
    s.mergedInto = bodyAncestor(s.bone);
    if (s.mergedInto) verts.get(s.mergedInto)!.push(...(owned.get(s.bone) ?? []));
  }

  // 3. Bodies.
  const group = 1, mask = options.selfCollision ? 0xffffffff : 0xfffffffe;
  const bodies: RigBody[] = [];
  const bodyLength = new Map<string, number>();
  for (const b of bones) {
    if (!hasBody.has(b.name)) continue;
    const g = geometry.get(b.name)!;
    const kind = options.shapes?.[b.name] ?? options.shape ?? 'capsule';
    const { shape, length } = fitShape(g, verts.get(b.name)!, kind, percentile, geometry);
    bodyLength.set(b.name, length);
    bodies.push({
      name: b.name, bone: b.name, type: 'dynamic',
      offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      shapes: [shape], mass: null, density: round9(density),
      material: { friction: 0.8, restitution: 0 },
      linearDamping: 0.05, angularDamping: 0.5,
      collisionGroup: group, collisionMask: mask,
    });
  }

  // 4. Joints: every body with an ancestor body.
  const pairs = bodies.map((b) => ({ parent: bodyAncestor(b.bone), child: b.bone }))
    .filter((p): p is { parent: string; child: string } => p.parent !== null);
  const choices = chooseJoints(pairs, geometry, skeleton.bones, skeleton.clips ?? []);
  const massOf = new Map(bodies.map((b) => [b.name, computeMassProperties(b.shapes as readonly ShapeDesc[], { density: b.density! }).mass]));
  const subtreeMass = (bone: string): number => massOf.get(bone)! + pairs.filter((p) => p.parent === bone).reduce((s, p) => s + subtreeMass(p.child), 0);
  const joints: RigJoint[] = [];
  const jointReasons: Record<string, JointReason> = {};
  for (const { parent, child } of pairs) {
    const choice = choices.get(child)!;
    const maxTorque = round9((options.torqueScale ?? 2) * G * subtreeMass(child) * bodyLength.get(child)!);
    // A short end bone (a hand, a foot: shorter than 0.7× its parent body) hinges like a wrist or ankle;
    // a long one (a forearm that carries the hand) like an elbow.
    const endBone = geometry.get(child)!.mainChild === null && bodyLength.get(child)! < 0.7 * bodyLength.get(parent)!;
    joints.push(makeJoint(geometry.get(parent)!, geometry.get(child)!, choice, endBone, motorFor(options.motorMode ?? 'position', maxTorque)));
    jointReasons[child] = choice.reason;
  }
  return { bodies, joints, skipped, jointReasons };
}

// ---------------------------------------------------------------------------------------------- shapes

const percentileOf = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))]!;

/** [P2, P98] of the vertices' projections on the bone axis (m from the head); [0, L] without vertices. */
function axialExtent(g: BoneGeometry, verts: readonly Vec3[], geometry?: ReadonlyMap<string, BoneGeometry>): [number, number] {
  if (verts.length === 0) {
    // An end bone without skin: half its parent's length (0.1 m for a lone bone).
    const parent = g.parent === null ? undefined : geometry?.get(g.parent);
    return [0, g.mainChild ? g.length : parent ? 0.5 * parent.length : 0.1];
  }
  const s = verts.map((v) => dot(sub(v, g.world.position), g.direction)).sort((a, b) => a - b);
  return [percentileOf(s, 0.02), percentileOf(s, 0.98)];
}

/** The shape (in the bone frame) and the body's length along the bone (m). */
function fitShape(g: BoneGeometry, verts: readonly Vec3[], kind: ShapeKind, percentile: number, geometry: ReadonlyMap<string, BoneGeometry>): { shape: RigShape; length: number } {
  const toLocal = (v: Vec3) => quatRotate(quatConj(g.world.rotation), v);
  const d = g.direction;
  let [lo, hi] = axialExtent(g, verts, geometry);
  let offset: Vec3 = [0, 0, 0], radius: number;
  if (verts.length === 0) {
    radius = Math.max(MIN_RADIUS, 0.15 * (hi - lo));
  } else {
    // Centroid of the perpendicular parts, then the radius percentile about the line through it.
    const perp = verts.map((v) => { const r = sub(v, g.world.position); return sub(r, scale(d, dot(r, d))); });
    offset = scale(perp.reduce((a, p) => add(a, p), [0, 0, 0] as Vec3), 1 / perp.length);
    const dist = perp.map((p) => Math.hypot(...sub(p, offset))).sort((a, b) => a - b);
    radius = Math.max(MIN_RADIUS, percentileOf(dist, percentile));
  }
  if (hi - lo < 1e-3) { hi += 1e-3; lo -= 1e-3; }
  // Shape frame: Y along the bone (capsule axis), X toward the bone's local X.
  const boneX = quatRotate(g.world.rotation, [1, 0, 0]);
  const X = perpendicularPart(boneX, d) ?? perpendicularPart(quatRotate(g.world.rotation, [0, 0, 1]), d)!;
  const Z = cross(X, d);
  const worldFrame = quatFromBasis(X, d, Z);
  const rotation = round4q(quatMul(quatConj(g.world.rotation), worldFrame));
  const centreAt = (mid: number, across: Vec3) => round3v(toLocal(add(add(scale(d, mid), offset), across)));
  const mid = (lo + hi) / 2, len = hi - lo;
  switch (kind) {
    case 'capsule': {
      const r = Math.min(radius, len / 2 + radius); // a short, fat bone becomes a sphere-like capsule
      return { length: len, shape: { type: 'capsule', position: centreAt(mid, [0, 0, 0]), rotation, radius: round9(r), halfHeight: round9(Math.max(0, len / 2 - r)), axis: 'y' } };
    }
    case 'sphere':
      return { length: len, shape: { type: 'sphere', position: centreAt(mid, [0, 0, 0]), rotation: [0, 0, 0, 1], radius: round9(Math.max(radius, len / 2)), hollow: false } };
    case 'box': {
      // Extents across the bone from the vertices' coordinates along X and Z (P2..P98).
      const across = (axis: Vec3): [number, number] => {
        if (verts.length === 0) return [-radius, radius];
        const c = verts.map((v) => dot(sub(sub(v, g.world.position), offset), axis)).sort((a, b) => a - b);
        return [percentileOf(c, 0.02), percentileOf(c, 0.98)];
      };
      const [x0, x1] = across(X), [z0, z1] = across(Z);
      const shift = add(scale(X, (x0 + x1) / 2), scale(Z, (z0 + z1) / 2));
      const half = (a: number, b: number) => round9(Math.max(MIN_RADIUS / 2, (b - a) / 2));
      return { length: len, shape: { type: 'box', position: centreAt(mid, shift), rotation, halfExtents: [half(x0, x1), half(lo, hi), half(z0, z1)] } };
    }
  }
}

// ---------------------------------------------------------------------------------------------- joints

/**
 * Default limits (rad, signed) and why:
 *  - ball, trunk (the child continues its branching parent's main line: spine, neck): swing ±0.6 about
 *    both frame axes, twist ±0.6 — a spine bends and turns a little at each joint;
 *  - ball, limb root (shoulder, hip, a mine's shoulder): swing ±1.3, twist ±0.8;
 *  - hinge to a short end bone (wrist, ankle; shorter than 0.7× its parent): ±0.7 about the rest pose;
 *  - hinge with a known flex sign (elbow, knee): from straight (−restBend, with 0.05 rad of
 *    hyperextension) to 2.5 rad of total bend;
 *  - hinge found only by its name: ±2.5 (the flex direction is unknown; narrow it by hand).
 */
export function jointDefaults(choice: JointChoice, trunk: boolean, endBone: boolean): { twist?: [number, number]; swing?: [number, number]; limit?: [number, number] } {
  if (choice.type === 'ball') return trunk ? { twist: [-0.6, 0.6], swing: [0.6, 0.6] } : { twist: [-0.8, 0.8], swing: [1.3, 1.3] };
  if (endBone) return { limit: [-0.7, 0.7] };
  if (choice.flexKnown) return { limit: [-(choice.restBend + 0.05), Math.max(0.5, 2.5 - choice.restBend)] };
  return { limit: [-2.5, 2.5] };
}

export function motorFor(mode: 'position' | 'pd', maxTorque: number): RigMotor {
  return {
    mode, target: { source: 'rest' }, maxTorque, errorReduction: 0.5,
    // PD defaults only matter in 'pd' mode; pdGainsFromFrequency gives better ones per joint.
    stiffness: mode === 'pd' ? round9(maxTorque / 0.5) : 0, damping: mode === 'pd' ? round9(maxTorque / 5) : 0,
    frictionTorque: 0,
  };
}

function makeJoint(parent: BoneGeometry, child: BoneGeometry, choice: JointChoice, endBone: boolean, motor: RigMotor): RigJoint {
  const anchor = child.world.position;
  const childZ = quatRotate(child.world.rotation, [0, 0, 1]), childX = quatRotate(child.world.rotation, [1, 0, 0]);
  const F: Quat = choice.type === 'hinge' ? frameFromXY(choice.axis!, child.direction, childZ) : frameFromXY(child.direction, childZ, childX);
  const local = (g: BoneGeometry) => ({
    position: round3v(quatRotate(quatConj(g.world.rotation), sub(anchor, g.world.position))),
    rotation: round4q(quatMul(quatConj(g.world.rotation), F)),
  });
  const base = { name: child.name, bodyA: parent.name, bodyB: child.name, frameA: local(parent), frameB: local(child), collideConnected: false };
  const trunk = parent.mainChild === child.name && parent.children.length >= 2;
  const lim = jointDefaults(choice, trunk, endBone);
  const r = (v: [number, number]): [number, number] => [round9(v[0]), round9(v[1])];
  if (choice.type === 'ball') return { type: 'ball', ...base, twistLimit: r(lim.twist!), swingLimit: r(lim.swing!), motor };
  return { type: 'hinge', ...base, limit: r(lim.limit!), motor };
}
