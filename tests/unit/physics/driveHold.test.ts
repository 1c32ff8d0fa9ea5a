/**
 * A drive that held its target holds in the position projection too (ballJoint.ts holdBallDrive, docs/physics.md
 * "A holding drive holds in the projection"). The fixture is stress case 1004948 of seed 1 reduced to three
 * bodies: a kinematic body, a free hinge to a 4 kg sphere, and a ball position drive (τmax 66,613 N·m, r 0.92)
 * from the sphere to a 32 kg box whose centroid sits 0.25 m off the anchor; zero gravity, everything at rest at
 * the drive's target, 8 substeps, 8 velocity and 4 position iterations. Nothing should move. Without the hold
 * the projection turned the light sphere alone to close the hinge's unconverged drift, the drive's error took
 * that turn, its next r·C/h spun both bodies to undo it, and from 1e-14 rad/s the rig grew ×2.5 a step to
 * 190 rad/s in 1 s (only ≥ 50 velocity iterations, or no projection at all, kept it still).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { quatConj, quatFromAxisAngle, quatMul, type Quat } from '../../../shared/math/quat';
import { validateRig, type RigDocument } from '../../../shared/rig';
import { createSimulation } from '../../../shared/runtime';

const fixture = new URL('../../fixtures/stress/drive-hold.rig.json', import.meta.url);
const load = (): RigDocument => JSON.parse(readFileSync(fixture, 'utf8')) as RigDocument;

function run(rig: RigDocument, seconds: number, onStep?: (sim: ReturnType<typeof createSimulation>, step: number) => void) {
  const v = validateRig(rig);
  if (!v.ok) throw new Error(`fixture refused: ${JSON.stringify(v.problems[0])}`);
  const sim = createSimulation(v.rig);
  let peakW = 0, peakTorque = 0;
  const steps = Math.round(seconds / v.rig.simulation.dt);
  for (let s = 0; s < steps; s++) {
    onStep?.(sim, s);
    sim.step();
    const f = sim.frame();
    for (const b of Object.values(f.bodies)) peakW = Math.max(peakW, Math.hypot(...b.w));
    peakTorque = Math.max(peakTorque, f.joints.j4!.torqueMagnitude ?? 0);
  }
  return { sim, peakW, peakTorque };
}

describe('a holding drive holds in the position projection', () => {
  it('a rig at rest at its drive target stays at rest (it grew to 190 rad/s in 1 s)', () => {
    const { peakW, peakTorque } = run(load(), 2);
    expect(peakW).toBeLessThan(1e-6);
    expect(peakTorque).toBeLessThan(1e-3);
  });

  it('the articulated solver, whose joints are exact, agrees: the same rig stays at rest', () => {
    const rig = load();
    rig.solver = 'articulated';
    expect(run(rig, 2).peakW).toBeLessThan(1e-6);
  });

  it('the drive still drives: a target 0.5 rad away is reached and held, the box swinging the sphere on its hinge', () => {
    const target = quatFromAxisAngle([0, 1, 0], 0.5);
    // The box's rotation relative to the sphere, before and after: the drive turns it by the target's 0.5 rad.
    const relative = (sim: ReturnType<typeof createSimulation>) => {
      const f = sim.frame();
      return quatMul(quatConj(f.bodies.b2!.q as Quat), f.bodies.b4!.q as Quat);
    };
    let start: Quat = [0, 0, 0, 1];
    const { sim, peakW } = run(load(), 2, (s, step) => { if (step === 0) { start = relative(s); s.setMotorTargets({ j4: target }); } });
    const turned = quatMul(quatConj(start), relative(sim));
    const angle = 2 * Math.atan2(Math.hypot(turned[0], turned[1], turned[2]), Math.abs(turned[3]));
    expect(angle).toBeGreaterThan(0.5 - 0.01);
    expect(angle).toBeLessThan(0.5 + 0.01);
    // Bounded: a 0.5 rad step at the drive's 50 rad/s cap is the most it can ask.
    expect(peakW).toBeLessThan(60);
  });
});
