/**
 * Angular limits between a parent bone and a child bone that starts at one of the parent's particles (the
 * pivot). Three kinds, all solved the same way: measure an angle, and if it is outside [min, max] turn the
 * two bones' particle clusters RIGIDLY about an axis through the pivot, the child by αC and the parent by
 * αP with αC − αP = Δ, the missing angle, and translate both so their mass-weighted centroid stays put.
 * Rotations move particles along arcs and translations move all alike, so every bone length is untouched
 * — what the paper asked of its own angular rule (§6.2) — and linear momentum is conserved. αP, αC are
 * the mass-weighted smallest such move (see turnPair); when the two clusters' centroids lie on the axis
 * this is the inertia split αC = Δ·I_P/(I_C + I_P), equal and opposite angular impulses.
 * When the parent is pinned at another particle (the anchor: the top of the paper's pendulum), the parent
 * turns about the ANCHOR instead; the pivot goes with it and the child is translated along with the pivot
 * (so only the parent's direction u turns), again with the mass-weighted smallest split. Holding the
 * pivot still there would push the child with no reaction on the parent: a torque from nowhere, which
 * spun the 170° pendulum up to 3 kJ in 10 s before this rule.
 * For the twist the parent turns about its carried axis e_E, the child about its own axis e_C (each then
 * changes ψ by exactly its angle). A visit turns at most MAX_TURN, a step at most MAX_TURN_PER_STEP.
 *
 *  cone  : unsigned θ = atan2(|u × v|, u·v) ∈ [0, π] (the paper's angle; π = straight). Axis k = u × v.
 *  hinge : SIGNED θ = atan2(n·(u × v), u⊥·v⊥) ∈ [0, 2π) about the plane normal n, carried by a reference
 *          (a world direction, or the parent's frame). 170° and 190° are now different angles — the paper's
 *          "back vector" (§4). Optional planarity keeps v in the plane ⊥ n (β = asin(n·v̂) → 0).
 *  twist : axial angle ψ of the child about its own axis relative to the parent: the parent's frame carries
 *          the child's rest side s_E and axis e_E; s_E is swung onto the current axis e_C by the minimal
 *          rotation (k = e_E × e_C, c = e_E·e_C: s' = s_E + k × s_E + k × (k × s_E)/(1 + c)), and
 *          ψ = atan2(e_C·(s' × s_C), s'·s_C) — the twist of the swing–twist decomposition. Limits ⊂ [−π, π].
 *
 * u (the reference direction at the pivot) is either the direction to the parent's other end ('parent-bone')
 * or the child's rest direction carried by the parent's frame, reversed ('rest-pose': θ = π at rest).
 */
import { boneFrame, type BoneTable } from './bones';
import { clusterInertia, rotateParticles } from './rotate';
import type { ParticleState } from './state';

export const CONE = 0, HINGE = 1, TWIST = 2;

export interface JointLimitSpec {
  kind: typeof CONE | typeof HINGE | typeof TWIST;
  parent: number; child: number; pivot: number;
  /** 'parent-bone' reference: the parent's particle at the other end; −1 when measured from the rest pose. */
  far: number;
  min: number; max: number;
  /** Hinge normal (world, or parent-frame coordinates when axisInParent). */
  axis: readonly number[]; axisInParent: boolean; planar: boolean;
  /** Child's rest axis and side in the parent's frame coordinates (from the initial pose). */
  restAxis: readonly number[]; restSide: readonly number[];
}

export class JointLimits {
  readonly count: number;
  readonly kind: Uint8Array;
  readonly parent: Int32Array;
  readonly child: Int32Array;
  readonly pivot: Int32Array;
  readonly far: Int32Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  readonly axis: Float64Array;
  readonly axisInParent: Uint8Array;
  readonly planar: Uint8Array;
  readonly restAxis: Float64Array;
  readonly restSide: Float64Array;
  /** Any pinned particle among the two clusters: then no centroid translation (the pin holds it). */
  readonly anchored: Uint8Array;
  /** A pinned particle of the parent (not the pivot) the parent turns about; −1 = turn about the pivot. */
  readonly anchor: Int32Array;
  /** The parent's cluster without the pivot: members[pStart..pEnd); the child's: members[cStart..cEnd). */
  readonly pStart: Int32Array; readonly pEnd: Int32Array; readonly cStart: Int32Array; readonly cEnd: Int32Array;
  readonly members: Int32Array;
  /** Turn (rad) each limit has made this step; see MAX_TURN_PER_STEP. */
  readonly used: Float64Array;

  constructor(specs: readonly JointLimitSpec[], bones: BoneTable, s: ParticleState) {
    const n = specs.length;
    this.count = n;
    this.kind = new Uint8Array(n); this.parent = new Int32Array(n); this.child = new Int32Array(n);
    this.pivot = new Int32Array(n); this.far = new Int32Array(n); this.min = new Float64Array(n); this.max = new Float64Array(n);
    this.axis = new Float64Array(3 * n); this.axisInParent = new Uint8Array(n); this.planar = new Uint8Array(n);
    this.restAxis = new Float64Array(3 * n); this.restSide = new Float64Array(3 * n); this.anchored = new Uint8Array(n);
    this.anchor = new Int32Array(n).fill(-1);
    this.pStart = new Int32Array(n); this.pEnd = new Int32Array(n); this.cStart = new Int32Array(n); this.cEnd = new Int32Array(n);
    const members: number[] = [];
    specs.forEach((c, k) => {
      this.kind[k] = c.kind; this.parent[k] = c.parent; this.child[k] = c.child; this.pivot[k] = c.pivot; this.far[k] = c.far;
      this.min[k] = c.min; this.max[k] = c.max; this.axisInParent[k] = c.axisInParent ? 1 : 0; this.planar[k] = c.planar ? 1 : 0;
      const al = Math.hypot(c.axis[0]!, c.axis[1]!, c.axis[2]!) || 1;
      for (let i = 0; i < 3; i++) {
        this.axis[3 * k + i] = c.axis[i]! / al; this.restAxis[3 * k + i] = c.restAxis[i]!; this.restSide[3 * k + i] = c.restSide[i]!;
      }
      let anchored = s.w[c.pivot] === 0;
      const take = (bone: number) => {
        for (const i of sideParticles(bones, bone, c.pivot)) { members.push(i); if (s.w[i] === 0) anchored = true; }
      };
      this.pStart[k] = members.length; take(c.parent); this.pEnd[k] = members.length;
      if (s.w[c.pivot] !== 0) {
        for (let m = this.pStart[k]!; m < this.pEnd[k]!; m++) if (s.w[members[m]!] === 0) { this.anchor[k] = members[m]!; break; }
      }
      this.cStart[k] = members.length; take(c.child); this.cEnd[k] = members.length;
      this.anchored[k] = anchored ? 1 : 0;
    });
    this.members = Int32Array.from(members);
    this.used = new Float64Array(n);
  }
}

/** A bone's cluster without the pivot: the particles a limit turns on that side of the joint. (Turning
 *  whole subtrees — everything beyond the joint — was tried and made the ragdoll less stable on the floor:
 *  the far particles' long arcs fight the floor and the collisions.) */
function sideParticles(bones: BoneTable, bone: number, pivot: number): number[] {
  const out: number[] = [];
  for (let m = bones.start[bone]!; m < bones.end[bone]!; m++) if (bones.members[m] !== pivot) out.push(bones.members[m]!);
  return out;
}

/** Largest turn (rad) one limit makes per visit; the rest follows on the next iterations or steps. Near
 *  singular configurations (a hinge child along its axis, a twist near fold-back) a measured violation can
 *  jump by ~π between visits, and turning by it at once threw energy into the ragdoll. */
export const MAX_TURN = 0.25;
const TWIST_FOLD = 0.3;
/** Largest total turn (rad) one limit makes in one step, over all iterations (1 rad per 1/120 s step is
 *  already 120 rad/s). Limits that fight each other (a knee's hinge and the hip's twist both turning the
 *  thigh) otherwise escalate within a single step — measured: sums of 10–45 rad in one step before the
 *  ragdoll blew up after random clicks. */
const MAX_TURN_PER_STEP = 1;

// Scratch (module scope, so solving allocates nothing): parent frame F[0..9), child frame F[9..18).
const F = new Float64Array(18);
const TWO_PI = 2 * Math.PI;

/** Signed distance from θ to [lo, hi] on a circle of period 2π: the smallest move that brings θ inside. */
function circularCorrection(theta: number, lo: number, hi: number): number {
  const below = ((lo - theta) % TWO_PI + TWO_PI) % TWO_PI; // turn up to reach lo
  const above = ((theta - hi) % TWO_PI + TWO_PI) % TWO_PI; // turn down to reach hi
  return below <= above ? below : -above;
}

export function solveJointLimits(s: ParticleState, bones: BoneTable, L: JointLimits): void {
  const x = s.x;
  for (let k = 0; k < L.count; k++) {
    const kind = L.kind[k]!, P = L.parent[k]!, C = L.child[k]!, piv = L.pivot[k]!, far = L.far[k]!;
    const po = 3 * piv;
    let px = x[po]!, py = x[po + 1]!, pz = x[po + 2]!;
    const needParentFrame = far < 0 || L.axisInParent[k] === 1 || kind === TWIST;
    if (needParentFrame && !boneFrame(s, bones, P, F, 0)) continue;
    const to = 3 * bones.tip[C]!;
    let vx = x[to]! - px, vy = x[to + 1]! - py, vz = x[to + 2]! - pz;
    const k3 = 3 * k;
    PV[0] = px; PV[1] = py; PV[2] = pz;
    referenceU(s, L, k);
    let ux = U[0]!, uy = U[1]!, uz = U[2]!;
    if (kind === CONE) {
      const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
      const cl = Math.sqrt(cx * cx + cy * cy + cz * cz);
      const theta = Math.atan2(cl, ux * vx + uy * vy + uz * vz);
      const d = theta < L.min[k]! ? L.min[k]! - theta : theta > L.max[k]! ? L.max[k]! - theta : 0;
      if (d === 0) continue;
      const vl = Math.sqrt(vx * vx + vy * vy + vz * vz);
      TP[0] = px; TP[1] = py; TP[2] = pz; TP[9] = d;
      if (cl > 1e-9 * vl * Math.sqrt(ux * ux + uy * uy + uz * uz)) {
        TP[3] = TP[6] = cx / cl; TP[4] = TP[7] = cy / cl; TP[5] = TP[8] = cz / cl;
      } else { // u ∥ v: every axis ⊥ v is as good; pick one deterministically
        let ax = 0, ay = -vz, az = vy;
        if (Math.abs(vx) > 0.9 * vl) { ax = vz; ay = 0; az = -vx; }
        const al = Math.sqrt(ax * ax + ay * ay + az * az);
        TP[3] = TP[6] = ax / al; TP[4] = TP[7] = ay / al; TP[5] = TP[8] = az / al;
      }
      turnPair(s, L, k, true);
    } else if (kind === HINGE) {
      const inParent = L.axisInParent[k] === 1;
      hingeNormal(L, k);
      let nx = N[0]!, ny = N[1]!, nz = N[2]!;
      if (L.planar[k] === 1) {
        const vl = Math.sqrt(vx * vx + vy * vy + vz * vz);
        const sinB = (nx * vx + ny * vy + nz * vz) / vl;
        if (Math.abs(sinB) > 1e-9) {
          // Rotating v about a = v × n moves it toward n: turn the child by −β (and the parent's n by +β).
          let ax = vy * nz - vz * ny, ay = vz * nx - vx * nz, az = vx * ny - vy * nx;
          const al = Math.sqrt(ax * ax + ay * ay + az * az);
          if (al > 1e-12) {
            ax /= al; ay /= al; az /= al;
            TP[0] = px; TP[1] = py; TP[2] = pz;
            TP[3] = TP[6] = ax; TP[4] = TP[7] = ay; TP[5] = TP[8] = az;
            TP[9] = -Math.asin(Math.max(-1, Math.min(1, sinB)));
            turnPair(s, L, k, inParent);
            px = x[po]!; py = x[po + 1]!; pz = x[po + 2]!; // the turn may have translated the pivot
            vx = x[to]! - px; vy = x[to + 1]! - py; vz = x[to + 2]! - pz;
            if (inParent) { boneFrame(s, bones, P, F, 0); hingeNormal(L, k); nx = N[0]!; ny = N[1]!; nz = N[2]!; }
            PV[0] = px; PV[1] = py; PV[2] = pz; referenceU(s, L, k); ux = U[0]!; uy = U[1]!; uz = U[2]!;
          }
        }
      }
      const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
      const un = ux * nx + uy * ny + uz * nz, vn = vx * nx + vy * ny + vz * nz;
      let theta = Math.atan2(nx * cx + ny * cy + nz * cz, ux * vx + uy * vy + uz * vz - un * vn);
      if (theta < 0) theta += TWO_PI;
      if (theta >= L.min[k]! && theta <= L.max[k]!) continue;
      // Rotating v about n by +φ raises θ by φ; the parent turns the other way about the same n.
      TP[0] = px; TP[1] = py; TP[2] = pz;
      TP[3] = TP[6] = nx; TP[4] = TP[7] = ny; TP[5] = TP[8] = nz;
      TP[9] = circularCorrection(theta, L.min[k]!, L.max[k]!);
      turnPair(s, L, k, true);
    } else {
      if (!boneFrame(s, bones, C, F, 9)) continue;
      const a = L.restAxis[k3]!, b = L.restAxis[k3 + 1]!, c = L.restAxis[k3 + 2]!;
      const ex = F[0]! * a + F[3]! * b + F[6]! * c, ey = F[1]! * a + F[4]! * b + F[7]! * c, ez = F[2]! * a + F[5]! * b + F[8]! * c;
      const sa = L.restSide[k3]!, sb = L.restSide[k3 + 1]!, sc = L.restSide[k3 + 2]!;
      const sx = F[0]! * sa + F[3]! * sb + F[6]! * sc, sy = F[1]! * sa + F[4]! * sb + F[7]! * sc, sz = F[2]! * sa + F[5]! * sb + F[8]! * sc;
      const cex = F[12]!, cey = F[13]!, cez = F[14]!; // child axis e_C
      const kx = ey * cez - ez * cey, ky = ez * cex - ex * cez, kz = ex * cey - ey * cex; // k = e_E × e_C
      const cc = ex * cex + ey * cey + ez * cez;
      // Within ~18° of folding straight back onto the parent the twist is ill-conditioned (the shortest
      // rotation's axis e_E × e_C is nearly undefined) and measuring it there threw the forearm around.
      if (1 + cc < TWIST_FOLD) continue;
      // s' = s_E + k × s_E + k × (k × s_E)/(1 + c)
      const t1x = ky * sz - kz * sy, t1y = kz * sx - kx * sz, t1z = kx * sy - ky * sx;
      const t2x = ky * t1z - kz * t1y, t2y = kz * t1x - kx * t1z, t2z = kx * t1y - ky * t1x;
      const inv = 1 / (1 + cc);
      const qx = sx + t1x + t2x * inv, qy = sy + t1y + t2y * inv, qz = sz + t1z + t2z * inv;
      const scx = F[9]!, scy = F[10]!, scz = F[11]!; // child side s_C
      const crx = qy * scz - qz * scy, cry = qz * scx - qx * scz, crz = qx * scy - qy * scx;
      const psi = Math.atan2(cex * crx + cey * cry + cez * crz, qx * scx + qy * scy + qz * scz);
      const d = psi < L.min[k]! ? L.min[k]! - psi : psi > L.max[k]! ? L.max[k]! - psi : 0;
      if (d === 0) continue;
      // The child turns about its own axis e_C, the parent about e_E: each changes ψ by exactly its angle
      // (the shortest rotation e_E → e_C conjugates a turn about e_E into one about e_C). Turning the
      // parent about e_C instead changes ψ by less than assumed once the joint is swung, and the twist
      // and knee limits then overshot each other within a step until the ragdoll exploded.
      const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
      TP[0] = px; TP[1] = py; TP[2] = pz; TP[9] = d;
      TP[3] = cex; TP[4] = cey; TP[5] = cez; // child axis
      TP[6] = ex / el; TP[7] = ey / el; TP[8] = ez / el; // parent axis
      turnPair(s, L, k, true);
    }
  }
}

/**
 * Turn the child of pair k relative to its parent by `angle` rad about the unit world axis (ax, ay, az)
 * through the pivot, split between the two bones as a limit's correction is (turnPair: mass-weighted
 * smallest move, centroid kept, the per-visit and per-step caps). The pose drive (drive.ts) uses it with
 * its own JointLimits table of parent–child pairs.
 */
export function turnJoint(s: ParticleState, L: JointLimits, k: number, ax: number, ay: number, az: number, angle: number): void {
  const po = 3 * L.pivot[k]!;
  TP[0] = s.x[po]!; TP[1] = s.x[po + 1]!; TP[2] = s.x[po + 2]!;
  TP[3] = TP[6] = ax; TP[4] = TP[7] = ay; TP[5] = TP[8] = az; TP[9] = angle;
  turnPair(s, L, k, true);
}

/**
 * Change constraint k's angle by `angle`: the child cluster turns about the unit axis k through the pivot,
 * the parent cluster about the unit axis j (default k), by the mass-weighted smallest split; the pair's
 * centroid is restored when nothing in it is pinned. A single visit turns at most MAX_TURN.
 */
function turnPair(s: ParticleState, L: JointLimits, k: number, parentMayTurn: boolean): void {
  // Arguments come through TP (no boxed doubles per call): pivot, child axis k, parent axis j, angle.
  const px = TP[0]!, py = TP[1]!, pz = TP[2]!, kx = TP[3]!, ky = TP[4]!, kz = TP[5]!, jx = TP[6]!, jy = TP[7]!, jz = TP[8]!;
  let angle = TP[9]!;
  if (angle > MAX_TURN) angle = MAX_TURN; else if (angle < -MAX_TURN) angle = -MAX_TURN;
  const left = MAX_TURN_PER_STEP - L.used[k]!;
  if (left <= 0) return;
  if (angle > left) angle = left; else if (angle < -left) angle = -left;
  L.used[k] += Math.abs(angle);
  const m = L.members, ps = L.pStart[k]!, pe = L.pEnd[k]!, cs = L.cStart[k]!, ce = L.cEnd[k]!, anchor = L.anchor[k]!;
  const x = s.x, pivot = L.pivot[k]!, po = 3 * pivot;
  // Parent turn about (px, py, pz) along j in RP, child turn about the pivot along k in RC.
  RP[0] = px; RP[1] = py; RP[2] = pz; RP[3] = jx; RP[4] = jy; RP[5] = jz;
  RC[0] = px; RC[1] = py; RC[2] = pz; RC[3] = kx; RC[4] = ky; RC[5] = kz;
  if (L.anchored[k] === 0 && parentMayTurn && anchor < 0) {
    // Free pair: the mass-weighted smallest move among {turn the parent side by αP, the child side by αC
    // (both about axes through the pivot), translate everything by t} with αC − αP = Δ. With rᵢ = xᵢ − p,
    // I_s = Σ mᵢ|k_s × rᵢ|², g_s = Σ mᵢ k_s × rᵢ, G = g_P + g_C, M = total mass, minimising Σ mᵢ|Δxᵢ|² gives
    //   t = −(αP·g_P + αC·g_C)/M   (the centroid stays put: linear momentum conserved),
    //   αP = −Δ·(I_C − g_C·G/M) / (I_P + I_C − |G|²/M),   αC = αP + Δ.
    // The moves are applied as exact rotations (lengths kept) and t as the centroid restoration.
    sideMoments(s, m, ps, pe, RP); const Ip = MOM[0]!, gpx = MOM[1]!, gpy = MOM[2]!, gpz = MOM[3]!, Mp = MOM[4]!;
    sideMoments(s, m, cs, ce, RC); const Ic = MOM[0]!, gcx = MOM[1]!, gcy = MOM[2]!, gcz = MOM[3]!, Mc = MOM[4]!;
    const M = Mp + Mc + s.m[pivot]!;
    const Gx = gpx + gcx, Gy = gpy + gcy, Gz = gpz + gcz;
    const denom = Ip + Ic - (Gx * Gx + Gy * Gy + Gz * Gz) / M;
    if (!(denom > 1e-15)) return;
    const aP = (-angle * (Ic - (gcx * Gx + gcy * Gy + gcz * Gz) / M)) / denom;
    centroid(s, m, ps, ce, pivot);
    const c0x = C3[0]!, c0y = C3[1]!, c0z = C3[2]!;
    RP[6] = aP; rotateParticles(s, m, ps, pe, RP);
    RC[6] = aP + angle; rotateParticles(s, m, cs, ce, RC);
    centroid(s, m, ps, ce, pivot);
    const dx = c0x - C3[0]!, dy = c0y - C3[1]!, dz = c0z - C3[2]!;
    for (let n = ps; n < ce; n++) { const o = 3 * m[n]!; x[o] += dx; x[o + 1] += dy; x[o + 2] += dz; }
    x[po] += dx; x[po + 1] += dy; x[po + 2] += dz;
    return;
  }
  // Something is pinned (or the parent may not turn): no translation — the pin takes the momentum.
  clusterInertia(s, m, cs, ce, RC);
  const Ic = RC[7]!;
  if (parentMayTurn && anchor >= 0 && Ic !== Infinity) {
    // Parent turns by αP about the anchor a (carrying the pivot: q = j × (p − a), and translating the
    // child by αP·q), the child turns by αC about the pivot, αC − αP = Δ. Smallest Σ mᵢ|Δxᵢ|²:
    //   A = I_P(a) + (m_pivot + M_child)|q|²,  B = q·g_C,  αP = −Δ·(B + I_C)/(A + 2B + I_C).
    const ax = x[3 * anchor]!, ay = x[3 * anchor + 1]!, az = x[3 * anchor + 2]!;
    RP[0] = ax; RP[1] = ay; RP[2] = az;
    clusterInertia(s, m, ps, pe, RP);
    const Ipa = RP[7]!;
    if (Ipa === Infinity) { RC[6] = angle; rotateParticles(s, m, cs, ce, RC); return; }
    const rx = px - ax, ry = py - ay, rz = pz - az;
    const qx = jy * rz - jz * ry, qy = jz * rx - jx * rz, qz = jx * ry - jy * rx;
    sideMoments(s, m, cs, ce, RC);
    const A = Ipa + (s.m[pivot]! + MOM[4]!) * (qx * qx + qy * qy + qz * qz);
    const B = qx * MOM[1]! + qy * MOM[2]! + qz * MOM[3]!;
    const den = A + 2 * B + Ic;
    if (!(den > 1e-15)) return;
    const aP = (-angle * (B + Ic)) / den;
    RP[6] = aP; rotateParticles(s, m, ps, pe, RP);
    const ox = x[po]!, oy = x[po + 1]!, oz = x[po + 2]!;
    PIV[0] = pivot;
    rotateParticles(s, PIV, 0, 1, RP);
    const tx = x[po]! - ox, ty = x[po + 1]! - oy, tz = x[po + 2]! - oz;
    for (let n = cs; n < ce; n++) { const o = 3 * m[n]!; x[o] += tx; x[o + 1] += ty; x[o + 2] += tz; }
    RC[0] = x[po]!; RC[1] = x[po + 1]!; RC[2] = x[po + 2]!; RC[6] = aP + angle;
    rotateParticles(s, m, cs, ce, RC);
    return;
  }
  // Both turn about the pivot (it is pinned, or the parent may not turn): αC − αP = Δ with the smallest
  // Σ mᵢ|Δxᵢ|² = I_C·αC² + I_P·αP² — the inertia split.
  let Ip = Infinity;
  if (parentMayTurn) { clusterInertia(s, m, ps, pe, RP); Ip = RP[7]!; }
  let f: number;
  if (Ic === Infinity && Ip === Infinity) return;
  if (Ip === Infinity) f = 1; else if (Ic === Infinity) f = 0; else f = Ic + Ip > 0 ? Ip / (Ic + Ip) : 0.5;
  if (f < 1) { RP[6] = -(1 - f) * angle; rotateParticles(s, m, ps, pe, RP); }
  if (f > 0) { RC[6] = f * angle; rotateParticles(s, m, cs, ce, RC); }
}

const RP = new Float64Array(8), RC = new Float64Array(8);
/** turnPair's arguments: pivot TP[0..3), child axis TP[3..6), parent axis TP[6..9), angle TP[9]. */
const TP = new Float64Array(10);

// I = Σ m|k × r|², g = Σ m k × r, and Σ m, for members[from..to) about the axis k through p.
const MOM = new Float64Array(5);
function sideMoments(s: ParticleState, m: Int32Array, from: number, to: number, R: Float64Array): void {
  const px = R[0]!, py = R[1]!, pz = R[2]!, kx = R[3]!, ky = R[4]!, kz = R[5]!;
  let I = 0, gx = 0, gy = 0, gz = 0, M = 0;
  for (let n = from; n < to; n++) {
    const i = m[n]!, o = 3 * i, mi = s.m[i]!;
    const rx = s.x[o]! - px, ry = s.x[o + 1]! - py, rz = s.x[o + 2]! - pz;
    const cx = ky * rz - kz * ry, cy = kz * rx - kx * rz, cz = kx * ry - ky * rx;
    I += mi * (cx * cx + cy * cy + cz * cz); gx += mi * cx; gy += mi * cy; gz += mi * cz; M += mi;
  }
  MOM[0] = I; MOM[1] = gx; MOM[2] = gy; MOM[3] = gz; MOM[4] = M;
}

const PIV = new Int32Array(1);

// u (reference direction at the pivot) and the hinge normal n, written to scratch. F[0..9) holds the
// parent's frame whenever these need it.
const U = new Float64Array(3), N = new Float64Array(3), PV = new Float64Array(3);
function referenceU(s: ParticleState, L: JointLimits, k: number): void {
  const far = L.far[k]!, px = PV[0]!, py = PV[1]!, pz = PV[2]!;
  if (far >= 0) { const fo = 3 * far; U[0] = s.x[fo]! - px; U[1] = s.x[fo + 1]! - py; U[2] = s.x[fo + 2]! - pz; return; }
  const a = L.restAxis[3 * k]!, b = L.restAxis[3 * k + 1]!, c = L.restAxis[3 * k + 2]!;
  U[0] = -(F[0]! * a + F[3]! * b + F[6]! * c); U[1] = -(F[1]! * a + F[4]! * b + F[7]! * c); U[2] = -(F[2]! * a + F[5]! * b + F[8]! * c);
}
function hingeNormal(L: JointLimits, k: number): void {
  const a = L.axis[3 * k]!, b = L.axis[3 * k + 1]!, c = L.axis[3 * k + 2]!;
  if (L.axisInParent[k] === 0) { N[0] = a; N[1] = b; N[2] = c; return; }
  N[0] = F[0]! * a + F[3]! * b + F[6]! * c; N[1] = F[1]! * a + F[4]! * b + F[7]! * c; N[2] = F[2]! * a + F[5]! * b + F[8]! * c;
}

// Reused result triple (no allocation per call).
const C3 = new Float64Array(3);
function centroid(s: ParticleState, m: Int32Array, from: number, to: number, pivot: number): void {
  let M = s.m[pivot]!, x = M * s.x[3 * pivot]!, y = M * s.x[3 * pivot + 1]!, z = M * s.x[3 * pivot + 2]!;
  for (let n = from; n < to; n++) {
    const i = m[n]!, mi = s.m[i]!, o = 3 * i;
    M += mi; x += mi * s.x[o]!; y += mi * s.x[o + 1]!; z += mi * s.x[o + 2]!;
  }
  C3[0] = x / M; C3[1] = y / M; C3[2] = z / M;
}
