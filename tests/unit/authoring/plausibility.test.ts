/** The checks that know real rigs (plausibility.ts) and the creature-scale helpers, on the generated
 *  humanoid made wrong one way at a time. */
import { describe, expect, it } from 'vitest';
import {
  boneAnatomy, checkRestOverlaps, checkRigPlausibility, fixRestOverlaps, generateRagdoll, newRigDocument, rescaleRig, withGeneratedRagdoll,
} from '../../../shared/authoring';
import { readFileSync } from 'node:fs';
import { loadRig, validateRig, type RigDocument, type RigShape } from '../../../shared/rig';
import { runTrial } from '../../../shared/authoring/trial';
import { creature } from './creatures';

const humanoid = async (): Promise<RigDocument> => { const h = await creature('humanoid'); return withGeneratedRagdoll(newRigDocument('h', h.bones), generateRagdoll(h)); };
const kinds = (rig: RigDocument) => checkRigPlausibility(rig).map((w) => w.kind);

describe('checkRigPlausibility', () => {
  it('is silent on a fresh Generate', async () => {
    expect(checkRigPlausibility(await humanoid())).toEqual([]);
  });

  it('warns of a body 1.9 m from its bone (a lost armature transform) and of a 0.5 mm capsule', async () => {
    const rig = await humanoid();
    const far = { ...rig, bodies: rig.bodies.map((b) => (b.name === 'forearm_l' ? { ...b, offset: { ...b.offset, position: [0, 1.9, 0] as [number, number, number] } } : b)) };
    const w = checkRigPlausibility(far).find((x) => x.kind === 'far-from-bone')!;
    expect(w.message).toMatch(/body "forearm_l" ends 1\.[5-9]\d\d m from its bone "forearm_l"/);
    const thin = { ...rig, bodies: rig.bodies.map((b) => (b.name === 'shin_r' ? { ...b, shapes: [{ ...b.shapes[0]!, radius: 0.0005 } as typeof b.shapes[0]] } : b)) };
    expect(checkRigPlausibility(thin).find((x) => x.kind === 'degenerate-shape')!.message).toMatch(/body "shin_r": radius 0\.000500 m is under/);
  });

  it('lists rest overlaps once self-collision is on, and Fix filters them from each other (the rig still runs)', async () => {
    const rig = await humanoid();
    // As generated the ragdoll does not collide with itself (group 1, mask without 1): nothing to list.
    expect(checkRestOverlaps(rig)).toEqual([]);
    // Self-collision on, and thighs fat enough (15 cm) to touch each other at rest.
    const selfCollide = { ...rig, bodies: rig.bodies.map((b) => ({
      ...b, collisionGroup: 1, collisionMask: 0xffffffff,
      shapes: b.name === 'thigh_l' || b.name === 'thigh_r' ? [{ ...b.shapes[0]!, radius: 0.15 } as typeof b.shapes[0]] : b.shapes,
    })) };
    const overlaps = checkRestOverlaps(selfCollide);
    expect(overlaps.map((o) => `${o.a}/${o.b}`)).toContain('thigh_l/thigh_r');
    expect(overlaps.find((o) => o.a === 'thigh_l')!.depth).toBeGreaterThan(0.05);
    // Jointed pairs are never listed (collideConnected is false for generated joints).
    const jointed = new Set(rig.joints.map((j) => [j.bodyA, j.bodyB].sort().join('/')));
    for (const o of overlaps) expect(jointed.has([o.a, o.b].sort().join('/'))).toBe(false);
    expect(kinds(selfCollide)).toContain('rest-overlap');
    const fixed = fixRestOverlaps(selfCollide);
    expect(checkRestOverlaps(fixed)).toEqual([]);
    expect(validateRig(fixed).ok).toBe(true);
    expect(runTrial(fixed, 1, true).blewUpAt).toBeNull();
  });

  it('warns of a skeleton 100× too big, and rescaleRig brings bones, shapes, masses and torques along', async () => {
    const rig = await humanoid();
    const big = rescaleRig(rig, 100);
    expect(big.skeleton.scale).toBe(100);
    expect(kinds(big)).toContain('scale');
    const back = rescaleRig(big, 0.01);
    expect(back.skeleton.scale).toBeCloseTo(1, 12);
    expect(checkRigPlausibility(back)).toEqual([]);
    const shin = (r: RigDocument) => r.bodies.find((b) => b.name === 'shin_l')!;
    expect(shin(big).mass!).toBeCloseTo(shin(rig).mass! * 1e6, 3);
    const knee = (r: RigDocument) => r.joints.find((j) => j.name === 'shin_l')! as Extract<RigDocument['joints'][number], { type: 'hinge' }>;
    expect(knee(big).motor.maxTorque).toBeCloseTo(knee(rig).motor.maxTorque * 1e8, -2);
    expect(knee(big).frameA.position[1]).toBeCloseTo(knee(rig).frameA.position[1] * 100, 9);
    // Half size: still a valid rig that runs (masses k³, torques k⁴).
    const half = rescaleRig(rig, 0.5);
    expect(validateRig(half).ok).toBe(true);
    expect(runTrial(half, 2, true).blewUpAt).toBeNull();
  });

  it('rescaleRig carries every length: ellipsoid radii, the gait effector point and the steering pivot lead', () => {
    const mine = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8')));
    const withEllipsoid: RigDocument = {
      ...mine,
      bodies: mine.bodies.map((b, i) => (i === 0 ? { ...b, shapes: [...b.shapes, { type: 'ellipsoid', position: [0, 0.1, 0], rotation: [0, 0, 0, 1], radii: [0.1, 0.2, 0.05] } as RigShape] } : b)),
    };
    const big = rescaleRig(withEllipsoid, 2);
    const e = big.bodies[0]!.shapes.at(-1)! as Extract<RigShape, { type: 'ellipsoid' }>;
    expect(e.radii).toEqual([0.2, 0.4, 0.1]);
    expect(e.position).toEqual([0, 0.2, 0]);
    const c0 = mine.controllers[0]!, c1 = big.controllers[0]!;
    expect(c1.effector.offset).toEqual(c0.effector.offset.map((x) => 2 * x));
    expect(c1.effector.offset.some((x) => x !== 0)).toBe(true);
    expect(c1.steering.pivotLead).toBeCloseTo(2 * c0.steering.pivotLead!, 12);
    expect(c1.righting).toEqual(c0.righting); // angles do not scale
    expect(validateRig(big).ok).toBe(true);
  });

  it('warns of a slide with no limit that nothing brings back (drive off or velocity), and not of a limited, held or world-anchored one', async () => {
    const rig = await humanoid();
    type J = RigDocument['joints'][number];
    const withKnee = (over: Record<string, unknown>, pelvisStatic = false): RigDocument => ({
      ...rig,
      bodies: rig.bodies.map((b) => (pelvisStatic && b.name === 'pelvis' ? { ...b, type: 'static' as const } : b)),
      joints: rig.joints.map((j) => (j.name === 'shin_l' ? { ...j, type: 'prismatic', limit: null, ...over } as unknown as J : j)),
    });
    const knee = rig.joints.find((j) => j.name === 'shin_l')! as Extract<J, { type: 'hinge' }>;
    const slides = (r: RigDocument) => checkRigPlausibility(r).filter((w) => w.kind === 'unbounded-slide');
    const off = slides(withKnee({ motor: { ...knee.motor, mode: 'off' } }));
    expect(off).toHaveLength(1);
    expect(off[0]!.path).toBe(`joints[${rig.joints.indexOf(knee)}]`);
    expect(off[0]!.message).toMatch(/joint "shin_l": the slide of "shin_l" on "thigh_l" has no limit and no drive holds it: .*cosh\(ωt\).*give it a limit, or a position or PD drive/);
    expect(slides(withKnee({ motor: { ...knee.motor, mode: 'velocity', target: { source: 'rest', velocity: 1 } } }))[0]!.message).toMatch(/its velocity drive moves it along and never back/);
    expect(slides(withKnee({ motor: { ...knee.motor, mode: 'off' }, limit: [-0.1, 0.1] }))).toEqual([]);
    expect(slides(withKnee({ motor: { ...knee.motor, mode: 'position' } }))).toEqual([]);
    // A slide on the pelvis made static (a rail in the world): it cannot turn, so nothing flings the body.
    const rail = withKnee({ motor: { ...knee.motor, mode: 'off' }, bodyA: 'pelvis' }, true);
    expect(slides(rail)).toEqual([]);
    // A planar joint's two slides, both free: one warning naming both.
    const planar = slides(withKnee({ type: 'planar', slideLimitY: null, slideLimitZ: null, slideMotor: { ...knee.motor, mode: 'off' } }));
    expect(planar.map((w) => w.message)).toEqual([expect.stringMatching(/the Y slide and Z slide of "shin_l" on "thigh_l" have no limits and no drive holds them: .*give each a limit/)]);
    // Every shipped rig and generated rig is silent (Generate makes no slides).
    expect(slides(rig)).toEqual([]);
  });
});

describe('boneAnatomy', () => {
  it.each([
    ['mixamorig:LeftUpLeg', 'thigh', 'left', null], ['mixamorig:RightForeArm', 'forearm', 'right', null], ['mixamorig:LeftShoulder', 'clavicle', 'left', null],
    ['mixamorig:HeadTop_End', 'head', null, 'end'], ['mixamorig:LeftHandIndex2', 'finger', 'left', null], ['calf_l', 'shin', 'left', null],
    ['upperarm_twist_01_r', 'upperArm', 'right', 'twist'], ['ik_foot_root', 'foot', null, 'ik'], ['DEF-thigh.L', 'thigh', 'left', null],
    ['MCH-shin_ik.R', 'shin', 'right', 'ik'], ['Bip01 L Calf', 'shin', 'left', null], ['b_RightUpperArm_06', 'upperArm', 'right', null],
    ['b_Tail01_012', 'tail', null, null], ['BackLeg2.L', 'other', 'left', null], ['pelvis', 'pelvis', null, null], ['spine_02', 'spine', null, null],
  ])('%s → %s, %s, helper %s', (name, role, side, helper) => {
    expect(boneAnatomy(name)).toMatchObject({ role, side, helper });
  });
});
