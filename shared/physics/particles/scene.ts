/**
 * The particle scene format ("marionette-particles", version 1): what assets/examples/*.json hold and what
 * particleSceneFromRig / particleSceneFromSkeleton produce. Plain serialisable JSON — the settings half of
 * the settings/runtime split; createParticleSimulation turns it into typed arrays.
 *
 * Units: metres, kilograms, seconds, radians (as the rig format). +Y up.
 *
 *   particles   named points with a mass; a `fixed` constraint pins one (inverse mass 0).
 *   bones       a capsule from `head` to `tip` (radius r). Each bone is a rigid cluster: head, tip, its
 *               optional `frame` particle (the orientation particle that gives the bone an axial angle)
 *               and any `attached` particles (e.g. the hips on the pelvis) are kept at their initial
 *               distances from each other by generated length constraints.
 *   constraints fixed | length | minDistance | angle | swing | hinge | twist (see ParticleConstraint).
 *   impulses    scheduled clicks (the demo's mouse impulses), applied when the simulation reaches `time`.
 *
 * Angles between two bones are measured at their shared particle (the child's head), from a reference
 * direction u to the child's axis v = tip − head:
 *   from 'parent-bone': u points from the shared particle to the parent's other end (the paper's angle:
 *                       π = the two bones in a straight line);
 *   from 'rest-pose'  : u is the child's rest direction carried by the parent's frame, reversed, so the
 *                       angle is π at the rest pose whatever it looks like (needs a parent with a frame).
 */
import { z } from 'zod';
import { formatProblem, parseJsonText, problemsFromIssue, type RigProblem } from '../../problems';

export const PARTICLE_SCENE_FORMAT = 'marionette-particles';
export const PARTICLE_SCENE_VERSION = 1;

// Bounds to what the particle solver simulates in double precision (as the rig's RIG_BOUNDS): outside them a
// value validated once and then overflowed a step to Infinity/NaN (a mass of 5e-324, gravity 1e308).
const L = 1e4; // m
const coord = z.number().min(-L).max(L);
const vec3 = z.tuple([coord, coord, coord]);
const name = z.string().min(1).max(256);
const lengthM = z.number().min(1e-4).max(L);
const angle = z.number().min(-2 * Math.PI).max(2 * Math.PI);

const particleSchema = z.strictObject({
  name,
  position: vec3.describe('Initial position (m), each coordinate within ±1e4 m.'),
  mass: z.number().min(1e-6).max(1e6).describe('Mass (kg, 1e-6–1e6: lighter particles make 1/m overflow the solver). A fixed constraint pins the particle whatever its mass.'),
});

const boneSchema = z.strictObject({
  name,
  head: name.describe('Particle at the joint end.'),
  tip: name.describe('Particle at the far end.'),
  radius: z.number().min(1e-4).max(1e3).describe('Capsule radius (m, 1e-4–1e3) for collision, drawing and picking.'),
  frame: name.nullable().describe('Orientation particle (off the axis) that carries the bone\'s axial angle; null = none (no twist limit, no rest-pose angles).'),
  attached: z.array(name).describe('Further particles moving rigidly with this bone (e.g. the heads of its side children).'),
  collide: z.boolean().describe('Collide with other bones and the floor.'),
});

const limit = { min: angle, max: angle };
const from = z.enum(['parent-bone', 'rest-pose']);

const constraintSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('fixed'), particle: name })
    .describe('The paper\'s fixed point: the particle stays at its initial position (inverse mass 0).'),
  z.strictObject({ type: z.literal('length'), a: name, b: name, length: lengthM.nullable() })
    .describe('|a − b| = length (m); null = the initial distance.'),
  z.strictObject({ type: z.literal('minDistance'), a: name, b: name, distance: lengthM })
    .describe('The paper\'s crude collision: |a − b| ≥ distance (m).'),
  z.strictObject({
    type: z.literal('angle'), parent: name, child: name, ...limit,
    rule: z.enum(['arc', 'distance']).describe('arc: rotate the bones about the shared particle (lengths kept); distance: the paper\'s law-of-cosines distance limit between the two far ends.'),
    from,
  }).describe('Unsigned angle between two bones at their shared particle, in [min, max] ⊂ [0, π] (rad).'),
  z.strictObject({ type: z.literal('swing'), parent: name, child: name, max: z.number().min(0).max(Math.PI) })
    .describe('Cone: the child\'s axis stays within `max` rad of its rest direction carried by the parent\'s frame.'),
  z.strictObject({
    type: z.literal('hinge'), parent: name, child: name, ...limit, from,
    axis: vec3.describe('Hinge axis n (normalised on load).'),
    axisSpace: z.enum(['world', 'parent']).describe('world: a fixed direction; parent: in the parent bone\'s frame (x = side, y = axis, z = side × axis).'),
    planar: z.boolean().describe('Also keep the child in the plane ⊥ n (a true hinge).'),
  }).describe('SIGNED angle from u to v about n, in [min, max] ⊂ [0, 2π] (rad): 170° and 190° are different.'),
  z.strictObject({ type: z.literal('twist'), parent: name, child: name, min: z.number().min(-Math.PI).max(Math.PI), max: z.number().min(-Math.PI).max(Math.PI) })
    .describe('Axial twist of the child relative to the parent (rad, signed, about the child\'s axis); both bones need a frame.'),
]);

const impulseSchema = z.strictObject({
  time: z.number().min(0).max(3600).describe('When (s, 0–3600).'),
  bone: name,
  point: vec3.describe('Clicked point (m, world), on or near the bone.'),
  impulse: z.tuple([z.number().min(-1e4).max(1e4), z.number().min(-1e4).max(1e4), z.number().min(-1e4).max(1e4)]).describe('Impulse (N·s, each component within ±1e4).'),
});

export const particleSceneSchema = z.strictObject({
  $comment: z.string().optional(),
  format: z.literal(PARTICLE_SCENE_FORMAT),
  version: z.literal(PARTICLE_SCENE_VERSION),
  name: z.string().min(1).max(256),
  description: z.string().optional(),
  settings: z.strictObject({
    dt: z.number().min(1e-5).max(0.1).describe('Fixed step (s, 1e-5–0.1: finer steps make a simulated second take unbounded time).'),
    iterations: z.number().int().min(1).max(1000).describe('Relaxation iterations per step.'),
    gravity: z.tuple([z.number().min(-1e3).max(1e3), z.number().min(-1e3).max(1e3), z.number().min(-1e3).max(1e3)]).describe('m/s², each component within ±1e3 (100 g).'),
    damping: z.number().min(0).max(1e6).describe('Velocity damping (1/s, 0–1e6): v ← v / (1 + damping·dt).'),
    friction: z.number().min(0).max(1e3).describe('Coulomb μ between bones (0–1000).'),
    floor: z.strictObject({ height: coord, friction: z.number().min(0).max(1e3) }).nullable().describe('Floor plane y = height (within ±1e4 m), or null.'),
    duration: z.number().positive().max(600).describe('How long the demo runs by default (s, at most 600).'),
  }),
  particles: z.array(particleSchema).min(1).max(4096),
  bones: z.array(boneSchema).max(4096),
  constraints: z.array(constraintSchema).max(16384),
  impulses: z.array(impulseSchema).max(4096),
});

export type ParticleScene = z.infer<typeof particleSceneSchema>;
export type ParticleSpec = ParticleScene['particles'][number];
export type BoneSpec = ParticleScene['bones'][number];
export type ParticleConstraint = ParticleScene['constraints'][number];
export type ScheduledImpulse = ParticleScene['impulses'][number];

export class ParticleSceneError extends Error {
  constructor(readonly problems: RigProblem[], readonly source?: string) {
    super(`${source ? `${source}: ` : ''}${problems.length === 1 ? '' : `${problems.length} problems:\n  `}${problems.map(formatProblem).join('\n  ')}`);
    this.name = 'ParticleSceneError';
  }
}

/** JSON text or a parsed value → a checked ParticleScene; throws ParticleSceneError listing every problem
 *  (JSON path + reason), prefixed with `source` (the file name). */
export function loadParticleScene(input: unknown, source?: string): ParticleScene {
  let value = input;
  if (typeof input === 'string') {
    if (input.length > 16 * 1024 * 1024) throw new ParticleSceneError([{ path: '', message: `is ${(input.length / 1048576).toFixed(1)} MB long; particle scenes are limited to 16 MB` }], source);
    try { value = JSON.parse(input); } catch (e) {
      // Where and why, as the rig validator reports it (V8's own message often has no position).
      const parsed = parseJsonText(input, 'a particle scene');
      const message = !parsed.ok && /^is not valid JSON/.test(parsed.message) ? parsed.message : `is not valid JSON (${(e as Error).message})`;
      throw new ParticleSceneError([{ path: '', message }], source);
    }
  }
  if (value && typeof value === 'object' && 'format' in value && (value as { format: unknown }).format !== PARTICLE_SCENE_FORMAT) {
    // A rig is the likely mistake: the solver takes scenes only, the runtime builds one from a rig.
    const rig = (value as { format: unknown }).format === 'marionette-rig'
      ? '; it is a rig: build its scene with particleSceneFromRig (shared/runtime/particles.ts), or call the package\'s createParticleSimulation, which takes either' : '';
    throw new ParticleSceneError([{ path: 'format', message: `must be "${PARTICLE_SCENE_FORMAT}" (this is not a particle scene${rig})` }], source);
  }
  if (value && typeof value === 'object' && typeof (value as { version?: unknown }).version === 'number' && (value as { version: number }).version > PARTICLE_SCENE_VERSION) {
    throw new ParticleSceneError([{ path: 'version', message: `is ${(value as { version: number }).version}, newer than this program reads (${PARTICLE_SCENE_VERSION})` }], source);
  }
  const parsed = particleSceneSchema.safeParse(value);
  if (!parsed.success) throw new ParticleSceneError(parsed.error.issues.flatMap(problemsFromIssue), source);
  const problems = checkSceneSemantics(parsed.data);
  if (problems.length > 0) throw new ParticleSceneError(problems, source);
  return parsed.data;
}

/** What the schema cannot say: names resolve and are unique, bones are not degenerate, angle constraints
 *  join bones that share a particle, ranges are ordered, frames exist where the constraint needs one. */
export function checkSceneSemantics(scene: ParticleScene): RigProblem[] {
  const problems: RigProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  const particles = new Map<string, ParticleSpec>();
  scene.particles.forEach((p, i) => {
    if (particles.has(p.name)) add(`particles[${i}].name`, `"${p.name}" is used by an earlier particle; names must be unique`);
    particles.set(p.name, p);
  });
  const particle = (path: string, n: string) => {
    if (!particles.has(n)) add(path, `names particle "${n}", which is not in \`particles\``);
    return particles.get(n);
  };
  const bones = new Map<string, BoneSpec>();
  scene.bones.forEach((b, i) => {
    const at = `bones[${i}]`;
    if (bones.has(b.name)) add(`${at}.name`, `"${b.name}" is used by an earlier bone; names must be unique`);
    bones.set(b.name, b);
    const h = particle(`${at}.head`, b.head), t = particle(`${at}.tip`, b.tip);
    if (b.head === b.tip) add(`${at}.tip`, 'is the same particle as head; a bone joins two particles');
    else if (h && t && dist(h.position, t.position) < 1e-6) add(`${at}.tip`, `starts at the same position as head "${b.head}"; a bone needs a length > 0`);
    if (b.frame !== null) {
      const f = particle(`${at}.frame`, b.frame);
      if (f && h && t && offAxis(h.position, t.position, f.position) < 1e-4) add(`${at}.frame`, `particle "${b.frame}" lies on the bone's axis; the orientation particle must sit off the axis (e.g. at the capsule surface)`);
      if (b.frame === b.head || b.frame === b.tip) add(`${at}.frame`, 'must be a particle of its own, not head or tip');
    }
    b.attached.forEach((a, k) => particle(`${at}.attached[${k}]`, a));
  });
  const bone = (path: string, n: string) => {
    const b = bones.get(n);
    if (!b) add(path, `names bone "${n}", which is not in \`bones\``);
    return b;
  };
  scene.constraints.forEach((c, i) => {
    const at = `constraints[${i}]`;
    switch (c.type) {
      case 'fixed': particle(`${at}.particle`, c.particle); break;
      case 'length': case 'minDistance':
        particle(`${at}.a`, c.a); particle(`${at}.b`, c.b);
        if (c.a === c.b) add(`${at}.b`, 'is the same particle as a');
        break;
      default: {
        const p = bone(`${at}.parent`, c.parent), ch = bone(`${at}.child`, c.child);
        if (c.parent === c.child) add(`${at}.child`, 'is the same bone as parent');
        if (p && ch && c.parent !== c.child && ![p.head, p.tip, ...p.attached].includes(ch.head)) {
          add(`${at}.child`, `bone "${c.child}" must start (head "${ch.head}") at a particle of bone "${c.parent}" (its head, tip or an attached particle): the angle is measured there`);
        }
        if ('min' in c && c.min > c.max) add(`${at}.min`, `is ${c.min} rad, more than max ${c.max} rad`);
        if (c.type === 'angle' && (c.min < 0 || c.max > Math.PI)) add(`${at}`, `an unsigned angle lies in [0, π]; got [${c.min}, ${c.max}] rad (use a hinge for a signed angle)`);
        if (c.type === 'hinge' && (c.min < 0 || c.max > 2 * Math.PI)) add(`${at}`, `a signed hinge angle lies in [0, 2π] (π = straight / rest); got [${c.min}, ${c.max}] rad`);
        if (c.type === 'hinge' && Math.hypot(...c.axis) < 1e-9) add(`${at}.axis`, 'must be a non-zero vector');
        const needsParentFrame = c.type === 'swing' || c.type === 'twist' || ('from' in c && c.from === 'rest-pose') || (c.type === 'hinge' && c.axisSpace === 'parent');
        if (needsParentFrame && p && p.frame === null) add(`${at}.parent`, `bone "${c.parent}" has no frame particle, which this ${c.type} constraint needs to carry its reference`);
        if (c.type === 'twist' && ch && ch.frame === null) add(`${at}.child`, `bone "${c.child}" has no frame particle; a twist limit needs one on both bones`);
        if (c.type === 'angle' && c.rule === 'distance' && c.from !== 'parent-bone') add(`${at}.from`, 'the paper\'s distance rule measures from the parent bone; use "parent-bone"');
      }
    }
  });
  scene.impulses.forEach((imp, i) => bone(`impulses[${i}].bone`, imp.bone));
  return problems;
}

const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
function offAxis(h: readonly number[], t: readonly number[], p: readonly number[]): number {
  const ex = t[0]! - h[0]!, ey = t[1]! - h[1]!, ez = t[2]! - h[2]!;
  const px = p[0]! - h[0]!, py = p[1]! - h[1]!, pz = p[2]! - h[2]!;
  const cx = py * ez - pz * ey, cy = pz * ex - px * ez, cz = px * ey - py * ex;
  return Math.hypot(cx, cy, cz) / Math.hypot(ex, ey, ez);
}
