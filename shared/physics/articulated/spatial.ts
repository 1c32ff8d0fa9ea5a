/**
 * Spatial (6D) vector algebra for the articulated-body solver, in Featherstone's conventions
 * ("Rigid Body Dynamics Algorithms", 2008, ch. 2):
 *  - a motion vector is [ω; v] (angular first; v = velocity of the body point at the frame's origin),
 *    a force vector is [n; f] (moment about the origin first);
 *  - a Plücker transform X from frame A to frame B is stored as (E, r): E (row-major 3×3) turns A
 *    coordinates into B coordinates and r is B's origin in A coordinates. As a 6×6 on motion vectors
 *    X = [E 0; −E·r× E]; forces transform by X* = X⁻ᵀ, and Xᵀ takes a force from B back to A;
 *  - a spatial inertia is a symmetric 6×6 (row-major 36 numbers) about the frame's origin.
 * Pure functions on plain arrays; nothing here knows about bodies or joints.
 */

export type Vec6 = number[];
export type Mat6 = number[];
export type Mat3 = number[];

export interface Plucker {
  /** Rotation, A coordinates → B coordinates (row-major 3×3). */
  E: Mat3;
  /** B's origin in A coordinates. */
  r: [number, number, number];
}

export const zero6 = (): Vec6 => [0, 0, 0, 0, 0, 0];

export function pluckerIdentity(): Plucker {
  return { E: [1, 0, 0, 0, 1, 0, 0, 0, 1], r: [0, 0, 0] };
}

const mul3v = (E: Mat3, x: number, y: number, z: number): [number, number, number] =>
  [E[0]! * x + E[1]! * y + E[2]! * z, E[3]! * x + E[4]! * y + E[5]! * z, E[6]! * x + E[7]! * y + E[8]! * z];
const mul3tv = (E: Mat3, x: number, y: number, z: number): [number, number, number] =>
  [E[0]! * x + E[3]! * y + E[6]! * z, E[1]! * x + E[4]! * y + E[7]! * z, E[2]! * x + E[5]! * y + E[8]! * z];

/** X·m: a motion vector from A to B coordinates: [E·ω; E·(v − r×ω)]. */
export function xMotion(X: Plucker, m: Vec6, out: Vec6 = zero6()): Vec6 {
  const [rx, ry, rz] = X.r;
  const w0 = m[0]!, w1 = m[1]!, w2 = m[2]!;
  const a = mul3v(X.E, w0, w1, w2);
  const b = mul3v(X.E, m[3]! - (ry * w2 - rz * w1), m[4]! - (rz * w0 - rx * w2), m[5]! - (rx * w1 - ry * w0));
  out[0] = a[0]; out[1] = a[1]; out[2] = a[2]; out[3] = b[0]; out[4] = b[1]; out[5] = b[2];
  return out;
}

/** X*·f: a force vector from A to B coordinates: [E·(n − r×f); E·f]. */
export function xForce(X: Plucker, f: Vec6, out: Vec6 = zero6()): Vec6 {
  const [rx, ry, rz] = X.r;
  const f0 = f[3]!, f1 = f[4]!, f2 = f[5]!;
  const a = mul3v(X.E, f[0]! - (ry * f2 - rz * f1), f[1]! - (rz * f0 - rx * f2), f[2]! - (rx * f1 - ry * f0));
  const b = mul3v(X.E, f0, f1, f2);
  out[0] = a[0]; out[1] = a[1]; out[2] = a[2]; out[3] = b[0]; out[4] = b[1]; out[5] = b[2];
  return out;
}

/** Xᵀ·f: a force vector from B back to A coordinates: [Eᵀn + r×Eᵀf; Eᵀf]. */
export function xTransposeForce(X: Plucker, f: Vec6, out: Vec6 = zero6()): Vec6 {
  const [rx, ry, rz] = X.r;
  const n = mul3tv(X.E, f[0]!, f[1]!, f[2]!);
  const g = mul3tv(X.E, f[3]!, f[4]!, f[5]!);
  out[0] = n[0] + ry * g[2] - rz * g[1]; out[1] = n[1] + rz * g[0] - rx * g[2]; out[2] = n[2] + rx * g[1] - ry * g[0];
  out[3] = g[0]; out[4] = g[1]; out[5] = g[2];
  return out;
}

/** X⁻¹·m: a motion vector from B back to A coordinates: [Eᵀω; Eᵀv + r×Eᵀω]. */
export function xInverseMotion(X: Plucker, m: Vec6, out: Vec6 = zero6()): Vec6 {
  const [rx, ry, rz] = X.r;
  const w = mul3tv(X.E, m[0]!, m[1]!, m[2]!);
  const v = mul3tv(X.E, m[3]!, m[4]!, m[5]!);
  out[0] = w[0]; out[1] = w[1]; out[2] = w[2];
  out[3] = v[0] + ry * w[2] - rz * w[1]; out[4] = v[1] + rz * w[0] - rx * w[2]; out[5] = v[2] + rx * w[1] - ry * w[0];
  return out;
}

/** X_AC = X_BC · X_AB (apply `first` = A→B, then `second` = B→C). */
export function pluckerCompose(second: Plucker, first: Plucker): Plucker {
  const E = mat3Mul(second.E, first.E);
  const t = mul3tv(first.E, second.r[0], second.r[1], second.r[2]);
  return { E, r: [first.r[0] + t[0], first.r[1] + t[1], first.r[2] + t[2]] };
}

/** X⁻¹ (B → A): (Eᵀ, −E·r). */
export function pluckerInverse(X: Plucker): Plucker {
  const E = X.E;
  const r = mul3v(E, X.r[0], X.r[1], X.r[2]);
  return { E: [E[0]!, E[3]!, E[6]!, E[1]!, E[4]!, E[7]!, E[2]!, E[5]!, E[8]!], r: [-r[0], -r[1], -r[2]] };
}

/** The transform into a frame whose pose in the current one is (position p, rotation R as a quaternion [x,y,z,w]). */
export function pluckerFromPose(p: readonly number[], q: readonly number[]): Plucker {
  const R = quatMat(q);
  return { E: [R[0]!, R[3]!, R[6]!, R[1]!, R[4]!, R[7]!, R[2]!, R[5]!, R[8]!], r: [p[0]!, p[1]!, p[2]!] };
}

/** Row-major rotation matrix of a unit quaternion [x, y, z, w]. */
export function quatMat(q: readonly number[]): Mat3 {
  const x = q[0]!, y = q[1]!, z = q[2]!, w = q[3]!;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

export function mat3Mul(a: Mat3, b: Mat3): Mat3 {
  const o = new Array<number>(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) o[i * 3 + j] = a[i * 3]! * b[j]! + a[i * 3 + 1]! * b[3 + j]! + a[i * 3 + 2]! * b[6 + j]!;
  return o;
}

/** The 6×6 matrix of X on motion vectors. */
export function pluckerMatrix(X: Plucker): Mat6 {
  const M = new Array<number>(36).fill(0);
  const [rx, ry, rz] = X.r;
  const rc = [0, -rz, ry, rz, 0, -rx, -ry, rx, 0]; // r×
  const Erc = mat3Mul(X.E, rc);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      M[i * 6 + j] = X.E[i * 3 + j]!;
      M[(i + 3) * 6 + j + 3] = X.E[i * 3 + j]!;
      M[(i + 3) * 6 + j] = -Erc[i * 3 + j]!;
    }
  }
  return M;
}

/** v ×m m (motion cross product): [ω×ω'; ω×v' + v×ω']. */
export function crossMotion(v: Vec6, m: Vec6, out: Vec6 = zero6()): Vec6 {
  const w0 = v[0]!, w1 = v[1]!, w2 = v[2]!, v0 = v[3]!, v1 = v[4]!, v2 = v[5]!;
  const a0 = m[0]!, a1 = m[1]!, a2 = m[2]!, b0 = m[3]!, b1 = m[4]!, b2 = m[5]!;
  out[0] = w1 * a2 - w2 * a1; out[1] = w2 * a0 - w0 * a2; out[2] = w0 * a1 - w1 * a0;
  out[3] = w1 * b2 - w2 * b1 + v1 * a2 - v2 * a1;
  out[4] = w2 * b0 - w0 * b2 + v2 * a0 - v0 * a2;
  out[5] = w0 * b1 - w1 * b0 + v0 * a1 - v1 * a0;
  return out;
}

/** v ×f f (force cross product, = −(v ×m)ᵀ f): [ω×n + v×f; ω×f]. */
export function crossForce(v: Vec6, f: Vec6, out: Vec6 = zero6()): Vec6 {
  const w0 = v[0]!, w1 = v[1]!, w2 = v[2]!, v0 = v[3]!, v1 = v[4]!, v2 = v[5]!;
  const n0 = f[0]!, n1 = f[1]!, n2 = f[2]!, f0 = f[3]!, f1 = f[4]!, f2 = f[5]!;
  out[0] = w1 * n2 - w2 * n1 + v1 * f2 - v2 * f1;
  out[1] = w2 * n0 - w0 * n2 + v2 * f0 - v0 * f2;
  out[2] = w0 * n1 - w1 * n0 + v0 * f1 - v1 * f0;
  out[3] = w1 * f2 - w2 * f1; out[4] = w2 * f0 - w0 * f2; out[5] = w0 * f1 - w1 * f0;
  return out;
}

export const dot6 = (a: Vec6, b: Vec6): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]! + a[4]! * b[4]! + a[5]! * b[5]!;

/**
 * Spatial inertia about a frame's origin of a body of mass m whose centre of mass is at c and whose
 * rotational inertia about the centre of mass is Ic (row-major 3×3), all in that frame:
 * [Ic + m·c×·c×ᵀ, m·c×; m·c×ᵀ, m·1].
 */
export function spatialInertia(m: number, c: readonly number[], Ic: readonly number[]): Mat6 {
  const [cx, cy, cz] = [c[0]!, c[1]!, c[2]!];
  const C = [0, -cz, cy, cz, 0, -cx, -cy, cx, 0];
  const M = new Array<number>(36).fill(0);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      let cct = 0; // (c×)(c×)ᵀ
      for (let k = 0; k < 3; k++) cct += C[i * 3 + k]! * C[j * 3 + k]!;
      M[i * 6 + j] = Ic[i * 3 + j]! + m * cct;
      M[i * 6 + j + 3] = m * C[i * 3 + j]!;
      M[(i + 3) * 6 + j] = m * C[j * 3 + i]!;
    }
    M[(i + 3) * 6 + i + 3] = m;
  }
  return M;
}

export function mat6Vec(M: Mat6, v: Vec6, out: Vec6 = zero6()): Vec6 {
  for (let i = 0; i < 6; i++) {
    let s = 0;
    for (let j = 0; j < 6; j++) s += M[i * 6 + j]! * v[j]!;
    out[i] = s;
  }
  return out;
}

/** Xᵀ·I·X: a spatial inertia in B coordinates expressed in A coordinates. */
export function inertiaToParent(X: Plucker, I: Mat6): Mat6 {
  const P = pluckerMatrix(X);
  const IP = matMul(I, P, 6, 6, 6);
  const out = new Array<number>(36).fill(0);
  for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) {
    let s = 0;
    for (let k = 0; k < 6; k++) s += P[k * 6 + i]! * IP[k * 6 + j]!;
    out[i * 6 + j] = s;
  }
  return out;
}

/** General dense product of an (n×k) and a (k×m) row-major matrix. */
export function matMul(a: readonly number[], b: readonly number[], n: number, k: number, m: number): number[] {
  const o = new Array<number>(n * m).fill(0);
  for (let i = 0; i < n; i++) for (let l = 0; l < k; l++) {
    const x = a[i * k + l]!;
    if (x === 0) continue;
    for (let j = 0; j < m; j++) o[i * m + j] += x * b[l * m + j]!;
  }
  return o;
}

/**
 * Solve A·x = b for a small dense n×n A (row-major) by Gaussian elimination with partial pivoting; b may
 * hold several right-hand sides (n×cols). Throws on a singular matrix (a joint with no inertia behind it).
 */
export function solveDense(A: readonly number[], b: readonly number[], n: number, cols = 1): number[] {
  const a = A.slice(), x = b.slice();
  for (let c = 0; c < n; c++) {
    let p = c, best = Math.abs(a[c * n + c]!);
    for (let r = c + 1; r < n; r++) { const v = Math.abs(a[r * n + c]!); if (v > best) { best = v; p = r; } }
    if (!(best > 1e-300)) throw new Error(`solveDense: singular ${n}×${n} matrix (column ${c})`);
    if (p !== c) {
      for (let j = 0; j < n; j++) { const t = a[c * n + j]!; a[c * n + j] = a[p * n + j]!; a[p * n + j] = t; }
      for (let j = 0; j < cols; j++) { const t = x[c * cols + j]!; x[c * cols + j] = x[p * cols + j]!; x[p * cols + j] = t; }
    }
    const d = a[c * n + c]!;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r * n + c]! / d;
      if (f === 0) continue;
      for (let j = c; j < n; j++) a[r * n + j] -= f * a[c * n + j]!;
      for (let j = 0; j < cols; j++) x[r * cols + j] -= f * x[c * cols + j]!;
    }
  }
  for (let r = 0; r < n; r++) for (let j = 0; j < cols; j++) x[r * cols + j] /= a[r * n + r]!;
  return x;
}

/**
 * Eigen-decomposition of a small dense symmetric n×n matrix (row-major): A = V·diag(values)·Vᵀ with V
 * orthonormal (column k of V, row-major, is the eigenvector of values[k]). Householder reduction to
 * tridiagonal form, then the implicit QL iterations (EISPACK tred2/tql2, as JAMA's EigenvalueDecomposition).
 */
export function symmetricEigen(A: ArrayLike<number>, n: number): { values: Float64Array; vectors: Float64Array } {
  const V = Float64Array.from(A as ArrayLike<number>), d = new Float64Array(n), e = new Float64Array(n);
  if (n === 0) return { values: d, vectors: V };
  // tred2: V ← Q (the reduction's orthogonal transform), d the diagonal, e the sub-diagonal.
  for (let j = 0; j < n; j++) d[j] = V[(n - 1) * n + j]!;
  for (let i = n - 1; i > 0; i--) {
    let scale = 0, h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]!);
    if (scale === 0) {
      e[i] = d[i - 1]!;
      for (let j = 0; j < i; j++) { d[j] = V[(i - 1) * n + j]!; V[i * n + j] = 0; V[j * n + i] = 0; }
    } else {
      for (let k = 0; k < i; k++) { d[k] /= scale; h += d[k]! * d[k]!; }
      let f = d[i - 1]!, g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g; h -= f * g; d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j]!; V[j * n + i] = f; g = e[j]! + V[j * n + j]! * f;
        for (let k = j + 1; k <= i - 1; k++) { g += V[k * n + j]! * d[k]!; e[k] += V[k * n + j]! * f; }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) { e[j] /= h; f += e[j]! * d[j]!; }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] -= hh * d[j]!;
      for (let j = 0; j < i; j++) {
        f = d[j]!; g = e[j]!;
        for (let k = j; k <= i - 1; k++) V[k * n + j] -= f * e[k]! + g * d[k]!;
        d[j] = V[(i - 1) * n + j]!; V[i * n + j] = 0;
      }
    }
    d[i] = h;
  }
  for (let i = 0; i < n - 1; i++) {
    V[(n - 1) * n + i] = V[i * n + i]!; V[i * n + i] = 1;
    const h = d[i + 1]!;
    if (h !== 0) {
      for (let k = 0; k <= i; k++) d[k] = V[k * n + i + 1]! / h;
      for (let j = 0; j <= i; j++) {
        let g = 0;
        for (let k = 0; k <= i; k++) g += V[k * n + i + 1]! * V[k * n + j]!;
        for (let k = 0; k <= i; k++) V[k * n + j] -= g * d[k]!;
      }
    }
    for (let k = 0; k <= i; k++) V[k * n + i + 1] = 0;
  }
  for (let j = 0; j < n; j++) { d[j] = V[(n - 1) * n + j]!; V[(n - 1) * n + j] = 0; }
  V[(n - 1) * n + n - 1] = 1; e[0] = 0;
  // tql2: the tridiagonal matrix's eigenvalues by implicit QL shifts, the rotations accumulated into V.
  for (let i = 1; i < n; i++) e[i - 1] = e[i]!;
  e[n - 1] = 0;
  let f = 0, tst1 = 0;
  const eps = 2 ** -52;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]!) + Math.abs(e[l]!));
    let m = l;
    while (m < n - 1 && Math.abs(e[m]!) > eps * tst1) m++;
    if (m > l) {
      let iterations = 0;
      do {
        if (++iterations > 60) throw new Error(`symmetricEigen: no convergence (${n}×${n}, eigenvalue ${l})`);
        let g = d[l]!, p = (d[l + 1]! - g) / (2 * e[l]!), r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l]! / (p + r); d[l + 1] = e[l]! * (p + r);
        const dl1 = d[l + 1]!;
        let h = g - d[l]!;
        for (let i = l + 2; i < n; i++) d[i] -= h;
        f += h;
        p = d[m]!;
        let c = 1, c2 = c, c3 = c, s = 0, s2 = 0;
        const el1 = e[l + 1]!;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2; c2 = c; s2 = s;
          g = c * e[i]!; h = c * p; r = Math.hypot(p, e[i]!);
          e[i + 1] = s * r; s = e[i]! / r; c = p / r;
          p = c * d[i]! - s * g; d[i + 1] = h + s * (c * g + s * d[i]!);
          for (let k = 0; k < n; k++) {
            const vk1 = V[k * n + i + 1]!, vk = V[k * n + i]!;
            V[k * n + i + 1] = s * vk + c * vk1; V[k * n + i] = c * vk - s * vk1;
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]!) / dl1; e[l] = s * p; d[l] = c * p;
      } while (Math.abs(e[l]!) > eps * tst1);
    }
    d[l] += f; e[l] = 0;
  }
  return { values: d, vectors: V };
}
