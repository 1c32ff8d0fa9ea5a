/**
 * Soft constraints (Catto, "Soft Step", GDC 2011 / Box2D v3's b2MakeSoft), two ways to state the spring.
 *
 * A row with effective inverse mass K = J·M⁻¹·Jᵀ, position error C and velocity Ċ = J·v becomes, under
 * implicit Euler with spring k and damper c over a step h,
 *
 *     Δλ = −(Ċ + biasRate·C + softness·λ_acc) / (K + softness)
 *     biasRate = k / (c + h·k)            (1/s)
 *     softness = 1 / (h·(c + h·k))        (the compliance γ, in units of 1/effective-mass)
 *
 * which is exactly the impulse of the implicit force f = −k·C − c·Ċ integrated over h. Limit cases
 * (tested in tests/unit/physics/soft.test.ts):
 *   - k → ∞ (any c):      biasRate → 1/h, softness → 0     — a rigid row that removes all error in one step.
 *   - k = 0, c > 0:       biasRate = 0,   softness = 1/(h·c) — a pure damper.
 *   - c = 0, k > 0:       biasRate = 1/h, softness = 1/(h²k) — an undamped implicit spring.
 *   - k = c = 0:          softness = ∞ → the row applies no impulse (effective mass 1/(K+∞) = 0).
 */
export interface Softness {
  /** Fraction of the position error turned into target velocity, per second (1/s). */
  biasRate: number;
  /** Compliance γ added to the row's inverse effective mass (same unit as K). */
  softness: number;
}

/**
 * PD drive `τ = kp·(θd − θ) + kv·(θ̇d − θ̇)` as a soft row: kp in N·m/rad (or N/m), kv in N·m·s/rad (or
 * N·s/m), dt the solver step h in s.
 */
export function makeSoft(kp: number, kv: number, dt: number, out: Softness = { biasRate: 0, softness: 0 }): Softness {
  const d = kv + dt * kp;
  if (!(d > 0)) { out.biasRate = 0; out.softness = Infinity; return out; }
  out.biasRate = kp / d;
  out.softness = 1 / (dt * d);
  return out;
}

/** Box2D's mass-normalised form: a spring of natural frequency `hertz` and damping ratio `zeta` whatever
 *  the row's mass. Returns the factors that multiply the rigid effective mass m = 1/K:
 *  Δλ = −massScale·m·(Ċ + biasRate·C) − impulseScale·λ_acc. */
export interface MassSoftness { biasRate: number; massScale: number; impulseScale: number }

/** A Softness for makeSoft to write into: a class instance with double fields (stepContext.ts says why). */
export class SoftnessOut implements Softness {
  biasRate = Number.NaN;
  softness = Number.NaN;
}

/** A MassSoftness for makeSoftHertz to write into: a class instance with double fields (stepContext.ts says why). */
export class MassSoftnessOut implements MassSoftness {
  biasRate = Number.NaN;
  massScale = Number.NaN;
  impulseScale = Number.NaN;
}

export function makeSoftHertz(hertz: number, zeta: number, h: number, out: MassSoftness = { biasRate: 0, massScale: 1, impulseScale: 0 }): MassSoftness {
  if (hertz === 0) { out.biasRate = 0; out.massScale = 1; out.impulseScale = 0; return out; }
  const omega = 2 * Math.PI * hertz;
  const a1 = 2 * zeta + h * omega;
  const a2 = h * omega * a1;
  const a3 = 1 / (1 + a2);
  out.biasRate = omega / a1;
  out.massScale = a2 * a3;
  out.impulseScale = a3;
  return out;
}
