/**
 * Arrival: the crawl slows near the steering target, stops there with the hand off the floor, and starts
 * again when the target moves away (docs/locomotion.md "Arrival", measured on the Armed Mine).
 *
 * Two numbers, each ramped, act on the path the controller draws (controller.ts arrivalPoint):
 *  - STROKE s: the loop is shrunk by s about its floor anchor (the stroke centre at the loop's lowest
 *    height), so it stays on the floor but each stroke is shorter and pushes less. Measured crawl speed
 *    of the mine: s 1 → 273 mm/s, 0.8 → 237, 0.6 → 116, 0.5 → 73; below 0.5 it is erratic (17–49 mm/s),
 *    so the slow zone ends at minStroke and the stop does the rest.
 *  - ENGAGE e: the hand target is blended from the REST point (e = 0; carried with the root's full pose,
 *    a fixed fold of the arm) to the shrunk loop (e = 1). Stopped, the hand holds still off the floor:
 *    there is no shell–floor–hand loop for the position motors to fight over (holding a planted hand made
 *    it chatter and the body slid round the hand), and the phase keeps running — nothing is frozen.
 *
 *   d = horizontal distance from the root to the target (m)
 *   moving:  s → minStroke + (1 − minStroke)·smoothstep((d − stopRadius)/(arriveRadius − stopRadius)), e → 1
 *            arrived when d ≤ stopRadius and the phase is within LIFT_WINDOW after liftPhase
 *   arrived: s → minStroke, e → 0;  moving again when d > restartRadius (> stopRadius: hysteresis)
 *   s and e move toward their goals by at most |rate|·dt per step: a full stop or start takes one gait
 *   cycle, so no joint target jumps (a target dropped 3 m away ramps the gait back in over one stroke).
 *
 * The stop is declared only as the hand leaves the floor (liftPhase, the end of the floor stroke): a stroke
 * is never cut. Cut mid-stroke, the fold pulled the planted hand back under the shell and levered it forward;
 * on the Armed Mine 3 of 8 approaches then tipped ≈ 54° onto the folded hand and crept at 13 mm/s; with the
 * stop at the lift 1 of 8 does (docs/locomotion.md "Arrival"). The price: the mine may crawl up to one more
 * stroke (at minStroke) first.
 *
 * State: { arrived, stroke, engage } — plain values for snapshot/restore.
 */

export interface ArrivalParams {
  /** Start slowing inside this distance (m) of the target. */
  arriveRadius: number;
  /** Stop inside this distance (m). */
  stopRadius: number;
  /** Once stopped, start again only when the target is farther than this (m). */
  restartRadius: number;
  /** Stroke left at the stop radius (0..1). */
  minStroke: number;
  /** Gait phase (cycles) at which the hand leaves the floor: the stop is declared only within
   *  LIFT_WINDOW after it (undefined = at any phase). */
  liftPhase?: number;
}

/** How long after the lift phase (cycles) a stop may still be declared: a few steps at any usual rate. */
export const LIFT_WINDOW = 0.1;

export interface ArrivalState { arrived: boolean; stroke: number; engage: number }

/** What arrival asks of the path this step. */
export interface ArrivalDecision {
  /** Size of the loop about its floor anchor (1 = as drawn, minStroke at the stop radius). */
  stroke: number;
  /** 1 = the hand follows the (shrunk) loop, 0 = it holds at the rest point; in between, a blend. */
  engage: number;
}

/** Hermite smoothstep on [0, 1]: zero slope at both ends, so the stroke eases in and out of the slow zone. */
export const smoothstep = (x: number): number => { const t = Math.min(1, Math.max(0, x)); return t * t * (3 - 2 * t); };

const toward = (value: number, goal: number, maxChange: number): number =>
  goal > value ? Math.min(goal, value + maxChange) : Math.max(goal, value - maxChange);

export class Arrival {
  private state: ArrivalState = { arrived: false, stroke: 1, engage: 1 };

  constructor(readonly params: ArrivalParams) {}

  get arrived(): boolean { return this.state.arrived; }

  /**
   * One step: `distance` (m) to the target (Infinity without one), `rate` the gait's cycles/s, `dt` (s),
   * `phase` the gait phase this step (cycles; only read with `liftPhase`).
   */
  step(distance: number, rate: number, dt: number, phase = 0): ArrivalDecision {
    const p = this.params, st = this.state;
    if (st.arrived) { if (distance > p.restartRadius) st.arrived = false; }
    else if (distance <= p.stopRadius && (p.liftPhase === undefined || ((phase - p.liftPhase) % 1 + 1) % 1 < LIFT_WINDOW)) st.arrived = true;
    const span = p.arriveRadius - p.stopRadius;
    const strokeGoal = st.arrived ? p.minStroke : span > 0 ? p.minStroke + (1 - p.minStroke) * smoothstep((distance - p.stopRadius) / span) : 1;
    const maxChange = Math.abs(rate) * dt;
    st.stroke = toward(st.stroke, strokeGoal, maxChange);
    st.engage = toward(st.engage, st.arrived ? 0 : 1, maxChange);
    return { stroke: st.stroke, engage: st.engage };
  }

  snapshot(): ArrivalState { return { ...this.state }; }

  /** Back to a saved state, or (none) moving with the full stroke. */
  restore(state: ArrivalState | undefined): void {
    this.state = state ? { arrived: state.arrived, stroke: state.stroke, engage: state.engage } : { arrived: false, stroke: 1, engage: 1 };
  }
}
