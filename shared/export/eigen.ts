/** Principal axes of a symmetric 3×3 tensor (cyclic Jacobi), for the glTF motion's inertiaDiagonal + inertiaOrientation. */
import { mat4ToTRS } from '../math/mat4';
import { quatNormalize, quatToMat3, type Quat, type ReadonlyQuat } from '../math/quat';

/** I (row-major, symmetric) = R · diag(d) · Rᵀ with R = rotation of `orientation` (a proper rotation). */
export function principalAxes(I: readonly number[]): { diagonal: [number, number, number]; orientation: Quat } {
  const a = [[I[0]!, I[1]!, I[2]!], [I[3]!, I[4]!, I[5]!], [I[6]!, I[7]!, I[8]!]];
  const v = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[0]![1]!) + Math.abs(a[0]![2]!) + Math.abs(a[1]![2]!);
    const scale = Math.abs(a[0]![0]!) + Math.abs(a[1]![1]!) + Math.abs(a[2]![2]!);
    if (off <= 1e-300 || off <= 1e-17 * scale) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]] as const) {
      const apq = a[p]![q]!;
      if (apq === 0) continue;
      const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < 3; k++) { // A ← Jᵀ A J
        const akp = a[k]![p]!, akq = a[k]![q]!;
        a[k]![p] = c * akp - s * akq; a[k]![q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p]![k]!, aqk = a[q]![k]!;
        a[p]![k] = c * apk - s * aqk; a[q]![k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k]![p]!, vkq = v[k]![q]!;
        v[k]![p] = c * vkp - s * vkq; v[k]![q] = s * vkp + c * vkq;
      }
    }
  }
  // Columns of v are the eigenvectors; make it a proper rotation.
  const det = v[0]![0]! * (v[1]![1]! * v[2]![2]! - v[1]![2]! * v[2]![1]!) - v[0]![1]! * (v[1]![0]! * v[2]![2]! - v[1]![2]! * v[2]![0]!) + v[0]![2]! * (v[1]![0]! * v[2]![1]! - v[1]![1]! * v[2]![0]!);
  if (det < 0) for (let k = 0; k < 3; k++) v[k]![2] = -v[k]![2]!;
  const m = [v[0]![0]!, v[1]![0]!, v[2]![0]!, 0, v[0]![1]!, v[1]![1]!, v[2]![1]!, 0, v[0]![2]!, v[1]![2]!, v[2]![2]!, 0, 0, 0, 0, 1];
  return { diagonal: [a[0]![0]!, a[1]![1]!, a[2]![2]!], orientation: quatNormalize(mat4ToTRS(m).rotation) };
}

/** R · diag(d) · Rᵀ, row-major. */
export function tensorFromPrincipal(d: readonly number[], q: ReadonlyQuat): number[] {
  const R = quatToMat3(quatNormalize(q));
  const out = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[3 * i + j]! += R[3 * i + k]! * d[k]! * R[3 * j + k]!;
  return out;
}
