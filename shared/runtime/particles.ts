/**
 * One creature, either solver: a particle scene from a skeleton (bones' rest TRS, as in the rig format or
 * a glTF skin) or from a whole RigDocument (then radii, masses and limits come from its bodies and joints).
 * This is the runtime's side of the split: the particle solver (shared/physics/particles) is built from a
 * scene — its settings — and imports neither the rig nor the runtime; the rig reaches it through here.
 *
 * Mapping:
 *  - a particle at every bone's head (the joint), named after the bone; a leaf bone gets a tip particle
 *    `NAME_tip` at head + (local +Y)·length; a bone's tip is its main child's head — the child furthest
 *    along the bone's local +Y — and its other children's heads are `attached` to it (rigid with it:
 *    the hips on the pelvis, the shoulders on the spine);
 *  - an orientation particle `NAME_frame` on the capsule surface at mid-bone, toward the bone's local +X:
 *    it carries the bone's roll, so twist limits and rest-pose angles exist;
 *  - mass m of a bone: 3/8 to head, 3/8 to tip, 1/4 to the frame particle, whose axial inertia is then
 *    m r²/4 (a solid cylinder has m r²/2: the particle bone is a little easier to spin);
 *  - limits (RigDocument joints, bodyA's bone = parent, bodyB's bone = child):
 *      ball  → swing (cone of half-angle max(swingY, swingZ) about the rest direction; the ellipse becomes
 *              its circumscribed circle) and twist (about the child's axis; sign follows frame X·axis);
 *      hinge → signed hinge about the joint's frame X, carried by the parent's frame, planar,
 *              angle π + α for the rig's α ∈ [lo, hi]; twist locked to ±0.05 rad;
 *      fixed → swing 0.01 and twist ±0.01 rad; prismatic → not representable (listed in `$comment`).
 */
import { quatRotate, type Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { boneRestWorld, bodyRestWorld, orderBones, type BoneWorld } from '../rig/restPose';
import type { Bone, RigBody, RigDocument, RigShape } from '../rig/schema';
import { DEFAULT_ITERATIONS } from '../physics/particles/constants';
import { PARTICLE_SCENE_FORMAT, PARTICLE_SCENE_VERSION, type ParticleConstraint, type ParticleScene } from '../physics/particles/scene';
import { createParticleSimulation as simulateScene, simulateBuiltScene, type ParticleSimulation } from '../physics/particles/simulation';

/** Limits of the joint at a child bone's head, relative to its parent bone. Angles in rad; hinge axis in
 *  world coordinates at the rest pose. */
export interface BoneLimits {
  swing?: number;
  twist?: readonly [number, number];
  hinge?: { axis: readonly [number, number, number]; min: number; max: number };
}

export interface SkeletonParticleOptions {
  name?: string;
  /** Per bone (by name) overrides; defaults: radius 0.04 m, mass 1 kg, leaf length 0.1 m, collide true. */
  radius?: Record<string, number>;
  mass?: Record<string, number>;
  leafLength?: Record<string, number>;
  limits?: Record<string, BoneLimits>;
  settings?: Partial<ParticleScene['settings']>;
  /** Give every bone an orientation particle (default true). */
  frames?: boolean;
}

export const DEFAULT_PARTICLE_SETTINGS: ParticleScene['settings'] = {
  dt: 1 / 120, iterations: DEFAULT_ITERATIONS, gravity: [0, -9.81, 0], damping: 0.05, friction: 0.5,
  floor: { height: 0, friction: 0.8 }, duration: 10,
};

const r9 = (v: number) => Math.round(v * 1e9) / 1e9 + 0;
const v3 = (v: readonly number[]): [number, number, number] => [r9(v[0]!), r9(v[1]!), r9(v[2]!)];

export function particleSceneFromSkeleton(bones: readonly Bone[], options: SkeletonParticleOptions = {}): ParticleScene {
  return build(bones, boneRestWorld(bones), {
    name: options.name ?? 'skeleton',
    radius: (b) => options.radius?.[b] ?? 0.04,
    mass: (b) => options.mass?.[b] ?? 1,
    leafLength: (b) => options.leafLength?.[b] ?? 0.1,
    collide: () => true,
    limits: (b) => options.limits?.[b],
    settings: { ...DEFAULT_PARTICLE_SETTINGS, ...options.settings },
    frames: options.frames ?? true,
    notes: [],
  });
}

export function particleSceneFromRig(rig: RigDocument): ParticleScene {
  const worlds = boneRestWorld(rig.skeleton.bones);
  const bodyByBone = new Map(rig.bodies.map((b) => [b.bone, b]));
  const bodyWorld = bodyRestWorld(rig.bodies, worlds);
  const boneOfBody = new Map(rig.bodies.map((b) => [b.name, b.bone]));
  const limits = new Map<string, BoneLimits>();
  const notes: string[] = [];
  for (const j of rig.joints) {
    const child = boneOfBody.get(j.bodyB), parentBody = bodyWorld.get(j.bodyA);
    if (!child || !parentBody) continue;
    // Joint frame X in world at rest: bodyA world rotation · frameA rotation · [1, 0, 0].
    const xAxis = quatRotate(parentBody.rotation, quatRotate(j.frameA.rotation as Quat, [1, 0, 0]));
    const childAxis = quatRotate(worlds.get(child)!.rotation, [0, 1, 0]);
    const sign = xAxis[0] * childAxis[0] + xAxis[1] * childAxis[1] + xAxis[2] * childAxis[2] < 0 ? -1 : 1;
    if (j.type === 'ball') {
      const l: BoneLimits = {};
      if (j.swingLimit) l.swing = Math.max(j.swingLimit[0], j.swingLimit[1]);
      if (j.twistLimit) l.twist = sign > 0 ? [j.twistLimit[0], j.twistLimit[1]] : [-j.twistLimit[1], -j.twistLimit[0]];
      limits.set(child, l);
    } else if (j.type === 'hinge') {
      limits.set(child, { twist: [-0.05, 0.05], hinge: { axis: xAxis, min: j.limit ? j.limit[0] : -Math.PI, max: j.limit ? j.limit[1] : Math.PI } });
    } else if (j.type === 'fixed') limits.set(child, { swing: 0.01, twist: [-0.01, 0.01] });
    else notes.push(`joint ${j.name}: ${j.type} joints have no particle equivalent (their slides need a rigid solver); the bones stay rigidly joined`);
  }
  const ground = rig.simulation.ground;
  const mean = (f: (b: RigBody) => number) => rig.bodies.reduce((a, b) => a + f(b), 0) / rig.bodies.length;
  return build(rig.skeleton.bones, worlds, {
    name: rig.name,
    radius: (b) => { const body = bodyByBone.get(b); return body ? shapeRadius(body.shapes[0]!) : 0.04; },
    mass: (b) => { const body = bodyByBone.get(b); return body ? bodyMass(body) : 0.5; },
    leafLength: (b) => { const body = bodyByBone.get(b); return body ? shapeLength(body.shapes[0]!) : 0.1; },
    collide: (b) => bodyByBone.has(b),
    limits: (b) => limits.get(b),
    settings: {
      ...DEFAULT_PARTICLE_SETTINGS,
      dt: rig.simulation.dt,
      gravity: v3(rig.simulation.gravity),
      damping: r9(mean((b) => b.linearDamping)),
      friction: r9(mean((b) => b.material.friction)),
      floor: ground ? { height: ground.height, friction: ground.friction } : null,
    },
    frames: true,
    notes,
  });
}

interface BuildOptions {
  name: string;
  radius: (bone: string) => number;
  mass: (bone: string) => number;
  leafLength: (bone: string) => number;
  collide: (bone: string) => boolean;
  limits: (bone: string) => BoneLimits | undefined;
  settings: ParticleScene['settings'];
  frames: boolean;
  notes: string[];
}

function build(bonesIn: readonly Bone[], worlds: Map<string, BoneWorld>, o: BuildOptions): ParticleScene {
  const { ordered } = orderBones(bonesIn);
  const children = new Map<string, Bone[]>();
  for (const b of ordered) if (b.parent !== null) children.set(b.parent, [...(children.get(b.parent) ?? []), b]);
  const particles: ParticleScene['particles'] = [];
  const pos = new Map<string, Vec3>();
  const mass = new Map<string, number>();
  const addParticle = (name: string, p: Vec3) => { particles.push({ name, position: v3(p), mass: 0 }); pos.set(name, p); mass.set(name, 0); return name; };
  const headParticle = new Map<string, string>();
  const bones: ParticleScene['bones'] = [];
  const constraints: ParticleConstraint[] = [];

  for (const b of ordered) {
    const w = worlds.get(b.name)!;
    const head = headParticle.get(b.name) ?? addParticle(b.name, w.position);
    headParticle.set(b.name, head);
    const yAxis = quatRotate(w.rotation, [0, 1, 0]);
    const kids = children.get(b.name) ?? [];
    const along = (c: Bone) => dot(sub(worlds.get(c.name)!.position, w.position), yAxis);
    const main = kids.filter((c) => along(c) > 1e-6).sort((a, c) => along(c) - along(a))[0];
    let tip: string;
    if (main) { tip = addParticle(main.name, worlds.get(main.name)!.position); headParticle.set(main.name, tip); }
    else tip = addParticle(`${b.name}_tip`, addScaled(w.position, yAxis, o.leafLength(b.name)));
    const attached: string[] = [];
    for (const c of kids) {
      if (c === main) continue;
      const cp = worlds.get(c.name)!.position;
      if (dist(cp, w.position) < 1e-6) headParticle.set(c.name, head);
      else { attached.push(addParticle(c.name, cp)); headParticle.set(c.name, c.name); }
    }
    const radius = o.radius(b.name), m = o.mass(b.name);
    let frame: string | null = null;
    if (o.frames) {
      const e = normalize(sub(pos.get(tip)!, pos.get(head)!));
      let side = quatRotate(w.rotation, [1, 0, 0]);
      side = sub(side, scaleV(e, dot(side, e)));
      if (Math.hypot(...side) < 1e-6) side = Math.abs(e[0]) < 0.9 ? [0, -e[2], e[1]] : [e[2], 0, -e[0]];
      const mid = scaleV(addV(pos.get(head)!, pos.get(tip)!), 0.5);
      frame = addParticle(`${b.name}_frame`, addScaled(mid, normalize(side), radius));
      mass.set(frame, m / 4);
    }
    mass.set(head, mass.get(head)! + (frame ? 0.375 : 0.5) * m);
    mass.set(tip, mass.get(tip)! + (frame ? 0.375 : 0.5) * m);
    bones.push({ name: b.name, head, tip, radius, frame, attached, collide: o.collide(b.name) });
  }

  // Limits, at each child's head, against its skeleton parent.
  const boneByName = new Map(bones.map((b) => [b.name, b]));
  for (const b of ordered) {
    const l = o.limits(b.name);
    if (!l || b.parent === null) continue;
    const parent = boneByName.get(b.parent)!, child = boneByName.get(b.name)!;
    if (![parent.head, parent.tip, ...parent.attached].includes(child.head)) {
      o.notes.push(`bone ${b.name}: starts where its parent ${b.parent} starts; its limits are not applied`);
      continue;
    }
    if (l.swing !== undefined) constraints.push({ type: 'swing', parent: parent.name, child: child.name, max: r9(l.swing) });
    if (l.twist) constraints.push({ type: 'twist', parent: parent.name, child: child.name, min: r9(l.twist[0]), max: r9(l.twist[1]) });
    if (l.hinge) {
      // World axis at rest → parent frame coordinates (x = side, y = axis, z = side × axis).
      const F = restFrame(pos, parent);
      const a = normalize(l.hinge.axis as Vec3);
      constraints.push({
        type: 'hinge', parent: parent.name, child: child.name, from: 'rest-pose', axisSpace: 'parent', planar: true,
        axis: v3([dot(F[0], a), dot(F[1], a), dot(F[2], a)]),
        min: r9(Math.max(0, Math.PI + l.hinge.min)), max: r9(Math.min(2 * Math.PI, Math.PI + l.hinge.max)),
      });
    }
  }
  for (const p of particles) p.mass = r9(Math.max(mass.get(p.name)!, 1e-3));
  return {
    ...(o.notes.length ? { $comment: o.notes.join('; ') } : {}),
    format: PARTICLE_SCENE_FORMAT, version: PARTICLE_SCENE_VERSION, name: o.name,
    description: `Particle ragdoll of ${o.name}: particles at the joints, bones as rigid clusters, limits from the joints.`,
    settings: o.settings, particles, bones, constraints, impulses: [],
  };
}

function restFrame(pos: Map<string, Vec3>, b: ParticleScene['bones'][number]): [Vec3, Vec3, Vec3] {
  const h = pos.get(b.head)!, e = normalize(sub(pos.get(b.tip)!, h));
  let s = b.frame ? sub(pos.get(b.frame)!, h) : (Math.abs(e[0]) < 0.9 ? [1, 0, 0] as Vec3 : [0, 1, 0] as Vec3);
  s = normalize(sub(s, scaleV(e, dot(s, e))));
  return [s, e, cross(s, e)];
}

function shapeRadius(s: RigShape): number {
  switch (s.type) {
    case 'sphere': case 'capsule': case 'cylinder': return s.radius;
    case 'box': return Math.min(s.halfExtents[0], s.halfExtents[2]);
    case 'ellipsoid': return Math.min(s.radii[0], s.radii[2]);
  }
}
function shapeLength(s: RigShape): number {
  switch (s.type) {
    case 'sphere': return 2 * s.radius;
    case 'capsule': return 2 * (s.halfHeight + s.radius);
    case 'cylinder': return 2 * s.halfHeight;
    case 'box': return 2 * s.halfExtents[1];
    case 'ellipsoid': return 2 * s.radii[1];
  }
}
function bodyMass(b: RigBody): number {
  if (b.mass !== null) return b.mass;
  const volume = b.shapes.reduce((v, s) => v + shapeVolume(s), 0);
  return (b.density ?? 1000) * volume;
}
function shapeVolume(s: RigShape): number {
  switch (s.type) {
    case 'sphere': return (4 / 3) * Math.PI * s.radius ** 3;
    case 'capsule': return Math.PI * s.radius ** 2 * (2 * s.halfHeight + (4 / 3) * s.radius);
    case 'cylinder': return Math.PI * s.radius ** 2 * 2 * s.halfHeight;
    case 'box': return 8 * s.halfExtents[0] * s.halfExtents[1] * s.halfExtents[2];
    case 'ellipsoid': return (4 / 3) * Math.PI * s.radii[0] * s.radii[1] * s.radii[2];
  }
}

const sub = (a: readonly number[], b: readonly number[]): Vec3 => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
const addV = (a: readonly number[], b: readonly number[]): Vec3 => [a[0]! + b[0]!, a[1]! + b[1]!, a[2]! + b[2]!];
const scaleV = (a: readonly number[], k: number): Vec3 => [a[0]! * k, a[1]! * k, a[2]! * k];
const addScaled = (a: readonly number[], b: readonly number[], k: number): Vec3 => [a[0]! + b[0]! * k, a[1]! + b[1]! * k, a[2]! + b[2]! * k];
const dot = (a: readonly number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const cross = (a: readonly number[], b: readonly number[]): Vec3 => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
const normalize = (a: readonly number[]): Vec3 => { const l = Math.hypot(a[0]!, a[1]!, a[2]!) || 1; return [a[0]! / l, a[1]! / l, a[2]! / l]; };

/**
 * The package's particle simulation: a RigDocument (converted by particleSceneFromRig) or a particle scene
 * (a ParticleScene, or JSON text / a parsed value checked by loadParticleScene; errors are prefixed with
 * `source`). The solver's own createParticleSimulation (shared/physics/particles) takes scenes only.
 */
export function createParticleSimulation(input: ParticleScene | RigDocument | unknown, source?: string): ParticleSimulation {
  return isRig(input) ? simulateBuiltScene(particleSceneFromRig(input)) : simulateScene(input, source);
}

function isRig(v: unknown): v is RigDocument {
  return typeof v === 'object' && v !== null && (v as { format?: unknown }).format === 'marionette-rig';
}
