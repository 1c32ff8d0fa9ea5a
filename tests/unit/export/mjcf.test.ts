import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildMjcf, num, writeMjcf } from '../../../shared/export/mjcf';
import { bodyMassProperties } from '../../../shared/export/rig';
import { createSimulation, loadRig, type RigDocument } from '../../../shared/index';
import { shippedRigs } from '../rig/corpus';
import { loadMjcf } from './mujoco';
import { leverRig, pendulumRig, twoBodyRig } from './testRigs';

/** Principal-moment invariants of a symmetric 3×3 (row-major): trace, sum of 2×2 minors, determinant. */
function invariants(I: readonly number[]): [number, number, number] {
  const [a, b, c, , e, f, , , i] = I as number[];
  const d = I[3]!, g = I[6]!, hh = I[7]!;
  return [a + e + i, a * e - b * d + a * i - c * g + e * i - f * hh, a * (e * i - f * hh) - b * (d * i - f * g) + c * (d * hh - e * g)];
}

const motorisedDofs = (rig: RigDocument) => rig.joints.reduce((n, j) => n + (j.type !== 'fixed' && j.motor.mode !== 'off' && j.motor.maxTorque > 0 ? (j.type === 'ball' ? 3 : 1) : 0), 0);

describe('MJCF export, loaded by MuJoCo (mujoco-js)', () => {
  for (const path of shippedRigs()) {
    it(`${path.split('/').slice(-2).join('/')}: one body per body, the joints, one actuator per motorised DOF, exact mass and inertia, 2 s finite`, async () => {
      const rig = loadRig(readFileSync(path, 'utf8'), { source: path });
      const { mj, model, data } = await loadMjcf(writeMjcf(rig), path);
      expect(model.nbody).toBe(rig.bodies.length + 1); // + MuJoCo's world body
      const parents = new Set(rig.joints.map((j) => j.bodyB));
      const roots = rig.bodies.filter((b) => !parents.has(b.name) && b.type === 'dynamic').length;
      expect(model.njnt).toBe(rig.joints.filter((j) => j.type !== 'fixed').length + roots);
      expect(model.nu).toBe(motorisedDofs(rig));
      expect(model.nu).toBeGreaterThan(0);
      for (const b of rig.bodies) {
        const id = mj.mj_name2id(model, 1, b.name);
        expect(id, b.name).toBeGreaterThan(0);
        const mp = bodyMassProperties(b);
        expect(Math.abs(model.body_mass[id]! - mp.mass) / mp.mass).toBeLessThan(1e-9);
        // MuJoCo stores the principal moments; compare the tensor's invariants (rotation-free).
        const p = [model.body_inertia[3 * id]!, model.body_inertia[3 * id + 1]!, model.body_inertia[3 * id + 2]!];
        const ours = invariants(mp.inertia);
        const theirs = invariants([p[0]!, 0, 0, 0, p[1]!, 0, 0, 0, p[2]!]);
        for (let k = 0; k < 3; k++) expect(Math.abs(theirs[k]! - ours[k]!) / Math.abs(ours[k]!), `${b.name} invariant ${k}`).toBeLessThan(1e-6);
      }
      const steps = Math.round(2 / model.opt.timestep);
      for (let i = 0; i < steps; i++) mj.mj_step(model, data);
      expect(data.time).toBeCloseTo(2, 2);
      expect(Array.from(data.qpos).every(Number.isFinite)).toBe(true);
      expect(Array.from(data.qvel).every(Number.isFinite)).toBe(true);
      model.delete(); data.delete();
    });
  }

  it('writes every shape type as a native geom and the losses as a leading comment', () => {
    const rig = leverRig(10);
    const shapes = [
      { type: 'sphere', position: [0.1, 0, 0], rotation: [0, 0, 0, 1], radius: 0.05, hollow: false },
      { type: 'box', position: [0.2, 0, 0], rotation: [0, 0, 0, 1], halfExtents: [0.05, 0.02, 0.03] },
      { type: 'cylinder', position: [0.3, 0, 0], rotation: [0, 0, 0, 1], radius: 0.03, halfHeight: 0.05, axis: 'x', hollow: true },
      { type: 'ellipsoid', position: [0.4, 0, 0], rotation: [0, 0, 0, 1], radii: [0.05, 0.03, 0.02] },
    ];
    const all = loadRig({ ...rig, bodies: rig.bodies.map((b) => (b.name === 'link' ? { ...b, shapes: [...b.shapes, ...shapes] } : b)) });
    const xml = writeMjcf(all);
    expect(xml.startsWith('<!--')).toBe(true);
    expect(xml).toMatch(/Lost:/);
    for (const t of ['sphere', 'box', 'cylinder', 'ellipsoid', 'capsule']) expect(xml).toContain(`type="${t}"`);
    expect(xml).toContain('size="0.05 0.03 0.02"'); // the ellipsoid's radii, native
  });

  it('a pendulum swings with the same period in MuJoCo as in Marionette (within 1 %)', async () => {
    const amplitude = 0.3;
    const rig = pendulumRig(amplitude, 4);
    const periodOf = (t: number[], theta: number[]) => {
      const ups: number[] = [];
      for (let i = 1; i < theta.length; i++) if (theta[i - 1]! < 0 && theta[i]! >= 0) ups.push(t[i - 1]! + ((t[i]! - t[i - 1]!) * -theta[i - 1]!) / (theta[i]! - theta[i - 1]!));
      expect(ups.length).toBeGreaterThanOrEqual(3);
      return (ups[ups.length - 1]! - ups[0]!) / (ups.length - 1);
    };
    const sim = createSimulation(rig);
    const tm: number[] = [], am: number[] = [];
    for (let i = 0; i < 6 / rig.simulation.dt; i++) {
      sim.step();
      const q = sim.bodyPose('link').rotation;
      tm.push(sim.time); am.push(2 * Math.atan2(q[2], q[3]));
    }
    const { mj, model, data } = await loadMjcf(writeMjcf(rig), 'the pendulum');
    expect(data.qpos[0]).toBeCloseTo(amplitude, 12); // ref = the rest angle: MuJoCo's hinge value is ours
    const tj: number[] = [], aj: number[] = [];
    while (data.time < 6) { mj.mj_step(model, data); tj.push(data.time); aj.push(data.qpos[0]!); }
    const ours = periodOf(tm, am), theirs = periodOf(tj, aj);
    const mp = bodyMassProperties(rig.bodies[1]!);
    const Ipivot = mp.inertia[8]! + mp.mass * 0.25; // about the pivot, world Z
    const small = 2 * Math.PI * Math.sqrt(Ipivot / (mp.mass * 9.81 * 0.5));
    const analytic = small * (1 + amplitude ** 2 / 16 + (11 * amplitude ** 4) / 3072);
    console.log(`pendulum period: Marionette ${ours.toFixed(4)} s, MuJoCo ${theirs.toFixed(4)} s, analytic ${analytic.toFixed(4)} s (rel. diff ${((theirs / ours - 1) * 100).toFixed(3)} %)`);
    expect(Math.abs(theirs / ours - 1)).toBeLessThan(0.01);
    expect(Math.abs(theirs / analytic - 1)).toBeLessThan(0.01);
    model.delete(); data.delete();
  });

  it('the torque limit survives: a PD lever at 1.2 × its gravity torque holds in both engines, at 0.8 × it sags in both', async () => {
    const probe = leverRig(1);
    const mp = bodyMassProperties(probe.bodies[1]!);
    const gravityTorque = mp.mass * 9.81 * 0.5;
    const results: Record<string, number> = {};
    for (const factor of [1.2, 0.8]) {
      const rig = leverRig(factor * gravityTorque);
      const sim = createSimulation(rig);
      // The lowest the lever gets in 2 s (a sagging lever swings down and back like a pendulum).
      let ours = 0;
      for (let i = 0; i < 2 / rig.simulation.dt; i++) {
        sim.step();
        const q = sim.bodyPose('link').rotation;
        ours = Math.min(ours, 2 * Math.atan2(q[2], q[3]));
      }
      const model = buildMjcf(rig);
      expect(model.actuators).toHaveLength(1);
      expect(model.actuators[0]!.forceLimit).toBeCloseTo(factor * gravityTorque, 12);
      const { mj, model: m, data } = await loadMjcf(writeMjcf(rig), `the lever at ${factor}×`);
      let theirs = 0;
      while (data.time < 2) { mj.mj_step(m, data); theirs = Math.min(theirs, data.qpos[0]!); }
      expect(Math.abs(theirs - ours)).toBeLessThan(0.05); // the same lowest angle within 0.05 rad
      results[`marionette ${factor}`] = ours; results[`mujoco ${factor}`] = theirs;
      if (factor > 1) {
        expect(ours).toBeGreaterThan(-0.05);
        expect(theirs).toBeGreaterThan(-0.05);
      } else {
        expect(ours).toBeLessThan(-0.5);
        expect(theirs).toBeLessThan(-0.5);
      }
      m.delete(); data.delete();
    }
    console.log(`lowest lever angle in 2 s (rad, gravity torque ${gravityTorque.toFixed(2)} N·m): ${JSON.stringify(results)}`);
  });

  it('velocity motors and joint friction: a velocity drive spins the lever at its target in both engines; friction above the gravity torque holds it, below lets it sag', async () => {
    // Velocity: gravity off, target 1.5 rad/s, a torque limit far above what the inertia needs.
    const spin = loadRig({ ...twoBodyRig({ name: 'spin', angle: 0, shapeAxis: 'x', centre: [0.5, 0, 0], motor: { mode: 'velocity', maxTorque: 200, target: { source: 'rest', velocity: 1.5 } } }), simulation: { ...leverRig(1).simulation, gravity: [0, 0, 0] } });
    const xml = writeMjcf(spin);
    expect(xml).toMatch(/<velocity name="pivot" joint="pivot" kv="[\d.e+-]+" forcerange="-200 200"\/>/);
    expect(xml).toMatch(/<key name="rest" ctrl="1.5"\/>/);
    const sim = createSimulation(spin);
    let prev = 0, ours = 0;
    for (let i = 0; i < 60; i++) { sim.step(); const q = sim.bodyPose('link').rotation; const a = 2 * Math.atan2(q[2], q[3]); ours = (a - prev) / spin.simulation.dt; prev = a; }
    const { mj, model, data } = await loadMjcf(xml, 'the velocity lever');
    mj.mj_resetDataKeyframe(model, data, 0);
    while (data.time < 1) mj.mj_step(model, data);
    console.log(`velocity drive after 1 s (rad/s, target 1.5): Marionette ${ours.toFixed(4)}, MuJoCo ${data.qvel[0]!.toFixed(4)}`);
    expect(Math.abs(ours - 1.5)).toBeLessThan(0.03);
    expect(Math.abs(data.qvel[0]! - 1.5)).toBeLessThan(0.03);
    model.delete(); data.delete();

    // Friction (mode off): 1.5 × the gravity torque holds the lever, 0.5 × does not.
    const gravityTorque = bodyMassProperties(leverRig(1).bodies[1]!).mass * 9.81 * 0.5;
    for (const factor of [1.5, 0.5]) {
      const rig = twoBodyRig({ name: 'friction', angle: 0, shapeAxis: 'x', centre: [0.5, 0, 0], motor: { mode: 'off', frictionTorque: factor * gravityTorque } });
      const text = writeMjcf(rig);
      expect(text).toContain(`frictionloss="${num(factor * gravityTorque)}"`);
      const s2 = createSimulation(rig);
      let lowOurs = 0;
      for (let i = 0; i < 60; i++) { s2.step(); const q = s2.bodyPose('link').rotation; lowOurs = Math.min(lowOurs, 2 * Math.atan2(q[2], q[3])); }
      const { mj: m2, model: fm, data: fd } = await loadMjcf(text, `the friction lever at ${factor}×`);
      let lowTheirs = 0;
      while (fd.time < 1) { m2.mj_step(fm, fd); lowTheirs = Math.min(lowTheirs, fd.qpos[0]!); }
      console.log(`friction ${factor} × gravity torque, lowest angle in 1 s: Marionette ${lowOurs.toFixed(4)}, MuJoCo ${lowTheirs.toFixed(4)}`);
      if (factor > 1) { expect(lowOurs).toBeGreaterThan(-0.05); expect(lowTheirs).toBeGreaterThan(-0.05); }
      else { expect(lowOurs).toBeLessThan(-0.5); expect(lowTheirs).toBeLessThan(-0.5); }
      fm.delete(); fd.delete();
    }
  });
});
