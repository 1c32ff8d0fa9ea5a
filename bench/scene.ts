/**
 * Engine-neutral benchmark scenes: what every adapter (Marionette, Rapier, Jolt) builds, body for body
 * and joint for joint, so that the figures compare the same physics.
 *
 * Conventions (from ragdoll11.json): +Y up, SI units; every body starts with identity orientation, so a
 * body's local frame is parallel to the world frame at rest and a joint's local anchor on a body is
 * `anchor − body.position`. Joint frame axes are given in world = body-local coordinates.
 */
import type { Vec3 } from '../shared/math/vec3';
import type { RagdollFile, RagdollMotor } from './ragdollFile';

export type SceneShape =
  /** Capsule along the body-local `axis`; halfHeight = half the cylindrical part (m). */
  | { type: 'capsule'; radius: number; halfHeight: number; axis: 'x' | 'y' | 'z' }
  | { type: 'box'; halfExtents: Vec3 };

export interface SceneBody {
  name: string;
  /** Which copy of the ragdoll (0 for the pile). */
  copy: number;
  shape: SceneShape;
  /** kg; the inertia is the solid shape's, scaled to this mass. */
  mass: number;
  /** World position of the centre at rest (m); orientation is identity. */
  position: Vec3;
}

interface SceneJointBase {
  name: string;
  copy: number;
  /** Indices into BenchScene.bodies: A is the parent, B the child. */
  bodyA: number;
  bodyB: number;
  /** World anchor at rest (m). */
  anchor: Vec3;
  localAnchorA: Vec3;
  localAnchorB: Vec3;
  /** PD drive toward the rest pose, or null when the scene runs with motors off. */
  motor: RagdollMotor | null;
}

export type SceneJoint =
  | (SceneJointBase & {
      type: 'ball';
      /** Frame X: twist axis, from the joint into the child. */
      twistAxis: Vec3;
      /** Frame Y. Frame Z = X × Y. */
      planeAxis: Vec3;
      /** Rotation about frame X, [min, max] rad. */
      twistLimit: [number, number];
      /** Symmetric half-angles of rotation about frame Y and frame Z (rad). */
      swingLimitY: number;
      swingLimitZ: number;
    })
  | (SceneJointBase & {
      type: 'hinge';
      /** Rotation of B relative to A about `axis`, right-hand rule, 0 at rest. */
      axis: Vec3;
      /** Reference axis perpendicular to `axis`. */
      normalAxis: Vec3;
      limit: [number, number];
    });

export interface SceneMaterial { friction: number; restitution: number; linearDamping: number; angularDamping: number }

export interface BenchScene {
  /** 'ragdoll11' or 'pile500'. */
  name: string;
  /** Ragdoll copies (1 for the pile). */
  n: number;
  motors: boolean;
  gravity: Vec3;
  /** Step length (s). */
  dt: number;
  material: SceneMaterial;
  /** Static box. */
  ground: { halfExtents: Vec3; position: Vec3 };
  bodies: SceneBody[];
  joints: SceneJoint[];
  /** Index of copy 0's head body (for the fall time), or null when the scene has no head. */
  headBody: number | null;
}

const copy3 = (v: readonly number[]): Vec3 => [v[0]!, v[1]!, v[2]!];

/** Grid position of copy i (x, z), as the file's `copies.layout` states: cols = ceil(sqrt(N)). */
export function copyOffset(i: number, n: number, spacing: number): Vec3 {
  const cols = Math.ceil(Math.sqrt(n));
  return [(i % cols) * spacing, 0, Math.floor(i / cols) * spacing];
}

/** The ragdoll of `file` copied `n` times on the file's grid, with its motors on or off. */
export function buildRagdollScene(file: RagdollFile, n: number, motors: boolean): BenchScene {
  if (!Number.isInteger(n) || n < 1) throw new Error(`ragdoll scene: copy count must be a positive integer (got ${n})`);
  const bodies: SceneBody[] = [];
  const joints: SceneJoint[] = [];
  const perCopy = file.bodies.length;
  const indexOf = new Map(file.bodies.map((b, i) => [b.name, i] as const));

  for (let c = 0; c < n; c++) {
    const offset = copyOffset(c, n, file.copies.spacing);
    const base = c * perCopy;
    for (const body of file.bodies) {
      bodies.push({
        name: body.name,
        copy: c,
        shape: { type: 'capsule', radius: body.radius, halfHeight: body.halfHeight, axis: body.axis },
        mass: body.mass,
        position: [body.position[0] + offset[0], body.position[1] + offset[1], body.position[2] + offset[2]],
      });
    }
    for (const joint of file.joints) {
      const a = base + indexOf.get(joint.parent)!;
      const b = base + indexOf.get(joint.child)!;
      const anchor: Vec3 = [joint.anchor[0] + offset[0], joint.anchor[1] + offset[1], joint.anchor[2] + offset[2]];
      const pa = bodies[a]!.position;
      const pb = bodies[b]!.position;
      const common = {
        name: joint.name,
        copy: c,
        bodyA: a,
        bodyB: b,
        anchor,
        localAnchorA: [anchor[0] - pa[0], anchor[1] - pa[1], anchor[2] - pa[2]] as Vec3,
        localAnchorB: [anchor[0] - pb[0], anchor[1] - pb[1], anchor[2] - pb[2]] as Vec3,
        motor: motors ? { ...joint.motor } : null,
      };
      if (joint.type === 'ball') {
        joints.push({
          ...common,
          type: 'ball',
          twistAxis: copy3(joint.twistAxis),
          planeAxis: copy3(joint.planeAxis),
          twistLimit: [joint.twistLimit[0], joint.twistLimit[1]],
          swingLimitY: joint.swingLimitY,
          swingLimitZ: joint.swingLimitZ,
        });
      } else {
        joints.push({ ...common, type: 'hinge', axis: copy3(joint.axis), normalAxis: copy3(joint.normalAxis), limit: [joint.limit[0], joint.limit[1]] });
      }
    }
  }
  return {
    name: file.name,
    n,
    motors,
    gravity: copy3(file.world.gravity),
    dt: file.world.dt,
    material: { ...file.material },
    ground: { halfExtents: copy3(file.ground.halfExtents), position: copy3(file.ground.position) },
    bodies,
    joints,
    headBody: indexOf.get(file.headBody)!,
  };
}

export interface BoxPileOptions {
  /** Boxes along x, z and y (default 10 × 10 × 5 = 500). */
  nx?: number;
  nz?: number;
  layers?: number;
  /** Box edge length (m), default 0.5. */
  size?: number;
  /** Gap between neighbouring boxes and above the ground (m), default 0.05. */
  gap?: number;
  /** kg per box, default 20. */
  mass?: number;
}

/**
 * A pile of boxes: a grid dropped `gap` apart onto the same ground box as the ragdoll. Odd layers are
 * shifted by a quarter of a box so columns interlock instead of landing as neat towers.
 */
export function buildBoxPile(file: RagdollFile, options: BoxPileOptions = {}): BenchScene {
  const { nx = 10, nz = 10, layers = 5, size = 0.5, gap = 0.05, mass = 20 } = options;
  const h = size / 2;
  const pitch = size + gap;
  const bodies: SceneBody[] = [];
  for (let k = 0; k < layers; k++) {
    const shift = k % 2 === 1 ? size / 4 : 0;
    for (let j = 0; j < nz; j++) {
      for (let i = 0; i < nx; i++) {
        bodies.push({
          name: `box${bodies.length}`,
          copy: 0,
          shape: { type: 'box', halfExtents: [h, h, h] },
          mass,
          position: [(i - (nx - 1) / 2) * pitch + shift, gap + h + k * pitch, (j - (nz - 1) / 2) * pitch + shift],
        });
      }
    }
  }
  return {
    name: `pile${bodies.length}`,
    n: 1,
    motors: false,
    gravity: copy3(file.world.gravity),
    dt: file.world.dt,
    material: { ...file.material },
    ground: { halfExtents: copy3(file.ground.halfExtents), position: copy3(file.ground.position) },
    bodies,
    joints: [],
    headBody: null,
  };
}
