import { describe, expect, it } from 'vitest';
import { generateRagdoll, newRigDocument, withGeneratedRagdoll, type AuthoringSkeleton } from '../../../shared/authoring';
import { computeMassProperties } from '../../../shared/physics/massProperties';
import type { ShapeDesc } from '../../../shared/physics/types';
import { boneRestWorld } from '../../../shared/rig/restPose';
import { validateRig, type RigBody, type RigJoint } from '../../../shared/rig';
import { quatRotate } from '../../../shared/math';
import { creature } from './creatures';

const massOf = (b: RigBody) => b.mass ?? computeMassProperties(b.shapes as readonly ShapeDesc[], { density: b.density! }).mass;
const totalLength = (b: RigBody) => { const s = b.shapes[0]!; return s.type === 'capsule' ? 2 * (s.halfHeight + s.radius) : NaN; };
const joint = (joints: RigJoint[], name: string) => joints.find((j) => j.name === name)!;
const MAIN = ['pelvis', 'spine', 'head', 'upper_arm_l', 'upper_arm_r', 'forearm_l', 'forearm_r', 'thigh_l', 'thigh_r', 'shin_l', 'shin_r', 'foot_l', 'foot_r'];

describe('generateRagdoll on the humanoid', () => {
  it('gives one capsule body per main bone, sized from the bone and its skin', async () => {
    const h = await creature('humanoid');
    const g = generateRagdoll(h);
    expect(g.bodies.map((b) => b.name).sort()).toEqual([...MAIN].sort());
    const world = boneRestWorld(h.bones);
    const boneLength = (a: string, b: string) => Math.hypot(...world.get(a)!.position.map((x, k) => x - world.get(b)!.position[k]!));
    // Limb capsules span their bone (joint to joint) within 25 %: the skin overlaps a little at the joints.
    for (const [bone, child] of [['upper_arm_l', 'forearm_l'], ['thigh_l', 'shin_l'], ['shin_r', 'foot_r'], ['thigh_r', 'shin_r']] as const) {
      const L = boneLength(bone, child);
      expect(totalLength(g.bodies.find((b) => b.name === bone)!) / L).toBeGreaterThan(0.75);
      expect(totalLength(g.bodies.find((b) => b.name === bone)!) / L).toBeLessThan(1.25);
    }
    // Radii from the skin: the mesh's limb radii are 5 cm (upper arm), 7 cm (thigh), 5.5 cm (shin).
    const radius = (n: string) => (g.bodies.find((b) => b.name === n)!.shapes[0] as { radius: number }).radius;
    expect(radius('upper_arm_l')).toBeCloseTo(0.05, 2);
    expect(radius('thigh_r')).toBeCloseTo(0.07, 2);
    expect(radius('shin_l')).toBeCloseTo(0.055, 2);
    // End bone sized from its owned vertices: the head sphere (r 11.5 cm) → capsule about 23 cm long.
    expect(totalLength(g.bodies.find((b) => b.name === 'head')!)).toBeGreaterThan(0.18);
    expect(totalLength(g.bodies.find((b) => b.name === 'head')!)).toBeLessThan(0.26);
    // Mass from density: a 1.8 m humanoid weighs about 70 kg.
    const total = g.bodies.reduce((s, b) => s + massOf(b), 0);
    expect(total).toBeGreaterThan(62);
    expect(total).toBeLessThan(80);
    // Symmetric sides weigh the same.
    expect(massOf(g.bodies.find((b) => b.name === 'thigh_l')!)).toBeCloseTo(massOf(g.bodies.find((b) => b.name === 'thigh_r')!), 6);
  });

  it('anatomy: knees and elbows one-way hinges, balls at shoulders, hips, ankles, neck and spine', async () => {
    const g = generateRagdoll(await creature('humanoid'));
    for (const n of ['forearm_l', 'forearm_r', 'shin_l', 'shin_r']) expect(joint(g.joints, n).type, n).toBe('hinge');
    for (const n of ['upper_arm_l', 'upper_arm_r', 'thigh_l', 'thigh_r', 'head', 'spine', 'foot_l', 'foot_r']) expect(joint(g.joints, n).type, n).toBe('ball');
    expect(g.jointReasons.shin_l).toBe('animated-one-axis'); // the squat clip bends the knees about one axis
    expect(g.jointReasons.forearm_r).toBe('animated-one-axis'); // the wave clip
    // The left elbow is never animated: it takes the mirror of the right one's (next test checks the axis).
    expect(g.jointReasons.forearm_l).toBe('animated-one-axis');
    expect(g.jointReasons.thigh_l).toBe('anatomy');
    // Knee: straight at rest, flexes + from −0.09 (5° of hyperextension) to 2.27 rad (130°); elbow to 145°.
    expect((joint(g.joints, 'shin_l') as Extract<RigJoint, { type: 'hinge' }>).limit).toEqual([-0.09, 2.27]);
    expect((joint(g.joints, 'forearm_r') as Extract<RigJoint, { type: 'hinge' }>).limit).toEqual([-0.09, 2.53]);
    // Hip cone 1.2 rad, shoulder 1.4, spine 0.35 (per joint).
    const ball = (n: string) => joint(g.joints, n) as Extract<RigJoint, { type: 'ball' }>;
    expect(ball('thigh_l').swingLimit).toEqual([1.2, 1.2]);
    expect(ball('upper_arm_r').swingLimit).toEqual([1.4, 1.4]);
    expect(ball('spine').swingLimit).toEqual([0.35, 0.35]);
    // Frames at the child bone's head.
    for (const j of g.joints) expect(j.frameB.position).toEqual([0, 0, 0]);
    // τmax: a joint between the trunk and a sole holds its share of the body above it at half the lever
    // to that weight's centre of mass, times 2.5, so the ankle (lever ≈ 0.9 m to the body's centre) holds
    // at least 2.5 · 35 kg · g · 0.4 m; the elbow carries only the forearm.
    const tau = (n: string) => (joint(g.joints, n) as Extract<RigJoint, { motor: unknown }>).motor.maxTorque;
    const total = g.bodies.reduce((s, b) => s + massOf(b), 0);
    expect(tau('foot_l')).toBeGreaterThan(2.5 * (total / 2) * 9.81 * 0.4);
    expect(tau('shin_l')).toBeGreaterThan(tau('forearm_l'));
    expect(tau('forearm_l')).toBeLessThan(tau('upper_arm_l'));
  });

  it('hinge axes: knees about the world lateral axis, the two elbows mirror images', async () => {
    const h = await creature('humanoid');
    const g = generateRagdoll(h);
    const world = boneRestWorld(h.bones);
    const axis = (n: string) => { const j = joint(g.joints, n); return quatRotate(world.get(j.bodyB)!.rotation, quatRotate(j.frameB.rotation, [1, 0, 0])); };
    for (const n of ['shin_l', 'shin_r']) expect(Math.abs(axis(n)[0])).toBeCloseTo(1, 6);
    const [l, r] = [axis('forearm_l'), axis('forearm_r')];
    // An axis is a pseudo-vector: its mirror across X = 0 is (x, −y, −z).
    expect(l[0]).toBeCloseTo(r[0], 6); expect(l[1]).toBeCloseTo(-r[1], 6); expect(l[2]).toBeCloseTo(-r[2], 6);
  });

  it('validates once put in a rig, and is deterministic', async () => {
    const h = await creature('humanoid');
    const a = withGeneratedRagdoll(newRigDocument('h', h.bones), generateRagdoll(h));
    const check = validateRig(a);
    expect(check.ok ? [] : check.problems).toEqual([]);
    expect(JSON.stringify(generateRagdoll(h))).toBe(JSON.stringify(generateRagdoll(h)));
  });

  it('shape options: spheres and boxes; box feet stand their sole on the floor', async () => {
    const h = await creature('humanoid');
    const g = generateRagdoll(h, { shape: 'sphere', shapes: { foot_l: 'box' } });
    expect(g.bodies.find((b) => b.name === 'head')!.shapes[0]!.type).toBe('sphere');
    const foot = g.bodies.find((b) => b.name === 'foot_l')!.shapes[0]! as Extract<RigBody['shapes'][number], { type: 'box' }>;
    expect(foot.type).toBe('box');
    const w = boneRestWorld(h.bones).get('foot_l')!;
    // Foot frame: local Z is world up; the sole is the box's −Z face.
    const soleY = w.position[1] + quatRotate(w.rotation, [foot.position[0], foot.position[1], foot.position[2] - foot.halfExtents[2]])[1];
    expect(Math.abs(soleY)).toBeLessThan(0.01);
    expect(2 * foot.halfExtents[1]).toBeGreaterThan(0.2); // 25 cm long foot
  });
});

describe('generateRagdoll on the Armed Mine', () => {
  it('shoulder ball, elbow hinge, wrist hinge, bodies for the 4 bones', async () => {
    const g = generateRagdoll(await creature('armed-mine'));
    expect(g.bodies.map((b) => b.name)).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
    expect(g.joints.map((j) => [j.name, j.type])).toEqual([['upper_arm', 'ball'], ['forearm', 'hinge'], ['hand', 'hinge']]);
    // The shell: a 0.35 m sphere → a capsule of radius ≈ 0.35 (P75 of the surface distances).
    const shell = g.bodies[0]!.shapes[0] as { radius: number };
    expect(shell.radius).toBeGreaterThan(0.3);
    expect(shell.radius).toBeLessThan(0.36);
    // Elbow modelled bent (70°): + flexes further, and the limit reaches back to straight.
    const elbow = g.joints[1] as Extract<RigJoint, { type: 'hinge' }>;
    expect(elbow.limit![0]).toBeLessThan(-1.2);
    expect(g.jointReasons.forearm).toBe('bent-at-rest');
  });
});

describe('generateRagdoll options', () => {
  const chain = (lengths: number[]): AuthoringSkeleton => ({
    bones: lengths.map((_, i) => ({ name: `b${i}`, parent: i === 0 ? null : `b${i - 1}`, rest: { translation: [0, i === 0 ? 1 : lengths[i - 1]!, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } })),
  });

  it('skips bones shorter than minBoneLength and joins their children to the nearest ancestor body', () => {
    const g = generateRagdoll(chain([0.3, 0.01, 0.3, 0.2]), { minBoneLength: 0.04 });
    expect(g.bodies.map((b) => b.name)).toEqual(['b0', 'b2', 'b3']);
    expect(g.skipped).toEqual([{ bone: 'b1', reason: 'too-small', mergedInto: 'b0' }]);
    expect(g.joints.map((j) => [j.bodyA, j.bodyB])).toEqual([['b0', 'b2'], ['b2', 'b3']]);
  });

  it('include: excluded bones get no body', () => {
    const g = generateRagdoll(chain([0.3, 0.3, 0.3]), { include: ['b0', 'b2'] });
    expect(g.bodies.map((b) => b.name)).toEqual(['b0', 'b2']);
    expect(g.skipped[0]).toMatchObject({ bone: 'b1', reason: 'excluded', mergedInto: 'b0' });
  });

  it('refuses a bad option with its name', () => {
    expect(() => generateRagdoll(chain([0.3]), { density: -1 })).toThrow(/options\.density/);
    expect(() => generateRagdoll(chain([0.3]), { radiusPercentile: 2 })).toThrow(/radiusPercentile/);
  });

  it('density scales every mass', () => {
    const a = generateRagdoll(chain([0.3, 0.3])), b = generateRagdoll(chain([0.3, 0.3]), { density: 2 * 985 });
    expect(massOf(b.bodies[1]!)).toBeCloseTo(2 * massOf(a.bodies[1]!), 9);
  });
});

describe('generateRagdoll masses of a non-biped from its mesh (convex hulls)', () => {
  // A vertical chain of three 0.3 m bones from y = 1, each owning an "urchin" around its middle: 10 points
  // along each of 6 axis spikes of length r, and the centre. The hull is the octahedron (4/3) r³; the fitted
  // capsule (P75 radius about the axis) is far bigger, as around fur. The last bone owns `lastCount` points.
  const r = 0.1, octahedron = (4 / 3) * r ** 3;
  const urchin = (lastCount = 61, flat = false): AuthoringSkeleton => {
    const positions: number[] = [], joints: number[] = [], weights: number[] = [];
    for (let i = 0; i < 3; i++) {
      const cy = 1 + 0.3 * i + 0.15, pts: number[][] = [[0, 0, 0]];
      for (const d of [[0, 1, 0], [0, -1, 0], [1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]]) {
        if (flat && i === 2 && d[2] !== 0) continue; // the last urchin flat in z = 0
        for (let k = 1; k <= 10; k++) pts.push(d.map((c) => (c * k * r) / 10));
      }
      for (const p of i === 2 ? pts.slice(0, lastCount) : pts) {
        positions.push(p[0]!, cy + p[1]!, p[2]!);
        joints.push(i, 0, 0, 0); weights.push(1, 0, 0, 0);
      }
    }
    return {
      bones: [0, 1, 2].map((i) => ({ name: `w${i}`, parent: i === 0 ? null : `w${i - 1}`, rest: { translation: [0, i === 0 ? 1 : 0.3, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } })),
      skins: [{ positions, joints, weights, jointNames: ['w0', 'w1', 'w2'] }],
    };
  };
  const shapeVolume = (b: RigBody) => computeMassProperties(b.shapes as readonly ShapeDesc[], { density: 1 }).mass;
  const clampFill = (hull: number, shape: number, fill: number) => shape * Math.min(1, Math.max(hull / shape, fill));

  it('total = Σ shape × clamp(hull / shape, fill, 1) × density: hulls, not the fitted capsules', () => {
    const g = generateRagdoll(urchin());
    expect(g.summary.massSource).toBe('density');
    // The ratio rules then move mass between jointed bodies (they do not add any): the total is the sum.
    const shapes = g.bodies.map(shapeVolume);
    expect(shapes.every((v) => v > 1.2 * octahedron)).toBe(true); // the capsules overestimate
    const fill = (3 * octahedron) / shapes.reduce((s, v) => s + v, 0);
    const expected = 985 * shapes.reduce((s, v) => s + clampFill(octahedron, v, fill), 0);
    expect(Math.abs(g.summary.totalMass - expected)).toBeLessThan(1e-6 * expected);
    expect(g.summary.totalMass).toBeGreaterThanOrEqual(985 * 3 * octahedron * (1 - 1e-9));
    expect(g.summary.totalMass).toBeLessThan(0.9 * 985 * shapes.reduce((s, v) => s + v, 0));
  });

  it('a body with fewer than 6 vertices, or a flat hull, takes the creature fill × its shape', () => {
    for (const g of [generateRagdoll(urchin(5)), generateRagdoll(urchin(61, true))]) {
      expect(g.bodies).toHaveLength(3);
      const shapes = g.bodies.map(shapeVolume);
      const fill = (2 * octahedron) / (shapes[0]! + shapes[1]!);
      const expected = 985 * (clampFill(octahedron, shapes[0]!, fill) + clampFill(octahedron, shapes[1]!, fill) + fill * shapes[2]!);
      expect(Math.abs(g.summary.totalMass - expected)).toBeLessThan(1e-6 * expected);
    }
  });
});
