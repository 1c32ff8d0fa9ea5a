/**
 * Particle state in flat typed arrays (structure of arrays, Box2D's "hot data apart"): positions x and
 * previous positions x0 (the Verlet pair — velocity is implicit, v ≈ (x − x0)/dt), inverse masses w
 * (0 = pinned), masses m (kept for pinned particles too, for energy and inertia reports) and the collision
 * radius of each particle against the floor (the largest radius of the bones that end at it).
 */
export class ParticleState {
  readonly count: number;
  readonly x: Float64Array;
  readonly x0: Float64Array;
  readonly w: Float64Array;
  readonly m: Float64Array;
  readonly radius: Float64Array;
  /** Extra acceleration (m/s²) for the next step only, per particle; cleared by integrate(). */
  readonly accel: Float64Array;

  constructor(count: number) {
    this.count = count;
    this.x = new Float64Array(3 * count);
    this.x0 = new Float64Array(3 * count);
    this.w = new Float64Array(count);
    this.m = new Float64Array(count);
    this.radius = new Float64Array(count);
    this.accel = new Float64Array(3 * count);
  }
}

/** Step parameters, in one Float64Array so the per-iteration calls pass no boxed doubles:
 *  gravity (m/s²), dt (s), damping (1/s), bone friction μ, floor height (m, NaN = none), floor μ. */
export const P_GX = 0, P_GY = 1, P_GZ = 2, P_DT = 3, P_DAMPING = 4, P_FRICTION = 5, P_FLOOR = 6, P_FLOOR_MU = 7;
/** Energy scratch: E[0..3) centre-of-mass velocity, E[3] relative KE, E[4] KE, E[5] now, E[6] allowed, E[7] k. */
export const E_KE_REL = 3, E_KE = 4, E_NOW = 5, E_ALLOWED = 6, E_SCALE = 7;

/**
 * Verlet with damping, the paper's eq. (5) x' = 2x − x0 + a·dt² written as x' = x + k·(x − x0) + a·dt²
 * with k = 1/(1 + damping·dt) (the same per-second damping law as the rigid bodies: v ← v·k). Pinned
 * particles (w = 0) do not move. No allocation.
 */
export function integrate(s: ParticleState, P: Float64Array): void {
  const gx = P[P_GX]!, gy = P[P_GY]!, gz = P[P_GZ]!, dt = P[P_DT]!, damping = P[P_DAMPING]!;
  const { x, x0, w, accel } = s;
  const k = 1 / (1 + damping * dt), dt2 = dt * dt;
  for (let i = 0; i < s.count; i++) {
    const o = 3 * i;
    if (w[i] === 0) { x0[o] = x[o]!; x0[o + 1] = x[o + 1]!; x0[o + 2] = x[o + 2]!; accel[o] = accel[o + 1] = accel[o + 2] = 0; continue; }
    for (let c = 0; c < 3; c++) {
      const xi = x[o + c]!;
      const g = c === 0 ? gx : c === 1 ? gy : gz;
      x[o + c] = xi + k * (xi - x0[o + c]!) + (g + accel[o + c]!) * dt2;
      x0[o + c] = xi;
      accel[o + c] = 0;
    }
  }
}

/**
 * Kinetic energy (J) relative to the centre of mass, from the step velocity v = (x − x0)/dt, over free
 * particles, into E[E_KE_REL]; that centre's velocity into E[0..3). With a pinned particle the reference
 * is rest (the pin can take momentum, so there is no free centre of mass).
 */
export function relativeKineticEnergy(s: ParticleState, P: Float64Array, out: Float64Array): void {
  const dt = P[P_DT]!;
  const { x, x0, w, m } = s;
  let M = 0, px = 0, py = 0, pz = 0, pinned = false;
  for (let i = 0; i < s.count; i++) {
    if (w[i] === 0) { pinned = true; continue; }
    const o = 3 * i;
    M += m[i]!; px += m[i]! * (x[o]! - x0[o]!); py += m[i]! * (x[o + 1]! - x0[o + 1]!); pz += m[i]! * (x[o + 2]! - x0[o + 2]!);
  }
  const vx = pinned || M === 0 ? 0 : px / (M * dt), vy = pinned || M === 0 ? 0 : py / (M * dt), vz = pinned || M === 0 ? 0 : pz / (M * dt);
  out[0] = vx; out[1] = vy; out[2] = vz;
  let ke = 0;
  for (let i = 0; i < s.count; i++) {
    if (w[i] === 0) continue;
    const o = 3 * i;
    const ux = (x[o]! - x0[o]!) / dt - vx, uy = (x[o + 1]! - x0[o + 1]!) / dt - vy, uz = (x[o + 2]! - x0[o + 2]!) / dt - vz;
    ke += 0.5 * m[i]! * (ux * ux + uy * uy + uz * uz);
  }
  out[E_KE_REL] = ke;
}

/**
 * Workless constraints: ideal constraints (lengths, limits, contacts) do no work, so relaxing them may move
 * kinetic energy around or remove it, never add it. Position projection can still add some where
 * constraints fight (a limit turning a bone that another limit turns back), and Verlet turns that into
 * velocity. This scales the step velocities about the centre-of-mass velocity V back to `allowed` J:
 * x0 ← x − (V + k·(v − V))·dt, k = √(allowed/now). Positions — and so every constraint — are untouched;
 * linear momentum is kept. Reads now = E[E_NOW], allowed = E[E_ALLOWED], V = E[0..3); writes
 * k to E[E_SCALE] (1 = nothing to do).
 */
export function capKineticEnergy(s: ParticleState, P: Float64Array, V: Float64Array): void {
  const dt = P[P_DT]!, now = V[E_NOW]!, allowed = V[E_ALLOWED]!;
  V[E_SCALE] = 1;
  if (!(now > allowed) || now <= 0) return;
  const k = Math.sqrt(allowed / now);
  V[E_SCALE] = k;
  const { x, x0, w } = s;
  for (let i = 0; i < s.count; i++) {
    if (w[i] === 0) continue;
    const o = 3 * i;
    for (let c = 0; c < 3; c++) {
      const v = (x[o + c]! - x0[o + c]!) / dt;
      x0[o + c] = x[o + c]! - (V[c]! + k * (v - V[c]!)) * dt;
    }
  }
}

/** Kinetic energy (J) from the step velocity v = (x − x0)/dt over free particles, into E[E_KE]. */
export function kineticEnergy(s: ParticleState, P: Float64Array, E: Float64Array): void {
  const dt = P[P_DT]!;
  const { x, x0, w, m } = s;
  let ke = 0;
  for (let i = 0; i < s.count; i++) {
    if (w[i] === 0) continue;
    const o = 3 * i;
    const vx = x[o]! - x0[o]!, vy = x[o + 1]! - x0[o + 1]!, vz = x[o + 2]! - x0[o + 2]!;
    ke += 0.5 * m[i]! * (vx * vx + vy * vy + vz * vz);
  }
  E[E_KE] = ke / (dt * dt);
}
