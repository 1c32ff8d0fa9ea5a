/** What every solver stage needs for one substep, passed explicitly (no globals, no closures). */
import type { BodyStore } from './bodies';
import { SoftnessOut, type Softness } from './soft';

/**
 * Per-world scratch for the joint solver: small vectors the row helpers write their results into. V8 boxes
 * every double argument or return value of a call it does not inline in a fresh heap number, so the helpers
 * take and give vectors through these instead (≈ 2 MB of garbage per step with 128 ragdolls otherwise).
 * One set per World (in its StepContext), never module state: two worlds stepping in one thread, or a
 * joint type added in another file, share nothing.
 */
export class JointScratch {
  /** World frame rotations qA·QA, qB·QB of the joint being worked on (x y z w). */
  readonly qFA = new Float64Array(4);
  readonly qFB = new Float64Array(4);
  /** Vector result of rotate(), rotateFrom(), rotationVector(). */
  readonly tv = new Float64Array(3);
  /** Relative rotation conj(qFA)·qFB (x y z w). */
  readonly qr = new Float64Array(4);
  /** swingTwist() result: [twist about X, swing about Y, swing about Z] (rad), frame A. */
  readonly swing = new Float64Array(3);
  /** ballJoint.ts swingConeGap: the swing cone's outward unit normal (frame A's Y, Z components) and the gap along it. */
  readonly cone = new Float64Array(3);
  /** Impulse magnitude λ for an angular kick along a stored axis. */
  readonly lam = new Float64Array(1);
  /** Linear impulse P for kickPoint (N·s). */
  readonly pointImpulse = new Float64Array(3);
  /** prepareMotorRow inputs: C (current − target), the row's inverse effective mass K, and the joint's load
   *  ratio (jointStore.ts motorLoadRatio: masses, and a side's anchor arm when its partner cannot move; a prismatic raises it to its slide row's own), and the K that scales the
   *  position drive's compliance (the same for every row of a joint: the rows share one γ); out, [4]: set to 1
   *  when the load ratio's compliance acted on a row (prepareJoints marks the joint for world.ts's local sweeps). */
  readonly motorIn = new Float64Array(5);
  /** Per-axis motor errors for prepareAngularMotor. */
  readonly motorErr = new Float64Array(3);
  /** ballJoint.ts: the motor's target clamped into the twist range and swing cone (x y z w). */
  readonly motorTarget = new Float64Array(4);
  /** clampSwingTwistTargetOf's limits and current swing-twist (ballJoint.ts clampTargetToLimits). */
  readonly clampIn = new Float64Array(7);
  /** makeSoft's output for a PD motor row. */
  readonly soft: Softness = new SoftnessOut();
  /** ballJoint.ts holdBallDrive: the inverse of I_A⁻¹ + I_B⁻¹ (sym 3×3: xx xy xz yy yz zz). */
  readonly holdK = new Float64Array(6);
  /** Position moves: angular pseudo-impulse L (turn / turnBy / kickAngularBy). */
  readonly lv = new Float64Array(3);
  /** Position moves: linear pseudo-impulse P (0..2), arm r_A (3..5), arm r_B (6..8) for push(). */
  readonly mv = new Float64Array(9);
  /** SHAKE correction: r_A 0..2, r_B 3..5, K⁻¹ 6..11, C 12..14 at the current poses. */
  readonly cur = new Float64Array(15);
  /** SHAKE correction: the angular lock error at the current poses. */
  readonly ce = new Float64Array(3);
  /** coupledJoint.ts: frame A's x, y, z axes (world, 9) and its position projection's block system
   *  (K, up to 5×5, then the right-hand side, 5). */
  readonly axes = new Float64Array(9);
  readonly block = new Float64Array(30);
  /** coupledJoint.ts's projection: the two bodies' poses (p 3, q 4; A then B) before its last Newton step. */
  readonly poses = new Float64Array(14);
  /** coupledJoint.ts's projection: the joint's six row geometries as prepared for the substep (6 × G_SIZE). */
  readonly preparedRows = new Float64Array(72);
}

/** The most a position error may push back (m/s or rad/s): StepContext.maxBiasVelocity, and the articulated
 *  solver's stops (articulated/drives.ts). */
export const MAX_BIAS_VELOCITY = 4;

/**
 * The per-world objects the hot functions read (this context, its joint scratch and softness, the
 * contacts' softness) are class instances whose changing number fields start as NaN, a double. Two V8 behaviours
 * made every World after a process's first throw away the solver's optimised code and run it ~300 steps
 * slowly until it was optimised again (ragdoll11 × 1: 0.40 ms a step at first; 0.050 ms over the bench's
 * timed window, 0.033 once warm; every re-simulation after an edit in the editor makes a new World):
 *  - an object literal becomes a boilerplate the second time it runs, and its map's fields are then
 *    marked mutable, deoptimising the code compiled against them (36 functions, from the joints' prepare
 *    to the contact sweep);
 *  - a number field first given an integer (0, 1, 4) is stored as a small integer and changes to a double
 *    on its first fractional value, a map change that deoptimises the same way.
 * tests/unit/physics/jit.test.ts counts these deoptimisations when a second World is made: none.
 */
export class StepContext {
  /** The joint solver's scratch vectors (this world's own). */
  readonly scratch = new JointScratch();
  /** Substep h = dt / substeps (s) and its inverse. The motor clamp is per h: |λ_acc| ≤ τmax·h. */
  h = Number.NaN;
  invH = Number.NaN;
  /**
   * Joint error correction (our choice: Baumgarte at the POSITION level, Box2D v2.4 / Jolt style).
   * The velocity rows of joints are rigid (Ċ = 0, no bias: no energy is pumped in); after the positions
   * are integrated, each position iteration recomputes C from the actual poses and moves the bodies by the
   * pseudo-impulse −positionBeta·K⁻¹·C (non-linear Gauss-Seidel), so chains keep their anchors together
   * without any correction velocity surviving into the next step.
   */
  positionBeta = Number.NaN;
  /** Optional velocity-level Baumgarte for the equality rows (0 = off, the default). */
  readonly velocityBeta = 0;
  /** Velocity Baumgarte for penetrated joint LIMITS (β·C/h in the solve pass, 0.2). */
  readonly beta = 0.2;
  /** Cap on any bias velocity from position error (m/s or rad/s), so a teleport does not explode. */
  readonly maxBiasVelocity = MAX_BIAS_VELOCITY;
  /** The most one position iteration turns a joint back toward a stop it is past (rad): maxBiasVelocity·h /
   *  positionIterations, so over a substep the position correction restores a stop no faster than the stop's
   *  velocity bias may push (positionProjection.ts projectAngularStop). Set by World.step. */
  stopStep = 0;

  /** `joints` is the world's joint records (see joints/jointLayout.ts); positionBeta its
   *  WorldSettings.jointErrorReduction. */
  constructor(public bodies: BodyStore, public joints: Float64Array, positionBeta: number) {
    this.h = 0; this.invH = 0; this.positionBeta = positionBeta;
  }
}
