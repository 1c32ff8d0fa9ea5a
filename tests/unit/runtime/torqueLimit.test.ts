/**
 * The rig's motor.torqueLimit (issue 11 item 5) reaches the solver, and the trace carries the torque vector's
 * magnitude: the pendulum fixture's shoulder (a ball position motor) under a τmax too small to hold the arm
 * reaches past τmax (toward √3·τmax) with "perAxis" when the load lies along the frame diagonal and stays ≤ τmax with "magnitude".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig, validateRig, type RigDocument } from '../../../shared/rig';
import { createSimulation } from '../../../shared/runtime';
import { fixture } from '../rig/corpus';

function shoulderRun(torqueLimit: 'perAxis' | 'magnitude' | undefined, maxTorque: number): number[] {
  const json = JSON.parse(readFileSync(fixture('rigs/pendulum.rig.json'), 'utf8')) as { joints: { name: string; motor: Record<string, unknown> }[] };
  const shoulder = json.joints.find((j) => j.name === 'shoulder')!;
  shoulder.motor.maxTorque = maxTorque;
  // The arm hangs along +Z, so gravity loads the shoulder about world X. Turn both joint frames (they still
  // coincide at rest) so that world X is the frame's diagonal (1, 1, 1)/√3: the load sits on all three rows.
  const half = Math.acos(1 / Math.sqrt(3)) / 2, s = Math.sin(half) / Math.SQRT2;
  const frames = shoulder as unknown as { frameA: { rotation: number[] }; frameB: { rotation: number[] } };
  frames.frameA.rotation = [0, s, -s, Math.cos(half)];
  frames.frameB.rotation = [0, s, -s, Math.cos(half)];
  if (torqueLimit) shoulder.motor.torqueLimit = torqueLimit;
  const rig: RigDocument = loadRig(json);
  const sim = createSimulation(rig);
  const magnitudes: number[] = [];
  for (let s = 0; s < 120; s++) {
    sim.step();
    const f = sim.frame().joints.shoulder!;
    expect(f.torqueMagnitude).toBeGreaterThanOrEqual(f.torque);
    expect(f.torqueMagnitude).toBeLessThanOrEqual(Math.sqrt(3) * f.torque * (1 + 1e-9));
    magnitudes.push(f.torqueMagnitude);
  }
  return magnitudes;
}

describe('rig motor.torqueLimit', () => {
  it('"magnitude" keeps ‖τ‖ ≤ τmax on a loaded shoulder; "perAxis" (also the default) exceeds it', () => {
    const tau = 0.5;
    const ball = shoulderRun('magnitude', tau);
    expect(Math.max(...ball)).toBeLessThanOrEqual(tau * (1 + 1e-9));
    expect(Math.max(...ball)).toBeGreaterThan(tau * (1 - 1e-9)); // it is loaded past the budget
    const perAxis = shoulderRun('perAxis', tau);
    expect(Math.max(...perAxis)).toBeGreaterThan(tau * 1.05);
    expect(Math.max(...perAxis)).toBeLessThanOrEqual(Math.sqrt(3) * tau * (1 + 1e-9));
    expect(shoulderRun(undefined, tau)).toEqual(perAxis);
  });

  it('refuses an unknown value with the field path', () => {
    const json = JSON.parse(readFileSync(fixture('rigs/pendulum.rig.json'), 'utf8')) as { joints: { motor: Record<string, unknown> }[] };
    json.joints[0]!.motor.torqueLimit = 'ball';
    const r = validateRig(json);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.path)).toContain('joints[0].motor.torqueLimit');
  });
});
