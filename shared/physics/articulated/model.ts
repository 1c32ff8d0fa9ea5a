/**
 * A kinematic tree in joint (reduced) coordinates and its forward dynamics by Featherstone's
 * articulated-body algorithm (ABA; RBDA 2008 Table 7.1), in body coordinates:
 *  1. outward: Xup_i = XB_i·XJ(q_i)·Xtree_i, v_i = Xup_i·v_λ + S_i·q̇_i, c_i = v_i ×m S_i·q̇_i,
 *     IA_i = I_i, pA_i = v_i ×f I_i·v_i − f_ext,i;
 *  2. inward: U_i = IA_i·S_i, D_i = S_iᵀU_i, u_i = τ_i − S_iᵀpA_i; the parent gets
 *     Xupᵀ(IA_i − U_i D_i⁻¹ U_iᵀ)Xup and Xupᵀ(pA_i + Ia·c_i + U_i D_i⁻¹ u_i);
 *  3. outward: a_i = Xup_i·a_λ + c_i, q̈_i = D_i⁻¹(u_i − U_iᵀa_i), a_i += S_i·q̈_i;
 * gravity enters as the world's acceleration a_0 = −g. O(n) in the bodies.
 *
 * Joints (the child's motion relative to its parent, between the parent-side joint frame and the
 * child-side one; XB_i takes the child-side joint frame to the child body frame, a constant):
 *  - free (a root's 6 DOF): q = position (3, world) + quaternion [x,y,z,w] (4, body → world);
 *    q̇ = the body origin's linear velocity in WORLD axes (3) and the angular velocity in BODY axes (3),
 *    MuJoCo's free joint: then S = [0 1; Rᵀ 0] depends on q and its Ṡq̇ = [0; −ω×Rᵀv] enters c;
 *  - hinge: rotation q (rad) about the joint frame's X; prismatic: offset q (m) along X;
 *  - ball: q = quaternion (4) of the child joint frame in the parent's; q̇ = the relative angular
 *    velocity in the child joint frame (3);
 *  - screw: q = the angle (rad) about X; the child also moves pitch·q along X: S = [x; pitch·x];
 *  - cylindrical: q = [angle about X, offset along X]: S = [x; 0], [0; x] (they commute);
 *  - planar: q = [angle θ about X, offset y, z along the PARENT joint frame's Y and Z]: XJ = rot_x(θ) after
 *    xlt(0, y, z), so the translation columns seen in the child frame turn with θ, S_y = [0; Rᵀy],
 *    S_z = [0; Rᵀz] (Rᵀ = rot_x(θ)ᵀ), and Ṡq̇ = θ̇·[0; (0, −sẏ + cż, −cẏ − sż)] enters c as a free joint's
 *    does (RBDA Table 4.1's planar joint, about X). q̇ is then exactly the derivative of q.
 * Integration is semi-implicit (symplectic) Euler: q̇ += Δt·q̈, then q advances with the new q̇
 * (quaternions by the exponential map, renormalised) — MuJoCo's "Euler". RK4 (MuJoCo's "RK4") is
 * available for reference runs.
 */
import {
  crossForce, crossMotion, inertiaToParent, mat6Vec, pluckerCompose, quatMat, solveDense,
  xMotion, xTransposeForce, zero6, type Mat6, type Plucker, type Vec6,
} from './spatial';

export type ArticulatedJointType = 'free' | 'hinge' | 'prismatic' | 'ball' | 'screw' | 'cylindrical' | 'planar';

export const JOINT_NQ: Record<ArticulatedJointType, number> = { free: 7, hinge: 1, prismatic: 1, ball: 4, screw: 1, cylindrical: 2, planar: 3 };
export const JOINT_NV: Record<ArticulatedJointType, number> = { free: 6, hinge: 1, prismatic: 1, ball: 3, screw: 1, cylindrical: 2, planar: 3 };

/** Which of a joint's coordinates are angles (rad; the others are offsets in m), in q order. */
export const JOINT_ANGULAR: Record<Exclude<ArticulatedJointType, 'free' | 'ball'>, readonly boolean[]> = {
  hinge: [true], prismatic: [false], screw: [true], cylindrical: [true, false], planar: [true, false, false],
};

export interface ArticulatedBodyDesc {
  name: string;
  /** The joint that attaches this body to its parent (for reports). */
  jointName: string;
  /** Index of the parent body (earlier in the list), or −1 for the world. */
  parent: number;
  joint: ArticulatedJointType;
  /** Parent body frame (world for roots) → parent-side joint frame. Identity for a free joint. */
  Xtree: Plucker;
  /** Child-side joint frame → this body's frame. Identity for a free joint. */
  XB: Plucker;
  /** Spatial inertia about this body's frame origin, in body coordinates. */
  inertia: Mat6;
  /** Viscous joint damping per DOF (N·m·s/rad, N·s/m): τ −= damping·q̇. 0 for free joints. */
  damping?: number;
  /** Screw joints: the pitch (m/rad) — the child's offset along X is pitch × its angle. */
  pitch?: number;
}

export interface ArticulatedBody extends ArticulatedBodyDesc {
  /** Offsets of this joint's coordinates in q and in q̇. */
  qi: number;
  vi: number;
  nq: number;
  nv: number;
  /** Motion subspace in body coordinates: nv columns of 6 (a free joint's depends on q: Kinematics.S). */
  S: Vec6[];
}

/** Per-body results of a pass, body coordinates. */
export interface Kinematics {
  Xup: Plucker[];
  /** World → body transform (its E is the body's rotation transposed, its r the body origin in world). */
  X0: Plucker[];
  v: Vec6[];
  /** Motion subspace of each joint in body coordinates in this state. */
  S: Vec6[][];
  /** Ṡ·q̇ of each joint (zero but for free joints). */
  cJ: Vec6[];
}

export interface ArticulatedOptions {
  /** Gravity (m/s², world). Default [0, −9.81, 0]. */
  gravity?: readonly [number, number, number];
  integrator?: 'semi-implicit' | 'rk4';
}

/**
 * τ ↦ M(q)⁻¹·τ (inverseMassOperator). With a body range [from, to) — a set of whole trees, closed under
 * parents (the rig builder lays each tree out contiguously) — only those bodies are visited and the other
 * entries stay 0: a generalized force on one creature moves only that creature. With `out` the result is
 * written compactly into it instead of a new array: entry k is the DOF bodies[from].vi + k, over the range's
 * DOFs only (the caller's buffer; nothing outside them is written or allocated).
 */
export type InverseMass = (tau: ArrayLike<number>, from?: number, to?: number, out?: Float64Array) => Float64Array;

export class ArticulatedModel {
  readonly bodies: ArticulatedBody[];
  readonly nq: number;
  readonly nv: number;
  gravity: [number, number, number];
  integrator: 'semi-implicit' | 'rk4';
  /** Joint coordinates, velocities and generalized forces (applied every step until changed). */
  q: Float64Array;
  qd: Float64Array;
  tau: Float64Array;
  /** External spatial forces per body, in WORLD coordinates about the world origin (zeroed by nobody). */
  readonly fext: Vec6[];
  /** Last accelerations computed by step()/forwardDynamics(). */
  qdd: Float64Array;

  constructor(descs: readonly ArticulatedBodyDesc[], options: ArticulatedOptions = {}) {
    let nq = 0, nv = 0;
    this.bodies = descs.map((d, i) => {
      if (!(d.parent < i)) throw new Error(`articulated body ${i} ("${d.name}", joint "${d.jointName}"): parent ${d.parent} must come earlier in the list (parents first)`);
      if (d.joint === 'free' && d.parent !== -1) throw new Error(`articulated body "${d.name}": a free joint ("${d.jointName}") can only attach a root to the world`);
      if (d.joint === 'screw' && !(Number.isFinite(d.pitch) && d.pitch !== 0)) throw new Error(`articulated body "${d.name}": screw joint "${d.jointName}" needs a finite pitch ≠ 0 (m/rad), got ${String(d.pitch)}`);
      const S = motionSubspace(d.joint, d.pitch ?? 0).map((s) => xMotion(d.XB, s));
      const b: ArticulatedBody = { ...d, qi: nq, vi: nv, nq: JOINT_NQ[d.joint], nv: JOINT_NV[d.joint], S };
      nq += b.nq; nv += b.nv;
      return b;
    });
    this.nq = nq; this.nv = nv;
    this.gravity = [...(options.gravity ?? [0, -9.81, 0])] as [number, number, number];
    this.integrator = options.integrator ?? 'semi-implicit';
    this.q = new Float64Array(nq);
    this.qd = new Float64Array(nv);
    this.tau = new Float64Array(nv);
    this.qdd = new Float64Array(nv);
    this.fext = this.bodies.map(() => zero6());
    for (const b of this.bodies) if (b.joint === 'free' || b.joint === 'ball') this.q[b.qi + b.nq - 1] = 1; // identity quaternions
  }

  /** Outward pass: transforms and velocities. */
  kinematics(q: ArrayLike<number> = this.q, qd: ArrayLike<number> = this.qd): Kinematics {
    const n = this.bodies.length;
    const Xup: Plucker[] = new Array(n), X0: Plucker[] = new Array(n), v: Vec6[] = new Array(n);
    const S: Vec6[][] = new Array(n), cJ: Vec6[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const b = this.bodies[i]!;
      Xup[i] = pluckerCompose(b.XB, pluckerCompose(jointTransform(b.joint, q, b.qi, b.pitch ?? 0), b.Xtree));
      X0[i] = b.parent < 0 ? Xup[i]! : pluckerCompose(Xup[i]!, X0[b.parent]!);
      const vi = b.parent < 0 ? zero6() : xMotion(Xup[i]!, v[b.parent]!);
      if (b.joint === 'free') {
        // Columns: world linear velocity e_k → [0; Rᵀe_k] (E = Rᵀ), body angular velocity e_k → [e_k; 0].
        const E = Xup[i]!.E;
        S[i] = [0, 1, 2].map((k) => [0, 0, 0, E[k]!, E[3 + k]!, E[6 + k]!] as Vec6).concat(b.S.slice(0, 3));
        const w = [qd[b.vi + 3]!, qd[b.vi + 4]!, qd[b.vi + 5]!];
        const vx = qd[b.vi]!, vy = qd[b.vi + 1]!, vz = qd[b.vi + 2]!;
        const vb = [E[0]! * vx + E[1]! * vy + E[2]! * vz, E[3]! * vx + E[4]! * vy + E[5]! * vz, E[6]! * vx + E[7]! * vy + E[8]! * vz];
        cJ[i] = [0, 0, 0, -(w[1]! * vb[2]! - w[2]! * vb[1]!), -(w[2]! * vb[0]! - w[0]! * vb[2]!), -(w[0]! * vb[1]! - w[1]! * vb[0]!)];
      } else if (b.joint === 'planar') {
        // Translation columns along the parent frame's Y, Z seen in the child joint frame (turned by θ), then
        // carried to the body frame by XB; Ṡq̇ likewise (XB is constant).
        const c = Math.cos(q[b.qi]!), s = Math.sin(q[b.qi]!);
        const td = qd[b.vi]!, yd = qd[b.vi + 1]!, zd = qd[b.vi + 2]!;
        S[i] = [b.S[0]!, xMotion(b.XB, [0, 0, 0, 0, c, -s]), xMotion(b.XB, [0, 0, 0, 0, s, c])];
        cJ[i] = xMotion(b.XB, [0, 0, 0, 0, td * (-s * yd + c * zd), td * (-c * yd - s * zd)]);
      } else {
        S[i] = b.S;
        cJ[i] = zero6();
      }
      for (let k = 0; k < b.nv; k++) addScaled(vi, S[i]![k]!, qd[b.vi + k]!);
      v[i] = vi;
    }
    return { Xup, X0, v, S, cJ };
  }

  /** The generalized forces this step: τ minus joint damping. */
  private effectiveTau(qd: ArrayLike<number>): Float64Array {
    const t = new Float64Array(this.tau);
    for (const b of this.bodies) {
      const c = b.damping ?? 0;
      if (c > 0) for (let k = 0; k < b.nv; k++) t[b.vi + k] -= c * qd[b.vi + k]!;
    }
    return t;
  }

  /**
   * q̈ by the articulated-body algorithm for the given state (default: the current one) and generalized
   * forces. With bias = false gravity and the external forces are left out: with qd = 0 that is M⁻¹·τ,
   * the joint-space response to a generalized impulse (inverseMassOperator computes it faster).
   */
  forwardDynamics(q: ArrayLike<number> = this.q, qd: ArrayLike<number> = this.qd, tau: ArrayLike<number> = this.effectiveTau(qd), bias = true): Float64Array {
    return this.aba(q, qd, tau, bias).qdd;
  }

  /**
   * q̈ at the current state (forwardDynamics()) together with the inverse mass operator at the same q, from
   * the same pass: the articulated inertias depend on q only, so the ABA's are the operator's (the same
   * numbers inverseMassOperator(q) computes again), and the pass's kinematics at this q (its transforms and
   * motion subspaces, which depend on q only; v and cJ are at the current q̇).
   */
  forwardDynamicsAndInverseMass(): { qdd: Float64Array; inverseMass: InverseMass; kinematics: Kinematics } {
    const r = this.aba(this.q, this.qd, this.effectiveTau(this.qd), true);
    return { qdd: r.qdd, inverseMass: this.inverseMassFrom(r.Xup, r.S, r.U, r.Dinv, r.UD), kinematics: r.kin };
  }

  private aba(q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, bias: boolean) {
    const n = this.bodies.length;
    const kin = this.kinematics(q, qd), { Xup, X0, v, S, cJ } = kin;
    const c: Vec6[] = new Array(n), IA: Mat6[] = new Array(n), pA: Vec6[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const b = this.bodies[i]!;
      const vJ = zero6();
      for (let k = 0; k < b.nv; k++) addScaled(vJ, S[i]![k]!, qd[b.vi + k]!);
      c[i] = crossMotion(v[i]!, vJ);
      for (let k = 0; k < 6; k++) c[i]![k] += cJ[i]![k]!;
      IA[i] = b.inertia.slice();
      const p = crossForce(v[i]!, mat6Vec(b.inertia, v[i]!));
      // External force: world coordinates → body coordinates by X0*.
      if (bias) {
        const fe = forceToBody(X0[i]!, this.fext[i]!);
        for (let k = 0; k < 6; k++) p[k] -= fe[k]!;
      }
      pA[i] = p;
    }
    const U: Vec6[][] = new Array(n), Dinv: number[][] = new Array(n), u: number[][] = new Array(n), UDs: Vec6[][] = new Array(n);
    for (let i = n - 1; i >= 0; i--) {
      const b = this.bodies[i]!, nv = b.nv, Si = S[i]!;
      const Ui = Si.map((s) => mat6Vec(IA[i]!, s));
      const D = new Array<number>(nv * nv);
      for (let r = 0; r < nv; r++) for (let k = 0; k < nv; k++) D[r * nv + k] = dot6(Si[r]!, Ui[k]!);
      const ui = new Array<number>(nv);
      for (let r = 0; r < nv; r++) ui[r] = tau[b.vi + r]! - dot6(Si[r]!, pA[i]!);
      const eye = new Array<number>(nv * nv).fill(0);
      for (let r = 0; r < nv; r++) eye[r * nv + r] = 1;
      const Di = solveDense(D, eye, nv, nv);
      U[i] = Ui; Dinv[i] = Di; u[i] = ui;
      if (b.parent < 0) continue;
      // Ia = IA − U D⁻¹ Uᵀ, pa = pA + Ia c + U D⁻¹ u.
      const Ia = IA[i]!.slice();
      const UD: Vec6[] = []; // U·D⁻¹ (columns)
      for (let k = 0; k < nv; k++) {
        const col = zero6();
        for (let r = 0; r < nv; r++) addScaled(col, Ui[r]!, Di[r * nv + k]!);
        UD.push(col);
      }
      UDs[i] = UD;
      for (let k = 0; k < nv; k++) for (let x = 0; x < 6; x++) for (let y = 0; y < 6; y++) Ia[x * 6 + y] -= UD[k]![x]! * Ui[k]![y]!;
      const pa = mat6Vec(Ia, c[i]!);
      for (let k = 0; k < 6; k++) pa[k] += pA[i]![k]!;
      for (let k = 0; k < nv; k++) addScaled(pa, UD[k]!, ui[k]!);
      const Ip = inertiaToParent(Xup[i]!, Ia);
      const P = IA[b.parent]!;
      for (let k = 0; k < 36; k++) P[k] += Ip[k]!;
      const fp = xTransposeForce(Xup[i]!, pa);
      for (let k = 0; k < 6; k++) pA[b.parent]![k] += fp[k]!;
    }
    const a0: Vec6 = bias ? [0, 0, 0, -this.gravity[0], -this.gravity[1], -this.gravity[2]] : zero6();
    return { qdd: accelerationPass(this.bodies, this.nv, Xup, S, U, Dinv, u, a0, c), Xup, S, U, Dinv, UD: UDs, kin };
  }

  /**
   * The joint-space impulse response at configuration q: a function τ ↦ M(q)⁻¹·τ. The articulated
   * inertias (ABA's expensive pass, 6×6 products) are computed once; each call is then two light O(n)
   * passes over 6-vectors. Equals forwardDynamics(q, 0, τ, false) (tested).
   */
  inverseMassOperator(q: ArrayLike<number> = this.q): InverseMass {
    const n = this.bodies.length;
    const { Xup, S } = this.kinematics(q, new Float64Array(this.nv));
    const IA: Mat6[] = this.bodies.map((b) => b.inertia.slice());
    const U: Vec6[][] = new Array(n), Dinv: number[][] = new Array(n), UD: Vec6[][] = new Array(n);
    for (let i = n - 1; i >= 0; i--) {
      const b = this.bodies[i]!, nv = b.nv, Si = S[i]!;
      const Ui = Si.map((s) => mat6Vec(IA[i]!, s));
      const D = new Array<number>(nv * nv);
      for (let r = 0; r < nv; r++) for (let k = 0; k < nv; k++) D[r * nv + k] = dot6(Si[r]!, Ui[k]!);
      const eye = new Array<number>(nv * nv).fill(0);
      for (let r = 0; r < nv; r++) eye[r * nv + r] = 1;
      const Di = solveDense(D, eye, nv, nv);
      const udi: Vec6[] = [];
      for (let k = 0; k < nv; k++) {
        const col = zero6();
        for (let r = 0; r < nv; r++) addScaled(col, Ui[r]!, Di[r * nv + k]!);
        udi.push(col);
      }
      U[i] = Ui; Dinv[i] = Di; UD[i] = udi;
      if (b.parent < 0) continue;
      const Ia = IA[i]!.slice();
      for (let k = 0; k < nv; k++) for (let x = 0; x < 6; x++) for (let y = 0; y < 6; y++) Ia[x * 6 + y] -= udi[k]![x]! * Ui[k]![y]!;
      const Ip = inertiaToParent(Xup[i]!, Ia);
      const P = IA[b.parent]!;
      for (let k = 0; k < 36; k++) P[k] += Ip[k]!;
    }
    return this.inverseMassFrom(Xup, S, U, Dinv, UD);
  }

  /** The operator from the articulated inertias' factors (U = IA·S, D⁻¹, U·D⁻¹ per body) at some q. */
  private inverseMassFrom(Xup: readonly Plucker[], S: readonly Vec6[][], U: readonly Vec6[][], Dinv: readonly number[][], UD: readonly Vec6[][]): InverseMass {
    const n = this.bodies.length;
    // Each call: the force pass (leaves to root) and the acceleration pass (root to leaves) on flat scratch
    // arrays — the same arithmetic, in the same order, as forwardDynamics' passes with q̇ = 0 and no bias
    // (accelerationPass), without allocating more than the result.
    const bodies = this.bodies, nvTotal = this.nv;
    const pA = new Float64Array(6 * n), a = new Float64Array(6 * n), u = new Float64Array(nvTotal), rhs = new Float64Array(6);
    return (tau, from = 0, to = n, out?: Float64Array) => {
      pA.fill(0, 6 * from, 6 * to);
      for (let i = to - 1; i >= from; i--) {
        const b = bodies[i]!, nv = b.nv, Si = S[i]!, o = 6 * i;
        for (let r = 0; r < nv; r++) {
          const s = Si[r]!;
          u[b.vi + r] = tau[b.vi + r]! - (s[0]! * pA[o]! + s[1]! * pA[o + 1]! + s[2]! * pA[o + 2]! + s[3]! * pA[o + 3]! + s[4]! * pA[o + 4]! + s[5]! * pA[o + 5]!);
        }
        if (b.parent < 0) continue;
        let f0 = pA[o]!, f1 = pA[o + 1]!, f2 = pA[o + 2]!, f3 = pA[o + 3]!, f4 = pA[o + 4]!, f5 = pA[o + 5]!;
        for (let k = 0; k < nv; k++) {
          const x = u[b.vi + k]!;
          if (x === 0) continue;
          const c = UD[i]![k]!;
          f0 += c[0]! * x; f1 += c[1]! * x; f2 += c[2]! * x; f3 += c[3]! * x; f4 += c[4]! * x; f5 += c[5]! * x;
        }
        // Xᵀ·f to the parent: [Eᵀn + r×Eᵀf; Eᵀf] (spatial.ts xTransposeForce).
        const X = Xup[i]!, E = X.E, rx = X.r[0], ry = X.r[1], rz = X.r[2];
        const n0 = E[0]! * f0 + E[3]! * f1 + E[6]! * f2, n1 = E[1]! * f0 + E[4]! * f1 + E[7]! * f2, n2 = E[2]! * f0 + E[5]! * f1 + E[8]! * f2;
        const g0 = E[0]! * f3 + E[3]! * f4 + E[6]! * f5, g1 = E[1]! * f3 + E[4]! * f4 + E[7]! * f5, g2 = E[2]! * f3 + E[5]! * f4 + E[8]! * f5;
        const p = 6 * b.parent;
        pA[p] += n0 + ry * g2 - rz * g1; pA[p + 1] += n1 + rz * g0 - rx * g2; pA[p + 2] += n2 + rx * g1 - ry * g0;
        pA[p + 3] += g0; pA[p + 4] += g1; pA[p + 5] += g2;
      }
      const qdd = out ?? new Float64Array(nvTotal), base = out && from < n ? bodies[from]!.vi : 0;
      for (let i = from; i < to; i++) {
        const b = bodies[i]!, nv = b.nv, o = 6 * i, X = Xup[i]!, E = X.E, rx = X.r[0], ry = X.r[1], rz = X.r[2];
        // X·a_parent (spatial.ts xMotion; the root's parent acceleration is 0).
        let m0 = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0;
        if (b.parent >= 0) { const q = 6 * b.parent; m0 = a[q]!; m1 = a[q + 1]!; m2 = a[q + 2]!; m3 = a[q + 3]!; m4 = a[q + 4]!; m5 = a[q + 5]!; }
        const v3 = m3 - (ry * m2 - rz * m1), v4 = m4 - (rz * m0 - rx * m2), v5 = m5 - (rx * m1 - ry * m0);
        a[o] = E[0]! * m0 + E[1]! * m1 + E[2]! * m2; a[o + 1] = E[3]! * m0 + E[4]! * m1 + E[5]! * m2; a[o + 2] = E[6]! * m0 + E[7]! * m1 + E[8]! * m2;
        a[o + 3] = E[0]! * v3 + E[1]! * v4 + E[2]! * v5; a[o + 4] = E[3]! * v3 + E[4]! * v4 + E[5]! * v5; a[o + 5] = E[6]! * v3 + E[7]! * v4 + E[8]! * v5;
        const Ui = U[i]!, Di = Dinv[i]!, Si = S[i]!;
        for (let r = 0; r < nv; r++) {
          const c = Ui[r]!;
          rhs[r] = u[b.vi + r]! - (c[0]! * a[o]! + c[1]! * a[o + 1]! + c[2]! * a[o + 2]! + c[3]! * a[o + 3]! + c[4]! * a[o + 4]! + c[5]! * a[o + 5]!);
        }
        for (let r = 0; r < nv; r++) {
          let s = 0;
          for (let k = 0; k < nv; k++) s += Di[r * nv + k]! * rhs[k]!;
          qdd[b.vi - base + r] = s;
          if (s !== 0) { const c = Si[r]!; for (let j = 0; j < 6; j++) a[o + j] += c[j]! * s; }
        }
      }
      return qdd;
    };
  }

  /**
   * Inverse dynamics by the recursive Newton-Euler algorithm (RBDA Table 5.1): the generalized forces
   * that give accelerations qdd in state (q, qd) under gravity and fext. A brute-force reference:
   * M's columns are rnea(q, 0, e_j) − rnea(q, 0, 0) with gravity off, C = rnea(q, qd, 0).
   */
  inverseDynamics(q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>): Float64Array {
    const n = this.bodies.length;
    const { Xup, X0, v, S, cJ } = this.kinematics(q, qd);
    const a: Vec6[] = new Array(n), f: Vec6[] = new Array(n);
    const a0: Vec6 = [0, 0, 0, -this.gravity[0], -this.gravity[1], -this.gravity[2]];
    for (let i = 0; i < n; i++) {
      const b = this.bodies[i]!;
      const vJ = zero6(), aJ = zero6();
      for (let k = 0; k < b.nv; k++) { addScaled(vJ, S[i]![k]!, qd[b.vi + k]!); addScaled(aJ, S[i]![k]!, qdd[b.vi + k]!); }
      const ai = xMotion(Xup[i]!, b.parent < 0 ? a0 : a[b.parent]!);
      const cv = crossMotion(v[i]!, vJ);
      for (let k = 0; k < 6; k++) ai[k] += aJ[k]! + cv[k]! + cJ[i]![k]!;
      a[i] = ai;
      const fi = mat6Vec(b.inertia, ai);
      const g = crossForce(v[i]!, mat6Vec(b.inertia, v[i]!));
      const fe = forceToBody(X0[i]!, this.fext[i]!);
      for (let k = 0; k < 6; k++) fi[k] += g[k]! - fe[k]!;
      f[i] = fi;
    }
    const tau = new Float64Array(this.nv);
    for (let i = n - 1; i >= 0; i--) {
      const b = this.bodies[i]!;
      for (let k = 0; k < b.nv; k++) tau[b.vi + k] = dot6(S[i]![k]!, f[i]!);
      if (b.parent >= 0) {
        const fp = xTransposeForce(Xup[i]!, f[i]!);
        for (let k = 0; k < 6; k++) f[b.parent]![k] += fp[k]!;
      }
    }
    return tau;
  }

  /**
   * C(q, q̇)·x: the velocity products c(q, q̇) (Coriolis, centrifugal, gyroscopic: inverseDynamics with q̈ = 0,
   * no gravity, no external force) written as a matrix acting on x, C(q, q̇)·q̇ = c(q, q̇), in the factorisation
   * with Ṁ = C + Cᵀ (Ṁ along q̇): C = Σᵢ Jᵢᵀ(Iᵢ·J̇ᵢ + Bᵢ(vᵢ)·Jᵢ) with Bᵢ(v)·w = ½(v ×f I·w + w ×f I·v − I·(v ×m w))
   * (Echeandia & Wensing 2021, "Numerical methods to compute the Coriolis matrix and Christoffel symbols for
   * rigid-body systems"). Then xᵀC·x = ½xᵀṀx: C's skew part does no work, and its symmetric part is how the
   * inertia changes along q̇ (drives.ts implicitVelocityProducts splits the step on it). One pass of the
   * recursive Newton–Euler algorithm beside `kin` (its
   * v, S and cJ at this q̇ and configuration q); only the bodies [from, to) — whole trees — are visited and
   * only their DOFs of `out` written. With `first`, x is zero outside the subtree of body `first` (one column
   * of C: a DOF of that body), and only that subtree and its ancestors are visited.
   */
  coriolisTimes(q: ArrayLike<number>, kin: Kinematics, qd: ArrayLike<number>, x: ArrayLike<number>, from: number, to: number, out: Float64Array, first = from): Float64Array {
    const { Xup, v, S } = kin, sc = coriolisScratch;
    while (sc.w.length < to) { sc.w.push(zero6()); sc.a.push(zero6()); sc.f.push(zero6()); }
    if (sc.live.length < to) sc.live = new Uint8Array(2 * to);
    const live = sc.live, t1 = sc.t1, t2 = sc.t2, t3 = sc.t3, xJ = sc.xJ;
    // x is zero outside the subtree of `first` (a column's caller says so): only that subtree moves.
    live.fill(0, from, to);
    const all = first === from;
    for (let i = first; i < to; i++) {
      const b = this.bodies[i]!;
      if (!all && i !== first && !(b.parent >= first && live[b.parent])) continue;
      live[i] = 1;
      const Si = S[i]!, I = b.inertia, vi = v[i]!, w = sc.w[i]!, a = sc.a[i]!, f = sc.f[i]!;
      xJ.fill(0);
      for (let k = 0; k < b.nv; k++) addScaled(xJ, Si[k]!, x[b.vi + k]!);
      // w_i = J_i·x; α_i = J̇_i·x (S_i turns with body i: v_i ×m S_i·x_i; a free or planar joint's own Ṡ·x).
      if (i === first || b.parent < from) { w.fill(0); a.fill(0); } else { xMotion(Xup[i]!, sc.w[b.parent]!, w); xMotion(Xup[i]!, sc.a[b.parent]!, a); }
      crossMotion(vi, xJ, t1);
      jointSdotTimes(b, q, kin, i, qd, x, t2);
      for (let k = 0; k < 6; k++) { w[k] += xJ[k]!; a[k] += t1[k]! + t2[k]!; }
      // f_i = I·α_i + B(v_i)·w_i, B(v)·w = ½(v ×f I·w + w ×f I·v − I·(v ×m w)).
      mat6Vec(I, a, f);
      mat6Vec(I, w, t1); crossForce(vi, t1, t2);
      mat6Vec(I, vi, t1); crossForce(w, t1, t3);
      for (let k = 0; k < 6; k++) f[k] += 0.5 * (t2[k]! + t3[k]!);
      crossMotion(vi, w, t1); mat6Vec(I, t1, t2);
      for (let k = 0; k < 6; k++) f[k] -= 0.5 * t2[k]!;
    }
    for (let i = to - 1; i >= from; i--) {
      const b = this.bodies[i]!;
      if (!live[i]) { for (let k = 0; k < b.nv; k++) out[b.vi + k] = 0; continue; }
      const Si = S[i]!, f = sc.f[i]!;
      for (let k = 0; k < b.nv; k++) out[b.vi + k] = dot6(Si[k]!, f);
      if (b.parent >= from) {
        // The ancestors of `first` carry the subtree's force inward (their own w and α are 0).
        const P = sc.f[b.parent]!;
        if (!live[b.parent]) { P.fill(0); live[b.parent] = 1; }
        xTransposeForce(Xup[i]!, f, t1);
        for (let k = 0; k < 6; k++) P[k] += t1[k]!;
      }
    }
    return out;
  }

  /**
   * The joint-space mass matrix of the bodies [from, to) — whole trees — by the composite-rigid-body algorithm
   * (RBDA Table 6.2) at the configuration of `kin` (its Xup and S): out (n×n, row-major) gets M's block over
   * the DOFs bodies[from].vi … + n. The trees' DOFs are coupled only among themselves.
   */
  massMatrix(kin: Kinematics, from: number, to: number, out: Float64Array): Float64Array {
    const { Xup, S } = kin, v0 = this.bodies[from]!.vi;
    const n = (to < this.bodies.length ? this.bodies[to]!.vi : this.nv) - v0;
    out.fill(0, 0, n * n);
    const Ic: Mat6[] = [];
    for (let i = from; i < to; i++) Ic[i - from] = this.bodies[i]!.inertia.slice();
    for (let i = to - 1; i > from; i--) {
      const p = this.bodies[i]!.parent;
      if (p < from) continue;
      const Ip = inertiaToParent(Xup[i]!, Ic[i - from]!), P = Ic[p - from]!;
      for (let k = 0; k < 36; k++) P[k] += Ip[k]!;
    }
    const F = zero6(), G = zero6();
    for (let i = from; i < to; i++) {
      const b = this.bodies[i]!, Si = S[i]!;
      for (let a = 0; a < b.nv; a++) {
        mat6Vec(Ic[i - from]!, Si[a]!, F);
        const row = b.vi + a - v0;
        for (let c = 0; c < b.nv; c++) out[row * n + b.vi + c - v0] = dot6(Si[c]!, F);
        // Up the ancestors: F in each parent's coordinates gives the off-diagonal entries.
        let j = i;
        for (let k = 0; k < 6; k++) G[k] = F[k]!;
        while (this.bodies[j]!.parent >= from) {
          xTransposeForce(Xup[j]!, G, F);
          for (let k = 0; k < 6; k++) G[k] = F[k]!;
          j = this.bodies[j]!.parent;
          const bj = this.bodies[j]!, Sj = S[j]!;
          for (let c = 0; c < bj.nv; c++) {
            const col = bj.vi + c - v0, m = dot6(Sj[c]!, G);
            out[row * n + col] = m; out[col * n + row] = m;
          }
        }
      }
    }
    return out;
  }

  /** Advance by h seconds. */
  step(h: number): void {
    if (this.integrator === 'rk4') { this.stepRk4(h); return; }
    const qdd = this.forwardDynamics();
    this.qdd = qdd;
    for (let k = 0; k < this.nv; k++) this.qd[k] += h * qdd[k]!;
    this.q = this.integratePositions(this.q, this.qd, h);
  }

  /** Classic RK4 on (q, q̇), positions advanced by the exponential map at each stage (as MuJoCo's RK4). */
  private stepRk4(h: number): void {
    const q0 = this.q, v0 = this.qd;
    const B = [0, 0.5, 0.5, 1], W = [1 / 6, 1 / 3, 1 / 3, 1 / 6];
    const ks: { v: Float64Array; a: Float64Array }[] = [];
    for (let s = 0; s < 4; s++) {
      let qs = q0, vs = v0;
      if (s > 0) {
        const prev = ks[s - 1]!;
        vs = new Float64Array(this.nv);
        for (let k = 0; k < this.nv; k++) vs[k] = v0[k]! + B[s]! * h * prev.a[k]!;
        qs = this.integratePositions(q0, prev.v, B[s]! * h);
      }
      ks.push({ v: vs, a: this.forwardDynamics(qs, vs) });
    }
    const vbar = new Float64Array(this.nv), abar = new Float64Array(this.nv);
    for (let s = 0; s < 4; s++) for (let k = 0; k < this.nv; k++) { vbar[k] += W[s]! * ks[s]!.v[k]!; abar[k] += W[s]! * ks[s]!.a[k]!; }
    this.q = this.integratePositions(q0, vbar, h);
    const qd = new Float64Array(this.nv);
    for (let k = 0; k < this.nv; k++) qd[k] = v0[k]! + h * abar[k]!;
    this.qd = qd;
    this.qdd = ks[0]!.a;
  }

  /** q advanced by velocity qd over h (quaternions by the exponential map of the body-frame rotation, renormalised). */
  integratePositions(q: ArrayLike<number>, qd: ArrayLike<number>, h: number): Float64Array {
    const out = new Float64Array(q as ArrayLike<number>);
    for (const b of this.bodies) {
      const i = b.qi, j = b.vi;
      switch (b.joint) {
        case 'hinge': case 'prismatic': case 'screw': out[i] = q[i]! + h * qd[j]!; break;
        // q̇ is the derivative of q for these (the planar joint's S turns with θ so that it is).
        case 'cylindrical': out[i] = q[i]! + h * qd[j]!; out[i + 1] = q[i + 1]! + h * qd[j + 1]!; break;
        case 'planar': for (let k = 0; k < 3; k++) out[i + k] = q[i + k]! + h * qd[j + k]!; break;
        case 'ball': quatIntegrate(out, i, qd[j]!, qd[j + 1]!, qd[j + 2]!, h); break;
        case 'free':
          // ṗ = the world linear velocity; the orientation by the body-frame angular velocity.
          out[i] = q[i]! + h * qd[j]!; out[i + 1] = q[i + 1]! + h * qd[j + 1]!; out[i + 2] = q[i + 2]! + h * qd[j + 2]!;
          quatIntegrate(out, i + 3, qd[j + 3]!, qd[j + 4]!, qd[j + 5]!, h);
          break;
      }
    }
    return out;
  }

  /** Kinetic energy ½ Σ vᵢᵀ Iᵢ vᵢ and potential energy −Σ mᵢ g·cᵢ (J). */
  energy(): { kinetic: number; potential: number; total: number } {
    const { X0, v } = this.kinematics();
    let kinetic = 0, potential = 0;
    this.bodies.forEach((b, i) => {
      kinetic += 0.5 * dot6(v[i]!, mat6Vec(b.inertia, v[i]!));
      const c = this.centreOfMass(i, X0[i]!);
      const m = b.inertia[35]!;
      potential -= m * (this.gravity[0] * c[0] + this.gravity[1] * c[1] + this.gravity[2] * c[2]);
    });
    return { kinetic, potential, total: kinetic + potential };
  }

  /** World pose of each body frame: position and row-major rotation (body → world). */
  poses(): { position: [number, number, number]; R: number[] }[] {
    const { X0 } = this.kinematics();
    return X0.map((X) => ({ position: [X.r[0], X.r[1], X.r[2]], R: [X.E[0]!, X.E[3]!, X.E[6]!, X.E[1]!, X.E[4]!, X.E[7]!, X.E[2]!, X.E[5]!, X.E[8]!] }));
  }

  /** World centre of mass of body i. */
  centreOfMass(i: number, X0: Plucker = this.kinematics().X0[i]!): [number, number, number] {
    const I = this.bodies[i]!.inertia, m = I[35]!;
    // Upper-right block is m·c× in body coordinates: c = (I[5*?]) read from it.
    const cb = [I[2 * 6 + 4]! / m, I[0 * 6 + 5]! / m, I[1 * 6 + 3]! / m];
    const E = X0.E;
    return [
      X0.r[0] + E[0]! * cb[0]! + E[3]! * cb[1]! + E[6]! * cb[2]!,
      X0.r[1] + E[1]! * cb[0]! + E[4]! * cb[1]! + E[7]! * cb[2]!,
      X0.r[2] + E[2]! * cb[0]! + E[5]! * cb[1]! + E[8]! * cb[2]!,
    ];
  }

  /** Spatial momentum of the whole tree about the world origin, world coordinates [L; P]. */
  momentum(): Vec6 {
    const { X0, v } = this.kinematics();
    const h = zero6();
    this.bodies.forEach((b, i) => {
      const hb = mat6Vec(b.inertia, v[i]!);
      // Body → world for a force-like vector: X0ᵀ.
      const hw = xTransposeForce(X0[i]!, hb);
      for (let k = 0; k < 6; k++) h[k] += hw[k]!;
    });
    return h;
  }
}

function motionSubspace(t: ArticulatedJointType, pitch: number): Vec6[] {
  const e = (k: number): Vec6 => { const s = zero6(); s[k] = 1; return s; };
  switch (t) {
    case 'hinge': return [e(0)];
    case 'prismatic': return [e(3)];
    case 'screw': return [[1, 0, 0, pitch, 0, 0]];
    case 'cylindrical': return [e(0), e(3)];
    case 'planar': return [e(0), e(4), e(5)]; // the translation columns at θ = 0 (kinematics turns them)
    case 'ball': return [e(0), e(1), e(2)];
    case 'free': return [e(0), e(1), e(2), e(3), e(4), e(5)];
  }
}

/** XJ(q): parent-side joint frame → child-side joint frame. */
function jointTransform(t: ArticulatedJointType, q: ArrayLike<number>, i: number, pitch: number): Plucker {
  switch (t) {
    case 'screw': case 'cylindrical': case 'planar': {
      const c = Math.cos(q[i]!), s = Math.sin(q[i]!);
      const r: [number, number, number] = t === 'screw' ? [pitch * q[i]!, 0, 0] : t === 'cylindrical' ? [q[i + 1]!, 0, 0] : [0, q[i + 1]!, q[i + 2]!];
      return { E: [1, 0, 0, 0, c, s, 0, -s, c], r };
    }
    case 'hinge': {
      const c = Math.cos(q[i]!), s = Math.sin(q[i]!);
      // Child frame turned by q about X: E = Rx(q)ᵀ.
      return { E: [1, 0, 0, 0, c, s, 0, -s, c], r: [0, 0, 0] };
    }
    case 'prismatic': return { E: [1, 0, 0, 0, 1, 0, 0, 0, 1], r: [q[i]!, 0, 0] };
    case 'ball': {
      const R = quatMat([q[i]!, q[i + 1]!, q[i + 2]!, q[i + 3]!]);
      return { E: [R[0]!, R[3]!, R[6]!, R[1]!, R[4]!, R[7]!, R[2]!, R[5]!, R[8]!], r: [0, 0, 0] };
    }
    case 'free': {
      const R = quatMat([q[i + 3]!, q[i + 4]!, q[i + 5]!, q[i + 6]!]);
      return { E: [R[0]!, R[3]!, R[6]!, R[1]!, R[4]!, R[7]!, R[2]!, R[5]!, R[8]!], r: [q[i]!, q[i + 1]!, q[i + 2]!] };
    }
  }
}

/** out[i..i+4] ← normalise(q ⊗ exp(ω·h/2)), ω in the rotated (child/body) frame. */
function quatIntegrate(out: Float64Array, i: number, wx: number, wy: number, wz: number, h: number): void {
  const ang = Math.hypot(wx, wy, wz) * h;
  let dx = 0, dy = 0, dz = 0, dw = 1;
  if (Math.abs(ang) > 1e-14) { // h < 0 turns back
    const s = Math.sin(ang / 2) / (ang / h);
    dx = wx * s; dy = wy * s; dz = wz * s; dw = Math.cos(ang / 2);
  }
  const ax = out[i]!, ay = out[i + 1]!, az = out[i + 2]!, aw = out[i + 3]!;
  const x = aw * dx + ax * dw + ay * dz - az * dy;
  const y = aw * dy - ax * dz + ay * dw + az * dx;
  const z = aw * dz + ax * dy - ay * dx + az * dw;
  const w = aw * dw - ax * dx - ay * dy - az * dz;
  const l = Math.hypot(x, y, z, w);
  out[i] = x / l; out[i + 1] = y / l; out[i + 2] = z / l; out[i + 3] = w / l;
}

function addScaled(out: Vec6, s: Vec6, k: number): void {
  if (k === 0) return;
  for (let j = 0; j < 6; j++) out[j] += s[j]! * k;
}

const dot6 = (a: Vec6, b: Vec6): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]! + a[4]! * b[4]! + a[5]! * b[5]!;

/** A world-coordinate force (about the world origin) in body coordinates: X0*·f. */
function forceToBody(X0: Plucker, f: Vec6): Vec6 {
  if (f[0] === 0 && f[1] === 0 && f[2] === 0 && f[3] === 0 && f[4] === 0 && f[5] === 0) return zero6();
  const [rx, ry, rz] = X0.r;
  const E = X0.E;
  const n0 = f[0]! - (ry * f[5]! - rz * f[4]!), n1 = f[1]! - (rz * f[3]! - rx * f[5]!), n2 = f[2]! - (rx * f[4]! - ry * f[3]!);
  return [
    E[0]! * n0 + E[1]! * n1 + E[2]! * n2, E[3]! * n0 + E[4]! * n1 + E[5]! * n2, E[6]! * n0 + E[7]! * n1 + E[8]! * n2,
    E[0]! * f[3]! + E[1]! * f[4]! + E[2]! * f[5]!, E[3]! * f[3]! + E[4]! * f[4]! + E[5]! * f[5]!, E[6]! * f[3]! + E[7]! * f[4]! + E[8]! * f[5]!,
  ];
}

/**
 * The articulated-body method's third pass (root to leaves): each body's spatial acceleration from its
 * parent's (the root's from `a0`), plus its bias acceleration `c` (null = none), gives its joint
 * accelerations D⁻¹·(u − Uᵀa). Shared by forwardDynamics and inverseMassOperator.
 */
function accelerationPass(
  bodies: readonly ArticulatedBody[], nvTotal: number, Xup: readonly Plucker[], S: readonly Vec6[][],
  U: readonly Vec6[][], Dinv: readonly number[][], u: readonly number[][], a0: Vec6, c: readonly Vec6[] | null,
  from = 0, to = bodies.length,
): Float64Array {
  const qdd = new Float64Array(nvTotal), a: Vec6[] = new Array(bodies.length);
  for (let i = from; i < to; i++) {
    const b = bodies[i]!, nv = b.nv;
    const ai = xMotion(Xup[i]!, b.parent < 0 ? a0 : a[b.parent]!);
    if (c) for (let k = 0; k < 6; k++) ai[k] += c[i]![k]!;
    const rhs = new Array<number>(nv);
    for (let r = 0; r < nv; r++) rhs[r] = u[i]![r]! - dot6(U[i]![r]!, ai);
    for (let r = 0; r < nv; r++) {
      let s = 0;
      for (let k = 0; k < nv; k++) s += Dinv[i]![r * nv + k]! * rhs[k]!;
      qdd[b.vi + r] = s;
      addScaled(ai, S[i]![r]!, s);
    }
    a[i] = ai;
  }
  return qdd;
}

/** Per-body vectors of coriolisTimes's passes (reused). */
const coriolisScratch = { w: [] as Vec6[], a: [] as Vec6[], f: [] as Vec6[], live: new Uint8Array(0), t1: zero6(), t2: zero6(), t3: zero6(), xJ: zero6() };

/** Ṡ(q̇)·x of a joint whose subspace moves in its own body frame (kinematics' cJ = Ṡ·q̇): free and planar. */
function jointSdotTimes(b: ArticulatedBody, q: ArrayLike<number>, kin: Kinematics, i: number, qd: ArrayLike<number>, x: ArrayLike<number>, out: Vec6): Vec6 {
  if (b.joint === 'free') {
    // S's linear block Rᵀ turns at −ω×: Ṡ·x = [0; −ω × Rᵀx_lin].
    const E = kin.Xup[i]!.E, j = b.vi;
    const xb = [0, 1, 2].map((r) => E[3 * r]! * x[j]! + E[3 * r + 1]! * x[j + 1]! + E[3 * r + 2]! * x[j + 2]!);
    const w0 = qd[j + 3]!, w1 = qd[j + 4]!, w2 = qd[j + 5]!;
    out[0] = 0; out[1] = 0; out[2] = 0;
    out[3] = -(w1 * xb[2]! - w2 * xb[1]!); out[4] = -(w2 * xb[0]! - w0 * xb[2]!); out[5] = -(w0 * xb[1]! - w1 * xb[0]!);
    return out;
  }
  if (b.joint === 'planar') {
    // The translation columns turn with θ: Ṡ·x = θ̇·∂S/∂θ·x.
    const c = Math.cos(q[b.qi]!), s = Math.sin(q[b.qi]!), j = b.vi, td = qd[j]!, dy = x[j + 1]!, dz = x[j + 2]!;
    return xMotion(b.XB, [0, 0, 0, 0, td * (-s * dy + c * dz), td * (-c * dy - s * dz)], out);
  }
  return out.fill(0);
}
