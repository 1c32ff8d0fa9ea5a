/**
 * The shipped creatures under the articulated solver, through the runtime exactly as under the rigid one
 * (issue 12 "How it is checked"): the Armed Mine's gait controller drives the motor targets unchanged and
 * crawls toward a target; the humanoid stands powered and falls limp.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headingYaw, yawDirection } from '../../../../shared/gait/steering';
import { loadRig, type RigDocument } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';
import { ArticulatedWorld } from '../../../../shared/physics/articulated';
import { registerCyclicPathController } from '../../../../shared/gait/register';
import { distanceTo, jointReport, loadArmedMine, mineSimulation } from '../../scenarios/armedMineWorld';

const HUMANOID = fileURLToPath(new URL('../../../../assets/creatures/humanoid.rig.json', import.meta.url));
const HEXAPOD = fileURLToPath(new URL('../../../../assets/creatures/hexapod.rig.json', import.meta.url));
const articulated = (rig: RigDocument): RigDocument => ({ ...rig, solver: 'articulated' });

describe('shipped creatures under the articulated solver', () => {
  it('the Armed Mine crawls ≥ 2 m toward a target 5 m ahead in 20 s, never over a torque limit', () => {
    const m = mineSimulation(articulated(loadArmedMine()));
    expect(m.sim.world).toBeInstanceOf(ArticulatedWorld);
    const start = m.sim.bodyPose('body');
    const ahead = yawDirection(headingYaw(start.rotation));
    const target: [number, number, number] = [start.position[0] + 5 * ahead[0], 0, start.position[2] + 5 * ahead[2]];
    m.sim.setTarget(target);
    const d0 = distanceTo(m, target);
    let over: string | null = null, maxError = 0, contactsSeen = 0, selfContacts = 0, maxRatio = 0;
    const steps = Math.round(20 / m.sim.dt);
    for (let s = 0; s < steps; s++) {
      m.sim.step();
      expect(m.sim.blowUp).toBeNull();
      const r = jointReport(m);
      over ??= r.overLimit;
      maxError = Math.max(maxError, r.maxError);
      for (const j of Object.values(m.sim.frame().joints)) if (j.maxTorque > 0) maxRatio = Math.max(maxRatio, j.torque / j.maxTorque);
      const contacts = m.sim.world.getContacts();
      contactsSeen += contacts.length;
      selfContacts += contacts.filter((c) => c.bodyB !== null).length;
    }
    const gained = d0 - distanceTo(m, target);
    const end = m.sim.bodyPose('body').position;
    console.log(`Armed Mine, articulated, 20 s: ${gained.toFixed(3)} m closer to the target (distance ${d0.toFixed(2)} → ${distanceTo(m, target).toFixed(2)} m; body at ${end.map((x) => x.toFixed(2)).join(', ')}), largest torque/τmax ${maxRatio.toFixed(4)}, joint error ${maxError.toExponential(2)} m, contact rows seen ${contactsSeen} (${selfContacts} between bodies)`);
    expect(over).toBeNull();
    expect(maxError).toBeLessThan(1e-6);
    expect(gained).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it('the shipped humanoid stands 5 s powered, then falls cleanly limp (no blow-up, settles on the ground, nothing below it)', () => {
    const rig = articulated(loadRig(JSON.parse(readFileSync(HUMANOID, 'utf8'))));
    const sim = createSimulation(rig);
    const root = sim.bodyNames.find((n) => n === 'pelvis') ?? sim.bodyNames[0]!;
    const rest = sim.bodyPose(root).position[1];
    let lowestStanding = Infinity;
    for (let s = 0; s < Math.round(5 / sim.dt); s++) {
      sim.step();
      expect(sim.blowUp).toBeNull();
      lowestStanding = Math.min(lowestStanding, sim.bodyPose(root).position[1]);
    }
    sim.setMotorsEnabled(false);
    let deepest = Infinity;
    const limpSteps = Math.round(5 / sim.dt);
    for (let s = 0; s < limpSteps; s++) {
      sim.step();
      expect(sim.blowUp).toBeNull();
      for (const c of sim.world.getContacts()) if (c.bodyB === null) deepest = Math.min(deepest, -c.depth);
    }
    const fallen = sim.bodyPose(root).position[1];
    const speed = Math.max(...sim.bodyNames.map((n) => Math.hypot(...sim.world.getLinearVelocity(sim.bodyHandle(n)))));
    console.log(`humanoid, articulated: root ${rest.toFixed(3)} m at rest, lowest ${lowestStanding.toFixed(3)} m over 5 s powered; limp: root at ${fallen.toFixed(3)} m after 5 s, deepest ground gap ${deepest.toExponential(2)} m, fastest body ${speed.toExponential(2)} m/s`);
    expect(lowestStanding).toBeGreaterThan(rest - 0.05);
    expect(fallen).toBeLessThan(0.4 * rest);
    expect(deepest).toBeGreaterThan(-0.01);
    expect(speed).toBeLessThan(0.1);
  }, 180_000);

  it('the Hexapod (six legs, one gait group) walks toward a target 8 m ahead under the articulated solver as under the rigid one', () => {
    const unregister = registerCyclicPathController();
    try {
      const rig = loadRig(JSON.parse(readFileSync(HEXAPOD, 'utf8')));
      const walked = (solver: 'rigid' | 'articulated') => {
        const sim = createSimulation(rig, { solver });
        const root = rig.controllers[0]!.root, p0 = sim.bodyPose(root).position;
        sim.setTarget([p0[0], 0, p0[2] + 8]);
        let over = 0;
        for (let s = 0; s < Math.round(10 / sim.dt); s++) {
          sim.step();
          expect(sim.blowUp).toBeNull();
          for (const j of Object.values(sim.frame().joints)) if (j.torque > j.maxTorque * (1 + 1e-9) + 1e-9) over++;
        }
        const p = sim.bodyPose(root).position;
        return { forward: p[2] - p0[2], over };
      };
      const rigid = walked('rigid'), art = walked('articulated');
      console.log(`Hexapod, 10 s toward a target 8 m ahead: rigid ${rigid.forward.toFixed(3)} m, articulated ${art.forward.toFixed(3)} m (torque over its limit: ${art.over} joint-steps)`);
      expect(art.over).toBe(0);
      expect(art.forward).toBeGreaterThan(0.7 * rigid.forward);
    } finally {
      unregister();
    }
  }, 300_000);
});
