/**
 * MuJoCo (npm mujoco-js, the official WebAssembly build) as a peer of the articulated solver (issue 12):
 * the same rig written as MJCF by shared/export/mjcf.ts, stepped at the same step with the same integrator.
 * With no contacts, limits or actuators MuJoCo's q̈ is M⁻¹(τ − C) exactly as ABA's, so the trajectories
 * differ only by rounding and by MuJoCo's own choices (e.g. armature 0, no joint damping).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fromZUp, writeMjcf } from '../../../../shared/export/mjcf';
import { quatFromAxisAngle, quatMul } from '../../../../shared/math/quat';
import { loadRig, type RigDocument } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';
import { ArticulatedWorld, articulatedFromRig, stepWithDrives } from '../../../../shared/physics/articulated';
import { articulatedBodyPoses } from '../../../../shared/physics/articulated';
import { loadMjcf, OBJ_BODY } from '../../export/mujoco';
import { chainRig } from './rigs';

async function compare(integrator: 'Euler' | 'RK4', ours: 'semi-implicit' | 'rk4', rigAngles: number[]) {
  const dt = 1 / 240;
  const rig = chainRig({ links: 3, angles: rigAngles });
  const { mj, model, data } = await loadMjcf(writeMjcf(rig, { integrator, timestep: dt, lossComment: false }), `the 3-link chain (${integrator})`);
  try {
    expect(model.nq).toBe(3);
    expect(model.opt.timestep).toBeCloseTo(dt, 15);
    const q0 = Array.from(data.qpos); // MuJoCo's hinge values start at ref = the rest angle; ours at 0
    const a = articulatedFromRig(rig, { integrator: ours });
    const joints = ['j0', 'j1', 'j2'].map((n) => a.joints.get(n)!);
    let worst = 0, swing = 0;
    for (let s = 0; s < Math.round(2 / dt); s++) {
      mj.mj_step(model, data);
      a.model.step(dt);
      joints.forEach((j, i) => {
        const theirs = data.qpos[i]! - q0[i]!;
        worst = Math.max(worst, Math.abs(a.model.q[j.qi]! - theirs));
        swing = Math.max(swing, Math.abs(theirs));
      });
    }
    return { worst, swing };
  } finally {
    data.delete(); model.delete();
  }
}

describe('articulated solver against MuJoCo', () => {
  it('3-link hinge chain released at 90°/−30°/45°: joint angles over 2 s within 1e-9 rad (Euler and RK4, dt 1/240)', async () => {
    const angles = [Math.PI / 2, -Math.PI / 6, Math.PI / 4];
    const euler = await compare('Euler', 'semi-implicit', angles);
    const rk4 = await compare('RK4', 'rk4', angles);
    console.log(`MuJoCo 3-link chain, 2 s at 1/240: semi-implicit vs Euler max |Δq| ${euler.worst.toExponential(2)} rad, rk4 vs RK4 ${rk4.worst.toExponential(2)} rad (joint swing up to ${euler.swing.toFixed(2)} rad)`);
    expect(euler.swing).toBeGreaterThan(1); // the chain really moves
    // The brief's bound is 1e-3 rad; measured 5e-15 (Euler) and 1e-14 (RK4): the same q̈ to rounding.
    expect(euler.worst).toBeLessThan(1e-9);
    expect(rk4.worst).toBeLessThan(1e-9);
  }, 60_000);

  it('10-link hinge chain released from horizontal: joint angles over 2 s within 1e-9 rad of MuJoCo (Euler, dt 1/240)', async () => {
    const dt = 1 / 240;
    const rig = chainRig({ links: 10, length: 0.2, radius: 0.02, angles: [Math.PI / 2] });
    const { mj, model, data } = await loadMjcf(writeMjcf(rig, { integrator: 'Euler', timestep: dt, lossComment: false }), 'the 10-link chain');
    try {
      expect(model.nq).toBe(10);
      const q0 = Array.from(data.qpos);
      const a = articulatedFromRig(rig);
      const joints = Array.from({ length: 10 }, (_, i) => a.joints.get(`j${i}`)!);
      let worst = 0, swing = 0;
      for (let s = 0; s < Math.round(2 / dt); s++) {
        mj.mj_step(model, data);
        a.model.step(dt);
        joints.forEach((j, i) => {
          const theirs = data.qpos[i]! - q0[i]!;
          worst = Math.max(worst, Math.abs(a.model.q[j.qi]! - theirs));
          swing = Math.max(swing, Math.abs(theirs));
        });
      }
      console.log(`MuJoCo 10-link chain, 2 s at 1/240: max |Δq| ${worst.toExponential(2)} rad (joint swing up to ${swing.toFixed(2)} rad)`);
      expect(swing).toBeGreaterThan(1);
      expect(worst).toBeLessThan(1e-9);
    } finally {
      data.delete(); model.delete();
    }
  }, 60_000);

  it('a 20-link whip released horizontal at 1/240: MuJoCo (Euler, implicitfast, implicit) and our explicit kick blow up within 5 s; our implicit velocity products (the world\'s default) hold it 20 s and never gain energy', async () => {
    const dt = 1 / 240, BLOWN = 1e5;
    const rig = chainRig({ links: 20, length: 0.1, radius: 0.01, angles: [Math.PI / 2] });
    const blowUps: Record<string, number> = {};
    for (const integrator of ['Euler', 'implicitfast', 'implicit'] as const) {
      const { mj, model, data } = await loadMjcf(writeMjcf(rig, { integrator, timestep: dt, lossComment: false }), `the 20-link whip (${integrator})`);
      try {
        let at = Infinity;
        for (let s = 0; s < Math.round(5 / dt) && at === Infinity; s++) {
          mj.mj_step(model, data);
          // MuJoCo resets a diverging state to the start (its time goes back to 0) with a warning.
          const speed = Math.max(...Array.from(data.qvel, Math.abs));
          if (!(speed < BLOWN) || data.time < (s + 1) * dt - 1e-9) at = (s + 1) * dt;
        }
        blowUps[`MuJoCo ${integrator}`] = at;
      } finally {
        data.delete(); model.delete();
      }
    }
    const ours: Record<string, { at: number; peak: number; gain: number; loss: number }> = {};
    for (const velocityProducts of ['explicit', 'implicit'] as const) {
      const a = articulatedFromRig(rig), E0 = a.model.energy().total;
      let at = Infinity, peak = 0, gain = 0, loss = 0;
      for (let s = 0; s < Math.round((velocityProducts === 'implicit' ? 20 : 5) / dt) && at === Infinity; s++) {
        stepWithDrives(a.model, [], dt, { integrator: 'verlet', velocityProducts });
        const speed = Math.max(...Array.from(a.model.qd, Math.abs));
        if (!(speed < BLOWN)) { at = (s + 1) * dt; continue; }
        const dE = (a.model.energy().total - E0) / E0;
        peak = Math.max(peak, speed); gain = Math.max(gain, dE); loss = Math.max(loss, -dE);
      }
      ours[velocityProducts] = { at, peak, gain, loss };
      blowUps[`ours ${velocityProducts}`] = at;
    }
    const o = ours.implicit!;
    console.log(`20-link whip, 1/240 s, past ${BLOWN} rad/s at: ${Object.entries(blowUps).map(([k, v]) => `${k} ${Number.isFinite(v) ? `${v.toFixed(2)} s` : 'never'}`).join(', ')}; ours implicit over 20 s: fastest joint ${o.peak.toFixed(0)} rad/s, energy at most ${(100 * o.gain).toFixed(2)} % above its start and ${(100 * o.loss).toFixed(1)} % below (of the 392 J released)`);
    // The scene is hard: every explicit kick, and MuJoCo's implicit one (on ∂c/∂q̇), blow up.
    for (const k of ['MuJoCo Euler', 'MuJoCo implicitfast', 'MuJoCo implicit', 'ours explicit']) expect(blowUps[k]).toBeLessThan(5);
    expect(o.at).toBe(Infinity);
    expect(o.peak).toBeLessThan(1000);
    expect(o.gain).toBeLessThan(0.05); // it never gains energy (the whip's cracks lose some: o.loss)
  }, 180_000);

  it('3-link ball chain out of the plane: body origins over 2 s within 1e-9 m of MuJoCo\'s (Euler, dt 1/240)', async () => {
    const dt = 1 / 240;
    const rig = chainRig({ links: 3, joint: 'ball', angles: [1.0, -0.5, 0.8], tilts: [0.4, 0.3, -0.6] });
    const { mj, model, data } = await loadMjcf(writeMjcf(rig, { integrator: 'Euler', timestep: dt, lossComment: false }), 'the ball chain');
    try {
      expect(model.nq).toBe(12);
      const ids = [0, 1, 2].map((i) => mj.mj_name2id(model, OBJ_BODY, `link${i}`));
      const a = articulatedFromRig(rig);
      let worst = 0, travel = 0;
      const start = articulatedBodyPoses(a).get('link2')!.position;
      for (let s = 0; s < Math.round(2 / dt); s++) {
        mj.mj_step(model, data);
        mj.mj_forward(model, data);
        a.model.step(dt);
        const poses = articulatedBodyPoses(a);
        ids.forEach((id, i) => {
          const p = poses.get(`link${i}`)!.position;
          // MJCF world = ours turned by (x, y, z) → (z, x, y).
          const t = [data.xpos[id * 3]!, data.xpos[id * 3 + 1]!, data.xpos[id * 3 + 2]!];
          worst = Math.max(worst, Math.hypot(t[0]! - p[2], t[1]! - p[0], t[2]! - p[1]));
        });
        const p2 = poses.get('link2')!.position;
        travel = Math.max(travel, Math.hypot(p2[0] - start[0], p2[1] - start[1], p2[2] - start[2]));
      }
      console.log(`MuJoCo 3-link ball chain, 2 s at 1/240: max body-origin distance ${worst.toExponential(2)} m (link2 travels up to ${travel.toFixed(2)} m)`);
      expect(travel).toBeGreaterThan(0.5);
      expect(worst).toBeLessThan(1e-9);
    } finally {
      data.delete(); model.delete();
    }
  }, 60_000);

  it('floating 3-body chain (free root) tumbling in gravity: body origins over 2 s within 1e-9 m of MuJoCo (Euler and RK4)', async () => {
    const dt = 1 / 240;
    const rig = chainRig({ links: 2, floating: true, angles: [0.9, -0.6], tilts: [0.3, 0] });
    for (const [theirs, ours] of [['Euler', 'semi-implicit'], ['RK4', 'rk4']] as const) {
      const { mj, model, data } = await loadMjcf(writeMjcf(rig, { integrator: theirs, timestep: dt, lossComment: false }), `the floating chain (${theirs})`);
      try {
        expect(model.nq).toBe(9);
        const a = articulatedFromRig(rig, { integrator: ours });
        // The same start in both: our free joint's q̇ is MuJoCo's (world linear velocity, then the angular
        // velocity in the root's frame): origin at rest, spin ω = (1, −2, 3), hinge rates 2 and −1.5 rad/s.
        const w = [1, -2, 3];
        data.qvel.set([0, 0, 0, ...w, 2, -1.5]);
        a.model.qd.set([0, 0, 0, ...w, 2, -1.5]);
        const names = ['base', 'link0', 'link1'], ids = names.map((n) => mj.mj_name2id(model, OBJ_BODY, n));
        let worst = 0, travel = 0;
        for (let s = 0; s < Math.round(2 / dt); s++) {
          mj.mj_step(model, data);
          mj.mj_forward(model, data);
          a.model.step(dt);
          const poses = articulatedBodyPoses(a);
          ids.forEach((id, i) => {
            const p = poses.get(names[i]!)!.position;
            const t = [data.xpos[id * 3]!, data.xpos[id * 3 + 1]!, data.xpos[id * 3 + 2]!];
            worst = Math.max(worst, Math.hypot(t[0]! - p[2], t[1]! - p[0], t[2]! - p[1]));
          });
          travel = Math.max(travel, Math.hypot(...poses.get('base')!.position.map((x, k) => x - [0, 2, 0][k]!)));
        }
        console.log(`MuJoCo floating chain (${theirs}), 2 s at 1/240: max body-origin distance ${worst.toExponential(2)} m (root falls ${travel.toFixed(2)} m)`);
        expect(travel).toBeGreaterThan(15);
        expect(worst).toBeLessThan(1e-9);
      } finally {
        data.delete(); model.delete();
      }
    }
  }, 60_000);

  it('a ragdoll (the shipped humanoid, limp) dropped on the ground: free fall to 1e-9 m, then body positions within 5 cm of MuJoCo over 2 s (dt/8 = 1/480 s)', async () => {
    // The humanoid lying almost flat (turned 0.2 rad short of face-up), pelvis 0.6 m up, motors off, no body
    // damping (MJCF has none), 8 substeps: MuJoCo's Euler at timestep 1/480 against our world at h = 1/480,
    // the whole Simulation (ground contact, limits) against MuJoCo's whole pipeline.
    // Tolerance: until the first contact both are the ABA's q̈, and agree to rounding. From the impact on
    // they model different things: MuJoCo's contacts are soft (solref 0.02 s, landing at √(2g·0.47) ≈ 3 m/s:
    // a penetration scale of v·τ ≈ 6 cm; its pelvis sinks 3.7 cm deeper for a moment), it touches a capsule with 1–2 points where we use probes, its
    // pyramidal cone and its ball joints without a twist limit (the MJCF writer's listed losses) let the
    // limbs settle a little elsewhere. Lying down the ragdoll is stable, so those differences stay the
    // size of the contact compliance: 2–3 cm, measured, and the resting pelvis heights agree to 0.5 mm.
    const path = fileURLToPath(new URL('../../../../assets/creatures/humanoid.rig.json', import.meta.url));
    const base = loadRig(JSON.parse(readFileSync(path, 'utf8')));
    const rig: RigDocument = {
      ...base, solver: 'articulated',
      skeleton: { bones: base.skeleton.bones.map((b) => (b.parent !== null ? b : {
        ...b, rest: { ...b.rest, translation: [b.rest.translation[0], 0.6, b.rest.translation[2]], rotation: quatMul(quatFromAxisAngle([1, 0, 0], -Math.PI / 2 + 0.2), b.rest.rotation) },
      })) },
      bodies: base.bodies.map((b) => ({ ...b, linearDamping: 0, angularDamping: 0 })),
      joints: base.joints.map((j) => (j.type === 'fixed' ? j : { ...j, motor: { ...j.motor, mode: 'off', frictionTorque: 0 } })),
      simulation: { ...base.simulation, substeps: 8 },
    };
    // The world's semi-implicit Euler (MuJoCo's Euler) rather than its default drift-kick-drift step.
    const sim = createSimulation(rig, { createWorld: (settings) => new ArticulatedWorld(rig, { settings, integrator: 'euler' }) });
    const { mj, model, data } = await loadMjcf(writeMjcf(rig, { integrator: 'Euler', lossComment: false }), 'the humanoid ragdoll');
    try {
      expect(model.opt.timestep).toBeCloseTo(rig.simulation.dt / 8, 15);
      const ids = sim.bodyNames.map((n) => mj.mj_name2id(model, OBJ_BODY, n));
      const pelvis = sim.bodyNames.indexOf('pelvis');
      let freeFall = 0, worst = 0, worstPelvis = 0, touched = false, freeSteps = 0;
      const y0 = sim.bodyPose('pelvis').position[1];
      let endOurs = 0, endTheirs = 0;
      for (let s = 0; s < Math.round(2 / rig.simulation.dt); s++) {
        sim.step();
        for (let k = 0; k < 8; k++) mj.mj_step(model, data);
        mj.mj_forward(model, data);
        touched ||= sim.world.getContacts().some((c) => c.depth > -1e-3) || (data as unknown as { ncon: number }).ncon > 0;
        let d = 0;
        sim.bodyNames.forEach((n, i) => {
          const p = sim.bodyPose(n).position, id = ids[i]!;
          const t = fromZUp([data.xpos[3 * id]!, data.xpos[3 * id + 1]!, data.xpos[3 * id + 2]!]);
          d = Math.max(d, Math.hypot(t[0] - p[0], t[1] - p[1], t[2] - p[2]));
          if (i === pelvis) { endOurs = p[1]; endTheirs = t[1]; worstPelvis = Math.max(worstPelvis, Math.abs(t[1] - p[1])); }
        });
        if (!touched) { freeFall = Math.max(freeFall, d); freeSteps++; }
        worst = Math.max(worst, d);
      }
      console.log(`MuJoCo ragdoll drop (humanoid, 13 bodies, h 1/480): free fall (${freeSteps} steps) within ${freeFall.toExponential(2)} m; over 2 s worst body distance ${worst.toExponential(2)} m, pelvis height ${worstPelvis.toExponential(2)} m; resting pelvis ${endOurs.toFixed(4)} vs ${endTheirs.toFixed(4)} m (from ${y0} m)`);
      expect(freeSteps).toBeGreaterThan(10);
      expect(freeFall).toBeLessThan(1e-9);
      expect(worst).toBeLessThan(0.05);
      expect(worstPelvis).toBeLessThan(0.05);
      expect(Math.abs(endOurs - endTheirs)).toBeLessThan(2e-3);
      expect(endOurs).toBeLessThan(0.2); // it fell and lies on the ground
    } finally {
      data.delete(); model.delete();
    }
  }, 120_000);
});
