/**
 * Which bones get bodies (docs/creatures.md "What Generate does"). Visited parents first; a bone gets a
 * body when it is included and deforms something a body can follow:
 *   - it owns skinned vertices (its weight is the largest of theirs) or a rigid mesh hangs under it;
 *   - it is not machinery: IK / pole / control / helper bones ('helper'), twist and roll bones ('twist'),
 *     end bones (`*_End`, `*Nub`, `HeadTop_End`: 'end'), or fingers and toes ('digit') — each of these merges
 *     into its nearest body ancestor, vertices included, unless `keepHelpers` / `keepDigits`;
 *   - its size (bone length or the extent of its vertices along it) reaches `minSize`.
 * Bodies left without a body ancestor under one skeleton root (a Root bone at the floor that owns no
 * vertices, with Hips and Belly both under it) are joined to one of them by the generator, so one
 * creature stays one ragdoll.
 */
import { dot, sub, type Vec3 } from '../math/vec3';
import { boneAnatomy, type BoneAnatomy } from './anatomy';
import type { BoneGeometry } from './boneGeometry';

export type BonePlanReason =
  | 'deforming' | 'rigid-mesh'
  | 'excluded' | 'helper' | 'twist' | 'end' | 'digit' | 'no-geometry' | 'too-small';

export interface BonePlan {
  bone: string;
  body: boolean;
  /** The body its vertices and children join (bones without a body), null above every body. */
  mergedInto: string | null;
  reason: BonePlanReason;
  /** One line for the dialog: why. */
  note: string;
  /** Vertices it owns (skinned and rigid). */
  vertices: number;
  anatomy: BoneAnatomy;
}

export interface PlanInput {
  /** Parents first. */
  bones: readonly { name: string; parent: string | null }[];
  geometry: ReadonlyMap<string, BoneGeometry>;
  owned: ReadonlyMap<string, readonly Vec3[]>;
  rigidBones: ReadonlySet<string>;
  included: (bone: string) => boolean;
  minSize: number;
  keepHelpers: boolean;
  keepDigits: boolean;
  /** Bones found to be toes by their geometry (generate.ts): part of the foot above them. */
  toes?: ReadonlySet<string>;
}

/** Vertices a helper bone must own to count as deforming when nothing above it has a body. */
const MIN_DEFORMING_VERTICES = 6;

const NOTE: Record<BonePlanReason, string> = {
  deforming: 'deforms skinned vertices',
  'rigid-mesh': 'carries a rigid mesh',
  excluded: 'excluded by you',
  helper: 'IK, pole, control or helper bone (deforms nothing a body follows)',
  twist: 'twist / roll bone: a slice of its parent limb',
  end: 'end bone (a tip marker)',
  digit: 'finger or toe: part of the hand or foot',
  'no-geometry': 'owns no vertices',
  'too-small': 'smaller than the minimum body size',
};

export function planBones(input: PlanInput): BonePlan[] {
  const { geometry, owned } = input;
  const plans = new Map<string, BonePlan>();
  const out: BonePlan[] = [];
  // A skeleton without any skin data (bones only): every bone counts as geometry, sized by its length.
  const bonesOnly = owned.size === 0 && input.rigidBones.size === 0;
  const hasBodyAbove = (parent: string | null): boolean => {
    for (let p = parent; p !== null; p = geometry.get(p)!.parent) if (plans.get(p)?.body) return true;
    return false;
  };
  for (const b of input.bones) {
    const anatomy = boneAnatomy(b.name);
    const verts = owned.get(b.name) ?? [];
    const g = geometry.get(b.name)!;
    let reason: BonePlanReason;
    // A helper that deforms vertices with no body above it to merge into (an IK foot that is its own root
    // and carries the pastern: Quaternius' horses) is a segment like any other: its vertices would
    // otherwise belong to no body at all.
    const orphanDeformer = anatomy.helper !== null && anatomy.helper !== 'end' && verts.length >= MIN_DEFORMING_VERTICES && !hasBodyAbove(b.parent);
    if (!input.included(b.name)) reason = 'excluded';
    else if (anatomy.helper !== null && !input.keepHelpers && !orphanDeformer) {
      reason = anatomy.helper === 'twist' ? 'twist' : anatomy.helper === 'end' ? 'end' : anatomy.helper === 'root' ? 'no-geometry' : 'helper';
    } else if (((anatomy.role === 'finger' || anatomy.role === 'toe') && !input.keepDigits) || input.toes?.has(b.name)) reason = 'digit';
    else if (verts.length === 0 && !bonesOnly) reason = 'no-geometry';
    else if (sizeOf(g, verts, geometry) < input.minSize) reason = 'too-small';
    else reason = input.rigidBones.has(b.name) ? 'rigid-mesh' : 'deforming';
    const body = reason === 'deforming' || reason === 'rigid-mesh';
    const plan: BonePlan = { bone: b.name, body, mergedInto: null, reason, note: NOTE[reason], vertices: verts.length, anatomy };
    plans.set(b.name, plan);
    out.push(plan);
  }

  const bodyAncestor = (bone: string): string | null => {
    let p = geometry.get(bone)!.parent;
    while (p !== null && !plans.get(p)!.body) p = geometry.get(p)!.parent;
    return p;
  };
  for (const p of out) if (!p.body) p.mergedInto = bodyAncestor(p.bone);
  return out;
}

/** A bone's size: its length, or the extent of its vertices along it; an end bone without vertices half
 *  its parent's length (the generator's fallback). */
function sizeOf(g: BoneGeometry, verts: readonly Vec3[], geometry: ReadonlyMap<string, BoneGeometry>): number {
  if (g.mainChild === null && verts.length === 0) {
    const parent = g.parent === null ? undefined : geometry.get(g.parent);
    return parent ? 0.5 * parent.length : 0.1;
  }
  return Math.max(g.length, axialSpan(g, verts));
}

/** Extent (m) of the vertices' projections on the bone axis, P2..P98. */
function axialSpan(g: BoneGeometry, verts: readonly Vec3[]): number {
  if (verts.length < 2) return 0;
  const s = verts.map((v) => dot(sub(v, g.world.position), g.direction)).sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))]!;
  return at(0.98) - at(0.02);
}
