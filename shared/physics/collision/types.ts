/**
 * Collision geometry of the physics core: world-placed shapes, contact manifolds, the narrow phase, the
 * broad phase and ray casts. The solver (shared/physics/world.ts) consumes only what index.ts exports.
 *
 * Conventions (all of them, everywhere in this folder):
 * - Units: metres. Right-handed, +Y up. Quaternions [x, y, z, w].
 * - A world-placed shape is updated in place each step from its body pose; nothing in the per-step path
 *   (pose update, broad phase, narrow phase) allocates.
 * - Contact normal: unit vector pointing FROM shape A TO shape B (A, B = first and second argument).
 *   Pushing B along +normal and A along −normal separates them.
 * - Depth: (pointA − pointB)·normal. Positive = overlapping by that many metres; negative (down to
 *   −margin) = a speculative contact that is still apart by −depth.
 * - The static ground plane y = h is always shape B, so its normal is (0, −1, 0) (from the shape down
 *   into the ground).
 * - Determinism: same inputs → same outputs in the same order. No Math.random, no hash-order iteration.
 */

// ---------------------------------------------------------------------------------------------- shapes

/** Shape kinds as small integers (dispatch tables are indexed by them). */
export const ShapeKind = { sphere: 0, capsule: 1, box: 2, cylinder: 3, ellipsoid: 4 } as const;
export type ShapeKind = (typeof ShapeKind)[keyof typeof ShapeKind];

/** Local axis index of a capsule or cylinder inside its shape frame: 0 = x, 1 = y, 2 = z. */
export type AxisIndex = 0 | 1 | 2;

/**
 * A collision shape placed in the world. Built once from a `ShapeDesc` by `createWorldShape`, then moved
 * every step by `updateWorldShape(shape, bodyPosition, bodyRotation)` — in place, no allocation.
 *
 * Geometry (shape frame = body frame · shape local pose):
 * - sphere: `radius`.
 * - capsule: segment from −halfHeight to +halfHeight along local `axis`, swept by `radius`.
 * - box: `halfExtents` along local x, y, z.
 * - cylinder: along local `axis`, from −halfHeight to +halfHeight, `radius`. Collides as an exact
 *   cylinder against the ground plane and spheres; against boxes, capsules, cylinders and ellipsoids it goes
 *   through GJK/EPA on the exact cylinder support and a face-clipping manifold (cap disc approximated by an
 *   8-gon only to pick manifold points, never for the depth).
 * - ellipsoid: semi-axes `halfExtents` along local x, y, z; collides as a true ellipsoid (GJK/EPA),
 *   one contact point per pair (it is smooth, one point is the whole contact). `radius` = largest semi-axis.
 */
export interface WorldShape {
  readonly kind: ShapeKind;
  /** Sphere/capsule/cylinder radius; ellipsoid: largest semi-axis; box: 0. */
  readonly radius: number;
  /** Capsule: half the cylindrical part. Cylinder: half the total height. Others: 0. */
  readonly halfHeight: number;
  /** Capsule/cylinder axis inside the shape frame (already folded with ShapeDesc.axis). Others: 1. */
  readonly axis: AxisIndex;
  /** Box half extents; ellipsoid semi-axes; sphere/capsule/cylinder: the local AABB half extents. Length 3. */
  readonly halfExtents: Float64Array;

  /** Pose of the shape in its body's frame (from ShapeDesc.position/rotation). Length 3 and 4. */
  readonly localPosition: Float64Array;
  readonly localRotation: Float64Array;

  /** World pose of the shape frame, written by updateWorldShape. position: 3, rotation: quaternion 4. */
  readonly position: Float64Array;
  readonly rotation: Float64Array;
  /** World rotation matrix, row-major 3×3: world = matrix·local + position. Column k = world direction
   *  of the shape's local axis k (so a capsule's world axis is column `axis`). */
  readonly matrix: Float64Array;
  /** World AABB [minX, minY, minZ, maxX, maxY, maxZ], grown by `aabbMargin` on every side. */
  readonly aabb: Float64Array;

  /** Index of the owning body in the solver's arrays. Shapes of the same body never collide. */
  body: number;
  /** Free slot for the solver (e.g. its own shape index or material index). Not read here. */
  userId: number;
  /** Collision filter: shapes a, b may collide iff (a.group & b.mask) !== 0 && (b.group & a.mask) !== 0. */
  group: number;
  mask: number;
  /** False for static and kinematic bodies: the broad phase never reports a pair of two non-dynamic
   *  shapes. */
  dynamic: boolean;
  /** AABB growth (m) on each side, typically the speculative contact margin, so the broad phase reports
   *  pairs before they touch. Default 0. Read by updateWorldShape. */
  aabbMargin: number;
}

/** Options of createWorldShape; all optional. */
export interface WorldShapeOptions {
  body?: number;
  userId?: number;
  group?: number;     // default 1
  mask?: number;      // default 0xffffffff (all)
  dynamic?: boolean;  // default true
  aabbMargin?: number; // default 0
  /** Name used in error messages, e.g. "body 'pelvis' shape 0". */
  label?: string;
}

// ---------------------------------------------------------------------------------------------- contacts

/** At most this many contact points per manifold (a face-face contact is reduced to its 4 best). */
export const MAX_MANIFOLD_POINTS = 4;

/**
 * The contact between two shapes A and B: one shared normal and up to 4 points. Preallocate one per pair
 * slot (`new ContactManifold()` from index.ts) and let the narrow phase overwrite it each step.
 *
 * For point i (0 ≤ i < count), stored at [3i, 3i+1, 3i+2]:
 * - pointA: world point on A's surface (the deepest point of A into B),
 * - pointB: world point on B's surface, pointB = pointA − depth[i]·normal,
 * - depth[i] = (pointA − pointB)·normal: > 0 overlapping, ≤ 0 speculative (apart by −depth ≤ margin),
 * - featureId[i]: a stable id of the pair of features (face/edge/vertex of A and of B) that produced the
 *   point. It does not change while the same features touch, so the solver can match points across steps
 *   and warm-start their impulses. Ids are unique within one manifold.
 */
export interface ContactManifoldData {
  count: number;
  /** Unit normal from A to B. Length 3. Meaningful only when count > 0. */
  readonly normal: Float64Array;
  /** Length 12 (4 points × xyz). */
  readonly pointA: Float64Array;
  /** Length 12. */
  readonly pointB: Float64Array;
  /** Length 4. */
  readonly depth: Float64Array;
  /** Length 4. */
  readonly featureId: Uint32Array;
}

/**
 * Narrow phase entry points (implemented in narrowphase.ts / ground.ts):
 *
 * `collide(a, b, margin, out): number` — contact between two world shapes of any kinds, normal A→B.
 *   Writes `out` and returns out.count. Points are reported while the shapes overlap or are closer than
 *   `margin` (m, ≥ 0; the speculative margin). Separated by more than margin → 0.
 *
 * `collideGround(shape, height, margin, out): number` — contact of a shape (A) with the static ground
 *   half-space y ≤ height (B). Normal (0, −1, 0). Box: up to 4 points (its lowest face/edge/corner),
 *   cylinder standing: 4 rim points, cylinder lying: 2, capsule lying: 2, sphere/ellipsoid: 1.
 */
export type CollideFn = (a: WorldShape, b: WorldShape, margin: number, out: ContactManifoldData) => number;
export type CollideGroundFn = (shape: WorldShape, height: number, margin: number, out: ContactManifoldData) => number;

// ---------------------------------------------------------------------------------------------- broad phase

/** Extra exclusion of body pairs, asked by the broad phase once per candidate pair whose AABBs overlap and
 *  whose groups/masks match. The solver uses it to skip jointed bodies (collision between jointed bodies is
 *  off by default). `bodyA < bodyB` always. Return true to drop the pair. */
export interface PairExclusion {
  excluded(bodyA: number, bodyB: number): boolean;
}

/**
 * Broad phase (SweepAndPrune in broadphase.ts): `update(shapes, count, exclusion?)` takes the solver's
 * shape array (indices 0..count−1, AABBs already updated) and writes the overlapping pairs:
 * `pairs[2k], pairs[2k+1]` = shape indices with `pairs[2k] < pairs[2k+1]`, for k < pairCount.
 * Pairs are dropped when both shapes belong to the same body, neither is dynamic, the group/mask test
 * fails, or the exclusion says so. Order: deterministic — a function of the AABBs, the indices and the
 * sweep axis only (the sort key is (aabb min on the axis, index), a total order), never of history.
 * Cost: incremental insertion sort on the sweep axis (≈ linear when bodies move a little per step) plus
 * the sweep over overlapping intervals.
 */
export interface BroadPhaseResult {
  readonly pairs: Int32Array;
  readonly pairCount: number;
}

// ---------------------------------------------------------------------------------------------- ray casts

/**
 * Result of a ray cast (raycast.ts): `raycastShape(shape, origin, direction, maxDistance, out): boolean`
 * and `raycastGround(height, origin, direction, maxDistance, out): boolean`. `direction` need not be unit
 * (it is normalised); `distance` is in metres along the unit direction, 0 ≤ distance ≤ maxDistance.
 * A ray starting inside a solid reports distance 0, the origin as point and −direction as normal.
 */
export interface RayHitData {
  distance: number;
  /** World hit point. Length 3. */
  readonly point: Float64Array;
  /** Outward unit surface normal at the hit point. Length 3. */
  readonly normal: Float64Array;
}
