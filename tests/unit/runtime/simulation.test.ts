import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { quatConj, quatMul } from '../../../shared/math/quat';
import { composeTransforms, invertTransform } from '../../../shared/math/transform';
import { loadRig, boneRestWorld, type RigDocument } from '../../../shared/rig';
import { createSimulation, registerControllerType, type ControllerInstance } from '../../../shared/runtime';
import { fixture } from '../rig/corpus';

const pendulum = (): RigDocument => loadRig(readFileSync(fixture('rigs/pendulum.rig.json'), 'utf8'));
const run = (sim: ReturnType<typeof createSimulation>, steps: number) => { for (let i = 0; i < steps; i++) sim.step(); };

function expectClose(a: readonly number[], b: readonly number[], tol: number) {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => expect(Math.abs(x - b[i]!), `component ${i}: ${x} vs ${b[i]}`).toBeLessThan(tol));
}

describe('createSimulation', () => {
  it('places every body at bone rest world · offset, under the placement', () => {
    const rig = pendulum();
    const placement = { position: [2, 0, -1] as [number, number, number], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] as [number, number, number, number] };
    const sim = createSimulation(rig, { placement });
    const bones = boneRestWorld(rig.skeleton.bones);
    for (const body of rig.bodies) {
      const expected = composeTransforms(placement, composeTransforms(bones.get(body.bone)!, { position: [...body.offset.position], rotation: [...body.offset.rotation] }));
      const f = sim.frame().bodies[body.name]!;
      expectClose(f.p, expected.position, 1e-12);
      expectClose(f.q, expected.rotation, 1e-12);
    }
  });

  it('reads bones from bodies: bone world = body world · offset⁻¹; bones without a body keep their rest offset to the parent', () => {
    const rig = pendulum();
    const sim = createSimulation(rig);
    const rest = boneRestWorld(rig.skeleton.bones);
    const atRest = sim.bonePoses();
    for (const [name, t] of rest) { expectClose(atRest[name]!.position, t.position, 1e-12); expectClose(atRest[name]!.rotation, t.rotation, 1e-12); }

    run(sim, 90); // the chain sags under gravity
    const poses = sim.bonePoses();
    for (const body of rig.bodies) {
      const f = sim.frame().bodies[body.name]!;
      const expected = composeTransforms({ position: f.p as [number, number, number], rotation: f.q as [number, number, number, number] },
        invertTransform({ position: [...body.offset.position], rotation: [...body.offset.rotation] }));
      expectClose(poses[body.bone]!.position, expected.position, 1e-12);
    }
    // "tip" has no body: it stays 0.5 m along link3's bone, whatever link3 did.
    const link3 = poses.link3!, tip = poses.tip!;
    expectClose(tip.position, composeTransforms(link3, { position: [0, 0, 0.5], rotation: [0, 0, 0, 1] }).position, 1e-12);
    expect(link3.position[1]).toBeLessThan(1.5 - 0.05); // it really moved

    // Local poses compose back to the world poses (what a three.js skeleton does).
    const local = sim.bonePoses('local');
    const link2World = composeTransforms(composeTransforms(local.link1!, local.link2!), { position: [0, 0, 0], rotation: [0, 0, 0, 1] });
    expectClose(composeTransforms(poses.link1!, local.link2!).position, poses.link2!.position, 1e-12);
    expectClose(quatMul(local.link1!.rotation, local.link2!.rotation), link2World.rotation, 1e-12);
  });

  it('never mutates the rig document', () => {
    const rig = pendulum();
    const before = JSON.stringify(rig);
    const sim = createSimulation(rig);
    sim.setMotorsEnabled(false, ['elbow']);
    sim.applyImpulse('link3', [0, 5, 0]);
    run(sim, 30);
    sim.snapshot();
    expect(JSON.stringify(rig)).toBe(before);
  });

  it('is deterministic: two runs give bit-identical frames', () => {
    const trace = () => {
      const sim = createSimulation(pendulum());
      const frames = [];
      for (let i = 0; i < 240; i++) {
        if (i === 60) sim.applyImpulse('link2', [3, 0, 1], [0, 1.5, 0.75]);
        sim.step();
        frames.push(sim.frame());
      }
      return JSON.stringify(frames);
    };
    expect(trace()).toBe(trace());
  });

  it('snapshot/restore reproduces the future exactly, motor state and controller state included', () => {
    const rig = pendulum();
    rig.controllers = [{
      name: 'reach', type: 'cyclicPath', root: 'base', chain: ['shoulder', 'elbow', 'wrist'], effector: { body: 'link3', offset: [0, 0, 0.25] },
      controlPoints: [[0, 0, 1], [0, 0.3, 1], [0, 0, 1.2]], rate: 0.75, phaseOffset: 0.25, interpolation: 'linear', pole: [0, 1, 0],
      steering: { target: null, gain: 1, maxAngle: 0.5 }, enabled: true,
    }];
    // A stand-in controller: swings the elbow with its phase, remembers the steering target.
    const swing = (): ControllerInstance => {
      let phase = 0.25;
      let target: number[] | null = null;
      return {
        get phase() { return phase; },
        step(s) { phase = (phase + 0.75 * s.dt) % 1; s.setMotorTarget('elbow', 0.8 * Math.sin(2 * Math.PI * phase) + (target ? 0.1 : 0)); },
        setTarget(t) { target = t ? [...t] : null; },
        snapshot: () => ({ phase }),
        restore(state) { phase = (state as { phase: number }).phase; },
      };
    };
    const sim = createSimulation(rig, { controllers: { cyclicPath: swing } });
    run(sim, 50);
    sim.setMotorsEnabled(false, ['wrist']);
    sim.setTarget([1, 0, 5]);
    const snap = sim.snapshot();
    const future = () => { const f = []; for (let i = 0; i < 80; i++) { if (i === 40) sim.setMotorsEnabled(true); sim.step(); f.push(sim.frame()); } return JSON.stringify(f); };
    const first = future();
    sim.setTarget(null);
    sim.setMotorsEnabled(false);
    sim.restore(snap);
    expect(sim.steps).toBe(50);
    expect(future()).toBe(first);
    expect(JSON.parse(first)[0].controllers.reach.phase).toBeCloseTo((0.25 + 51 * 0.75 / 60) % 1, 12);
  });

  it('limits motor torque to maxTorque and reports saturation; a limp chain sags further than a powered one', () => {
    const powered = createSimulation(pendulum());
    const limp = createSimulation(pendulum());
    limp.setMotorsEnabled(false);
    let sawSaturation = false;
    for (let i = 0; i < 120; i++) {
      powered.step(); limp.step();
      for (const j of Object.values(powered.frame().joints)) {
        expect(j.torque).toBeLessThanOrEqual(j.maxTorque * (1 + 1e-9));
        if (j.saturated) { sawSaturation = true; expect(j.torque).toBeCloseTo(j.maxTorque, 6); }
      }
    }
    expect(sawSaturation).toBe(true); // 40 N·m cannot hold ≈ 63 N·m of gravity torque at the shoulder
    expect(powered.frame().joints.shoulder!.maxTorque).toBe(40);
    expect(limp.frame().joints.shoulder!.maxTorque).toBe(0); // limp: only frictionTorque (0) remains
    expect(limp.frame().bodies.link3!.p[1]).toBeLessThan(powered.frame().bodies.link3!.p[1]! - 0.1);
  });

  it('drives animation-sourced hinge targets set by the game', () => {
    const rig = pendulum();
    rig.simulation.gravity = [0, 0, 0];
    const elbow = rig.joints[1]!;
    if (elbow.type !== 'hinge') throw new Error('fixture changed');
    elbow.motor.target = { source: 'animation', clip: 'wave' };
    const sim = createSimulation(rig);
    sim.setMotorTargets({ elbow: 0.6 });
    run(sim, 180);
    const f = sim.frame().bodies;
    // Relative rotation of link2 w.r.t. link1 about X is the hinge angle.
    const rel = quatMul(quatConj(f.link1!.q as [number, number, number, number]), f.link2!.q as [number, number, number, number]);
    // Started at 0 rad; within 0.03 rad of the 0.6 rad target after 3 s (the position drive still rings a little).
    expect(Math.abs(2 * Math.atan2(rel[0], rel[3]) - 0.6)).toBeLessThan(0.03);
    expect(() => sim.setMotorTargets({ shoulder: 0.3 })).toThrow('joint "shoulder" (ball) takes a quaternion [x, y, z, w] as its motor target');
  });

  it('applies an impulse at the centre of mass as Δv = J/m on a free body', () => {
    const rig = pendulum();
    rig.joints = [];
    rig.simulation.gravity = [0, 0, 0];
    const sim = createSimulation(rig);
    sim.applyImpulse('link2', [0.3, 0, 0]);
    sim.step();
    const m = rig.bodies[2]!.computed!.mass;
    expectClose(sim.frame().bodies.link2!.v, [0.3 / m, 0, 0], 1e-3 * (0.3 / m));
    // An off-centre impulse also spins it: ω about −Y for a push along +X applied at +Z from the centre.
    const centre = sim.frame().bodies.link3!.p;
    sim.applyImpulse('link3', [0.3, 0, 0], [centre[0]!, centre[1]!, centre[2]! + 0.1]);
    sim.step();
    expect(sim.frame().bodies.link3!.w[1]).toBeGreaterThan(0);
  });

  it('names what is missing: unknown bodies and joints, unregistered controller types', () => {
    const sim = createSimulation(pendulum());
    expect(() => sim.applyImpulse('arm', [0, 1, 0])).toThrow('no body named "arm" in rig "pendulum" (bodies: base, link1, link2, link3)');
    expect(() => sim.setMotorsEnabled(false, ['knee'])).toThrow('no joint named "knee"');
    const rig = pendulum();
    rig.controllers = [{
      name: 'reach', type: 'cyclicPath', root: 'base', chain: ['shoulder'], effector: { body: 'link1', offset: [0, 0, 0.25] },
      controlPoints: [[0, 0, 1], [0, 0.3, 1], [0, 0, 1.2]], rate: 1, phaseOffset: 0, interpolation: 'linear', pole: [0, 1, 0],
      steering: { target: null, gain: 1, maxAngle: 0.5 }, enabled: true,
    }];
    const unregister = registerControllerType('cyclicPath', () => { throw new Error('registry reached'); });
    expect(() => createSimulation(rig)).toThrow('registry reached');
    unregister();
    // This file imports shared/runtime only (not the entry that registers the gait), so nothing is left.
    expect(() => createSimulation(rig)).toThrow('controller "reach" has type "cyclicPath" but no implementation is registered');
    expect(createSimulation(rig, { missingControllers: 'skip' }).controllerNames).toEqual([]);
  });

  it('looks handles up by name and writes a body\'s pose and velocity through the Simulation', () => {
    const rig = pendulum();
    const sim = createSimulation(rig);
    const [b0, b1] = [rig.bodies[0]!.name, rig.bodies[1]!.name];
    const h0 = sim.bodyHandle(b0), h1 = sim.bodyHandle(b1);
    expect(h0).not.toBe(h1);
    expect(sim.bodyName(h0)).toBe(b0);
    expect(sim.bodyName(h1)).toBe(b1);
    expect(sim.bodyName(9999 as typeof h0)).toBeNull();
    expect(sim.world.getPosition(h1)).toEqual(sim.bodyPose(b1).position);
    const j = rig.joints[0]!.name;
    expect(sim.world.getJointError(sim.jointHandle(j))).toBe(sim.frame().joints[j]!.error);
    expect(() => sim.bodyHandle('nope')).toThrow('no body named "nope"');
    expect(() => sim.jointHandle('nope')).toThrow('no joint named "nope"');

    const q = [0, Math.SQRT1_2, 0, Math.SQRT1_2] as const;
    sim.setBodyPose(b1, [1, 2, 3], q);
    expectClose(sim.bodyPose(b1).position, [1, 2, 3], 1e-15);
    expectClose(sim.bodyPose(b1).rotation, q, 1e-15);
    sim.setBodyVelocity(b1, [0.5, -1, 2], [0, 0, 3]);
    const f = sim.frame().bodies[b1]!;
    expectClose(f.v, [0.5, -1, 2], 1e-15);
    expectClose(f.w, [0, 0, 3], 1e-15);
  });
});
