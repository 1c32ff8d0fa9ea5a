/**
 * The articulated-body (Featherstone) solver core, issue 12: spatial algebra identities, ABA against a
 * brute-force M q̈ = τ − C on random trees, analytic pendulum period, energy and momentum, and the rig builder.
 */
import { describe, expect, it } from 'vitest';
import {
  ArticulatedModel, articulatedBodyPoses, articulatedFromRig, crossForce, crossMotion, dot6, inertiaToParent,
  mat6Vec, pluckerCompose, pluckerFromPose, pluckerInverse, pluckerMatrix, solveDense, spatialInertia, stepWithDrives, symmetricEigen, xForce,
  xInverseMotion, xMotion, xTransposeForce, type ArticulatedBodyDesc, type ArticulatedJointType, type Plucker, type Vec6,
} from '../../../../shared/physics/articulated';
import { chainRig } from './rigs';
import { rng } from '../helpers';

const sym = (r: () => number) => 2 * r() - 1;
const randVec6 = (r: () => number): Vec6 => [0, 1, 2, 3, 4, 5].map(() => sym(r));
function randQuat(r: () => number): [number, number, number, number] {
  const q = [sym(r), sym(r), sym(r), sym(r)];
  const l = Math.hypot(...q);
  return [q[0]! / l, q[1]! / l, q[2]! / l, q[3]! / l];
}
const randPlucker = (r: () => number): Plucker => pluckerFromPose([sym(r), sym(r), sym(r)], randQuat(r));
function randInertia(r: () => number): number[] {
  // Ic = A·Aᵀ + 0.05·1 (SPD), random mass and centre.
  const A = [0, 1, 2, 3, 4, 5, 6, 7, 8].map(() => sym(r) * 0.5);
  const Ic = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    for (let k = 0; k < 3; k++) Ic[i * 3 + j] += A[i * 3 + k]! * A[j * 3 + k]!;
    if (i === j) Ic[i * 3 + j] += 0.05;
  }
  return spatialInertia(0.5 + 2 * r(), [sym(r) * 0.4, sym(r) * 0.4, sym(r) * 0.4], Ic);
}
const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>) => { let m = 0; for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!)); return m; };

describe('spatial algebra', () => {
  const r = rng(7);
  it('transforms: X⁻¹X = 1, composition, X*ᵀ duality (f·m invariant), Xᵀ = X* inverse, matrix form', () => {
    for (let t = 0; t < 50; t++) {
      const X = randPlucker(r), Y = randPlucker(r), m = randVec6(r), f = randVec6(r);
      expect(maxAbs(xInverseMotion(X, xMotion(X, m)), m)).toBeLessThan(1e-12);
      expect(maxAbs(xMotion(pluckerInverse(X), xMotion(X, m)), m)).toBeLessThan(1e-12);
      expect(maxAbs(xMotion(pluckerCompose(Y, X), m), xMotion(Y, xMotion(X, m)))).toBeLessThan(1e-12);
      expect(Math.abs(dot6(xForce(X, f), xMotion(X, m)) - dot6(f, m))).toBeLessThan(1e-12);
      expect(maxAbs(xTransposeForce(X, xForce(X, f)), f)).toBeLessThan(1e-12);
      expect(maxAbs(mat6Vec(pluckerMatrix(X), m), xMotion(X, m))).toBeLessThan(1e-12);
    }
  });
  it('cross products: v×f = −(v×m)ᵀ, v×v = 0, and they commute with transforms', () => {
    for (let t = 0; t < 50; t++) {
      const X = randPlucker(r), v = randVec6(r), m = randVec6(r), f = randVec6(r);
      expect(Math.abs(dot6(f, crossMotion(v, m)) + dot6(crossForce(v, f), m))).toBeLessThan(1e-12);
      expect(Math.max(...crossMotion(v, v).map(Math.abs))).toBeLessThan(1e-15);
      expect(maxAbs(xMotion(X, crossMotion(v, m)), crossMotion(xMotion(X, v), xMotion(X, m)))).toBeLessThan(1e-12);
      expect(maxAbs(xForce(X, crossForce(v, f)), crossForce(xMotion(X, v), xForce(X, f)))).toBeLessThan(1e-12);
    }
  });
  it('inertia: kinetic energy and momentum are frame-independent; I·v of a point mass matches m·(c × v_c, v_c)', () => {
    for (let t = 0; t < 50; t++) {
      const X = randPlucker(r), I = randInertia(r), v = randVec6(r);
      const IA = inertiaToParent(X, I), vA = xInverseMotion(X, v);
      expect(Math.abs(dot6(vA, mat6Vec(IA, vA)) - dot6(v, mat6Vec(I, v)))).toBeLessThan(1e-11);
      expect(maxAbs(mat6Vec(IA, vA), xTransposeForce(X, mat6Vec(I, v)))).toBeLessThan(1e-11);
    }
    // Point mass 2 kg at c = (1, 0, 0), spinning ω = (0, 0, 3) about the origin: v_c = (0, 3, 0), L = c × m v_c = (0, 0, 6).
    const h = mat6Vec(spatialInertia(2, [1, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0]), [0, 0, 3, 0, 0, 0]);
    expect(maxAbs(h, [0, 0, 6, 0, 6, 0])).toBeLessThan(1e-15);
  });
});

/** A random tree of n bodies (the first a free root when `floating`), random joints, inertias and frames. */
function randomTree(r: () => number, n: number, floating: boolean, kinds: ArticulatedJointType[] = ['hinge', 'prismatic', 'ball']): ArticulatedModel {
  const descs: ArticulatedBodyDesc[] = [];
  for (let i = 0; i < n; i++) {
    const free = floating && i === 0;
    descs.push({
      name: `b${i}`, jointName: `j${i}`, parent: free ? -1 : i === 0 ? -1 : Math.floor(r() * (floating ? i : i + 1)) - (floating ? 0 : 1),
      joint: free ? 'free' : kinds[Math.floor(r() * kinds.length)]!, pitch: 0.05 + 0.2 * r(),
      Xtree: free ? pluckerFromPose([0, 0, 0], [0, 0, 0, 1]) : randPlucker(r), XB: free ? pluckerFromPose([0, 0, 0], [0, 0, 0, 1]) : randPlucker(r),
      inertia: randInertia(r),
    });
  }
  const m = new ArticulatedModel(descs, { gravity: [0.3, -9.81, 0.2] });
  for (let k = 0; k < m.nq; k++) m.q[k] = sym(r);
  for (const b of m.bodies) if (b.joint === 'ball' || b.joint === 'free') m.q.set(randQuat(r), b.qi + b.nq - 4);
  for (let k = 0; k < m.nv; k++) { m.qd[k] = 2 * sym(r); m.tau[k] = 3 * sym(r); }
  for (const f of m.fext) f.splice(0, 6, ...randVec6(r));
  return m;
}

describe('articulated-body algorithm', () => {
  it('q̈ equals the solution of M q̈ = τ − C (M and C by Newton-Euler, brute force) within 1e-9 on random trees', () => {
    const r = rng(12);
    let worst = 0, asym = 0, worstMinv = 0;
    for (let t = 0; t < 40; t++) {
      const m = randomTree(r, 2 + Math.floor(r() * 9), t % 2 === 0);
      const qddAba = m.forwardDynamics(m.q, m.qd, m.tau);
      const C = m.inverseDynamics(m.q, m.qd, new Float64Array(m.nv));
      const M = massMatrix(m, m.q);
      for (let i = 0; i < m.nv; i++) for (let j = 0; j < m.nv; j++) asym = Math.max(asym, Math.abs(M[i * m.nv + j]! - M[j * m.nv + i]!));
      const rhs = Array.from(m.tau, (x, i) => x - C[i]!);
      const qddRef = solveDense(M, rhs, m.nv);
      const scale = Math.max(1, ...qddRef.map(Math.abs));
      worst = Math.max(worst, maxAbs(qddAba, qddRef) / scale);
      // The cached impulse response (drives.ts) is M⁻¹ too.
      const minvRef = solveDense(M, Array.from(m.tau), m.nv);
      worstMinv = Math.max(worstMinv, maxAbs(m.inverseMassOperator(m.q)(m.tau), minvRef) / Math.max(1, ...minvRef.map(Math.abs)));
    }
    expect(asym).toBeLessThan(1e-10);
    expect(worst).toBeLessThan(1e-9);
    expect(worstMinv).toBeLessThan(1e-9);
  });
});

/** Swing energy of a chain: E(0) minus the energy hanging straight down at rest (joint coordinates `down`;
 *  q is measured from the rig's rest pose, so straight down is minus the rest angles). */
function swingEnergy(m: ArticulatedModel, down: number[]): number {
  const q = m.q.slice(), qd = m.qd.slice();
  const e0 = m.energy().total;
  m.q.set(down); m.qd.fill(0);
  const bottom = m.energy().total;
  m.q.set(q); m.qd.set(qd);
  return e0 - bottom;
}

function energyDrift(links: number, integrator: 'semi-implicit' | 'rk4', dt = 1 / 240, seconds = 10): number {
  const { model } = articulatedFromRig(chainRig({ links, angles: [Math.PI / 3] }), { integrator });
  const swing = swingEnergy(model, links === 1 ? [-Math.PI / 3] : [-Math.PI / 3, 0]), e0 = model.energy().total;
  let worst = 0;
  for (let s = 0; s < Math.round(seconds / dt); s++) {
    model.step(dt);
    worst = Math.max(worst, Math.abs(model.energy().total - e0) / swing);
  }
  return worst;
}

/** M(q) column by column from inverseDynamics (no velocity, gravity or external force). */
function massMatrix(m: ArticulatedModel, q: ArrayLike<number>): number[] {
  const g = m.gravity, fext = m.fext.map((f) => f.slice());
  m.gravity = [0, 0, 0];
  for (const f of m.fext) f.fill(0);
  const zero = new Float64Array(m.nv), M = new Array<number>(m.nv * m.nv);
  for (let j = 0; j < m.nv; j++) {
    const e = new Float64Array(m.nv); e[j] = 1;
    const col = m.inverseDynamics(q, zero, e);
    for (let i = 0; i < m.nv; i++) M[i * m.nv + j] = col[i]!;
  }
  m.gravity = g;
  fext.forEach((f, i) => m.fext[i]!.splice(0, 6, ...f));
  return M;
}

describe('velocity products', () => {
  it('symmetricEigen: V·diag(λ)·Vᵀ = A and VᵀV = 1 on random symmetric matrices up to 60×60, a repeated eigenvalue and a scale of 1e3', () => {
    const r = rng(43);
    let recon = 0, orth = 0;
    for (const n of [1, 2, 3, 5, 10, 34, 60]) for (let t = 0; t < 4; t++) {
      const scale = t === 3 ? 1e3 : 1, A = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = i; j < n; j++) { const x = t === 2 ? (i === j ? 2 : 0) : scale * sym(r); A[i * n + j] = x; A[j * n + i] = x; }
      const { values, vectors: V } = symmetricEigen(A, n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
        let a = 0, o = 0;
        for (let k = 0; k < n; k++) { a += V[i * n + k]! * values[k]! * V[j * n + k]!; o += V[k * n + i]! * V[k * n + j]!; }
        recon = Math.max(recon, Math.abs(a - A[i * n + j]!) / scale);
        orth = Math.max(orth, Math.abs(o - (i === j ? 1 : 0)));
      }
    }
    expect(recon).toBeLessThan(1e-12);
    expect(orth).toBeLessThan(1e-12);
  });

  it('the composite-rigid-body mass matrix equals M from inverse dynamics (random trees of every joint)', () => {
    const r = rng(41);
    let worst = 0, scale = 0;
    for (let t = 0; t < 20; t++) {
      const m = randomTree(r, 1 + Math.floor(r() * 9), t % 2 === 0, ['hinge', 'prismatic', 'ball', 'screw', 'cylindrical', 'planar']);
      const M = massMatrix(m, m.q), n = m.nv, kin = m.kinematics();
      const block = m.massMatrix(kin, 0, m.bodies.length, new Float64Array(n * n));
      for (let i = 0; i < n * n; i++) { worst = Math.max(worst, Math.abs(block[i]! - M[i]!)); scale = Math.max(scale, Math.abs(M[i]!)); }
    }
    expect(scale).toBeGreaterThan(0.1);
    expect(worst / scale).toBeLessThan(1e-12);
  });

  it('C(q, q̇)·q̇ is the bias force c(q, q̇), and xᵀC·x = ½xᵀṀx (Ṁ along q̇ by central differences) on random trees of every joint', () => {
    const r = rng(31);
    let worstC = 0, scaleC = 0, worstSkew = 0, scaleSkew = 0;
    for (let t = 0; t < 30; t++) {
      const m = randomTree(r, 2 + Math.floor(r() * 8), t % 2 === 0, ['hinge', 'prismatic', 'ball', 'screw', 'cylindrical', 'planar']);
      const kin = m.kinematics(m.q, m.qd), zero = new Float64Array(m.nv), n = m.nv;
      // c: inverse dynamics at q̈ = 0 less the same at q̇ = 0 (gravity and the external forces).
      const c1 = m.inverseDynamics(m.q, m.qd, zero), c0 = m.inverseDynamics(m.q, zero, zero);
      const Cqd = m.coriolisTimes(m.q, kin, m.qd, m.qd, 0, m.bodies.length, new Float64Array(n));
      for (let k = 0; k < n; k++) { worstC = Math.max(worstC, Math.abs(Cqd[k]! - (c1[k]! - c0[k]!))); scaleC = Math.max(scaleC, Math.abs(c1[k]! - c0[k]!)); }
      const eps = 1e-5, Mp = massMatrix(m, m.integratePositions(m.q, m.qd, eps)), Mm = massMatrix(m, m.integratePositions(m.q, m.qd, -eps));
      for (let trial = 0; trial < 3; trial++) {
        const x = Float64Array.from({ length: n }, () => sym(r));
        const Cx = m.coriolisTimes(m.q, kin, m.qd, x, 0, m.bodies.length, new Float64Array(n));
        let xCx = 0, xMdx = 0;
        for (let i = 0; i < n; i++) {
          xCx += x[i]! * Cx[i]!;
          for (let j = 0; j < n; j++) xMdx += (x[i]! * x[j]! * (Mp[i * n + j]! - Mm[i * n + j]!)) / (2 * eps);
        }
        worstSkew = Math.max(worstSkew, Math.abs(xCx - 0.5 * xMdx));
        scaleSkew = Math.max(scaleSkew, Math.abs(xMdx));
      }
    }
    expect(scaleC).toBeGreaterThan(1); // the products are not trivially small
    expect(worstC / scaleC).toBeLessThan(1e-12);
    expect(scaleSkew).toBeGreaterThan(0.1);
    expect(worstSkew / scaleSkew).toBeLessThan(1e-7); // the central difference's own error
  });
});

describe('the mass matrix\'s rate of change (ArticulatedWorld cuts its substeps by it)', () => {
  it('massRate is ρ(M⁻¹·Ṁ) from below, within 5 % (power iterations): against Ṁ along q̇ by central differences, reduced by M^(−1/2) from M\'s own eigen-decomposition, on random trees of every joint', () => {
    const r = rng(53);
    let worst = 0, above = 0, largest = 0;
    for (let t = 0; t < 20; t++) {
      const m = randomTree(r, 2 + Math.floor(r() * 7), t % 2 === 0, ['hinge', 'prismatic', 'ball', 'screw', 'cylindrical', 'planar']);
      const n = m.nv, eps = 1e-6;
      const M = massMatrix(m, m.q), Mp = massMatrix(m, m.integratePositions(m.q, m.qd, eps)), Mm = massMatrix(m, m.integratePositions(m.q, m.qd, -eps));
      const Md = Float64Array.from({ length: n * n }, (_, i) => (Mp[i]! - Mm[i]!) / (2 * eps));
      // M^(−1/2) = V·diag(1/√λ)·Vᵀ; ρ(M⁻¹Ṁ) = ρ(M^(−1/2)·Ṁ·M^(−1/2)).
      const { values, vectors: V } = symmetricEigen(Float64Array.from(M), n);
      const R = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { let x = 0; for (let k = 0; k < n; k++) x += V[i * n + k]! * V[j * n + k]! / Math.sqrt(values[k]!); R[i * n + j] = x; }
      const B = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { let x = 0; for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) x += R[i * n + a]! * Md[a * n + b]! * R[b * n + j]!; B[i * n + j] = x; }
      for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) { const x = 0.5 * (B[i * n + j]! + B[j * n + i]!); B[i * n + j] = x; B[j * n + i] = x; }
      const expected = Math.max(...Array.from(symmetricEigen(B, n).values, Math.abs));
      const { massRate } = stepWithDrives(m, [], 1e-3, { integrator: 'euler', velocityProducts: 'implicit' });
      worst = Math.max(worst, (expected - massRate) / expected);
      above = Math.max(above, (massRate - expected) / expected);
      largest = Math.max(largest, expected);
    }
    expect(largest).toBeGreaterThan(1); // random speeds of order 1: the rates are not trivially small
    console.log(`massRate against ρ(M⁻¹Ṁ) on 20 random trees: at most ${(100 * worst).toFixed(2)} % below, ${above.toExponential(1)} above`);
    expect(worst).toBeLessThan(0.05);
    expect(above).toBeLessThan(1e-6); // a norm it reaches from below (the central difference's own error)
  });

  it('is 0 with the explicit velocity products and for a tree at rest', () => {
    const a = articulatedFromRig(chainRig({ links: 3, angles: [1, 0.5, -0.5] }));
    expect(stepWithDrives(a.model, [], 1 / 240, { velocityProducts: 'implicit' }).massRate).toBe(0); // released at rest
    expect(stepWithDrives(a.model, [], 1 / 240, { velocityProducts: 'implicit' }).massRate).toBeGreaterThan(0); // now swinging
    expect(stepWithDrives(a.model, [], 1 / 240, { velocityProducts: 'explicit' }).massRate).toBe(0);
  });
});

describe('pendulums from rigs', () => {
  it('a rod pendulum\'s small-angle period is 2π√(I/mgd) within 0.1 %', () => {
    const theta0 = 0.01;
    const { model } = articulatedFromRig(chainRig({ links: 1, angles: [theta0] }));
    // I about the pivot (the body frame origin) about z, mass, distance to the centre of mass.
    const I = model.bodies[0]!.inertia, Izz = I[2 * 6 + 2]!, mass = I[35]!, d = 0.5;
    expect(mass).toBeCloseTo(1, 12);
    const T = 2 * Math.PI * Math.sqrt(Izz / (mass * 9.81 * d));
    const dt = 1 / 240, crossings: number[] = [];
    // q is measured from the rig's rest pose (released at θ0): the angle from the vertical is q + θ0.
    let prev = model.q[0]! + theta0;
    for (let s = 1; s <= Math.round(6 * T / dt); s++) {
      model.step(dt);
      const q = model.q[0]! + theta0;
      if (prev > 0 && q <= 0) crossings.push((s - 1 + prev / (prev - q)) * dt);
      prev = q;
    }
    const measured = (crossings.at(-1)! - crossings[0]!) / (crossings.length - 1);
    // Finite amplitude lengthens it by θ0²/16 = 6e-6; well inside the tolerance.
    expect(crossings.length).toBeGreaterThanOrEqual(5);
    console.log(`small-angle period: measured ${measured.toFixed(6)} s, analytic ${T.toFixed(6)} s (${((measured / T - 1) * 100).toExponential(2)} %)`);
    expect(Math.abs(measured / T - 1)).toBeLessThan(1e-3);
  });

  it('60° rod pendulum and double pendulum keep their swing energy within 0.5 % over 10 s at dt 1/240 (RK4, no damping)', () => {
    const single = energyDrift(1, 'rk4'), double = energyDrift(2, 'rk4');
    console.log(`energy drift over 10 s at 1/240, rk4: single ${(single * 100).toExponential(2)} %, double ${(double * 100).toExponential(2)} %`);
    expect(single).toBeLessThan(0.005);
    expect(double).toBeLessThan(0.005);
  });

  it('semi-implicit Euler (MuJoCo\'s "Euler") drifts at first order: halving dt halves the energy error', () => {
    // In velocity coordinates with a configuration-dependent mass matrix the scheme is not symplectic; its
    // energy error is O(h). Measured: single 0.76 % at 1/240; double 8.5 % / 4.07 % / 1.99 % at 1/240, 1/480, 1/960.
    const single = energyDrift(1, 'semi-implicit');
    const d1 = energyDrift(2, 'semi-implicit', 1 / 240), d2 = energyDrift(2, 'semi-implicit', 1 / 480);
    console.log(`energy drift over 10 s, semi-implicit: single ${(single * 100).toFixed(3)} % at 1/240; double ${(d1 * 100).toFixed(3)} % at 1/240, ${(d2 * 100).toFixed(3)} % at 1/480`);
    expect(single).toBeLessThan(0.01);
    expect(d1 / d2).toBeGreaterThan(1.8);
    expect(d1 / d2).toBeLessThan(2.3);
  });

  it('60° rod pendulum, hinge and ball: the exact large-amplitude period 4√(I/mgd)·K(sin 30°) within 0.5 %', () => {
    // Complete elliptic integral of the first kind by the arithmetic-geometric mean.
    const ellipticK = (k: number) => { let a = 1, b = Math.sqrt(1 - k * k); for (let i = 0; i < 30; i++) [a, b] = [(a + b) / 2, Math.sqrt(a * b)]; return Math.PI / (2 * a); };
    for (const joint of ['hinge', 'ball'] as const) {
      const a = articulatedFromRig(chainRig({ links: 1, angles: [Math.PI / 3], joint }));
      const I = a.model.bodies[0]!.inertia; // body frame at the pivot; the rod hangs along −y, so Izz is about the pivot
      const T = 4 * Math.sqrt(I[14]! / (I[35]! * 9.81 * 0.5)) * ellipticK(Math.sin(Math.PI / 6));
      const dt = 1 / 240, crossings: number[] = [];
      const angle = () => { const r = articulatedBodyPoses(a).get('link0')!.rotation; return 2 * Math.atan2(r[2], r[3]); };
      let prev = angle();
      for (let s = 1; s <= Math.round(5.2 * T / dt); s++) {
        a.model.step(dt);
        const th = angle();
        if (prev > 0 && th <= 0) crossings.push((s - 1 + prev / (prev - th)) * dt);
        prev = th;
      }
      const measured = (crossings.at(-1)! - crossings[0]!) / (crossings.length - 1);
      console.log(`60° ${joint} pendulum: period ${measured.toFixed(6)} s, exact ${T.toFixed(6)} s (${((measured / T - 1) * 100).toExponential(2)} %)`);
      expect(crossings.length).toBeGreaterThanOrEqual(5);
      expect(Math.abs(measured / T - 1)).toBeLessThan(0.005);
    }
  });

  it('a 20-link chain keeps every link length exactly (joints cannot come apart)', () => {
    const a = articulatedFromRig(chainRig({ links: 20, length: 0.1, radius: 0.01, angles: [Math.PI / 2] }));
    let worst = 0;
    for (let s = 0; s < 240; s++) {
      a.model.step(1 / 240);
      const p = articulatedBodyPoses(a);
      for (let i = 1; i < 20; i++) {
        const top = p.get(`link${i}`)!.position, prev = p.get(`link${i - 1}`)!;
        const [x, y, z, w] = prev.rotation;
        const tip = [prev.position[0] - 0.1 * 2 * (x * y - w * z), prev.position[1] - 0.1 * (1 - 2 * (x * x + z * z)), prev.position[2] - 0.1 * 2 * (y * z + w * x)];
        worst = Math.max(worst, Math.hypot(top[0] - tip[0]!, top[1] - tip[1]!, top[2] - tip[2]!));
      }
    }
    expect(worst).toBeLessThan(1e-12);
  });

  it('joint damping c: small swings decay as exp(−c·t/2I) per the damped oscillator', () => {
    const c = 0.05, theta0 = 0.01, dt = 1 / 240;
    const { model } = articulatedFromRig(chainRig({ links: 1, angles: [theta0] }), { jointDamping: c });
    expect(model.bodies[0]!.damping).toBe(c);
    const I = model.bodies[0]!.inertia[14]!;
    const peaks: { t: number; a: number }[] = [];
    let p2 = theta0, p1 = theta0;
    for (let s = 1; s <= 10 * 240; s++) {
      model.step(dt);
      const th = model.q[0]! + theta0;
      if (p1 > p2 && p1 >= th && p1 > 0) peaks.push({ t: (s - 1) * dt, a: p1 });
      p2 = p1; p1 = th;
    }
    expect(peaks.length).toBeGreaterThanOrEqual(4);
    const first = peaks[0]!, last = peaks.at(-1)!;
    const rate = Math.log(first.a / last.a) / (last.t - first.t);
    console.log(`joint damping ${c}: decay rate ${rate.toFixed(5)} 1/s, analytic c/2I = ${(c / (2 * I)).toFixed(5)} 1/s`);
    expect(Math.abs(rate / (c / (2 * I)) - 1)).toBeLessThan(0.01);
  });

  it('the joints cannot come apart: every link keeps its length from the pivot to the machine precision', () => {
    const a = articulatedFromRig(chainRig({ links: 3, angles: [1.2, -0.4, 0.7] }));
    let worst = 0;
    for (let s = 0; s < 480; s++) {
      a.model.step(1 / 240);
      const p = articulatedBodyPoses(a);
      for (let i = 1; i < 3; i++) {
        const top = p.get(`link${i}`)!.position, prev = p.get(`link${i - 1}`)!;
        // The parent's tip (0, −1, 0) in world.
        const [x, y, z, w] = prev.rotation;
        const tip = [prev.position[0] - 2 * (x * y - w * z), prev.position[1] - (1 - 2 * (x * x + z * z)), prev.position[2] - 2 * (y * z + w * x)];
        worst = Math.max(worst, Math.hypot(top[0] - tip[0]!, top[1] - tip[1]!, top[2] - tip[2]!));
      }
    }
    expect(worst).toBeLessThan(1e-12);
  });
});

describe('free body', () => {
  it('tumbling about its intermediate axis keeps |L| (world) and the energy', () => {
    const Ic = [0.4, 0, 0, 0, 1.36, 0, 0, 0, 1.6];
    const results: Record<string, { L: number; E: number; flipped: boolean }> = {};
    for (const integrator of ['rk4', 'semi-implicit'] as const) {
      const m = new ArticulatedModel([{ name: 'box', jointName: 'root', parent: -1, joint: 'free', Xtree: pluckerFromPose([0, 0, 0], [0, 0, 0, 1]), XB: pluckerFromPose([0, 0, 0], [0, 0, 0, 1]), inertia: spatialInertia(2, [0, 0, 0], Ic) }], { gravity: [0, 0, 0], integrator });
      m.qd.set([0, 0, 0, 0.02, 3, 0.05]); // free q̇: world linear velocity, then body angular velocity
      const L0 = Math.hypot(...m.momentum().slice(0, 3)), E0 = m.energy().kinetic;
      let dL = 0, dE = 0, minY = 3;
      for (let s = 0; s < 5 * 240; s++) {
        m.step(1 / 240);
        dL = Math.max(dL, Math.abs(Math.hypot(...m.momentum().slice(0, 3)) / L0 - 1));
        dE = Math.max(dE, Math.abs(m.energy().kinetic / E0 - 1));
        minY = Math.min(minY, m.qd[4]!);
      }
      results[integrator] = { L: dL, E: dE, flipped: minY < -2.5 };
    }
    console.log(`free tumbling 5 s at 1/240: ${JSON.stringify(results)}`);
    expect(results.rk4!.flipped).toBe(true);
    expect(results.rk4!.L).toBeLessThan(1e-4);
    expect(results.rk4!.E).toBeLessThan(1e-4);
  });

  it('falls freely: the centre of mass follows g t²/2 and the spin is unchanged', () => {
    const m = new ArticulatedModel([{ name: 'ball', jointName: 'root', parent: -1, joint: 'free', Xtree: pluckerFromPose([0, 0, 0], [0, 0, 0, 1]), XB: pluckerFromPose([0, 0, 0], [0, 0, 0, 1]), inertia: spatialInertia(1, [0, 0, 0], [0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1]) }], { integrator: 'rk4' });
    m.qd.set([0.5, 0, 0, 0, 2, 0]);
    for (let s = 0; s < 240; s++) m.step(1 / 240);
    expect(m.q[0]).toBeCloseTo(0.5, 12);
    expect(m.q[1]).toBeCloseTo(-9.81 / 2, 9);
    expect(m.qd[1]).toBeCloseTo(-9.81, 9);
    expect(m.qd[4]).toBeCloseTo(2, 12);
  });
});

describe('rig builder', () => {
  it('a fixed joint merges its child: the welded tip shifts the centre of mass and the period like one rigid body', () => {
    const a = articulatedFromRig(chainRig({ links: 1, angles: [0.01], weldTip: true }));
    expect(a.model.bodies.length).toBe(1);
    expect(a.bodies.get('tip')!.link).toBe(0);
    const I = a.model.bodies[0]!.inertia;
    // chainRig's dynamic bodies weigh 1 kg each, so the link weighs 2 kg, its centre of mass
    // (1·0.5 + 1·1)/2 = 0.75 m below the pivot.
    expect(I[35]).toBeCloseTo(2, 12);
    expect(a.model.centreOfMass(0)[1]).toBeCloseTo(2 - 0.75 * Math.cos(0.01), 9);
    // Izz about the pivot: rod (capsule) + sphere 2/5·m·r² + m·1².
    const rodOnly = articulatedFromRig(chainRig({ links: 1, angles: [0] })).model.bodies[0]!.inertia[14]!;
    expect(I[14]).toBeCloseTo(rodOnly + 0.4 * 0.01 + 1, 12);
  });

  it('refuses a second parent and a cycle, naming the joint', () => {
    const hinge = (name: string, a: string, b: string) => ({
      type: 'hinge', name, bodyA: a, bodyB: b, collideConnected: false,
      frameA: { position: [0, -1, 0], rotation: [0, 0, 0, 1] }, frameB: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, limit: null,
      motor: { mode: 'off', target: { source: 'rest' }, maxTorque: 0, errorReduction: 0.5, stiffness: 0, damping: 0, frictionTorque: 0 },
    });
    const rig = chainRig({ links: 3, angles: [0, 0, 0] });
    const loop = { ...rig, joints: [...rig.joints, hinge('closer', 'link0', 'link2') as never] };
    expect(() => articulatedFromRig(loop)).toThrow(/joint "closer": body "link2" already has the parent joint "j2" — a loop/);
    const cyc = { ...rig, joints: [rig.joints[1]!, { ...rig.joints[0]!, name: 'back', bodyA: 'link1', bodyB: 'link0' }] };
    expect(() => articulatedFromRig(cyc)).toThrow(/closes a loop/);
  });

  it('refuses a static child under a dynamic parent, naming the joint', () => {
    const rig = chainRig({ links: 2, angles: [0, 0] });
    const bad = { ...rig, bodies: rig.bodies.map((b) => (b.name === 'link1' ? { ...b, type: 'static' as const } : b)) };
    expect(() => articulatedFromRig(bad)).toThrow(/joint "j1": its child body "link1" is static but its parent "link0" is dynamic/);
  });

  it('rest pose: q = 0 puts every body at its rig rest pose', () => {
    const rig = chainRig({ links: 3, angles: [0.5, -0.3, 0.2] });
    const a = articulatedFromRig(rig);
    const p = articulatedBodyPoses(a);
    // link2's tip at rest from the bone chain: angles accumulate 0.5, 0.2, 0.4.
    const ang = [0.5, 0.2, 0.4];
    let x = 0, y = 2;
    for (let i = 0; i < 3; i++) {
      const pos = p.get(`link${i}`)!.position;
      expect(Math.hypot(pos[0] - x, pos[1] - y)).toBeLessThan(1e-12);
      x += Math.sin(ang[i]!); y -= Math.cos(ang[i]!);
    }
  });
});
