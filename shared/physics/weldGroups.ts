/**
 * Welded bodies solved as one rigid compound in the velocity solve (issue 11 item 4, docs/physics.md "What
 * prevents explosions").
 *
 * Dynamic bodies joined by fixed joints form a weld group. Gauss-Seidel solves every row with the effective
 * mass of the two bodies it touches, so a drive on a light link welded to a heavy body sees only the light
 * link's inertia and moves the pair a fraction I_light / I_pair of the way per sweep (the stress run's
 * residual: 1-70 g links carrying bodies 10-100x heavier). Here, for the velocity solve and the relax pass,
 * each group becomes one body: its members' velocities are replaced by the group's rigid motion (momentum and
 * angular momentum kept), every member gets the compound's mass and world inertia about the compound's
 * centre of mass (and that centre as its p, its local centroid shifted so the shapes and joint anchors stay
 * put), and the rows touching a member are re-pointed to the group's first member (rows inside a group to
 * the static slot 0: the weld is exact in a rigid motion). Afterwards each member takes the compound's
 * velocity at its own centre, v_i = V + Ω × (p_i − P), ω_i = Ω, and its own mass properties back. Welds
 * keep their position pass (projection), which removes their drift as before.
 *
 * Not with jointCorrection 'shake': its correction reuses the prepared rows' arms and masses, which this
 * changes. Allocation-free after warm-up; with no weld between two dynamic bodies nothing runs.
 */
import { DYNAMIC, type BodyStore } from './bodies';
import { BODY_A, BODY_B, LA, LB, STRIDE, TYPE } from './joints/jointLayout';
import { JOINT_TYPES } from './joints/registry';
import type { JointStore } from './joints/jointStore';

/** Per saved member: p (3), localCom (3), mass, invMass, invIw (9), Il (9), world inertia (9), the local
 *  centroid's shift (3). */
const SV = 38;
const EXP_KEEPGYRO = (globalThis as any).process?.env?.EXP_KEEPGYRO === '1';
const EXP_NORIGID = (globalThis as any).process?.env?.EXP_NORIGID === '1';
const EXP_RATIO = Number((globalThis as any).process?.env?.EXP_RATIO ?? 0);
/** A manifold record's point count (contactSolver.ts layout: A, B, μ, e, count). */
const CONTACT_COUNT = 4;

/** A weld: a joint type without free axes (fixed, or a copy registered under another name). */
function isWeld(code: number): boolean { return JOINT_TYPES[code]!.freeAxes.length === 0; }

export class WeldGroups {
  /** Per body slot: the group's representative slot (itself when not welded). */
  rep = new Int32Array(0);
  private parent = new Int32Array(0);
  /** Members of all groups, group by group; groupStart[g]..groupStart[g+1]. */
  private members = new Int32Array(0);
  private groupStart = new Int32Array(0);
  count = 0;
  // Per group: M, P (3), V (3), Ω (3), I_c (9), I_c⁻¹ (9).
  private g = new Float64Array(0);
  // Per member (index into members): saved p (3), localCom (3), mass, invMass, invIw (9), Il (9), world I (9).
  private saved = new Float64Array(0);
  private savedJoints = new Float64Array(0);
  private savedContacts = new Int32Array(0);
  private savedCounts = new Float64Array(0);

  /** Find the groups (every step: fixed joints between two dynamic bodies). Returns true when any exists. */
  build(b: BodyStore, js: JointStore): boolean {
    const n = b.count, J = js.data;
    let any = false;
    for (let j = 0; j < js.count; j++) {
      if (js.alive[j] === 0) continue;
      const o = j * STRIDE;
      if (isWeld(J[o + TYPE]!) && b.type[J[o + BODY_A]!] === DYNAMIC && b.type[J[o + BODY_B]!] === DYNAMIC) { any = true; break; }
    }
    this.count = 0;
    if (!any) return false;
    if (this.parent.length < n) { this.parent = new Int32Array(2 * n); this.rep = new Int32Array(2 * n); this.members = new Int32Array(2 * n); this.groupStart = new Int32Array(2 * n + 1); }
    const parent = this.parent, rep = this.rep;
    for (let i = 0; i < n; i++) parent[i] = i;
    const find = (i: number): number => { while (parent[i] !== i) { parent[i] = parent[parent[i]!]!; i = parent[i]!; } return i; };
    for (let j = 0; j < js.count; j++) {
      if (js.alive[j] === 0) continue;
      const o = j * STRIDE;
      const a = J[o + BODY_A]!, c = J[o + BODY_B]!;
      if (!isWeld(J[o + TYPE]!) || b.type[a] !== DYNAMIC || b.type[c] !== DYNAMIC) continue;
      const ra = find(a), rc = find(c);
      if (ra !== rc) { if (ra < rc) parent[rc] = ra; else parent[ra] = rc; }
    }
    // Representative = the smallest slot of the group (union by smaller root keeps it the root).
    for (let i = 0; i < n; i++) rep[i] = find(i);
    // Members grouped: groups in order of their representative, members in slot order.
    let m = 0, g = 0;
    for (let r = 1; r < n; r++) {
      if (rep[r] !== r || b.alive[r] === 0 || b.type[r] !== DYNAMIC) continue;
      let size = 0;
      for (let i = r; i < n; i++) if (rep[i] === r) size++;
      if (size < 2) continue;
      if (EXP_RATIO > 0) {
        let tot = 0, lo = Infinity;
        for (let i = r; i < n; i++) if (rep[i] === r) { tot += b.mass[i]!; lo = Math.min(lo, b.mass[i]!); }
        if (lo * EXP_RATIO >= tot) { for (let i = r; i < n; i++) if (rep[i] === r) rep[i] = i; continue; }
      }
      this.groupStart[g++] = m;
      for (let i = r; i < n; i++) if (rep[i] === r) this.members[m++] = i;
    }
    this.groupStart[g] = m;
    this.count = g;
    // Slots in no group of two or more map to themselves (find already gives that).
    if (this.g.length < 28 * g) { this.g = new Float64Array(56 * g); this.qSaved = new Float64Array(8 * g); }
    if (this.saved.length < SV * m) this.saved = new Float64Array(2 * SV * m);
    return g > 0;
  }

  /**
   * Replace each group by its compound. `first` (before the rows are prepared): compute M, P, the compound's
   * inertia, save and overwrite the members' mass properties and shift their p / local centroid to P.
   * Otherwise (before the relax pass): the saved compound, P at the members' current positions.
   */
  enter(b: BodyStore, first: boolean, J: Float64Array, jointCount: number): void {
    const G = this.g, S = this.saved, mem = this.members, gs = this.groupStart;
    const p = b.p, v = b.v, w = b.w, q = b.q;
    for (let k = 0; k < this.count; k++) {
      const g = 28 * k, m0 = gs[k]!, m1 = gs[k + 1]!;
      let M = 0, px = 0, py = 0, pz = 0;
      for (let n = m0; n < m1; n++) {
        const i = mem[n]!, mi = first ? b.mass[i]! : S[SV * n + 6]!;
        M += mi; px += mi * p[3 * i]!; py += mi * p[3 * i + 1]!; pz += mi * p[3 * i + 2]!;
      }
      px /= M; py /= M; pz /= M;
      G[g] = M; G[g + 1] = px; G[g + 2] = py; G[g + 3] = pz;
      if (first) {
        for (let c = 10; c < 19; c++) G[g + c] = 0;
        for (let n = m0; n < m1; n++) {
          const i = mem[n]!, s = SV * n, mi = b.mass[i]!;
          for (let c = 0; c < 3; c++) { S[s + c] = p[3 * i + c]!; S[s + 3 + c] = b.localCom[3 * i + c]!; }
          S[s + 6] = mi; S[s + 7] = b.invMass[i]!;
          for (let c = 0; c < 9; c++) { S[s + 8 + c] = b.invIw[9 * i + c]!; S[s + 17 + c] = b.Il[9 * i + c]!; }
          // World inertia R·Il·Rᵀ.
          worldInertia(q, 4 * i, b.Il, 9 * i, S, s + 26);
          const dx = p[3 * i]! - px, dy = p[3 * i + 1]! - py, dz = p[3 * i + 2]! - pz, d2 = dx * dx + dy * dy + dz * dz;
          G[g + 10] = G[g + 10]! + S[s + 26]! + mi * (d2 - dx * dx);
          G[g + 11] = G[g + 11]! + S[s + 27]! - mi * dx * dy;
          G[g + 12] = G[g + 12]! + S[s + 28]! - mi * dx * dz;
          G[g + 14] = G[g + 14]! + S[s + 30]! + mi * (d2 - dy * dy);
          G[g + 15] = G[g + 15]! + S[s + 31]! - mi * dy * dz;
          G[g + 18] = G[g + 18]! + S[s + 34]! + mi * (d2 - dz * dz);
        }
        G[g + 13] = G[g + 11]!; G[g + 16] = G[g + 12]!; G[g + 17] = G[g + 15]!;
        invertSym3(G, g + 10, G, g + 19);
      }
      // Momentum and angular momentum about P.
      let lx = 0, ly = 0, lz = 0, ax = 0, ay = 0, az = 0;
      for (let n = m0; n < m1; n++) {
        const i = mem[n]!, s = SV * n, mi = S[s + 6]!, i3 = 3 * i;
        const vx = v[i3]!, vy = v[i3 + 1]!, vz = v[i3 + 2]!, wx = w[i3]!, wy = w[i3 + 1]!, wz = w[i3 + 2]!;
        lx += mi * vx; ly += mi * vy; lz += mi * vz;
        const dx = p[i3]! - px, dy = p[i3 + 1]! - py, dz = p[i3 + 2]! - pz;
        ax += S[s + 26]! * wx + S[s + 27]! * wy + S[s + 28]! * wz + mi * (dy * vz - dz * vy);
        ay += S[s + 29]! * wx + S[s + 30]! * wy + S[s + 31]! * wz + mi * (dz * vx - dx * vz);
        az += S[s + 32]! * wx + S[s + 33]! * wy + S[s + 34]! * wz + mi * (dx * vy - dy * vx);
      }
      const Vx = lx / M, Vy = ly / M, Vz = lz / M;
      const Ox = G[g + 19]! * ax + G[g + 20]! * ay + G[g + 21]! * az;
      const Oy = G[g + 22]! * ax + G[g + 23]! * ay + G[g + 24]! * az;
      const Oz = G[g + 25]! * ax + G[g + 26]! * ay + G[g + 27]! * az;
      G[g + 4] = Vx; G[g + 5] = Vy; G[g + 6] = Vz; G[g + 7] = Ox; G[g + 8] = Oy; G[g + 9] = Oz;
      const r = mem[m0]!;
      for (let n = m0; n < m1; n++) {
        const i = mem[n]!, i3 = 3 * i;
        if (!first) { S[SV * n] = p[i3]!; S[SV * n + 1] = p[i3 + 1]!; S[SV * n + 2] = p[i3 + 2]!; }
        if (first) {
          // Local centroid shifted by Rᵀ(P − p_i): the origin p − R·c (shapes, anchors) stays put.
          const ex = px - p[i3]!, ey = py - p[i3 + 1]!, ez = pz - p[i3 + 2]!;
          const qo = 4 * i, x = q[qo]!, y = q[qo + 1]!, z = q[qo + 2]!, s = q[qo + 3]!;
          const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * s), r02 = 2 * (x * z + y * s);
          const r10 = 2 * (x * y + z * s), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * s);
          const r20 = 2 * (x * z - y * s), r21 = 2 * (y * z + x * s), r22 = 1 - 2 * (x * x + y * y);
          const sx = r00 * ex + r10 * ey + r20 * ez, sy = r01 * ex + r11 * ey + r21 * ez, sz = r02 * ex + r12 * ey + r22 * ez;
          const sn = SV * n;
          S[sn + 35] = sx; S[sn + 36] = sy; S[sn + 37] = sz;
          b.localCom[i3] = b.localCom[i3]! + sx;
          b.localCom[i3 + 1] = b.localCom[i3 + 1]! + sy;
          b.localCom[i3 + 2] = b.localCom[i3 + 2]! + sz;
          // The warm start's energy search counts each group once, on its representative.
          if (i === r) {
            b.mass[i] = M;
            bodyInertia(q, qo, G, g + 10, b.Il, 9 * i);
          } else { b.mass[i] = 0; b.Il.fill(0, 9 * i, 9 * i + 9); }
        }
        b.invMass[i] = 1 / M;
        for (let c = 0; c < 9; c++) b.invIw[9 * i + c] = G[g + 19 + c]!;
        p[i3] = px; p[i3 + 1] = py; p[i3 + 2] = pz;
        v[i3] = Vx; v[i3 + 1] = Vy; v[i3 + 2] = Vz; w[i3] = Ox; w[i3 + 1] = Oy; w[i3 + 2] = Oz;
      }
    }
    if (first) this.shiftAnchors(J, jointCount);
  }

  /** The joints' local anchors (relative to the body's centroid) follow the members' shifted centroids;
   *  the originals are kept for exit. */
  private shiftAnchors(J: Float64Array, jointCount: number): void {
    if (this.savedAnchors.length < 6 * jointCount) this.savedAnchors = new Float64Array(12 * jointCount);
    if (this.memberOf.length < this.rep.length) this.memberOf = new Int32Array(this.rep.length);
    const mo = this.memberOf, mem = this.members, S = this.saved, sa = this.savedAnchors;
    mo.fill(-1);
    for (let n = 0; n < this.groupStart[this.count]!; n++) mo[mem[n]!] = n;
    for (let j = 0; j < jointCount; j++) {
      const o = j * STRIDE;
      for (let c = 0; c < 3; c++) { sa[6 * j + c] = J[o + LA + c]!; sa[6 * j + 3 + c] = J[o + LB + c]!; }
      const na = mo[J[o + BODY_A]!]!, nb = mo[J[o + BODY_B]!]!;
      if (na >= 0) for (let c = 0; c < 3; c++) J[o + LA + c] = J[o + LA + c]! - S[SV * na + 35 + c]!;
      if (nb >= 0) for (let c = 0; c < 3; c++) J[o + LB + c] = J[o + LB + c]! - S[SV * nb + 35 + c]!;
    }
    this.anchorsShifted = jointCount;
  }

  private qSaved = new Float64Array(0);

  /**
   * After the positions are integrated: each member's centre follows the compound exactly, p_i = P + h·V +
   * ΔR·(p_i − P) with ΔR the representative's rotation over the substep. Integrating v_i = V + Ω × d_i
   * instead moves a member along the tangent, outward by ≈ ½(hΩ)²·|d| a substep, and with no position pass
   * the weld flew apart (a 0.03 kg link 0.2 → 9 m from its partner in 0.7 s at 20 rad/s).
   */
  rigidPositions(b: BodyStore, h: number): void {
    if (EXP_NORIGID) return;
    const G = this.g, S = this.saved, mem = this.members, gs = this.groupStart, p = b.p, q = b.q, qs = this.qSaved;
    for (let k = 0; k < this.count; k++) {
      const g = 28 * k, m0 = gs[k]!, m1 = gs[k + 1]!, r4 = 4 * mem[m0]!;
      // ΔR = q₁·conj(q₀).
      const ax = -qs[4 * k]!, ay = -qs[4 * k + 1]!, az = -qs[4 * k + 2]!, aw = qs[4 * k + 3]!;
      const bx = q[r4]!, by = q[r4 + 1]!, bz = q[r4 + 2]!, bw = q[r4 + 3]!;
      const x = bw * ax + bx * aw + by * az - bz * ay, y = bw * ay - bx * az + by * aw + bz * ax;
      const z = bw * az + bx * ay - by * ax + bz * aw, s = bw * aw - bx * ax - by * ay - bz * az;
      const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * s), r02 = 2 * (x * z + y * s);
      const r10 = 2 * (x * y + z * s), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * s);
      const r20 = 2 * (x * z - y * s), r21 = 2 * (y * z + x * s), r22 = 1 - 2 * (x * x + y * y);
      const px = G[g + 1]!, py = G[g + 2]!, pz = G[g + 3]!;
      const cx = px + h * G[g + 4]!, cy = py + h * G[g + 5]!, cz = pz + h * G[g + 6]!;
      for (let n = m0; n < m1; n++) {
        const i3 = 3 * mem[n]!, sn = SV * n;
        const dx = S[sn]! - px, dy = S[sn + 1]! - py, dz = S[sn + 2]! - pz;
        p[i3] = cx + r00 * dx + r01 * dy + r02 * dz;
        p[i3 + 1] = cy + r10 * dx + r11 * dy + r12 * dz;
        p[i3 + 2] = cz + r20 * dx + r21 * dy + r22 * dz;
      }
    }
  }


  // ------------------------------------------------------------------ the position projection as compounds
  private lastQ = new Float64Array(0);
  private pShift = new Float64Array(0);

  /** Before the projection: every member at the compound's centre P with its centroid shifted (anchors and
   *  shapes stay put) and the compound's mass properties, so a joint's projection moves the compound. */
  enterProjection(b: BodyStore, J: Float64Array, jointCount: number): void {
    const G = this.g, S = this.saved, mem = this.members, gs = this.groupStart, p = b.p, q = b.q;
    const nm = gs[this.count]!;
    if (this.lastQ.length < 4 * nm) { this.lastQ = new Float64Array(8 * nm); this.pShift = new Float64Array(6 * nm); }
    for (let k = 0; k < this.count; k++) {
      const g = 28 * k, m0 = gs[k]!, m1 = gs[k + 1]!;
      let M = 0, px = 0, py = 0, pz = 0;
      for (let n = m0; n < m1; n++) { const i = mem[n]!, mi = S[SV * n + 6]!; M += mi; px += mi * p[3 * i]!; py += mi * p[3 * i + 1]!; pz += mi * p[3 * i + 2]!; }
      px /= M; py /= M; pz /= M;
      for (let n = m0; n < m1; n++) {
        const i = mem[n]!, i3 = 3 * i, sn = SV * n, qo = 4 * i;
        for (let c = 0; c < 3; c++) S[sn + 3 + c] = b.localCom[i3 + c]!;
        const ex = px - p[i3]!, ey = py - p[i3 + 1]!, ez = pz - p[i3 + 2]!;
        const x = q[qo]!, y = q[qo + 1]!, z = q[qo + 2]!, w = q[qo + 3]!;
        const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
        const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
        const r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
        const sx = r00 * ex + r10 * ey + r20 * ez, sy = r01 * ex + r11 * ey + r21 * ez, sz = r02 * ex + r12 * ey + r22 * ez;
        S[sn + 35] = sx; S[sn + 36] = sy; S[sn + 37] = sz;
        b.localCom[i3] = b.localCom[i3]! + sx; b.localCom[i3 + 1] = b.localCom[i3 + 1]! + sy; b.localCom[i3 + 2] = b.localCom[i3 + 2]! + sz;
        p[i3] = px; p[i3 + 1] = py; p[i3 + 2] = pz;
        b.invMass[i] = 1 / G[g]!;
        for (let c = 0; c < 9; c++) b.invIw[9 * i + c] = G[g + 19 + c]!;
        for (let c = 0; c < 4; c++) this.lastQ[4 * n + c] = q[qo + c]!;
      }
    }
    this.shiftAnchors(J, jointCount);
    if (this.memberOf.length < this.rep.length) this.memberOf = new Int32Array(this.rep.length);
  }

  /** After one joint's projection moved member slot i: the rest of its group follows rigidly. */
  follow(b: BodyStore, i: number): void {
    const n0 = this.memberOf[i]!;
    if (n0 < 0) return;
    const p = b.p, q = b.q, lq = this.lastQ, qo = 4 * i;
    // ΔR = q_i · conj(q_i,last)
    const ax = -lq[4 * n0]!, ay = -lq[4 * n0 + 1]!, az = -lq[4 * n0 + 2]!, aw = lq[4 * n0 + 3]!;
    const bx = q[qo]!, by = q[qo + 1]!, bz = q[qo + 2]!, bw = q[qo + 3]!;
    const dx = bw * ax + bx * aw + by * az - bz * ay, dy = bw * ay - bx * az + by * aw + bz * ax;
    const dz = bw * az + bx * ay - by * ax + bz * aw, dw = bw * aw - bx * ax - by * ay - bz * az;
    const gs = this.groupStart, mem = this.members;
    let k = 0;
    while (gs[k + 1]! <= n0) k++;
    for (let n = gs[k]!; n < gs[k + 1]!; n++) {
      const j = mem[n]!, jo = 4 * j;
      if (j !== i) {
        p[3 * j] = p[3 * i]!; p[3 * j + 1] = p[3 * i + 1]!; p[3 * j + 2] = p[3 * i + 2]!;
        const x = q[jo]!, y = q[jo + 1]!, z = q[jo + 2]!, w = q[jo + 3]!;
        let nx = dw * x + dx * w + dy * z - dz * y, ny = dw * y - dx * z + dy * w + dz * x;
        let nz = dw * z + dx * y - dy * x + dz * w, nw = dw * w - dx * x - dy * y - dz * z;
        const l = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
        nx *= l; ny *= l; nz *= l; nw *= l;
        q[jo] = nx; q[jo + 1] = ny; q[jo + 2] = nz; q[jo + 3] = nw;
      }
      for (let c = 0; c < 4; c++) lq[4 * n + c] = q[jo + c]!;
    }
  }

  /** Same group (joints inside a group are rigid there: not projected). */
  sameGroup(a: number, c: number): boolean { const ma = this.memberOf[a]!, mc = this.memberOf[c]!; return ma >= 0 && mc >= 0 && this.rep[a] === this.rep[c]; }

  /** After the projection: each member's centre back from P (its shifted centroid), its own data back. */
  exitProjection(b: BodyStore, J: Float64Array): void {
    const S = this.saved, mem = this.members, gs = this.groupStart, p = b.p, q = b.q;
    for (let n = 0; n < gs[this.count]!; n++) {
      const i = mem[n]!, i3 = 3 * i, sn = SV * n, qo = 4 * i;
      const sx = S[sn + 35]!, sy = S[sn + 36]!, sz = S[sn + 37]!;
      const x = q[qo]!, y = q[qo + 1]!, z = q[qo + 2]!, w = q[qo + 3]!;
      const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
      const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
      const r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
      p[i3] = p[i3]! - (r00 * sx + r01 * sy + r02 * sz);
      p[i3 + 1] = p[i3 + 1]! - (r10 * sx + r11 * sy + r12 * sz);
      p[i3 + 2] = p[i3 + 2]! - (r20 * sx + r21 * sy + r22 * sz);
      for (let c = 0; c < 3; c++) b.localCom[i3 + c] = S[sn + 3 + c]!;
      b.invMass[i] = S[sn + 7]!;
      for (let c = 0; c < 9; c++) b.invIw[9 * i + c] = S[sn + 8 + c]!;
    }
    const sa = this.savedAnchors;
    for (let j = 0; j < this.anchorsShifted; j++) {
      const o = j * STRIDE;
      for (let c = 0; c < 3; c++) { J[o + LA + c] = sa[6 * j + c]!; J[o + LB + c] = sa[6 * j + 3 + c]!; }
    }
    this.anchorsShifted = -1;
  }

  private savedAnchors = new Float64Array(0);
  private memberOf = new Int32Array(0);
  private anchorsShifted = -1;

  /** Back to bodies: each member moves with the compound (read on the representative), its own p, mass
   *  properties and local centroid back. */
  exit(b: BodyStore, J: Float64Array): void {
    if (this.anchorsShifted >= 0) {
      const sa = this.savedAnchors;
      for (let j = 0; j < this.anchorsShifted; j++) {
        const o = j * STRIDE;
        for (let c = 0; c < 3; c++) { J[o + LA + c] = sa[6 * j + c]!; J[o + LB + c] = sa[6 * j + 3 + c]!; }
      }
      this.anchorsShifted = -1;
    }
    const G = this.g, S = this.saved, mem = this.members, gs = this.groupStart, p = b.p, v = b.v, w = b.w;
    for (let k = 0; k < this.count; k++) {
      const g = 28 * k, m0 = gs[k]!, m1 = gs[k + 1]!, r3 = 3 * mem[m0]!;
      const px = G[g + 1]!, py = G[g + 2]!, pz = G[g + 3]!;
      const Vx = v[r3]!, Vy = v[r3 + 1]!, Vz = v[r3 + 2]!, Ox = w[r3]!, Oy = w[r3 + 1]!, Oz = w[r3 + 2]!;
      const r4 = 4 * mem[m0]!, q = b.q, qs = this.qSaved;
      qs[4 * k] = q[r4]!; qs[4 * k + 1] = q[r4 + 1]!; qs[4 * k + 2] = q[r4 + 2]!; qs[4 * k + 3] = q[r4 + 3]!;
      G[g + 4] = Vx; G[g + 5] = Vy; G[g + 6] = Vz; G[g + 7] = Ox; G[g + 8] = Oy; G[g + 9] = Oz;
      for (let n = m0; n < m1; n++) {
        const i = mem[n]!, s = SV * n, i3 = 3 * i;
        const x = S[s]!, y = S[s + 1]!, z = S[s + 2]!;
        p[i3] = x; p[i3 + 1] = y; p[i3 + 2] = z;
        const dx = x - px, dy = y - py, dz = z - pz;
        v[i3] = Vx + (Oy * dz - Oz * dy); v[i3 + 1] = Vy + (Oz * dx - Ox * dz); v[i3 + 2] = Vz + (Ox * dy - Oy * dx);
        w[i3] = Ox; w[i3 + 1] = Oy; w[i3 + 2] = Oz;
        if (!EXP_KEEPGYRO) { b.wGyro[i3] = 0; b.wGyro[i3 + 1] = 0; b.wGyro[i3 + 2] = 0; }
        for (let c = 0; c < 3; c++) b.localCom[i3 + c] = S[s + 3 + c]!;
        b.mass[i] = S[s + 6]!; b.invMass[i] = S[s + 7]!;
        for (let c = 0; c < 9; c++) { b.invIw[9 * i + c] = S[s + 8 + c]!; b.Il[9 * i + c] = S[s + 17 + c]!; }
      }
    }
  }

  /** Re-point the joints' and contacts' bodies to the groups' representatives (rows inside a group to
   *  slot 0, the static world: they have nothing to do in a rigid motion). */
  remap(J: Float64Array, jointCount: number, contactData: Float64Array, contactCount: number, contactStride: number): void {
    const rep = this.rep;
    if (this.savedJoints.length < 2 * jointCount) this.savedJoints = new Float64Array(4 * jointCount);
    if (this.savedContacts.length < 2 * contactCount) this.savedContacts = new Int32Array(4 * contactCount);
    const sj = this.savedJoints, sc = this.savedContacts;
    for (let j = 0; j < jointCount; j++) {
      const o = j * STRIDE, a = J[o + BODY_A]!, c = J[o + BODY_B]!;
      sj[2 * j] = a; sj[2 * j + 1] = c;
      const ra = rep[a]!, rc = rep[c]!;
      if (ra === rc && a !== c) { J[o + BODY_A] = 0; J[o + BODY_B] = 0; } else { J[o + BODY_A] = ra; J[o + BODY_B] = rc; }
    }
    // A contact inside a group has nothing to do either; it keeps its bodies but no points meanwhile (its rows
    // carry the inertia images I⁻¹·(r × d) of the prepare, so on slot 0 they would turn the static world).
    if (this.savedCounts.length < contactCount) this.savedCounts = new Float64Array(2 * contactCount);
    for (let k = 0; k < contactCount; k++) {
      const o = k * contactStride, a = contactData[o]!, c = contactData[o + 1]!;
      sc[2 * k] = a; sc[2 * k + 1] = c;
      this.savedCounts[k] = contactData[o + CONTACT_COUNT]!;
      const ra = rep[a]!, rc = rep[c]!;
      if (ra === rc) contactData[o + CONTACT_COUNT] = 0; else { contactData[o] = ra; contactData[o + 1] = rc; }
    }
  }

  unmap(J: Float64Array, jointCount: number, contactData: Float64Array, contactCount: number, contactStride: number): void {
    const sj = this.savedJoints, sc = this.savedContacts;
    for (let j = 0; j < jointCount; j++) { const o = j * STRIDE; J[o + BODY_A] = sj[2 * j]!; J[o + BODY_B] = sj[2 * j + 1]!; }
    for (let k = 0; k < contactCount; k++) {
      const o = k * contactStride;
      contactData[o] = sc[2 * k]!; contactData[o + 1] = sc[2 * k + 1]!; contactData[o + CONTACT_COUNT] = this.savedCounts[k]!;
    }
  }
}

/** out = R·Il·Rᵀ (row-major 3×3) for the body's quaternion. */
function worldInertia(q: Float64Array, qo: number, Il: Float64Array, io: number, out: Float64Array, oo: number): void {
  rotateSym(q, qo, Il, io, out, oo, false);
}

/** out = Rᵀ·Iw·R: a world inertia in the body's axes. */
function bodyInertia(q: Float64Array, qo: number, Iw: Float64Array, io: number, out: Float64Array, oo: number): void {
  rotateSym(q, qo, Iw, io, out, oo, true);
}

const R = new Float64Array(9);

function rotateSym(q: Float64Array, qo: number, A: Float64Array, ao: number, out: Float64Array, oo: number, transpose: boolean): void {
  const x = q[qo]!, y = q[qo + 1]!, z = q[qo + 2]!, s = q[qo + 3]!;
  const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * s), r02 = 2 * (x * z + y * s);
  const r10 = 2 * (x * y + z * s), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * s);
  const r20 = 2 * (x * z - y * s), r21 = 2 * (y * z + x * s), r22 = 1 - 2 * (x * x + y * y);
  // M = R (or Rᵀ); out = M·A·Mᵀ.
  R[0] = r00; R[4] = r11; R[8] = r22;
  if (transpose) { R[1] = r10; R[2] = r20; R[3] = r01; R[5] = r21; R[6] = r02; R[7] = r12; } else { R[1] = r01; R[2] = r02; R[3] = r10; R[5] = r12; R[6] = r20; R[7] = r21; }
  for (let i = 0; i < 3; i++) {
    for (let k = 0; k < 3; k++) {
      let sum = 0;
      for (let a = 0; a < 3; a++) for (let c = 0; c < 3; c++) sum += R[3 * i + a]! * A[ao + 3 * a + c]! * R[3 * k + c]!;
      out[oo + 3 * i + k] = sum;
    }
  }
}

/** Inverse of a symmetric positive-definite 3×3 (row-major) into out. */
function invertSym3(A: Float64Array, ao: number, out: Float64Array, oo: number): void {
  const a = A[ao]!, b = A[ao + 1]!, c = A[ao + 2]!, d = A[ao + 4]!, e = A[ao + 5]!, f = A[ao + 8]!;
  const c00 = d * f - e * e, c01 = c * e - b * f, c02 = b * e - c * d;
  const det = a * c00 + b * c01 + c * c02;
  const inv = det !== 0 ? 1 / det : 0;
  out[oo] = c00 * inv; out[oo + 1] = c01 * inv; out[oo + 2] = c02 * inv;
  out[oo + 3] = c01 * inv; out[oo + 4] = (a * f - c * c) * inv; out[oo + 5] = (b * c - a * e) * inv;
  out[oo + 6] = c02 * inv; out[oo + 7] = (b * c - a * e) * inv; out[oo + 8] = (a * d - b * b) * inv;
}
