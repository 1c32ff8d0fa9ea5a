import { describe, expect, it } from 'vitest';
import {
  addBody, addShape, applyPreset, assignBodyToBone, copyMotorSettings, createJoint, generateRagdoll, mirrorSide, newRigDocument,
  removeBody, removeShape, renameBody, setCollisionFilter, setDensity, setJointLimits, setJointType, setMass, setMaterial, setMotor,
  setShapeParams, withGeneratedRagdoll, type EditResult,
} from '../../../shared/authoring';
import { quatMul, quatRotate, quatFromAxisAngle, type Quat, type Vec3 } from '../../../shared/math';
import { bodyRestWorld, boneRestWorld } from '../../../shared/rig/restPose';
import { validateRig, type RigDocument, type RigJoint } from '../../../shared/rig';
import { creature } from './creatures';

const ok = (r: EditResult): RigDocument => { if (!r.ok) throw new Error(`${r.field}: ${r.message}`); return r.rig; };
const err = (r: EditResult) => { if (r.ok) throw new Error('expected the edit to be refused'); return r; };
const humanoidRig = async () => { const h = await creature('humanoid'); return withGeneratedRagdoll(newRigDocument('h', h.bones), generateRagdoll(h)); };
type Hinge = Extract<RigJoint, { type: 'hinge' }>;
type Ball = Extract<RigJoint, { type: 'ball' }>;

describe('body edits', () => {
  it('add, rename, assign, remove — and the document stays valid', async () => {
    let rig = await humanoidRig();
    rig = ok(removeBody(rig, 'head'));
    expect(rig.joints.some((j) => j.bodyB === 'head')).toBe(false);
    rig = ok(addBody(rig, { name: 'skull', bone: 'head' }));
    rig = ok(createJoint(rig, { bodyA: 'spine', bodyB: 'skull', type: 'ball' }));
    rig = ok(renameBody(rig, 'skull', 'cranium'));
    expect(rig.joints.find((j) => j.name === 'skull')!.bodyB).toBe('cranium');
    expect(validateRig(rig).ok).toBe(true);
    expect(err(assignBodyToBone(rig, 'cranium', 'spine'))).toMatchObject({ field: 'bone', message: expect.stringContaining('already drives body "spine"') });
    expect(err(renameBody(rig, 'cranium', 'spine'))).toMatchObject({ field: 'name' });
    expect(err(addBody(rig, { name: 'x', bone: 'tail' }))).toMatchObject({ field: 'bone', message: 'there is no bone named "tail"' });
  });

  it('refuses bad numbers at the field, leaving the input document untouched', async () => {
    const rig = await humanoidRig();
    const before = JSON.stringify(rig);
    expect(err(setMass(rig, 'spine', -3))).toEqual({ ok: false, field: 'bodies[1].mass', message: 'must be > 0 kg, got -3' });
    expect(err(setDensity(rig, 'spine', 'abc' as never))).toMatchObject({ field: 'bodies[1].density', message: 'must be a number kg/m³, got "abc"' });
    expect(err(setMaterial(rig, 'spine', { restitution: 2 }))).toMatchObject({ field: 'bodies[1].material.restitution' });
    expect(err(setCollisionFilter(rig, 'spine', { mask: 1.5 }))).toMatchObject({ field: 'bodies[1].collisionMask' });
    expect(err(setShapeParams(rig, 'spine', 0, { radius: 0 }))).toMatchObject({ field: 'bodies[1].shapes[0].radius' });
    expect(err(removeShape(rig, 'spine', 0)).message).toMatch(/at least one shape/);
    expect(JSON.stringify(rig)).toBe(before);
  });

  it('mass, density, shapes and materials change what they say', async () => {
    let rig = await humanoidRig();
    rig = ok(setMass(rig, 'spine', 30));
    expect(rig.bodies[1]).toMatchObject({ mass: 30, density: null });
    rig = ok(setDensity(rig, 'spine', 1000));
    expect(rig.bodies[1]).toMatchObject({ mass: null, density: 1000 });
    rig = ok(addShape(rig, 'spine', { type: 'sphere', position: [0, 0.3, 0], rotation: [0, 0, 0, 1], radius: 0.1, hollow: false }));
    rig = ok(setShapeParams(rig, 'spine', 1, { radius: 0.12 }));
    expect(rig.bodies[1]!.shapes[1]).toMatchObject({ type: 'sphere', radius: 0.12 });
    rig = ok(removeShape(rig, 'spine', 1));
    rig = ok(setMaterial(rig, 'foot_l', { friction: 1.5 }));
    rig = ok(setCollisionFilter(rig, 'foot_l', { group: 4, mask: 0xffff }));
    expect(rig.bodies.find((b) => b.name === 'foot_l')).toMatchObject({ material: { friction: 1.5, restitution: 0 }, collisionGroup: 4, collisionMask: 0xffff });
  });
});

describe('joint edits', () => {
  it('limits: min ≤ max and within (−π, π], named at the field', async () => {
    const rig = await humanoidRig();
    const i = rig.joints.findIndex((j) => j.name === 'shin_l');
    expect(err(setJointLimits(rig, 'shin_l', { limit: [1, 0.5] }))).toEqual({ ok: false, field: `joints[${i}].limit`, message: 'min must be ≤ max, got [1, 0.5] rad' });
    expect(err(setJointLimits(rig, 'shin_l', { limit: [-4, 0.5] })).field).toBe(`joints[${i}].limit[0]`);
    expect(err(setJointLimits(rig, 'shin_l', { limit: [-Math.PI, 0.5] })).message).toMatch(/\(−π, π\]/);
    const next = ok(setJointLimits(rig, 'shin_l', { limit: [0, Math.PI] }));
    expect((next.joints[i] as Hinge).limit).toEqual([0, Math.PI]);
    const j = rig.joints.findIndex((x) => x.name === 'thigh_l');
    expect(err(setJointLimits(rig, 'thigh_l', { swingLimit: [0, 1] })).field).toBe(`joints[${j}].swingLimit[0]`);
    expect((ok(setJointLimits(rig, 'thigh_l', { twistLimit: [-0.2, 0.3], swingLimit: [0.5, 1] })).joints[j] as Ball)).toMatchObject({ twistLimit: [-0.2, 0.3], swingLimit: [0.5, 1] });
  });

  it('motor settings, type change, presets and copy to many joints', async () => {
    let rig = await humanoidRig();
    const i = rig.joints.findIndex((j) => j.name === 'forearm_l');
    expect(err(setMotor(rig, 'forearm_l', { errorReduction: 0 })).field).toBe(`joints[${i}].motor.errorReduction`);
    expect(err(setMotor(rig, 'forearm_l', { mode: 'pd', stiffness: 0, damping: 0 })).field).toBe(`joints[${i}].motor`);
    expect(err(setMotor(rig, 'forearm_l', { target: { source: 'animation' } })).field).toBe(`joints[${i}].motor.target.clip`);
    rig = ok(setMotor(rig, 'forearm_l', { mode: 'pd', stiffness: 80, damping: 4, target: { source: 'animation', clip: 'wave' } }));
    expect((rig.joints[i] as Hinge).motor).toMatchObject({ mode: 'pd', stiffness: 80, damping: 4, target: { source: 'animation', clip: 'wave' } });
    rig = ok(copyMotorSettings(rig, 'forearm_l', ['forearm_r', 'shin_l']));
    expect((rig.joints.find((j) => j.name === 'shin_l') as Hinge).motor).toEqual((rig.joints[i] as Hinge).motor);
    const tau = (rig.joints.find((j) => j.name === 'thigh_l') as Ball).motor.maxTorque;
    rig = ok(applyPreset(rig, ['thigh_l', 'thigh_r'], 'limp'));
    expect((rig.joints.find((j) => j.name === 'thigh_l') as Ball).motor).toMatchObject({ mode: 'off', frictionTorque: tau * 0.02 });
    rig = ok(applyPreset(rig, ['thigh_l'], 'loose', { thigh_l: tau }));
    expect((rig.joints.find((j) => j.name === 'thigh_l') as Ball).motor).toMatchObject({ mode: 'position', errorReduction: 0.2, maxTorque: tau * 0.35 });
    rig = ok(setJointType(rig, 'shin_l', 'ball'));
    expect(rig.joints.find((j) => j.name === 'shin_l')!.type).toBe('ball');
    expect(err(createJoint(rig, { bodyA: 'pelvis', bodyB: 'head', type: 'ball' })).field).toBe('name');
    expect(err(createJoint(rig, { name: 'loop', bodyA: 'pelvis', bodyB: 'head', type: 'ball' })).message).toMatch(/already the child|cycle/);
  });
});

describe('mirrorSide', () => {
  const M = (v: Vec3): Vec3 => [-v[0], v[1], v[2]];

  it('left → right reproduces the generated right side: shapes mirrored in world, same limits', async () => {
    const rig = await humanoidRig();
    const mirrored = ok(mirrorSide(rig, 'left'));
    const bones = boneRestWorld(rig.skeleton.bones);
    const before = bodyRestWorld(rig.bodies, bones), after = bodyRestWorld(mirrored.bodies, bones);
    for (const name of ['upper_arm', 'forearm', 'thigh', 'shin', 'foot']) {
      const l = rig.bodies.find((b) => b.name === `${name}_l`)!, r = mirrored.bodies.find((b) => b.name === `${name}_r`)!;
      const centre = (t: { position: Vec3; rotation: Quat }, s: readonly number[]) => { const p = quatRotate(t.rotation, s as Vec3); return [t.position[0] + p[0], t.position[1] + p[1], t.position[2] + p[2]] as Vec3; };
      const cl = M(centre(before.get(l.name)!, l.shapes[0]!.position)), cr = centre(after.get(r.name)!, r.shapes[0]!.position);
      for (let k = 0; k < 3; k++) expect(cr[k]).toBeCloseTo(cl[k]!, 6);
      const jl = rig.joints.find((j) => j.name === `${name}_l`)!, jr = mirrored.joints.find((j) => j.name === `${name}_r`)!;
      expect(jr.type).toBe(jl.type);
      if (jl.type === 'hinge') expect((jr as Hinge).limit).toEqual(jl.limit);
    }
    expect(validateRig(mirrored).ok).toBe(true);
  });

  it('a hinge bent by +θ on the left is the mirror image of the right one bent by +θ (mirrored frames keep the sense)', async () => {
    const rig = await humanoidRig();
    const mirrored = ok(mirrorSide(rig, 'left'));
    const bones = boneRestWorld(rig.skeleton.bones);
    const childAt = (doc: RigDocument, name: string, theta: number): Quat => {
      const j = doc.joints.find((x) => x.name === name)!, w = bodyRestWorld(doc.bodies, bones);
      // B's world rotation with the joint at angle θ: (qA·fA)·Rx(θ)·fB⁻¹.
      const fa = quatMul(w.get(j.bodyA)!.rotation, j.frameA.rotation as Quat);
      const fbInv: Quat = [-j.frameB.rotation[0], -j.frameB.rotation[1], -j.frameB.rotation[2], j.frameB.rotation[3]];
      return quatMul(quatMul(fa, quatFromAxisAngle([1, 0, 0], theta)), fbInv);
    };
    for (const name of ['forearm', 'shin']) {
      const ql = childAt(rig, `${name}_l`, 0.7), qr = childAt(mirrored, `${name}_r`, 0.7);
      const dl = M(quatRotate(ql, [0, 1, 0])), dr = quatRotate(qr, [0, 1, 0]); // the bone direction, mirrored
      for (let k = 0; k < 3; k++) expect(dr[k]).toBeCloseTo(dl[k]!, 6);
    }
  });

  it('slides and screws: an offset +d along the left frame X is the mirror image of −d on the right; a screw changes hand', async () => {
    const base = await humanoidRig();
    const bones = boneRestWorld(base.skeleton.bones);
    type Prismatic = Extract<RigJoint, { type: 'prismatic' }>;
    type Screw = Extract<RigJoint, { type: 'screw' }>;
    type Cylindrical = Extract<RigJoint, { type: 'cylindrical' }>;
    /** World position and rotation of B's joint frame when the joint turns θ about and slides d along frame X. */
    const frameB = (doc: RigDocument, name: string, theta: number, d: number): { p: Vec3; q: Quat } => {
      const j = doc.joints.find((x) => x.name === name)!, w = bodyRestWorld(doc.bodies, bones).get(j.bodyA)!;
      const fa = quatMul(w.rotation, j.frameA.rotation as Quat);
      const o = quatRotate(w.rotation, j.frameA.position as Vec3), x = quatRotate(fa, [d, 0, 0]);
      return { p: [w.position[0] + o[0] + x[0], w.position[1] + o[1] + x[1], w.position[2] + o[2] + x[2]], q: quatMul(fa, quatFromAxisAngle([1, 0, 0], theta)) };
    };
    const same = (l: { p: Vec3; q: Quat }, r: { p: Vec3; q: Quat }) => {
      const pl = M(l.p);
      for (let k = 0; k < 3; k++) expect(r.p[k]).toBeCloseTo(pl[k]!, 6);
      // A mirrored frame: X → −M·X, Y → M·Y, Z → M·Z (the reflection conjugated into a proper rotation).
      for (const axis of [[1, 0, 0], [0, 1, 0], [0, 0, 1]] as Vec3[]) {
        const s = axis[0] === 1 ? -1 : 1, want = M(quatRotate(l.q, axis)), got = quatRotate(r.q, axis);
        for (let k = 0; k < 3; k++) expect(got[k]).toBeCloseTo(s * want[k]!, 6);
      }
    };

    let rig = ok(setJointType(base, 'forearm_l', 'prismatic'));
    rig = { ...rig, joints: rig.joints.map((j) => (j.name === 'forearm_l' ? { ...(j as Prismatic), limit: [0.01, 0.05] as [number, number], motor: { ...(j as Prismatic).motor, mode: 'velocity' as const, target: { source: 'rest' as const, velocity: 0.2 } } } : j)) };
    let mirrored = ok(mirrorSide(rig, 'left'));
    const pr = mirrored.joints.find((j) => j.name === 'forearm_r') as Prismatic;
    expect(pr.limit).toEqual([-0.05, -0.01]);
    expect(pr.motor.target.velocity).toBe(-0.2);
    same(frameB(rig, 'forearm_l', 0, 0.03), frameB(mirrored, 'forearm_r', 0, -0.03));
    expect(validateRig(mirrored).ok).toBe(true);

    rig = ok(setJointType(base, 'forearm_l', 'screw'));
    rig = { ...rig, joints: rig.joints.map((j) => (j.name === 'forearm_l' ? { ...(j as Screw), pitch: 0.02 } : j)) };
    mirrored = ok(mirrorSide(rig, 'left'));
    const sr = mirrored.joints.find((j) => j.name === 'forearm_r') as Screw;
    expect(sr.pitch).toBe(-0.02);
    // Turned 0.7 rad on both sides (mirrored frames keep the sense), each advancing pitch × 0.7.
    same(frameB(rig, 'forearm_l', 0.7, 0.02 * 0.7), frameB(mirrored, 'forearm_r', 0.7, sr.pitch * 0.7));

    rig = ok(setJointType(base, 'forearm_l', 'cylindrical'));
    rig = { ...rig, joints: rig.joints.map((j) => (j.name === 'forearm_l' ? { ...(j as Cylindrical), slideLimit: [-0.01, 0.04] as [number, number] } : j)) };
    mirrored = ok(mirrorSide(rig, 'left'));
    expect((mirrored.joints.find((j) => j.name === 'forearm_r') as Cylindrical).slideLimit).toEqual([-0.04, 0.01]);
    expect(validateRig(mirrored).ok).toBe(true);
  });

  it("keeping the target's own frames: limits are sign-flipped where its axis is reversed", async () => {
    const rig = await humanoidRig();
    // Give the right knee an axis pointing the other way (rotate its frames 180° about frame Z).
    const flipZ = quatFromAxisAngle([0, 0, 1], Math.PI);
    const k = rig.joints.findIndex((j) => j.name === 'shin_r');
    const knee = rig.joints[k] as Hinge;
    const reversed: RigDocument = { ...rig, joints: rig.joints.map((j, i) => (i === k ? { ...knee, frameA: { ...knee.frameA, rotation: quatMul(knee.frameA.rotation as Quat, flipZ) }, frameB: { ...knee.frameB, rotation: quatMul(knee.frameB.rotation as Quat, flipZ) } } : j)) };
    const left = ok(setJointLimits(reversed, 'shin_l', { limit: [-0.1, 2.2] }));
    const kept = ok(mirrorSide(left, 'left', { frames: 'keep' }));
    expect((kept.joints[k] as Hinge).limit).toEqual([-2.2, 0.1]);
    const remade = ok(mirrorSide(left, 'left'));
    expect((remade.joints[k] as Hinge).limit).toEqual([-0.1, 2.2]);
  });
});
