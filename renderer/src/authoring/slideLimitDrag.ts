/**
 * The slide ranges a joint draws in the viewport and what dragging one end of them edits — pure, so the
 * rules are unit-tested without a GPU (JointLimits.tsx draws them and owns the handles):
 *  - prismatic `limit` and cylindrical `slideLimit`: metres along frame X;
 *  - screw: its travel along frame X, pitch × its angle `limit` — a dragged travel end sets the angle end
 *    that makes it (angle = travel / pitch; with a negative pitch the drawn min is the angle max);
 *  - planar `slideLimitY` and `slideLimitZ`: metres along frame Y and Z.
 * A dragged end never passes the other one: it stops there (min = max), and the edit that would have
 * crossed is returned as `refused` so the caller can say why in the inspector's own words (setJointLimits'
 * "min must be ≤ max"). Values are rounded to 0.1 mm (metres) or 1e-4 rad, as the other handles round.
 */
import type { RigJoint } from '../../../shared/rig';

export type SlideKind = 'slide' | 'slideY' | 'slideZ';
type Range = readonly [number, number];
export type SlidePatch = { limit?: Range; slideLimit?: Range; slideLimitY?: Range; slideLimitZ?: Range };

/** A drawn slide range: [min, max] metres along frame axis `axis` (0 = X, 1 = Y, 2 = Z). */
export interface SlideRangeOf { kind: SlideKind; axis: 0 | 1 | 2; min: number; max: number }

export const SLIDE_AXIS: Record<SlideKind, 0 | 1 | 2> = { slide: 0, slideY: 1, slideZ: 2 };

/** The slide ranges `joint` draws (none for an unlimited DOF). */
export function slideRanges(joint: RigJoint): SlideRangeOf[] {
  const out: SlideRangeOf[] = [];
  const add = (kind: SlideKind, min: number, max: number) => out.push({ kind, axis: SLIDE_AXIS[kind], min, max });
  if (joint.type === 'prismatic' && joint.limit) add('slide', joint.limit[0], joint.limit[1]);
  if (joint.type === 'cylindrical' && joint.slideLimit) add('slide', joint.slideLimit[0], joint.slideLimit[1]);
  if (joint.type === 'screw' && joint.limit) {
    const a = joint.pitch * joint.limit[0], b = joint.pitch * joint.limit[1];
    add('slide', Math.min(a, b), Math.max(a, b));
  }
  if (joint.type === 'planar' && joint.slideLimitY) add('slideY', joint.slideLimitY[0], joint.slideLimitY[1]);
  if (joint.type === 'planar' && joint.slideLimitZ) add('slideZ', joint.slideLimitZ[0], joint.slideLimitZ[1]);
  return out;
}

export interface SlideEndEdit {
  /** The setJointLimits patch that puts the dragged end where it may go. */
  patch: SlidePatch;
  /** Where the dragged end is drawn after the edit (m along the axis). */
  value: number;
  /** The patch the pointer asked for when it crossed the other end (refused; `patch` stops at that end). */
  refused: SlidePatch | null;
  /** The inspector field that edits this end ("Slide min", "Slide Y max", "Angle min"), for messages. */
  field: string;
  /** The undo step's label, as the inspector's ("Slide limit", "Slide Y limit", "Angle limit"). */
  label: string;
  /** How that field shows its value: metres, or degrees for a screw's angle. */
  unit: { unit: string; scale?: number; digits?: number };
}

const mm = (v: number) => Math.round(v * 1e4) / 1e4;
/** Four decimals, kept inside (−π, π] where the editor wants angle limits (as the arc handles do). */
const rad = (v: number) => Math.min(Math.max(Math.round(v * 1e4) / 1e4, -3.1415), 3.1415);

/**
 * The edit that puts end `end` (0 = the drawn min, 1 = the drawn max) of slide range `kind` at `value`
 * metres along its axis; null when the joint draws no such range.
 */
export function slideEndEdit(joint: RigJoint, kind: SlideKind, end: 0 | 1, value: number): SlideEndEdit | null {
  const minMax = end === 0 ? 'min' : 'max';
  if (joint.type === 'screw') {
    if (kind !== 'slide' || !joint.limit) return null;
    // The drawn min is pitch × limit[0] for a positive pitch, pitch × limit[1] for a negative one.
    const k: 0 | 1 = joint.pitch > 0 ? end : end === 0 ? 1 : 0;
    const other = joint.limit[1 - k]!;
    const want = rad(value / joint.pitch);
    const crossed = k === 0 ? want > other : want < other;
    const angle = crossed ? other : want;
    const put = (a: number): Range => (k === 0 ? [a, other] : [other, a]);
    return {
      patch: { limit: put(angle) }, value: joint.pitch * angle, refused: crossed ? { limit: put(want) } : null,
      field: `Angle ${k === 0 ? 'min' : 'max'}`, label: 'Angle limit', unit: { unit: '°', scale: 180 / Math.PI, digits: 1 },
    };
  }
  const at = (): { key: keyof SlidePatch; range: Range; name: string } | null => {
    if (joint.type === 'prismatic' && kind === 'slide' && joint.limit) return { key: 'limit', range: joint.limit, name: 'Slide' };
    if (joint.type === 'cylindrical' && kind === 'slide' && joint.slideLimit) return { key: 'slideLimit', range: joint.slideLimit, name: 'Slide' };
    if (joint.type === 'planar' && kind === 'slideY' && joint.slideLimitY) return { key: 'slideLimitY', range: joint.slideLimitY, name: 'Slide Y' };
    if (joint.type === 'planar' && kind === 'slideZ' && joint.slideLimitZ) return { key: 'slideLimitZ', range: joint.slideLimitZ, name: 'Slide Z' };
    return null;
  };
  const f = at();
  if (!f) return null;
  const other = f.range[1 - end]!;
  const want = mm(value);
  const crossed = end === 0 ? want > other : want < other;
  const v = crossed ? other : want;
  const put = (x: number): Range => (end === 0 ? [x, other] : [other, x]);
  return {
    patch: { [f.key]: put(v) }, value: v, refused: crossed ? { [f.key]: put(want) } : null,
    field: `${f.name} ${minMax}`, label: `${f.name} limit`, unit: { unit: 'm' },
  };
}
