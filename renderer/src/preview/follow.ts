/**
 * Camera follow: a point that chases the creature's root body as a critically damped spring, so the orbit
 * camera can be carried along by the point's motion (target and eye move by the same Δ: the user's orbit
 * offset and aim are kept). Pure math, no three.js; the viewport applies it (viewport/overlays/CameraFollow).
 *
 * Per axis, with e = x − r (r the root, held constant over one display interval h) and ω the spring's
 * natural frequency (rad/s), critical damping (ζ = 1) is ë + 2ω·ė + ω²·e = 0, whose exact solution is
 *   e(t) = (e₀ + c·t)·e^(−ωt),  ẋ(t) = (v₀ − ω·c·t)·e^(−ωt),  with c = v₀ + ω·e₀.
 * Stepping the closed form (not an integrator) is stable for any h: a 300 ms frame on software GL is as
 * well-behaved as 16 ms. Following a root moving at constant speed u, the point lags by 2u/ω (m).
 */

export interface FollowPoint {
  /** The followed point (m, world) and its velocity (m/s). */
  readonly x: [number, number, number];
  readonly v: [number, number, number];
  /** False until the first root position is known (then the point starts on it, at rest: no jump). */
  ready: boolean;
}

/** ω (rad/s): settles to 1 % of a jump in ≈ 6.6/ω ≈ 1.1 s; lags a 0.2 m/s crawl by 2·0.2/6 ≈ 7 cm. */
export const FOLLOW_OMEGA = 6;

export const createFollowPoint = (): FollowPoint => ({ x: [0, 0, 0], v: [0, 0, 0], ready: false });

export function resetFollowPoint(f: FollowPoint, at: readonly [number, number, number] | readonly number[]): void {
  for (let i = 0; i < 3; i++) { f.x[i] = at[i]!; f.v[i] = 0; }
  f.ready = true;
}

/**
 * Advance the point by h seconds toward `root`; writes the point's displacement into `delta` (m) — what
 * the camera's target and eye move by. A point not yet ready starts on the root (delta 0).
 */
export function stepFollowPoint(f: FollowPoint, root: readonly number[], h: number, delta: [number, number, number], omega = FOLLOW_OMEGA): void {
  if (!f.ready || !(h >= 0) || !Number.isFinite(h)) {
    if (!f.ready) resetFollowPoint(f, root);
    delta[0] = delta[1] = delta[2] = 0;
    return;
  }
  const decay = Math.exp(-omega * h);
  for (let i = 0; i < 3; i++) {
    const e0 = f.x[i]! - root[i]!, v0 = f.v[i]!;
    const c = v0 + omega * e0;
    const x = root[i]! + (e0 + c * h) * decay;
    delta[i] = x - f.x[i]!;
    f.x[i] = x;
    f.v[i] = (v0 - omega * c * h) * decay;
  }
}

/** Whether the point has caught up with `root` (within `tolerance` m and moving slower than 10·tolerance m/s). */
export function followSettled(f: FollowPoint, root: readonly number[], tolerance = 1e-3): boolean {
  if (!f.ready) return false;
  return Math.hypot(f.x[0] - root[0]!, f.x[1] - root[1]!, f.x[2] - root[2]!) <= tolerance && Math.hypot(f.v[0], f.v[1], f.v[2]) <= 10 * tolerance;
}

/** What followRootOffset reads of the preview's layout (protocol.ts HostLayout). */
export interface FollowLayout {
  layout: { bodies: readonly string[] };
  rig: { controllers: readonly { root?: string }[] };
  particles?: { positions: number; particleNames: readonly string[]; scene: { bones: readonly { head: string }[] } };
}

/** Numbers per body in a rigid frame (shared/runtime/trace.ts BODY_STRIDE): p, q, v, w. */
const BODY_STRIDE = 13;

/**
 * Where the followed root's position (x, y, z in m) starts in a recorded frame, or −1 when there is none.
 *  - rigid: the first controller's root body, else the first body (frame = [time, 13 per body, …]);
 *  - particle: the root particle — the head of the scene's first bone (a creature's root bone: scenes made
 *    from a rig list bones parents first; the example ragdoll starts with its pelvis), else particle 0.
 */
export function followRootOffset(L: FollowLayout | null): number {
  if (!L) return -1;
  const p = L.particles;
  if (p) {
    if (p.particleNames.length === 0) return -1;
    const head = p.scene.bones[0]?.head;
    const i = head === undefined ? 0 : Math.max(0, p.particleNames.indexOf(head));
    return p.positions + 3 * i;
  }
  const bodies = L.layout.bodies;
  const b = bodies.indexOf(L.rig.controllers[0]?.root ?? bodies[0] ?? '');
  return b < 0 ? -1 : 1 + b * BODY_STRIDE;
}
