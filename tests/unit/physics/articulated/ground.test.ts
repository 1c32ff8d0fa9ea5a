/** Ground contact rows in the articulated solver (issue 12): a dropped ball comes to rest on the plane, a
 *  sliding box stops after v²/(2μg), the shipped humanoid falls limp onto the ground and stays above it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ArticulatedModel, articulatedBodyPoses, articulatedFromRig, drivesFromRig, groundFromRig, pluckerFromPose, spatialInertia, stepWithDrives, type GroundProbe,
} from '../../../../shared/physics/articulated';
import { loadRig } from '../../../../shared/rig';
import { repo } from '../../rig/corpus';

const h = 1 / 240;
const freeBody = (mass: number, Ic: number[]) => new ArticulatedModel([{ name: 'b', jointName: 'root', parent: -1, joint: 'free', Xtree: pluckerFromPose([0, 0, 0], [0, 0, 0, 1]), XB: pluckerFromPose([0, 0, 0], [0, 0, 0, 1]), inertia: spatialInertia(mass, [0, 0, 0], Ic) }]);

describe('articulated ground contact', () => {
  it('a ball dropped from 1 m comes to rest on the ground at its radius', () => {
    const m = freeBody(1, [0.004, 0, 0, 0, 0.004, 0, 0, 0, 0.004]);
    m.q.set([0, 1, 0], 0);
    const ground = { height: 0, friction: 0.5, probes: [{ body: 0, point: [0, 0, 0] as const, radius: 0.1 }] };
    let lowest = Infinity;
    for (let s = 0; s < 480; s++) { stepWithDrives(m, [], h, { ground }); lowest = Math.min(lowest, m.q[1]!); }
    expect(lowest).toBeGreaterThan(0.1 - 1e-3);
    expect(Math.abs(m.q[1]! - 0.1)).toBeLessThan(1e-3);
    expect(Math.hypot(m.qd[0]!, m.qd[1]!, m.qd[2]!)).toBeLessThan(1e-6);
  });

  it('a box sliding at 3 m/s with μ = 0.5 stops after v²/(2μg) = 0.917 m', () => {
    const a = 0.1, mass = 1, I = (mass * (a * a + a * a)) / 3;
    const m = freeBody(mass, [I, 0, 0, 0, I, 0, 0, 0, I]);
    m.q.set([0, a, 0], 0);
    m.qd.set([3, 0, 0], 0);
    const probes: GroundProbe[] = [];
    for (const x of [-a, a]) for (const y of [-a, a]) for (const z of [-a, a]) probes.push({ body: 0, point: [x, y, z], radius: 0 });
    for (let s = 0; s < 480; s++) stepWithDrives(m, [], h, { ground: { height: 0, friction: 0.5, probes } });
    const expected = 9 / (2 * 0.5 * 9.81);
    console.log(`sliding box: stopped after ${m.q[0]!.toFixed(4)} m (analytic ${expected.toFixed(4)} m), height ${m.q[1]!.toFixed(5)} m`);
    expect(Math.abs(m.q[0]! / expected - 1)).toBeLessThan(0.02);
    expect(Math.abs(m.qd[0]!)).toBeLessThan(1e-6);
    expect(Math.abs(m.q[1]! - a)).toBeLessThan(1e-3);
  });

  it('the shipped humanoid: limp, it falls onto the ground and settles on it; powered, it stands 5 s', () => {
    const rig = loadRig(JSON.parse(readFileSync(`${repo}assets/creatures/humanoid.rig.json`, 'utf8')));
    const results: string[] = [];
    for (const powered of [false, true]) {
      const a = articulatedFromRig(rig);
      const { drives } = drivesFromRig(rig, a);
      const ground = groundFromRig(rig, a)!;
      expect(ground.probes.length).toBeGreaterThan(20);
      const rootName = rig.bodies.find((b) => b.type === 'dynamic')!.name;
      const start = articulatedBodyPoses(a).get(rootName)!.position[1];
      const used = powered ? drives : drives.map((d) => ({ ...d, mode: 'off' as const }));
      const hh = rig.simulation.dt / rig.simulation.substeps;
      let deepest = 0;
      const steps = Math.round(5 / hh);
      for (let s = 0; s < steps; s++) {
        stepWithDrives(a.model, used, hh, { ground });
        if (s % 10 !== 0 && s !== steps - 1) continue;
        const poses = a.model.poses();
        for (const p of ground.probes) {
          const X = poses[p.body]!, R = X.R, q = p.point;
          const y = X.position[1] + R[3]! * q[0] + R[4]! * q[1] + R[5]! * q[2];
          deepest = Math.min(deepest, y - p.radius - ground.height);
        }
      }
      const speed = Math.max(...Array.from(a.model.qd, Math.abs));
      const root = articulatedBodyPoses(a).get(rootName)!.position[1];
      results.push(`${powered ? 'powered' : 'limp'}: deepest probe ${deepest.toExponential(2)} m, root height ${root.toFixed(3)} m (rest ${start.toFixed(3)} m), largest |q̇| at 5 s ${speed.toExponential(2)}`);
      expect(Array.from(a.model.q).every(Number.isFinite)).toBe(true);
      expect(deepest).toBeGreaterThan(-0.01);
      if (!powered) { expect(speed).toBeLessThan(0.5); expect(root).toBeLessThan(start - 0.5); }
      else { expect(Math.abs(root - start)).toBeLessThan(0.05); expect(speed).toBeLessThan(1e-2); }
    }
    console.log(`humanoid on the ground, 5 s: ${results.join('; ')}`);
  }, 60_000);
});
