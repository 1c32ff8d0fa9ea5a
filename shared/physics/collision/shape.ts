/** World-placed collision shapes: built from a ShapeDesc, moved in place each step, with their world AABB. */
import type { ShapeDesc } from '../types';
import { ShapeKind, type AxisIndex, type WorldShape, type WorldShapeOptions } from './types';

const AXES: Record<string, AxisIndex> = { x: 0, y: 1, z: 2 };

/**
 * The seven arrays of a shape are views into one pool chunk, 32 doubles per shape, consecutive shapes
 * adjacent: seven separate small Float64Arrays cost ~1.8 KB of heap per shape (each its own typed array,
 * buffer and backing store), so 1 400 shapes (128 ragdolls) no longer fit in L2 and every substep's pose
 * update, broad phase and narrow phase missed cache. Pooled: 256 B of data per shape plus the views.
 * A full chunk is left to its shapes (freed with the last of them); new shapes take a fresh one.
 */
const SHAPE_DOUBLES = 32, CHUNK_SHAPES = 256;
let chunk = new Float64Array(SHAPE_DOUBLES * CHUNK_SHAPES);
let chunkUsed = 0;

function shapeBlock(): number {
  if (chunkUsed === CHUNK_SHAPES) { chunk = new Float64Array(SHAPE_DOUBLES * CHUNK_SHAPES); chunkUsed = 0; }
  return SHAPE_DOUBLES * chunkUsed++;
}

class WorldShapeImpl implements WorldShape {
  readonly position: Float64Array;
  readonly rotation: Float64Array;
  readonly matrix: Float64Array;
  readonly aabb: Float64Array;
  readonly halfExtents: Float64Array;
  readonly localPosition: Float64Array;
  readonly localRotation: Float64Array;
  body = 0;
  userId = 0;
  group = 1;
  mask = 0xffffffff;
  dynamic = true;
  aabbMargin = 0;
  constructor(readonly kind: ShapeKind, readonly radius: number, readonly halfHeight: number, readonly axis: AxisIndex) {
    const o = shapeBlock(), c = chunk;
    this.position = c.subarray(o, o + 3);
    this.rotation = c.subarray(o + 3, o + 7);
    this.matrix = c.subarray(o + 7, o + 16);
    this.aabb = c.subarray(o + 16, o + 22);
    this.halfExtents = c.subarray(o + 22, o + 25);
    this.localPosition = c.subarray(o + 25, o + 28);
    this.localRotation = c.subarray(o + 28, o + 32);
    this.rotation[3] = 1; this.localRotation[3] = 1;
    this.matrix[0] = 1; this.matrix[4] = 1; this.matrix[8] = 1;
  }
}

function positive(v: unknown, where: string, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    throw new Error(`${where}: ${field} must be a finite number > 0 (got ${String(v)})`);
  }
  return v;
}

function nonNegative(v: unknown, where: string, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new Error(`${where}: ${field} must be a finite number ≥ 0 (got ${String(v)})`);
  }
  return v;
}

function axisOf(v: unknown, where: string): AxisIndex {
  if (v === undefined) return 1;
  const a = typeof v === 'string' ? AXES[v] : undefined;
  if (a === undefined) throw new Error(`${where}: axis must be 'x', 'y' or 'z' (got ${String(v)})`);
  return a;
}

/**
 * Build a world-placed shape from its description. Validates sizes (finite, > 0; a capsule's halfHeight may
 * be 0, which makes it a sphere) and the local pose (finite; the rotation is normalised, a zero quaternion
 * is rejected). The world pose is identity until the first updateWorldShape.
 */
export function createWorldShape(desc: ShapeDesc, options: WorldShapeOptions = {}): WorldShape {
  const where = options.label ?? 'shape';
  let s: WorldShapeImpl;
  switch (desc.type) {
    case 'sphere': {
      const r = positive(desc.radius, where, 'radius');
      s = new WorldShapeImpl(ShapeKind.sphere, r, 0, 1);
      s.halfExtents.fill(r);
      break;
    }
    case 'capsule': {
      const r = positive(desc.radius, where, 'radius');
      const h = nonNegative(desc.halfHeight, where, 'halfHeight');
      const ax = axisOf(desc.axis, where);
      s = new WorldShapeImpl(ShapeKind.capsule, r, h, ax);
      s.halfExtents.fill(r);
      s.halfExtents[ax] = h + r;
      break;
    }
    case 'cylinder': {
      const r = positive(desc.radius, where, 'radius');
      const h = positive(desc.halfHeight, where, 'halfHeight');
      const ax = axisOf(desc.axis, where);
      s = new WorldShapeImpl(ShapeKind.cylinder, r, h, ax);
      s.halfExtents.fill(r);
      s.halfExtents[ax] = h;
      break;
    }
    case 'box': {
      const e = desc.halfExtents as readonly number[] | undefined;
      if (!Array.isArray(e) || e.length !== 3) throw new Error(`${where}: halfExtents must be [x, y, z]`);
      s = new WorldShapeImpl(ShapeKind.box, 0, 0, 1);
      for (let i = 0; i < 3; i++) s.halfExtents[i] = positive(e[i], where, `halfExtents[${i}]`);
      break;
    }
    case 'ellipsoid': {
      const e = desc.radii as readonly number[] | undefined;
      if (!Array.isArray(e) || e.length !== 3) throw new Error(`${where}: radii must be [x, y, z]`);
      const rx = positive(e[0], where, 'radii[0]'), ry = positive(e[1], where, 'radii[1]'), rz = positive(e[2], where, 'radii[2]');
      s = new WorldShapeImpl(ShapeKind.ellipsoid, Math.max(rx, ry, rz), 0, 1);
      s.halfExtents[0] = rx; s.halfExtents[1] = ry; s.halfExtents[2] = rz;
      break;
    }
    default:
      throw new Error(`${where}: unknown shape type '${String((desc as { type?: unknown }).type)}'`);
  }
  if (desc.position !== undefined) {
    for (let i = 0; i < 3; i++) {
      const v = desc.position[i];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${where}: position[${i}] must be finite (got ${String(v)})`);
      s.localPosition[i] = v;
    }
  }
  if (desc.rotation !== undefined) {
    const q = desc.rotation;
    let l2 = 0;
    for (let i = 0; i < 4; i++) {
      const v = q[i];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${where}: rotation[${i}] must be finite (got ${String(v)})`);
      l2 += v * v;
    }
    if (l2 < 1e-12) throw new Error(`${where}: rotation must be a non-zero quaternion`);
    const il = 1 / Math.sqrt(l2);
    for (let i = 0; i < 4; i++) s.localRotation[i] = q[i]! * il;
  }
  if (options.body !== undefined) s.body = options.body;
  if (options.userId !== undefined) s.userId = options.userId;
  if (options.group !== undefined) s.group = options.group;
  if (options.mask !== undefined) s.mask = options.mask;
  if (options.dynamic !== undefined) s.dynamic = options.dynamic;
  if (options.aabbMargin !== undefined) s.aabbMargin = nonNegative(options.aabbMargin, where, 'aabbMargin');
  updateWorldShape(s, ZERO3, 0, IDENTITY_Q, 0);
  return s;
}

const ZERO3 = [0, 0, 0] as const;
const IDENTITY_Q = [0, 0, 0, 1] as const;

/**
 * Place the shape: world pose = body pose · shape local pose. `bodyPosition[posOffset..+2]` and
 * `bodyRotation[rotOffset..+3]` (quaternion x, y, z, w, assumed unit) can be the solver's flat typed arrays
 * or plain tuples. Writes position, rotation, matrix and aabb in place. No allocation.
 */
export function updateWorldShape(
  shape: WorldShape,
  bodyPosition: ArrayLike<number>, posOffset: number,
  bodyRotation: ArrayLike<number>, rotOffset: number,
): void {
  const bx = bodyRotation[rotOffset]!, by = bodyRotation[rotOffset + 1]!, bz = bodyRotation[rotOffset + 2]!, bw = bodyRotation[rotOffset + 3]!;
  const lp = shape.localPosition, lq = shape.localRotation;
  // p = pb + qb·lp  (v + 2w(u×v) + 2u×(u×v))
  const vx = lp[0]!, vy = lp[1]!, vz = lp[2]!;
  const tx = 2 * (by * vz - bz * vy), ty = 2 * (bz * vx - bx * vz), tz = 2 * (bx * vy - by * vx);
  const pos = shape.position;
  pos[0] = bodyPosition[posOffset]! + vx + bw * tx + (by * tz - bz * ty);
  pos[1] = bodyPosition[posOffset + 1]! + vy + bw * ty + (bz * tx - bx * tz);
  pos[2] = bodyPosition[posOffset + 2]! + vz + bw * tz + (bx * ty - by * tx);
  // q = qb·lq
  const lx = lq[0]!, ly = lq[1]!, lz = lq[2]!, lw = lq[3]!;
  const qx = bw * lx + bx * lw + by * lz - bz * ly;
  const qy = bw * ly - bx * lz + by * lw + bz * lx;
  const qz = bw * lz + bx * ly - by * lx + bz * lw;
  const qw = bw * lw - bx * lx - by * ly - bz * lz;
  const q = shape.rotation;
  q[0] = qx; q[1] = qy; q[2] = qz; q[3] = qw;
  const m = shape.matrix;
  const xx = qx * qx, yy = qy * qy, zz = qz * qz, xy = qx * qy, xz = qx * qz, yz = qy * qz, wx = qw * qx, wy = qw * qy, wz = qw * qz;
  m[0] = 1 - 2 * (yy + zz); m[1] = 2 * (xy - wz); m[2] = 2 * (xz + wy);
  m[3] = 2 * (xy + wz); m[4] = 1 - 2 * (xx + zz); m[5] = 2 * (yz - wx);
  m[6] = 2 * (xz - wy); m[7] = 2 * (yz + wx); m[8] = 1 - 2 * (xx + yy);
  computeAabb(shape);
}

/** World AABB half extent along world axis i, per kind:
 *  box: Σ_j |R_ij| e_j;  ellipsoid: sqrt(Σ_j (R_ij e_j)²);  capsule: |R_i,axis| h + r;
 *  cylinder: |R_i,axis| h + r·sqrt(1 − R_i,axis²) (the disc's extent);  sphere: r. */
function computeAabb(s: WorldShape): void {
  const m = s.matrix, p = s.position, a = s.aabb, g = s.aabbMargin;
  for (let i = 0; i < 3; i++) {
    const r0 = m[3 * i]!, r1 = m[3 * i + 1]!, r2 = m[3 * i + 2]!;
    let e: number;
    switch (s.kind) {
      case ShapeKind.sphere: e = s.radius; break;
      case ShapeKind.capsule: e = Math.abs(m[3 * i + s.axis]!) * s.halfHeight + s.radius; break;
      case ShapeKind.cylinder: {
        const c = m[3 * i + s.axis]!;
        e = Math.abs(c) * s.halfHeight + s.radius * Math.sqrt(Math.max(0, 1 - c * c));
        break;
      }
      case ShapeKind.box: {
        const h = s.halfExtents;
        e = Math.abs(r0) * h[0]! + Math.abs(r1) * h[1]! + Math.abs(r2) * h[2]!;
        break;
      }
      default: {
        const h = s.halfExtents;
        const u = r0 * h[0]!, v = r1 * h[1]!, w = r2 * h[2]!;
        e = Math.sqrt(u * u + v * v + w * w);
      }
    }
    e += g;
    a[i] = p[i]! - e;
    a[i + 3] = p[i]! + e;
  }
}
