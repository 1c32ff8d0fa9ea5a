/**
 * Creature scale. glTF says metres, but real files are authored in centimetres (an 80-unit Fox reads as an
 * 80 m fox), inches or whatever the artist's scene used; FBX says it in UnitScaleFactor and the FBX reader
 * converts. A creature whose standing height is outside PLAUSIBLE_HEIGHT is flagged when it opens, with one
 * action: rescale it to a height the user gives. The rig records the factor in `skeleton.scale` (metres
 * per file unit); its bones, bodies, joints and controllers are stored already scaled.
 */
import type { RigDocument, RigShape } from '../rig/schema';
import { boneGeometry } from './boneGeometry';
import { measureInput } from './generate';
import type { AuthoringSkeleton } from './skeletonInput';

/** Standing heights (m) a creature may plausibly have: a beetle to a sauropod. */
export const PLAUSIBLE_HEIGHT: readonly [number, number] = [0.05, 20];

export interface CreatureMeasure { height: number; minY: number; maxY: number }

/** Standing height (m, in the skeleton's units): vertical extent of its vertices, else of its bones. */
export function measureSkeleton(sk: AuthoringSkeleton): CreatureMeasure {
  return measureInput(sk, boneGeometry(sk.bones));
}

export interface ScaleProblem {
  height: number;
  message: string;
  /** A factor that brings it into range, guessing the usual authoring units (cm, mm, inches). */
  suggestedScale: number;
}

/** Why this creature's size is implausible, or null. `name` goes into the message. */
export function scaleProblem(sk: AuthoringSkeleton, name = 'the creature'): ScaleProblem | null {
  const { height } = measureSkeleton(sk);
  const [lo, hi] = PLAUSIBLE_HEIGHT;
  if (height >= lo && height <= hi) return null;
  if (!(height > 0)) return { height, message: `${name}: has no height (its vertices and bones are all at one level); cannot judge its scale`, suggestedScale: 1 };
  const suggestedScale = [0.01, 0.001, 0.0254, 100, 1000].find((k) => height * k >= lo && height * k <= hi) ?? 1.7 / height;
  const units = height > hi ? `${height.toFixed(1)} m tall — probably authored in centimetres or another small unit` : `${(height * 1000).toFixed(1)} mm tall — probably authored in a large unit`;
  return { height, message: `${name}: ${units}; plausible creatures are ${lo}–${hi} m. Rescale it to its real height (e.g. ×${suggestedScale} → ${(height * suggestedScale).toFixed(2)} m) so its masses, torques and physics are right.`, suggestedScale };
}

/** The factor that makes the creature `height` metres tall. */
export function scaleForHeight(sk: AuthoringSkeleton, height: number): number {
  if (!(Number.isFinite(height) && height > 0)) throw new Error(`height must be a positive number of metres, got ${height}`);
  const h = measureSkeleton(sk).height;
  if (!(h > 0)) throw new Error('the creature has no height to scale from (its vertices and bones are all at one level)');
  return height / h;
}

/** The authoring input scaled by `factor` (bones, vertices and clip translations). */
export function scaleSkeleton(sk: AuthoringSkeleton, factor: number): AuthoringSkeleton {
  if (factor === 1) return sk;
  return {
    bones: sk.bones.map((b) => ({ ...b, rest: { ...b.rest, translation: [b.rest.translation[0] * factor, b.rest.translation[1] * factor, b.rest.translation[2] * factor] } })),
    skins: sk.skins?.map((s) => ({ ...s, positions: Array.from(s.positions, (x) => x * factor) })),
    clips: sk.clips?.map((c) => ({ ...c, channels: c.channels.map((ch) => (ch.path === 'translation' ? { ...ch, values: Array.from(ch.values, (x) => x * factor) } : ch)) })),
  };
}

const v3 = (v: readonly number[], k: number): [number, number, number] => [v[0]! * k, v[1]! * k, v[2]! * k];

function scaleShape(s: RigShape, k: number): RigShape {
  const base = { ...s, position: v3(s.position, k) } as RigShape & Record<string, unknown>;
  for (const key of ['radius', 'halfHeight'] as const) if (typeof base[key] === 'number') (base as Record<string, unknown>)[key] = (base[key] as number) * k;
  for (const key of ['halfExtents', 'radii'] as const) if (Array.isArray(base[key])) (base as Record<string, unknown>)[key] = v3(base[key] as number[], k);
  if (typeof base.mass === 'number') (base as Record<string, unknown>).mass = (base.mass as number) * k ** 3;
  return base;
}

/**
 * The rig at `factor` times its size: bones, body offsets and shapes, joint frames and prismatic limits,
 * cyclic paths, poles and steering distances, the floor height, and `skeleton.scale`. Mass given by density
 * follows the volume (×k³); an explicit mass is scaled ×k³ too; torques (m·g·L) ×k⁴, and so PD gains.
 * Computed blocks are dropped (they no longer agree).
 */
export function rescaleRig(rig: RigDocument, factor: number): RigDocument {
  if (!(Number.isFinite(factor) && factor > 0)) throw new Error(`scale factor must be a positive number, got ${factor}`);
  const k = factor, k3 = k ** 3, k4 = k ** 4;
  return {
    ...rig,
    skeleton: {
      ...rig.skeleton,
      bones: rig.skeleton.bones.map((b) => ({ ...b, rest: { ...b.rest, translation: v3(b.rest.translation, k) } })),
      scale: (rig.skeleton.scale ?? 1) * k,
    },
    bodies: rig.bodies.map(({ computed: _c, ...b }) => ({
      ...b,
      offset: { ...b.offset, position: v3(b.offset.position, k) },
      shapes: b.shapes.map((s) => scaleShape(s, k)),
      mass: b.mass === null ? null : b.mass * k3,
    })),
    joints: rig.joints.map((j) => {
      const scaled = { ...j, frameA: { ...j.frameA, position: v3(j.frameA.position, k) }, frameB: { ...j.frameB, position: v3(j.frameB.position, k) } } as typeof j;
      if ('motor' in scaled && scaled.motor) {
        const m = scaled.motor;
        const linear = scaled.type === 'prismatic';
        // A slider's force (N) scales as m·g (k³), its gains per metre as k²; a rotary motor's torque as k⁴.
        const kt = linear ? k3 : k4, kg = linear ? k ** 2 : k4;
        (scaled as { motor: typeof m }).motor = { ...m, maxTorque: m.maxTorque * kt, stiffness: m.stiffness * kg, damping: m.damping * kg, frictionTorque: m.frictionTorque * kt };
      }
      if (scaled.type === 'prismatic' && 'limit' in scaled && Array.isArray(scaled.limit)) (scaled as { limit: [number, number] }).limit = [scaled.limit[0] * k, scaled.limit[1] * k];
      // Screw, cylindrical, planar: the pitch (m/rad) and slide limits are lengths; the slide motor a force, as a slider's.
      if (scaled.type === 'screw') scaled.pitch *= k;
      if (scaled.type === 'cylindrical' || scaled.type === 'planar') {
        const m = scaled.slideMotor, r = (l: readonly [number, number] | null): [number, number] | null => (l ? [l[0] * k, l[1] * k] : null);
        scaled.slideMotor = { ...m, maxTorque: m.maxTorque * k3, stiffness: m.stiffness * k ** 2, damping: m.damping * k ** 2, frictionTorque: m.frictionTorque * k3 };
        if (scaled.type === 'cylindrical') scaled.slideLimit = r(scaled.slideLimit);
        else { scaled.slideLimitY = r(scaled.slideLimitY); scaled.slideLimitZ = r(scaled.slideLimitZ); }
      }
      return scaled;
    }),
    controllers: rig.controllers.map((c) => {
      const steering = c.steering ? { ...c.steering } as Record<string, unknown> : c.steering;
      if (steering) {
        for (const key of ['stopRadius', 'arriveRadius', 'restartRadius', 'pivotLead']) if (typeof steering[key] === 'number') steering[key] = (steering[key] as number) * k;
        if (Array.isArray(steering.restPoint)) steering.restPoint = v3(steering.restPoint as number[], k);
      }
      return {
        ...c, effector: { ...c.effector, offset: v3(c.effector.offset, k) },
        controlPoints: c.controlPoints.map((p) => v3(p, k)), pole: v3(c.pole, k), steering: steering as typeof c.steering,
      };
    }),
    simulation: { ...rig.simulation, ground: rig.simulation.ground ? { ...rig.simulation.ground, height: rig.simulation.ground.height * k } : null },
  };
}
