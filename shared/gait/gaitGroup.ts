/**
 * Multi-limb gaits (docs/locomotion.md "Multi-limb gaits"): the cyclicPath controllers that share a root
 * body — two or more enabled limbs — are one gait. They keep their own paths, chains, rates and phase
 * offsets, but are steered by ONE steering law (steeringLaw.ts), stepped once per simulation step from the
 * root's heading and the steering numbers and target of the group's first controller (the leader), and
 * they turn the creature by the DIRECTION of their strokes rather than by the single limb's skew:
 *
 *   a = clamp(δ / (π/2), −1, 1)           δ = the law's skew (rad, clamp(gain·θ, ±maxAngle))
 *   Dᵢ = (1 − |a|)·tᵢ + a·(ŷ × cᵢ)/R̄        tᵢ = limb i's travel direction, cᵢ = its stroke centre (root
 *                                          frame, horizontal), R̄ = the mean |cᵢ| over the group
 *
 * and limb i's path is remapped so that the part of it along tᵢ (measured from cᵢ) runs along Dᵢ instead:
 * p' = p + ((p − cᵢ)·tᵢ)(Dᵢ − tᵢ), horizontally; heights and the sideways part are kept. a = 0 is the path as
 * drawn; a = ±1 strokes every foot along the circle about the root (ŷ × cᵢ is the velocity of the body point
 * above foot i when the body spins at +1 rad/s), which turns the creature on the spot — the feet that sit
 * further out sweep further. Between, each stroke pushes the body forward and round at once: the feet on the
 * outside of the turn stroke longer, those on the inside shorter (a tank's differential steering, done by
 * every leg). The single limb's skew about a pivot ahead of the stroke (steering.ts) is what makes ONE arm
 * steer; with several limbs the skew would swing every path sideways together and the creature would crab
 * rather than turn. A rig with one limb per root (the Armed Mine) never forms a group: its gait is
 * unchanged, bit for bit.
 *
 * Arrival (arrival.ts) is the group's too: with the leader's steering.stopRadius the group has ONE Arrival,
 * stepped once per step like the law, so every limb slows, stops and restarts together (limbs that stopped
 * one by one would leave a tripod pushing the body on). Stopped, each limb's foot goes to its rest point —
 * by default the top of its loop above its stroke centre (controller.ts): the feet come up and the body
 * sets down on its belly in one fixed fold and holds still. (Standing on six soft PD legs at the stroke
 * centres the Hexapod crept 3 cm/s as feet chattered on and off the floor; docs/locomotion.md.) The stop is
 * declared at any phase (no lift gate): some foot of a gait is always mid-stroke.
 */
import { SteeringLaw, type SteeringDecision, type SteeringLawParams, type SteeringLawState } from './steeringLaw';
import { Arrival, type ArrivalDecision, type ArrivalParams, type ArrivalState } from './arrival';
import type { PathTurn } from './steering';
import type { ReadonlyVec3, Vec3 } from '../math/vec3';

/** The shared steering of the limbs on one root. */
export class GaitGroup {
  private readonly law: SteeringLaw;
  /** Mean travel direction of the limbs (root frame, unit): what the law measures the heading error from. */
  readonly travel: Vec3;
  /** Mean horizontal distance (m) of the limbs' stroke centres from the root. */
  readonly radius: number;
  private decision: SteeringDecision | null = null;
  private readonly served = new Set<number>();
  /** The group's arrival (null without the leader's stopRadius: the limbs never stop). */
  private readonly arrival: Arrival | null;
  private arrivalDecision: ArrivalDecision | null = null;
  private readonly arrivalServed = new Set<number>();

  constructor(readonly params: SteeringLawParams, travels: readonly ReadonlyVec3[], centres: readonly ReadonlyVec3[], readonly members: readonly string[],
    arrival: ArrivalParams | null = null) {
    this.law = new SteeringLaw(params);
    this.arrival = arrival ? new Arrival(arrival) : null;
    let sx = 0, sz = 0;
    for (const t of travels) { sx += t[0]; sz += t[2]; }
    const l = Math.hypot(sx, sz);
    this.travel = l > 1e-9 ? [sx / l, 0, sz / l] : [0, 0, 1];
    const r = centres.reduce((s, c) => s + Math.hypot(c[0], c[2]), 0) / Math.max(1, centres.length);
    this.radius = r > 1e-6 ? r : 1;
  }

  /** The stroke direction of a turn on the spot for a limb whose stroke is centred at `centre`. */
  tangentAt(centre: ReadonlyVec3): Vec3 { return [centre[2] / this.radius, 0, -centre[0] / this.radius]; }

  /**
   * The law's decision for this step. The first member to ask in a step steps the law; the others get the
   * same decision (a member asking twice means a new step has begun). `member` = the limb's index.
   */
  decide(member: number, rootPosition: ReadonlyVec3, yaw: number, yawRate: number, target: ReadonlyVec3 | null, rate: number, dt: number): SteeringDecision {
    if (this.decision === null || this.served.has(member)) {
      this.served.clear();
      this.decision = this.law.step(rootPosition, yaw, yawRate, this.travel, target, rate, dt);
    }
    this.served.add(member);
    return this.decision;
  }

  /** Whether the group arrives (has a stop radius). */
  get hasArrival(): boolean { return this.arrival !== null; }

  /** Stopped at the target (false without arrival). */
  get arrived(): boolean { return this.arrival?.arrived ?? false; }

  /**
   * Arrival's decision for this step (call only when hasArrival), stepped once per step as `decide` is:
   * the first member to ask passes the distance (m) from the root to the target, the rate and dt; the
   * others get the same stroke and engage.
   */
  arrive(member: number, distance: number, rate: number, dt: number): ArrivalDecision {
    if (this.arrivalDecision === null || this.arrivalServed.has(member)) {
      this.arrivalServed.clear();
      this.arrivalDecision = this.arrival!.step(distance, rate, dt);
    }
    this.arrivalServed.add(member);
    return this.arrivalDecision;
  }

  /** Arrival's state (for snapshots), undefined without arrival. */
  arrivalState(): ArrivalState | undefined { return this.arrival?.snapshot(); }

  /** Back to a saved arrival state (none = moving, full stroke); the next step decides afresh. */
  restoreArrival(state: ArrivalState | undefined): void {
    this.arrival?.restore(state);
    this.arrivalDecision = null;
    this.arrivalServed.clear();
  }

  /** The turn a limb's path takes for a decision. */
  turn(decision: SteeringDecision, centre: ReadonlyVec3, travel: ReadonlyVec3): PathTurn {
    const a = Math.max(-1, Math.min(1, decision.skew / (Math.PI / 2)));
    return { a, centre: [centre[0], 0, centre[2]], travel: [travel[0], 0, travel[2]], tangent: this.tangentAt(centre) };
  }

  snapshot(): SteeringLawState { return this.law.snapshot(); }

  /** Back to a saved heading history; the next step decides afresh. */
  restore(state: SteeringLawState | undefined): void {
    this.law.restore(state);
    this.decision = null;
    this.served.clear();
  }
}
