/**
 * The pose drive: what "powered" means for the particle ragdoll (the editor's Power on / Go limp). The
 * paper's ragdoll has no motors; this is the position-based-dynamics way to give it some.
 *
 * Every parent–child bone pair (the child starts at a particle of the parent's cluster, and the parent has
 * an orientation particle, so its frame is defined) has a target: the child's rest orientation carried by
 * the parent's frame (rest axis and side in the parent's frame coordinates, as the rest-pose limits keep
 * them). Once per step, after the Verlet prediction and before the relaxation, a powered pair turns the
 * child relative to the parent by a PD correction of the error rotation e (rotation vector, world, rad,
 * from the child's current frame to its target):
 *
 *   Δ = β·e* + γ·(e* − eₙ),   β = (2πf·dt)²,   γ = 2ζ·(2πf)·dt,   |Δ| ≤ a_max·dt²
 *
 * e* is measured at the predicted positions, eₙ at the start of the step (x0), so e* − eₙ is the
 * relative rotation the step is about to make (a velocity·dt): Δ is a spring of natural frequency f (Hz)
 * and damping ratio ζ written as a position correction, and a_max (rad/s²) is its strength limit — the
 * particle counterpart of a motor's τmax (a joint cannot correct by more than a_max·dt² per step, so a
 * heavy load bends it). In the linearised one-joint model θₙ₊₁ = θ* − β·θ* − γ·(θ* − θₙ) the roots of
 * z² − (2 − 2β − γ)z + (1 − β − γ) are inside the unit circle for the defaults at dt ≤ 1/60 s.
 *
 * The turn is a limit's turn (jointLimits.turnJoint): both bones' clusters rotate rigidly about the
 * shared particle, mass-weighted, centroid kept — lengths untouched and linear momentum conserved. The
 * correction happens before the step's kinetic energy is measured, so the energy cap (simulation.ts)
 * treats the drive's work as part of the motion, not as relaxation error: a powered limb may gain energy.
 * A child without a frame particle has no roll: only its swing is driven.
 */
import { boneFrameAt, type BoneTable } from './bones';
import { CONE, JointLimits, turnJoint, type JointLimitSpec } from './jointLimits';
import type { ParticleState } from './state';

export interface DriveSettings {
  /** Natural frequency of the drive (Hz). */
  frequency: number;
  /** Damping ratio (1 = critically damped). */
  damping: number;
  /** Strength limit: the largest angular correction per step is maxAcceleration·dt² (rad/s²). */
  maxAcceleration: number;
}

/** Defaults, measured on the 13-bone humanoid (tests/unit/physics/particles/drive.test.ts, docs/particles.md):
 *  6 Hz critically damped holds the pinned humanoid within 0.05 rad (mean) of its rest pose under gravity;
 *  600 rad/s² is about ten times the angular acceleration gravity gives a horizontal forearm (3g/2L ≈ 60 rad/s²). */
export const DEFAULT_DRIVE: DriveSettings = { frequency: 6, damping: 1, maxAcceleration: 600 };

export class PoseDrive {
  /** The driven pairs (parent, child, pivot, rest axis/side of the child in the parent's frame). */
  readonly pairs: JointLimits;
  /** Per pair: 1 = powered. */
  readonly powered: Uint8Array;
  settings: DriveSettings = { ...DEFAULT_DRIVE };
  private readonly hasChildFrame: Uint8Array;
  private readonly F = new Float64Array(18);
  private readonly e1 = new Float64Array(3);
  private readonly e0 = new Float64Array(3);

  constructor(s: ParticleState, bones: BoneTable) {
    const specs: JointLimitSpec[] = [];
    const F = this.F;
    for (let c = 0; c < bones.count; c++) {
      const parent = parentOf(bones, c);
      if (parent < 0 || bones.frame[parent]! < 0) continue;
      if (!boneFrameAt(s.x, bones, parent, F, 0) || !boneFrameAt(s.x, bones, c, F, 9)) continue;
      const restAxis = [0, 0, 0], restSide = [0, 0, 0];
      for (let r = 0; r < 3; r++) {
        restAxis[r] = F[3 * r]! * F[12]! + F[3 * r + 1]! * F[13]! + F[3 * r + 2]! * F[14]!;
        restSide[r] = F[3 * r]! * F[9]! + F[3 * r + 1]! * F[10]! + F[3 * r + 2]! * F[11]!;
      }
      specs.push({ kind: CONE, parent, child: c, pivot: bones.head[c]!, far: -1, min: 0, max: Math.PI, axis: [0, 0, 1], axisInParent: false, planar: false, restAxis, restSide });
    }
    this.pairs = new JointLimits(specs, bones, s);
    this.powered = new Uint8Array(specs.length);
    this.hasChildFrame = Uint8Array.from(specs, (p) => (bones.frame[p.child]! >= 0 ? 1 : 0));
  }

  /** Pair index of the pair whose child is bone b, or −1. */
  pairOfChild(b: number): number {
    for (let k = 0; k < this.pairs.count; k++) if (this.pairs.child[k] === b) return k;
    return -1;
  }

  /** One drive pass: call after the Verlet prediction (s.x predicted, s.x0 = start of the step). */
  apply(s: ParticleState, bones: BoneTable, dt: number): void {
    const L = this.pairs;
    if (L.count === 0) return;
    const w = 2 * Math.PI * this.settings.frequency;
    const beta = w * w * dt * dt, gamma = 2 * this.settings.damping * w * dt, cap = this.settings.maxAcceleration * dt * dt;
    L.used.fill(0);
    const e1 = this.e1, e0 = this.e0;
    for (let k = 0; k < L.count; k++) {
      if (this.powered[k] === 0) continue;
      if (!this.error(s.x, bones, k, e1) || !this.error(s.x0, bones, k, e0)) continue;
      let dx = beta * e1[0]! + gamma * (e1[0]! - e0[0]!);
      let dy = beta * e1[1]! + gamma * (e1[1]! - e0[1]!);
      let dz = beta * e1[2]! + gamma * (e1[2]! - e0[2]!);
      const a = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (!(a > 1e-12)) continue;
      dx /= a; dy /= a; dz /= a;
      turnJoint(s, L, k, dx, dy, dz, Math.min(a, cap));
    }
  }

  /** Mean and largest angle (rad) between each pair's child and its rest orientation in the parent's frame. */
  poseError(s: ParticleState, bones: BoneTable): { mean: number; max: number } {
    let sum = 0, max = 0, n = 0;
    for (let k = 0; k < this.pairs.count; k++) {
      if (!this.error(s.x, bones, k, this.e1)) continue;
      const a = Math.hypot(this.e1[0]!, this.e1[1]!, this.e1[2]!);
      sum += a; max = Math.max(max, a); n++;
    }
    return { mean: n > 0 ? sum / n : 0, max };
  }

  /**
   * Error rotation of pair k at positions x (rotation vector, world): the rotation taking the child's
   * current frame onto its target T = parent frame · rest. M = T·Cᵀ = Σ_c t_c c_cᵀ over the frame columns;
   * its angle φ from cos φ = (tr M − 1)/2 and its axis from the skew part (M − Mᵀ)/2 = sin φ·[k]×.
   */
  private error(x: Float64Array, bones: BoneTable, k: number, out: Float64Array): boolean {
    const L = this.pairs, F = this.F, k3 = 3 * k;
    if (!boneFrameAt(x, bones, L.parent[k]!, F, 0) || !boneFrameAt(x, bones, L.child[k]!, F, 9)) return false;
    const ra = L.restAxis, rs = L.restSide;
    // Target axis A and side S in world.
    const ax = F[0]! * ra[k3]! + F[3]! * ra[k3 + 1]! + F[6]! * ra[k3 + 2]!;
    const ay = F[1]! * ra[k3]! + F[4]! * ra[k3 + 1]! + F[7]! * ra[k3 + 2]!;
    const az = F[2]! * ra[k3]! + F[5]! * ra[k3 + 1]! + F[8]! * ra[k3 + 2]!;
    const yx = F[12]!, yy = F[13]!, yz = F[14]!; // child axis
    if (this.hasChildFrame[k] === 0) {
      // Swing only: the shortest rotation of the child's axis onto A.
      const cx = yy * az - yz * ay, cy = yz * ax - yx * az, cz = yx * ay - yy * ax;
      const sn = Math.sqrt(cx * cx + cy * cy + cz * cz), phi = Math.atan2(sn, yx * ax + yy * ay + yz * az);
      if (sn > 1e-12) { out[0] = (cx / sn) * phi; out[1] = (cy / sn) * phi; out[2] = (cz / sn) * phi; } else { out[0] = out[1] = out[2] = 0; }
      return true;
    }
    let sx = F[0]! * rs[k3]! + F[3]! * rs[k3 + 1]! + F[6]! * rs[k3 + 2]!;
    let sy = F[1]! * rs[k3]! + F[4]! * rs[k3 + 1]! + F[7]! * rs[k3 + 2]!;
    let sz = F[2]! * rs[k3]! + F[5]! * rs[k3 + 1]! + F[8]! * rs[k3 + 2]!;
    const d = sx * ax + sy * ay + sz * az;
    sx -= d * ax; sy -= d * ay; sz -= d * az;
    const sl = Math.sqrt(sx * sx + sy * sy + sz * sz) || 1;
    sx /= sl; sy /= sl; sz /= sl;
    const zx = sy * az - sz * ay, zy = sz * ax - sx * az, zz = sx * ay - sy * ax; // Z = X × Y
    const xx = F[9]!, xy = F[10]!, xz = F[11]!, qx = F[15]!, qy = F[16]!, qz = F[17]!;
    // M(r, c) = S_r X_c + A_r Y_c + Z_r Q_c.
    const m00 = sx * xx + ax * yx + zx * qx, m11 = sy * xy + ay * yy + zy * qy, m22 = sz * xz + az * yz + zz * qz;
    const m01 = sx * xy + ax * yy + zx * qy, m10 = sy * xx + ay * yx + zy * qx;
    const m02 = sx * xz + ax * yz + zx * qz, m20 = sz * xx + az * yx + zz * qx;
    const m12 = sy * xz + ay * yz + zy * qz, m21 = sz * xy + az * yy + zz * qy;
    const wx = m21 - m12, wy = m02 - m20, wz = m10 - m01;
    const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
    const phi = Math.atan2(wl / 2, Math.max(-1, Math.min(1, (m00 + m11 + m22 - 1) / 2)));
    if (wl > 1e-9) { out[0] = (wx / wl) * phi; out[1] = (wy / wl) * phi; out[2] = (wz / wl) * phi; return true; }
    if (phi < Math.PI / 2) { out[0] = out[1] = out[2] = 0; return true; }
    // A half turn: (M + I)/2 = k·kᵀ; its largest diagonal entry picks a well-conditioned column.
    const b00 = (m00 + 1) / 2, b11 = (m11 + 1) / 2, b22 = (m22 + 1) / 2;
    let kx: number, ky: number, kz: number;
    if (b00 >= b11 && b00 >= b22) { kx = b00; ky = (m01 + m10) / 4; kz = (m02 + m20) / 4; }
    else if (b11 >= b22) { kx = (m01 + m10) / 4; ky = b11; kz = (m12 + m21) / 4; }
    else { kx = (m02 + m20) / 4; ky = (m12 + m21) / 4; kz = b22; }
    const kl = Math.sqrt(kx * kx + ky * ky + kz * kz) || 1;
    out[0] = (kx / kl) * Math.PI; out[1] = (ky / kl) * Math.PI; out[2] = (kz / kl) * Math.PI;
    return true;
  }
}

/** The bone whose cluster carries bone c's head as its tip or an attached particle (not its own head or
 *  frame): c's parent in the particle skeleton; −1 for a root (or a child starting at its parent's head,
 *  which has no pivot of its own). */
function parentOf(bones: BoneTable, c: number): number {
  const head = bones.head[c]!;
  for (let p = 0; p < bones.count; p++) {
    if (p === c) continue;
    for (let m = bones.start[p]!; m < bones.end[p]!; m++) {
      const i = bones.members[m]!;
      if (i === head && i !== bones.head[p] && i !== bones.frame[p]) return p;
    }
  }
  return -1;
}
