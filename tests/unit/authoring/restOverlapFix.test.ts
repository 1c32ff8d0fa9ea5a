/**
 * The rest-overlap Fix (shared/authoring fixRestOverlaps, the editor's *Fix overlaps*): the shipped humanoid with
 * every body colliding with every other and a 0.3 m sphere on its head overlaps both upper arms at rest;
 * after the fix those pairs no longer collide and no rest overlap is left, while every other pair collides
 * exactly as before. A rig without overlaps comes back unchanged.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkRestOverlaps, fixRestOverlaps } from '../../../shared/authoring';
import { validateRig, type RigDocument } from '../../../shared/rig';

const shipped = (): RigDocument => {
  const v = validateRig(JSON.parse(readFileSync('assets/creatures/humanoid.rig.json', 'utf8')));
  if (!v.ok) throw new Error('humanoid.rig.json does not validate');
  return v.rig;
};

function overlapping(): RigDocument {
  const rig = shipped();
  return {
    ...rig,
    bodies: rig.bodies.map((b) => ({
      ...b,
      collisionMask: 0xffffffff,
      shapes: b.name === 'head' ? [...b.shapes, { type: 'sphere' as const, position: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number], radius: 0.3, hollow: false }] : b.shapes,
    })),
  } as RigDocument;
}

const collides = (rig: RigDocument, a: string, b: string): boolean => {
  const x = rig.bodies.find((q) => q.name === a)!, y = rig.bodies.find((q) => q.name === b)!;
  return (x.collisionGroup & y.collisionMask) !== 0 && (y.collisionGroup & x.collisionMask) !== 0;
};

describe('fixRestOverlaps', () => {
  it('separates the bodies that overlap at rest and keeps every other pair as it was', () => {
    const before = overlapping();
    expect(validateRig(before).ok).toBe(true);
    const found = checkRestOverlaps(before);
    expect(found.map((o) => [o.a, o.b].sort().join('+')).sort()).toEqual(['head+upper_arm_l', 'head+upper_arm_r']);
    for (const o of found) expect(o.depth).toBeGreaterThan(0.01);
    const after = fixRestOverlaps(before);
    expect(validateRig(after).ok).toBe(true);
    expect(checkRestOverlaps(after)).toEqual([]);
    // The cluster {head, upper_arm_l, upper_arm_r}: no pair in it collides any more (the two arms did not
    // overlap each other, but share the cluster). Every pair with a body outside it is unchanged.
    const cluster = new Set(['head', 'upper_arm_l', 'upper_arm_r']);
    const names = before.bodies.map((b) => b.name);
    let kept = 0;
    for (const a of names) for (const b of names) {
      if (a >= b) continue;
      if (cluster.has(a) && cluster.has(b)) expect(collides(after, a, b), `${a}/${b}`).toBe(false);
      else { expect(collides(after, a, b), `${a}/${b}`).toBe(collides(before, a, b)); kept++; }
    }
    expect(kept).toBe(names.length * (names.length - 1) / 2 - 3);
  });

  it('a rig without rest overlaps comes back as the same object', () => {
    const rig = shipped();
    expect(checkRestOverlaps(rig)).toEqual([]);
    expect(fixRestOverlaps(rig)).toBe(rig);
  });
});
