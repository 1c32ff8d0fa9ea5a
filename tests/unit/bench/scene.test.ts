import { describe, expect, it } from 'vitest';
import { frameRotation } from '../../../bench/engine';
import { parseRagdollFile } from '../../../bench/ragdollFile';
import { buildBoxPile, buildRagdollScene, copyOffset } from '../../../bench/scene';
import { quatRotate } from '../../../shared/math/quat';
import ragdollJson from '../../../bench/scenes/ragdoll11.json';

const file = parseRagdollFile(ragdollJson, 'ragdoll11.json');
const clone = () => JSON.parse(JSON.stringify(ragdollJson)) as typeof ragdollJson;

describe('ragdoll file checks', () => {
  it('accepts the shipped file: 11 bodies of 70 kg in total, 10 joints', () => {
    expect(file.bodies).toHaveLength(11);
    expect(file.joints).toHaveLength(10);
    expect(file.bodies.reduce((m, b) => m + b.mass, 0)).toBeCloseTo(70, 9);
  });

  it('names the file, the field and the reason for a bad value', () => {
    const negativeMass = clone();
    negativeMass.bodies[0]!.mass = -1;
    expect(() => parseRagdollFile(negativeMass, 'x.json')).toThrow(/x\.json[\s\S]*bodies\.0\.mass/);

    const unknownParent = clone();
    unknownParent.joints[0]!.parent = 'tail';
    expect(() => parseRagdollFile(unknownParent, 'x.json')).toThrow(/x\.json: joints\.0 \(waist\)\.parent: "tail" is not a body name/);

    const inverted = clone();
    inverted.joints[0]!.twistLimit = [0.5, -0.5];
    expect(() => parseRagdollFile(inverted, 'x.json')).toThrow(/joints\.0 \(waist\)\.twistLimit/);

    const skewed = clone();
    skewed.joints[1]!.planeAxis = [0, 0.6, 0.8];
    expect(() => parseRagdollFile(skewed, 'x.json')).toThrow(/joints\.1 \(neck\)\.planeAxis: must be perpendicular/);
  });
});

describe('scene builders', () => {
  it('copies the ragdoll on the file grid, 5 m apart, with anchors consistent on both bodies', () => {
    const scene = buildRagdollScene(file, 5, true);
    expect(scene.bodies).toHaveLength(55);
    expect(scene.joints).toHaveLength(50);
    // cols = ceil(sqrt(5)) = 3: copy 4 sits at column 1, row 1.
    expect(copyOffset(4, 5, 5)).toEqual([5, 0, 5]);
    expect(scene.bodies[4 * 11]!.position).toEqual([5, 1.04, 5]);
    for (const j of scene.joints) {
      const a = scene.bodies[j.bodyA]!.position, b = scene.bodies[j.bodyB]!.position;
      for (let k = 0; k < 3; k++) {
        expect(a[k]! + j.localAnchorA[k]!).toBeCloseTo(j.anchor[k]!, 12);
        expect(b[k]! + j.localAnchorB[k]!).toBeCloseTo(j.anchor[k]!, 12);
      }
      expect(scene.bodies[j.bodyA]!.copy).toBe(j.copy);
      expect(scene.bodies[j.bodyB]!.copy).toBe(j.copy);
    }
    expect(scene.bodies[scene.headBody!]!.name).toBe('head');
    expect(buildRagdollScene(file, 1, false).joints.every((j) => j.motor === null)).toBe(true);
    expect(() => buildRagdollScene(file, 0, true)).toThrow(/copy count/);
  });

  it('builds 500 boxes that start apart and above the ground', () => {
    const pile = buildBoxPile(file);
    expect(pile.bodies).toHaveLength(500);
    const size = 0.5;
    for (let i = 0; i < pile.bodies.length; i++) {
      const p = pile.bodies[i]!.position;
      expect(p[1] - size / 2).toBeGreaterThan(0);
      for (let j = i + 1; j < pile.bodies.length; j++) {
        const q = pile.bodies[j]!.position;
        // Axis-aligned cubes overlap only when they overlap on all three axes.
        const overlap = [0, 1, 2].every((k) => Math.abs(p[k]! - q[k]!) < size);
        if (overlap) throw new Error(`boxes ${i} and ${j} overlap at the start`);
      }
    }
  });

  it('frame rotations map local X and Y onto the joint axes', () => {
    for (const j of file.joints) {
      const [x, y] = j.type === 'ball' ? [j.twistAxis, j.planeAxis] : [j.axis, j.normalAxis];
      const q = frameRotation(x, y);
      const rx = quatRotate(q, [1, 0, 0]), ry = quatRotate(q, [0, 1, 0]);
      for (let k = 0; k < 3; k++) {
        expect(rx[k]!).toBeCloseTo(x[k]!, 12);
        expect(ry[k]!).toBeCloseTo(y[k]!, 12);
      }
    }
  });
});
