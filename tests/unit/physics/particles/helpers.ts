/** Shared helpers for the particle-ragdoll tests: example loading and independent angle measurements
 *  (written from the definitions, not by calling the solver's own code). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createParticleSimulation, loadParticleScene, type ParticleScene, type ParticleSimulation } from '../../../../shared/physics/particles';

export const EXAMPLES = join(__dirname, '../../../../assets/examples');
export const exampleNames = ['double-pendulum', 'double-pendulum-90', 'double-pendulum-170', 'colliding-bones', 'colliding-bones-min-distance', 'ragdoll'];

export function loadExample(name: string): ParticleScene {
  const file = join(EXAMPLES, `${name}.json`);
  return loadParticleScene(readFileSync(file, 'utf8'), file);
}

export const simOf = (scene: ParticleScene): ParticleSimulation => createParticleSimulation(scene);

export function pos(sim: ParticleSimulation, name: string): [number, number, number] {
  const i = sim.particleIndex(name), x = sim.positions;
  return [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!];
}

const sub = (a: number[], b: number[]) => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const cross = (a: number[], b: number[]) => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
const norm = (a: number[]) => { const l = Math.hypot(a[0]!, a[1]!, a[2]!); return [a[0]! / l, a[1]! / l, a[2]! / l]; };

/** Signed angle (deg, [0, 360)) at b from (a − b) to (c − b) about +Z. */
export function signedAngleZ(a: number[], b: number[], c: number[]): number {
  const u = sub(a, b), v = sub(c, b);
  let t = Math.atan2(u[0]! * v[1]! - u[1]! * v[0]!, u[0]! * v[0]! + u[1]! * v[1]!) * 180 / Math.PI;
  if (t < 0) t += 360;
  return t;
}

/** Unsigned angle (deg) at b between (a − b) and (c − b). */
export function angleAt(a: number[], b: number[], c: number[]): number {
  const u = sub(a, b), v = sub(c, b);
  return Math.atan2(Math.hypot(...cross(u, v)), dot(u, v)) * 180 / Math.PI;
}

/** Frame [side, axis] of a bone from head, tip and its orientation particle (Gram–Schmidt). */
export function frame(head: number[], tip: number[], f: number[]): { s: number[]; e: number[] } {
  const e = norm(sub(tip, head));
  const r = sub(f, head), d = dot(r, e);
  return { s: norm([r[0]! - d * e[0]!, r[1]! - d * e[1]!, r[2]! - d * e[2]!]), e };
}

/**
 * Twist (rad) of child frame C relative to parent frame P about the child's axis, given their rest frames:
 * the child's expected side (parent's rest relation applied to the current parent frame) is carried onto
 * the child's axis by the shortest rotation, then measured against the child's side. Computed with
 * quaternion-free vector algebra, independently of the solver's formulation.
 */
export function twist(P: { s: number[]; e: number[] }, C: { s: number[]; e: number[] }, P0: { s: number[]; e: number[] }, C0: { s: number[]; e: number[] }): number {
  const z = (F: { s: number[]; e: number[] }) => cross(F.s, F.e);
  const toLocal = (F: { s: number[]; e: number[] }, v: number[]) => [dot(F.s, v), dot(F.e, v), dot(z(F), v)];
  const toWorld = (F: { s: number[]; e: number[] }, l: number[]) => { const Z = z(F); return [0, 1, 2].map((i) => F.s[i]! * l[0]! + F.e[i]! * l[1]! + Z[i]! * l[2]!); };
  const eE = toWorld(P, toLocal(P0, C0.e)), sE = toWorld(P, toLocal(P0, C0.s));
  // Rotate sE about axis eE × C.e by the angle between eE and C.e (Rodrigues).
  const k = cross(eE, C.e), sinA = Math.hypot(...k), cosA = dot(eE, C.e);
  let sR = sE;
  if (sinA > 1e-12) {
    const kn = k.map((v) => v / sinA), kx = cross(kn, sE), kd = dot(kn, sE);
    sR = [0, 1, 2].map((i) => sE[i]! * cosA + kx[i]! * sinA + kn[i]! * kd * (1 - cosA));
  }
  return Math.atan2(dot(C.e, cross(sR, C.s)), dot(sR, C.s));
}

export function boneLengthErrors(sim: ParticleSimulation): number {
  const seg = new Float64Array(6 * sim.boneNames.length);
  sim.writeBoneSegments(seg);
  let worst = 0;
  for (let b = 0; b < sim.boneNames.length; b++) {
    const L = Math.hypot(seg[6 * b + 3]! - seg[6 * b]!, seg[6 * b + 4]! - seg[6 * b + 1]!, seg[6 * b + 5]! - seg[6 * b + 2]!);
    worst = Math.max(worst, Math.abs(L / sim.boneLengths[b]! - 1));
  }
  return worst;
}
