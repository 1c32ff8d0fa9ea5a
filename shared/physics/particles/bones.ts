/**
 * Bones at run time: a capsule from head to tip, and — when it has an orientation particle — a full frame.
 *
 * Frame of a bone (columns, right-handed): Y = e = axis, head → tip; X = side = the orientation particle's
 * offset from the axis, made perpendicular to e (Gram–Schmidt each time it is read, so it never drifts);
 * Z = X × Y. Bones without a frame particle get the paper's arbitrary perpendicular (§3.4, eqs. 6–9),
 * which is what made its boxes "spin unnaturally": nothing carries their roll.
 */
import type { ParticleState } from './state';

export class BoneTable {
  readonly count: number;
  readonly names: string[];
  readonly head: Int32Array;
  readonly tip: Int32Array;
  /** Orientation particle, −1 = none. */
  readonly frame: Int32Array;
  readonly radius: Float64Array;
  readonly restLength: Float64Array;
  readonly collide: Uint8Array;
  /** Particles moving rigidly with the bone: members[start[b] .. end[b]) (head, tip, frame, attached). */
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly members: Int32Array;

  constructor(names: string[], members: number[][]) {
    const n = names.length;
    this.count = n;
    this.names = names;
    this.head = new Int32Array(n);
    this.tip = new Int32Array(n);
    this.frame = new Int32Array(n).fill(-1);
    this.radius = new Float64Array(n);
    this.restLength = new Float64Array(n);
    this.collide = new Uint8Array(n);
    this.start = new Int32Array(n);
    this.end = new Int32Array(n);
    this.members = new Int32Array(members.reduce((a, m) => a + m.length, 0));
    let k = 0;
    members.forEach((m, b) => { this.start[b] = k; for (const i of m) this.members[k++] = i; this.end[b] = k; });
  }
}

/**
 * Writes bone b's frame into out[o..o+9) as columns X(side), Y(axis), Z. Returns false when the bone has
 * collapsed to zero length (the frame is then left as it was). Without a frame particle the side is the
 * paper's arbitrary perpendicular: the unit vector ⊥ e built from the axis component of smallest size.
 */
export function boneFrame(s: ParticleState, bones: BoneTable, b: number, out: Float64Array, o: number): boolean {
  return boneFrameAt(s.x, bones, b, out, o);
}

/** boneFrame from any positions array laid out as ParticleState.x (e.g. the previous positions x0). */
export function boneFrameAt(x: Float64Array, bones: BoneTable, b: number, out: Float64Array, o: number): boolean {
  const h = 3 * bones.head[b]!, t = 3 * bones.tip[b]!;
  let ex = x[t]! - x[h]!, ey = x[t + 1]! - x[h + 1]!, ez = x[t + 2]! - x[h + 2]!;
  const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
  if (!(el > 1e-12)) return false;
  ex /= el; ey /= el; ez /= el;
  let sx: number, sy: number, sz: number;
  const f = bones.frame[b]!;
  if (f >= 0) {
    const q = 3 * f;
    sx = x[q]! - x[h]!; sy = x[q + 1]! - x[h + 1]!; sz = x[q + 2]! - x[h + 2]!;
  } else if (Math.abs(ex) <= Math.abs(ey) && Math.abs(ex) <= Math.abs(ez)) { sx = 1; sy = 0; sz = 0; }
  else if (Math.abs(ey) <= Math.abs(ez)) { sx = 0; sy = 1; sz = 0; }
  else { sx = 0; sy = 0; sz = 1; }
  const d = sx * ex + sy * ey + sz * ez;
  sx -= d * ex; sy -= d * ey; sz -= d * ez;
  let sl = Math.sqrt(sx * sx + sy * sy + sz * sz);
  if (!(sl > 1e-12)) { // frame particle fell onto the axis: any perpendicular, never NaN
    if (Math.abs(ex) < 0.9) { sx = 0; sy = -ez; sz = ey; } else { sx = ez; sy = 0; sz = -ex; }
    sl = Math.sqrt(sx * sx + sy * sy + sz * sz);
  }
  sx /= sl; sy /= sl; sz /= sl;
  out[o] = sx; out[o + 1] = sy; out[o + 2] = sz;
  out[o + 3] = ex; out[o + 4] = ey; out[o + 5] = ez;
  // Z = X × Y
  out[o + 6] = sy * ez - sz * ey; out[o + 7] = sz * ex - sx * ez; out[o + 8] = sx * ey - sy * ex;
  return true;
}

/** Rotation matrix (columns X, Y, Z at m[0..9)) → unit quaternion [x, y, z, w] at q[o..o+4) (Shepperd). */
export function frameToQuat(m: Float64Array, q: Float64Array, o: number): void {
  // Column-major columns: element (row r, col c) = m[3c + r].
  const m00 = m[0]!, m10 = m[1]!, m20 = m[2]!, m01 = m[3]!, m11 = m[4]!, m21 = m[5]!, m02 = m[6]!, m12 = m[7]!, m22 = m[8]!;
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr > 0) {
    const S = Math.sqrt(tr + 1) * 2;
    w = 0.25 * S; x = (m21 - m12) / S; y = (m02 - m20) / S; z = (m10 - m01) / S;
  } else if (m00 > m11 && m00 > m22) {
    const S = Math.sqrt(1 + m00 - m11 - m22) * 2;
    w = (m21 - m12) / S; x = 0.25 * S; y = (m01 + m10) / S; z = (m02 + m20) / S;
  } else if (m11 > m22) {
    const S = Math.sqrt(1 + m11 - m00 - m22) * 2;
    w = (m02 - m20) / S; x = (m01 + m10) / S; y = 0.25 * S; z = (m12 + m21) / S;
  } else {
    const S = Math.sqrt(1 + m22 - m00 - m11) * 2;
    w = (m10 - m01) / S; x = (m02 + m20) / S; y = (m12 + m21) / S; z = 0.25 * S;
  }
  const l = Math.sqrt(x * x + y * y + z * z + w * w);
  q[o] = x / l; q[o + 1] = y / l; q[o + 2] = z / l; q[o + 3] = w / l;
}
