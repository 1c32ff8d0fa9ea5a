/**
 * The articulated solver through the runtime (issue 12 item 1): createSimulation on a rig with
 * `"solver": "articulated"` (or `{ solver: 'articulated' }`) runs the ArticulatedWorld behind the same
 * Simulation API — bodies, joint errors and motor reports read from it, the trace and recorder unchanged.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from '../../../../shared/runtime';
import type { RigDocument } from '../../../../shared/rig';
import { ArticulatedWorld, MAX_MASS_CHANGE } from '../../../../shared/physics/articulated';
import { chainRig } from './rigs';
import { FRAME_X_UP, pairRig } from '../coupledRigs';

const ellipticK = (k: number) => { let a = 1, b = Math.sqrt(1 - k * k); for (let i = 0; i < 30; i++) [a, b] = [(a + b) / 2, Math.sqrt(a * b)]; return Math.PI / (2 * a); };

/** Total energy of a chain of 1 kg rods (world COM velocity, angular velocity, inertia about the COM). */
function energy(sim: Simulation): number {
  let e = 0;
  for (const name of sim.bodyNames) {
    const h = sim.bodyHandle(name);
    const mp = sim.world.getMassProperties(h);
    if (sim.rig.bodies.find((b) => b.name === name)!.type !== 'dynamic') continue;
    const v = sim.world.getLinearVelocity(h), w = sim.world.getAngularVelocity(h), q = sim.world.getRotation(h);
    // ω in body axes for I (body axes).
    const [x, y, z, s] = q, wx = w[0], wy = w[1], wz = w[2];
    const tx = 2 * (-y * wz + z * wy), ty = 2 * (-z * wx + x * wz), tz = 2 * (-x * wy + y * wx);
    const wb = [wx + s * tx + (-y * tz + z * ty), wy + s * ty + (-z * tx + x * tz), wz + s * tz + (-x * ty + y * tx)];
    const I = mp.inertia;
    const Iw = [I[0]! * wb[0]! + I[1]! * wb[1]! + I[2]! * wb[2]!, I[3]! * wb[0]! + I[4]! * wb[1]! + I[5]! * wb[2]!, I[6]! * wb[0]! + I[7]! * wb[1]! + I[8]! * wb[2]!];
    const p = sim.world.getPosition(h);
    // COM in world: body origin + R·centroid (the chain's rods have their centroid at (0, −L/2, 0)).
    const c = mp.centroid, cx = c[0]!, cy = c[1]!, cz = c[2]!;
    const ux = 2 * (y * cz - z * cy), uy = 2 * (z * cx - x * cz), uz = 2 * (x * cy - y * cx);
    const com = [p[0] + cx + s * ux + (y * uz - z * uy), p[1] + cy + s * uy + (z * ux - x * uz), p[2] + cz + s * uz + (x * uy - y * ux)];
    e += 0.5 * mp.mass * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2) + 0.5 * (wb[0]! * Iw[0]! + wb[1]! * Iw[1]! + wb[2]! * Iw[2]!) + mp.mass * 9.81 * com[1]!;
  }
  return e;
}

const articulated = (rig: RigDocument): RigDocument => ({ ...rig, solver: 'articulated' });

describe('the articulated solver behind the Simulation API', () => {
  it('rig.solver "articulated" builds an ArticulatedWorld; the option overrides the rig either way', () => {
    const rig = chainRig({ links: 2, angles: [0.3] });
    expect(createSimulation(articulated(rig)).world).toBeInstanceOf(ArticulatedWorld);
    expect(createSimulation(articulated(rig)).solver).toBe('articulated');
    expect(createSimulation(rig, { solver: 'articulated' }).world).toBeInstanceOf(ArticulatedWorld);
    expect(createSimulation(articulated(rig), { solver: 'rigid' }).world).not.toBeInstanceOf(ArticulatedWorld);
  });

  for (const [joint, dt, substeps] of [['hinge', 1 / 240, 1], ['ball', 1 / 240, 1], ['hinge', 1 / 60, 2], ['ball', 1 / 60, 2]] as const) {
    it(`60° rod pendulum (${joint}, dt ${dt.toFixed(5)} × ${substeps}): exact period within 0.5 %, energy within 1 % over 10 s, joint error ≤ 1e-6 m`, () => {
      const base = chainRig({ links: 1, angles: [Math.PI / 3], joint });
      const sim = createSimulation(articulated({ ...base, simulation: { ...base.simulation, dt, substeps } }));
      const h = sim.bodyHandle('link0');
      const mp = sim.world.getMassProperties(h);
      // I about the pivot (body origin) about world z: Izz about the centroid + m·d², d = 0.5 m.
      const Ipivot = mp.inertia[8]! + mp.mass * 0.25;
      const T = 4 * Math.sqrt(Ipivot / (mp.mass * 9.81 * 0.5)) * ellipticK(Math.sin(Math.PI / 6));
      const e0 = energy(sim);
      const swing = mp.mass * 9.81 * 0.5 * (1 - Math.cos(Math.PI / 3));
      const angle = () => { const r = sim.bodyPose('link0').rotation; return 2 * Math.atan2(r[2], r[3]); };
      let prev = angle(), worstE = 0, worstJoint = 0;
      const crossings: number[] = [];
      const steps = Math.round(10 / sim.dt);
      for (let s = 1; s <= steps; s++) {
        sim.step();
        const th = angle();
        if (prev > 0 && th <= 0) crossings.push((s - 1 + prev / (prev - th)) * sim.dt);
        prev = th;
        worstE = Math.max(worstE, Math.abs(energy(sim) - e0) / swing);
        worstJoint = Math.max(worstJoint, sim.frame().joints.j0!.error);
      }
      const period = (crossings.at(-1)! - crossings[0]!) / (crossings.length - 1);
      console.log(`articulated 60° ${joint} pendulum at dt ${sim.dt.toFixed(5)} × ${substeps}: period ${period.toFixed(6)} s vs exact ${T.toFixed(6)} s (${((period / T - 1) * 100).toExponential(2)} %), energy ${(worstE * 100).toFixed(3)} % of the swing energy, joint error ${worstJoint.toExponential(2)} m`);
      expect(crossings.length).toBeGreaterThanOrEqual(5);
      expect(Math.abs(period / T - 1)).toBeLessThan(0.005);
      expect(worstE).toBeLessThan(0.01);
      expect(worstJoint).toBeLessThanOrEqual(1e-6);
    }, 60_000);
  }

  it('a 20-link chain loses no length: every joint\'s anchors stay together (from the bodies\' poses)', () => {
    const sim = createSimulation(articulated(chainRig({ links: 20, length: 0.1, radius: 0.01, angles: [Math.PI / 2] })));
    // 1 s from horizontal (the whip reaches 16 rad/s). Undamped, this chain's whip blows up after 1.9 s at
    // 1/240 under an explicit kick (MuJoCo's Euler matches ours step for step); the world's implicit velocity
    // products hold it 5 s (mujoco.test.ts "20-link whip").
    let worst = 0;
    for (let s = 0; s < 240; s++) {
      sim.step();
      for (const j of sim.jointNames) worst = Math.max(worst, sim.world.getJointError(sim.jointHandle(j)));
    }
    // The tip fell: the chain moved, and its end is still 20 × 0.1 m of links from the pivot at most.
    const tip = sim.bodyPose('link19').position;
    console.log(`20-link chain, 1 s: worst anchor separation ${worst.toExponential(2)} m; tip at (${tip.map((x) => x.toFixed(3)).join(', ')})`);
    expect(worst).toBeLessThan(1e-9);
    expect(Math.hypot(tip[0], tip[1] - 2, tip[2])).toBeLessThanOrEqual(2 + 1e-9);
    expect(tip[1]).toBeLessThan(1.9); // released horizontal at y = 2: it swung down
  });

  it('snapshot / restore reproduces the future bit for bit', () => {
    const sim = createSimulation(articulated(chainRig({ links: 3, angles: [1, 0.4, -0.3], joint: 'ball' })));
    for (let s = 0; s < 50; s++) sim.step();
    const snap = sim.snapshot();
    for (let s = 0; s < 50; s++) sim.step();
    const a = sim.frame();
    sim.restore(snap);
    for (let s = 0; s < 50; s++) sim.step();
    expect(sim.frame()).toEqual(a);
  });

  it('setBodyPose / setBodyVelocity put bodies where asked, in any order (joint coordinates solved parents first)', () => {
    const src = createSimulation(articulated(chainRig({ links: 3, angles: [1, 0.4, -0.3] })));
    for (let s = 0; s < 100; s++) src.step();
    const dst = createSimulation(articulated(chainRig({ links: 3, angles: [1, 0.4, -0.3] })));
    for (const name of ['link2', 'link0', 'link1']) {
      const p = src.bodyPose(name);
      dst.setBodyPose(name, p.position, p.rotation);
      const h = src.bodyHandle(name);
      dst.setBodyVelocity(name, src.world.getLinearVelocity(h), src.world.getAngularVelocity(h));
    }
    for (const name of ['link0', 'link1', 'link2']) {
      const a = src.bodyPose(name), b = dst.bodyPose(name);
      for (let k = 0; k < 3; k++) expect(b.position[k]).toBeCloseTo(a.position[k]!, 9);
      const ha = src.bodyHandle(name), hb = dst.bodyHandle(name);
      for (let k = 0; k < 3; k++) expect(dst.world.getLinearVelocity(hb)[k]).toBeCloseTo(src.world.getLinearVelocity(ha)[k]!, 9);
    }
  });

  it('applyImpulse changes the momentum by the impulse (a free body), and body damping gives the rigid solver\'s 1/(1 + c·h) per step', () => {
    const rig = chainRig({ links: 1, angles: [0], floating: true });
    const r: RigDocument = { ...articulated(rig), joints: [], simulation: { ...rig.simulation, gravity: [0, 0, 0] } };
    const sim = createSimulation(r);
    sim.applyImpulse('base', [2, 0, 0]);
    const v = sim.world.getLinearVelocity(sim.bodyHandle('base'));
    expect(v[0]).toBeCloseTo(2, 12); // 1 kg
    const damped: RigDocument = { ...r, bodies: r.bodies.map((b) => ({ ...b, linearDamping: 0.5 })) };
    const d = createSimulation(damped);
    d.setBodyVelocity('base', [1, 0, 0], [0, 0, 0]);
    d.step();
    expect(d.world.getLinearVelocity(d.bodyHandle('base'))[0]).toBeCloseTo(1 / (1 + 0.5 * d.dt), 12);
  });
});

describe('substeps cut where the mass matrix changes fast (ArticulatedWorld maxMassChange)', () => {
  it('a 20-link whip released horizontal at 1/60 s, 1 substep: uncut, its energy rises by over twice the 392 J released within 5 s; cut (the default 0.3), never 5 % above its start', () => {
    const rig = { ...chainRig({ links: 20, length: 0.1, radius: 0.01, angles: [Math.PI / 2] }), solver: 'articulated' as const };
    rig.simulation = { ...rig.simulation, dt: 1 / 60, substeps: 1 };
    const out: Record<string, { gain: number; loss: number; cut: number; splitSteps: number }> = {};
    for (const maxMassChange of [Infinity, MAX_MASS_CHANGE]) {
      let world: ArticulatedWorld | null = null;
      const sim = createSimulation(rig, { createWorld: (settings) => (world = new ArticulatedWorld(rig, { settings, maxMassChange })) });
      const w = world! as ArticulatedWorld, E0 = w.model.energy().total, swing = 392.4; // 2 kg dropped from horizontal: m·g·L/2
      let gain = 0, loss = 0, cut = 0, splitSteps = 0;
      for (let s = 0; s < 300; s++) {
        sim.step();
        const pieces = w.getStats().splitSubsteps ?? 0;
        cut += pieces; if (pieces > 0) splitSteps++;
        const dE = (w.model.energy().total - E0) / swing;
        gain = Math.max(gain, dE); loss = Math.max(loss, -dE);
      }
      out[String(maxMassChange)] = { gain, loss, cut, splitSteps };
    }
    const uncut = out.Infinity!, cut = out[String(MAX_MASS_CHANGE)]!;
    console.log(`20-link whip, 1/60 s × 1, 5 s: uncut energy up to +${(100 * uncut.gain).toFixed(0)} % / −${(100 * uncut.loss).toFixed(0)} % of the 392 J released; cut at ${MAX_MASS_CHANGE}: +${(100 * cut.gain).toFixed(1)} % / −${(100 * cut.loss).toFixed(1)} %, ${cut.cut} extra pieces in ${cut.splitSteps} of 300 steps`);
    expect(uncut.cut).toBe(0);
    expect(uncut.gain).toBeGreaterThan(2);
    expect(cut.splitSteps).toBeGreaterThan(0);
    expect(cut.gain).toBeLessThan(0.05);
    expect(cut.loss).toBeLessThan(0.3);
  }, 120_000);

  it('snapshot / restore carries the rate that cuts the next substep: the cut whip\'s future bit for bit', () => {
    const rig = { ...chainRig({ links: 20, length: 0.1, radius: 0.01, angles: [Math.PI / 2] }), solver: 'articulated' as const };
    rig.simulation = { ...rig.simulation, dt: 1 / 60, substeps: 1 };
    const sim = createSimulation(rig);
    for (let s = 0; s < 60; s++) sim.step();
    const snap = sim.snapshot();
    let cut = 0;
    for (let s = 0; s < 30; s++) { sim.step(); cut += sim.world.getStats().splitSubsteps ?? 0; }
    const a = sim.frame();
    expect(cut).toBeGreaterThan(0);
    sim.restore(snap);
    for (let s = 0; s < 30; s++) sim.step();
    expect(sim.frame()).toEqual(a);
  });

  it('maxMassChange must be positive', () => {
    const rig = { ...chainRig({ links: 2, angles: [0.5, 0] }), solver: 'articulated' as const };
    expect(() => new ArticulatedWorld(rig, { maxMassChange: 0 })).toThrow(/maxMassChange must be > 0, got 0/);
  });
});

describe('screw, cylindrical and planar joints through the Simulation under the articulated solver', () => {
  const motor = () => ({ mode: 'pd', target: { source: 'animation', clip: 'none' }, maxTorque: 200, errorReduction: 0.5, stiffness: 400, damping: 60, frictionTorque: 0 });
  it('cylindrical: the angle motor and the slide motor reach their targets; getJointSlide reads the slide', () => {
    const rig = pairRig({ frame: FRAME_X_UP, joint: { type: 'cylindrical', motor: motor(), slideMotor: motor() } });
    const sim = createSimulation({ ...rig, solver: 'articulated' });
    const h = sim.jointHandle('pair');
    sim.setMotorTargets({ pair: 0.7 });
    sim.world.setSlideMotorTarget!(h, 0.1);
    for (let s = 0; s < 240; s++) { sim.world.setSlideMotorTarget!(h, 0.1); sim.step(); }
    const angle = sim.world.getJointAngle(h) as number, slide = sim.world.getJointSlide!(h);
    console.log(`articulated cylindrical: angle ${angle.toFixed(5)} rad (target 0.7), slide ${slide[0]!.toFixed(5)} m (target 0.1; gravity along the axis pulls it below: m g / kp = 0.049 m)`);
    expect(angle).toBeCloseTo(0.7, 3);
    // The PD slide settles where kp·(0.1 − x) = m·g: x = 0.1 − 2·9.81/400.
    expect(slide[0]).toBeCloseTo(0.1 - (2 * 9.81) / 400, 3);
    expect(sim.world.getSlideMotorReport!(h).maxTorque).toBe(200);
  });

  it('screw: the body advances pitch × its angle (from the poses, within 1e-9 m)', () => {
    const rig = pairRig({ frame: FRAME_X_UP, joint: { type: 'screw', pitch: 0.05 } });
    const sim = createSimulation({ ...rig, solver: 'articulated' });
    const h = sim.jointHandle('pair');
    let worst = 0;
    for (let s = 0; s < 120; s++) {
      sim.step();
      const angle = sim.world.getJointAngle(h) as number, y = sim.bodyPose('part').position[1];
      worst = Math.max(worst, Math.abs((y - 2) - 0.05 * angle), Math.abs(sim.world.getJointSlide!(h)[0]! - 0.05 * angle));
    }
    expect(sim.world.getJointAngle(h) as number).toBeLessThan(-0.5); // it unscrewed downward
    expect(worst).toBeLessThan(1e-9);
  });
});
