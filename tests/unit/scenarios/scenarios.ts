/**
 * The five issue-5 scenarios as functions that run the mine and return what they measured. The test
 * (armedMine.test.ts) asserts on these figures with the thresholds; the report script (report.ts)
 * prints them, so tuning a rig and checking it measure exactly the same thing. Each takes the rig (default:
 * the shipped Armed Mine) so a variant can be measured the same way.
 */
import { quatRotate } from '../../../shared/math/quat';
import type { Vec3 } from '../../../shared/math/vec3';
import type { RigDocument } from '../../../shared/rig';
import { blast, distanceTo, handOnFloor, headingError, jointReport, loadArmedMine, mineSimulation, type Mine } from './armedMineWorld';

const DEG = Math.PI / 180;
const stepsFor = (m: Mine, seconds: number) => Math.round(seconds / m.sim.dt);

/**
 * Heading steadiness: |heading error| (rad) sampled after every step whose end time lies in [from, to] s —
 * RMS, max, and the mean (the signed bias). The crawl's issue check samples the heading only at 20 s; these
 * see the weave in between. Steps with the body within `near` m of the target are left out: the direction
 * to a point (almost) under the body is not a heading anyone steers by.
 */
export class HeadingSteadiness {
  private n = 0;
  private sumSq = 0;
  private sum = 0;
  max = 0;
  constructor(readonly from: number, readonly to: number, readonly near = 1) {}
  add(time: number, error: number, distance: number): void {
    if (time < this.from - 1e-9 || time > this.to + 1e-9 || distance < this.near) return;
    this.n++; this.sumSq += error * error; this.sum += error; this.max = Math.max(this.max, Math.abs(error));
  }
  get samples(): number { return this.n; }
  get rms(): number { return this.n ? Math.sqrt(this.sumSq / this.n) : NaN; }
  get mean(): number { return this.n ? this.sum / this.n : NaN; }
  toString(): string {
    return `|heading error| over ${this.from}–${this.to} s (${this.n} frames): RMS ${(this.rms / DEG).toFixed(1)}°, max ${(this.max / DEG).toFixed(1)}°, mean ${(this.mean / DEG).toFixed(1)}°`;
  }
}

export interface CrawlResult {
  progress: number; headingAt20: number; contact: number; maxJointError: number; overLimit: string | null;
  blowUp: boolean; steadiness: HeadingSteadiness;
}

/** Crawl from rest toward `target` (the issue's: (0, 0, 5)) for 20 s. */
export function crawl(rig: RigDocument = loadArmedMine(), target: Vec3 = [0, 0, 5]): CrawlResult {
  const m = mineSimulation(rig);
  m.sim.setTarget(target);
  const start = distanceTo(m, target);
  const steadiness = new HeadingSteadiness(5, 20);
  let contact = 0, maxJointError = 0, overLimit: string | null = null;
  const n = stepsFor(m, 20);
  for (let i = 0; i < n; i++) {
    m.sim.step();
    if (handOnFloor(m)) contact++;
    const r = jointReport(m);
    maxJointError = Math.max(maxJointError, r.maxError);
    overLimit ??= r.overLimit;
    steadiness.add(m.sim.time, headingError(m, target), distanceTo(m, target));
  }
  return {
    progress: start - distanceTo(m, target), headingAt20: headingError(m, target), contact: contact / n, maxJointError, overLimit,
    blowUp: m.sim.blowUp !== null, steadiness,
  };
}

export interface SteerResult { turnedAt: number; progress: number; steadiness: HeadingSteadiness }

/** Target 90° to the side at (5, 0, 0); turnedAt = first time |heading error| ≤ 20°. */
export function steer(rig: RigDocument = loadArmedMine()): SteerResult {
  const m = mineSimulation(rig);
  const target: Vec3 = [5, 0, 0];
  m.sim.setTarget(target);
  const start = distanceTo(m, target);
  const steadiness = new HeadingSteadiness(10, 20);
  let turnedAt = Infinity;
  const n = stepsFor(m, 20);
  for (let i = 0; i < n; i++) {
    m.sim.step();
    const e = headingError(m, target);
    if (turnedAt === Infinity && Math.abs(e) <= 20 * DEG) turnedAt = m.sim.time;
    steadiness.add(m.sim.time, e, distanceTo(m, target));
  }
  return { turnedAt, progress: start - distanceTo(m, target), steadiness };
}

export interface WeakResult { progress: number; overLimit: string | null; saturatedShare: number }

/** Every motor's τmax at 10 %, target (0, 0, 5), 20 s. */
export function weak(rig: RigDocument = loadArmedMine()): WeakResult {
  const weakRig: RigDocument = {
    ...rig,
    joints: rig.joints.map((j) => (j.type === 'fixed' ? j : { ...j, motor: { ...j.motor, maxTorque: j.motor.maxTorque * 0.1 } })),
  };
  const m = mineSimulation(weakRig);
  const target: Vec3 = [0, 0, 5];
  m.sim.setTarget(target);
  const start = distanceTo(m, target);
  let overLimit: string | null = null, saturated = 0;
  const n = stepsFor(m, 20);
  for (let i = 0; i < n; i++) {
    m.sim.step();
    overLimit ??= jointReport(m).overLimit;
    if (Object.values(m.sim.frame().joints).some((j) => j.saturated)) saturated++;
  }
  return { progress: start - distanceTo(m, target), overLimit, saturatedShare: saturated / n };
}

export interface RecoverResult { recovered: number; lines: string[] }

/** 10 seeded blasts; a seed recovers when it gets ≥ 0.5 m closer to a target 5 m ahead within 15 s,
 *  counted from where it lands (1 s after the blast), so the fall itself never counts. */
export function recover(rig: RigDocument = loadArmedMine()): RecoverResult {
  const lines: string[] = [];
  let recovered = 0;
  for (let seed = 0; seed < 10; seed++) {
    const m = mineSimulation(rig);
    blast(m, rig, seed);
    const p = m.sim.bodyPose('body').position;
    const target: Vec3 = [p[0], 0, p[2] + 5];
    m.sim.setTarget(target);
    let start = 0, best = 0;
    const settle = stepsFor(m, 1), n = stepsFor(m, 15);
    for (let i = 0; i < n; i++) {
      m.sim.step();
      if (i + 1 < settle) continue;
      if (i + 1 === settle) start = distanceTo(m, target);
      best = Math.max(best, start - distanceTo(m, target));
      if (best >= 0.5) break;
    }
    const up = quatRotate(m.sim.bodyPose('body').rotation, [0, 1, 0]);
    lines.push(`seed ${seed}: progress ${best.toFixed(2)} m in ${m.sim.time.toFixed(1)} s, upright ${up[1].toFixed(2)}`);
    if (best >= 0.5 && m.sim.blowUp === null) recovered++;
  }
  return { recovered, lines };
}

export interface KickResult { resumedAt: number; blowUp: boolean }

/** Crawl toward (0, 0, 8); at 6 s a 2.5 m/s sideways kick; resumed = 0.3 m closer than the worst distance
 *  in the first second after the kick; resumedAt in s after the kick (Infinity if not within 5 s). */
export function kick(rig: RigDocument = loadArmedMine()): KickResult {
  const m = mineSimulation(rig);
  const target: Vec3 = [0, 0, 8];
  m.sim.setTarget(target);
  for (let i = 0; i < stepsFor(m, 6); i++) m.sim.step();
  const mass = 30 + 2.5 + 1.5 + 0.6;
  m.sim.applyImpulse('body', [mass * 2.5, 0, 0]); // 2.5 m/s sideways for the whole creature
  const hit = m.sim.time;
  let knockedTo = distanceTo(m, target), resumedAt = Infinity;
  for (let i = 0; i < stepsFor(m, 5); i++) {
    m.sim.step();
    const d = distanceTo(m, target);
    knockedTo = Math.max(knockedTo, m.sim.time - hit < 1 ? d : knockedTo);
    if (resumedAt === Infinity && knockedTo - d >= 0.3) resumedAt = m.sim.time - hit;
  }
  return { resumedAt, blowUp: m.sim.blowUp !== null };
}

/** The eight arrival targets of docs/locomotion.md "Arrival" (from rest at the origin, facing +z). */
export const ARRIVE_TARGETS: readonly Vec3[] = [[0, 0, 5], [1, 0, 5], [-1.5, 0, 5], [0, 0, 8], [2, 0, 6], [-3, 0, 6], [0, 0, 12], [5, 0, 0]];

export interface ArriveResult {
  /** First time (s) the controller reported arrival (Infinity if never within `approach` s). */
  arrivedAt: number;
  /** Distance (m) body–target when it arrived. */
  arrivedDistance: number;
  /** Over the hold (`hold` s from arrival): largest distance to the target (m), the root's mean horizontal
   *  speed over its last 3 s (m/s), the largest speed over those 3 s, hand–floor contact share. */
  holdMaxDistance: number; holdMeanSpeed: number; holdMaxSpeed: number; holdContact: number;
  /** Lowest world-up component of the body's up axis over the hold (1 upright; 0.58 ≈ tipped 54°). */
  holdMinUp: number;
  /** Did it leave the arrived state during the hold? */
  holdRestarted: boolean;
  /** Largest joint error (m) over the whole run; any motor over its limit. */
  maxJointError: number; overLimit: string | null;
  /** After the target moved `moveBy` m further on: progress (m) toward it within `after` s, and when it
   *  first got 1 m closer (s after the move, Infinity if never). */
  restartProgress: number; restartAt1m: number;
  blowUp: boolean;
}

/**
 * Arrival: target (0, 0, 5) (or `target`) from rest at the origin; crawl until the controller reports it has
 * arrived (≤ `approach` s), hold `hold` s, then move the target `moveBy` (3) m further along the line from
 * the origin through it (setTarget through the runtime) and run `after` s.
 */
export function arrive(rig: RigDocument = loadArmedMine(),
  opts: { target?: Vec3; approach?: number; hold?: number; after?: number; moveBy?: number } = {}): ArriveResult {
  const approach = opts.approach ?? 30, hold = opts.hold ?? 6, after = opts.after ?? 10, moveBy = opts.moveBy ?? 3;
  const m = mineSimulation(rig);
  const target: Vec3 = opts.target ?? [0, 0, 5];
  m.sim.setTarget(target);
  let maxJointError = 0, overLimit: string | null = null;
  const track = () => { const r = jointReport(m); maxJointError = Math.max(maxJointError, r.maxError); overLimit ??= r.overLimit; };
  let arrivedAt = Infinity;
  for (let i = 0; i < stepsFor(m, approach); i++) {
    m.sim.step(); track();
    if (m.gait.controller.lastFrame?.arrived) { arrivedAt = m.sim.time; break; }
  }
  const arrivedDistance = distanceTo(m, target);
  let holdMaxDistance = arrivedDistance, contact = 0, holdRestarted = false, holdMinUp = 1;
  const speeds: number[] = [];
  const nHold = stepsFor(m, hold), nLast = stepsFor(m, 3);
  let prev = m.sim.bodyPose('body').position;
  for (let i = 0; i < nHold; i++) {
    m.sim.step(); track();
    holdMaxDistance = Math.max(holdMaxDistance, distanceTo(m, target));
    if (handOnFloor(m)) contact++;
    holdMinUp = Math.min(holdMinUp, quatRotate(m.sim.bodyPose('body').rotation, [0, 1, 0])[1]);
    if (!m.gait.controller.lastFrame?.arrived) holdRestarted = true;
    const p = m.sim.bodyPose('body').position;
    if (i >= nHold - nLast) speeds.push(Math.hypot(p[0] - prev[0], p[2] - prev[2]) / m.sim.dt);
    prev = p;
  }
  // Further along the line from the start (the origin) through the target.
  const len = Math.hypot(target[0], target[2]);
  const moved: Vec3 = [target[0] + (moveBy * target[0]) / len, 0, target[2] + (moveBy * target[2]) / len];
  m.sim.setTarget(moved);
  const start = distanceTo(m, moved), t0 = m.sim.time;
  let best = 0, restartAt1m = Infinity;
  for (let i = 0; i < stepsFor(m, after); i++) {
    m.sim.step(); track();
    best = Math.max(best, start - distanceTo(m, moved));
    if (restartAt1m === Infinity && best >= 1) restartAt1m = m.sim.time - t0;
  }
  return {
    arrivedAt, arrivedDistance, holdMaxDistance, holdMeanSpeed: speeds.reduce((a, b) => a + b, 0) / speeds.length, holdMaxSpeed: Math.max(...speeds),
    holdContact: contact / nHold, holdMinUp, holdRestarted, maxJointError, overLimit, restartProgress: best, restartAt1m, blowUp: m.sim.blowUp !== null,
  };
}
