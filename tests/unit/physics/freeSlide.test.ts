/**
 * A body on a slide with no limit and no drive, on a turning body, is flung outwards without bound — the
 * physics, not the solver: a bead on a frictionless rod turning at a constant ω (zero g, the rod
 * perpendicular to the spin axis) obeys r̈ = ω²·r in the rod's frame, so from rest on the rod at r₀ it is at
 * r₀·cosh(ωt) and moves at ω·r₀·√(sinh²ωt + cosh²ωt): 100 m/s after ≈ 0.49 s at ω = 10 rad/s, r₀ = 0.1 m.
 * The rigid solver follows it with an exponential rate ≈ 4 % under ω (the step's own damping of the
 * turning frame), and passes 100 m/s about one step after the analytic answer does: right. This is what most
 * of the random rigs still past 100 m/s on seed 1 have (docs/physics.md "What prevents explosions"), and
 * why the plausibility check warns about an unbounded slide (shared/authoring/plausibility.ts).
 */
import { describe, expect, it } from 'vitest';
import { World } from '../../../shared/physics/world';

const OMEGA = 10, R0 = 0.1, DT = 1 / 60;

function spinningRod() {
  const w = new World({ gravity: [0, 0, 0], substeps: 2 });
  const hub = w.addBody({ type: 'kinematic', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }], angularVelocity: [0, OMEGA, 0], collisionGroup: 1, collisionMask: 0 });
  const bead = w.addBody({
    type: 'dynamic', position: [R0, 0, 0], shapes: [{ type: 'sphere', radius: 0.02 }], mass: 0.01,
    // Turning with the rod: ω × r = (0, ω, 0) × (r₀, 0, 0).
    linearVelocity: [0, 0, -OMEGA * R0], angularVelocity: [0, OMEGA, 0], collisionGroup: 1, collisionMask: 0,
  });
  const j = w.addJoint({ type: 'prismatic', bodyA: hub, bodyB: bead, frameA: { position: [0, 0, 0] }, frameB: { position: [0, 0, 0] } });
  return { w, bead, j };
}

describe('a free, unlimited slide on a turning body', () => {
  it('flings its body out as r₀·cosh(ωt): the rigid solver at the analytic growth rate within 6 %, past 100 m/s within 3 steps of the analytic time', () => {
    const { w, bead, j } = spinningRod();
    const r: number[] = [R0];
    let crossed = NaN;
    for (let s = 1; s <= 36; s++) {
      w.step(DT);
      r.push(w.getJointAngle(j) as number);
      const v = w.getLinearVelocity(bead);
      if (Number.isNaN(crossed) && Math.hypot(v[0], v[1], v[2]) > 100) crossed = s * DT;
    }
    // The exponential rate over the last 0.3 s (d ln r / dt), against the same from r₀·cosh(ωt).
    const rate = Math.log(r[36]! / r[18]!) / (18 * DT);
    const exactRate = Math.log(Math.cosh(OMEGA * 36 * DT) / Math.cosh(OMEGA * 18 * DT)) / (18 * DT);
    // |v| = ω·r₀·√(sinh² + cosh²) = 100 m/s.
    const exactCross = Math.acosh(Math.sqrt(((100 / (OMEGA * R0)) ** 2 + 1) / 2)) / OMEGA;
    console.log(`free slide: r ${r[18]!.toFixed(4)} → ${r[36]!.toFixed(4)} m (analytic ${(R0 * Math.cosh(3)).toFixed(4)} → ${(R0 * Math.cosh(6)).toFixed(4)}); rate ${rate.toFixed(3)} /s (analytic ${exactRate.toFixed(3)}); past 100 m/s at ${crossed.toFixed(4)} s (analytic ${exactCross.toFixed(4)} s)`);
    expect(Math.abs(rate / exactRate - 1)).toBeLessThan(0.06);
    expect(Math.abs(crossed - exactCross)).toBeLessThan(3 * DT);
    // Each step farther out than the last: nothing holds it.
    for (let s = 1; s <= 36; s++) expect(r[s]!).toBeGreaterThan(r[s - 1]!);
  });
});
