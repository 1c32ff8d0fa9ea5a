/** 3-vectors as plain tuples. Hot solver loops work on typed arrays directly; this module is for
 *  everything else (setup, IK, tools, tests). Units are whatever the caller's are. */
export type Vec3 = [number, number, number];
export type ReadonlyVec3 = readonly [number, number, number];

export const vec3 = (x = 0, y = 0, z = 0): Vec3 => [x, y, z];
export const add = (a: ReadonlyVec3, b: ReadonlyVec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: ReadonlyVec3, b: ReadonlyVec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: ReadonlyVec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const addScaled = (a: ReadonlyVec3, b: ReadonlyVec3, s: number): Vec3 => [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];
export const dot = (a: ReadonlyVec3, b: ReadonlyVec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: ReadonlyVec3, b: ReadonlyVec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const lengthSq = (a: ReadonlyVec3): number => dot(a, a);
export const length = (a: ReadonlyVec3): number => Math.sqrt(dot(a, a));
export const distance = (a: ReadonlyVec3, b: ReadonlyVec3): number => length(sub(a, b));
export const lerp = (a: ReadonlyVec3, b: ReadonlyVec3, t: number): Vec3 => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/** Unit vector along a; `fallback` when a is (numerically) zero, so callers never see NaN. */
export function normalize(a: ReadonlyVec3, fallback: ReadonlyVec3 = [1, 0, 0]): Vec3 {
  const l = length(a);
  return l > 1e-12 ? [a[0] / l, a[1] / l, a[2] / l] : [fallback[0], fallback[1], fallback[2]];
}

/** Some unit vector perpendicular to n (n assumed unit). Stable for every direction. */
export function anyPerpendicular(n: ReadonlyVec3): Vec3 {
  return Math.abs(n[0]) < 0.57735 ? normalize(cross(n, [1, 0, 0])) : normalize(cross(n, [0, 1, 0]));
}

export const isFiniteVec3 = (a: ReadonlyVec3): boolean =>
  Number.isFinite(a[0]) && Number.isFinite(a[1]) && Number.isFinite(a[2]);

// ------------------------------------------------------------------------------- out-parameter forms
// The same arithmetic as the functions above, in the same order (results bit for bit equal), written into
// `out` instead of a new array — for per-step code (IK, gait) that must not make garbage. Every input is
// read before `out` is written, so `out` may be one of the inputs.

export function subTo(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  const x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
  out[0] = x; out[1] = y; out[2] = z; return out;
}
export function addTo(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  const x = a[0] + b[0], y = a[1] + b[1], z = a[2] + b[2];
  out[0] = x; out[1] = y; out[2] = z; return out;
}
export function crossTo(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  const x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  out[0] = x; out[1] = y; out[2] = z; return out;
}
/** out = a − b·(a·b): a with its component along b removed (sub(a, scale(b, dot(a, b)))). */
export function rejectTo(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  const d = dot(a, b);
  const x = a[0] - b[0] * d, y = a[1] - b[1] * d, z = a[2] - b[2] * d;
  out[0] = x; out[1] = y; out[2] = z; return out;
}
export function copyVec3(out: Vec3, a: ReadonlyVec3): Vec3 { out[0] = a[0]; out[1] = a[1]; out[2] = a[2]; return out; }
export function setVec3(out: Vec3, x: number, y: number, z: number): Vec3 { out[0] = x; out[1] = y; out[2] = z; return out; }
/** normalize(a, fallback) into out. */
export function normalizeTo(out: Vec3, a: ReadonlyVec3, fallback: ReadonlyVec3 = [1, 0, 0]): Vec3 {
  const l = length(a);
  if (l > 1e-12) { const x = a[0] / l, y = a[1] / l, z = a[2] / l; out[0] = x; out[1] = y; out[2] = z; return out; }
  out[0] = fallback[0]; out[1] = fallback[1]; out[2] = fallback[2]; return out;
}
