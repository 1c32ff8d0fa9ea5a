/**
 * A generated rig on trial: run it powered and limp for a few seconds and measure what a user would see —
 * does it blow up, does it stay standing (highest body's top against its start), how fast do bodies move.
 * The corpus tests, `marionette generate --check` and the corpus report use it.
 */
import { createSimulation } from '../runtime/simulation';
import type { RigDocument } from '../rig/schema';

export interface TrialResult {
  /** Simulated seconds until the world blew up, or null. */
  blewUpAt: number | null;
  blowUp: string | null;
  /** Highest body-origin height at the start and its lowest value over the run, as a fraction. */
  startTop: number;
  minTopFraction: number;
  finalTopFraction: number;
  /** Largest body speed (m/s) seen. */
  maxSpeed: number;
  /** The most drives that took the loaded-link compliance in one step (WorldStats.compliantDrives): 0 when
   *  every drive was solved rigid, as Generate's jointed mass ratios (≤ 9.5) intend. */
  compliantDrives: number;
}

export function runTrial(rig: RigDocument, seconds: number, powered: boolean): TrialResult {
  const sim = createSimulation(rig);
  if (!powered) sim.setMotorsEnabled(false);
  const ground = rig.simulation.ground?.height ?? 0;
  const top = () => Math.max(...sim.bodyNames.map((b) => sim.bodyPose(b).position[1])) - ground;
  const startTop = top();
  let minTop = startTop, maxSpeed = 0, compliantDrives = 0;
  const steps = Math.round(seconds / sim.dt);
  const prev = new Map(sim.bodyNames.map((b) => [b, sim.bodyPose(b).position]));
  for (let i = 0; i < steps; i++) {
    sim.step();
    compliantDrives = Math.max(compliantDrives, sim.world.getStats().compliantDrives ?? 0);
    if (sim.blowUp) {
      return { blewUpAt: sim.time, blowUp: `${sim.blowUp.body}: ${sim.blowUp.reason}`, startTop, minTopFraction: minTop / startTop, finalTopFraction: top() / startTop, maxSpeed, compliantDrives };
    }
    for (const b of sim.bodyNames) {
      const p = sim.bodyPose(b).position, q = prev.get(b)!;
      maxSpeed = Math.max(maxSpeed, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) / sim.dt);
      prev.set(b, p);
    }
    minTop = Math.min(minTop, top());
  }
  return { blewUpAt: null, blowUp: null, startTop, minTopFraction: minTop / startTop, finalTopFraction: top() / startTop, maxSpeed, compliantDrives };
}
