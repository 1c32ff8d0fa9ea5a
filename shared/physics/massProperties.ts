/**
 * Mass, centroid and inertia tensor of a body made of primitive shapes (seed 004's formulas, combined by the
 * parallel-axis theorem as in seed 003). Pure: the rig format and the editor call `computeMassProperties` to
 * show what the solver will use.
 *
 * Conventions: inertia tensors are row-major 3×3 (kg·m²) about the body's centre of mass, in body axes.
 * A shape's own tensor is computed in its local axes with its symmetry axis on local y (capsule, cylinder),
 * then rotated by the shape pose (R·I·Rᵀ) and shifted by the parallel-axis theorem
 * I += m·(|d|²·E − d·dᵀ), d = shape centroid − body centroid.
 *
 * Hollow shapes (thin shells) take their mass from density × ENCLOSED volume, i.e. `density` is the mean
 * density of the space the shell encloses; give an explicit `mass` for a true sheet-metal mass.
 *
 * A shape may carry its own `mass` or `density` (ShapeDesc): that is how a body holds a ballast — e.g. a
 * heavy disc low inside a light shell puts the centre of mass below the shell's centre.
 */
import { quatToMat3, type ReadonlyQuat } from '../math/quat';
import type { ReadonlyVec3 } from '../math/vec3';
import type { MassProperties, ShapeDesc } from './types';

/** Default density (kg/m³): water, roughly the density of flesh. */
export const DEFAULT_DENSITY = 1000;

/** Volume (m³) a shape encloses. */
export function shapeVolume(s: ShapeDesc): number {
  switch (s.type) {
    case 'sphere': return (4 / 3) * Math.PI * s.radius ** 3;
    case 'ellipsoid': return (4 / 3) * Math.PI * s.radii[0] * s.radii[1] * s.radii[2];
    case 'box': return 8 * s.halfExtents[0] * s.halfExtents[1] * s.halfExtents[2];
    case 'cylinder': return Math.PI * s.radius ** 2 * 2 * s.halfHeight;
    case 'capsule': return Math.PI * s.radius ** 2 * 2 * s.halfHeight + (4 / 3) * Math.PI * s.radius ** 3;
  }
}

/**
 * Principal moments (kg·m²) of a shape of mass m about its own centroid, along its local x, y, z, for the
 * symmetry axis given by `axis` ('y' by default). Returns [Ixx, Iyy, Izz].
 */
export function shapePrincipalInertia(s: ShapeDesc, m: number): [number, number, number] {
  switch (s.type) {
    case 'sphere': {
      // Solid: 2/5·m·r²; thin shell: 2/3·m·r².
      const k = s.hollow ? 2 / 3 : 2 / 5;
      const i = k * m * s.radius ** 2;
      return [i, i, i];
    }
    case 'ellipsoid': {
      const [a, b, c] = s.radii;
      return [(m * (b * b + c * c)) / 5, (m * (a * a + c * c)) / 5, (m * (a * a + b * b)) / 5];
    }
    case 'box': {
      // Full widths w = 2a: I = m(h² + d²)/12 = m(b² + c²)/3 with half extents.
      const [a, b, c] = s.halfExtents;
      return [(m * (b * b + c * c)) / 3, (m * (a * a + c * c)) / 3, (m * (a * a + b * b)) / 3];
    }
    case 'cylinder': {
      const r2 = s.radius ** 2, len2 = (2 * s.halfHeight) ** 2;
      // Solid: axial m·r²/2, transverse m(3r² + h²)/12. Thin tube: axial m·r², transverse m(6r² + h²)/12.
      const axial = s.hollow ? m * r2 : 0.5 * m * r2;
      const trans = s.hollow ? (m * (6 * r2 + len2)) / 12 : (m * (3 * r2 + len2)) / 12;
      return onAxis(s.axis, axial, trans);
    }
    case 'capsule': {
      // Cylinder of half height h plus two solid hemispheres; mass split by volume.
      const r = s.radius, h = s.halfHeight, r2 = r * r;
      const vc = Math.PI * r2 * 2 * h, vs = (4 / 3) * Math.PI * r * r * r;
      const mc = (m * vc) / (vc + vs), mh = (m * vs) / (vc + vs) / 2; // mh: one hemisphere
      const axial = 0.5 * mc * r2 + 2 * (2 / 5) * mh * r2;
      // A hemisphere's centroid sits 3r/8 from its flat face; about that centroid its transverse moment is
      // (2/5 − 9/64)·mh·r² = 83/320·mh·r², then shifted by d = h + 3r/8 to the capsule's centre.
      const d = h + (3 * r) / 8;
      const trans = (mc * (3 * r2 + 4 * h * h)) / 12 + 2 * mh * ((83 / 320) * r2 + d * d);
      return onAxis(s.axis, axial, trans);
    }
  }
}

function onAxis(axis: 'x' | 'y' | 'z' | undefined, axial: number, trans: number): [number, number, number] {
  if (axis === 'x') return [axial, trans, trans];
  if (axis === 'z') return [trans, trans, axial];
  return [trans, axial, trans];
}

/**
 * Mass of each shape (kg). A shape with its own `mass` (kg) or `density` (kg/m³) — a ballast, a lead
 * weight, a hollow sheet-metal shell — keeps it. The other shapes share the body's:
 *  - `opts.mass` (kg) is the body's TOTAL: what the own-mass shapes leave, m_rest = mass − Σ own, is spread
 *    over the other shapes by volume (m_i = m_rest·V_i / ΣV_rest); with no other shapes Σ own must equal it;
 *  - otherwise `opts.density` (default DEFAULT_DENSITY): m_i = density·V_i.
 * Throws with the shape index and the reason on a mass that cannot be (negative, both fields, nothing left).
 */
export function shapeMasses(shapes: readonly ShapeDesc[], opts: { mass?: number; density?: number } = {}): number[] {
  const volumes = shapes.map(shapeVolume);
  const own = shapes.map((s, i) => ownShapeMass(s, volumes[i]!, i));
  let ownTotal = 0, restVolume = 0, restCount = 0;
  own.forEach((m, i) => { if (m === null) { restVolume += volumes[i]!; restCount++; } else ownTotal += m; });
  if (opts.mass !== undefined) {
    const rest = opts.mass - ownTotal;
    if (restCount === 0) {
      if (Math.abs(rest) > 1e-9 * Math.max(1, opts.mass)) {
        throw new Error(`computeMassProperties: every shape has its own mass (together ${ownTotal} kg) but the body mass is ${opts.mass} kg; they must agree (or leave the body mass out)`);
      }
      return own as number[];
    }
    if (!(rest > 0)) {
      throw new Error(`computeMassProperties: the shapes with their own mass already weigh ${ownTotal} kg, not less than the body mass ${opts.mass} kg, leaving nothing for the other ${restCount} shape(s)`);
    }
    if (!(restVolume > 0)) throw new Error('computeMassProperties: the shapes without their own mass enclose no volume');
    const density = rest / restVolume;
    return own.map((m, i) => m ?? volumes[i]! * density);
  }
  if (restCount > 0 && !(restVolume > 0)) throw new Error('computeMassProperties: shapes enclose no volume');
  const density = opts.density ?? DEFAULT_DENSITY;
  return own.map((m, i) => m ?? volumes[i]! * density);
}

function ownShapeMass(s: ShapeDesc, volume: number, i: number): number | null {
  const where = `computeMassProperties: shape ${i} (${s.type})`;
  if (s.mass !== undefined && s.density !== undefined) throw new Error(`${where}: gives both mass and density; give one`);
  if (s.mass !== undefined) {
    if (!(Number.isFinite(s.mass) && s.mass > 0)) throw new Error(`${where}: mass must be a finite number > 0 (kg), got ${String(s.mass)}`);
    return s.mass;
  }
  if (s.density !== undefined) {
    if (!(Number.isFinite(s.density) && s.density > 0)) throw new Error(`${where}: density must be a finite number > 0 (kg/m³), got ${String(s.density)}`);
    return s.density * volume;
  }
  return null;
}

/**
 * Mass properties of a set of shapes: masses from `shapeMasses` (body `mass` = total, or `density`, and
 * any per-shape mass/density), centroid = Σ mᵢ·pᵢ / Σ mᵢ, inertia = Σ (Rᵢ·Iᵢ·Rᵢᵀ + parallel-axis shift).
 */
export function computeMassProperties(
  shapes: readonly ShapeDesc[],
  opts: { mass?: number; density?: number } = {},
): MassProperties {
  const masses = shapeMasses(shapes, opts);
  let mass = 0;
  const c = [0, 0, 0];
  shapes.forEach((s, i) => {
    const p = s.position ?? [0, 0, 0];
    mass += masses[i]!;
    c[0] += masses[i]! * p[0]; c[1] += masses[i]! * p[1]; c[2] += masses[i]! * p[2];
  });
  c[0] /= mass; c[1] /= mass; c[2] /= mass;

  const inertia = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  shapes.forEach((s, i) => {
    const m = masses[i]!;
    addRotatedDiagonal(inertia, shapePrincipalInertia(s, m), s.rotation ?? [0, 0, 0, 1]);
    const p = s.position ?? [0, 0, 0];
    addParallelAxis(inertia, m, [p[0] - c[0]!, p[1] - c[1]!, p[2] - c[2]!]);
  });
  return { mass, centroid: [c[0]!, c[1]!, c[2]!], inertia };
}

/** I += R·diag(d)·Rᵀ. */
export function addRotatedDiagonal(out: number[], d: ReadonlyVec3, q: ReadonlyQuat): void {
  const R = quatToMat3(q);
  for (let r = 0; r < 3; r++) {
    for (let k = 0; k < 3; k++) {
      out[r * 3 + k]! += R[r * 3]! * d[0] * R[k * 3]! + R[r * 3 + 1]! * d[1] * R[k * 3 + 1]! + R[r * 3 + 2]! * d[2] * R[k * 3 + 2]!;
    }
  }
}

/** Parallel-axis theorem: I += m·(|d|²·E − d·dᵀ). */
export function addParallelAxis(out: number[], m: number, d: ReadonlyVec3): void {
  const d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  for (let r = 0; r < 3; r++) {
    for (let k = 0; k < 3; k++) out[r * 3 + k]! += m * ((r === k ? d2 : 0) - d[r]! * d[k]!);
  }
}

/** Inverse of a symmetric positive-definite 3×3 (row-major); zeros for a singular one (static bodies). */
export function invertSymmetric3(m: readonly number[], out: number[] = new Array<number>(9)): number[] {
  const a = m[0]!, b = m[1]!, c = m[2]!, d = m[4]!, e = m[5]!, f = m[8]!;
  const A = d * f - e * e, B = c * e - b * f, C = b * e - c * d;
  const det = a * A + b * B + c * C;
  if (!(Math.abs(det) > 1e-300)) { out.fill(0); return out; }
  const s = 1 / det;
  out[0] = A * s; out[1] = B * s; out[2] = C * s;
  out[3] = B * s; out[4] = (a * f - c * c) * s; out[5] = (b * c - a * e) * s;
  out[6] = C * s; out[7] = (b * c - a * e) * s; out[8] = (a * d - b * b) * s;
  return out;
}
