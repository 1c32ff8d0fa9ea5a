/** The authoring UI's pure parts: limit shapes (what the viewport draws), the collision matrix rule, and
 *  number parsing of the validated fields. */
import { describe, expect, it } from 'vitest';
import { coneGeometry, rimAngles, sectorGeometry, swingHalfAngle } from '../../../renderer/src/authoring/limitGeometry';
import { matrixCell, setMatrixCell } from '../../../renderer/src/authoring/CollisionMatrix';
import { parseNumber } from '../../../renderer/src/authoring/parseNumber';
import { newRigDocument } from '../../../shared/authoring';
import type { RigBody } from '../../../shared/rig';

describe('limit geometry', () => {
  it('a hinge arc spans exactly [min, max] about X, measured from +Y toward +Z', () => {
    const g = sectorGeometry(-0.4, 1.2, 0.2);
    const a = rimAngles(g.rim);
    expect(a.min).toBeCloseTo(-0.4, 6);
    expect(a.max).toBeCloseTo(1.2, 6);
    // θ = π/2 is +Z: the rim point nearest it has y ≈ 0, z ≈ r.
    const g2 = sectorGeometry(Math.PI / 2, Math.PI / 2 + 1e-3, 0.2);
    expect(g2.rim[1]).toBeCloseTo(0, 6);
    expect(g2.rim[2]).toBeCloseTo(0.2, 6);
    expect(g.triangles.length).toBe(9 * (g.rim.length / 3 - 1));
  });

  it('an arc across ±π unwraps (170° to 190° is 20°, not 340°)', () => {
    const g = sectorGeometry((170 * Math.PI) / 180, (190 * Math.PI) / 180, 1);
    const a = rimAngles(g.rim);
    expect(a.max - a.min).toBeCloseTo((20 * Math.PI) / 180, 6);
  });

  it('the swing cone is the ellipse with half-angle swing-about-Z toward ±Y and swing-about-Y toward ±Z', () => {
    expect(swingHalfAngle(0, 0.3, 0.9)).toBeCloseTo(0.9, 9);
    expect(swingHalfAngle(Math.PI / 2, 0.3, 0.9)).toBeCloseTo(0.3, 9);
    const c = coneGeometry(0.5, 0.5, 1, 16);
    for (let i = 0; i < c.rim.length / 3; i++) expect(Math.acos(c.rim[3 * i]!)).toBeCloseTo(0.5, 6);
  });
});

describe('collision matrix', () => {
  const body = (name: string, group: number, mask: number): RigBody => ({
    name, bone: name, type: 'dynamic', offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    shapes: [{ type: 'sphere', position: [0, 0, 0], rotation: [0, 0, 0, 1], radius: 0.1, hollow: false }],
    mass: null, density: 1000, material: { friction: 0.8, restitution: 0 }, linearDamping: 0, angularDamping: 0,
    collisionGroup: group, collisionMask: mask,
  });
  it('a cell is on only when both groups accept each other, and toggling sets both masks', () => {
    const bones = [{ name: 'a', parent: null, rest: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }, { name: 'b', parent: 'a', rest: { translation: [0, 1, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }] as const;
    const rig = { ...newRigDocument('t', bones as never), bodies: [body('a', 0b01, 0b10), body('b', 0b10, 0b00)] };
    expect(matrixCell(rig.bodies, 0, 1)).toBe('mixed');
    expect(matrixCell(rig.bodies, 0, 0)).toBe('off');
    expect(matrixCell(rig.bodies, 2, 3)).toBe('empty');
    const r = setMatrixCell(rig, 0, 1, true);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.rig.bodies.map((b) => b.collisionMask)).toEqual([0b10, 0b01]);
    expect(matrixCell(r.rig.bodies, 0, 1)).toBe('on');
  });
});

describe('number fields', () => {
  it('accept numbers (comma decimals, exponents) and refuse text', () => {
    expect(parseNumber(' 1.5 ')).toBe(1.5);
    expect(parseNumber('2,5')).toBe(2.5);
    expect(parseNumber('-3e-2')).toBe(-0.03);
    expect(parseNumber('abc')).toBeNull();
    expect(parseNumber('1.2.3')).toBeNull();
    expect(parseNumber('')).toBeNull();
    expect(parseNumber('Infinity')).toBeNull();
  });
});
