/**
 * The Delassus solve (delassus.ts) never ends worse than it started: an island that used all its sweeps is
 * taken back along the segment from its starting impulses to where its sweeps and Newton steps left them, to
 * the point where the rows' own objective f(λ) = ½λᵀ(W + Γ)λ + λᵀ(J·q̇ − rhs) is least (`lineSearch`). Found on a
 * random rig of the CI seed (1826048322, articulated): one unconverged solve moved a 12 g body's joint from 11
 * to 1.8e4 rad/s, and the next steps went to 1e205 and a singular solve.
 */
import { describe, expect, it } from 'vitest';
import { solveRows, type SolverRow } from '../../../../shared/physics/articulated/delassus';
import { rng } from '../helpers';

/** f(λ) of the rows at the joint velocities before any impulse (M = 1: col = n, W_ab = n_a·n_b). */
function objective(rows: SolverRow[], qdFree: Float64Array): number {
  let f = 0;
  for (const a of rows) {
    let ua = 0;
    for (let k = 0; k < a.dofs.length; k++) ua += a.n[k]! * qdFree[a.dofs[k]!]!;
    f += a.acc * (ua - a.rhs) + 0.5 * a.gamma * a.acc * a.acc;
    for (const b of rows) {
      let w = 0;
      for (let k = 0; k < a.dofs.length; k++) { const j = b.dofs.indexOf(a.dofs[k]!); if (j >= 0) w += a.n[k]! * b.n[j]!; }
      f += 0.5 * a.acc * w * b.acc;
    }
  }
  return f;
}

describe('the Delassus solve\'s line search', () => {
  it('on 400 random islands of contact (normal + two friction rows, μ up to 2), limit and soft rows, nearly dependent, 1–4 sweeps: f(λ) at the end ≤ f(0), the joint velocities J·q̇ + W·λ consistent', () => {
    const r = rng(97);
    let worst = -Infinity, cases = 0;
    for (let t = 0; t < 400; t++) {
      const nv = 2 + Math.floor(r() * 5), rows: SolverRow[] = [];
      const dir = () => { const n = Array.from({ length: nv }, () => 2 * r() - 1); if (r() < 0.5 && rows.length) { const b = rows[Math.floor(r() * rows.length)]!; for (let k = 0; k < nv; k++) n[k] = b.n[k]! + 1e-3 * n[k]!; } return n; };
      const row = (n: number[], rhs: number, lo: number, hi: number, gamma = 0, friction?: { normal: SolverRow; mu: number }): SolverRow => {
        const col = Float64Array.from(n); let K = 0; for (const x of n) K += x * x;
        const s: SolverRow = { dofs: n.map((_, k) => k), n, col, v0: 0, v1: nv, K, rhs, gamma, lo, hi, acc: 0, block: undefined, friction };
        rows.push(s); return s;
      };
      for (let c = 0; c < 1 + Math.floor(r() * 4); c++) {
        const normal = row(dir(), 3 * r(), 0, Infinity, r() < 0.5 ? 0.1 * r() : 0);
        const mu = 2 * r();
        row(dir(), 0, -Infinity, Infinity, 0, { normal, mu }); row(dir(), 0, -Infinity, Infinity, 0, { normal, mu });
      }
      if (r() < 0.5) row(dir(), 4 * r() - 2, -1, 1);
      const qd = Float64Array.from({ length: nv }, () => 4 * r() - 2), free = Float64Array.from(qd);
      solveRows(rows, qd, 1 + Math.floor(r() * 4), 1e-10);
      const f = objective(rows, free);
      worst = Math.max(worst, f);
      // q̇ = q̇_free + Σ col·λ (the solve's own bookkeeping).
      for (let k = 0; k < nv; k++) { let x = free[k]!; for (const s of rows) x += s.col[k]! * s.acc; expect(qd[k]).toBeCloseTo(x, 9); }
      for (const s of rows) { expect(s.acc).toBeGreaterThanOrEqual(s.lo - 1e-12); expect(s.acc).toBeLessThanOrEqual(s.hi + 1e-12); }
      cases++;
    }
    console.log(`${cases} random islands: largest f(λ) at the end ${worst.toExponential(2)} (f(0) = 0)`);
    expect(worst).toBeLessThanOrEqual(1e-9);
  });
});
