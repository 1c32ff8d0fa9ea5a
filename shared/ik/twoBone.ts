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
import { dot, length, anyPerpendicular, add, addTo, copyVec3, crossTo, normalizeTo, rejectTo, subTo,
  type ReadonlyVec3, type Vec3 } from '../math/vec3';
import { quatFromAxisAngleTo, quatFromToTo, quatMulTo, quatNormalizeTo, quatRotateInverseTo, quatRotateTo, type Quat } from '../math/quat';
import { composeTransformsTo, inverseTransformPointTo, invertTransformTo, newTransform, transformPointTo, type ReadonlyTransform } from '../math/transform';
import { solveCcd } from './ccd';
import { clampAngle, clampBallTo, forwardKinematicsInto, type Chain, type ChainJoint, type JointValue } from './chain';

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
  const js = chain.joints, n = js.length;
  // Checked every solve, so without arrays: [ball, hinge] or [ball, hinge, hinge].
  if ((n === 2 || n === 3) && js[0]!.type === 'ball' && js[1]!.type === 'hinge' && (n === 2 || js[2]!.type === 'hinge')) return;
  throw new Error(`${where}: two-bone IK needs [ball, hinge] or [ball, hinge, hinge] (shoulder, elbow, wrist), got [${js.map((j) => j.type).join(', ')}]`);
}

/**
 * Solve the arm for `goal` with the root body at `root` (world). `current` (same layout as the result)
 * breaks ties and supplies fallbacks in degenerate cases; rest pose if omitted.
 */
export function solveTwoBone(chain: Chain, root: ReadonlyTransform, goal: TwoBoneGoal, current?: readonly JointValue[]): TwoBoneResult {
  assertTwoBoneChain(chain);
  // Every intermediate lives in the module's scratch (W): one solve per step per arm made ~200 small arrays
  // before. The arithmetic is the one described above, operation for operation (results bit for bit the
  // same as the allocating version this replaced).
  const shoulder = chain.joints[0] as Ball, elbowJ = chain.joints[1] as Hinge, wristJ = chain.joints[2] as Hinge | undefined;
  const haveCurrent = current !== undefined && current.length === chain.joints.length;
  const cur = W.cur;
  cur.length = chain.joints.length;
  for (let i = 0; i < chain.joints.length; i++) {
    const c = haveCurrent ? current[i]! : chain.joints[i]!.type === 'ball' ? IDENTITY : 0;
    if (typeof c === 'number') cur[i] = c;
    else { const q = W.curQ[i]!; q[0] = c[0]; q[1] = c[1]; q[2] = c[2]; q[3] = c[3]; cur[i] = q; }
  }
  const cur1 = typeof cur[1] === 'number' ? cur[1] : 0;

  // Shoulder joint frame A in the world, and the goal in its coordinates.
  const shoulderA = composeTransformsTo(W.shoulderA, root, shoulder.frameA);
  const t = inverseTransformPointTo(W.t, shoulderA, goal.target);
  const pole = inverseTransformPointTo(W.pole, shoulderA, goal.pole);

  // Elbow frame A expressed in shoulder frame-B coordinates.
  const elbowA = composeTransformsTo(W.elbowA, invertTransformTo(W.tmpT, shoulder.frameB), elbowJ.frameA);
  const u: Vec3 = elbowA.position;
  const h = quatRotateTo(W.h, elbowA.rotation, X);
  // Constant over the solve (effectorInElbowB): elbow frame B inverted, the effector in wrist frame B.
  invertTransformTo(W.inElbowB, elbowJ.frameB);
  if (wristJ) transformPointTo(W.wristB, invertTransformTo(W.tmpT, wristJ.frameB), chain.effector);

  // Fallback reach direction and elbow from the current pose.
  const curEff = forwardKinematicsInto(chain, root, cur, W.links, W.eff);
  const curReach = inverseTransformPointTo(W.curReach, shoulderA, curEff);
  const curElbow = inverseTransformPointTo(W.curElbow, shoulderA, transformPointTo(W.tmpV, W.links[0]!, elbowJ.frameA.position));

  const arm: ArmState = W.arm;
  arm.wristAngle = wristJ ? clampAngle(typeof cur[2] === 'number' ? cur[2] : 0, wristJ.limit) : 0;
  const S = arm.S; S[0] = 0; S[1] = 0; S[2] = 0; S[3] = 1;
  arm.elbowAngle = cur1;
  arm.shoulderClamped = false;
  const lengthT = length(t);
  const values = W.values;
  values.length = 3; values[0] = S;

  if (wristJ && goal.handAim) {
    // Alternate: arm for the current hand, hand for the new arm; the last arm pass makes the reach exact.
    const q = inverseTransformPointTo(W.q, wristJ.frameB, chain.effector);
    const aim = normalizeTo(W.aim, goal.handAim, DOWN);
    for (let pass = 0; pass < WRIST_PASSES; pass++) {
      solveArm(chain, arm, u, h, lengthT, t, pole, curReach, curElbow, cur1);
      values[1] = arm.elbowAngle; values[2] = 0;
      forwardKinematicsInto(chain, root, values, W.links, W.eff);
      const wristA = composeTransformsTo(W.tmpT, W.links[1]!, wristJ.frameA);
      const g = quatRotateInverseTo(W.g, wristA.rotation, aim);
      if (Math.hypot(q[1], q[2]) > 1e-9) {
        arm.wristAngle = clampAngle(Math.atan2(g[2] * q[1] - g[1] * q[2], g[1] * q[1] + g[2] * q[2]), wristJ.limit);
      }
    }
  } else if (wristJ) {
    arm.wristAngle = clampAngle(0, wristJ.limit);
  }
  solveArm(chain, arm, u, h, lengthT, t, pole, curReach, curElbow, cur1);

  // Reach before aim: a hand turned to the floor shortens the arm. If the aimed hand cannot reach but the
  // hand at rest can, take the wrist angle nearest the aim that still reaches (bisection on the blend).
  if (wristJ && goal.handAim) {
    const aimed = arm.wristAngle, rest = clampAngle(0, wristJ.limit);
    if (reachError(chain, root, arm, goal.target) > REACH_TOLERANCE && aimed !== rest) {
      arm.wristAngle = rest; solveArm(chain, arm, u, h, lengthT, t, pole, curReach, curElbow, cur1);
      if (reachError(chain, root, arm, goal.target) <= REACH_TOLERANCE) {
        let lo = 0, hi = 1; // blend toward the aim that still reaches / that does not
        for (let k = 0; k < WRIST_BISECTIONS; k++) {
          const mid = (lo + hi) / 2;
          arm.wristAngle = rest + (aimed - rest) * mid; solveArm(chain, arm, u, h, lengthT, t, pole, curReach, curElbow, cur1);
          if (reachError(chain, root, arm, goal.target) <= REACH_TOLERANCE) lo = mid; else hi = mid;
        }
        arm.wristAngle = rest + (aimed - rest) * lo; solveArm(chain, arm, u, h, lengthT, t, pole, curReach, curElbow, cur1);
      }
    }
  }

  let result: JointValue[] = wristJ ? [[S[0], S[1], S[2], S[3]], arm.elbowAngle, arm.wristAngle] : [[S[0], S[1], S[2], S[3]], arm.elbowAngle];
  let effector: Vec3 = [0, 0, 0];
  forwardKinematicsInto(chain, root, result, W.links, effector);
  let error = length(subTo(W.tmpV, effector, goal.target));
  // The shoulder's twist/swing clamp can pull the elbow out of the pole plane and miss a reachable target.
  // Limited CCD from here finds the nearest pose the limits allow (it only ever keeps an improvement).
  if (error > REACH_TOLERANCE && arm.shoulderClamped) {
    const refined = solveCcd(chain, root, goal.target, result, { iterations: CCD_REFINE_ITERATIONS, tolerance: REACH_TOLERANCE });
    if (refined.error < error) ({ values: result, effector, error } = refined);
  }
  return { values: result, effector, error };
}

const IDENTITY: Quat = [0, 0, 0, 1];
const DOWN: ReadonlyVec3 = [0, -1, 0];

/** The arm's unknowns, updated by solveArm. */
interface ArmState { S: Quat; elbowAngle: number; wristAngle: number; shoulderClamped: boolean }

/** Scratch for solveTwoBone (single-threaded, not re-entered: solveCcd keeps its own). */
const W = {
  cur: [] as JointValue[],
  curQ: [[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 1]] as Quat[],
  values: [] as JointValue[],
  links: [newTransform(), newTransform(), newTransform()],
  eff: [0, 0, 0] as Vec3,
  shoulderA: newTransform(), elbowA: newTransform(), tmpT: newTransform(), inElbowB: newTransform(),
  t: [0, 0, 0] as Vec3, pole: [0, 0, 0] as Vec3, h: [0, 0, 0] as Vec3, curReach: [0, 0, 0] as Vec3, curElbow: [0, 0, 0] as Vec3,
  tmpV: [0, 0, 0] as Vec3, q: [0, 0, 0] as Vec3, g: [0, 0, 0] as Vec3, aim: [0, 0, 0] as Vec3,
  v: [0, 0, 0] as Vec3, w: [0, 0, 0] as Vec3, rot: [0, 0, 0, 1] as Quat, aimed: [0, 0, 0, 1] as Quat,
  arm: { S: [0, 0, 0, 1], elbowAngle: 0, wristAngle: 0, shoulderClamped: false } as ArmState,
  eib: [0, 0, 0] as Vec3, wristB: [0, 0, 0] as Vec3, fore: [0, 0, 0] as Vec3, wq: [0, 0, 0, 1] as Quat,
  // aimShoulder
  dHat: [0, 0, 0] as Vec3, wHat: [0, 0, 0] as Vec3, nLocal: [0, 0, 0] as Vec3, poleP: [0, 0, 0] as Vec3, nWorld: [0, 0, 0] as Vec3,
  n1: [0, 0, 0] as Vec3, c: [0, 0, 0] as Vec3, q1: [0, 0, 0, 1] as Quat, qa: [0, 0, 0, 1] as Quat,
};

/** |effector − target| with the arm's current values. */
function reachError(chain: Chain, root: ReadonlyTransform, arm: ArmState, target: ReadonlyVec3): number {
  const values = W.values;
  values[0] = arm.S; values[1] = arm.elbowAngle; values[2] = arm.wristAngle;
  return length(subTo(W.tmpV, forwardKinematicsInto(chain, root, values, W.links, W.eff), target));
}

/** One closed-form arm solve for the arm's current wrist angle: elbow, then the (clamped) shoulder. */
function solveArm(chain: Chain, arm: ArmState, u: Vec3, h: Vec3, lengthT: number, t: Vec3, pole: Vec3, curReach: Vec3, curElbow: Vec3, cur1: number): void {
  const shoulder = chain.joints[0] as Ball, elbowJ = chain.joints[1] as Hinge, wristJ = chain.joints[2] as Hinge | undefined;
  const elbowA = W.elbowA;
  // Effector relative to the elbow at elbow angle 0, in shoulder-B coordinates.
  const v = quatRotateTo(W.v, elbowA.rotation, effectorInElbowB(chain, wristJ ? arm.wristAngle : undefined));
  arm.elbowAngle = solveElbow(u, h, v, lengthT, elbowJ.limit, cur1);
  const w = addTo(W.w, u, quatRotateTo(W.w, quatFromAxisAngleTo(W.rot, h, arm.elbowAngle), v));
  const aimed = aimShoulder(u, h, v, w, elbowJ.limit, t, pole, curReach, curElbow);
  const S = clampBallTo(arm.S, aimed, shoulder.twistLimit, shoulder.swingLimit);
  arm.shoulderClamped = Math.abs(aimed[0] * S[0] + aimed[1] * S[1] + aimed[2] * S[2] + aimed[3] * S[3]) < 1 - 1e-12;
}

/** Effector relative to the elbow anchor, in elbow frame-B coordinates, at the given wrist angle (W.eib).
 *  W.inElbowB and W.wristB are set at the start of the solve. */
function effectorInElbowB(chain: Chain, wristAngle: number | undefined): Vec3 {
  const inElbowB = W.inElbowB;
  if (wristAngle === undefined) return transformPointTo(W.eib, inElbowB, chain.effector);
  const wrist = chain.joints[2]!;
  const wristB = W.wristB;
  const r = quatRotateTo(W.fore, quatMulTo(W.wq, wrist.frameA.rotation, quatFromAxisAngleTo(W.wq, X, wristAngle)), wristB);
  const inForearm = addTo(W.fore, wrist.frameA.position, r);
  return transformPointTo(W.eib, inElbowB, inForearm);
}

/** Elbow angle putting the effector at distance d from the shoulder (see the module comment). */
export function solveElbow(u: ReadonlyVec3, h: ReadonlyVec3, v: ReadonlyVec3, d: number,
  limit: readonly [number, number] | undefined, currentAngle: number): number {
  // vPar = h·(v·h), vPerp = v − vPar, without arrays.
  const vh = dot(v, h);
  const px = h[0] * vh, py = h[1] * vh, pz = h[2] * vh;
  const qx = v[0] - px, qy = v[1] - py, qz = v[2] - pz;
  const C = u[0] * px + u[1] * py + u[2] * pz, A = u[0] * qx + u[1] * qy + u[2] * qz;
  const cx = h[1] * qz - h[2] * qy, cy = h[2] * qx - h[0] * qz, cz = h[0] * qy - h[1] * qx; // h × vPerp
  const B = u[0] * cx + u[1] * cy + u[2] * cz;
  const K = Math.hypot(A, B);
  if (K < 1e-12) return clampAngle(currentAngle, limit); // distance independent of θ
  const base = dot(u, u) + dot(v, v) + 2 * C;
  const phi = Math.atan2(B, A);
  const c = Math.max(-1, Math.min(1, (d * d - base) / (2 * K)));
  const alpha = Math.acos(c);
  let best = clampAngle(currentAngle, limit), bestErr = Infinity, bestMove = Infinity;
  for (let k = 0; k < 2; k++) {
    const th = clampAngle(k === 0 ? phi + alpha : phi - alpha, limit);
    const err = Math.abs(Math.sqrt(Math.max(0, base + 2 * K * Math.cos(th - phi))) - d);
    const move = Math.abs(th - currentAngle);
    // Prefer the smaller distance error; among (near-)equal ones, the smaller change from the current pose.
    if (err < bestErr - 1e-9 || (Math.abs(err - bestErr) <= 1e-9 && move < bestMove)) { best = th; bestErr = err; bestMove = move; }
  }
  return best;
}

/** Shoulder rotation S: w → target direction, elbow toward the pole (see the module comment). In W.aimed. */
function aimShoulder(u: Vec3, h: Vec3, v: Vec3, w: Vec3, elbowLimit: readonly [number, number] | undefined,
  t: Vec3, pole: Vec3, curReach: Vec3, curElbow: Vec3): Quat {
  const dHat = W.dHat;
  if (length(t) > 1e-9) normalizeTo(dHat, t); else normalizeTo(dHat, curReach, normalizeTo(W.c, w));
  const wHat = normalizeTo(W.wHat, w, dHat);

  // Arm-plane normal in arm coordinates; a straight arm takes it from a reference bend inside the limit.
  const nLocal = crossTo(W.nLocal, u, w);
  if (length(nLocal) < 1e-6 * (length(u) * length(w) + 1e-12)) {
    const ref = elbowLimit ? (Math.abs(elbowLimit[1]) >= Math.abs(elbowLimit[0]) ? elbowLimit[1] : elbowLimit[0]) * 0.5 : 0.5;
    const wRef = add(u, quatRotateTo(W.c, quatFromAxisAngleTo(W.qa, h, ref || 0.5), v));
    crossTo(nLocal, u, wRef);
    // Re-orthogonalise against w (the reference bend's plane normal is not exactly ⊥ w when straight).
    rejectTo(nLocal, nLocal, wHat);
    if (length(nLocal) < 1e-9) copyVec3(nLocal, anyPerpendicular(wHat));
  }
  normalizeTo(nLocal, nLocal);

  // Desired plane normal: pole⊥ × d̂, with fallbacks when the pole lies on the reach line.
  const poleP = rejectTo(W.poleP, pole, dHat);
  if (length(poleP) < 1e-6) rejectTo(poleP, curElbow, dHat);
  if (length(poleP) < 1e-6) copyVec3(poleP, anyPerpendicular(dHat));
  const cr = crossTo(W.c, poleP, dHat);
  const nWorld = length(cr) > 1e-12 ? normalizeTo(W.nWorld, cr) : copyVec3(W.nWorld, anyPerpendicular(dHat));

  const q1 = quatFromToTo(W.q1, wHat, dHat);
  const n1 = quatRotateTo(W.n1, q1, nLocal);
  const psi = Math.atan2(dot(crossTo(W.c, n1, nWorld), dHat), dot(n1, nWorld));
  return quatNormalizeTo(W.aimed, quatMulTo(W.qa, quatFromAxisAngleTo(W.qa, dHat, psi), q1));
}
