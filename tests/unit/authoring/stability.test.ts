import { describe, expect, it } from 'vitest';
import {
  checkMassRatios, fixMassRatios, frequencyFromPdGains, generateRagdoll, jointEffectiveInertia, newRigDocument, pdGainsFromFrequency, setMass,
  withGeneratedRagdoll,
} from '../../../shared/authoring';
import { computeMassProperties } from '../../../shared/physics/massProperties';
import type { ShapeDesc } from '../../../shared/physics/types';
import { createSimulation } from '../../../shared/runtime';
import type { RigDocument, RigJoint } from '../../../shared/rig';
import { creature } from './creatures';

const humanoidRig = async () => { const h = await creature('humanoid'); return withGeneratedRagdoll(newRigDocument('h', h.bones), generateRagdoll(h)); };
const massOf = (rig: RigDocument, n: string) => { const b = rig.bodies.find((x) => x.name === n)!; return computeMassProperties(b.shapes as readonly ShapeDesc[], b.mass !== null ? { mass: b.mass } : { density: b.density! }).mass; };

describe('mass-ratio check', () => {
  it('flags a jointed pair more than 10× apart, and the fix brings it within the limit', async () => {
    const rig = await humanoidRig();
    // As generated, no jointed pair is more than 10× apart (Generate balances masses and inertias).
    expect(checkMassRatios(rig)).toEqual([]);
    const r = setMass(rig, 'foot_l', 0.2);
    if (!r.ok) throw new Error(r.message);
    const issues = checkMassRatios(r.rig).filter((i) => i.joint === 'foot_l');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ joint: 'foot_l', heavy: 'shin_l', light: 'foot_l' });
    expect(issues[0]!.massRatio).toBeGreaterThan(10);
    const fixed = fixMassRatios(r.rig);
    for (const i of checkMassRatios(fixed)) expect(i.massRatio, i.joint).toBeLessThanOrEqual(10);
    // Rescaled toward the limit, not beyond: the shin is now at most 10× the foot and close to it.
    expect(massOf(fixed, 'shin_l') / massOf(fixed, 'foot_l')).toBeGreaterThan(9);
    expect(fixed.bodies.find((b) => b.name === 'foot_l')!.mass).not.toBeNull(); // keeps the field the body used
    expect(massOf(fixed, 'shin_l')).toBe(massOf(rig, 'shin_l'));
  });
});

describe('PD gains from natural frequency and damping ratio', () => {
  it('round-trips', () => {
    for (const [f, z, I] of [[2, 1, 0.3], [0.5, 0.2, 4], [8, 0.05, 0.01]] as const) {
      const g = pdGainsFromFrequency(f, z, I);
      const back = frequencyFromPdGains(g, I);
      expect(back.frequencyHz).toBeCloseTo(f, 10);
      expect(back.dampingRatio).toBeCloseTo(z, 10);
    }
    expect(() => pdGainsFromFrequency(0, 1, 1)).toThrow(/frequency/);
  });

  it('a pendulum driven with those gains oscillates at that frequency in the World (within 3 %)', () => {
    // A static post and a 2 kg ball 0.5 m out on a hinge about world Z; gravity off; PD toward the rest pose.
    const rig: RigDocument = {
      ...newRigDocument('pendulum', [
        { name: 'post', parent: null, rest: { translation: [0, 1, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
        { name: 'arm', parent: 'post', rest: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
      ], { gravity: [0, 0, 0], dt: 1 / 240, substeps: 1, velocityIterations: 8, positionIterations: 2, ground: null }),
      bodies: [
        { name: 'post', bone: 'post', type: 'static', offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, shapes: [{ type: 'sphere', position: [0, 0, 0], rotation: [0, 0, 0, 1], radius: 0.05, hollow: false }], mass: 1, density: null, material: { friction: 0.5, restitution: 0 }, linearDamping: 0, angularDamping: 0, collisionGroup: 1, collisionMask: 0 },
        { name: 'arm', bone: 'arm', type: 'dynamic', offset: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, shapes: [{ type: 'sphere', position: [0.5, 0, 0], rotation: [0, 0, 0, 1], radius: 0.05, hollow: false }], mass: 2, density: null, material: { friction: 0.5, restitution: 0 }, linearDamping: 0, angularDamping: 0, collisionGroup: 1, collisionMask: 0 },
      ],
      joints: [{
        type: 'hinge', name: 'pivot', bodyA: 'post', bodyB: 'arm', collideConnected: false, limit: null,
        frameA: { position: [0, 0, 0], rotation: [0, -Math.SQRT1_2, 0, Math.SQRT1_2] }, frameB: { position: [0, 0, 0], rotation: [0, -Math.SQRT1_2, 0, Math.SQRT1_2] },
        motor: { mode: 'pd', target: { source: 'rest' }, maxTorque: 1e6, errorReduction: 0.5, stiffness: 1, damping: 0, frictionTorque: 0 },
      }],
    };
    const I = jointEffectiveInertia(rig, rig.joints[0]!);
    expect(I).toBeCloseTo(2 * 0.25 + 0.4 * 2 * 0.05 ** 2, 9); // m·L² + 2/5·m·r² (post static)
    // A slider's PD pairs with the effective MASS along the slide: the arm's 2 kg against a static post,
    // 1/(1/3 + 1/2) = 1.2 kg against a 3 kg dynamic one.
    const slider = { ...rig.joints[0]!, type: 'prismatic', limit: null } as unknown as RigJoint;
    expect(jointEffectiveInertia(rig, slider)).toBeCloseTo(2, 12);
    const loose = { ...rig, bodies: rig.bodies.map((b) => (b.name === 'post' ? { ...b, type: 'dynamic' as const, mass: 3 } : b)) };
    expect(jointEffectiveInertia(loose, slider)).toBeCloseTo(1.2, 12);
    const f = 1.5;
    const gains = pdGainsFromFrequency(f, 0, I);
    const hinge = rig.joints[0] as Extract<RigJoint, { type: 'hinge' }>;
    const tuned: RigDocument = { ...rig, joints: [{ ...hinge, motor: { ...hinge.motor, stiffness: gains.stiffness, damping: gains.damping } }] };
    const sim = createSimulation(tuned);
    const arm = sim.world;
    // Start swinging: 1 rad/s about the hinge axis (world Z).
    const handle = (sim as unknown as { bodyHandles: Parameters<typeof arm.setVelocity>[0][] }).bodyHandles[1]!;
    arm.setVelocity(handle, [0, 0.5, 0], [0, 0, 1]);
    const joint = (sim as unknown as { jointHandles: Parameters<typeof arm.getJointAngle>[0][] }).jointHandles[0]!;
    const crossings: number[] = [];
    let prev = arm.getJointAngle(joint) as number;
    for (let i = 0; i < 240 * 4; i++) {
      sim.step();
      const a = arm.getJointAngle(joint) as number;
      if (prev > 0 && a <= 0) crossings.push(sim.time - sim.dt * (a / (a - prev)));
      prev = a;
    }
    expect(crossings.length).toBeGreaterThanOrEqual(4);
    const period = (crossings.at(-1)! - crossings[0]!) / (crossings.length - 1);
    expect(Math.abs(1 / period - f) / f).toBeLessThan(0.03);
  });
});
