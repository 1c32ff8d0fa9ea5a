/**
 * Issue 17 (preview speed): the per-step IK and gait code uses out-parameter forms of the vector, quaternion
 * and transform operations so that a step makes no garbage. They must give the SAME BITS as the allocating
 * forms (the Armed Mine's gait is chaotic: one ulp anywhere changes its whole future), signed zeros included
 * (a −0 can flip an atan2 by 2π). Each pair is compared with Object.is per component on random inputs that
 * include zeros, negative zeros, tiny and antiparallel vectors, and with `out` aliasing an input.
 */
import { describe, expect, it } from 'vitest';
import { add, addTo, cross, crossTo, dot, normalize, normalizeTo, rejectTo, scale, sub, subTo, type Vec3 } from '../../../shared/math/vec3';
import {
  quatConj, quatConjTo, quatFromAxisAngle, quatFromAxisAngleTo, quatFromRotationVector, quatFromRotationVectorTo, quatFromTo,
  quatFromToTo, quatMul, quatMulTo, quatNormalize, quatNormalizeTo, quatRotate, quatRotateInverseTo, quatRotateTo, type Quat,
} from '../../../shared/math/quat';
import {
  composeTransforms, composeTransformsTo, inverseTransformPoint, inverseTransformPointTo, invertTransform, invertTransformTo,
  newTransform, transformPoint, transformPointTo, type ReadonlyTransform, type Transform,
} from '../../../shared/math/transform';
import { clampBall, clampBallTo, clampJointValue, forwardKinematics, forwardKinematicsInto, hingeRotation, restValues, swingTwist, clampAngle, type Chain, type JointValue } from '../../../shared/ik/chain';
import { solveElbow } from '../../../shared/ik/twoBone';
import { solveCcd, type CcdResult } from '../../../shared/ik/ccd';
import { pathPointToWorld, pathPointToWorldTo, headingToWorld, turnPoint, type WorldPathFrame } from '../../../shared/gait/steering';
import { CyclicPath } from '../../../shared/gait/cyclicPath';
import { rng } from '../physics/helpers';
import { mineArm } from '../ik/armFixture';

const N = 400;

function same(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  expect(a.length, what).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i])) expect.fail(`${what}[${i}]: ${Object.is(a[i], -0) ? '-0' : a[i]} vs ${Object.is(b[i], -0) ? '-0' : b[i]}`);
  }
}

/** A random number that is sometimes exactly 0, −0, tiny or ±1. */
function num(r: () => number): number {
  const k = r();
  if (k < 0.08) return 0;
  if (k < 0.16) return -0;
  if (k < 0.2) return (r() - 0.5) * 1e-13;
  if (k < 0.24) return r() < 0.5 ? 1 : -1;
  return (r() - 0.5) * 4;
}
const v3 = (r: () => number): Vec3 => [num(r), num(r), num(r)];
const q4 = (r: () => number): Quat => { const q = quatNormalize([num(r), num(r), num(r), num(r)]); return r() < 0.3 ? q : [q[0], q[1], q[2], q[3]]; };
const tf = (r: () => number): Transform => ({ position: v3(r), rotation: q4(r) });

describe('out-parameter forms give the same bits as the allocating forms', () => {
  it('vec3: subTo, addTo, crossTo, rejectTo, normalizeTo (also with out aliasing an input)', () => {
    const r = rng(17);
    for (let k = 0; k < N; k++) {
      const a = v3(r), b = v3(r);
      same(subTo([9, 9, 9], a, b), sub(a, b), 'sub');
      same(addTo([9, 9, 9], a, b), add(a, b), 'add');
      same(crossTo([9, 9, 9], a, b), cross(a, b), 'cross');
      same(rejectTo([9, 9, 9], a, b), sub(a, scale(b, dot(a, b))), 'reject');
      same(normalizeTo([9, 9, 9], a, b), normalize(a, b), 'normalize');
      same(normalizeTo([9, 9, 9], a), normalize(a), 'normalize, default fallback');
      const c: Vec3 = [a[0], a[1], a[2]];
      same(crossTo(c, c, b), cross(a, b), 'cross, out = a');
    }
  });

  it('quat: mul, conj, normalize, rotate, inverse rotate, from axis-angle, from rotation vector, from-to', () => {
    const r = rng(18);
    for (let k = 0; k < N; k++) {
      const a = q4(r), b = q4(r), v = v3(r), w = v3(r), ang = num(r) * 2;
      same(quatMulTo([9, 9, 9, 9], a, b), quatMul(a, b), 'mul');
      const a2: Quat = [a[0], a[1], a[2], a[3]];
      same(quatMulTo(a2, a2, b), quatMul(a, b), 'mul, out = a');
      same(quatConjTo([9, 9, 9, 9], a), quatConj(a), 'conj');
      const raw: Quat = [num(r), num(r), num(r), num(r)];
      same(quatNormalizeTo([9, 9, 9, 9], raw), quatNormalize(raw), 'normalize');
      same(quatRotateTo([9, 9, 9], a, v), quatRotate(a, v), 'rotate');
      const v2: Vec3 = [v[0], v[1], v[2]];
      same(quatRotateTo(v2, a, v2), quatRotate(a, v), 'rotate, out = v');
      same(quatRotateInverseTo([9, 9, 9], a, v), quatRotate(quatConj(a), v), 'inverse rotate');
      same(quatFromAxisAngleTo([9, 9, 9, 9], v, ang), quatFromAxisAngle(v, ang), 'axis-angle');
      same(quatFromAxisAngleTo([9, 9, 9, 9], [1, 0, 0], ang), hingeRotation(ang), 'hinge rotation');
      const rv: Vec3 = r() < 0.2 ? [v[0] * 1e-13, v[1] * 1e-13, v[2] * 1e-13] : v;
      same(quatFromRotationVectorTo([9, 9, 9, 9], rv), quatFromRotationVector(rv), 'rotation vector');
      const na = normalize(v), nb = r() < 0.2 ? [-na[0], -na[1], -na[2]] as Vec3 : normalize(w);
      same(quatFromToTo([9, 9, 9, 9], na, nb), quatFromTo(na, nb), 'from-to');
    }
  });

  it('transform: point, inverse point, compose, invert', () => {
    const r = rng(19);
    for (let k = 0; k < N; k++) {
      const a = tf(r), b = tf(r), p = v3(r);
      same(transformPointTo([9, 9, 9], a, p), transformPoint(a, p), 'point');
      same(inverseTransformPointTo([9, 9, 9], a, p), inverseTransformPoint(a, p), 'inverse point');
      const c = composeTransforms(a, b), cTo = composeTransformsTo(newTransform(), a, b);
      same(cTo.position, c.position, 'compose position'); same(cTo.rotation, c.rotation, 'compose rotation');
      const a2: Transform = { position: [...a.position], rotation: [...a.rotation] };
      composeTransformsTo(a2, a2, b);
      same(a2.position, c.position, 'compose, out = a'); same(a2.rotation, c.rotation, 'compose, out = a');
      const i = invertTransform(a), iTo = invertTransformTo(newTransform(), a);
      same(iTo.position, i.position, 'invert position'); same(iTo.rotation, i.rotation, 'invert rotation');
    }
  });
});

// The allocating versions the per-step forms replaced, kept here as the reference.
function clampBallReference(q: Quat, twistLimit?: readonly [number, number], swingLimit?: readonly [number, number]): Quat {
  if (!twistLimit && !swingLimit) return quatNormalize(q);
  const { swing, twistAngle } = swingTwist(quatNormalize(q));
  const tw = clampAngle(twistAngle, twistLimit);
  let s = swing;
  if (swingLimit) {
    const sgn = s[3] < 0 ? -1 : 1;
    const sy = s[1] * sgn, sz = s[2] * sgn, sw = s[3] * sgn;
    const sinHalf = Math.hypot(sy, sz);
    if (sinHalf > 1e-12) {
      const angle = 2 * Math.atan2(sinHalf, sw);
      const ry = (sy / sinHalf) * angle, rz = (sz / sinHalf) * angle;
      const a = Math.max(1e-6, swingLimit[0]), b = Math.max(1e-6, swingLimit[1]);
      const e = (ry / a) ** 2 + (rz / b) ** 2;
      if (e > 1) {
        const k = 1 / Math.sqrt(e);
        const na = angle * k;
        const h = Math.sin(na / 2);
        s = [0, (sy / sinHalf) * h, (sz / sinHalf) * h, Math.cos(na / 2)];
      }
    }
  }
  return quatNormalize(quatMul(s, hingeRotation(tw)));
}

function forwardKinematicsReference(chain: Chain, root: ReadonlyTransform, values: readonly JointValue[]): { links: Transform[]; effector: Vec3 } {
  const links: Transform[] = [];
  let prev: ReadonlyTransform = root;
  chain.joints.forEach((j, i) => {
    const jointA = composeTransforms(prev, j.frameA);
    const v = values[i]!;
    const rot: Quat = typeof v === 'number' ? hingeRotation(v) : [v[0], v[1], v[2], v[3]];
    const jointB: Transform = { position: jointA.position, rotation: quatNormalize(quatMul(jointA.rotation, rot)) };
    const link = composeTransforms(jointB, invertTransform(j.frameB));
    links.push(link);
    prev = link;
  });
  return { links, effector: transformPoint(prev, chain.effector) };
}

function solveElbowReference(u: Vec3, h: Vec3, v: Vec3, d: number, limit: readonly [number, number] | undefined, currentAngle: number): number {
  const vPar = scale(h, dot(v, h));
  const vPerp = sub(v, vPar);
  const C = dot(u, vPar), A = dot(u, vPerp), B = dot(u, cross(h, vPerp));
  const K = Math.hypot(A, B);
  if (K < 1e-12) return clampAngle(currentAngle, limit);
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
    if (err < bestErr - 1e-9 || (Math.abs(err - bestErr) <= 1e-9 && move < bestMove)) { best = th; bestErr = err; bestMove = move; }
  }
  return best;
}

function solveCcdReference(chain: Chain, root: ReadonlyTransform, target: Vec3, initial: readonly JointValue[] | undefined, iterations: number): CcdResult {
  const tolerance = 1e-4;
  const start = initial && initial.length === chain.joints.length ? [...initial] : restValues(chain);
  let best = sweepReference(chain, root, target, start, iterations, tolerance);
  if (best.error > tolerance && chain.joints.some((j) => j.type === 'hinge' && j.limit)) {
    const mid = chain.joints.map((j, i): JointValue => j.type === 'hinge' ? (j.limit ? (j.limit[0] + j.limit[1]) / 2 : 0) : (start[i] as Quat));
    const other = sweepReference(chain, root, target, mid, iterations, tolerance);
    if (other.error < best.error) best = other;
  }
  return best;
}

function sweepReference(chain: Chain, root: ReadonlyTransform, target: Vec3, start: readonly JointValue[], iterations: number, tolerance: number): CcdResult {
  const values: JointValue[] = start.map((v, i) => clampJointValue(chain.joints[i]!, v));
  let fk = forwardKinematicsReference(chain, root, values);
  let error = Math.sqrt(dot(sub(fk.effector, target), sub(fk.effector, target)));
  let it = 0;
  for (; it < iterations && error > tolerance; it++) {
    for (let i = chain.joints.length - 1; i >= 0; i--) {
      const joint = chain.joints[i]!;
      const prev = i === 0 ? root : fk.links[i - 1]!;
      const frameA = composeTransforms(prev, joint.frameA);
      const p = frameA.position;
      const e = sub(fk.effector, p), t = sub(target, p);
      const len = (x: Vec3) => Math.sqrt(dot(x, x));
      if (joint.type === 'hinge') {
        const a = quatRotate(frameA.rotation, [1, 0, 0]);
        const ePerp = sub(e, scale(a, dot(e, a))), tPerp = sub(t, scale(a, dot(t, a)));
        if (len(ePerp) < 1e-9 || len(tPerp) < 1e-9) continue;
        const delta = Math.atan2(dot(a, cross(ePerp, tPerp)), dot(ePerp, tPerp));
        values[i] = clampJointValue(joint, (values[i] as number) + delta);
      } else {
        if (len(e) < 1e-9 || len(t) < 1e-9) continue;
        const dR = quatFromTo(normalize(e), normalize(t));
        const local = quatMul(quatMul(quatConj(frameA.rotation), dR), frameA.rotation);
        values[i] = clampJointValue(joint, quatNormalize(quatMul(local, values[i] as Quat)));
      }
      fk = forwardKinematicsReference(chain, root, values);
    }
    error = Math.sqrt(dot(sub(fk.effector, target), sub(fk.effector, target)));
  }
  return { values, effector: fk.effector, error, iterations: it };
}

function pathPointToWorldReference(frame: WorldPathFrame, point: Vec3): Vec3 {
  const local = frame.turn ? turnPoint(frame.turn, point) : point;
  const c = Math.cos(frame.skew), s = Math.sin(frame.skew), px = frame.pivot[0], pz = frame.pivot[2];
  const x = local[0] - px, z = local[2] - pz;
  const level: Vec3 = [px + c * x + s * z, local[1], pz - s * x + c * z];
  if (!frame.tilt) return headingToWorld(frame.origin, frame.yaw, level);
  const o = frame.origin, r = quatRotate(frame.tilt, headingToWorld([0, 0, 0], frame.yaw, level));
  return [o[0] + r[0], o[1] + r[1], o[2] + r[2]];
}

describe('per-step IK and gait forms give the same bits as the allocating code they replaced', () => {
  it('clampBallTo = clampBall = the reference, with and without limits', () => {
    const r = rng(20);
    const limits: [readonly [number, number] | undefined, readonly [number, number] | undefined][] = [
      [undefined, undefined], [[-0.5, 0.7], undefined], [undefined, [0.4, 0.9]], [[-1, 0.2], [0.3, 0.6]], [[-0.1, 0.1], [1e-9, 2]]];
    for (let k = 0; k < N; k++) {
      const q = q4(r);
      for (const [tw, sw] of limits) {
        const ref = clampBallReference(q, tw, sw);
        same(clampBallTo([9, 9, 9, 9], q, tw, sw), ref, 'clampBallTo');
        same(clampBall(q, tw, sw), ref, 'clampBall');
        const q2: Quat = [q[0], q[1], q[2], q[3]];
        same(clampBallTo(q2, q2, tw, sw), ref, 'clampBallTo, out = q');
      }
    }
  });

  it('forwardKinematicsInto = forwardKinematics = the reference on the Armed Mine arm', () => {
    const r = rng(21);
    const chain = mineArm(0.7);
    for (let k = 0; k < N; k++) {
      const root = tf(r);
      const values: JointValue[] = [q4(r), num(r), num(r)];
      const ref = forwardKinematicsReference(chain, root, values);
      const fk = forwardKinematics(chain, root, values);
      const links = [newTransform(), newTransform(), newTransform()], eff: Vec3 = [9, 9, 9];
      forwardKinematicsInto(chain, root, values, links, eff);
      same(fk.effector, ref.effector, 'effector'); same(eff, ref.effector, 'effector (into)');
      ref.links.forEach((l, i) => {
        same(fk.links[i]!.position, l.position, `link ${i} position`); same(fk.links[i]!.rotation, l.rotation, `link ${i} rotation`);
        same(links[i]!.position, l.position, `link ${i} position (into)`); same(links[i]!.rotation, l.rotation, `link ${i} rotation (into)`);
      });
    }
  });

  it('solveElbow = the reference', () => {
    const r = rng(22);
    for (let k = 0; k < N; k++) {
      const u = v3(r), h = normalize(v3(r)), v = v3(r), d = Math.abs(num(r)), cur = num(r);
      const limit: [number, number] | undefined = r() < 0.3 ? undefined : [-Math.abs(num(r)), Math.abs(num(r))];
      same([solveElbow(u, h, v, d, limit, cur)], [solveElbowReference(u, h, v, d, limit, cur)], 'solveElbow');
    }
  });

  it('solveCcd = the reference (the Armed Mine arm with limits, and a four-joint chain with an unlimited ball)', () => {
    const r = rng(24);
    const arm = mineArm(0.3);
    const long: Chain = { joints: [...arm.joints, { type: 'ball', frameA: { position: [0, 0, 0.06], rotation: [0, 0, 0, 1] }, frameB: { position: [0, 0, -0.1], rotation: [0, 0, 0, 1] } }],
      effector: [0, 0.02, 0.1] };
    for (let k = 0; k < 120; k++) {
      const chain = k % 2 ? arm : long;
      const root = tf(r), target: Vec3 = [root.position[0] + (r() - 0.5) * 2.4, root.position[1] + (r() - 0.5) * 2.4, root.position[2] + (r() - 0.5) * 2.4];
      const initial: JointValue[] | undefined = r() < 0.5 ? undefined : chain.joints.map((j): JointValue => (j.type === 'ball' ? q4(r) : num(r)));
      const iterations = r() < 0.5 ? 8 : 32;
      const got = solveCcd(chain, root, target, initial, { iterations }), ref = solveCcdReference(chain, root, target, initial, iterations);
      same([got.error, got.iterations], [ref.error, ref.iterations], 'error, iterations');
      same(got.effector, ref.effector, 'effector');
      got.values.forEach((v, i) => same(typeof v === 'number' ? [v] : v, (typeof ref.values[i] === 'number' ? [ref.values[i]] : ref.values[i]) as number[], `value ${i}`));
    }
  });

  it('pathPointToWorldTo = pathPointToWorld = the reference, level, tilted and turned', () => {
    const r = rng(23);
    for (let k = 0; k < N; k++) {
      const frame: WorldPathFrame = { yaw: num(r) * 2, skew: num(r) * 0.3, origin: v3(r), pivot: v3(r) };
      if (r() < 0.4) frame.tilt = q4(r);
      if (r() < 0.3) frame.turn = { a: num(r) / 4, centre: v3(r), travel: normalize(v3(r)), tangent: v3(r) };
      const p = v3(r), ref = pathPointToWorldReference(frame, p);
      same(pathPointToWorld(frame, p), ref, 'pathPointToWorld');
      same(pathPointToWorldTo([9, 9, 9], frame, p), ref, 'pathPointToWorldTo');
      const p2: Vec3 = [p[0], p[1], p[2]];
      same(pathPointToWorldTo(p2, frame, p2), ref, 'pathPointToWorldTo, out = point');
    }
  });

  it('CyclicPath.samplePoint = sample().point', () => {
    const path = new CyclicPath([[0, -0.3, 0.5], [0.1, -0.39, 0.2], [0, 0.05, 0.1], [-0.1, 0.1, 0.45]]);
    const lin = new CyclicPath([[0, 0, 0], [1, 0, 0], [0, 1, 0]], 'linear');
    for (let k = -10; k < 1000; k++) {
      const ph = k / 997;
      same(path.samplePoint(ph, [9, 9, 9]), path.sample(ph).point, `samplePoint(${ph})`);
      same(lin.samplePoint(ph, [9, 9, 9]), lin.sample(ph).point, `linear samplePoint(${ph})`);
    }
  });
});
