/**
 * FatPairs (shared/physics/collision/fatPairs.ts), the pair cache's broad phase: candidates kept across steps
 * from fat boxes. Held to brute force on random scenes walked over many steps (small moves that stay inside
 * the fat boxes, jumps that leave them, exclusions and types changed between steps), and to a fresh instance:
 * the same pairs in the same canonical order whatever its history.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BodyPairSet, FAT_MARGIN, FatPairs, HashGrid, bruteForcePairs, createWorldShape, updateWorldShape, type WorldShape,
} from '../../../../shared/physics/collision';
import type { ShapeDesc } from '../../../../shared/physics/types';
import { axisAngle } from './helpers';

const descs: ShapeDesc[] = [
  { type: 'sphere', radius: 0.3 }, { type: 'capsule', radius: 0.1, halfHeight: 0.3, axis: 'z' },
  { type: 'box', halfExtents: [0.2, 0.4, 0.3] }, { type: 'cylinder', radius: 0.2, halfHeight: 0.2 },
];

const shapeArb = fc.record({
  kind: fc.integer({ min: 0, max: 3 }), x: fc.double({ min: -2, max: 2, noNaN: true }), y: fc.double({ min: -1, max: 1, noNaN: true }),
  z: fc.double({ min: -2, max: 2, noNaN: true }), ang: fc.double({ min: 0, max: 6, noNaN: true }),
  body: fc.integer({ min: 0, max: 20 }), group: fc.integer({ min: 1, max: 3 }), mask: fc.integer({ min: 0, max: 3 }), dynamic: fc.boolean(),
});
// Per step: a move of one shape (small: inside its fat box; or a jump), an exclusion added, or a type flipped.
const stepArb = fc.record({
  shape: fc.nat(), kind: fc.integer({ min: 0, max: 9 }),
  dx: fc.double({ min: -1, max: 1, noNaN: true }), dz: fc.double({ min: -1, max: 1, noNaN: true }),
  a: fc.integer({ min: 0, max: 20 }), b: fc.integer({ min: 0, max: 20 }),
});

const sortedKeys = (pairs: Array<[number, number]>) => pairs.map(([a, b]) => a * 1000 + b).sort((x, y) => x - y);

describe('FatPairs: candidates kept across steps', () => {
  it('every step: exactly the brute-force pairs, in ascending (lower, higher) order, the same as a fresh instance', () => {
    fc.assert(fc.property(fc.array(shapeArb, { minLength: 2, maxLength: 40 }), fc.array(stepArb, { minLength: 1, maxLength: 25 }), (specs, steps) => {
      const pos = specs.map((s) => [s.x, s.y, s.z]);
      const shapes: WorldShape[] = specs.map((s, i) => {
        const w = createWorldShape(descs[s.kind]!, { body: s.body, group: s.group, mask: s.mask, dynamic: s.dynamic, aabbMargin: 0.01 });
        updateWorldShape(w, pos[i]!, 0, axisAngle([1, 2, 3], s.ang * 57.3), 0);
        return w;
      });
      const ex = new BodyPairSet();
      const fat = new FatPairs(new HashGrid());
      for (const st of steps) {
        const i = st.shape % shapes.length, s = shapes[i]!;
        if (st.kind <= 5) {
          // Small moves (below the fat margin) most of the time, a jump otherwise.
          const k = st.kind <= 3 ? 0.5 * FAT_MARGIN : 1;
          pos[i]![0] += k * st.dx; pos[i]![2] += k * st.dz;
          updateWorldShape(s, pos[i]!, 0, axisAngle([1, 2, 3], specs[i]!.ang * 57.3), 0);
        } else if (st.kind <= 7) ex.add(st.a, st.b);
        else s.dynamic = !s.dynamic;
        fat.update(shapes, shapes.length, ex);
        const got: Array<[number, number]> = [];
        for (let k = 0; k < fat.pairCount; k++) got.push([fat.pairs[2 * k]!, fat.pairs[2 * k + 1]!]);
        const keys = got.map(([a, b]) => a * 1000 + b);
        expect(keys).toEqual(keys.slice().sort((x, y) => x - y)); // canonical order
        expect(keys).toEqual(sortedKeys(bruteForcePairs(shapes, shapes.length, ex)));
        const fresh = new FatPairs(new HashGrid());
        fresh.update(shapes, shapes.length, ex);
        expect(Array.from(fresh.pairs.subarray(0, 2 * fresh.pairCount))).toEqual(Array.from(fat.pairs.subarray(0, 2 * fat.pairCount)));
      }
    }), { numRuns: 120, seed: 5 });
  });

  it('remakes its candidates only when a shape leaves its fat box, is added, or changes type', () => {
    const mk = (x: number, body: number) => {
      const s = createWorldShape({ type: 'sphere', radius: 0.5 }, { body, aabbMargin: 0.02 });
      updateWorldShape(s, [x, 0, 0], 0, [0, 0, 0, 1], 0);
      return s;
    };
    const shapes = [mk(0, 1), mk(0.9, 2), mk(3, 3)];
    const fat = new FatPairs(new HashGrid());
    expect(fat.update(shapes, 3)).toBe(1);
    expect(fat.rebuilds).toBe(1);
    // 0.9 × the margin to the right: inside the fat box, no rebuild, same pair.
    updateWorldShape(shapes[1]!, [0.9 + 0.9 * FAT_MARGIN, 0, 0], 0, [0, 0, 0, 1], 0);
    expect(fat.update(shapes, 3)).toBe(1);
    expect(fat.rebuilds).toBe(1);
    // Past it: rebuilt; shape 1 now far from 0 and touching 2.
    updateWorldShape(shapes[1]!, [2.2, 0, 0], 0, [0, 0, 0, 1], 0);
    expect(fat.update(shapes, 3)).toBe(1);
    expect(Array.from(fat.pairs.subarray(0, 2))).toEqual([1, 2]);
    expect(fat.rebuilds).toBe(2);
    shapes[2]!.dynamic = false;
    fat.update(shapes, 3);
    expect(fat.rebuilds).toBe(3);
    shapes.push(mk(-0.9, 4));
    expect(fat.update(shapes, 4)).toBe(2);
    expect(fat.rebuilds).toBe(4);
  });
});
