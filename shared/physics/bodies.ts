/**
 * Hot body state as typed arrays (structure of arrays), indexed by body slot. Slot 0 is the static "world"
 * body: contacts with the ground and joints to the world point at it, so the solver never branches on a
 * missing body. Positions are of the CENTRE OF MASS; the body origin is p − R·localCentroid.
 *
 * Split by temperature as in Box2D v3: velocities (v, w) and world inverse inertia are touched by every
 * row; pose and accumulators once per substep; names/shapes live in plain arrays (bookkeeping).
 */
import type { ShapeDesc } from './types';

export const DYNAMIC = 0, KINEMATIC = 1, STATIC = 2;

export class BodyStore {
  capacity = 0;
  /** High-water mark: slots [0, count) have been used. */
  count = 1;
  alive = new Uint8Array(0);
  type = new Uint8Array(0);
  generation = new Uint32Array(0);
  p = new Float64Array(0);
  q = new Float64Array(0);
  v = new Float64Array(0);
  w = new Float64Array(0);
  /**
   * ω₁ − ω_m of the last gyroscopic midpoint step (world frame): integratePositions turns the body with
   * ω − wGyro, so a body nothing else touched turns with the midpoint ω_m. Transient within a substep.
   */
  wGyro = new Float64Array(0);
  mass = new Float64Array(0);
  invMass = new Float64Array(0);
  /** Body-frame inertia about the centroid and its inverse, row-major 3×3 (kg·m², 1/(kg·m²)). */
  Il = new Float64Array(0);
  invIl = new Float64Array(0);
  /** World inverse inertia R·I⁻¹·Rᵀ, refreshed every substep. */
  invIw = new Float64Array(0);
  localCom = new Float64Array(0);
  force = new Float64Array(0);
  torque = new Float64Array(0);
  linDamp = new Float64Array(0);
  angDamp = new Float64Array(0);
  gravityScale = new Float64Array(0);
  friction = new Float64Array(0);
  restitution = new Float64Array(0);
  group = new Uint32Array(0);
  mask = new Uint32Array(0);
  names: string[] = [];
  shapes: (readonly ShapeDesc[])[] = [];
  /** Free slots, reused lowest-first so the layout (and thus the solve order) is deterministic. */
  free: number[] = [];

  constructor(initialCapacity = 64) {
    this.grow(Math.max(2, initialCapacity));
    // The world body: static, infinite mass, at the origin.
    this.alive[0] = 1; this.type[0] = STATIC; this.q[3] = 1; this.names[0] = 'world'; this.shapes[0] = [];
  }

  grow(capacity: number): void {
    const g = <T extends Float64Array | Uint8Array | Uint32Array>(a: T, stride: number): T => {
      const n = new (a.constructor as new (n: number) => T)(capacity * stride);
      n.set(a);
      return n;
    };
    this.alive = g(this.alive, 1); this.type = g(this.type, 1); this.generation = g(this.generation, 1);
    this.p = g(this.p, 3); this.q = g(this.q, 4); this.v = g(this.v, 3); this.w = g(this.w, 3); this.wGyro = g(this.wGyro, 3);
    this.mass = g(this.mass, 1); this.invMass = g(this.invMass, 1);
    this.Il = g(this.Il, 9); this.invIl = g(this.invIl, 9); this.invIw = g(this.invIw, 9); this.localCom = g(this.localCom, 3);
    this.force = g(this.force, 3); this.torque = g(this.torque, 3);
    this.linDamp = g(this.linDamp, 1); this.angDamp = g(this.angDamp, 1); this.gravityScale = g(this.gravityScale, 1);
    this.friction = g(this.friction, 1); this.restitution = g(this.restitution, 1);
    this.group = g(this.group, 1); this.mask = g(this.mask, 1);
    this.capacity = capacity;
  }

  allocate(): number {
    if (this.free.length > 0) {
      this.free.sort((a, b) => b - a);
      return this.free.pop()!;
    }
    if (this.count >= this.capacity) this.grow(this.capacity * 2);
    return this.count++;
  }

  release(i: number): void {
    this.alive[i] = 0;
    this.generation[i] = (this.generation[i]! + 1) >>> 0;
    this.invMass[i] = 0; this.mass[i] = 0;
    this.v.fill(0, 3 * i, 3 * i + 3); this.w.fill(0, 3 * i, 3 * i + 3); this.wGyro.fill(0, 3 * i, 3 * i + 3);
    this.Il.fill(0, 9 * i, 9 * i + 9); this.invIl.fill(0, 9 * i, 9 * i + 9); this.invIw.fill(0, 9 * i, 9 * i + 9);
    this.names[i] = ''; this.shapes[i] = [];
    this.free.push(i);
  }
}

/** invIw = R·invIl·Rᵀ for every dynamic body (statics and kinematics keep zeros). */
export function updateWorldInertia(b: BodyStore): void {
  const { q, invIl, invIw, type, alive } = b;
  for (let i = 1; i < b.count; i++) {
    if (alive[i] === 0 || type[i] !== DYNAMIC) continue;
    const x = q[4 * i]!, y = q[4 * i + 1]!, z = q[4 * i + 2]!, w = q[4 * i + 3]!;
    const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
    const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
    const r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
    const o = 9 * i;
    const a00 = invIl[o]!, a01 = invIl[o + 1]!, a02 = invIl[o + 2]!;
    const a11 = invIl[o + 4]!, a12 = invIl[o + 5]!, a22 = invIl[o + 8]!;
    // T = R·A (A symmetric)
    const t00 = r00 * a00 + r01 * a01 + r02 * a02, t01 = r00 * a01 + r01 * a11 + r02 * a12, t02 = r00 * a02 + r01 * a12 + r02 * a22;
    const t10 = r10 * a00 + r11 * a01 + r12 * a02, t11 = r10 * a01 + r11 * a11 + r12 * a12, t12 = r10 * a02 + r11 * a12 + r12 * a22;
    const t20 = r20 * a00 + r21 * a01 + r22 * a02, t21 = r20 * a01 + r21 * a11 + r22 * a12, t22 = r20 * a02 + r21 * a12 + r22 * a22;
    // W = T·Rᵀ
    const w00 = t00 * r00 + t01 * r01 + t02 * r02, w01 = t00 * r10 + t01 * r11 + t02 * r12, w02 = t00 * r20 + t01 * r21 + t02 * r22;
    const w11 = t10 * r10 + t11 * r11 + t12 * r12, w12 = t10 * r20 + t11 * r21 + t12 * r22, w22 = t20 * r20 + t21 * r21 + t22 * r22;
    invIw[o] = w00; invIw[o + 1] = w01; invIw[o + 2] = w02;
    invIw[o + 3] = w01; invIw[o + 4] = w11; invIw[o + 5] = w12;
    invIw[o + 6] = w02; invIw[o + 7] = w12; invIw[o + 8] = w22;
  }
}

/** Newton iterations of the gyroscopic midpoint solve (it converges quadratically: 2–3 at game rates). */
const GYRO_NEWTON_MAX = 6;

/**
 * Stage "integrate velocities": v += h·(g·gravityScale + F/m), ω += h·I⁻¹·τ, damping v *= 1/(1 + h·c)
 * (unconditionally stable, as Box2D/Jolt), then the gyroscopic term of Euler's equations in the body frame,
 * L̇ = −ω × L (L = I·ω), by the IMPLICIT MIDPOINT rule:
 *     L₁ − L₀ = −h·ω_m × L_m,   L_m = (L₀ + L₁)/2,  ω_m = I⁻¹·L_m,
 * solved for ω_m by Newton's method on g(ω_m) = I·(ω_m − ω₀) + (h/2)·ω_m × I·ω_m = 0 with
 * J = I + (h/2)·([ω_m]×·I − [I·ω_m]×), then ω₁ = 2·ω_m − ω₀. Both quadratic invariants of the free rigid
 * body are kept exactly (to the Newton tolerance): (L₁ − L₀)·L_m = 0 gives |L₁| = |L₀|, (L₁ − L₀)·ω_m = 0
 * gives ½·L₁·ω₁ = ½·L₀·ω₀ — a box tumbling about its middle axis keeps |L| and its kinetic energy and flips
 * on time (tests/unit/physics/gyroscopic.test.ts). The orientation update that follows turns the body with
 * ω_m (wGyro holds ω₁ − ω_m; see integratePositions), which keeps the world vector L too. This is WorldSettings.gyroscopic 'conserving' (the default). 'damped' (`conserving` false)
 * is the previous step, one Newton step of implicit Euler (Catto, GDC 2015; Bullet's): it loses 3–11 % of
 * |L| and 6–20 % of the energy of that box in 5 s at 60 Hz, acting as a damping of off-axis spin; rigs tuned
 * on it keep it (rig simulation.gyroscopic absent). The explicit form gains energy.
 */
export function integrateVelocities(b: BodyStore, h: number, gx: number, gy: number, gz: number, conserving = true): void {
  const { v, w, wGyro, q, force, torque, invMass, invIw, Il, linDamp, angDamp, gravityScale, type, alive } = b;
  const hh = 0.5 * h;
  for (let i = 1; i < b.count; i++) {
    if (alive[i] === 0 || type[i] !== DYNAMIC) continue;
    const im = invMass[i]!, gs = gravityScale[i]!;
    const i3 = 3 * i, o = 9 * i;
    const ld = 1 / (1 + h * linDamp[i]!), ad = 1 / (1 + h * angDamp[i]!);
    v[i3] = (v[i3]! + h * (gx * gs + im * force[i3]!)) * ld;
    v[i3 + 1] = (v[i3 + 1]! + h * (gy * gs + im * force[i3 + 1]!)) * ld;
    v[i3 + 2] = (v[i3 + 2]! + h * (gz * gs + im * force[i3 + 2]!)) * ld;
    const tx = torque[i3]!, ty = torque[i3 + 1]!, tz = torque[i3 + 2]!;
    let wx = (w[i3]! + h * (invIw[o]! * tx + invIw[o + 1]! * ty + invIw[o + 2]! * tz)) * ad;
    let wy = (w[i3 + 1]! + h * (invIw[o + 3]! * tx + invIw[o + 4]! * ty + invIw[o + 5]! * tz)) * ad;
    let wz = (w[i3 + 2]! + h * (invIw[o + 6]! * tx + invIw[o + 7]! * ty + invIw[o + 8]! * tz)) * ad;
    // Gyroscopic step in body axes: ω_b = Rᵀ·ω.
    const x = q[4 * i]!, y = q[4 * i + 1]!, z = q[4 * i + 2]!, s = q[4 * i + 3]!;
    const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * s), r02 = 2 * (x * z + y * s);
    const r10 = 2 * (x * y + z * s), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * s);
    const r20 = 2 * (x * z - y * s), r21 = 2 * (y * z + x * s), r22 = 1 - 2 * (x * x + y * y);
    const bx = r00 * wx + r10 * wy + r20 * wz, by = r01 * wx + r11 * wy + r21 * wz, bz = r02 * wx + r12 * wy + r22 * wz;
    const i00 = Il[o]!, i01 = Il[o + 1]!, i02 = Il[o + 2]!, i11 = Il[o + 4]!, i12 = Il[o + 5]!, i22 = Il[o + 8]!;
    if (!conserving) {
      // 'damped': one Newton step of implicit Euler, I·(ω − ω₀) + h·ω × I·ω = 0 (Catto, GDC 2015).
      const lx = i00 * bx + i01 * by + i02 * bz, ly = i01 * bx + i11 * by + i12 * bz, lz = i02 * bx + i12 * by + i22 * bz;
      // f = h·ω × Iω
      const fx = h * (by * lz - bz * ly), fy = h * (bz * lx - bx * lz), fz = h * (bx * ly - by * lx);
      // J = I + h·([ω]×·I − [Iω]×)
      const j00 = i00 + h * (by * i02 - bz * i01), j01 = i01 + h * (by * i12 - bz * i11 + lz), j02 = i02 + h * (by * i22 - bz * i12 - ly);
      const j10 = i01 + h * (bz * i00 - bx * i02 - lz), j11 = i11 + h * (bz * i01 - bx * i12), j12 = i12 + h * (bz * i02 - bx * i22 + lx);
      const j20 = i02 + h * (bx * i01 - by * i00 + ly), j21 = i12 + h * (bx * i11 - by * i01 - lx), j22 = i22 + h * (bx * i12 - by * i02);
      const c00 = j11 * j22 - j12 * j21, c01 = j02 * j21 - j01 * j22, c02 = j01 * j12 - j02 * j11;
      const det = j00 * c00 + j10 * c01 + j20 * c02;
      if (Math.abs(det) > 1e-300) {
        const inv = 1 / det;
        const c10 = j12 * j20 - j10 * j22, c11 = j00 * j22 - j02 * j20, c12 = j02 * j10 - j00 * j12;
        const c20 = j10 * j21 - j11 * j20, c21 = j01 * j20 - j00 * j21, c22 = j00 * j11 - j01 * j10;
        const nbx = bx - inv * (c00 * fx + c01 * fy + c02 * fz);
        const nby = by - inv * (c10 * fx + c11 * fy + c12 * fz);
        const nbz = bz - inv * (c20 * fx + c21 * fy + c22 * fz);
        wx = r00 * nbx + r01 * nby + r02 * nbz; wy = r10 * nbx + r11 * nby + r12 * nbz; wz = r20 * nbx + r21 * nby + r22 * nbz;
      }
      w[i3] = wx; w[i3 + 1] = wy; w[i3 + 2] = wz;
      wGyro[i3] = 0; wGyro[i3 + 1] = 0; wGyro[i3 + 2] = 0;
      continue;
    }
    const l0x = i00 * bx + i01 * by + i02 * bz, l0y = i01 * bx + i11 * by + i12 * bz, l0z = i02 * bx + i12 * by + i22 * bz;
    // Newton on g(m) = I·m − L₀ + (h/2)·m × I·m, from m = ω_b.
    let mx = bx, my = by, mz = bz, solved = true;
    const tol = 1e-30 * (bx * bx + by * by + bz * bz);
    // The count is raised at the top of the body, so it runs on the first iteration too: as a for-loop's
    // `it++` it ran only when a body first needed a second Newton step (it starts to spin), and the
    // optimised stage deoptimised there for want of type feedback.
    let it = 0;
    while (it < GYRO_NEWTON_MAX) {
      it++;
      const lx = i00 * mx + i01 * my + i02 * mz, ly = i01 * mx + i11 * my + i12 * mz, lz = i02 * mx + i12 * my + i22 * mz;
      const fx = lx - l0x + hh * (my * lz - mz * ly), fy = ly - l0y + hh * (mz * lx - mx * lz), fz = lz - l0z + hh * (mx * ly - my * lx);
      // J = I + (h/2)·([m]×·I − [I·m]×)
      const j00 = i00 + hh * (my * i02 - mz * i01), j01 = i01 + hh * (my * i12 - mz * i11 + lz), j02 = i02 + hh * (my * i22 - mz * i12 - ly);
      const j10 = i01 + hh * (mz * i00 - mx * i02 - lz), j11 = i11 + hh * (mz * i01 - mx * i12), j12 = i12 + hh * (mz * i02 - mx * i22 + lx);
      const j20 = i02 + hh * (mx * i01 - my * i00 + ly), j21 = i12 + hh * (mx * i11 - my * i01 - lx), j22 = i22 + hh * (mx * i12 - my * i02);
      const c00 = j11 * j22 - j12 * j21, c01 = j02 * j21 - j01 * j22, c02 = j01 * j12 - j02 * j11;
      const det = j00 * c00 + j10 * c01 + j20 * c02;
      if (!(Math.abs(det) > 1e-300)) { solved = false; break; }
      const inv = 1 / det;
      const c10 = j12 * j20 - j10 * j22, c11 = j00 * j22 - j02 * j20, c12 = j02 * j10 - j00 * j12;
      const c20 = j10 * j21 - j11 * j20, c21 = j01 * j20 - j00 * j21, c22 = j00 * j11 - j01 * j10;
      const dx = inv * (c00 * fx + c01 * fy + c02 * fz), dy = inv * (c10 * fx + c11 * fy + c12 * fz), dz = inv * (c20 * fx + c21 * fy + c22 * fz);
      mx -= dx; my -= dy; mz -= dz;
      if (dx * dx + dy * dy + dz * dz <= tol) break;
    }
    if (solved && Number.isFinite(mx + my + mz)) {
      const nbx = 2 * mx - bx, nby = 2 * my - by, nbz = 2 * mz - bz;
      // The body will turn by C = cay(h·ω_m) (integratePositions), so its end-of-step ω in world axes is
      // C·R₀·ω_b1, not R₀·ω_b1: then R₁·L_b1 = R₀·L_b0 and the world L is kept, not only |L|.
      const mwx = r00 * mx + r01 * my + r02 * mz, mwy = r10 * mx + r11 * my + r12 * mz, mwz = r20 * mx + r21 * my + r22 * mz;
      const amx = hh * mwx, amy = hh * mwy, amz = hh * mwz;
      const ux = r00 * nbx + r01 * nby + r02 * nbz, uy = r10 * nbx + r11 * nby + r12 * nbz, uz = r20 * nbx + r21 * nby + r22 * nbz;
      const cx = amy * uz - amz * uy, cy = amz * ux - amx * uz, cz = amx * uy - amy * ux;
      const k = 2 / (1 + amx * amx + amy * amy + amz * amz);
      wx = ux + k * (cx + amy * cz - amz * cy); wy = uy + k * (cy + amz * cx - amx * cz); wz = uz + k * (cz + amx * cy - amy * cx);
      // ω₁ − ω_m in world axes: integratePositions turns the body with ω − wGyro.
      wGyro[i3] = wx - mwx; wGyro[i3 + 1] = wy - mwy; wGyro[i3 + 2] = wz - mwz;
    } else {
      wGyro[i3] = 0; wGyro[i3 + 1] = 0; wGyro[i3 + 2] = 0;
    }
    w[i3] = wx; w[i3 + 1] = wy; w[i3 + 2] = wz;
  }
}

/**
 * Stage "integrate positions": p += h·v; q += h/2·(ω̄,0)⊗q, renormalised — a rotation by 2·atan(h|ω̄|/2)
 * about ω̄, the Cayley map of h·ω̄. ω̄ = ω − wGyro: for a body the constraints did not touch that is the
 * gyroscopic step's midpoint ω_m, and then the turn is exactly the one the midpoint rule gave its body-frame
 * momentum, L_b1 = cay(−h·ω_m)·L_b0, so the world L = R·L_b is kept to round-off, not only |L| (the
 * direction wobbled by up to 3.1 % during a flip when the turn used ω₁). Kinematic bodies move too (their
 * velocity was derived from the requested transforms).
 */
export function integratePositions(b: BodyStore, h: number): void {
  const { p, q, v, w, wGyro, type, alive } = b;
  const hh = 0.5 * h;
  for (let i = 1; i < b.count; i++) {
    if (alive[i] === 0 || type[i] === STATIC) continue;
    const i3 = 3 * i, i4 = 4 * i;
    p[i3] = p[i3]! + h * v[i3]!;
    p[i3 + 1] = p[i3 + 1]! + h * v[i3 + 1]!;
    p[i3 + 2] = p[i3 + 2]! + h * v[i3 + 2]!;
    const qx = q[i4]!, qy = q[i4 + 1]!, qz = q[i4 + 2]!, qw = q[i4 + 3]!;
    if (type[i] === KINEMATIC) {
      const wx = w[i3]!, wy = w[i3 + 1]!, wz = w[i3 + 2]!;
      // Exact exponential map, so an animated body lands exactly on the transform it was sent to.
      const a = Math.sqrt(wx * wx + wy * wy + wz * wz) * h;
      if (a > 1e-12) {
        const k = Math.sin(0.5 * a) / (a / h), c = Math.cos(0.5 * a);
        const dx = wx * k, dy = wy * k, dz = wz * k;
        q[i4] = c * qx + dx * qw + dy * qz - dz * qy;
        q[i4 + 1] = c * qy - dx * qz + dy * qw + dz * qx;
        q[i4 + 2] = c * qz + dx * qy - dy * qx + dz * qw;
        q[i4 + 3] = c * qw - dx * qx - dy * qy - dz * qz;
      }
      continue;
    }
    const wx = w[i3]! - wGyro[i3]!, wy = w[i3 + 1]! - wGyro[i3 + 1]!, wz = w[i3 + 2]! - wGyro[i3 + 2]!;
    const nx = qx + hh * (wx * qw + wy * qz - wz * qy);
    const ny = qy + hh * (wy * qw + wz * qx - wx * qz);
    const nz = qz + hh * (wz * qw + wx * qy - wy * qx);
    const nw = qw - hh * (wx * qx + wy * qy + wz * qz);
    const s = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
    q[i4] = nx * s; q[i4 + 1] = ny * s; q[i4 + 2] = nz * s; q[i4 + 3] = nw * s;
  }
}
