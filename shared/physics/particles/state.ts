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

/**
 * Verlet with damping, the paper's eq. (5) x' = 2x − x0 + a·dt² written as x' = x + k·(x − x0) + a·dt²
 * with k = 1/(1 + damping·dt) (the same per-second damping law as the rigid bodies: v ← v·k). Pinned
 * particles (w = 0) do not move. No allocation.
 */
export function integrate(s: ParticleState, gx: number, gy: number, gz: number, dt: number, damping: number): void {
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
