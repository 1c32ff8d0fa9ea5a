/**
 * Contact constraints (Box2D v3's contact_solver in 3D): per manifold point one normal row and two friction
 * rows; Coulomb friction μ = sqrt(μ_A·μ_B) (geometric mean), restitution e = max(e_A, e_B) applied only
 * above a closing speed of RESTITUTION_THRESHOLD; impulses cached by (shape pair, feature id) across steps
 * and warm started; penetration recovered by a soft row (makeSoftHertz, CONTACT_HERTZ, ζ = 10) capped at
 * MAX_PUSH_VELOCITY, and approached speculatively (a point apart by s may close at s/h this step).
 *
 * The geometry comes from the collision module (shared/physics/collision): world shapes, the broad phase
 * (group/mask and our jointed-pair exclusion), the narrow phase and the ground plane. This file only reads
 * manifolds: normal A→B, depth > 0 overlapping.
 *
 * With WorldSettings.contactCache (the default) two caches carry work across substeps: the broad phase's
 * candidates (collision/fatPairs.ts, fat AABBs; pairs in canonical order) and each pair's narrow-phase
 * geometry while its relative pose stays within PAIR_CACHE_DISTANCE and PAIR_CACHE_ANGLE (collidePair).
 */
import type { BodyStore } from '../bodies';
import { DYNAMIC } from '../bodies';
import {
  ContactManifold, createWorldShape, FatPairs, updateWorldShape, type ContactManifoldData, type PairExclusion, type RayHitData,
  type WorldShape,
} from '../collision';
import { makeSoftHertz, MassSoftnessOut, type MassSoftness } from '../soft';
import type { StepContext } from '../stepContext';
import type { Material, ShapeDesc } from '../types';
import type { CollisionBackend } from './collisionBackend';

/** Speculative margin (m): pairs closer than this get contact points before they touch. */
export const SPECULATIVE_MARGIN = 0.02;
/** Penetration spring (Hz, at most half the substep rate) and damping ratio (Box2D v3's 30 Hz, ζ = 10). */
export const CONTACT_HERTZ = 30;
export const CONTACT_DAMPING_RATIO = 10;
/** Largest push-out speed from penetration (m/s). */
export const MAX_PUSH_VELOCITY = 3;
/** Closing speed (m/s) below which restitution is ignored, so resting contacts do not bounce. */
export const RESTITUTION_THRESHOLD = 1;
/** Allowed penetration (m) the soft push-out leaves alone, so resting stacks do not jitter (1 mm lets a
 *  5-box stack creep sideways; 2 mm holds it still). */
export const LINEAR_SLOP = 0.002;

// Manifold record layout (Float64Array, stride M).
const A = 0, B = 1, MU = 2, E = 3, COUNT = 4, NX = 5, T1 = 8, T2 = 11, SHAPE_A = 14, SHAPE_B = 15, P0 = 16;
// Point record, stride P, at P0 + P·k. ROWS: per row r (0 = normal, 1, 2 = tangents) with direction d, the
// angular Jacobians and their images under the world inverse inertia, fixed for the substep:
// CA = r_A×d, CB = r_B×d, IA = I_A⁻¹·CA, IB = I_B⁻¹·CB (12 values). Solving a row is then
// v_n = (v_B − v_A)·d + ω_B·CB − ω_A·CA and the impulse λ changes ω_A by −λ·IA, ω_B by +λ·IB: no 3×3
// product in the loop (the pile spends most of its step there).
const NMASS = 0, TMASS1 = 1, TMASS2 = 2, NIMP = 3, TIMP1 = 4, TIMP2 = 5, SEP = 6, RELV = 7, MAXN = 8, FID = 9, PX = 10,
  ROWS = 13;
const CA = 0, CB = 3, IA = 6, IB = 9, ROW = 12;
const P = ROWS + 3 * ROW, M = P0 + 4 * P;
// Warm-start cache record, stride C: shape A, shape B, point count, then per point (feature id, normal,
// tangent 1, tangent 2 impulses). Only what the next step matches, so storing it is cheap.
const C_SA = 0, C_SB = 1, C_COUNT = 2, C_P0 = 3, C = C_P0 + 4 * 4;
// Pair geometry record (stride G, parallel to the manifold records): what the narrow phase found, kept in the
// bodies' frames so a pair whose relative pose has barely moved since can reuse it (Jolt's body pair cache).
// OK = 1 when the record holds geometry; RP, RQ: B's centre and rotation in A's body frame when the narrow
// phase ran; NL: the normal in A's frame; per point k at PT + 6k: the point on A (A's frame), on B (B's frame).
const G_OK = 0, G_RP = 1, G_RQ = 4, G_NL = 8, G_PT = 11, G = G_PT + 6 * 4;
/** A cached pair's geometry is reused while B's centre has moved less than this (m) in A's frame since the
 *  narrow phase ran, and its rotation relative to A by less than PAIR_CACHE_ANGLE (rad); Jolt's defaults
 *  are 1 mm and 2°. */
export const PAIR_CACHE_DISTANCE = 0.001;
export const PAIR_CACHE_ANGLE = Math.PI / 180;
const PAIR_CACHE_COS_HALF = Math.cos(PAIR_CACHE_ANGLE / 2);
const GROUND_SHAPE = 2097151;
const KEY_SCALE = 2097152;

export interface ContactView { a: number; b: number; point: [number, number, number]; normal: [number, number, number]; depth: number; normalImpulse: number }

export class ContactSolver {
  shapes: WorldShape[] = [];
  /** Shapes of each body slot (indices into `shapes`). */
  private bodyShapes: number[][] = [];
  private labels: string[] = [];
  data = new Float64Array(64 * M);
  count = 0;
  /** Last stored step's impulses (cache records, stride C), for warm starting, and a hash of their
   *  (shapeA, shapeB) keys. */
  private prev = new Float64Array(64 * C);
  private prevCount = 0;
  /** Pair geometry of this substep's manifolds (stride G) and of the stored ones (prevGeo, index as prev). */
  private geo = new Float64Array(64 * G);
  private prevGeo = new Float64Array(64 * G);
  /** Shape pairs whose geometry came from the cache in the last prepare (the stats). */
  cachedPairs = 0;
  private hashKeys = new Float64Array(256);
  private hashVals = new Int32Array(256);
  private readonly manifold: ContactManifoldData = new ContactManifold();
  private readonly soft: MassSoftness = new MassSoftnessOut();
  private readonly exclusion: PairExclusion;
  private broad: ReturnType<CollisionBackend['createBroadPhase']>;
  /** With the pair cache on: the broad phase's candidates kept across steps (fatPairs.ts). */
  private fatBroad: FatPairs;
  /** Body positions at prepare, so relax sees the separation after integration. */
  private p0 = new Float64Array(0);
  pointCount = 0;

  constructor(private readonly bodies: BodyStore, exclusion: PairExclusion, readonly backend: CollisionBackend) {
    this.exclusion = exclusion;
    this.broad = backend.createBroadPhase();
    this.fatBroad = new FatPairs(backend.createBroadPhase());
  }

  addBody(i: number, descs: readonly ShapeDesc[], name: string): void {
    const list: number[] = [];
    descs.forEach((d, k) => {
      const s = createWorldShape(d, {
        body: i, userId: this.shapes.length, group: this.bodies.group[i], mask: this.bodies.mask[i],
        dynamic: this.bodies.type[i] === DYNAMIC, aabbMargin: SPECULATIVE_MARGIN, label: `body '${name}' shape ${k}`,
      });
      list.push(this.shapes.length);
      this.shapes.push(s);
      this.labels.push(name);
    });
    this.bodyShapes[i] = list;
    // Sized here, not in prepare: a compiled step has no branch that only a new world's first step takes.
    if (this.p0.length < this.bodies.p.length) { const p0 = new Float64Array(this.bodies.p.length); p0.set(this.p0); this.p0 = p0; }
    this.syncBody(i);
  }

  removeBody(i: number): void {
    const keep = this.shapes.filter((s) => s.body !== i);
    this.shapes = [];
    this.bodyShapes = [];
    for (const s of keep) {
      s.userId = this.shapes.length;
      (this.bodyShapes[s.body] ??= []).push(this.shapes.length);
      this.shapes.push(s);
    }
    // Shape indices moved: forget cached impulses and the broad phase's incremental order.
    this.count = 0; this.prevCount = 0;
    this.broad = this.backend.createBroadPhase();
    this.fatBroad = new FatPairs(this.backend.createBroadPhase());
  }

  /** Recreate every shape from the bodies' descriptions, in slot order (after a restore across adds or
   *  removals of bodies). */
  rebuildShapes(): void {
    const b = this.bodies;
    this.shapes = []; this.bodyShapes = []; this.labels = [];
    for (let i = 1; i < b.count; i++) if (b.alive[i]) this.addBody(i, b.shapes[i]!, b.names[i]!);
    this.broad = this.backend.createBroadPhase();
    this.fatBroad = new FatPairs(this.backend.createBroadPhase());
  }

  setDynamic(i: number, dynamic: boolean): void {
    for (const k of this.bodyShapes[i] ?? []) this.shapes[k]!.dynamic = dynamic;
  }

  /** Place body i's shapes at its current pose (origin = p − R·localCentroid). */
  syncBody(i: number): void {
    const b = this.bodies, q = b.q;
    const cx = b.localCom[3 * i]!, cy = b.localCom[3 * i + 1]!, cz = b.localCom[3 * i + 2]!;
    const qx = q[4 * i]!, qy = q[4 * i + 1]!, qz = q[4 * i + 2]!, qw = q[4 * i + 3]!;
    const tx = 2 * (qy * cz - qz * cy), ty = 2 * (qz * cx - qx * cz), tz = 2 * (qx * cy - qy * cx);
    originScratch[0] = b.p[3 * i]! - (cx + qw * tx + (qy * tz - qz * ty));
    originScratch[1] = b.p[3 * i + 1]! - (cy + qw * ty + (qz * tx - qx * tz));
    originScratch[2] = b.p[3 * i + 2]! - (cz + qw * tz + (qx * ty - qy * tx));
    const list = this.bodyShapes[i];
    if (!list) return;
    for (let k = 0; k < list.length; k++) updateWorldShape(this.shapes[list[k]!]!, originScratch, 0, q, 4 * i);
  }

  private ensure(n: number): void {
    if (n * G > this.geo.length) { const g = new Float64Array(Math.max(n, 2 * this.geo.length / G) * G); g.set(this.geo); this.geo = g; }
    if (n * M <= this.data.length) return;
    const d = new Float64Array(Math.max(n, 2 * this.data.length / M) * M);
    d.set(this.data);
    this.data = d;
  }

  /**
   * The narrow phase of shapes sa, sb (bodies a, b) into this.manifold, or the geometry it found for them in
   * an earlier substep when B has since moved less than PAIR_CACHE_DISTANCE and turned less than
   * PAIR_CACHE_ANGLE relative to A (Jolt's body pair cache): the stored points are material points of the
   * two bodies, placed at their current poses, and each depth is measured again along the current normal,
   * (p_A − p_B)·n. Writes the pair's geometry record at manifold index this.count. Returns the point count.
   */
  /** prev: the pair's stored record, or −1 (none, or the cache off). */
  private collidePair(sa: number, sb: number, a: number, bb: number, prev: number): number {
    const m = this.manifold, b = this.bodies, p = b.p, q = b.q, gi = this.count * G, g = this.geo, pg = this.prevGeo;
    const cached = prev >= 0 && pg[prev * G + G_OK] === 1;
    if (!cached) {
      const n = this.backend.collide(this.shapes[sa]!, this.shapes[sb]!, SPECULATIVE_MARGIN, m);
      if (n > 0) this.storeGeometry(gi, a, bb);
      return n;
    }
    // B's centre and rotation in A's body frame: r = conj(qA)·(pB − pA), u = conj(qA)·qB.
    const ax = -q[4 * a]!, ay = -q[4 * a + 1]!, az = -q[4 * a + 2]!, aw = q[4 * a + 3]!;
    const bx = q[4 * bb]!, by = q[4 * bb + 1]!, bz = q[4 * bb + 2]!, bw = q[4 * bb + 3]!;
    const ux = aw * bx + ax * bw + ay * bz - az * by, uy = aw * by - ax * bz + ay * bw + az * bx;
    const uz = aw * bz + ax * by - ay * bx + az * bw, uw = aw * bw - ax * bx - ay * by - az * bz;
    const dx = p[3 * bb]! - p[3 * a]!, dy = p[3 * bb + 1]! - p[3 * a + 1]!, dz = p[3 * bb + 2]! - p[3 * a + 2]!;
    let tx = 2 * (ay * dz - az * dy), ty = 2 * (az * dx - ax * dz), tz = 2 * (ax * dy - ay * dx);
    const rx = dx + aw * tx + (ay * tz - az * ty), ry = dy + aw * ty + (az * tx - ax * tz), rz = dz + aw * tz + (ax * ty - ay * tx);
    const po = prev * G;
    const ex = rx - pg[po + G_RP]!, ey = ry - pg[po + G_RP + 1]!, ez = rz - pg[po + G_RP + 2]!;
    const cosHalf = Math.abs(ux * pg[po + G_RQ]! + uy * pg[po + G_RQ + 1]! + uz * pg[po + G_RQ + 2]! + uw * pg[po + G_RQ + 3]!);
    if (!(ex * ex + ey * ey + ez * ez < PAIR_CACHE_DISTANCE * PAIR_CACHE_DISTANCE && cosHalf > PAIR_CACHE_COS_HALF)) {
      const n = this.backend.collide(this.shapes[sa]!, this.shapes[sb]!, SPECULATIVE_MARGIN, m);
      if (n > 0) this.storeGeometry(gi, a, bb);
      return n;
    }
    for (let k = 0; k < G; k++) g[gi + k] = pg[po + k]!; // the record keeps the pose the narrow phase ran at, so drift cannot add up
    const n = this.prev[prev * C + C_COUNT]! | 0; // an int: a double would turn ContactManifold.count into a double field (jit.test.ts)
    // World normal n = qA·NL (qA = conj of (ax, ay, az, aw) above).
    const qx = -ax, qy = -ay, qz = -az, qw = aw;
    let x = g[gi + G_NL]!, y = g[gi + G_NL + 1]!, z = g[gi + G_NL + 2]!;
    tx = 2 * (qy * z - qz * y); ty = 2 * (qz * x - qx * z); tz = 2 * (qx * y - qy * x);
    const nx = x + qw * tx + (qy * tz - qz * ty), ny = y + qw * ty + (qz * tx - qx * tz), nz = z + qw * tz + (qx * ty - qy * tx);
    m.normal[0] = nx; m.normal[1] = ny; m.normal[2] = nz;
    for (let k = 0; k < n; k++) {
      const o = gi + G_PT + 6 * k, k3 = 3 * k;
      x = g[o]!; y = g[o + 1]!; z = g[o + 2]!;
      tx = 2 * (qy * z - qz * y); ty = 2 * (qz * x - qx * z); tz = 2 * (qx * y - qy * x);
      const pax = p[3 * a]! + x + qw * tx + (qy * tz - qz * ty), pay = p[3 * a + 1]! + y + qw * ty + (qz * tx - qx * tz);
      const paz = p[3 * a + 2]! + z + qw * tz + (qx * ty - qy * tx);
      x = g[o + 3]!; y = g[o + 4]!; z = g[o + 5]!;
      tx = 2 * (by * z - bz * y); ty = 2 * (bz * x - bx * z); tz = 2 * (bx * y - by * x);
      const pbx = p[3 * bb]! + x + bw * tx + (by * tz - bz * ty), pby = p[3 * bb + 1]! + y + bw * ty + (bz * tx - bx * tz);
      const pbz = p[3 * bb + 2]! + z + bw * tz + (bx * ty - by * tx);
      // The depth along the normal; the point midway between the two material points (the solver's contact
      // point), so a tangential drift of either body shifts it by half: pointA/B = mid ± depth/2·n.
      const depth = (pax - pbx) * nx + (pay - pby) * ny + (paz - pbz) * nz, hd = 0.5 * depth;
      const mx = 0.5 * (pax + pbx), my = 0.5 * (pay + pby), mz = 0.5 * (paz + pbz);
      m.pointA[k3] = mx + hd * nx; m.pointA[k3 + 1] = my + hd * ny; m.pointA[k3 + 2] = mz + hd * nz;
      m.pointB[k3] = mx - hd * nx; m.pointB[k3 + 1] = my - hd * ny; m.pointB[k3 + 2] = mz - hd * nz;
      m.depth[k] = depth;
      m.featureId[k] = this.prev[prev * C + C_P0 + 4 * k]!;
    }
    m.count = n;
    this.cachedPairs++;
    return n;
  }

  /** The narrow phase's manifold (this.manifold) of bodies a, b into the pair geometry record at gi: B's pose
   *  in A's frame, the normal in A's frame, each point on A in A's frame and on B in B's frame. */
  private storeGeometry(gi: number, a: number, bb: number): void {
    const m = this.manifold, b = this.bodies, p = b.p, q = b.q, g = this.geo;
    // conj(qA) = (ax, ay, az, aw), conj(qB) = (cx, cy, cz, bw).
    const ax = -q[4 * a]!, ay = -q[4 * a + 1]!, az = -q[4 * a + 2]!, aw = q[4 * a + 3]!;
    const bx = q[4 * bb]!, by = q[4 * bb + 1]!, bz = q[4 * bb + 2]!, bw = q[4 * bb + 3]!, cx = -bx, cy = -by, cz = -bz;
    g[gi + G_OK] = 1;
    g[gi + G_RQ] = aw * bx + ax * bw + ay * bz - az * by; g[gi + G_RQ + 1] = aw * by - ax * bz + ay * bw + az * bx;
    g[gi + G_RQ + 2] = aw * bz + ax * by - ay * bx + az * bw; g[gi + G_RQ + 3] = aw * bw - ax * bx - ay * by - az * bz;
    let x = p[3 * bb]! - p[3 * a]!, y = p[3 * bb + 1]! - p[3 * a + 1]!, z = p[3 * bb + 2]! - p[3 * a + 2]!;
    let tx = 2 * (ay * z - az * y), ty = 2 * (az * x - ax * z), tz = 2 * (ax * y - ay * x);
    g[gi + G_RP] = x + aw * tx + (ay * tz - az * ty); g[gi + G_RP + 1] = y + aw * ty + (az * tx - ax * tz); g[gi + G_RP + 2] = z + aw * tz + (ax * ty - ay * tx);
    x = m.normal[0]!; y = m.normal[1]!; z = m.normal[2]!;
    tx = 2 * (ay * z - az * y); ty = 2 * (az * x - ax * z); tz = 2 * (ax * y - ay * x);
    g[gi + G_NL] = x + aw * tx + (ay * tz - az * ty); g[gi + G_NL + 1] = y + aw * ty + (az * tx - ax * tz); g[gi + G_NL + 2] = z + aw * tz + (ax * ty - ay * tx);
    for (let k = 0; k < m.count; k++) {
      const o = gi + G_PT + 6 * k, k3 = 3 * k;
      x = m.pointA[k3]! - p[3 * a]!; y = m.pointA[k3 + 1]! - p[3 * a + 1]!; z = m.pointA[k3 + 2]! - p[3 * a + 2]!;
      tx = 2 * (ay * z - az * y); ty = 2 * (az * x - ax * z); tz = 2 * (ax * y - ay * x);
      g[o] = x + aw * tx + (ay * tz - az * ty); g[o + 1] = y + aw * ty + (az * tx - ax * tz); g[o + 2] = z + aw * tz + (ax * ty - ay * tx);
      x = m.pointB[k3]! - p[3 * bb]!; y = m.pointB[k3 + 1]! - p[3 * bb + 1]!; z = m.pointB[k3 + 2]! - p[3 * bb + 2]!;
      tx = 2 * (cy * z - cz * y); ty = 2 * (cz * x - cx * z); tz = 2 * (cx * y - cy * x);
      g[o + 3] = x + bw * tx + (cy * tz - cz * ty); g[o + 4] = y + bw * ty + (cz * tx - cx * tz); g[o + 5] = z + bw * tz + (cx * ty - cy * tx);
    }
  }

  /** Stage "prepare contacts": collide, build rows, match cached impulses. Returns the row count. */
  prepare(ctx: StepContext, groundHeight: number | null, ground: Material, cacheGeometry: boolean): number {
    const b = this.bodies;
    for (let i = 1; i < b.count; i++) if (b.alive[i] && b.type[i] !== 2) this.syncBody(i);
    if (this.p0.length < b.p.length) this.p0 = new Float64Array(b.p.length); // sized by addBody: never taken there
    this.p0.set(b.p);
    makeSoftHertz(Math.min(CONTACT_HERTZ, 0.5 * ctx.invH), CONTACT_DAMPING_RATIO, ctx.h, this.soft);
    this.count = 0;
    this.cachedPairs = 0;
    const shapes = this.shapes, m = this.manifold;
    // With the cache on, candidates kept across steps and a canonical pair order (fatPairs.ts); off, the
    // broad phase from scratch every substep, in its own order.
    const bp = cacheGeometry ? this.fatBroad : this.broad;
    bp.update(shapes, shapes.length, this.exclusion);
    for (let k = 0; k < bp.pairCount; k++) {
      const sa = bp.pairs[2 * k]!, sb = bp.pairs[2 * k + 1]!, a = shapes[sa]!.body, bb = shapes[sb]!.body;
      this.ensure(this.count + 1);
      const prev = this.lookup(sa, sb);
      if (this.collidePair(sa, sb, a, bb, cacheGeometry ? prev : -1) > 0) this.addManifold(ctx, sa, sb, a, bb, -1, -1, prev);
    }
    if (groundHeight !== null) {
      for (let s = 0; s < shapes.length; s++) {
        const sh = shapes[s]!;
        if (!sh.dynamic) continue;
        if (this.backend.collideGround(sh, groundHeight, SPECULATIVE_MARGIN, m) > 0) {
          this.ensure(this.count + 1);
          this.geo[this.count * G + G_OK] = 0; // the plane test is cheaper than the cache's
          this.addManifold(ctx, s, GROUND_SHAPE, sh.body, 0, ground.friction, ground.restitution, this.lookup(s, GROUND_SHAPE));
        }
      }
    }
    let points = 0;
    for (let c = 0; c < this.count; c++) points += this.data[c * M + COUNT]!;
    this.pointCount = points;
    return 3 * points;
  }

  private addManifold(ctx: StepContext, sa: number, sb: number, a: number, bb: number, mu: number, e: number, prev: number): void {
    const m = this.manifold, b = this.bodies;
    this.ensure(this.count + 1);
    const D = this.data, o = this.count * M;
    this.count++;
    D[o + A] = a; D[o + B] = bb; D[o + SHAPE_A] = sa; D[o + SHAPE_B] = sb;
    D[o + MU] = Math.sqrt(b.friction[a]! * (mu < 0 ? b.friction[bb]! : mu));
    D[o + E] = Math.max(b.restitution[a]!, e < 0 ? b.restitution[bb]! : e);
    const nx = m.normal[0]!, ny = m.normal[1]!, nz = m.normal[2]!;
    D[o + NX] = nx; D[o + NX + 1] = ny; D[o + NX + 2] = nz;
    // Tangent basis: t1 ⊥ n chosen from the smallest |n| component (deterministic, continuous for a fixed n).
    let t1x: number, t1y: number, t1z: number;
    if (Math.abs(nx) < 0.57735) { t1x = 0; t1y = nz; t1z = -ny; } else { t1x = nz; t1y = 0; t1z = -nx; }
    const tl = 1 / Math.sqrt(t1x * t1x + t1y * t1y + t1z * t1z);
    t1x *= tl; t1y *= tl; t1z *= tl;
    const t2x = ny * t1z - nz * t1y, t2y = nz * t1x - nx * t1z, t2z = nx * t1y - ny * t1x;
    D[o + T1] = t1x; D[o + T1 + 1] = t1y; D[o + T1 + 2] = t1z;
    D[o + T2] = t2x; D[o + T2 + 1] = t2y; D[o + T2 + 2] = t2z;
    D[o + COUNT] = m.count;
    const p = b.p, v = b.v, w = b.w, a3 = 3 * a, b3 = 3 * bb;
    const I = b.invIw, oa = 9 * a, ob = 9 * bb, km = b.invMass[a]! + b.invMass[bb]!;
    const a0 = I[oa]!, a1 = I[oa + 1]!, a2 = I[oa + 2]!, a3_ = I[oa + 3]!, a4 = I[oa + 4]!, a5 = I[oa + 5]!, a6 = I[oa + 6]!, a7 = I[oa + 7]!, a8 = I[oa + 8]!;
    const b0 = I[ob]!, b1 = I[ob + 1]!, b2 = I[ob + 2]!, b3_ = I[ob + 3]!, b4 = I[ob + 4]!, b5 = I[ob + 5]!, b6 = I[ob + 6]!, b7 = I[ob + 7]!, b8 = I[ob + 8]!;
    for (let k = 0; k < m.count; k++) {
      const q = o + P0 + P * k;
      // Contact point: midway between the two surfaces.
      const cx = 0.5 * (m.pointA[3 * k]! + m.pointB[3 * k]!), cy = 0.5 * (m.pointA[3 * k + 1]! + m.pointB[3 * k + 1]!), cz = 0.5 * (m.pointA[3 * k + 2]! + m.pointB[3 * k + 2]!);
      D[q + PX] = cx; D[q + PX + 1] = cy; D[q + PX + 2] = cz;
      const rax = cx - p[a3]!, ray = cy - p[a3 + 1]!, raz = cz - p[a3 + 2]!;
      const rbx = cx - p[b3]!, rby = cy - p[b3 + 1]!, rbz = cz - p[b3 + 2]!;
      // Rows: normal, tangent 1, tangent 2. Per row CA = r_A×d, IA = I_A⁻¹·CA, CB, IB and the effective mass
      // em = 1 / (m_A⁻¹ + m_B⁻¹ + CA·IA + CB·IB), with both inverse inertias in locals.
      for (let t = 0; t < 3; t++) {
        const dx = t === 0 ? nx : t === 1 ? t1x : t2x, dy = t === 0 ? ny : t === 1 ? t1y : t2y, dz = t === 0 ? nz : t === 1 ? t1z : t2z;
        const r = q + ROWS + t * ROW;
        let em = km;
        const cax = ray * dz - raz * dy, cay = raz * dx - rax * dz, caz = rax * dy - ray * dx;
        const iax = a0 * cax + a1 * cay + a2 * caz, iay = a3_ * cax + a4 * cay + a5 * caz, iaz = a6 * cax + a7 * cay + a8 * caz;
        D[r + CA] = cax; D[r + CA + 1] = cay; D[r + CA + 2] = caz;
        D[r + IA] = iax; D[r + IA + 1] = iay; D[r + IA + 2] = iaz;
        em += cax * iax + cay * iay + caz * iaz;
        const cbx = rby * dz - rbz * dy, cby = rbz * dx - rbx * dz, cbz = rbx * dy - rby * dx;
        const ibx = b0 * cbx + b1 * cby + b2 * cbz, iby = b3_ * cbx + b4 * cby + b5 * cbz, ibz = b6 * cbx + b7 * cby + b8 * cbz;
        D[r + CB] = cbx; D[r + CB + 1] = cby; D[r + CB + 2] = cbz;
        D[r + IB] = ibx; D[r + IB + 1] = iby; D[r + IB + 2] = ibz;
        em += cbx * ibx + cby * iby + cbz * ibz;
        D[q + (t === 0 ? NMASS : t === 1 ? TMASS1 : TMASS2)] = em > 0 ? 1 / em : 0;
      }
      D[q + SEP] = -m.depth[k]!;
      const dvx = v[b3]! + (w[b3 + 1]! * rbz - w[b3 + 2]! * rby) - v[a3]! - (w[a3 + 1]! * raz - w[a3 + 2]! * ray);
      const dvy = v[b3 + 1]! + (w[b3 + 2]! * rbx - w[b3]! * rbz) - v[a3 + 1]! - (w[a3 + 2]! * rax - w[a3]! * raz);
      const dvz = v[b3 + 2]! + (w[b3]! * rby - w[b3 + 1]! * rbx) - v[a3 + 2]! - (w[a3]! * ray - w[a3 + 1]! * rax);
      D[q + RELV] = dvx * nx + dvy * ny + dvz * nz;
      D[q + MAXN] = 0;
      const fid = m.featureId[k]!;
      D[q + FID] = fid;
      D[q + NIMP] = 0; D[q + TIMP1] = 0; D[q + TIMP2] = 0;
      if (prev >= 0) {
        const po = prev * C, pc = this.prev[po + C_COUNT]!;
        for (let j = 0; j < pc; j++) {
          const pq = po + C_P0 + 4 * j;
          if (this.prev[pq] === fid) {
            D[q + NIMP] = this.prev[pq + 1]!; D[q + TIMP1] = this.prev[pq + 2]!; D[q + TIMP2] = this.prev[pq + 3]!;
            break;
          }
        }
      }
    }
    void ctx;
  }

  /** Apply impulse l along row r (direction d): A gets −, B gets +. */
  private apply(a: number, b: number, D: Float64Array, r: number, dx: number, dy: number, dz: number, l: number): void {
    const B = this.bodies, v = B.v, w = B.w;
    const ma = B.invMass[a]! * l, mb = B.invMass[b]! * l;
    const a3 = 3 * a, b3 = 3 * b;
    v[a3] = v[a3]! - ma * dx; v[a3 + 1] = v[a3 + 1]! - ma * dy; v[a3 + 2] = v[a3 + 2]! - ma * dz;
    v[b3] = v[b3]! + mb * dx; v[b3 + 1] = v[b3 + 1]! + mb * dy; v[b3 + 2] = v[b3 + 2]! + mb * dz;
    w[a3] = w[a3]! - l * D[r + IA]!; w[a3 + 1] = w[a3 + 1]! - l * D[r + IA + 1]!; w[a3 + 2] = w[a3 + 2]! - l * D[r + IA + 2]!;
    w[b3] = w[b3]! + l * D[r + IB]!; w[b3 + 1] = w[b3 + 1]! + l * D[r + IB + 1]!; w[b3 + 2] = w[b3 + 2]! + l * D[r + IB + 2]!;
  }

  /** Relative velocity along row r: (v_B − v_A)·d + ω_B·CB − ω_A·CA. */
  private relVel(a: number, b: number, D: Float64Array, r: number, dx: number, dy: number, dz: number): number {
    const v = this.bodies.v, w = this.bodies.w, a3 = 3 * a, b3 = 3 * b;
    return (v[b3]! - v[a3]!) * dx + (v[b3 + 1]! - v[a3 + 1]!) * dy + (v[b3 + 2]! - v[a3 + 2]!) * dz
      + w[b3]! * D[r + CB]! + w[b3 + 1]! * D[r + CB + 1]! + w[b3 + 2]! * D[r + CB + 2]!
      - w[a3]! * D[r + CA]! - w[a3 + 1]! * D[r + CA + 1]! - w[a3 + 2]! * D[r + CA + 2]!;
  }

  warmStart(_ctx: StepContext): void {
    const D = this.data, v = this.bodies.v, w = this.bodies.w, im = this.bodies.invMass;
    for (let c = 0; c < this.count; c++) {
      const o = c * M, a = D[o + A]!, b = D[o + B]!, n = D[o + COUNT]!;
      const a3 = 3 * a, b3 = 3 * b, ma = im[a]!, mb = im[b]!;
      let vax = v[a3]!, vay = v[a3 + 1]!, vaz = v[a3 + 2]!, wax = w[a3]!, way = w[a3 + 1]!, waz = w[a3 + 2]!;
      let vbx = v[b3]!, vby = v[b3 + 1]!, vbz = v[b3 + 2]!, wbx = w[b3]!, wby = w[b3 + 1]!, wbz = w[b3 + 2]!;
      for (let k = 0; k < n; k++) {
        const q = o + P0 + P * k;
        // Normal, tangent 1, tangent 2 impulses, each applied as apply() did (same operation order).
        for (let t = 0; t < 3; t++) {
          const d = o + (t === 0 ? NX : t === 1 ? T1 : T2), r = q + ROWS + t * ROW;
          const l = D[q + (t === 0 ? NIMP : t === 1 ? TIMP1 : TIMP2)]!;
          const dx = D[d]!, dy = D[d + 1]!, dz = D[d + 2]!, la = ma * l, lb = mb * l;
          vax = vax - la * dx; vay = vay - la * dy; vaz = vaz - la * dz;
          vbx = vbx + lb * dx; vby = vby + lb * dy; vbz = vbz + lb * dz;
          wax = wax - l * D[r + IA]!; way = way - l * D[r + IA + 1]!; waz = waz - l * D[r + IA + 2]!;
          wbx = wbx + l * D[r + IB]!; wby = wby + l * D[r + IB + 1]!; wbz = wbz + l * D[r + IB + 2]!;
        }
      }
      v[a3] = vax; v[a3 + 1] = vay; v[a3 + 2] = vaz; w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz;
      v[b3] = vbx; v[b3 + 1] = vby; v[b3 + 2] = vbz; w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
    }
  }

  /**
   * Normal rows, then friction with the fresh normal impulse. Separation s = s₀ + (Δp_B − Δp_A)·n follows
   * the bodies since prepare, so the relax pass (after integration) sees the real gap.
   * Normal:  s > 0 → bias s/h (speculative);  s < 0 and useBias → soft push-out
   *          Δλ = −massScale·m·(v_n + max(biasRate·(s + slop), −vmax)) − impulseScale·λ;  λ ≥ 0.
   * Friction: |λ_t,i| ≤ μ·λ_n.
   */
  solve(ctx: StepContext, useBias: boolean): void { this.solveList(ctx, null, 0, this.count, useBias); }

  /** Body slots of manifold c (for the island builder). */
  bodyA(c: number): number { return this.data[c * M + A]!; }
  bodyB(c: number): number { return this.data[c * M + B]!; }

  /**
   * solve() over the manifolds order[from..to) (or from..to when order is null), in that order.
   *
   * Written for the length of the dependency chain, not the operation count (the pile spends most of its
   * step here, and each row waits for the velocities the previous row wrote): the relative velocity is
   * summed as a balanced tree (depth 4 instead of a left-to-right chain of 8 additions), the normal's
   * m⁻¹·n products are taken once per manifold, and the velocity update is unconditional (Δλ = 0 adds 0).
   * Same rows, same order, same clamps; only the rounding of the sums differs from a left-to-right sum.
   */
  solveList(ctx: StepContext, order: Int32Array | null, from: number, to: number, useBias: boolean): void {
    const D = this.data, p = this.bodies.p, p0 = this.p0, soft = this.soft, v = this.bodies.v, w = this.bodies.w, im = this.bodies.invMass;
    const invH = ctx.invH, biasRate = soft.biasRate, softMass = soft.massScale, softImpulse = soft.impulseScale;
    for (let i = from; i < to; i++) {
      const c = order === null ? i : order[i]!;
      const o = c * M, a = D[o + A]!, b = D[o + B]!, n = D[o + COUNT]!, mu = D[o + MU]!;
      const nx = D[o + NX]!, ny = D[o + NX + 1]!, nz = D[o + NX + 2]!;
      const a3 = 3 * a, b3 = 3 * b, ma = im[a]!, mb = im[b]!;
      // The largest normal impulse is read only by applyRestitution, which skips manifolds with e = 0.
      const trackMax = D[o + E]! !== 0;
      const manx = ma * nx, many = ma * ny, manz = ma * nz, mbnx = mb * nx, mbny = mb * ny, mbnz = mb * nz;
      // The two bodies' velocities live in locals for the whole manifold (written back once).
      let vax = v[a3]!, vay = v[a3 + 1]!, vaz = v[a3 + 2]!, wax = w[a3]!, way = w[a3 + 1]!, waz = w[a3 + 2]!;
      let vbx = v[b3]!, vby = v[b3 + 1]!, vbz = v[b3 + 2]!, wbx = w[b3]!, wby = w[b3 + 1]!, wbz = w[b3 + 2]!;
      const ds = (p[b3]! - p0[b3]! - p[a3]! + p0[a3]!) * nx + (p[b3 + 1]! - p0[b3 + 1]! - p[a3 + 1]! + p0[a3 + 1]!) * ny
        + (p[b3 + 2]! - p0[b3 + 2]! - p[a3 + 2]! + p0[a3 + 2]!) * nz;
      for (let k = 0; k < n; k++) {
        const q = o + P0 + P * k, r = q + ROWS;
        const s = D[q + SEP]! + ds;
        let bias = 0, massScale = 1, impulseScale = 0;
        if (s > 0) bias = s * invH;
        else if (useBias) {
          bias = Math.max(biasRate * Math.min(0, s + LINEAR_SLOP), -MAX_PUSH_VELOCITY);
          massScale = softMass; impulseScale = softImpulse;
        }
        const old = D[q + NIMP]!, m = massScale * D[q + NMASS]!;
        // Everything that does not depend on the velocities, ahead of the chain.
        const base = old - impulseScale * old - m * bias;
        const vn = (((vbx - vax) * nx + (vby - vay) * ny) + ((vbz - vaz) * nz + wbx * D[r + CB]!))
          + ((wby * D[r + CB + 1]! + wbz * D[r + CB + 2]!) - ((wax * D[r + CA]! + way * D[r + CA + 1]!) + waz * D[r + CA + 2]!));
        const acc = Math.max(base - m * vn, 0);
        D[q + NIMP] = acc;
        if (trackMax && acc > D[q + MAXN]!) D[q + MAXN] = acc;
        const l = acc - old;
        vax -= manx * l; vay -= many * l; vaz -= manz * l;
        vbx += mbnx * l; vby += mbny * l; vbz += mbnz * l;
        wax -= l * D[r + IA]!; way -= l * D[r + IA + 1]!; waz -= l * D[r + IA + 2]!;
        wbx += l * D[r + IB]!; wby += l * D[r + IB + 1]!; wbz += l * D[r + IB + 2]!;
      }
      const t1x = D[o + T1]!, t1y = D[o + T1 + 1]!, t1z = D[o + T1 + 2]!, t2x = D[o + T2]!, t2y = D[o + T2 + 1]!, t2z = D[o + T2 + 2]!;
      for (let k = 0; k < n; k++) {
        const q = o + P0 + P * k;
        // −lim taken once and always (as `acc < -lim ? -lim : acc` the second negation ran only when a
        // friction row first saturated negatively, and the optimised sweep deoptimised there for want of
        // type feedback: a bench's first ~45 timed steps in baseline code).
        const lim = mu * D[q + NIMP]!, nlim = -lim;
        // Tangent 1 then tangent 2 (unrolled).
        {
          const r = q + ROWS + ROW;
          const vt = (((vbx - vax) * t1x + (vby - vay) * t1y) + ((vbz - vaz) * t1z + wbx * D[r + CB]!))
            + ((wby * D[r + CB + 1]! + wbz * D[r + CB + 2]!) - ((wax * D[r + CA]! + way * D[r + CA + 1]!) + waz * D[r + CA + 2]!));
          const old = D[q + TIMP1]!;
          let acc = old - D[q + TMASS1]! * vt;
          acc = acc > lim ? lim : acc < nlim ? nlim : acc;
          D[q + TIMP1] = acc;
          const l = acc - old, la = ma * l, lb = mb * l;
          vax -= la * t1x; vay -= la * t1y; vaz -= la * t1z;
          vbx += lb * t1x; vby += lb * t1y; vbz += lb * t1z;
          wax -= l * D[r + IA]!; way -= l * D[r + IA + 1]!; waz -= l * D[r + IA + 2]!;
          wbx += l * D[r + IB]!; wby += l * D[r + IB + 1]!; wbz += l * D[r + IB + 2]!;
        }
        {
          const r = q + ROWS + 2 * ROW;
          const vt = (((vbx - vax) * t2x + (vby - vay) * t2y) + ((vbz - vaz) * t2z + wbx * D[r + CB]!))
            + ((wby * D[r + CB + 1]! + wbz * D[r + CB + 2]!) - ((wax * D[r + CA]! + way * D[r + CA + 1]!) + waz * D[r + CA + 2]!));
          const old = D[q + TIMP2]!;
          let acc = old - D[q + TMASS2]! * vt;
          acc = acc > lim ? lim : acc < nlim ? nlim : acc;
          D[q + TIMP2] = acc;
          const l = acc - old, la = ma * l, lb = mb * l;
          vax -= la * t2x; vay -= la * t2y; vaz -= la * t2z;
          vbx += lb * t2x; vby += lb * t2y; vbz += lb * t2z;
          wax -= l * D[r + IA]!; way -= l * D[r + IA + 1]!; waz -= l * D[r + IA + 2]!;
          wbx += l * D[r + IB]!; wby += l * D[r + IB + 1]!; wbz += l * D[r + IB + 2]!;
        }
      }
      v[a3] = vax; v[a3 + 1] = vay; v[a3 + 2] = vaz; w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz;
      v[b3] = vbx; v[b3 + 1] = vby; v[b3 + 2] = vbz; w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
    }
  }

  /** Stage "restitution": points that closed faster than the threshold bounce back at e·|v_n|. */
  applyRestitution(_ctx: StepContext): void {
    const D = this.data;
    for (let c = 0; c < this.count; c++) {
      const o = c * M, e = D[o + E]!;
      if (e === 0) continue;
      const a = D[o + A]!, b = D[o + B]!, n = D[o + COUNT]!;
      const nx = D[o + NX]!, ny = D[o + NX + 1]!, nz = D[o + NX + 2]!;
      for (let k = 0; k < n; k++) {
        const q = o + P0 + P * k;
        if (D[q + RELV]! > -RESTITUTION_THRESHOLD || D[q + MAXN]! === 0) continue;
        const vn = this.relVel(a, b, D, q + ROWS, nx, ny, nz);
        const old = D[q + NIMP]!;
        const acc = Math.max(old - D[q + NMASS]! * (vn + e * D[q + RELV]!), 0);
        D[q + NIMP] = acc;
        if (acc !== old) this.apply(a, b, D, q + ROWS, nx, ny, nz, acc - old);
      }
    }
  }

  /** Stage "store impulses": this substep's manifolds become the warm-start cache. */
  store(): void {
    if (this.prev.length < this.count * C) this.prev = new Float64Array(Math.max(this.count * C, 2 * this.prev.length));
    const d = this.data, prev = this.prev;
    for (let c = 0; c < this.count; c++) {
      const o = c * M, po = c * C, n = d[o + COUNT]!;
      prev[po + C_SA] = d[o + SHAPE_A]!; prev[po + C_SB] = d[o + SHAPE_B]!; prev[po + C_COUNT] = n;
      for (let k = 0; k < n; k++) {
        const q = o + P0 + P * k, pq = po + C_P0 + 4 * k;
        prev[pq] = d[q + FID]!; prev[pq + 1] = d[q + NIMP]!; prev[pq + 2] = d[q + TIMP1]!; prev[pq + 3] = d[q + TIMP2]!;
      }
    }
    this.prevCount = this.count;
    // The pair geometry needs no copy: this substep's records become the stored ones.
    const g = this.prevGeo;
    this.prevGeo = this.geo;
    this.geo = g.length >= this.prevGeo.length ? g : new Float64Array(this.prevGeo.length);
    this.rebuildHash();
  }

  private rebuildHash(): void {
    let cap = this.hashKeys.length;
    if (cap < 2 * this.prevCount) {
      while (cap < 2 * this.prevCount) cap *= 2;
      this.hashKeys = new Float64Array(cap); this.hashVals = new Int32Array(cap);
    }
    this.hashVals.fill(-1);
    const mask = cap - 1;
    for (let c = 0; c < this.prevCount; c++) {
      const sa = this.prev[c * C + C_SA]!, sb = this.prev[c * C + C_SB]!, key = sa * KEY_SCALE + sb;
      let h = hashOf(sa, sb) & mask;
      while (this.hashVals[h] !== -1) h = (h + 1) & mask;
      this.hashKeys[h] = key; this.hashVals[h] = c;
    }
  }

  private lookup(sa: number, sb: number): number {
    if (this.prevCount === 0) return -1;
    const key = sa * KEY_SCALE + sb, mask = this.hashKeys.length - 1;
    let h = hashOf(sa, sb) & mask;
    while (this.hashVals[h] !== -1) {
      if (this.hashKeys[h] === key) return this.hashVals[h]!;
      h = (h + 1) & mask;
    }
    return -1;
  }

  resetWarmStart(): void {
    this.prevCount = 0;
    for (let c = 0; c < this.count; c++) {
      const o = c * M;
      for (let k = 0; k < 4; k++) { const q = o + P0 + P * k; this.data[q + NIMP] = 0; this.data[q + TIMP1] = 0; this.data[q + TIMP2] = 0; }
    }
    this.hashVals.fill(-1);
  }

  points(): ContactView[] {
    const D = this.data, out: ContactView[] = [];
    for (let c = 0; c < this.count; c++) {
      const o = c * M;
      for (let k = 0; k < D[o + COUNT]!; k++) {
        const q = o + P0 + P * k;
        out.push({
          a: D[o + A]!, b: D[o + B]!, point: [D[q + PX]!, D[q + PX + 1]!, D[q + PX + 2]!],
          normal: [D[o + NX]!, D[o + NX + 1]!, D[o + NX + 2]!], depth: -D[q + SEP]!, normalImpulse: D[q + NIMP]!,
        });
      }
    }
    return out;
  }

  snapshot(): unknown {
    return {
      data: this.data.slice(0, this.count * M), count: this.count, prev: this.prev.slice(0, this.prevCount * C), prevCount: this.prevCount,
      prevGeo: this.prevGeo.slice(0, this.prevCount * G), pointCount: this.pointCount,
    };
  }

  restore(snap: unknown, _bodies: BodyStore): void {
    const s = snap as { data: Float64Array; count: number; prev: Float64Array; prevCount: number; prevGeo: Float64Array; pointCount: number };
    this.ensure(s.count);
    this.data.set(s.data);
    this.count = s.count;
    if (this.prev.length < s.prev.length) this.prev = new Float64Array(s.prev.length);
    this.prev.set(s.prev);
    if (this.prevGeo.length < s.prevGeo.length) this.prevGeo = new Float64Array(s.prevGeo.length);
    this.prevGeo.set(s.prevGeo);
    this.prevCount = s.prevCount;
    this.pointCount = s.pointCount;
    this.rebuildHash();
    for (let i = 1; i < this.bodies.count; i++) if (this.bodies.alive[i]) this.syncBody(i);
  }

  /** Closest hit among the shapes (AABB slab test first) and the ground plane; body 0 = the ground. */
  raycast(origin: readonly number[], direction: readonly number[], maxDistance: number, groundHeight: number | null):
  { body: number; point: [number, number, number]; normal: [number, number, number]; distance: number } | null {
    let best: { body: number; point: [number, number, number]; normal: [number, number, number]; distance: number } | null = null;
    let bestD = maxDistance;
    const hit = rayHit;
    const l = Math.hypot(direction[0]!, direction[1]!, direction[2]!);
    if (!(l > 0)) return null;
    const dx = direction[0]! / l, dy = direction[1]! / l, dz = direction[2]! / l;
    for (const s of this.shapes) {
      if (!slab(s.aabb, origin, dx, dy, dz, bestD)) continue;
      if (this.backend.raycastShape(s, origin, direction, bestD, hit) && hit.distance <= bestD) {
        bestD = hit.distance;
        best = { body: s.body, point: [hit.point[0]!, hit.point[1]!, hit.point[2]!], normal: [hit.normal[0]!, hit.normal[1]!, hit.normal[2]!], distance: hit.distance };
      }
    }
    if (groundHeight !== null && this.backend.raycastGround(groundHeight, origin, direction, bestD, hit) && hit.distance <= bestD) {
      best = { body: 0, point: [hit.point[0]!, hit.point[1]!, hit.point[2]!], normal: [hit.normal[0]!, hit.normal[1]!, hit.normal[2]!], distance: hit.distance };
    }
    return best;
  }
}

const originScratch = new Float64Array(3);
const rayHit: RayHitData = { distance: 0, point: new Float64Array(3), normal: new Float64Array(3) };

function hashOf(sa: number, sb: number): number {
  // Shape indices are < 2²¹: mix them as int32s (Knuth multiplicative). From the two indices rather than
  // the < 2⁴² key sa·2²¹ + sb, whose % and / by 2³² are floating-point calls (fmod) in V8.
  return (Math.imul(sb ^ Math.imul(sa, 0x27d4eb2d), 0x9e3779b1) >>> 0);
}

function slab(aabb: Float64Array, o: readonly number[], dx: number, dy: number, dz: number, maxD: number): boolean {
  let t0 = 0, t1 = maxD;
  const d = [dx, dy, dz];
  for (let i = 0; i < 3; i++) {
    const di = d[i]!, oi = o[i]!;
    if (Math.abs(di) < 1e-15) { if (oi < aabb[i]! || oi > aabb[i + 3]!) return false; continue; }
    let ta = (aabb[i]! - oi) / di, tb = (aabb[i + 3]! - oi) / di;
    if (ta > tb) { const t = ta; ta = tb; tb = t; }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  return true;
}
