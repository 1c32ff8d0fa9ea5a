/**
 * Swing-twist of a ball joint's rotation (frame B relative to frame A, in A's axes), shared by the rigid
 * ball joint (joints/ballJoint.ts) and the articulated solver's ball drives (articulated/drives.ts), so
 * both decompose, limit and clamp a ball the same way.
 */
import { wrapAngle } from '../math/quat';

/**
 * Decompose q (frame B relative to frame A, in A's axes) as q = swing·twist with twist about X, into
 * out = [twist angle, swing about Y, swing about Z] (rad, frame A).
 * twist angle = 2·atan2(x, w) after choosing w ≥ 0 (so it lies in (−π, π)); swing = q·twist⁻¹ has no x
 * part, and its rotation vector (0, θy, θz) gives the swing angles. Signed throughout: no 170°/190° mix-up.
 */
export function swingTwist(out: Float64Array, x: number, y: number, z: number, w: number): void {
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  const tn = Math.sqrt(x * x + w * w);
  let tx = 0, tw = 1;
  if (tn > 1e-12) { tx = x / tn; tw = w / tn; }
  out[0] = 2 * Math.atan2(tx, tw);
  // swing = q ⊗ conj(twist), twist = (tx, 0, 0, tw)
  const sy = y * tw - z * tx, sz = z * tw + y * tx, sw = w * tw + x * tx;
  const sn = Math.sqrt(sy * sy + sz * sz);
  const k = sn > 1e-12 ? (2 * Math.atan2(sn, sw)) / sn : 2;
  out[1] = sy * k;
  out[2] = sz * k;
}

/** swingTwist of the quaternion q[at..at+3], for the solver's hot callers: the same arithmetic, and V8 boxes no
 *  double when it does not inline this call (the four components travel in the array). */
export function swingTwistOf(out: Float64Array, q: Float64Array, at: number): void {
  swingTwist(out, q[at]!, q[at + 1]!, q[at + 2]!, q[at + 3]!);
}

/** clampSwingTwistTarget with its seven doubles in lim = [twistLo, twistHi, swingY, swingZ, curTwist, curY,
 *  curZ]: for the solver's hot caller, where V8 would box them when it does not inline the call. */
export function clampSwingTwistTargetOf(q: Float64Array, st: Float64Array, lim: Float64Array): boolean {
  return clampSwingTwistTarget(q, st, lim[0]!, lim[1]!, lim[2]!, lim[3]!, lim[4]!, lim[5]!, lim[6]!);
}

/**
 * A ball motor's target S = q (x y z w, frame B relative to frame A) clamped, in place, into the joint's
 * twist range [twistLo, twistHi] and elliptical swing cone (half-angles swingY, swingZ about frame Y and Z),
 * as Jolt's SwingTwistConstraint::SetTargetOrientationCS does: a target the limits exclude becomes the
 * nearest allowed one (twist clamped to the range, to the end nearer on the circle; swing scaled back onto
 * the ellipse along its own direction), S = swing·twist rebuilt. Each range is widened to take in the
 * current pose (curTwist; curY, curZ the current swing) when that lies outside it (a rig started past its
 * stop): the drive then holds where the stop has it instead of striking toward the far limit at r·C/h, and
 * the stop alone brings the joint back. No limit: twistLo = −∞ / twistHi = +∞, swingY = swingZ = +∞.
 * A target inside the range is left as it is (bit for bit); returns whether q was changed. `st` is a
 * 3-element scratch (swingTwist's output).
 * Why (docs/physics.md "What prevents explosions"): a drive whose target lies past its stop holds a
 * standing error ε against it, and with |ε| = θ large the per-axis bias −r·ε_k/h is unstable: the stop
 * freezes ε's own component while the other rows drive the rest, and the rotation vector's rate is
 * J⁻¹(ε)·ω, which turns the perpendicular correction by atan(b/a) (a = (θ/2)·cot(θ/2), b = θ/2) and scales
 * it; the discrete loop δ' = (1 − r·(a ± ib))·δ grows once r·(a² + b²) > 2a — for r ≤ 1 from θ ≈ 1.9 rad,
 * for every r as θ → π. (With the whole error free to move, ε' = (1 − r)·ε exactly: no loop.)
 */
export function clampSwingTwistTarget(
  q: Float64Array, st: Float64Array, twistLo: number, twistHi: number, swingY: number, swingZ: number,
  curTwist: number, curY: number, curZ: number,
): boolean {
  swingTwistOf(st, q, 0);
  let twist = st[0]!, sy = st[1]!, sz = st[2]!, clamped = false;
  const lo = Math.min(twistLo, curTwist), hi = Math.max(twistHi, curTwist);
  // Past the range: the end nearer on the circle (a target at −3.1 rad is beside a stop at 3.0).
  if (twist < lo || twist > hi) { twist = Math.abs(wrapAngle(twist - lo)) <= Math.abs(wrapAngle(twist - hi)) ? lo : hi; clamped = true; }
  const theta = Math.sqrt(sy * sy + sz * sz);
  if (theta > 1e-9) {
    // g = 1 on the ellipse; the range reaches out to the current swing when that is outside it.
    const g = Math.sqrt((sy / swingY) ** 2 + (sz / swingZ) ** 2), gMax = Math.max(1, Math.sqrt((curY / swingY) ** 2 + (curZ / swingZ) ** 2));
    if (g > gMax) { const f = gMax / g; sy *= f; sz *= f; clamped = true; }
  }
  if (!clamped) return false;
  // swing = (0, ŝ·sin(θs/2), cos(θs/2)) about (0, sy, sz)/θs; twist = (sin(t/2), 0, 0, cos(t/2)); S = swing ⊗ twist.
  const ts = Math.sqrt(sy * sy + sz * sz), k = ts > 1e-12 ? Math.sin(ts / 2) / ts : 0.5;
  const qy = sy * k, qz = sz * k, qw = Math.cos(ts / 2), tx = Math.sin(twist / 2), tw = Math.cos(twist / 2);
  q[0] = qw * tx; q[1] = qy * tw + qz * tx; q[2] = qz * tw - qy * tx; q[3] = qw * tw;
  return true;
}
