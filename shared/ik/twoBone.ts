/**
 * Analytic two-bone IK for a shoulder (ball) + elbow (hinge) arm, with an optional wrist hinge whose angle
 * aims the hand. Works on a Chain (./chain.ts) of 2 or 3 joints: [ball, hinge] or [ball, hinge, hinge];
 * the chain's effector (e.g. the palm) is what lands on the target.
 *
 * The math, in the shoulder's frame-B coordinates (the arm at S = identity, origin at the shoulder):
 *   u    = elbow anchor,  h = elbow hinge axis (unit),  v(θw) = effector − elbow at elbow angle 0
 *   w(θ) = u + Rot(h, θ)·v                                   (effector at elbow angle θ)
 *   |w|² = |u|² + |v|² + 2·(C + A·cos θ + B·sin θ),   C = u·v∥,  A = u·v⊥,  B = u·(h × v⊥)
 * so the elbow angle that puts the effector at distance d from the shoulder is
 *   θ = φ ± acos((d² − |u|² − |v|² − 2C) / 2K),   K = √(A² + B²), φ = atan2(B, A).
 * This is exact for any arm geometry (bones need not be straight, the axis need not be perpendicular): the
 * bend happens about the elbow's own hinge axis. Of the two roots we take the one inside the elbow limit
 * (clamped to the limit when neither is, keeping the one whose clamped distance error is smaller), so an
 * unreachable target gives the arm straight toward it (cos clamped to 1) or folded (−1), and the shoulder is
 * then aimed with the clamped elbow: "clamp, then re-aim".
 *
 * Shoulder: S maps w(θ) onto the target direction d̂ and the arm-plane normal n = u × w onto
 * normalise(pole⊥ × d̂), which puts the elbow on the pole's side of the shoulder→target line. S is then
 * held inside the shoulder's twist/swing limits.
 *
 * Wrist: the hinge angle θw that turns the hand's wrist→effector vector q closest to the aim direction g:
 * in wrist frame A, g·RotX(θw)q = gx·qx + cos θw·(gy·qy + gz·qz) + sin θw·(gz·qy − gy·qz), maximal at
 * θw = atan2(gz·qy − gy·qz, gy·qy + gz·qz), clamped to the limit. The effector depends on θw, so the arm and
 * the wrist are solved alternately a few times (each pass is closed-form; the hand is short, it settles in
 * two or three). Reach comes before aim: when the aimed hand falls short but a straighter wrist reaches, the
 * wrist gives up as little of the aim as it must.
 *
 * When the shoulder's own limits clip S (the pole asks for more twist than the joint has), a short limited
 * CCD run (./ccd.ts) from the analytic answer recovers the nearest pose that the limits allow.
 *
 * Degenerate inputs never produce NaN: target at the shoulder → keep the current reach direction; pole on
 * the shoulder→target line → the current elbow, then any perpendicular.
 */
import { cross, dot, length, normalize, anyPerpendicular, sub, scale, add, type ReadonlyVec3, type Vec3 } from '../math/vec3';
import { quatConj, quatFromAxisAngle, quatFromTo, quatMul, quatNormalize, quatRotate, type Quat } from '../math/quat';
import { composeTransforms, invertTransform, inverseTransformPoint, transformPoint, type ReadonlyTransform } from '../math/transform';
import { solveCcd } from './ccd';
import { clampAngle, clampBall, forwardKinematics, type Chain, type ChainJoint, type JointValue } from './chain';

export interface TwoBoneGoal {
  /** World point the effector should reach (m). */
  target: ReadonlyVec3;
  /** World point the elbow bends toward (m). */
  pole: ReadonlyVec3;
  /** World direction the hand's wrist→effector vector should point (e.g. [0, −1, 0]: fingers to the
   *  floor); omitted or null → wrist held at its rest angle (clamped to its limit). */
  handAim?: ReadonlyVec3 | null;
}

export interface TwoBoneResult {
  /** [S (shoulder, frame B rel. frame A), elbow angle, wrist angle?] — what the motors take. */
  values: JointValue[];
  /** Where the effector ends up with these values (m, world). */
  effector: Vec3;
  /** |effector − target| (m). */
  error: number;
}

const X: ReadonlyVec3 = [1, 0, 0];
const WRIST_PASSES = 3;
const CCD_REFINE_ITERATIONS = 24;
/** Halvings of the wrist blend when trading aim for reach: 2⁻¹⁰ of the wrist's swing is < 0.2°. */
const WRIST_BISECTIONS = 10;
/** Residual (m) below which a target counts as reached when trading hand aim for reach. */
const REACH_TOLERANCE = 1e-6;

type Hinge = Extract<ChainJoint, { type: 'hinge' }>;
type Ball = Extract<ChainJoint, { type: 'ball' }>;

/** Throws a clear message unless the chain is [ball, hinge] or [ball, hinge, hinge]. */
export function assertTwoBoneChain(chain: Chain, where = 'chain'): void {
  const t = chain.joints.map((j) => j.type);
  const ok = (t.length === 2 || t.length === 3) && t[0] === 'ball' && t.slice(1).every((x) => x === 'hinge');
  if (!ok) throw new Error(`${where}: two-bone IK needs [ball, hinge] or [ball, hinge, hinge] (shoulder, elbow, wrist), got [${t.join(', ')}]`);
}

/**
 * Solve the arm for `goal` with the root body at `root` (world). `current` (same layout as the result)
 * breaks ties and supplies fallbacks in degenerate cases; rest pose if omitted.
 */
export function solveTwoBone(chain: Chain, root: ReadonlyTransform, goal: TwoBoneGoal, current?: readonly JointValue[]): TwoBoneResult {
  assertTwoBoneChain(chain);
  const [shoulder, elbowJ, wristJ] = chain.joints as [Ball, Hinge, Hinge | undefined];
  const cur: JointValue[] = current && current.length === chain.joints.length
    ? [...current] : chain.joints.map((j) => (j.type === 'ball' ? [0, 0, 0, 1] as Quat : 0));

  // Shoulder joint frame A in the world, and the goal in its coordinates.
  const shoulderA = composeTransforms(root, { position: shoulder.frameA.position, rotation: shoulder.frameA.rotation });
  const t = inverseTransformPoint(shoulderA, goal.target);
  const pole = inverseTransformPoint(shoulderA, goal.pole);

  // Elbow frame A expressed in shoulder frame-B coordinates.
  const elbowA = composeTransforms(invertTransform(shoulder.frameB), elbowJ.frameA);
  const u: Vec3 = elbowA.position;
  const h = quatRotate(elbowA.rotation, X);

  // Fallback reach direction and elbow from the current pose.
  const curFk = forwardKinematics(chain, root, cur);
  const curReach = inverseTransformPoint(shoulderA, curFk.effector);
  const curElbow = inverseTransformPoint(shoulderA, curFk.links[0] ? transformPoint(curFk.links[0], elbowJ.frameA.position) : [0, 0, 0]);

  let wristAngle = wristJ ? clampAngle(typeof cur[2] === 'number' ? cur[2] : 0, wristJ.limit) : 0;
  let S: Quat = [0, 0, 0, 1];
  let elbowAngle = typeof cur[1] === 'number' ? cur[1] : 0;

  let shoulderClamped = false;
  const solveArm = () => {
    // Effector relative to the elbow at elbow angle 0, in shoulder-B coordinates.
    const v = quatRotate(elbowA.rotation, effectorInElbowB(chain, wristJ ? wristAngle : undefined));
    elbowAngle = solveElbow(u, h, v, length(t), elbowJ.limit, typeof cur[1] === 'number' ? cur[1] : 0);
    const w = add(u, quatRotate(quatFromAxisAngle(h, elbowAngle), v));
    const aimed = aimShoulder(u, h, v, w, elbowJ.limit, t, pole, curReach, curElbow);
    S = clampBall(aimed, shoulder.twistLimit, shoulder.swingLimit);
    shoulderClamped = Math.abs(aimed[0] * S[0] + aimed[1] * S[1] + aimed[2] * S[2] + aimed[3] * S[3]) < 1 - 1e-12;
  };

  if (wristJ && goal.handAim) {
    // Alternate: arm for the current hand, hand for the new arm; the last arm pass makes the reach exact.
    for (let pass = 0; pass < WRIST_PASSES; pass++) {
      solveArm();
      const fk = forwardKinematics(chain, root, [S, elbowAngle, 0]);
      const wristA = composeTransforms(fk.links[1]!, wristJ.frameA);
      const g = quatRotate(quatConj(wristA.rotation), normalize(goal.handAim, [0, -1, 0]));
      const q = inverseTransformPoint(wristJ.frameB, chain.effector);
      if (Math.hypot(q[1], q[2]) > 1e-9) {
        wristAngle = clampAngle(Math.atan2(g[2] * q[1] - g[1] * q[2], g[1] * q[1] + g[2] * q[2]), wristJ.limit);
      }
    }
  } else if (wristJ) {
    wristAngle = clampAngle(0, wristJ.limit);
  }
  solveArm();

  // Reach before aim: a hand turned to the floor shortens the arm. If the aimed hand cannot reach but the
  // hand at rest can, take the wrist angle nearest the aim that still reaches (bisection on the blend).
  if (wristJ && goal.handAim) {
    const errorNow = () => length(sub(forwardKinematics(chain, root, [S, elbowAngle, wristAngle]).effector, goal.target));
    const aimed = wristAngle, rest = clampAngle(0, wristJ.limit);
    if (errorNow() > REACH_TOLERANCE && aimed !== rest) {
      wristAngle = rest; solveArm();
      if (errorNow() <= REACH_TOLERANCE) {
        let lo = 0, hi = 1; // blend toward the aim that still reaches / that does not
        for (let k = 0; k < WRIST_BISECTIONS; k++) {
          const mid = (lo + hi) / 2;
          wristAngle = rest + (aimed - rest) * mid; solveArm();
          if (errorNow() <= REACH_TOLERANCE) lo = mid; else hi = mid;
        }
        wristAngle = rest + (aimed - rest) * lo; solveArm();
      }
    }
  }

  let values: JointValue[] = wristJ ? [S, elbowAngle, wristAngle] : [S, elbowAngle];
  let effector = forwardKinematics(chain, root, values).effector;
  let error = length(sub(effector, goal.target));
  // The shoulder's twist/swing clamp can pull the elbow out of the pole plane and miss a reachable target.
  // Limited CCD from here finds the nearest pose the limits allow (it only ever keeps an improvement).
  if (error > REACH_TOLERANCE && shoulderClamped) {
    const refined = solveCcd(chain, root, goal.target, values, { iterations: CCD_REFINE_ITERATIONS, tolerance: REACH_TOLERANCE });
    if (refined.error < error) ({ values, effector, error } = refined);
  }
  return { values, effector, error };
}

/** Effector relative to the elbow anchor, in elbow frame-B coordinates, at the given wrist angle. */
function effectorInElbowB(chain: Chain, wristAngle: number | undefined): Vec3 {
  const elbow = chain.joints[1]!;
  const inElbowB = invertTransform(elbow.frameB);
  if (wristAngle === undefined) return transformPoint(inElbowB, chain.effector);
  const wrist = chain.joints[2]!;
  const wristB = transformPoint(invertTransform(wrist.frameB), chain.effector);
  const inForearm = add(wrist.frameA.position, quatRotate(quatMul(wrist.frameA.rotation, quatFromAxisAngle(X, wristAngle)), wristB));
  return transformPoint(inElbowB, inForearm);
}

/** Elbow angle putting the effector at distance d from the shoulder (see the module comment). */
export function solveElbow(u: ReadonlyVec3, h: ReadonlyVec3, v: ReadonlyVec3, d: number,
  limit: readonly [number, number] | undefined, currentAngle: number): number {
  const vPar = scale(h, dot(v, h));
  const vPerp = sub(v, vPar);
  const C = dot(u, vPar), A = dot(u, vPerp), B = dot(u, cross(h, vPerp));
  const K = Math.hypot(A, B);
  if (K < 1e-12) return clampAngle(currentAngle, limit); // distance independent of θ
  const base = dot(u, u) + dot(v, v) + 2 * C;
  const phi = Math.atan2(B, A);
  const c = Math.max(-1, Math.min(1, (d * d - base) / (2 * K)));
  const alpha = Math.acos(c);
  const distAt = (th: number) => Math.sqrt(Math.max(0, base + 2 * K * Math.cos(th - phi)));
  let best = clampAngle(currentAngle, limit), bestErr = Infinity, bestMove = Infinity;
  for (const cand of [phi + alpha, phi - alpha]) {
    const th = clampAngle(cand, limit);
    const err = Math.abs(distAt(th) - d);
    const move = Math.abs(th - currentAngle);
    // Prefer the smaller distance error; among (near-)equal ones, the smaller change from the current pose.
    if (err < bestErr - 1e-9 || (Math.abs(err - bestErr) <= 1e-9 && move < bestMove)) { best = th; bestErr = err; bestMove = move; }
  }
  return best;
}

/** Shoulder rotation S: w → target direction, elbow toward the pole (see the module comment). */
function aimShoulder(u: Vec3, h: Vec3, v: Vec3, w: Vec3, elbowLimit: readonly [number, number] | undefined,
  t: Vec3, pole: Vec3, curReach: Vec3, curElbow: Vec3): Quat {
  const dHat = length(t) > 1e-9 ? normalize(t) : normalize(curReach, normalize(w));
  const wHat = normalize(w, dHat);

  // Arm-plane normal in arm coordinates; a straight arm takes it from a reference bend inside the limit.
  let nLocal = cross(u, w);
  if (length(nLocal) < 1e-6 * (length(u) * length(w) + 1e-12)) {
    const ref = elbowLimit ? (Math.abs(elbowLimit[1]) >= Math.abs(elbowLimit[0]) ? elbowLimit[1] : elbowLimit[0]) * 0.5 : 0.5;
    const wRef = add(u, quatRotate(quatFromAxisAngle(h, ref || 0.5), v));
    nLocal = cross(u, wRef);
    // Re-orthogonalise against w (the reference bend's plane normal is not exactly ⊥ w when straight).
    nLocal = sub(nLocal, scale(wHat, dot(nLocal, wHat)));
    if (length(nLocal) < 1e-9) nLocal = anyPerpendicular(wHat);
  }
  nLocal = normalize(nLocal);

  // Desired plane normal: pole⊥ × d̂, with fallbacks when the pole lies on the reach line.
  const perp = (p: Vec3) => sub(p, scale(dHat, dot(p, dHat)));
  let poleP = perp(pole);
  if (length(poleP) < 1e-6) poleP = perp(curElbow);
  if (length(poleP) < 1e-6) poleP = anyPerpendicular(dHat);
  const nWorld = normalize(cross(poleP, dHat), anyPerpendicular(dHat));

  const q1 = quatFromTo(wHat, dHat);
  const n1 = quatRotate(q1, nLocal);
  const psi = Math.atan2(dot(cross(n1, nWorld), dHat), dot(n1, nWorld));
  return quatNormalize(quatMul(quatFromAxisAngle(dHat, psi), q1));
}
