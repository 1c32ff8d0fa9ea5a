/** Skinned mesh construction for the generated creatures: primitive shapes made in a local frame, placed
 *  in the rest (bind) pose in world space, and skinned by a weight function of the world position.
 *  Units: metres. Everything is deterministic (no randomness, fixed segment counts). */
import {
  add, cross, dot, normalize, quatRotate, scale, sub,
  type ReadonlyQuat, type ReadonlyVec3, type Vec3,
} from '../../shared/math';

/** Up to four (bone index, weight) pairs; weights sum to 1. */
export type Influences = Array<[number, number]>;
export type WeightFn = (p: ReadonlyVec3) => Influences;

export interface ShapeGeometry { positions: Vec3[]; normals: Vec3[]; indices: number[] }

/** One primitive per material: positions/normals in world (bind pose), skin influences per vertex. */
export class MeshPart {
  readonly positions: number[] = [];
  readonly normals: number[] = [];
  readonly joints: number[] = [];
  readonly weights: number[] = [];
  readonly indices: number[] = [];
  constructor(readonly material: string) {}

  get vertexCount(): number { return this.positions.length / 3; }

  /** Adds `g` placed at `frame` (rotation then translation), skinned by `weightFn`. */
  add(g: ShapeGeometry, frame: Placement, weightFn: WeightFn): void {
    const base = this.vertexCount;
    for (let i = 0; i < g.positions.length; i++) {
      const p = place(frame, g.positions[i]!);
      const n = normalize(quatRotate(frame.rotation, g.normals[i]!), [0, 1, 0]);
      this.positions.push(round(p[0]), round(p[1]), round(p[2]));
      this.normals.push(n[0], n[1], n[2]);
      const infl = normaliseInfluences(weightFn(p));
      for (let k = 0; k < 4; k++) {
        this.joints.push(infl[k]?.[0] ?? 0);
        this.weights.push(infl[k]?.[1] ?? 0);
      }
    }
    for (const idx of g.indices) this.indices.push(base + idx);
  }
}

export interface Placement { position: ReadonlyVec3; rotation: ReadonlyQuat }
const place = (f: Placement, p: ReadonlyVec3): Vec3 => add(f.position, quatRotate(f.rotation, p));
// Round to 1/10 µm so platform-specific last-bit differences of sin/cos cannot change the file bytes.
const round = (x: number): number => Math.round(x * 1e7) / 1e7;

function normaliseInfluences(raw: Influences): Influences {
  const merged = new Map<number, number>();
  for (const [b, w] of raw) if (w > 1e-4) merged.set(b, (merged.get(b) ?? 0) + w);
  const list = [...merged].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 4);
  const total = list.reduce((s, [, w]) => s + w, 0);
  if (total <= 0) throw new Error('vertex without skin weight');
  // Quantise to 1/1000 and put the rounding remainder on the largest weight: exact sum 1, stable bytes.
  const q = list.map(([b, w]) => [b, Math.round((w / total) * 1000) / 1000] as [number, number]).filter(([, w]) => w > 0);
  const rest = 1 - q.reduce((s, [, w]) => s + w, 0);
  q[0]![1] = Math.round((q[0]![1] + rest) * 1000) / 1000;
  return q;
}

export const smoothstep = (e0: number, e1: number, x: number): number => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/** A joint between the part's bone and a neighbour: vertices past `position` along `towardOther` blend
 *  into `otherBone` over ±halfWidth (m); at the joint itself the split is 50/50. */
export interface JointBlend { otherBone: number; position: ReadonlyVec3; towardOther: ReadonlyVec3; halfWidth: number }

/** Two-bone blends at a segment's ends: the bone owns the middle, the neighbours take over smoothly. */
export function blendedWeights(bone: number, blends: readonly JointBlend[]): WeightFn {
  return (p) => {
    const out: Influences = [];
    let own = 1;
    for (const b of blends) {
      const t = dot(sub(p, b.position), normalize(b.towardOther));
      const w = smoothstep(-b.halfWidth, b.halfWidth, t);
      if (w > 0) { out.push([b.otherBone, w]); own -= w; }
    }
    out.push([bone, Math.max(0, own)]);
    return out;
  };
}

export const rigid = (bone: number): WeightFn => () => [[bone, 1]];

// ---------------------------------------------------------------------------------------------------
// Shapes (local frame; the long axis is +Y)

export function sphere(radius: number, segments: number, rings: number, squash: ReadonlyVec3 = [1, 1, 1]): ShapeGeometry {
  const positions: Vec3[] = [], normals: Vec3[] = [], indices: number[] = [];
  for (let r = 0; r <= rings; r++) {
    const phi = (Math.PI * r) / rings;
    for (let s = 0; s <= segments; s++) {
      const th = (2 * Math.PI * s) / segments;
      const n: Vec3 = [Math.sin(phi) * Math.sin(th), Math.cos(phi), Math.sin(phi) * Math.cos(th)];
      positions.push([n[0] * radius * squash[0], n[1] * radius * squash[1], n[2] * radius * squash[2]]);
      normals.push(normalize([n[0] / squash[0], n[1] / squash[1], n[2] / squash[2]], [0, 1, 0]));
    }
  }
  gridIndices(indices, rings, segments);
  return { positions, normals, indices };
}

/** Closed tube along +Y from 0 to `length`, radius r0 → r1 (elliptical by `aspect` = z/x), with
 *  `stacks` rings (enough rings to bend smoothly under skinning) and flat caps. */
export function taperedCylinder(r0: number, r1: number, length: number, segments: number, stacks: number, aspect = 1): ShapeGeometry {
  const positions: Vec3[] = [], normals: Vec3[] = [], indices: number[] = [];
  const slope = (r0 - r1) / length;
  for (let k = 0; k <= stacks; k++) {
    const y = (length * k) / stacks;
    const r = r0 + ((r1 - r0) * k) / stacks;
    for (let s = 0; s <= segments; s++) {
      const th = (2 * Math.PI * s) / segments;
      const c = Math.sin(th), d = Math.cos(th);
      positions.push([r * c, y, r * d * aspect]);
      normals.push(normalize([c, slope, d / aspect], [0, 1, 0]));
    }
  }
  gridIndices(indices, stacks, segments);
  cap(positions, normals, indices, 0, r0, segments, aspect, -1);
  if (r1 > 0) cap(positions, normals, indices, length, r1, segments, aspect, 1);
  return { positions, normals, indices };
}

/** Capsule along +Y from 0 to `length` (hemispheres included in the length). */
export function capsule(radius: number, length: number, segments: number, stacks: number, aspect = 1): ShapeGeometry {
  const positions: Vec3[] = [], normals: Vec3[] = [], indices: number[] = [];
  const half = Math.max(0, length / 2 - radius);
  const capRings = 4;
  const rows: Array<{ y: number; r: number; ny: number }> = [];
  for (let i = 0; i <= capRings; i++) {
    const a = -Math.PI / 2 + (Math.PI / 2) * (i / capRings);
    rows.push({ y: -half + radius * Math.sin(a), r: radius * Math.cos(a), ny: Math.sin(a) });
  }
  for (let k = 1; k < stacks; k++) rows.push({ y: -half + (2 * half * k) / stacks, r: radius, ny: 0 });
  for (let i = 0; i <= capRings; i++) {
    const a = (Math.PI / 2) * (i / capRings);
    rows.push({ y: half + radius * Math.sin(a), r: radius * Math.cos(a), ny: Math.sin(a) });
  }
  for (const row of rows) {
    for (let s = 0; s <= segments; s++) {
      const th = (2 * Math.PI * s) / segments;
      const c = Math.sin(th), d = Math.cos(th);
      const nr = Math.sqrt(Math.max(0, 1 - row.ny * row.ny));
      positions.push([row.r * c, row.y + length / 2, row.r * d * aspect]);
      normals.push(normalize([nr * c, row.ny, (nr * d) / aspect], [0, 1, 0]));
    }
  }
  gridIndices(indices, rows.length - 1, segments);
  return { positions, normals, indices };
}

/** Box centred on `center` with `size`, each face split `divY` times along Y (for bending). */
export function box(size: ReadonlyVec3, center: ReadonlyVec3 = [0, 0, 0], divY = 1): ShapeGeometry {
  const positions: Vec3[] = [], normals: Vec3[] = [], indices: number[] = [];
  const h = scale(size, 0.5);
  const faces: Array<{ n: Vec3; u: Vec3; v: Vec3; nv: number }> = [
    { n: [1, 0, 0], u: [0, 0, -1], v: [0, 1, 0], nv: divY },
    { n: [-1, 0, 0], u: [0, 0, 1], v: [0, 1, 0], nv: divY },
    { n: [0, 0, 1], u: [1, 0, 0], v: [0, 1, 0], nv: divY },
    { n: [0, 0, -1], u: [-1, 0, 0], v: [0, 1, 0], nv: divY },
    { n: [0, 1, 0], u: [1, 0, 0], v: [0, 0, -1], nv: 1 },
    { n: [0, -1, 0], u: [1, 0, 0], v: [0, 0, 1], nv: 1 },
  ];
  for (const f of faces) {
    const base = positions.length;
    for (let j = 0; j <= f.nv; j++) {
      for (let i = 0; i <= 1; i++) {
        const a = i * 2 - 1, b = (j / f.nv) * 2 - 1;
        const p: Vec3 = [
          center[0] + (f.n[0] + f.u[0] * a + f.v[0] * b) * h[0],
          center[1] + (f.n[1] + f.u[1] * a + f.v[1] * b) * h[1],
          center[2] + (f.n[2] + f.u[2] * a + f.v[2] * b) * h[2],
        ];
        positions.push(p);
        normals.push([...f.n]);
      }
    }
    for (let j = 0; j < f.nv; j++) {
      const r0 = base + j * 2, r1 = base + (j + 1) * 2;
      indices.push(r0, r0 + 1, r1 + 1, r0, r1 + 1, r1);
    }
  }
  return { positions, normals, indices };
}

/** Counter-clockwise quads of a (rows+1)×(segments+1) vertex grid, outward for the shapes above. */
function gridIndices(indices: number[], rows: number, segments: number): void {
  const w = segments + 1;
  for (let r = 0; r < rows; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * w + s, b = a + 1, c = a + w, d = c + 1;
      indices.push(a, c, b, b, c, d);
    }
  }
}

function cap(positions: Vec3[], normals: Vec3[], indices: number[], y: number, r: number, segments: number, aspect: number, dir: 1 | -1): void {
  const centre = positions.length;
  positions.push([0, y, 0]);
  normals.push([0, dir, 0]);
  for (let s = 0; s <= segments; s++) {
    const th = (2 * Math.PI * s) / segments;
    positions.push([r * Math.sin(th), y, r * Math.cos(th) * aspect]);
    normals.push([0, dir, 0]);
  }
  for (let s = 0; s < segments; s++) {
    const a = centre + 1 + s, b = a + 1;
    if (dir > 0) indices.push(centre, a, b); else indices.push(centre, b, a);
  }
}

/** Rotation taking +Y onto `dir` while keeping local +X as close as possible to `xHint` (the roll). */
export function frameAlong(dir: ReadonlyVec3, xHint: ReadonlyVec3): [number, number, number, number] {
  const y = normalize(dir);
  let z = cross(xHint, y);
  if (Math.hypot(z[0], z[1], z[2]) < 1e-6) z = cross([1, 0, 0], y);
  z = normalize(z);
  const x = cross(y, z);
  return quatFromBasis(x, y, z);
}

/** Quaternion of the rotation whose columns are the unit axes x, y, z. */
export function quatFromBasis(x: ReadonlyVec3, y: ReadonlyVec3, z: ReadonlyVec3): [number, number, number, number] {
  const m00 = x[0], m10 = x[1], m20 = x[2], m01 = y[0], m11 = y[1], m21 = y[2], m02 = z[0], m12 = z[1], m22 = z[2];
  const tr = m00 + m11 + m22;
  let q: [number, number, number, number];
  if (tr > 0) {
    const s = 0.5 / Math.sqrt(tr + 1);
    q = [(m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  const l = Math.hypot(...q);
  const sign = q[3] < 0 ? -1 : 1;
  return [(q[0] / l) * sign, (q[1] / l) * sign, (q[2] / l) * sign, (q[3] / l) * sign];
}
