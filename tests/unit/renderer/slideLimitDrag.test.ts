/**
 * What dragging a slide range's end edits (renderer/src/authoring/slideLimitDrag.ts): the field per joint
 * type (prismatic limit, cylindrical slideLimit, planar slideLimitY/Z, a screw's angle through its pitch),
 * 0.1 mm rounding, and an end that stops at the other one with the inspector's refusal.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { setJointLimits, setJointPitch, setJointType } from '../../../shared/authoring';
import { fieldMessage } from '../../../shared/editor';
import type { RigDocument, RigJoint } from '../../../shared/rig';
import { slideEndEdit, slideRanges } from '../../../renderer/src/authoring/slideLimitDrag';
import { assetsDir } from '../editor/testEditor';

// The Armed Mine without its IK controller (which drives ball and hinge joints only), so its elbow can take any type.
const mine = { ...(JSON.parse(readFileSync(new URL('armed-mine.rig.json', assetsDir), 'utf8')) as RigDocument), controllers: [] };
const ok = (r: ReturnType<typeof setJointLimits>): RigDocument => { if (!r.ok) throw new Error(r.message); return r.rig; };
/** The Armed Mine's elbow as `type`, with `limits` set through the editor's own edits. */
function elbowAs(type: RigJoint['type'], limits: Parameters<typeof setJointLimits>[2], pitch?: number): { rig: RigDocument; joint: RigJoint } {
  let rig = ok(setJointType(mine, 'elbow', type));
  if (pitch !== undefined) rig = ok(setJointPitch(rig, 'elbow', pitch));
  rig = ok(setJointLimits(rig, 'elbow', limits));
  return { rig, joint: rig.joints.find((j) => j.name === 'elbow')! };
}

describe('slide ranges drawn per joint type', () => {
  it('prismatic and cylindrical along X, planar Y and Z, screw travel = pitch × angle (either sign)', () => {
    expect(slideRanges(elbowAs('prismatic', { limit: [-0.05, 0.12] }).joint)).toEqual([{ kind: 'slide', axis: 0, min: -0.05, max: 0.12 }]);
    expect(slideRanges(elbowAs('prismatic', { limit: null }).joint)).toEqual([]);
    expect(slideRanges(elbowAs('cylindrical', { slideLimit: [-0.1, 0.2] }).joint)).toEqual([{ kind: 'slide', axis: 0, min: -0.1, max: 0.2 }]);
    expect(slideRanges(elbowAs('planar', { slideLimitY: [-0.1, 0.2], slideLimitZ: [0, 0.3] }).joint)).toEqual([
      { kind: 'slideY', axis: 1, min: -0.1, max: 0.2 }, { kind: 'slideZ', axis: 2, min: 0, max: 0.3 },
    ]);
    const screw = slideRanges(elbowAs('screw', { limit: [-1, 1.5] }, 0.02).joint)[0]!;
    expect(screw.min).toBeCloseTo(-0.02, 12);
    expect(screw.max).toBeCloseTo(0.03, 12);
    const back = slideRanges(elbowAs('screw', { limit: [-1, 1.5] }, -0.02).joint)[0]!;
    expect(back.min).toBeCloseTo(-0.03, 12);
    expect(back.max).toBeCloseTo(0.02, 12);
    expect(slideRanges(mine.joints.find((j) => j.name === 'elbow')!)).toEqual([]); // a hinge
  });
});

describe('dragging a slide end', () => {
  it('prismatic max to 0.153456 m: limit [−0.05, 0.1535] (0.1 mm), the undo label the inspector uses', () => {
    const { rig, joint } = elbowAs('prismatic', { limit: [-0.05, 0.12] });
    const e = slideEndEdit(joint, 'slide', 1, 0.153456)!;
    expect(e.patch).toEqual({ limit: [-0.05, 0.1535] });
    expect(e.value).toBe(0.1535);
    expect(e.refused).toBeNull();
    expect(e.label).toBe('Slide limit');
    expect(e.field).toBe('Slide max');
    expect(ok(setJointLimits(rig, 'elbow', e.patch)).joints.find((j) => j.name === 'elbow')).toMatchObject({ limit: [-0.05, 0.1535] });
  });

  it('cylindrical min dragged past the max stops at it and returns the refused edit with the inspector’s words', () => {
    const { rig, joint } = elbowAs('cylindrical', { slideLimit: [-0.05, 0.12] });
    const e = slideEndEdit(joint, 'slide', 0, 0.2)!;
    expect(e.patch).toEqual({ slideLimit: [0.12, 0.12] });
    expect(e.value).toBe(0.12);
    expect(e.refused).toEqual({ slideLimit: [0.2, 0.12] });
    const r = setJointLimits(rig, 'elbow', e.refused!);
    expect(r.ok).toBe(false);
    expect(`${e.field}: ${fieldMessage(r.ok ? '' : r.message, e.unit)}`).toBe('Slide min: min must be ≤ max, got [0.2, 0.12] m');
    expect(setJointLimits(rig, 'elbow', e.patch).ok).toBe(true);
    // Up to the other end is no crossing.
    expect(slideEndEdit(joint, 'slide', 0, 0.12)!.refused).toBeNull();
  });

  it('planar Y and Z ends edit their own field; a kind the joint does not draw gives null', () => {
    const { joint } = elbowAs('planar', { slideLimitY: [-0.1, 0.2], slideLimitZ: [-0.3, 0.3] });
    expect(slideEndEdit(joint, 'slideY', 0, -0.25)).toMatchObject({ patch: { slideLimitY: [-0.25, 0.2] }, field: 'Slide Y min', label: 'Slide Y limit' });
    expect(slideEndEdit(joint, 'slideZ', 1, 0.1)).toMatchObject({ patch: { slideLimitZ: [-0.3, 0.1] }, field: 'Slide Z max' });
    expect(slideEndEdit(joint, 'slideZ', 1, -0.4)).toMatchObject({ patch: { slideLimitZ: [-0.3, -0.3] }, refused: { slideLimitZ: [-0.3, -0.4] } });
    expect(slideEndEdit(joint, 'slide', 1, 0.1)).toBeNull();
    expect(slideEndEdit(elbowAs('cylindrical', { slideLimit: null }).joint, 'slide', 1, 0.1)).toBeNull();
  });

  it('screw travel sets the angle end that makes it: angle = travel / pitch, the ends swap with a negative pitch', () => {
    const pos = elbowAs('screw', { limit: [-1, 1.5] }, 0.02).joint;
    const up = slideEndEdit(pos, 'slide', 1, 0.04)!; // 0.04 m / 0.02 m/rad = 2 rad
    expect(up.patch).toEqual({ limit: [-1, 2] });
    expect(up.value).toBeCloseTo(0.04, 12);
    expect(up).toMatchObject({ field: 'Angle max', label: 'Angle limit' });
    const neg = elbowAs('screw', { limit: [-1, 1.5] }, -0.02).joint; // drawn [−0.03, 0.02]
    const lo = slideEndEdit(neg, 'slide', 0, -0.04)!; // the drawn min is pitch × the angle max
    expect(lo.patch).toEqual({ limit: [-1, 2] });
    expect(lo.value).toBeCloseTo(-0.04, 12);
    expect(lo.field).toBe('Angle max');
    // Past the other end: stops at it, refused said in degrees as the Angle field says it.
    const cross = slideEndEdit(neg, 'slide', 0, 0.03)!; // asks angle −1.5 < min −1
    expect(cross.patch).toEqual({ limit: [-1, -1] });
    expect(cross.refused).toEqual({ limit: [-1, -1.5] });
    const { rig } = elbowAs('screw', { limit: [-1, 1.5] }, -0.02);
    const r = setJointLimits(rig, 'elbow', cross.refused!);
    expect(`${cross.field}: ${fieldMessage(r.ok ? '' : r.message, cross.unit)}`).toBe('Angle max: min must be ≤ max, got [-57.3°, -85.9°]');
    // The angle stays inside (−π, π], as the editor wants: a travel past pitch·π stops at 3.1415 rad.
    expect(slideEndEdit(pos, 'slide', 1, 1)!.patch).toEqual({ limit: [-1, 3.1415] });
  });
});
