/**
 * From the creature's frame to the world, and the skew toward the steering target (DESIGN.md step 1).
 *
 * Heading frame: the control points are authored in the root body's frame at rest (+Y up, +Z forward). Each
 * step they go to the world with the root's POSITION and its YAW only — not its full rotation. The mine is
 * a ball that rolls and tips; with the full rotation a quarter roll would turn "down to the floor in front"
 * into "sideways into the air", and the hand would stop touching the ground exactly when it must push the
 * body back upright. With yaw only, the path always reaches for the floor around the body, whatever its
 * roll, so recovering from an awkward pose needs no special code.
 *
 * Yaw = the twist of the root rotation about world +Y (swing–twist decomposition, q = swing·twist):
 * twist = normalise(0, q_y, 0, q_w), yaw = 2·atan2(q_y, q_w). It is the rotation about +Y closest to q and
 * is continuous except where q_y ≈ q_w ≈ 0 (the body turned upside down by a half turn about a horizontal
 * axis); there we fall back to the horizontal projection of the body's forward (+Z) axis, then of its +X.
 * Yaw 0 faces +Z; positive yaw turns +Z toward +X (right-hand rotation about +Y).
 *
 * Skew: the path is rotated about a vertical axis so that its TRAVEL direction — the opposite of the hand's
 * stroke while it is on the floor, i.e. the way the stroke pushes the body — turns toward the target by
 * δ = clamp(gain·θ, −maxAngle, maxAngle), θ = signed horizontal angle from the travel direction to the
 * target. gain 1 with a wide limit aims the stroke straight at the target; a smaller gain or limit turns
 * more gently. Which heading θ is measured from (the heading now, or averaged over a stroke and carried
 * ahead by the yaw rate) is the steering law's choice: steeringLaw.ts.
 *
 * The axis is a parameter (`pivot`, root frame). Where it sits decides how the body turns: the floor's push
 * on one off-centre hand turns the body away from that hand's side, so the controller puts the axis ahead of
 * the stroke (the rig's steering.pivotLead, default STEER_PIVOT_LEAD in controller.ts): rotating there moves
 * the stroke to the side away from the target while angling it toward the target, and the mine turns and
 * travels toward it. pivot = the root origin gives the plain rotation about the root.
 */
import { CyclicPath } from './cyclicPath';
import { quatFromAxisAngle, quatRotate, quatRotateTo, type Quat, type ReadonlyQuat } from '../math/quat';
import { type ReadonlyVec3, type Vec3 } from '../math/vec3';

export interface SteeringParams {
  /** World target (m), or null for no steering. */
  target: ReadonlyVec3 | null;
  /** Fraction of the heading error turned into path rotation (dimensionless). */
  gain: number;
  /** Largest path rotation (rad). */
  maxAngle: number;
}

const Y_AXIS: ReadonlyVec3 = [0, 1, 0];

/** Heading of a body rotation: angle about +Y (rad), 0 = facing +Z. See the module comment. */
export function headingYaw(rotation: ReadonlyQuat): number {
  const [x, y, z, w] = rotation;
  // q and −q are one rotation: take w ≥ 0 so the yaw lands in (−π, π].
  if (y * y + w * w > 1e-6) return w >= 0 ? 2 * Math.atan2(y, w) : 2 * Math.atan2(-y, -w);
  const f = quatRotate(rotation, [0, 0, 1]);
  if (f[0] * f[0] + f[2] * f[2] > 1e-6) return Math.atan2(f[0], f[2]);
  const r = quatRotate([x, y, z, w], [1, 0, 0]);
  return Math.atan2(-r[2], r[0]);
}

/** Rotation about +Y by `yaw` (rad). */
export const yawQuat = (yaw: number): [number, number, number, number] => quatFromAxisAngle(Y_AXIS, yaw);

/** Horizontal unit vector of heading `yaw`: (sin yaw, 0, cos yaw). */
export const yawDirection = (yaw: number): Vec3 => [Math.sin(yaw), 0, Math.cos(yaw)];

/** Root-frame point → world with the root's position and yaw only. */
export function headingToWorld(rootPosition: ReadonlyVec3, yaw: number, local: ReadonlyVec3): Vec3 {
  const c = Math.cos(yaw), s = Math.sin(yaw);
  // R_y(yaw)·p = (c·x + s·z, y, −s·x + c·z)
  return [rootPosition[0] + c * local[0] + s * local[2], rootPosition[1] + local[1], rootPosition[2] - s * local[0] + c * local[2]];
}

/**
 * Travel direction of a path in its own (root) frame: the horizontal unit vector opposite to the hand's
 * mean motion over the lowest part of the loop (the part within `contactBand` of the lowest point, or the
 * lowest tenth of the loop's height, whichever is larger) — the ground-contact stroke pushes the body the
 * other way. Falls back to +Z when the loop has no horizontal stroke.
 */
export function pathTravelDirection(path: CyclicPath, contactBand = 0.03, samples = 128): Vec3 {
  const pts: { y: number; t: Vec3 }[] = [];
  let minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < samples; i++) {
    const s = path.sample(i / samples);
    pts.push({ y: s.point[1], t: s.tangent });
    minY = Math.min(minY, s.point[1]); maxY = Math.max(maxY, s.point[1]);
  }
  const band = Math.max(contactBand, 0.1 * (maxY - minY));
  let sx = 0, sz = 0;
  for (const p of pts) if (p.y <= minY + band) { sx += p.t[0]; sz += p.t[2]; }
  const l = Math.hypot(sx, sz);
  return l > 1e-9 ? [-sx / l, 0, -sz / l] : [0, 0, 1];
}

/**
 * Centre of the floor stroke in the path's (root) frame: the mean of the lowest part of the loop (same band
 * as pathTravelDirection), height zeroed — the vertical axis the steering skew turns the path about.
 */
export function pathStrokeCentre(path: CyclicPath, contactBand = 0.03, samples = 128): Vec3 {
  const pts = path.polyline(samples);
  let minY = Infinity, maxY = -Infinity;
  for (const p of pts) { minY = Math.min(minY, p[1]); maxY = Math.max(maxY, p[1]); }
  const band = Math.max(contactBand, 0.1 * (maxY - minY));
  let sx = 0, sz = 0, n = 0;
  for (const p of pts) if (p[1] <= minY + band) { sx += p[0]; sz += p[2]; n++; }
  return n > 0 ? [sx / n, 0, sz / n] : [0, 0, 0];
}

/** Signed angle (rad, (−π, π]) about +Y from horizontal direction `from` to horizontal direction `to`. */
export function signedYawBetween(from: ReadonlyVec3, to: ReadonlyVec3): number {
  // Rotation about +Y carries +Z toward +X, so the sign is that of (from × to)·Y = fz·tx − fx·tz.
  return Math.atan2(from[2] * to[0] - from[0] * to[2], from[0] * to[0] + from[2] * to[2]);
}

/**
 * Path rotation δ (rad, about +Y through the root) that steers a path whose world travel direction is
 * `travelWorld` toward the target. 0 without a target, or with the target (horizontally) at the root.
 */
export function steeringAngle(rootPosition: ReadonlyVec3, travelWorld: ReadonlyVec3, steering: SteeringParams): number {
  return steeringSkew(rootPosition, travelWorld[0], travelWorld[2], steering.target, steering.gain, steering.maxAngle);
}

/** steeringAngle with the travel direction's x, z and the steering numbers passed apart (no objects: the
 *  per-step form; the same arithmetic). */
export function steeringSkew(rootPosition: ReadonlyVec3, travelX: number, travelZ: number, target: ReadonlyVec3 | null,
  gain: number, maxAngle: number): number {
  const t = target;
  if (!t) return 0;
  const dx = t[0] - rootPosition[0], dz = t[2] - rootPosition[2];
  if (dx * dx + dz * dz < 1e-8) return 0;
  // signedYawBetween(travel, [dx, 0, dz]).
  const theta = Math.atan2(travelZ * dx - travelX * dz, travelX * dx + travelZ * dz);
  const limit = Math.max(0, maxAngle);
  return Math.min(limit, Math.max(-limit, gain * theta));
}

export interface WorldPathFrame {
  /** Root heading (rad). */
  yaw: number;
  /** Steering rotation (rad) of the path about the vertical through `pivot`. */
  skew: number;
  /** Root position the path hangs from (m). */
  origin: Vec3;
  /** Skew axis in the root frame (m; y ignored). */
  pivot: Vec3;
  /** Righting (controller.ts): the part of the root's tilt the path follows, a world rotation about
   *  `origin` applied after heading and skew; absent = none (the path hangs level). */
  tilt?: Quat;
  /** Multi-limb turn (gaitGroup.ts): the path remapped before the skew; absent = none (a single limb). */
  turn?: PathTurn;
}

/** How the turn remaps one limb's path this step (part of WorldPathFrame). */
export interface PathTurn {
  /** −1..1: 0 = straight, ±1 = turning on the spot (+ = toward +X from +Z, the positive yaw). */
  a: number;
  /** The limb's stroke centre (root frame; y ignored). */
  centre: Vec3;
  /** The limb's travel direction (root frame, horizontal unit). */
  travel: Vec3;
  /** (ŷ × centre) / R̄: the stroke direction of a turn on the spot (root frame, horizontal). */
  tangent: Vec3;
}

/** A root-frame path point remapped by the turn (gaitGroup.ts). */
export function turnPoint(turn: PathTurn, p: ReadonlyVec3): Vec3 {
  const { a, centre: c, travel: t, tangent: g } = turn;
  const u = (p[0] - c[0]) * t[0] + (p[2] - c[2]) * t[2];
  const k = 1 - Math.abs(a);
  const dx = k * t[0] + a * g[0] - t[0], dz = k * t[2] + a * g[2] - t[2];
  return [p[0] + u * dx, p[1], p[2] + u * dz];
}


/**
 * Where the path sits in the world this step: heading from the root rotation, skew toward the target.
 * `travelLocal` is pathTravelDirection of the path and `pivot` its pathStrokeCentre (precompute both once
 * per path).
 */
export function worldPathFrame(rootPosition: ReadonlyVec3, rootRotation: ReadonlyQuat, travelLocal: ReadonlyVec3,
  steering: SteeringParams, pivot: ReadonlyVec3 = [0, 0, 0]): WorldPathFrame {
  const yaw = headingYaw(rootRotation);
  const travelWorld = headingToWorld([0, 0, 0], yaw, travelLocal);
  const skew = steeringAngle(rootPosition, travelWorld, steering);
  return { yaw, skew, origin: [rootPosition[0], rootPosition[1], rootPosition[2]], pivot: [pivot[0], 0, pivot[2]] };
}

/** A root-frame path point (or pole) → world through a WorldPathFrame. */
export function pathPointToWorld(frame: WorldPathFrame, point: ReadonlyVec3): Vec3 {
  return pathPointToWorldTo([0, 0, 0], frame, point);
}

/** pathPointToWorld into `out` (may be `point`): the same arithmetic, no intermediate arrays (but a turn's). */
export function pathPointToWorldTo(out: Vec3, frame: WorldPathFrame, point: ReadonlyVec3): Vec3 {
  const local = frame.turn ? turnPoint(frame.turn, point) : point;
  const c = Math.cos(frame.skew), s = Math.sin(frame.skew), px = frame.pivot[0], pz = frame.pivot[2];
  const x = local[0] - px, z = local[2] - pz;
  // Skew about the pivot in the root frame, then the heading: R_y(yaw)·(pivot + R_y(skew)·(p − pivot)).
  const lx = px + c * x + s * z, ly = local[1], lz = pz - s * x + c * z;
  const cy = Math.cos(frame.yaw), sy = Math.sin(frame.yaw), o = frame.origin;
  if (!frame.tilt) {
    // headingToWorld(origin, yaw, level)
    out[0] = o[0] + cy * lx + sy * lz; out[1] = o[1] + ly; out[2] = o[2] - sy * lx + cy * lz;
    return out;
  }
  // Then the tilt about the root origin: origin + T·R_y(yaw)·(…), R_y(yaw)·(…) = headingToWorld([0, 0, 0], yaw, level).
  out[0] = 0 + cy * lx + sy * lz; out[1] = 0 + ly; out[2] = 0 - sy * lx + cy * lz;
  quatRotateTo(out, frame.tilt, out);
  out[0] = o[0] + out[0]; out[1] = o[1] + out[1]; out[2] = o[2] + out[2];
  return out;
}

/** All control points to world (for drawing the skewed path). */
export function controlPointsToWorld(frame: WorldPathFrame, points: readonly ReadonlyVec3[]): Vec3[] {
  return points.map((p) => pathPointToWorld(frame, p));
}
