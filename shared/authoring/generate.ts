/**
 * generateRagdoll: a skeleton (+ skinned vertices and rigid meshes, + clips) → bodies and joints for a
 * RigDocument that stands when powered and falls cleanly when limp, without tuning (docs/creatures.md).
 *
 * 1. Which bones get bodies: bodyPlan.ts (deforming bones; helpers, twist, end bones and digits merge into
 *    their nearest body ancestor with their vertices; bones below `minBoneLength`, default 3 % of the
 *    creature's height, too).
 * 2. Shapes, in the bone frame (body frame = bone frame, offsets identity):
 *    - axis d from the head toward the child that continues the body (a child body, or an end bone, never
 *      a helper), else the bone's local +Y; length L to that child (end bones: as far as their vertices
 *      reach, or half the parent's length);
 *    - capsule over the vertices' extent along d ([P2, P98] of their projections), radius = P75 of their
 *      distances from the centroid line (`radiusPercentile`);
 *    - never degenerate: with fewer than 6 vertices, an extent under 35 % of L or a radius under 6 % of L
 *      the fit falls back to the span [0, L] and the radius of its neighbours (median of the parent's and
 *      children's good fits relative to their length, within 8–30 % of L, else 15 % of L); every shape is at least MIN_LENGTH_FRACTION · L long and
 *      MIN_RADIUS_FRACTION · L thick;
 *    - 'auto' (default): feet — named so, or chain ends whose vertices reach the creature's lowest point —
 *      are boxes lying flat on the floor (yaw-aligned, bottom at the sole), hands boxes along the bone,
 *      everything else a capsule. `shape` / `shapes` force one kind.
 * 3. Masses: a recognised biped (anatomy.ts) gets Winter's segment fractions of `totalMass` (default
 *    70 kg; a body no segment names takes the density of the segment it hangs from); any other creature
 *    its mesh's volume × `density` — per body the convex hull of its vertices, within [fill, 1] × its
 *    fitted shape's volume (hullVolumes), blended toward the shapes' distribution when the hulls would put
 *    the centre of mass less well over the soles (balancedVolumes) — scaled to `totalMass` when given.
 *    Each sole gets at least SOLE_FRACTION of the
 *    total, more when the stance needs it (stanceShare). Then every jointed pair is brought within
 *    MAX_RATIO (mass, and largest principal moment) by moving the two masses toward each other
 *    (balanceMasses; soles are never lowered), and the total is scaled back — so a fresh Generate shows no
 *    mass-ratio warning. Only soles touch the floor at rest (clearFloor).
 * 4. Joints, one per body with a body ancestor, anchored at the child bone's head. Recognised segments get
 *    anatomical joints: knees and elbows one-way hinges about the axis that flexes them (knee: shin toward
 *    the back; elbow: forearm toward the front) from straight (5° hyperextension) to 130° / 145°; hips,
 *    shoulders, spine, neck, head, wrists, ankles and tails ball joints with their cones and twist.
 *    Others follow jointChoice.ts's rule with conservative limits (`jointDefaults`).
 * 5. Motors (position mode, target rest): τmax = torqueScale · max(static torque of the subtree the joint
 *    carries at its worst lever, for a joint between the trunk and a sole SUPPORT_MARGIN × its share of the
 *    weight above it at half the lever to that weight's centre of mass) + a floor of 2 % · m·g·height, so
 *    the rest pose holds under gravity; the floor at most what keeps the spring's period over
 *    FLOOR_PERIOD_SUBSTEPS substeps on the child body (light links: tails, ears, fingers).
 * Deterministic: bones are visited parents first in file order and every number is rounded to 1e-9.
 */
import { CONTACT_HERTZ } from '../physics/contacts/contactSolver';
import { computeMassProperties } from '../physics/massProperties';
import type { ShapeDesc } from '../physics/types';
import { convexHullVolume } from '../math/convexHull';
import { quatConj, quatMul, quatRotate, type Quat } from '../math/quat';
import { add, cross, dot, length, normalize, scale, sub, type Vec3 } from '../math/vec3';
import { orderBones } from '../rig/restPose';
import type { RigBody, RigJoint, RigMotor, RigShape } from '../rig/schema';
import { isRecognisedBiped, SEGMENT_FRACTION, segmentGroup, type BoneAnatomy, type Role } from './anatomy';
import { planBones, type BonePlan } from './bodyPlan';
import { boneGeometry, type BoneGeometry } from './boneGeometry';
import { frameFromXY, perpendicularPart, quatFromBasis, round3v, round4q, round9 } from './frames';
import { chooseJoints, type JointChoice, type JointReason } from './jointChoice';
import { ownedVertices, type AuthoringSkeleton } from './skeletonInput';

export type ShapeKind = 'capsule' | 'sphere' | 'box';
export type ShapeChoice = ShapeKind | 'auto';

export interface GenerateOptions {
  /** Shape for every body (default 'auto': boxes for feet and hands, capsules elsewhere), overridden per
   *  bone by `shapes`. */
  shape?: ShapeChoice;
  shapes?: Readonly<Record<string, ShapeKind>>;
  /** Bones that may get bodies (default: all). Excluded bones merge into their nearest body ancestor. */
  include?: readonly string[] | ((bone: string) => boolean);
  /** Bones smaller than this (m) get no body (default 3 % of the creature's height). */
  minBoneLength?: number;
  /** kg/m³ (default 985, the mean density of a human body). */
  density?: number;
  /** Total mass (kg). A recognised biped defaults to 70 kg split by segment fractions; another creature
   *  defaults to its mesh's volume (per-body convex hulls) × density. */
  totalMass?: number;
  /** Which percentile of the owned vertices' distances from the bone axis is the radius (default 0.75). */
  radiusPercentile?: number;
  /** Motor mode of every joint (default 'position'). */
  motorMode?: 'position' | 'pd';
  /** Safety factor on the static torques (default 2.5). */
  torqueScale?: number;
  /** Let the ragdoll's own bodies collide with each other (default false: group 1, mask all but 1). */
  selfCollision?: boolean;
  /** Give IK / control / twist / end bones bodies like any other (default false). */
  keepHelpers?: boolean;
  /** Give fingers and toes bodies of their own (default false: part of the hand or foot). */
  keepDigits?: boolean;
}

export interface GenerateSummary {
  /** Standing height of the creature (m): top of the mesh (or bones) above its lowest point. */
  height: number;
  /** Lowest point of the generated shapes (m): where the floor should be for it to stand at rest. */
  lowest: number;
  totalMass: number;
  /** How masses were set: Winter's segment fractions (a recognised biped) or mesh volume × density
   *  ('density': per-body convex hulls of the skinned vertices, see hullVolumes). */
  massSource: 'segments' | 'density';
  biped: boolean;
  /** World direction the creature faces (horizontal, unit). */
  forward: Vec3;
  /** Masses the sole and ratio rules raised (body → factor; balancing also lowers some, not listed). */
  raised: Record<string, number>;
  /** Each body's length L along its bone (m): what its shape's minimum sizes are measured against. */
  lengths: Record<string, number>;
}

export interface GeneratedRagdoll {
  bodies: RigBody[];
  joints: RigJoint[];
  /** Bones that got no body, and why, for the UI's report (plan has the whole story). */
  skipped: { bone: string; reason: 'excluded' | 'too-small' | 'merged'; mergedInto: string | null }[];
  /** Every bone: body or not, and why. */
  plan: BonePlan[];
  /** Why each joint got its type. */
  jointReasons: Record<string, JointReason | 'anatomy'>;
  summary: GenerateSummary;
}

export const DEFAULT_DENSITY = 985;
export const DEFAULT_BIPED_MASS = 70;
/** Jointed mass and inertia ratios the generator keeps (the check warns above 10). */
export const MAX_RATIO = 9.5;
/** Least share of the total mass each sole body (a foot, a paw) carries. */
export const SOLE_FRACTION = 0.045;
/** PD motors of a generated rig: the spring reaches τmax at this error (rad); damping = stiffness × this (s). */
export const PD_SATURATION_ANGLE = 0.15;
/** Extra factor on the support torque of the joints between the trunk and a sole (they hold the whole
 *  body up through a closed loop over the feet; with 1 the T-rex sagged to 52 %, with 3 it stands). */
export const SUPPORT_MARGIN = 3;
/** Factor on the toppling stiffness the soles' floor contact must exceed (stanceShare). */
export const STANCE_SAFETY = 2;
const G_EARTH = 9.81;
export const PD_DAMPING_TIME = 0.05;
/** The torque floor of a joint's motor is capped so that its spring (floor / PD_SATURATION_ANGLE) swings
 *  the joint's child body (its mass at its centre's lever about the anchor) with a period of at least this
 *  many substeps of a fresh rig (1/60 s, 2 substeps: newRigDocument). Without the cap the 2 % · m·g·height
 *  floor of a 182 kg donkey (57 N·m, 384 N·m/rad) drove its 43 g tail links at periods under a substep: the
 *  tail spun at 100–185 rad/s standing and blew up at 9.5 s. With 6 it lies still for 20 s and every corpus
 *  creature stands as before (10 cost the Luanti spider 0.3 % of its lowest height). */
export const FLOOR_PERIOD_SUBSTEPS = 6;
const FRESH_SUBSTEP = 1 / 120;
/** A shape is never shorter than this fraction of its bone, nor thinner (radius) than the second. */
export const MIN_LENGTH_FRACTION = 0.5;
/** Height above the floor (fraction of the creature's height) every body but the soles keeps at rest. */
export const FLOOR_CLEARANCE = 0.02;
export const MIN_RADIUS_FRACTION = 0.08;
const G = 9.81;
const MIN_VERTICES = 6;
/** A non-biped body's volume is at least this share of its fitted shape × the creature's hull-to-shape
 *  ratio (with 0.5 the Quaternius horse's thin-hulled BackShoulder, 8.8 kg between a 46 kg torso and its
 *  leg, spun up and blew its 5 s powered trial at 4.2 s; with 1 every corpus creature stands). */
export const MIN_HULL_FILL = 1;

interface Fit { d: Vec3; L: number; lo: number; hi: number; radius: number; offset: Vec3; good: boolean; verts: Vec3[] }

export function generateRagdoll(skeleton: AuthoringSkeleton, options: GenerateOptions = {}): GeneratedRagdoll {
  return generateWith(skeleton, options, new Set());
}

function generateWith(skeleton: AuthoringSkeleton, options: GenerateOptions, toes: ReadonlySet<string>): GeneratedRagdoll {
  const density = options.density ?? DEFAULT_DENSITY;
  const percentile = options.radiusPercentile ?? 0.75;
  const torqueScale = options.torqueScale ?? 2.5;
  const included = typeof options.include === 'function' ? options.include
    : options.include ? ((s: Set<string>) => (b: string) => s.has(b))(new Set(options.include)) : () => true;
  for (const [key, v, positive] of [['density', density, true], ['minBoneLength', options.minBoneLength ?? 0, false], ['torqueScale', torqueScale, false], ['totalMass', options.totalMass ?? 1, true]] as const) {
    if (!(Number.isFinite(v) && (positive ? v > 0 : v >= 0))) throw new Error(`generateRagdoll: options.${key} must be a ${positive ? 'positive' : 'non-negative'} number, got ${v}`);
  }
  if (!(percentile > 0 && percentile <= 1)) throw new Error(`generateRagdoll: options.radiusPercentile must be in (0, 1], got ${percentile}`);

  const bones = orderBones(skeleton.bones).ordered;
  const geometry = boneGeometry(skeleton.bones);
  const owned = ownedVertices(skeleton.skins);
  const rigidBones = new Set((skeleton.skins ?? []).filter((s) => s.rigid).map((s) => s.jointNames[0]!));
  const measure = measureInput(skeleton, geometry);
  const minSize = options.minBoneLength ?? 0.03 * measure.height;

  // 1. The plan.
  const plan = planBones({
    bones, geometry, owned, rigidBones, included, minSize,
    keepHelpers: options.keepHelpers ?? false, keepDigits: options.keepDigits ?? false, toes,
  });
  const planOf = new Map(plan.map((p) => [p.bone, p]));
  const hasBody = (b: string) => planOf.get(b)!.body;
  const skeletonAncestor = (bone: string): string | null => {
    let p = geometry.get(bone)!.parent;
    while (p !== null && !hasBody(p)) p = geometry.get(p)!.parent;
    return p;
  };
  // One creature, one ragdoll: top-level bodies under one skeleton root (Hips and Belly under a Root bone
  // that owns no vertices; IK-rigged feet parented to the root) join the main one — the pelvis, else a
  // spine or chest, else the biggest — at the body nearest to their head (the feet: the shins).
  const rootOf = (bone: string): string => { let r = bone; while (geometry.get(r)!.parent !== null) r = geometry.get(r)!.parent!; return r; };
  const isBelow = (bone: string, top: string): boolean => { for (let p: string | null = bone; p !== null; p = geometry.get(p)!.parent) if (p === top) return true; return false; };
  const tops = bones.filter((b) => hasBody(b.name) && skeletonAncestor(b.name) === null).map((b) => b.name);
  const below = (top: string) => bones.filter((b) => hasBody(b.name) && isBelow(b.name, top)).length;
  const mainTop = new Map<string, string>();
  const isTrunk = (u: string) => ['pelvis', 'spine', 'chest'].includes(planOf.get(u)!.anatomy.role);
  const joinTops = (fits: ReadonlyMap<string, Fit>) => {
    for (const t of tops) {
      // Peers: the tops under the same skeleton root, and a top under a root of its own that holds no
      // trunk (an IK foot that is its own root, with the hoof under it) joins the main tree too.
      const ownRoot = tops.filter((u) => rootOf(u) === rootOf(t));
      const peers = ownRoot.some((u) => isTrunk(u)) ? ownRoot : tops;
      // The trunk: a pelvis, else a spine or chest, else the biggest body (never a leg that happens to
      // carry its own segments).
      const size = (u: string) => { const f = fits.get(u)!; return f.radius * f.radius * Math.max(f.hi - f.lo, f.radius); };
      const main = peers.find((u) => planOf.get(u)!.anatomy.role === 'pelvis')
        ?? peers.find((u) => ['spine', 'chest'].includes(planOf.get(u)!.anatomy.role))
        ?? [...peers].sort((x, y) => size(y) - size(x) || below(y) - below(x))[0]!;
      if (main === t) continue;
      const head = geometry.get(t)!.world.position;
      let best = main, bestD = Infinity;
      for (const b of bodyBones) {
        if (!isBelow(b, main) || isBelow(b, t)) continue;
        const f = fits.get(b)!, g = geometry.get(b)!;
        const along = Math.max(f.lo, Math.min(f.hi, dot(sub(head, g.world.position), f.d)));
        const d = length(sub(head, add(g.world.position, scale(f.d, along))));
        if (d < bestD) { bestD = d; best = b; }
      }
      mainTop.set(t, best);
    }
  };
  const bodyAncestor = (bone: string): string | null => skeletonAncestor(bone) ?? mainTop.get(bone) ?? null;
  const verts = new Map<string, Vec3[]>(plan.filter((p) => p.body).map((p) => [p.bone, [...(owned.get(p.bone) ?? [])]]));
  for (const p of plan) if (!p.body && p.mergedInto) verts.get(p.mergedInto)!.push(...(owned.get(p.bone) ?? []));
  const bodyBones = bones.filter((b) => hasBody(b.name)).map((b) => b.name);
  const anatomyOf = (b: string) => planOf.get(b)!.anatomy;

  // 2. Axes and fits.
  const hasBodyBelow = new Set<string>();
  for (const b of [...bones].reverse()) {
    const parent = geometry.get(b.name)!.parent;
    if (parent !== null && (hasBody(b.name) || hasBodyBelow.has(b.name))) hasBodyBelow.add(parent);
  }
  const fits = new Map<string, Fit>();
  for (const b of bodyBones) {
    const g = geometry.get(b)!;
    const { d, L } = bodyAxis(g, geometry, planOf, hasBodyBelow, verts.get(b)!);
    fits.set(b, fitCapsule(g, d, L, verts.get(b)!, percentile));
  }
  // Degenerate fits borrow their neighbours' thickness.
  for (const b of bodyBones) {
    const f = fits.get(b)!;
    if (f.good) continue;
    const parent = skeletonAncestor(b);
    const good = [parent, ...bodyBones.filter((c) => skeletonAncestor(c) === b)].filter((n): n is string => n !== null && fits.get(n)!.good);
    const neighbours = good.map((n) => fits.get(n)!.radius / Math.max(fits.get(n)!.L, 1e-6));
    const ratio = Math.min(0.3, Math.max(MIN_RADIUS_FRACTION, neighbours.length ? median(neighbours) : 0.15));
    f.lo = Math.min(f.lo, 0); f.hi = Math.max(f.hi, f.L);
    // A short connector between thick neighbours (a shoulder or neck bone with a handful of vertices) is as
    // thick as the thinner of them, not a bead: a bead's inertia is so small beside its neighbours' that the
    // ratio rule below would make it the heaviest body of the creature.
    const thinnest = good.length ? Math.min(...good.map((n) => fits.get(n)!.radius)) : 0;
    f.radius = Math.max(f.radius, ratio * f.L, Math.min(thinnest, 0.5 * f.L + thinnest * 0.5));
    f.offset = [0, 0, 0];
  }
  for (const f of fits.values()) {
    f.radius = Math.max(f.radius, MIN_RADIUS_FRACTION * f.L, 0.002 * measure.height);
    if (f.hi - f.lo < MIN_LENGTH_FRACTION * f.L) {
      const mid = (f.lo + f.hi) / 2;
      f.lo = mid - (MIN_LENGTH_FRACTION * f.L) / 2; f.hi = mid + (MIN_LENGTH_FRACTION * f.L) / 2;
    }
    if (f.hi - f.lo < 1e-3) { f.hi += 5e-4; f.lo -= 5e-4; }
  }

  joinTops(fits);

  // Feet by geometry too: a body at the end of a chain whose vertices reach the creature's lowest point
  // (within 3 % of its height) stands on them, named or not (a capsule there would roll).
  const hasChildBody = new Set(bodyBones.map((b) => bodyAncestor(b)).filter((p): p is string => p !== null));
  const lowestVertex = Math.min(...bodyBones.flatMap((b) => fits.get(b)!.verts.map((v) => v[1])), Infinity);
  const standsOn = (b: string) => {
    const f = fits.get(b)!;
    if (hasChildBody.has(b) || f.verts.length === 0 || !Number.isFinite(lowestVertex)) return false;
    return Math.min(...f.verts.map((v) => v[1])) - lowestVertex < 0.03 * measure.height;
  };
  // Which way the creature faces: head ahead of the pelvis (animals), else the feet, else glTF's +Z.
  const forward = facing(bodyBones, geometry, anatomyOf, measure.height, (b) => (standsOn(b) ? fits.get(b)!.verts : null));

  const group = 1, mask = options.selfCollision ? 0xffffffff : 0xfffffffe;
  // Unnamed toes: a sole whose parent body reaches the floor too (heel and ball of one foot, as two bones)
  // joins it, so the foot box spans heel to toe. Named toes were merged by the plan already.
  if (!options.keepDigits) {
    const more = bodyBones.filter((b) => {
      const p = skeletonAncestor(b);
      if (!standsOn(b) || p === null || toes.has(b) || options.shapes?.[b] || bodyBones.filter((c) => skeletonAncestor(c) === p).length !== 1) return false;
      const pv = fits.get(p)!.verts;
      return pv.length > 0 && Math.min(...pv.map((v) => v[1])) - lowestVertex < 0.03 * measure.height;
    });
    if (more.length) return generateWith(skeleton, options, new Set([...toes, ...more]));
  }
  // A sole's footprint: its own vertices and those of the body above it that reach the floor too (a rig
  // whose foot bone owns only the sole while the shin owns the boot: the box spans the whole boot).
  const footprint = (b: string): Fit => {
    const f = fits.get(b)!, p = bodyAncestor(b);
    if (p === null || f.verts.length === 0) return f;
    const low = fits.get(p)!.verts.filter((v) => v[1] - lowestVertex < 0.03 * measure.height);
    return low.length >= MIN_VERTICES ? { ...f, verts: [...f.verts, ...low] } : f;
  };
  const shapeOf = new Map<string, RigShape>();
  for (const b of bodyBones) {
    const a = anatomyOf(b);
    const foot = a.role === 'foot' || (a.role !== 'hand' && standsOn(b));
    const auto: ShapeKind = foot || a.role === 'hand' ? 'box' : 'capsule';
    const forced = options.shape && options.shape !== 'auto' ? options.shape : auto;
    const kind = options.shapes?.[b] ?? forced;
    const g = geometry.get(b)!, f = fits.get(b)!;
    shapeOf.set(b, kind === 'box' && foot && !options.shapes?.[b] ? flatFootBox(g, footprint(b), forward) : shapeFromFit(g, f, kind));
  }
  // Only the soles touch the floor: a shin whose capsule reaches past an ankle at floor level (a rig whose
  // foot bone sits on the ground) would stand on a ball beside the foot box, and the two contacts fight
  // the ankle motor until the creature tips over. Bodies above a sole are trimmed at their lower end, then
  // thinned, to clear the floor by FLOOR_CLEARANCE of the height.
  if (Number.isFinite(lowestVertex)) {
    for (const b of bodyBones) {
      if (!hasChildBody.has(b) || options.shapes?.[b]) continue;
      shapeOf.set(b, clearFloor(geometry.get(b)!, shapeOf.get(b)!, lowestVertex + FLOOR_CLEARANCE * measure.height, fits.get(b)!.L, 0.002 * measure.height));
    }
  }

  // Shapes whose inertia per kilogram differs from their jointed neighbour's by more than MAX_RATIO² cannot
  // be balanced by masses: the smaller one is fattened (across its axis) until they can.
  const pairsEarly = bodyBones.map((b) => ({ parent: bodyAncestor(b), child: b })).filter((p): p is { parent: string; child: string } => p.parent !== null);
  for (let pass = 0; pass < 3; pass++) {
    const factor = new Map<string, number>();
    for (const { parent, child } of pairsEarly) {
      const ja = maxMoment(shapeOf.get(parent)!, 1), jb = maxMoment(shapeOf.get(child)!, 1);
      const [small, ratio] = ja > jb ? [child, ja / jb] : [parent, jb / ja];
      if (ratio > 0.9 * MAX_RATIO * MAX_RATIO) factor.set(small, Math.max(factor.get(small) ?? 1, Math.sqrt(ratio / (0.9 * MAX_RATIO * MAX_RATIO))));
    }
    for (const [b, k] of factor) shapeOf.set(b, fatten(shapeOf.get(b)!, k));
  }

  // 3. Masses.
  const pairs = pairsEarly;
  const children = new Map<string, string[]>(bodyBones.map((b) => [b, []]));
  for (const p of pairs) children.get(p.parent)!.push(p.child);
  // Soles: chain ends whose lowest point is within 4 % of the height of the creature's lowest point.
  const lowestOf = new Map(bodyBones.map((b) => [b, lowestPoint(geometry.get(b)!, shapeOf.get(b)!)]));
  const lowest = Math.min(...lowestOf.values());
  const soles = bodyBones.filter((b) => lowestOf.get(b)! - lowest < 0.04 * measure.height && children.get(b)!.length === 0);
  const anatomyList = plan.map((p) => p.anatomy);
  const biped = isRecognisedBiped(anatomyList);
  const volume = new Map(bodyBones.map((b) => [b, computeMassProperties([shapeOf.get(b)! as ShapeDesc], { density: 1 }).mass]));
  const mass = new Map<string, number>();
  let massSource: GenerateSummary['massSource'] = 'density';
  if (biped) {
    massSource = 'segments';
    const total = options.totalMass ?? DEFAULT_BIPED_MASS;
    const groups = new Map<string, string[]>();
    const loose: string[] = [];
    for (const b of bodyBones) {
      const grp = segmentGroup(anatomyOf(b).role, anatomyOf(b).side);
      if (grp) groups.set(grp, [...(groups.get(grp) ?? []), b]); else loose.push(b);
    }
    // Each named group takes its fraction; a missing group's share is spread over the others.
    let known = 0;
    for (const grp of groups.keys()) known += SEGMENT_FRACTION[grp.split('.')[0]!]!;
    // A body no segment names (ears, a tail, antennae, a fist not called a hand) hanging from a segment is
    // as dense as that segment: a big capsule fitted around a chibi's ears must not outweigh the head they
    // are on. Only bodies with no segment above them take `density`, before the segments share the rest.
    const groupOf = new Map<string, string>();
    for (const [grp, list] of groups) for (const b of list) groupOf.set(b, grp);
    const anchor = (b: string): string | null => { for (let p = bodyAncestor(b); p !== null; p = bodyAncestor(p)) { const g = groupOf.get(p); if (g) return g; } return null; };
    const looseMass = loose.filter((b) => anchor(b) === null).reduce((s, b) => s + volume.get(b)! * density, 0);
    const segmentTotal = Math.max(total - looseMass, 0.5 * total);
    const groupDensity = new Map<string, number>();
    for (const [grp, list] of groups) {
      const m = (segmentTotal * SEGMENT_FRACTION[grp.split('.')[0]!]!) / known;
      const v = list.reduce((s, b) => s + volume.get(b)!, 0);
      for (const b of list) mass.set(b, (m * volume.get(b)!) / v);
      groupDensity.set(grp, m / v);
    }
    for (const b of loose) { const g = anchor(b); mass.set(b, volume.get(b)! * (g ? groupDensity.get(g)! : density)); }
  } else {
    const meshVolume = balancedVolumes(hullVolumes(bodyBones, verts, volume), volume, soles, shapeOf, geometry, forward);
    for (const b of bodyBones) mass.set(b, meshVolume.get(b)! * density);
  }
  // The total: the biped's (70 kg by default), the user's, or volume × density — the ratio rules below move
  // mass between bodies, they do not add any.
  const targetTotal = biped ? options.totalMass ?? DEFAULT_BIPED_MASS : options.totalMass ?? [...mass.values()].reduce((s, m) => s + m, 0);
  // A floor contact is as stiff as the body touching it is heavy: a light foot under a heavy body sinks at
  // the heel and tips the creature over. Each sole carries at least SOLE_FRACTION of the total.
  // More where the stance needs it: the share that makes the soles' contact stiff enough to hold the
  // creature's weight upright (stanceShare), within half the total for all soles together.
  const soleShare = Math.min(Math.max(SOLE_FRACTION, stanceShare(soles, shapeOf, geometry, mass, forward)), 0.5 / Math.max(1, soles.length));
  const before = new Map(mass);
  // Soles and ratios, alternately (each only raises masses), until both hold.
  for (let round = 0; round < 4; round++) {
    const others = bodyBones.filter((b) => !soles.includes(b)).reduce((s, b) => s + mass.get(b)!, 0);
    const withSoles = others / (1 - soles.length * soleShare);
    for (const b of soles) mass.set(b, Math.max(mass.get(b)!, soleShare * withSoles));
    balanceMasses(pairs, mass, shapeOf, (b) => soles.includes(b));
    // What the masses cannot settle (a pair balanceMasses leaves over the limit, which happens when a sole,
    // never lowered, sits under a body that turns far more easily): the body that turns too easily is
    // fattened (soles keep their flat box).
    const fat = new Map<string, number>();
    for (const { parent: a, child: b } of pairs) {
      const ia = maxMoment(shapeOf.get(a)!, mass.get(a)!), ib = maxMoment(shapeOf.get(b)!, mass.get(b)!);
      const [small, ratio] = ia > ib ? [b, ia / ib] : [a, ib / ia];
      if (ratio > MAX_RATIO && !soles.includes(small)) fat.set(small, Math.max(fat.get(small) ?? 1, Math.sqrt(ratio / (0.95 * MAX_RATIO))));
    }
    for (const [b, k] of fat) shapeOf.set(b, fatten(shapeOf.get(b)!, k));
  }
  balanceMasses(pairs, mass, shapeOf, (b) => soles.includes(b));
  const raised: Record<string, number> = {};
  for (const b of bodyBones) { const k = mass.get(b)! / before.get(b)!; if (k > 1 + 1e-6) raised[b] = round9(k); }
  if (targetTotal !== undefined) {
    const sum = [...mass.values()].reduce((s, m) => s + m, 0);
    for (const b of bodyBones) mass.set(b, (mass.get(b)! * targetTotal) / sum);
  }

  const bodies: RigBody[] = bodyBones.map((b) => ({
    name: b, bone: b, type: 'dynamic',
    offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    shapes: [shapeOf.get(b)!], mass: round9(mass.get(b)!), density: null,
    material: { friction: 0.8, restitution: 0 },
    linearDamping: 0.05, angularDamping: 0.5,
    collisionGroup: group, collisionMask: mask,
  }));

  // 4. Joints.
  const choices = chooseJoints(pairs, geometry, skeleton.bones, skeleton.clips ?? []);
  const bodyWorld = new Map(bodyBones.map((b) => {
    const props = computeMassProperties([shapeOf.get(b)! as ShapeDesc], { mass: mass.get(b)! });
    const g = geometry.get(b)!;
    return [b, { com: add(g.world.position, quatRotate(g.world.rotation, props.centroid)), mass: mass.get(b)! }] as const;
  }));
  const subtree = (b: string): string[] => [b, ...children.get(b)!.flatMap(subtree)];
  const totalMass = [...mass.values()].reduce((s, m) => s + m, 0);
  const comAll = scale(bodyBones.reduce((s, b) => add(s, scale(bodyWorld.get(b)!.com, bodyWorld.get(b)!.mass)), [0, 0, 0] as Vec3), 1 / totalMass);
  const supporting = new Map<string, number>(); // joint child → distance to its sole (m)
  for (const s of soles) {
    for (let c: string | null = s; c !== null && bodyAncestor(c) !== null; c = bodyAncestor(c)) {
      const anchor = geometry.get(c)!.world.position;
      supporting.set(c, Math.max(supporting.get(c) ?? 0, anchor[1] - lowest));
    }
  }
  const joints: RigJoint[] = [];
  const jointReasons: GeneratedRagdoll['jointReasons'] = {};
  const minTorque = 0.02 * totalMass * G * measure.height;
  for (const { parent, child } of pairs) {
    const anchor = geometry.get(child)!.world.position;
    const carriedBodies = subtree(child);
    const m = carriedBodies.reduce((s, b) => s + bodyWorld.get(b)!.mass, 0);
    const com = scale(carriedBodies.reduce((s, b) => add(s, scale(bodyWorld.get(b)!.com, bodyWorld.get(b)!.mass)), [0, 0, 0] as Vec3), 1 / m);
    const carried = m * G * length(sub(com, anchor));
    // The child body's own inertia about the anchor as a point mass: what the spring swings when the joints
    // below it give (the whole carried subtree about the anchor let a 0.27 kg tail section keep 17 N·m and
    // the donkey's tail still blew up).
    const own = bodyWorld.get(child)!, lever = sub(own.com, anchor);
    const inertia = own.mass * dot(lever, lever);
    const omega = (2 * Math.PI) / (FLOOR_PERIOD_SUBSTEPS * FRESH_SUBSTEP);
    const floor = Math.min(minTorque, inertia * omega * omega * PD_SATURATION_ANGLE);
    // A joint between the trunk and a sole holds up everything that is not below it: its share of that
    // mass at half the distance from the joint to the rest of the body's centre of mass (a 30° lean).
    let support = 0;
    if (supporting.has(child)) {
      const above = totalMass - m;
      const restCom = scale(sub(scale(comAll, totalMass), scale(com, m)), 1 / Math.max(above, 1e-9));
      support = SUPPORT_MARGIN * (above / Math.max(1, soles.length)) * G * 0.5 * length(sub(restCom, anchor));
    }
    const maxTorque = round9(torqueScale * Math.max(carried, support) + floor);
    const motor = motorFor(options.motorMode ?? 'pd', maxTorque, PD_SATURATION_ANGLE, PD_DAMPING_TIME);
    const choice = choices.get(child)!;
    const anatomical = anatomicalJoint(geometry.get(parent)!, geometry.get(child)!, fits.get(parent)!, fits.get(child)!, anatomyOf(parent), anatomyOf(child), forward, motor, choice);
    if (anatomical) {
      joints.push(anatomical);
      jointReasons[child] = anatomical.type === 'hinge' && choice.type === 'hinge' && choice.flexKnown ? choice.reason : 'anatomy';
      continue;
    }
    const endBone = geometry.get(child)!.mainChild === null && fits.get(child)!.L < 0.7 * fits.get(parent)!.L;
    joints.push(makeJoint(geometry.get(parent)!, geometry.get(child)!, fits.get(child)!.d, choice, endBone, motor));
    jointReasons[child] = choice.reason;
  }

  const skipped: GeneratedRagdoll['skipped'] = plan.filter((p) => !p.body).map((p) => ({
    bone: p.bone, reason: p.reason === 'excluded' ? 'excluded' : p.reason === 'too-small' ? 'too-small' : 'merged', mergedInto: p.mergedInto,
  }));
  return {
    bodies, joints, skipped, plan, jointReasons,
    summary: { height: measure.height, lowest: round9(lowest), totalMass: round9(totalMass), massSource, biped, forward, raised, lengths: Object.fromEntries(bodyBones.map((b) => [b, round9(fits.get(b)!.L)])) },
  };
}

// ---------------------------------------------------------------------------------------------- measure

/** Height of the creature (m): its skinned and rigid vertices' vertical extent, else its bones'. */
export function measureInput(skeleton: AuthoringSkeleton, geometry = boneGeometry(skeleton.bones)): { height: number; minY: number; maxY: number } {
  let minY = Infinity, maxY = -Infinity;
  for (const s of skeleton.skins ?? []) {
    for (let i = 1; i < s.positions.length; i += 3) { const y = s.positions[i]!; if (y < minY) minY = y; if (y > maxY) maxY = y; }
  }
  if (!(maxY > minY)) {
    for (const g of geometry.values()) { const y = g.world.position[1]; if (y < minY) minY = y; if (y > maxY) maxY = y; }
  }
  if (!(maxY > minY)) return { height: 0, minY: 0, maxY: 0 };
  return { height: maxY - minY, minY, maxY };
}

// ---------------------------------------------------------------------------------------------- shapes

const percentileOf = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))]!;
const median = (xs: readonly number[]) => percentileOf([...xs].sort((a, b) => a - b), 0.5);

/** The body's axis and length: toward the child that continues it (a body, or a bone with bodies below,
 *  or an end bone marking the tip — never an IK/control/twist bone), else along local +Y. */
function bodyAxis(g: BoneGeometry, geometry: ReadonlyMap<string, BoneGeometry>, plans: ReadonlyMap<string, BonePlan>, hasBodyBelow: ReadonlySet<string>, verts: readonly Vec3[]): { d: Vec3; L: number } {
  const localY = quatRotate(g.world.rotation, [0, 1, 0]);
  let best: Vec3 | null = null, bestCos = -Infinity, bestLen = 0;
  for (const c of g.children) {
    const p = plans.get(c)!;
    const continues = p.body || hasBodyBelow.has(c) || p.reason === 'end' || (p.reason === 'digit' && p.anatomy.role === 'toe');
    if (!continues) continue;
    const off = sub(geometry.get(c)!.world.position, g.world.position);
    const len = length(off);
    if (len < 1e-6) continue;
    const cos = dot(scale(off, 1 / len), localY);
    if (cos > bestCos + 1e-9) { bestCos = cos; best = scale(off, 1 / len); bestLen = len; }
  }
  if (best) return { d: best, L: bestLen };
  const d = normalize(localY);
  // An end of a chain: as far as its vertices reach along +Y, else half its parent's length.
  const reach = verts.length ? percentileOf(verts.map((v) => dot(sub(v, g.world.position), d)).sort((a, b) => a - b), 0.98) : 0;
  const parent = g.parent === null ? undefined : geometry.get(g.parent);
  return { d, L: reach > 1e-4 ? reach : parent && parent.length > 0 ? 0.5 * parent.length : 0.1 };
}

function fitCapsule(g: BoneGeometry, d: Vec3, L: number, verts: Vec3[], percentile: number): Fit {
  if (verts.length === 0) return { d, L, lo: 0, hi: L, radius: 0, offset: [0, 0, 0], good: false, verts };
  const s = verts.map((v) => dot(sub(v, g.world.position), d)).sort((a, b) => a - b);
  const lo = percentileOf(s, 0.02), hi = percentileOf(s, 0.98);
  const perp = verts.map((v) => { const r = sub(v, g.world.position); return sub(r, scale(d, dot(r, d))); });
  const offset = scale(perp.reduce((a, p) => add(a, p), [0, 0, 0] as Vec3), 1 / perp.length);
  const radius = percentileOf(perp.map((p) => length(sub(p, offset))).sort((a, b) => a - b), percentile);
  const good = verts.length >= MIN_VERTICES && hi - lo >= 0.35 * L && radius >= 0.06 * L;
  return { d, L, lo, hi, radius, offset, good, verts };
}

/** Shape frame: Y along the body axis, X toward the bone's local X. */
function axisFrame(g: BoneGeometry, d: Vec3): { X: Vec3; Z: Vec3; rotation: Quat } {
  const boneX = quatRotate(g.world.rotation, [1, 0, 0]);
  const X = perpendicularPart(boneX, d) ?? perpendicularPart(quatRotate(g.world.rotation, [0, 0, 1]), d)!;
  const Z = cross(X, d);
  return { X, Z, rotation: round4q(quatMul(quatConj(g.world.rotation), quatFromBasis(X, d, Z))) };
}

function shapeFromFit(g: BoneGeometry, f: Fit, kind: ShapeKind): RigShape {
  const toLocal = (v: Vec3) => quatRotate(quatConj(g.world.rotation), v);
  const { X, Z, rotation } = axisFrame(g, f.d);
  const centreAt = (mid: number, across: Vec3) => round3v(toLocal(add(add(scale(f.d, mid), f.offset), across)));
  const mid = (f.lo + f.hi) / 2, len = f.hi - f.lo;
  switch (kind) {
    case 'capsule': {
      const r = Math.min(f.radius, len / 2 + f.radius);
      return { type: 'capsule', position: centreAt(mid, [0, 0, 0]), rotation, radius: round9(r), halfHeight: round9(Math.max(0, len / 2 - r)), axis: 'y' };
    }
    case 'sphere':
      return { type: 'sphere', position: centreAt(mid, [0, 0, 0]), rotation: [0, 0, 0, 1], radius: round9(Math.max(f.radius, len / 2)), hollow: false };
    case 'box': {
      const across = (axis: Vec3): [number, number] => {
        if (!f.good) return [-f.radius, f.radius];
        const c = f.verts.map((v) => dot(sub(sub(v, g.world.position), f.offset), axis)).sort((a, b) => a - b);
        return [percentileOf(c, 0.02), percentileOf(c, 0.98)];
      };
      const [x0, x1] = across(X), [z0, z1] = across(Z);
      const shift = add(scale(X, (x0 + x1) / 2), scale(Z, (z0 + z1) / 2));
      const half = (a: number, b: number) => round9(Math.max(f.radius * 0.5, (b - a) / 2));
      return { type: 'box', position: centreAt(mid, shift), rotation, halfExtents: [half(x0, x1), round9(len / 2), half(z0, z1)] };
    }
  }
}

/** A foot as a box lying flat: its sole on the foot's lowest vertices, long along the foot's horizontal
 *  direction (or the creature's forward), wide across it. */
function flatFootBox(g: BoneGeometry, f: Fit, forward: Vec3): RigShape {
  // Long axis: the vertices' principal horizontal direction (a foot is longer than wide), signed forward;
  // without enough vertices the bone's horizontal direction, else the creature's forward.
  const horiz: Vec3 = [f.d[0], 0, f.d[2]];
  let Zf: Vec3 = length(horiz) > 0.3 ? normalize(horiz) : forward;
  if (f.verts.length >= MIN_VERTICES) {
    const cx = f.verts.reduce((a, v) => a + v[0], 0) / f.verts.length, cz = f.verts.reduce((a, v) => a + v[2], 0) / f.verts.length;
    let sxx = 0, szz = 0, sxz = 0;
    for (const v of f.verts) { const dx = v[0] - cx, dz = v[2] - cz; sxx += dx * dx; szz += dz * dz; sxz += dx * dz; }
    const angle = 0.5 * Math.atan2(2 * sxz, sxx - szz);
    const axis: Vec3 = [Math.cos(angle), 0, Math.sin(angle)];
    const l1 = sxx * axis[0] ** 2 + 2 * sxz * axis[0] * axis[2] + szz * axis[2] ** 2, l2 = sxx + szz - l1;
    if (l1 > 1.5 * l2) Zf = dot(axis, forward) < 0 ? scale(axis, -1) : axis;
  }
  const Y: Vec3 = [0, 1, 0];
  const Xf = cross(Y, Zf);
  const pts = f.good ? f.verts : [g.world.position, add(g.world.position, scale(f.d, f.L))];
  const coords = (axis: Vec3) => pts.map((v) => dot(v, axis)).sort((a, b) => a - b);
  const range = (axis: Vec3, lo: number, hi: number): [number, number] => { const c = coords(axis); return [percentileOf(c, lo), percentileOf(c, hi)]; };
  let [x0, x1] = range(Xf, 0.02, 0.98), [z0, z1] = range(Zf, 0.01, 0.99);
  const [y0, y1Fit] = range(Y, 0.01, 0.98);
  let y1 = y1Fit;
  const minHalf = Math.max(f.radius * 0.6, 0.05 * f.L);
  const grow = (a: number, b: number): [number, number] => (b - a < 2 * minHalf ? [(a + b) / 2 - minHalf, (a + b) / 2 + minHalf] : [a, b]);
  [x0, x1] = grow(x0, x1); [z0, z1] = grow(z0, z1);
  if (y1 - y0 < minHalf) y1 = y0 + minHalf;
  const centreWorld = add(add(scale(Xf, (x0 + x1) / 2), scale(Y, (y0 + y1) / 2)), scale(Zf, (z0 + z1) / 2));
  const toLocal = (v: Vec3) => quatRotate(quatConj(g.world.rotation), v);
  return {
    type: 'box', position: round3v(toLocal(sub(centreWorld, g.world.position))),
    rotation: round4q(quatMul(quatConj(g.world.rotation), quatFromBasis(Xf, Y, Zf))),
    halfExtents: [round9((x1 - x0) / 2), round9((y1 - y0) / 2), round9((z1 - z0) / 2)],
  };
}

/** A capsule or sphere raised off the floor: its lower end trimmed (down to MIN_LENGTH_FRACTION · L long),
 *  then its radius reduced (down to MIN_RADIUS_FRACTION · L), until its lowest point is at `minY`. Other
 *  shapes, and what cannot be cleared within those bounds, stay as they are. */
function clearFloor(g: BoneGeometry, shape: RigShape, minY: number, L: number, minRadius: number): RigShape {
  if (shape.type !== 'capsule' && shape.type !== 'sphere') return shape;
  let need = minY - lowestPoint(g, shape);
  if (!(need > 0)) return shape;
  const rMin = Math.max(MIN_RADIUS_FRACTION * L, minRadius);
  if (shape.type === 'sphere') {
    const r = Math.max(rMin, shape.radius - need);
    return { ...shape, radius: round9(r) };
  }
  const axis = quatRotate(quatMul(g.world.rotation, shape.rotation as Quat), [0, 1, 0]);
  const ay = Math.abs(axis[1]);
  let hh = shape.halfHeight, r = shape.radius;
  let centre: Vec3 = [...shape.position] as Vec3;
  if (ay > 0.2) {
    // Trim t off the lower end: the segment's lower point rises by ay · t.
    const maxTrim = Math.max(0, Math.min(2 * hh, 2 * (hh + r) - MIN_LENGTH_FRACTION * L));
    const t = Math.min(need / ay, maxTrim);
    hh -= t / 2;
    const upLocal = quatRotate(quatConj(g.world.rotation), axis[1] > 0 ? axis : scale(axis, -1));
    centre = add(centre, scale(upLocal, t / 2));
    need -= ay * t;
  }
  if (need > 0) r = Math.max(rMin, r - need);
  return { ...shape, position: round3v(centre), radius: round9(r), halfHeight: round9(Math.max(0, hh)) };
}

/** Lowest world y of a shape at rest. */
export function lowestPoint(g: { world: { position: Vec3; rotation: Quat } }, shape: RigShape): number {
  const rot = quatMul(g.world.rotation, shape.rotation as Quat);
  const c = add(g.world.position, quatRotate(g.world.rotation, shape.position as Vec3));
  switch (shape.type) {
    case 'sphere': return c[1] - shape.radius;
    case 'capsule': {
      const axis = quatRotate(rot, shape.axis === 'x' ? [1, 0, 0] : shape.axis === 'z' ? [0, 0, 1] : [0, 1, 0]);
      return c[1] - Math.abs(axis[1]) * shape.halfHeight - shape.radius;
    }
    case 'box': {
      const h = shape.halfExtents;
      let dy = 0;
      for (let k = 0; k < 3; k++) { const e: Vec3 = [0, 0, 0]; e[k] = 1; dy += Math.abs(quatRotate(rot, e)[1]) * h[k]!; }
      return c[1] - dy;
    }
    default: return c[1];
  }
}

function facing(bodyBones: readonly string[], geometry: ReadonlyMap<string, BoneGeometry>, anatomyOf: (b: string) => BoneAnatomy, height: number, soleVerts: (b: string) => Vec3[] | null): Vec3 {
  const pos = (role: Role) => bodyBones.filter((b) => anatomyOf(b).role === role).map((b) => geometry.get(b)!.world.position);
  const head = pos('head')[0], pelvis = pos('pelvis')[0] ?? geometry.get(bodyBones[0] ?? '')?.world.position;
  if (head && pelvis) {
    const h: Vec3 = [head[0] - pelvis[0], 0, head[2] - pelvis[2]];
    if (length(h) > 0.25 * height) return normalize(h);
  }
  const feet = bodyBones.filter((b) => anatomyOf(b).role === 'foot').map((b) => geometry.get(b)!);
  const sum = feet.reduce((s, g) => {
    const toes = g.children.map((c) => geometry.get(c)!.world.position).find((p) => p[1] < g.world.position[1] + 1e-3);
    const d = toes ? sub(toes, g.world.position) : g.direction;
    return add(s, [d[0], 0, d[2]]);
  }, [0, 0, 0] as Vec3);
  if (length(sum) > 1e-6) return normalize(sum);
  // Unnamed feet: a sole's vertices reach forward of the bone it hangs from (toes ahead of the ankle).
  const soles = bodyBones.map((b) => ({ b, verts: soleVerts(b) })).filter((x): x is { b: string; verts: Vec3[] } => x.verts !== null && x.verts.length > 0);
  const fromSoles = soles.reduce((s, { b, verts }) => {
    const head = geometry.get(b)!.world.position;
    const c = scale(verts.reduce((a, v) => add(a, v), [0, 0, 0] as Vec3), 1 / verts.length);
    return add(s, [c[0] - head[0], 0, c[2] - head[2]]);
  }, [0, 0, 0] as Vec3);
  return length(fromSoles) > 0.01 * height * Math.max(1, soles.length) ? normalize(fromSoles) : [0, 0, 1];
}

// ---------------------------------------------------------------------------------------------- masses

/** Where the centre of mass of `mass` lies within the soles' stance along `axis`: 0 at an edge (negative
 *  outside), 0.5 in the middle; 0.5 when there are no soles. */
function stanceMargin(soles: readonly string[], shapes: ReadonlyMap<string, RigShape>, geometry: ReadonlyMap<string, BoneGeometry>, mass: ReadonlyMap<string, number>, axis: Vec3): number {
  if (soles.length === 0) return 0.5;
  let M = 0, e = 0;
  for (const [b, m] of mass) {
    const g = geometry.get(b)!, props = computeMassProperties([shapes.get(b)! as ShapeDesc], { mass: m });
    M += m; e += m * dot(add(g.world.position, quatRotate(g.world.rotation, props.centroid)), axis);
  }
  if (!(M > 0)) return 0.5;
  e /= M;
  let lo = Infinity, hi = -Infinity;
  for (const b of soles) {
    const shape = shapes.get(b)!, g = geometry.get(b)!;
    const pts = shape.type === 'box' ? boxCorners(g, shape) : [add(g.world.position, quatRotate(g.world.rotation, shape.position as Vec3))];
    const r = shape.type === 'sphere' || shape.type === 'capsule' ? shape.radius : 0;
    for (const p of pts) { lo = Math.min(lo, dot(p, axis) - r); hi = Math.max(hi, dot(p, axis) + r); }
  }
  return hi - lo > 1e-9 ? Math.min(e - lo, hi - e) / (hi - lo) : 0.5;
}

/**
 * The hulls decide how heavy a creature is, but not alone where its weight sits: a head's hull is full
 * where a tail's low-poly rings are not, and the T-rex's hull masses put its centre of mass ahead of its
 * toes (it fell on its nose). When the hull distribution is less well placed over the soles than the
 * fitted shapes' (along the facing and across it), it is blended toward the shapes' distribution (same
 * total) by the least fraction, in steps of 5 %, that brings the centre of mass within the middle third
 * of the stance or as far in as the shapes have it.
 */
function balancedVolumes(hull: ReadonlyMap<string, number>, shapeVolume: ReadonlyMap<string, number>, soles: readonly string[], shapes: ReadonlyMap<string, RigShape>, geometry: ReadonlyMap<string, BoneGeometry>, forward: Vec3): Map<string, number> {
  const sumHull = [...hull.values()].reduce((s, v) => s + v, 0), sumShape = [...shapeVolume.values()].reduce((s, v) => s + v, 0);
  const blend = (t: number) => new Map([...hull].map(([b, v]) => [b, (1 - t) * v + (t * shapeVolume.get(b)! * sumHull) / sumShape]));
  const axes = [forward, cross([0, 1, 0], forward)];
  const goal = axes.map((a) => Math.min(1 / 3, stanceMargin(soles, shapes, geometry, shapeVolume, a)));
  for (let k = 0; k <= 20; k++) {
    const m = blend(k / 20);
    if (k === 20 || axes.every((a, i) => stanceMargin(soles, shapes, geometry, m, a) >= goal[i]! - 1e-9)) return m;
  }
  return blend(1);
}

/**
 * A non-biped body's volume from its mesh: the convex hull of the vertices it owns (its own and those of
 * the bones merged into it). The fitted capsules wrap fur and overlap one another, so volume × density of
 * the shapes overestimates (a 0.8 m fox 85 kg). Per body:
 *  - the hull never exceeds the fitted shape (a hull spanning far-apart vertices — an ear tip and the jaw,
 *    a head's vertices that overlap the neck's hull — is capped there);
 *  - `fill` = Σ hull / Σ shape over the bodies that have a hull is how full this creature's mesh is; a body
 *    with too few vertices (fewer than MIN_VERTICES), a flat hull (one ring of vertices, all on a plane) or
 *    a hull thinner than MIN_HULL_FILL × fill of its shape (a low-poly ring between two neighbours, whose
 *    volume no one's hull holds) takes MIN_HULL_FILL × fill × its shape's volume instead.
 * So volume = shape × clamp(hull / shape, fill, 1).
 */
function hullVolumes(bodyBones: readonly string[], verts: ReadonlyMap<string, readonly Vec3[]>, shapeVolume: ReadonlyMap<string, number>): Map<string, number> {
  const hull = new Map<string, number>();
  for (const b of bodyBones) {
    const v = verts.get(b) ?? [];
    if (v.length < MIN_VERTICES) continue;
    const h = convexHullVolume(v);
    if (h > 0) hull.set(b, Math.min(h, shapeVolume.get(b)!));
  }
  let sumHull = 0, sumShape = 0;
  for (const [b, h] of hull) { sumHull += h; sumShape += shapeVolume.get(b)!; }
  const fill = sumShape > 0 ? sumHull / sumShape : 1;
  return new Map(bodyBones.map((b) => {
    const typical = shapeVolume.get(b)! * fill, h = hull.get(b);
    return [b, h === undefined ? typical : Math.max(h, MIN_HULL_FILL * typical)];
  }));
}

/** World corners of a box shape at rest. */
function boxCorners(g: BoneGeometry, shape: RigShape & { type: 'box' }): Vec3[] {
  const out: Vec3[] = [];
  const rot = quatMul(g.world.rotation, shape.rotation as Quat);
  const c = add(g.world.position, quatRotate(g.world.rotation, shape.position as Vec3));
  const h = shape.halfExtents;
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) out.push(add(c, quatRotate(rot, [sx * h[0], sy * h[1], sz * h[2]])));
  return out;
}

/**
 * The share of the total mass each sole needs so that the creature does not tip over on its own feet.
 * The solver's floor contact is a spring of CONTACT_HERTZ on the mass of the body that touches it (a sole),
 * so a stance resists tipping with K = Σ m_sole · ω² · (ℓ²/12 + δ²) (ℓ: the length of sole that bears
 * weight in that direction, δ: its distance from the stance's centre), and gravity topples it with
 * M · g · h (h: height of the centre of mass). A centre of mass outside the middle third of the soles
 * loads only part of them (3 × its distance to the nearer edge). Per direction (along the creature's
 * forward, and across it) each sole gets STANCE_SAFETY · M · g · h / (ω² · Σ G) / M of the mass.
 */
function stanceShare(soles: readonly string[], shapes: ReadonlyMap<string, RigShape>, geometry: ReadonlyMap<string, BoneGeometry>, mass: ReadonlyMap<string, number>, forward: Vec3): number {
  if (soles.length === 0) return 0;
  let M = 0, com: Vec3 = [0, 0, 0];
  for (const [b, m] of mass) {
    const g = geometry.get(b)!, props = computeMassProperties([shapes.get(b)! as ShapeDesc], { mass: m });
    M += m; com = add(com, scale(add(g.world.position, quatRotate(g.world.rotation, props.centroid)), m));
  }
  if (!(M > 0)) return 0;
  com = scale(com, 1 / M);
  const floor = Math.min(...soles.map((b) => lowestPoint(geometry.get(b)!, shapes.get(b)!)));
  const h = com[1] - floor;
  if (!(h > 0)) return 0;
  const across = cross([0, 1, 0], forward);
  let need = 0;
  for (const axis of [forward, across]) {
    const spans = soles.map((b) => {
      const shape = shapes.get(b)!, g = geometry.get(b)!;
      const pts = shape.type === 'box' ? boxCorners(g, shape) : [add(g.world.position, quatRotate(g.world.rotation, shape.position as Vec3))];
      const c = pts.map((p) => dot(p, axis));
      const r = shape.type === 'box' ? 0 : shape.type === 'sphere' || shape.type === 'capsule' ? shape.radius : 0;
      return [Math.min(...c) - r, Math.max(...c) + r] as const;
    });
    const lo = Math.min(...spans.map((s) => s[0])), hi = Math.max(...spans.map((s) => s[1]));
    const e = dot(com, axis);
    const mid = spans.reduce((s, [a, b]) => s + (a + b) / 2, 0) / spans.length;
    let G = 0;
    for (const [a, b] of spans) {
      const len = b - a, centre = (a + b) / 2;
      // Beyond the middle third of the whole stance only the part near the centre of mass bears weight.
      const edge = Math.min(e - lo, hi - e), stance = hi - lo;
      const bearing = edge < stance / 3 ? Math.max(0.2, Math.min(1, (3 * Math.max(edge, 0)) / stance)) : 1;
      G += ((bearing * len) ** 2) / 12 + (bearing * (centre - mid)) ** 2;
    }
    const w = 2 * Math.PI * CONTACT_HERTZ;
    need = Math.max(need, (STANCE_SAFETY * G_EARTH * h) / (w * w * Math.max(G, 1e-9)) / soles.length);
  }
  return need;
}

/** The shape made `k` times thicker across its long axis (inertia per kilogram grows about k²). */
function fatten(shape: RigShape, k: number): RigShape {
  switch (shape.type) {
    case 'capsule': return { ...shape, radius: round9(shape.radius * k), halfHeight: round9(Math.max(0, shape.halfHeight - shape.radius * (k - 1))) };
    case 'sphere': return { ...shape, radius: round9(shape.radius * k) };
    case 'box': {
      const h = shape.halfExtents, longest = h.indexOf(Math.max(...h));
      return { ...shape, halfExtents: h.map((x, i) => (i === longest ? x : round9(x * k))) as [number, number, number] };
    }
    default: return shape;
  }
}

const maxMoment = (shape: RigShape, m: number) => { const I = computeMassProperties([shape as ShapeDesc], { mass: m }).inertia; return Math.max(I[0]!, I[4]!, I[8]!); };

/**
 * Brings every jointed pair's mass ratio and largest-moment ratio within MAX_RATIO by moving both bodies
 * toward each other: in log space each pair's excess is split between the two (the light one raised, the
 * heavy one lowered by the same factor), summed per body over its pairs and applied together (Jacobi, so
 * mirror-image bodies end up with mirror-image masses whatever the order of the pairs), until every pair
 * holds. Raising only (the light body up to heavy / MAX_RATIO) would make a small body between big ones —
 * a neck bead under a big head — the heaviest of the creature and, once the total is scaled back, starve
 * everything else; meeting halfway keeps each body near its own volume. `keep` bodies (soles: their share
 * holds the stance) are never lowered. When the shapes alone differ by more than MAX_RATIO² per kilogram no
 * masses fix the inertia ratio (the caller fattens those first).
 */
function balanceMasses(pairs: readonly { parent: string; child: string }[], mass: Map<string, number>, shapes: ReadonlyMap<string, RigShape>, keep: (b: string) => boolean = () => false): void {
  const logJ = new Map([...shapes].map(([b, s]) => [b, Math.log(maxMoment(s, 1))]));
  const limit = Math.log(MAX_RATIO);
  const logM = new Map([...mass].map(([b, m]) => [b, Math.log(m)]));
  for (let pass = 0; pass < 2000; pass++) {
    const corr = new Map<string, number>(), count = new Map<string, number>();
    const push = (b: string, d: number) => { corr.set(b, (corr.get(b) ?? 0) + d); count.set(b, (count.get(b) ?? 0) + 1); };
    let worst = 0;
    for (const { parent: a, child: b } of pairs) {
      const la = logM.get(a)!, lb = logM.get(b)!;
      // Mass, then inertia (log I = log m + log j): the excess beyond the limit, split.
      for (const d of [la - lb, la + logJ.get(a)! - lb - logJ.get(b)!]) {
        const excess = Math.abs(d) - limit;
        if (excess <= 0) continue;
        worst = Math.max(worst, excess);
        const [heavy, light] = d > 0 ? [a, b] : [b, a];
        const step = 0.5 * excess + 1e-6;
        if (keep(heavy)) push(light, 2 * step);
        else { push(heavy, -step); push(light, step); }
      }
    }
    if (worst <= 1e-9) break;
    // The mean of a body's corrections (a body between several pairs does not move by their sum).
    for (const [b, d] of corr) logM.set(b, logM.get(b)! + d / count.get(b)!);
  }
  for (const [b, l] of logM) mass.set(b, Math.exp(l));
}

// ---------------------------------------------------------------------------------------------- joints

/**
 * Default limits (rad, signed) when anatomy says nothing, and why:
 *  - ball, trunk (the child continues its branching parent's main line): swing ±0.5, twist ±0.4;
 *  - ball, limb root: swing ±1.0, twist ±0.6;
 *  - hinge to a short end bone (wrist, ankle; shorter than 0.7× its parent): ±0.7 about the rest pose;
 *  - hinge with a known flex sign (bent at rest or animated about one axis): from straight (−restBend,
 *    with 0.05 rad of hyperextension) to 2.3 rad of total bend;
 *  - hinge found only by its name: ±1.5 (the flex direction is unknown; narrow it by hand).
 */
export function jointDefaults(choice: JointChoice, trunk: boolean, endBone: boolean): { twist?: [number, number]; swing?: [number, number]; limit?: [number, number] } {
  if (choice.type === 'ball') return trunk ? { twist: [-0.4, 0.4], swing: [0.5, 0.5] } : { twist: [-0.6, 0.6], swing: [1.0, 1.0] };
  if (endBone) return { limit: [-0.7, 0.7] };
  if (choice.flexKnown) return { limit: [-(choice.restBend + 0.05), Math.max(0.5, 2.3 - choice.restBend)] };
  return { limit: [-1.5, 1.5] };
}

/** A motor holding the rest pose. PD gains (when `mode` is 'pd'): the spring reaches τmax at
 *  `saturationAngle` rad of error (default 0.5), damping = stiffness · `dampingTime` s (default 0.1). */
export function motorFor(mode: 'position' | 'pd', maxTorque: number, saturationAngle = 0.5, dampingTime = 0.1): RigMotor {
  const stiffness = maxTorque / saturationAngle;
  return {
    mode, target: { source: 'rest' }, maxTorque, errorReduction: 0.5,
    stiffness: mode === 'pd' ? round9(stiffness) : 0, damping: mode === 'pd' ? round9(stiffness * dampingTime) : 0,
    frictionTorque: 0,
  };
}

const BALL: Partial<Record<Role, { twist: number; swing: number }>> = {
  thigh: { twist: 0.5, swing: 1.2 }, upperArm: { twist: 1.0, swing: 1.4 }, clavicle: { twist: 0.2, swing: 0.35 },
  spine: { twist: 0.3, swing: 0.35 }, chest: { twist: 0.3, swing: 0.35 }, pelvis: { twist: 0.3, swing: 0.35 },
  neck: { twist: 0.6, swing: 0.6 }, head: { twist: 0.6, swing: 0.5 }, hand: { twist: 0.4, swing: 0.8 },
  foot: { twist: 0.25, swing: 0.6 }, tail: { twist: 0.3, swing: 0.5 },
};

/** Knees, elbows and the named ball joints; null when the child's role is unknown. */
function anatomicalJoint(parent: BoneGeometry, child: BoneGeometry, pf: Fit, cf: Fit, pa: BoneAnatomy, ca: BoneAnatomy, forward: Vec3, motor: RigMotor, choice: JointChoice): RigJoint | null {
  const role = ca.role;
  const hingeLike = (role === 'shin' && pa.role === 'thigh') || (role === 'forearm' && pa.role === 'upperArm');
  if (hingeLike) {
    let axis: Vec3, bend: number;
    if (choice.type === 'hinge' && choice.flexKnown && choice.axis) {
      // Evidence (bent at rest, or animated about one axis) knows which way this limb flexes.
      axis = choice.axis;
      bend = choice.restBend;
    } else {
      // Flexion moves the child's far end toward the back (knee) or the front (elbow): axis = d × motion.
      const motion = role === 'shin' ? scale(forward, -1) : forward;
      axis = cross(cf.d, motion);
      if (length(axis) < 0.2) axis = cross(cf.d, [0, 1, 0]);
      if (length(axis) < 1e-6) return null;
      axis = normalize(axis);
      // Rest bend about that axis, from the parent's direction to the child's (positive = already flexed).
      const pd = perpendicularPart(pf.d, axis), cd = perpendicularPart(cf.d, axis);
      bend = pd && cd ? Math.atan2(dot(cross(pd, cd), axis), dot(pd, cd)) : 0;
    }
    const maxFlex = role === 'shin' ? 2.27 : 2.53; // 130° / 145°
    const F = frameFromXY(axis, cf.d);
    return { type: 'hinge', ...jointBase(parent, child, F), limit: [round9(-(bend + 0.09)), round9(Math.max(0.5, maxFlex - bend))], motor };
  }
  const ball = BALL[role];
  if (!ball) return null;
  const childZ = quatRotate(child.world.rotation, [0, 0, 1]), childX = quatRotate(child.world.rotation, [1, 0, 0]);
  const F = frameFromXY(cf.d, childZ, childX);
  return { type: 'ball', ...jointBase(parent, child, F), twistLimit: [round9(-ball.twist), round9(ball.twist)], swingLimit: [round9(ball.swing), round9(ball.swing)], motor };
}

function jointBase(parent: BoneGeometry, child: BoneGeometry, F: Quat) {
  const anchor = child.world.position;
  const local = (g: BoneGeometry) => ({
    position: round3v(quatRotate(quatConj(g.world.rotation), sub(anchor, g.world.position))),
    rotation: round4q(quatMul(quatConj(g.world.rotation), F)),
  });
  return { name: child.name, bodyA: parent.name, bodyB: child.name, frameA: local(parent), frameB: local(child), collideConnected: false };
}

function makeJoint(parent: BoneGeometry, child: BoneGeometry, childDir: Vec3, choice: JointChoice, endBone: boolean, motor: RigMotor): RigJoint {
  const childZ = quatRotate(child.world.rotation, [0, 0, 1]), childX = quatRotate(child.world.rotation, [1, 0, 0]);
  const F: Quat = choice.type === 'hinge' ? frameFromXY(choice.axis!, childDir, childZ) : frameFromXY(childDir, childZ, childX);
  const base = jointBase(parent, child, F);
  const trunk = parent.mainChild === child.name && parent.children.length >= 2;
  const lim = jointDefaults(choice, trunk, endBone);
  const r = (v: [number, number]): [number, number] => [round9(v[0]), round9(v[1])];
  if (choice.type === 'ball') return { type: 'ball', ...base, twistLimit: r(lim.twist!), swingLimit: r(lim.swing!), motor };
  return { type: 'hinge', ...base, limit: r(lim.limit!), motor };
}
