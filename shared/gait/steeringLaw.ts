/**
 * The steering law: from the root's heading and the target to the skew δ of the path (DESIGN.md step 1).
 *
 *   ψ̄ = mean of the root's yaw over the last `window` gait cycles        (0: the yaw now)
 *   ψ̂ = ψ̄ + rateGain · ω_y                                             (ω_y: the root's yaw rate now, rad/s)
 *   θ = signed angle from the path's travel direction at heading ψ̂ to the target
 *   δ = clamp(gain · θ, ±maxAngle)
 *
 * window = 0 and rateGain = 0 is the plain proportional skew on the instantaneous heading.
 *
 * Why the two terms (measured on the Armed Mine, docs/locomotion.md "Steering"). The mine's arm (4.6 kg
 * reaching ≈ 0.6 m) has about the yaw inertia of its 30 kg ball (≈ 0.4·30·0.35² ≈ 1.5 kg·m²), and the
 * ball slides on a low-friction shell, so every stroke yaws the body back and forth: on the floor the
 * gripping hand pulls it one way, in the air the arm swinging forward along the skewed path turns it back
 * (the arm sweeps one way, the body the other), and each touchdown kicks it a little to one side or the
 * other. With the skew proportional to the instantaneous heading:
 *  - the intra-stroke wobble is read as heading error, the skew follows it, which swings the arm sideways,
 *    which yaws the body more: the skew sat at its limit much of the time and the heading weaved ±35°.
 *    → `window`: steer on the heading averaged over one stroke. A moving average exactly one period long
 *    cancels a periodic wobble and all its harmonics, whatever its shape, and it moves the skew smoothly
 *    (the path no longer jerks the arm sideways every step).
 *  - the touchdown kicks are fast (a few steps) and random in sign; an average over a stroke only sees
 *    them after they have turned the body. → `rateGain` (s), a derivative term on the body's yaw rate NOW:
 *    when the body starts to spin, the skew turns the path against the spin in the very next step, and
 *    the position-mode shoulder motor (which closes r = ½ of its error per step, up to τmax) pushes the
 *    body back while the kick is still happening — the arm as a yaw damper. It must be undelayed: a
 *    low-pass on ω_y of even two steps, or the body's yaw rate averaged, came too late and made it worse.
 *    Its loop gain per step is gain·rateGain·(the body's yaw response to the arm in one step), so too large
 *    a rateGain makes the skew alternate step to step (we keep it well below that: docs/locomotion.md).
 *
 * State: the unwrapped yaw of the last window's steps in a ring (plain numbers, for snapshot/restore).
 */
import { steeringSkew } from './steering';
import type { ReadonlyVec3 } from '../math/vec3';

export interface SteeringLawParams {
  /** Skew per radian of heading error (dimensionless). */
  gain: number;
  /** Largest skew (rad). */
  maxAngle: number;
  /** Heading averaging window (gait cycles); 0 = the heading now. */
  window: number;
  /** Heading-rate (derivative) time (s): the heading steered by is carried ahead by rateGain × yaw rate. */
  rateGain: number;
}

/** What the law saw and decided this step. */
export interface SteeringDecision {
  /** Skew of the path (rad). */
  skew: number;
  /** Heading the skew was computed from (rad): ψ̂ above. */
  heading: number;
}

/** Saved state: unwrapped yaw samples (rad), oldest first. */
export interface SteeringLawState { yaw: number[] }

const wrapAngle = (a: number): number => a - 2 * Math.PI * Math.round(a / (2 * Math.PI));

export class SteeringLaw {
  /** Unwrapped yaw samples (rad), a ring; `count` of them valid, the next written at `head`. */
  private ring: Float64Array = new Float64Array(0);
  private count = 0;
  private head = 0;
  private last = 0;

  constructor(readonly params: SteeringLawParams) {}

  /**
   * One step. `yaw` = the root's heading (rad), `yawRate` = its angular velocity about +Y (rad/s),
   * `travelLocal` = the path's travel direction in the root frame, `rate` = gait cycles per second,
   * `dt` = step (s). Returns the skew toward `target` (0 without one).
   */
  step(rootPosition: ReadonlyVec3, yaw: number, yawRate: number, travelLocal: ReadonlyVec3, target: ReadonlyVec3 | null,
    rate: number, dt: number): SteeringDecision {
    const p = this.params;
    let heading = this.average(yaw, rate, dt);
    if (p.rateGain !== 0) heading += p.rateGain * yawRate;
    // headingToWorld([0, 0, 0], heading, travelLocal), x and z, without the arrays.
    const c = Math.cos(heading), s = Math.sin(heading);
    const tx = 0 + c * travelLocal[0] + s * travelLocal[2], tz = 0 - s * travelLocal[0] + c * travelLocal[2];
    return { skew: steeringSkew(rootPosition, tx, tz, target, p.gain, p.maxAngle), heading };
  }

  /** Record `yaw` and return the mean over the window (or `yaw` itself without a window). */
  private average(yaw: number, rate: number, dt: number): number {
    const period = Math.abs(rate) > 1e-9 ? 1 / Math.abs(rate) : 0;
    const n = this.params.window > 0 && period > 0 && dt > 0 ? Math.max(1, Math.round((this.params.window * period) / dt)) : 0;
    if (n === 0) return yaw;
    if (this.ring.length !== n) this.resize(n);
    // Unwrap against the previous sample so a turn through ±π does not jump the mean by 2π.
    const u = this.count > 0 ? this.last + wrapAngle(yaw - this.last) : yaw;
    // No history (start, reset): as if the creature had held this heading for the whole window.
    if (this.count === 0) { this.ring.fill(u); this.count = n; this.head = 0; }
    this.ring[this.head] = u;
    this.head = (this.head + 1) % n;
    this.last = u;
    // Summed oldest → newest every step (not a running sum), as offsets from the newest sample: the result
    // depends only on the samples, so restore(snapshot()) reproduces the future bit for bit.
    let sum = 0;
    for (let k = 0; k < n; k++) sum += this.ring[(this.head + k) % n]! - u;
    return u + sum / n;
  }

  snapshot(): SteeringLawState {
    const n = this.ring.length, out: number[] = [];
    const start = this.count === n ? this.head : 0;
    for (let k = 0; k < this.count; k++) out.push(this.ring[(start + k) % n]!);
    return { yaw: out };
  }

  restore(state: SteeringLawState | undefined): void {
    const ys = state?.yaw ?? [];
    this.ring = new Float64Array(ys);
    this.count = ys.length;
    this.head = 0;
    this.last = ys.length > 0 ? ys[ys.length - 1]! : 0;
  }

  private resize(n: number): void {
    // The window changed length (rate or dt edited): keep the newest samples, pad with the oldest kept.
    const kept = this.snapshot().yaw.slice(-n);
    this.ring = new Float64Array(n);
    if (kept.length === 0) { this.count = 0; this.head = 0; return; }
    const pad = n - kept.length;
    for (let k = 0; k < n; k++) this.ring[k] = k < pad ? kept[0]! : kept[k - pad]!;
    this.count = n;
    this.head = 0;
    this.last = kept[kept.length - 1]!;
  }
}
