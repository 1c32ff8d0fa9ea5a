/** What every solver stage needs for one substep, passed explicitly (no globals, no closures). */
import type { BodyStore } from './bodies';

export interface StepContext {
  bodies: BodyStore;
  /** Joint records (see joints/jointLayout.ts). */
  joints: Float64Array;
  /** Substep h = dt / substeps (s) and its inverse. The motor clamp is per h: |λ_acc| ≤ τmax·h. */
  h: number;
  invH: number;
  /**
   * Joint error correction (our choice: Baumgarte at the POSITION level, Box2D v2.4 / Jolt style).
   * The velocity rows of joints are rigid (Ċ = 0, no bias: no energy is pumped in); after the positions
   * are integrated, each position iteration recomputes C from the actual poses and moves the bodies by the
   * pseudo-impulse −positionBeta·K⁻¹·C (non-linear Gauss-Seidel), so chains keep their anchors together
   * without any correction velocity surviving into the next step.
   */
  positionBeta: number;
  /** Optional velocity-level Baumgarte for the equality rows (0 = off, the default). */
  velocityBeta: number;
  /** Velocity Baumgarte for penetrated joint LIMITS (β·C/h in the solve pass, 0.2). */
  beta: number;
  /** Cap on any bias velocity from position error (m/s or rad/s), so a teleport does not explode. */
  maxBiasVelocity: number;
}
