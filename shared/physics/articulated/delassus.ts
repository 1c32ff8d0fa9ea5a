/**
 * The joint-space rows of a step (drives.ts: motors, limits, ground and body contacts) solved on their
 * Delassus matrix W = J M⁻¹ Jᵀ, per island of coupled rows, instead of row by row through the joint
 * velocities.
 *
 * Every row i acts along a generalized direction n_i (sparse: `dofs`, `n`) and already carries its response
 * col_i = M⁻¹n_i (drives.ts, from the model's inverseMassOperator). Then W_ij = n_i·col_j, the row
 * velocities are u = J q̇* + W λ, and the rows' Gauss-Seidel update
 *     Δλ_i = −(u_i − rhs_i + γ_i·λ_i) / (W_ii + γ_i),  λ_i clamped to [lo_i, hi_i]
 * (a friction row's bounds ±μ·λ_normal, a ball motor's three rows as one 3×3 block with its magnitude
 * clamp) costs O(rows) on W instead of O(DOFs) on q̇, with no tree passes and no allocation.
 *
 * The sweeps alone converge linearly on a chain's strongly coupled rows (a powered ragdoll's 78 rows still
 * moved its velocities by 2e-6 m/s at the 100th sweep), so after each sweep the rows strictly inside their
 * bounds take one Newton step on W: (W_FF + Γ_F)·Δ = −(u − rhs + γλ)_F with the others held (an LDLᵀ of the
 * free rows, a row dependent on earlier ones — redundant contact corners — held too), cut short where a
 * row would leave its bounds (that row stops exactly on its bound and the next Newton step holds it: an
 * active-set iteration, at most 8 steps between two sweeps, and no more Newton work in a solve than the
 * island's budget, `newtonBudgetOf`: then sweeps alone). From the second sweep on, a sliding friction
 * row (at ±μλ_n of a free normal) moves with its normal in the Newton step, Δλ_t = ±μ·Δλ_n (tiedStep: no
 * longer symmetric, a pivoted elimination), while the tied steps stay within their part of the budget
 * (`tiedBudgetOf`; then untied: held on its bound). For the box-clamped rows this is the QP
 * min ½λᵀ(W + Γ)λ + (J q̇* − rhs)ᵀλ over the bounds whose coordinate descent the sweeps are: both steps
 * descend, and at their common fixed point (the sweep's) the Newton step is zero — the same fixed point as
 * the row-by-row sweeps, reached in a few sweeps once the set of clamped rows settles. The stopping rule
 * is the sweeps' own: no row changes any joint velocity by more than `tolerance` in a sweep.
 */

/** A row as drives.ts builds it. */
export interface SolverRow {
  dofs: number[];
  n: number[];
  /** M⁻¹·n over the DOFs [v0, v1), compact: entry k is DOF v0 + k (M⁻¹·n is 0 outside the range). */
  col: Float64Array;
  v0: number;
  v1: number;
  K: number;
  rhs: number;
  gamma: number;
  lo: number;
  hi: number;
  /** Accumulated impulse (in: the start, 0; out: the solution). */
  acc: number;
  /** A ball motor's three rows solved as one 3×3 block, with its magnitude clamp (null: perAxis). */
  block: { rows: SolverRow[]; norm: number | null } | undefined;
  /** A friction row: |λ| ≤ μ·λ of its normal row. */
  friction: { normal: SolverRow; mu: number } | undefined;
}

/**
 * The Newton work one island may spend in one solve, in multiply-adds, against what its sweeps cost at their
 * cap (iterations·rows², a sweep costing ≈ rows²): NEWTON_BUDGET_PER_SWEEP times that in all, of which the
 * tied steps (their pivoted elimination, nf³/3 a step, reuses nothing) at most TIED_BUDGET_PER_SWEEP times;
 * each never less than NEWTON_BUDGET_MIN (small islands: the Armed Mine's 21–33 rows spend at most 4.4e5 in a
 * solve, the hexapod's 2.7e5, the bench ragdoll's 6e3 — the budgets never bind on them). A step is counted
 * before it is taken — its factorisation (an LDLᵀ refactoring rows same..nf: (nf³ − same³)/6; a tied step's
 * elimination: nf³/3), its two triangular solves (nf²) and its pushes (nf·rows). A tied step that would
 * overrun the tied budget is not taken: the solve goes on untied (sliding friction rows held on their bounds,
 * as on the first sweep — the LDLᵀ, kept across steps); a step that would overrun the whole budget is not
 * taken: the solve goes on with sweeps alone. Tied steps are what large islands could not afford: on the
 * third-party QuaterniusHorse (228 rows) they were 95 % of the Newton work and its active set never settled
 * in 100 sweeps (≈ 2 s a step); untied after its tied budget it converges in ≈ 14 sweeps a solve.
 */
export const NEWTON_BUDGET_PER_SWEEP = 3, TIED_BUDGET_PER_SWEEP = 0.5, NEWTON_BUDGET_MIN = 1e6;

/** An island's Newton budget for a solve of at most `iterations` sweeps (multiply-adds), and its tied steps' part. */
export function newtonBudgetOf(rows: number, iterations: number): number {
  return Math.max(NEWTON_BUDGET_PER_SWEEP * iterations * rows * rows, NEWTON_BUDGET_MIN);
}
export function tiedBudgetOf(rows: number, iterations: number): number {
  return Math.max(TIED_BUDGET_PER_SWEEP * iterations * rows * rows, NEWTON_BUDGET_MIN);
}

/** Work counters (cumulative; reset them to measure): islands solved, sweeps, Newton steps taken, their
 *  multiply-adds (as counted against the budget), the solves that went on untied and those whose whole budget
 *  ran out, and the most one island spent in one solve relative to its budget. */
export const solverWork = { islands: 0, sweeps: 0, newtonSteps: 0, newtonWork: 0, untied: 0, budgetRanOut: 0, maxBudgetUsed: 0 };

// Scratch, grown as needed and reused from step to step (the solver runs synchronously).
let capRows = 0, capW = 0;
let W = new Float64Array(0), L = new Float64Array(0);
let u = new Float64Array(0), lam = new Float64Array(0), rhs = new Float64Array(0), gam = new Float64Array(0);
let lo = new Float64Array(0), hi = new Float64Array(0), Kd = new Float64Array(0), mu = new Float64Array(0), norm = new Float64Array(0);
let D = new Float64Array(0), x = new Float64Array(0), lam0 = new Float64Array(0), u0 = new Float64Array(0);
let fr = new Int32Array(0), blk = new Int32Array(0), idx = new Int32Array(0), loc = new Int32Array(0), island = new Int32Array(0);
let free = new Int32Array(0), factored = new Int32Array(0), rv0 = new Int32Array(0), rv1 = new Int32Array(0), dofOff = new Int32Array(0);
let dofIdx = new Int32Array(0), dofN = new Float64Array(0), inF = new Int32Array(0), tied = new Int32Array(0), perm = new Int32Array(0), sgn = new Float64Array(0);
let islandStart = new Int32Array(0), islandRows = new Int32Array(0);
const cols: Float64Array[] = [];
const A3 = new Float64Array(9), b3 = new Float64Array(3), n3 = new Float64Array(3);

function ensure(total: number, m: number): void {
  if (total > capRows) {
    capRows = Math.max(total, 2 * capRows);
    u = new Float64Array(capRows); lam = new Float64Array(capRows); rhs = new Float64Array(capRows); gam = new Float64Array(capRows);
    lo = new Float64Array(capRows); hi = new Float64Array(capRows); Kd = new Float64Array(capRows); mu = new Float64Array(capRows);
    norm = new Float64Array(capRows); D = new Float64Array(capRows); x = new Float64Array(capRows);
    lam0 = new Float64Array(capRows); u0 = new Float64Array(capRows);
    fr = new Int32Array(capRows); blk = new Int32Array(capRows); idx = new Int32Array(capRows); loc = new Int32Array(capRows);
    island = new Int32Array(capRows); free = new Int32Array(capRows); factored = new Int32Array(capRows);
    rv0 = new Int32Array(capRows); rv1 = new Int32Array(capRows); dofOff = new Int32Array(capRows + 1);
    inF = new Int32Array(capRows); tied = new Int32Array(capRows); perm = new Int32Array(capRows); sgn = new Float64Array(capRows);
  }
  if (m * m > capW) {
    capW = Math.max(m * m, 2 * capW);
    W = new Float64Array(capW); L = new Float64Array(capW);
  }
}

/**
 * Solve `rows` (their `acc` start at 0) and add their impulses to `qd` (q̇*, the velocities before the
 * rows): at most `iterations` sweeps per island, stopping once a sweep changes no joint velocity by more
 * than `tolerance`. Friction rows end with their last bounds in lo/hi. Returns the most sweeps an island used.
 */
export function solveRows(rows: readonly SolverRow[], qd: Float64Array, iterations: number, tolerance: number): number {
  const total = rows.length;
  if (total === 0 || iterations <= 0) return 0;
  ensure(total, 0);
  // Islands: rows whose DOF ranges overlap (a range is a set of whole trees), merged as intervals.
  for (let i = 0; i < total; i++) idx[i] = i;
  const order = idx.subarray(0, total).sort((a, b) => rows[a]!.v0 - rows[b]!.v0 || a - b);
  let islands = 0, end = -1;
  for (let k = 0; k < total; k++) {
    const r = rows[order[k]!]!;
    if (r.v0 >= end || r.v1 <= r.v0) islands++;
    island[order[k]!] = islands - 1;
    end = Math.max(end, r.v1);
  }
  // The islands' rows in their global order (a block's three rows stay together, in order), bucketed in one
  // pass: islandRows[islandStart[s] .. islandStart[s + 1]) are island s's rows.
  if (islands + 1 > islandStart.length) islandStart = new Int32Array(Math.max(islands + 1, 2 * islandStart.length));
  if (total > islandRows.length) islandRows = new Int32Array(Math.max(total, 2 * islandRows.length));
  islandStart.fill(0, 0, islands + 1);
  for (let i = 0; i < total; i++) islandStart[island[i]! + 1]++;
  for (let s = 0; s < islands; s++) islandStart[s + 1] += islandStart[s]!;
  for (let i = 0; i < total; i++) { const s = island[i]!; islandRows[islandStart[s]!] = i; islandStart[s]++; }
  let sweeps = 0;
  for (let s = 0, start = 0; s < islands; s++) {
    const end = islandStart[s]!, m = end - start; // islandStart[s] is now the end of island s
    ensure(total, m);
    for (let k = 0; k < m; k++) { const i = islandRows[start + k]!; idx[k] = i; loc[i] = k; }
    start = end;
    sweeps = Math.max(sweeps, solveIsland(rows, m, qd, iterations, tolerance));
  }
  return sweeps;
}

function solveIsland(rows: readonly SolverRow[], m: number, qd: Float64Array, iterations: number, tolerance: number): number {
  // The island's rows into flat arrays (the rows' objects are read once).
  let nd = 0;
  for (let a = 0; a < m; a++) nd += rows[idx[a]!]!.dofs.length;
  if (nd > dofIdx.length) { dofIdx = new Int32Array(Math.max(nd, 2 * dofIdx.length)); dofN = new Float64Array(dofIdx.length); }
  nd = 0;
  for (let a = 0; a < m; a++) {
    const r = rows[idx[a]!]!, dofs = r.dofs, n = r.n;
    lam[a] = r.acc; rhs[a] = r.rhs; gam[a] = r.gamma; lo[a] = r.lo; hi[a] = r.hi; Kd[a] = r.K;
    rv0[a] = r.v0; rv1[a] = r.v1; cols[a] = r.col;
    dofOff[a] = nd;
    let v = 0;
    for (let k = 0; k < dofs.length; k++) { const j = dofs[k]!, x = n[k]!; v += x * qd[j]!; dofIdx[nd] = j; dofN[nd] = x; nd++; }
    u[a] = v;
    const f = r.friction, b = r.block;
    fr[a] = f ? loc[indexBefore(rows, f.normal, idx[a]!)]! : -1;
    mu[a] = f ? f.mu : 0;
    // blk: 1 the first row of a 3×3 ball-motor block, 2 its other rows; norm: its magnitude clamp or −1.
    blk[a] = b ? (b.rows[0] === r ? 1 : 2) : 0;
    norm[a] = b && b.norm !== null ? b.norm : -1;
  }
  dofOff[m] = nd;
  // W, symmetric: the upper triangle from the rows' directions and responses, mirrored.
  for (let a = 0; a < m; a++) {
    const a0 = rv0[a]!, a1 = rv1[a]!, d0 = dofOff[a]!, d1 = dofOff[a + 1]!;
    for (let b = a; b < m; b++) {
      let w = 0;
      const b0 = rv0[b]!, b1 = rv1[b]!;
      if (a0 < b1 && b0 < a1) {
        const c = cols[b]!;
        for (let k = d0; k < d1; k++) { const j = dofIdx[k]!; w += dofN[k]! * (j >= b0 && j < b1 ? c[j - b0]! : 0); }
      }
      W[a * m + b] = w; W[b * m + a] = w;
    }
  }
  for (let a = 0; a < m; a++) u[a] += dot(a, m);
  for (let a = 0; a < m; a++) { lam0[a] = lam[a]!; u0[a] = u[a]!; }
  let sweeps = 0, nFactored = -1;
  newtonWork = 0; newtonOut = false; untied = false;
  newtonBudget = newtonBudgetOf(m, iterations); tiedBudget = tiedBudgetOf(m, iterations);
  for (let it = 0; it < iterations; it++) {
    sweeps = it + 1;
    let change = 0;
    for (let a = 0; a < m; a++) {
      const t = blk[a]!;
      if (t === 2) continue;
      if (t === 1) { change = Math.max(change, blockStep(a, m)); continue; }
      const f = fr[a]!;
      if (f >= 0) { hi[a] = mu[a]! * lam[f]!; lo[a] = -hi[a]!; }
      change = Math.max(change, rowStep(a, m));
    }
    if (change < tolerance || it === iterations - 1) break;
    // Newton steps, each cut short putting one more row on its bound, until one is a full step (an active-set
    // iteration; at most 8 before the next sweep).
    for (let k = 0; k < 8 && !newtonOut; k++) {
      lastAlpha = 0;
      nFactored = newtonStep(m, nFactored, it > 0);
      if (!(lastAlpha > 0 && lastAlpha < 1)) break;
    }
  }
  if (sweeps === iterations) lineSearch(m);
  solverWork.islands++; solverWork.sweeps += sweeps; solverWork.newtonWork += newtonWork;
  if (newtonOut) solverWork.budgetRanOut++;
  if (untied) solverWork.untied++;
  solverWork.maxBudgetUsed = Math.max(solverWork.maxBudgetUsed, newtonWork / newtonBudget);
  // Back to the rows and the joint velocities.
  for (let a = 0; a < m; a++) {
    const r = rows[idx[a]!]!, l = lam[a]!;
    r.acc = l;
    if (fr[a]! >= 0) { r.lo = lo[a]!; r.hi = hi[a]!; }
    if (l === 0) continue;
    const c = r.col;
    for (let k = r.v0; k < r.v1; k++) qd[k] += c[k - r.v0]! * l;
  }
  return sweeps;
}

/**
 * An island that used all its sweeps ends no worse, in the rows' own objective f(λ) = ½λᵀ(W + Γ)λ + λᵀ(u_free −
 * rhs), than it started: λ ← λ₀ + s·(λ − λ₀) with s ∈ [0, 1] minimising f on that segment (f is quadratic along
 * it; every point of the segment is within the rows' bounds, which are convex).
 */
function lineSearch(m: number): void {
  // u holds J·q̇ + W·λ (the start's u0 = J·q̇ + W·λ₀); along d = λ − λ₀: f(λ₀ + s·d) − f(λ₀) = s·g + ½s²·c with
  // g = dᵀ(u0 − rhs + Γλ₀), c = dᵀ(W + Γ)d = dᵀ(u − u0) + Σγd².
  let g = 0, c = 0;
  for (let a = 0; a < m; a++) {
    const d = lam[a]! - lam0[a]!;
    if (d === 0) continue;
    g += d * (u0[a]! - rhs[a]! + gam[a]! * lam0[a]!);
    c += d * (u[a]! - u0[a]!) + gam[a]! * d * d;
  }
  const s = c > 0 ? Math.min(1, Math.max(0, -g / c)) : g < 0 ? 1 : 0;
  if (s > 1 - 1e-9) return; // at (or within rounding of) the sweeps' end: left exactly as the sweeps left it
  for (let a = 0; a < m; a++) lam[a] = lam0[a]! + s * (lam[a]! - lam0[a]!);
}

/** The index of `row` in `rows`, searched back from `from` (a friction row follows its normal row). */
function indexBefore(rows: readonly SolverRow[], row: SolverRow, from: number): number {
  for (let i = from; i >= 0; i--) if (rows[i] === row) return i;
  return rows.indexOf(row);
}

/** Σ_b W_ab·λ_b. */
function dot(a: number, m: number): number {
  let s = 0;
  const o = a * m;
  for (let b = 0; b < m; b++) { const l = lam[b]!; if (l !== 0) s += W[o + b]! * l; }
  return s;
}

/** u += W[:, a]·dl (W is symmetric: its row a). */
function push(a: number, m: number, dl: number): void {
  const o = a * m;
  for (let b = 0; b < m; b++) u[b] += W[o + b]! * dl;
}

/** One projected Gauss-Seidel update of row a; returns |Δλ|·K, the joint velocity change it made. */
function rowStep(a: number, m: number): number {
  const old = lam[a]!, g = gam[a]!;
  const next = Math.min(hi[a]!, Math.max(lo[a]!, old - (u[a]! - rhs[a]! + g * old) / (Kd[a]! + g)));
  const dl = next - old;
  if (dl === 0) return 0;
  lam[a] = next;
  push(a, m, dl);
  return Math.abs(dl * Kd[a]!);
}

/**
 * One block step of a ball motor's three rows a..a+2: (W_bb + Γ)Δλ = −(u − rhs + γλ), then the accumulated
 * impulses as a vector to ‖λ‖ ≤ norm (magnitude); perAxis: when a row would leave its ±τmax·h the three rows
 * are swept one by one instead (as the rigid solver's rows). Returns the largest velocity change.
 */
function blockStep(a: number, m: number): number {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) A3[i * 3 + j] = W[(a + i) * m + a + j]! + (i === j ? gam[a + i]! : 0);
    b3[i] = -(u[a + i]! - rhs[a + i]! + gam[a + i]! * lam[a + i]!);
  }
  solve3();
  for (let i = 0; i < 3; i++) n3[i] = lam[a + i]! + b3[i]!;
  const nm = norm[a]!;
  if (nm >= 0) {
    const len = Math.hypot(n3[0]!, n3[1]!, n3[2]!);
    if (len > nm) for (let i = 0; i < 3; i++) n3[i] = n3[i]! * (nm / len);
  } else {
    for (let i = 0; i < 3; i++) {
      if (n3[i]! < lo[a + i]! || n3[i]! > hi[a + i]!) {
        // A saturated row: the clamped block solution is not the projected one; sweep the rows one by one.
        let change = 0;
        for (let j = 0; j < 3; j++) change = Math.max(change, rowStep(a + j, m));
        return change;
      }
    }
  }
  let change = 0;
  for (let i = 0; i < 3; i++) {
    const dl = n3[i]! - lam[a + i]!;
    if (dl === 0) continue;
    lam[a + i] = n3[i]!;
    change = Math.max(change, Math.abs(dl * Kd[a + i]!));
    push(a + i, m, dl);
  }
  return change;
}

/** b3 ← A3⁻¹·b3 (Gaussian elimination with partial pivoting). */
function solve3(): void {
  for (let c = 0; c < 3; c++) {
    let p = c, best = Math.abs(A3[c * 3 + c]!);
    for (let r = c + 1; r < 3; r++) { const v = Math.abs(A3[r * 3 + c]!); if (v > best) { best = v; p = r; } }
    if (!(best > 1e-300)) throw new Error(`ball motor block: singular 3×3 matrix (column ${c})`);
    if (p !== c) {
      for (let j = 0; j < 3; j++) { const t = A3[c * 3 + j]!; A3[c * 3 + j] = A3[p * 3 + j]!; A3[p * 3 + j] = t; }
      const t = b3[c]!; b3[c] = b3[p]!; b3[p] = t;
    }
    const d = A3[c * 3 + c]!;
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = A3[r * 3 + c]! / d;
      if (f === 0) continue;
      for (let j = c; j < 3; j++) A3[r * 3 + j] -= f * A3[c * 3 + j]!;
      b3[r] -= f * b3[c]!;
    }
  }
  for (let r = 0; r < 3; r++) b3[r] = b3[r]! / A3[r * 3 + r]!;
}

/** A row's bounds now (a friction row's from its normal's λ). */
function lower(a: number): number { const f = fr[a]!; return f >= 0 ? -mu[a]! * lam[f]! : lo[a]!; }
function upper(a: number): number { const f = fr[a]!; return f >= 0 ? mu[a]! * lam[f]! : hi[a]!; }

/**
 * The Newton step on the rows strictly inside their bounds (a magnitude-clamped ball motor's three rows
 * together, while ‖λ‖ is below its clamp), the others held: (W_FF + Γ_F)·Δ = −(u − rhs + γλ)_F, cut at the
 * first bound it reaches. The LDLᵀ of W_FF + Γ_F is kept while the free set stays the same (W does not
 * change within the step). Returns the size of the factored set (−1: none).
 */
function newtonStep(m: number, nFactored: number, tie: boolean): number {
  let nf = 0;
  for (let a = 0; a < m; a++) {
    const t = blk[a]!;
    if (t !== 0 && norm[a]! >= 0) {
      if (t !== 1) continue;
      if (Math.hypot(lam[a]!, lam[a + 1]!, lam[a + 2]!) < norm[a]!) { free[nf++] = a; free[nf++] = a + 1; free[nf++] = a + 2; }
      continue;
    }
    const l = lam[a]!;
    if (l > lower(a) && l < upper(a)) free[nf++] = a;
  }
  if (nf === 0) return nFactored;
  // Sliding friction rows (at ±μλ_n of a free normal) move with their normal: Δλ_t = s·μ·Δλ_n — from the second
  // sweep on (after the first, from λ = 0, many sit on their bound for a moment; held, they cost less).
  for (let a = 0; a < m; a++) inF[a] = -1;
  for (let i = 0; i < nf; i++) inF[free[i]!] = i;
  let nt = 0;
  for (let a = 0; tie && a < m; a++) {
    const f = fr[a]!;
    if (f < 0 || inF[a]! >= 0 || inF[f]! < 0) continue;
    const bound = mu[a]! * lam[f]!, l = lam[a]!;
    if (bound > 0 && Math.abs(l) >= bound) { tied[nt] = a; sgn[a] = l > 0 ? mu[a]! : -mu[a]!; nt++; }
  }
  // Untied for the rest of the solve once a tied step would overrun the tied budget.
  if (nt > 0 && !untied) {
    if (newtonWork + tiedWork(m, nf, nt) <= tiedBudget) return tiedStep(m, nf, nt);
    untied = true;
  }
  // The factor's rows for the free set's leading rows shared with the factored set are kept: row i of an
  // LDLᵀ depends only on rows 0..i (a step cut short drops one row; the rows before it stay exactly).
  let same = 0;
  if (nFactored >= 0) while (same < nf && same < nFactored && free[same] === factored[same]) same++;
  const refactor = same < nf || nf !== nFactored;
  if (!spend((refactor ? (nf * nf * nf - same * same * same) / 6 : 0) + nf * nf + nf * m)) return nFactored;
  if (refactor) {
    // LDLᵀ of W_FF + Γ_F in L (row-major, stride m, lower triangle), a row whose pivot vanishes relative to
    // its diagonal (dependent on earlier rows) held: D = 0 and its column zero.
    for (let i = same; i < nf; i++) {
      const ai = free[i]!;
      for (let j = 0; j <= i; j++) {
        const aj = free[j]!;
        let s = W[ai * m + aj]! + (i === j ? gam[ai]! : 0);
        for (let k = 0; k < j; k++) s -= L[i * m + k]! * L[j * m + k]! * D[k]!;
        if (i === j) {
          const diag = W[ai * m + ai]! + gam[ai]!;
          D[i] = s > 1e-11 * diag ? s : 0;
        } else L[i * m + j] = D[j]! > 0 ? s / D[j]! : 0;
      }
    }
    for (let i = 0; i < nf; i++) factored[i] = free[i]!;
    nFactored = nf;
  }
  // x = −(u − rhs + γλ)_F, then L⁻¹, D⁻¹, L⁻ᵀ.
  for (let i = 0; i < nf; i++) { const a = free[i]!; x[i] = -(u[a]! - rhs[a]! + gam[a]! * lam[a]!); }
  for (let i = 0; i < nf; i++) { let s = x[i]!; for (let k = 0; k < i; k++) s -= L[i * m + k]! * x[k]!; x[i] = s; }
  for (let i = 0; i < nf; i++) x[i] = D[i]! > 0 ? x[i]! / D[i]! : 0;
  for (let i = nf - 1; i >= 0; i--) { if (D[i] === 0) { x[i] = 0; continue; } let s = x[i]!; for (let k = i + 1; k < nf; k++) s -= L[k * m + i]! * x[k]!; x[i] = s; }
  if (Dl.length < nf) Dl = new Float64Array(Math.max(nf, capRows));
  for (let i = 0; i < nf; i++) Dl[i] = x[i]!;
  stepAlong(m, nf, 0);
  return nFactored;
}

/**
 * The Newton step with sliding friction rows tied to their normals (Δλ_t = s·μ·Δλ_n): on the free rows,
 * (W_FF + Γ_F + W_FT·G)·Δ_F = −(u − rhs + γλ)_F with G the ties — not symmetric, so Gaussian elimination with
 * partial pivoting, a column whose pivot vanishes (a row dependent on others) held at Δ = 0. Cut short where
 * a free row would reach its bound, as newtonStep. Returns −1 (the LDLᵀ kept by newtonStep is overwritten).
 */
function tiedStep(m: number, nf: number, nt: number): number {
  if (!spend(tiedWork(m, nf, nt))) return -1;
  // A' in L (row-major nf×nf), the right-hand side in x.
  for (let i = 0; i < nf; i++) {
    const ai = free[i]!, o = ai * m;
    for (let j = 0; j < nf; j++) L[i * nf + j] = W[o + free[j]!]!;
    L[i * nf + i] += gam[ai]!;
    for (let k = 0; k < nt; k++) { const t = tied[k]!; L[i * nf + inF[fr[t]!]!] += W[o + t]! * sgn[t]!; }
    x[i] = -(u[ai]! - rhs[ai]! + gam[ai]! * lam[ai]!);
  }
  // Elimination; perm[r] = the column pivoted in row r; D[c] = 1 when column c was pivoted.
  let rank = 0;
  for (let c = 0; c < nf; c++) {
    D[c] = 0;
    let p = -1, best = 1e-11 * (W[free[c]! * m + free[c]!]! + gam[free[c]!]!);
    for (let r = rank; r < nf; r++) { const v = Math.abs(L[r * nf + c]!); if (v > best) { best = v; p = r; } }
    if (p < 0) continue;
    if (p !== rank) {
      for (let j = 0; j < nf; j++) { const tmp = L[rank * nf + j]!; L[rank * nf + j] = L[p * nf + j]!; L[p * nf + j] = tmp; }
      const tmp = x[rank]!; x[rank] = x[p]!; x[p] = tmp;
    }
    const d = L[rank * nf + c]!;
    for (let r = rank + 1; r < nf; r++) {
      const f = L[r * nf + c]! / d;
      if (f === 0) continue;
      for (let j = c; j < nf; j++) L[r * nf + j] -= f * L[rank * nf + j]!;
      x[r] -= f * x[rank]!;
    }
    perm[rank] = c; D[c] = 1; rank++;
  }
  // Back substitution: Δ by column (Dl).
  if (Dl.length < nf) Dl = new Float64Array(Math.max(nf, capRows));
  for (let k = rank - 1; k >= 0; k--) {
    const c = perm[k]!;
    let sum = x[k]!;
    for (let j = c + 1; j < nf; j++) if (D[j] === 1) sum -= L[k * nf + j]! * dlt(j);
    setDlt(c, sum / L[k * nf + c]!);
  }
  for (let c = 0; c < nf; c++) if (D[c] !== 1) setDlt(c, 0);
  stepAlong(m, nf, nt);
  return -1;
}

/** The island's Newton work so far and its budgets (multiply-adds); newtonOut: the budget ran out; untied:
 *  the tied budget did (no more tied steps in this solve). */
let newtonWork = 0, newtonBudget = 0, tiedBudget = 0, newtonOut = false, untied = false;

/** A tied step's work: its elimination, its back substitution, the pushes of its free and tied rows. */
function tiedWork(m: number, nf: number, nt: number): number { return (nf * nf * nf) / 3 + nf * nf + (nf + nt) * m; }

/** Count a Newton step's work against the budget; false (and no more Newton steps in this solve) if it would
 *  overrun it. */
function spend(work: number): boolean {
  if (newtonWork + work > newtonBudget) { newtonOut = true; return false; }
  newtonWork += work;
  solverWork.newtonSteps++;
  return true;
}

/** The last Newton step's length (1: a full step; < 1: cut at a bound; 0: none). */
let lastAlpha = 0;

/**
 * λ_F += α·Δ_F (Δ in Dl by free column), the tied rows with their normals, α ≤ 1 the longest step that keeps
 * every free row within its bounds — a friction row's bound moving with its normal's λ — and the row that
 * stops the step put exactly on its bound (so that the next Newton step holds or ties it).
 */
function stepAlong(m: number, nf: number, nt: number): void {
  let alpha = 1, blocker = -1, side = 0;
  for (let i = 0; i < nf; i++) {
    const a = free[i]!, d = Dl[i]!;
    if (blk[a]! !== 0 && norm[a]! >= 0) {
      if (blk[a] !== 1) continue;
      // ‖λ + tΔ‖ = norm: the positive root.
      const d1 = Dl[i + 1]!, d2 = Dl[i + 2]!, l0 = lam[a]!, l1 = lam[a + 1]!, l2 = lam[a + 2]!;
      const qa = d * d + d1 * d1 + d2 * d2, qb = 2 * (l0 * d + l1 * d1 + l2 * d2), qc = l0 * l0 + l1 * l1 + l2 * l2 - norm[a]! ** 2;
      if (qa > 0) { const t = (-qb + Math.sqrt(Math.max(0, qb * qb - 4 * qa * qc))) / (2 * qa); if (t < alpha) { alpha = Math.max(0, t); blocker = -1; } }
      continue;
    }
    const f = fr[a]!;
    if (f >= 0) {
      // |λ_t + tΔ_t| ≤ μ(λ_n + tΔ_n).
      const mu_ = mu[a]!, dn = inF[f]! >= 0 ? Dl[inF[f]!]! : 0, bound = mu_ * lam[f]!, l = lam[a]!;
      const up = d - mu_ * dn, down = d + mu_ * dn;
      if (up > 0) { const t = (bound - l) / up; if (t < alpha) { alpha = Math.max(0, t); blocker = a; side = 1; } }
      if (down < 0) { const t = (-bound - l) / down; if (t < alpha) { alpha = Math.max(0, t); blocker = a; side = -1; } }
      continue;
    }
    if (d > 0) { const t = (hi[a]! - lam[a]!) / d; if (t < alpha) { alpha = Math.max(0, t); blocker = a; side = 1; } }
    else if (d < 0) { const t = (lo[a]! - lam[a]!) / d; if (t < alpha) { alpha = Math.max(0, t); blocker = a; side = -1; } }
  }
  lastAlpha = alpha;
  if (alpha <= 0) return;
  // The rows other than friction first (the normals), then the friction rows within their new bounds.
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < nf; i++) {
      const a = free[i]!, f = fr[a]!;
      if ((f >= 0) !== (pass === 1)) continue;
      let next = lam[a]! + alpha * Dl[i]!;
      if (f >= 0) {
        const bound = mu[a]! * lam[f]!;
        hi[a] = bound; lo[a] = -bound;
        next = a === blocker ? side * bound : Math.min(bound, Math.max(-bound, next));
      } else if (!(blk[a]! !== 0 && norm[a]! >= 0)) next = a === blocker ? (side > 0 ? hi[a]! : lo[a]!) : Math.min(hi[a]!, Math.max(lo[a]!, next));
      const dl = next - lam[a]!;
      if (dl === 0) continue;
      lam[a] = next;
      push(a, m, dl);
    }
  }
  // The tied rows onto their normals' new bounds.
  for (let k = 0; k < nt; k++) {
    const t = tied[k]!, bound = mu[t]! * lam[fr[t]!]!;
    const next = sgn[t]! > 0 ? bound : -bound, dl = next - lam[t]!;
    hi[t] = bound; lo[t] = -bound;
    if (dl === 0) continue;
    lam[t] = next;
    push(t, m, dl);
  }
}

/** Δ of the free rows by column (tiedStep's back substitution). */
let Dl = new Float64Array(0);
function dlt(c: number): number { return Dl[c]!; }
function setDlt(c: number, v: number): void { Dl[c] = v; }
