/**
 * The Generate dialog's preview on the skeleton (renderer/src/viewport/skeletonOverlay.ts): with a plan,
 * every bone is coloured at once — a body green, merged violet, excluded grey — and the hovered bone is in
 * the hover colour with its joint sphere enlarged; without a plan the selection colours are back.
 */
import { describe, expect, it } from 'vitest';
import { Color, Object3D } from 'three';
import { SkeletonOverlay } from '../../../renderer/src/viewport/skeletonOverlay';
import { BONE_COLOR, BONE_EXCLUDED_COLOR, BONE_HOVER_COLOR, BONE_PLAN_BODY_COLOR, BONE_PLAN_MERGED_COLOR, BONE_SELECTED_COLOR } from '../../../renderer/src/viewport/theme';
import type { LoadedCreature } from '../../../renderer/src/creature/types';

/** A chain hips → spine → head → head_end, 0.2 m apart along +Y, plus hand (excluded) under spine. */
function creature(): LoadedCreature {
  const names = ['hips', 'spine', 'head', 'head_end', 'hand'];
  const parents = [-1, 0, 1, 2, 1];
  const objects = names.map(() => new Object3D());
  names.forEach((_, i) => {
    objects[i]!.position.set(i === 4 ? 0.2 : 0, i === 0 ? 1 : 0.2, 0);
    if (parents[i]! >= 0) objects[parents[i]!]!.add(objects[i]!);
  });
  objects[0]!.updateMatrixWorld(true);
  return { display: { boneObjects: objects }, skeleton: { bones: names.map((name, i) => ({ name, parent: parents[i]! })) } } as unknown as LoadedCreature;
}

const hex = (c: Color) => `#${c.getHexString()}`;
/** Colour of a bone's joint sphere (its part with no child), and its scale. */
const joint = (o: SkeletonOverlay, bone: number) => o.parts.find((p) => p.bone === bone && p.child < 0)!;

describe('skeleton overlay: the Generate plan preview', () => {
  it('colours every bone by the plan at once, the hovered one in the hover colour and 1.8× larger', () => {
    const o = new SkeletonOverlay(creature(), 1);
    const plan = { bodies: ['hips', 'spine', 'head'], merged: ['head_end'], excluded: ['hand'] };
    o.update({ selected: 'hips', secondary: null, hovered: null }, new Set(['hand']), plan);
    expect([0, 1, 2].map((b) => hex(joint(o, b).material.color))).toEqual([BONE_PLAN_BODY_COLOR, BONE_PLAN_BODY_COLOR, BONE_PLAN_BODY_COLOR]);
    expect(hex(joint(o, 3).material.color)).toBe(BONE_PLAN_MERGED_COLOR);
    expect(hex(joint(o, 4).material.color)).toBe(BONE_EXCLUDED_COLOR);
    // The sticks too: spine's stick to head is green, not the selection orange of a selected bone.
    for (const p of o.parts.filter((x) => x.bone === 1)) expect(hex(p.material.color)).toBe(BONE_PLAN_BODY_COLOR);
    expect(o.planBones()).toEqual({ body: ['hips', 'spine', 'head'], merged: ['head_end'], excluded: ['hand'] });
    expect(o.highlightedBones()).toEqual([]);
    const r = joint(o, 0).mesh.scale.x;

    o.update({ selected: null, secondary: null, hovered: 'spine' }, new Set(), plan);
    expect(hex(joint(o, 1).material.color)).toBe(BONE_HOVER_COLOR);
    expect(joint(o, 1).mesh.scale.x).toBeCloseTo(1.8 * r, 12);
    expect(joint(o, 2).mesh.scale.x).toBeCloseTo(r, 12);
    expect(hex(joint(o, 2).material.color)).toBe(BONE_PLAN_BODY_COLOR);
  });

  it('without a plan: the selection and normal colours, normal size, no plan bones', () => {
    const o = new SkeletonOverlay(creature(), 1);
    o.update({ selected: null, secondary: null, hovered: 'spine' }, new Set(), { bodies: ['hips'], merged: [], excluded: [] });
    const r = joint(o, 0).mesh.scale.x;
    o.update({ selected: 'hips', secondary: null, hovered: 'spine' }, new Set(), null);
    expect(hex(joint(o, 0).material.color)).toBe(BONE_SELECTED_COLOR);
    expect(hex(joint(o, 1).material.color)).toBe(BONE_HOVER_COLOR);
    expect(joint(o, 1).mesh.scale.x).toBeCloseTo(r, 12);
    expect(hex(joint(o, 2).material.color)).toBe(BONE_COLOR);
    expect(o.planBones()).toBeNull();
    expect(o.highlightedBones()).toEqual(['hips']);
  });
});
