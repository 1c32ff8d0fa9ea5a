/**
 * Random VALID rigs for the solver's property test (issue 11 item 4): "never explode on a valid rig".
 *
 * Each case is a rig that `validateRig` accepts, built from a seed: 2–15 bodies in chains and trees of
 * capsules, boxes and spheres (sometimes several shapes a body), random joints (ball, hinge, fixed,
 * prismatic; with `coupledJoints` also the screw, cylindrical and planar ones with their slide limits and
 * slide motors) with
 * random limits and motors (off, position, pd, velocity), random solver settings
 * (1–8 substeps, 0–4 position iterations, gravity 0 or not, a floor or none), overlapping starts with
 * self-collision on, ball position motors with substeps, gait controllers on random chains, and jointed
 * mass ratios up to MAX_JOINTED_MASS_RATIO (the bound validation enforces). A third of the cases are shaped
 * like Generate's output: a random skeleton run through generateRagdoll.
 *
 * A case is stepped `seconds` through createSimulation/step. It fails when a step throws, when a body's
 * pose or velocity becomes non-finite, or when a body's centre moves faster than MAX_SPEED (100 m/s) or a
 * point of it faster than MAX_POINT_SPEED (|ω|·max(R, 0.1 m) > 1000 m/s, R the body's extent) — no impulse
 * is applied, so nothing the rig does legitimately reaches that in 2 s (a free fall reaches 19.6 m/s) — except
 * on a slide `marionette validate` warns has no limit and nothing bringing it back (checkUnboundedSlides):
 * the parent's turn flings the slid body out as cosh(ωt). A fast body far out along such a slide (more than
 * FLUNG_SLIDE) is counted apart, as 'flung', with the joint and how far out it is; anything else past the
 * bounds is 'fast', a solver failure.
 *
 * Used by tests/unit/fuzz/randomRigs.test.ts (2,000 rigs per run) and scripts/stress-rigs.ts (10,000).
 */
import { rng } from '../unit/physics/helpers';
import { quatConj, quatFromAxisAngle, quatMul, quatNormalize, quatRotate, type Quat } from '../../shared/math/quat';
import type { Vec3 } from '../../shared/math/vec3';
import { validateRig, type RigDocument } from '../../shared/rig';
import type { Bone, RigBody, RigController, RigJoint, RigMotor, RigShape } from '../../shared/rig/schema';
import { RIG_AXES, RIG_FORMAT, RIG_UNITS, RIG_VERSION } from '../../shared/rig/schema';
import { boneRestWorld, bodyRestWorld } from '../../shared/rig/restPose';
import { MAX_JOINTED_MASS_RATIO } from '../../shared/rig/semantics';
import { createSimulation } from '../../shared/runtime';
import { registerCyclicPathController } from '../../shared/gait/register';
import { generateRagdoll } from '../../shared/authoring/generate';
import { newRigDocument, withGeneratedRagdoll } from '../../shared/authoring/document';
import { computeMassProperties } from '../../shared/physics/massProperties';
import { checkUnboundedSlides } from '../../shared/authoring';
import type { ShapeDesc } from '../../shared/physics/types';

registerCyclicPathController();

/** A body's centre faster than this (m/s) is an explosion (the 100 m/s)… */
export const MAX_SPEED = 100;
/** …and so is any point of it faster than this (m/s): |ω|·max(R, 0.1 m), R its extent about its origin. A
 *  position motor's bias r·ε/h legitimately spins a light part at hundreds of rad/s at 8 substeps. */
export const MAX_POINT_SPEED = 1000;

type R = () => number;
const uni = (r: R, lo: number, hi: number) => lo + (hi - lo) * r();
const logUni = (r: R, lo: number, hi: number) => Math.exp(uni(r, Math.log(lo), Math.log(hi)));
const pick = <T>(r: R, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const round = (x: number) => Math.round(x * 1e9) / 1e9;
const rv = (v: readonly number[]) => v.map(round) as Vec3;

function randomUnit(r: R): Vec3 {
  for (;;) {
    const v: Vec3 = [uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1)];
    const n = Math.hypot(...v);
    if (n > 0.1 && n <= 1) return [v[0] / n, v[1] / n, v[2] / n];
  }
}
const randomQuat = (r: R): Quat => quatFromAxisAngle(randomUnit(r), uni(r, -Math.PI, Math.PI));

function randomShape(r: R, along: Vec3, length: number): RigShape {
  const kind = pick(r, ['capsule', 'capsule', 'box', 'sphere'] as const);
  const centre = rv([along[0] * length / 2, along[1] * length / 2, along[2] * length / 2]);
  const id: Quat = [0, 0, 0, 1];
  const thick = uni(r, 0.08, 0.35) * length + 0.01;
  if (kind === 'sphere') return { type: 'sphere', position: centre, rotation: id, radius: round(Math.max(0.01, thick)), hollow: r() < 0.1 };
  if (kind === 'box') {
    return { type: 'box', position: centre, rotation: rv(randomQuat(r)) as unknown as Quat, halfExtents: rv([uni(r, 0.3, 0.6) * length + 0.01, thick, thick]) };
  }
  // Capsule along the axis nearest the bone direction.
  const ax = Math.abs(along[0]) > Math.abs(along[1]) ? (Math.abs(along[0]) > Math.abs(along[2]) ? 'x' : 'z') : (Math.abs(along[1]) > Math.abs(along[2]) ? 'y' : 'z');
  return { type: 'capsule', position: centre, rotation: id, radius: round(thick), halfHeight: round(Math.max(0, length / 2 - thick * 0.5)), axis: ax };
}

function randomMotor(r: R, jointType: RigJoint['type'], source: 'rest' | 'controller', scaleTorque: number, forceMode?: RigMotor['mode']): RigMotor {
  const mode = forceMode ?? pick(r, ['off', 'position', 'position', 'pd', 'velocity'] as const);
  const motor: RigMotor = {
    mode, target: { source }, maxTorque: round(logUni(r, 0.01, 50) * scaleTorque), errorReduction: round(uni(r, 0.05, 1)),
    stiffness: 0, damping: 0, frictionTorque: r() < 0.5 ? 0 : round(logUni(r, 0.01, 5) * scaleTorque),
  };
  if (mode === 'pd') { motor.stiffness = round(logUni(r, 0.1, 1e4) * scaleTorque); motor.damping = round(logUni(r, 0.01, 100) * scaleTorque); }
  if (mode === 'velocity' && jointType !== 'ball' && r() < 0.7) motor.target = { source, velocity: round(uni(r, -10, 10)) };
  return motor;
}

function limitsFor(r: R, type: RigJoint['type']): Partial<RigJoint> {
  if (type === 'ball') {
    const twist = r() < 0.6 ? (() => { const a = uni(r, -Math.PI, Math.PI), b = uni(r, -Math.PI, Math.PI); return [round(Math.min(a, b)), round(Math.max(a, b))]; })() : null;
    const swing = r() < 0.6 ? [round(uni(r, 1e-3, Math.PI)), round(uni(r, 1e-3, Math.PI))] : null;
    return { twistLimit: twist, swingLimit: swing } as Partial<RigJoint>;
  }
  if (type === 'hinge') {
    if (r() < 0.3) return { limit: null } as Partial<RigJoint>;
    const a = uni(r, -2 * Math.PI, 2 * Math.PI), b = uni(r, -2 * Math.PI, 2 * Math.PI);
    return { limit: [round(Math.min(a, b)), round(Math.max(a, b))] } as Partial<RigJoint>;
  }
  if (type === 'prismatic') return { limit: slideRange(r) } as Partial<RigJoint>;
  // The coupled joints (coupledJoint.ts): an angle about frame X with one, two or no slides.
  if (type === 'screw') {
    const pitch = round((r() < 0.5 ? -1 : 1) * logUni(r, 0.005, 0.3));
    return { pitch, limit: angleRange(r) } as Partial<RigJoint>;
  }
  if (type === 'cylindrical') return { limit: angleRange(r), slideLimit: slideRange(r) } as Partial<RigJoint>;
  if (type === 'planar') return { limit: angleRange(r), slideLimitY: slideRange(r), slideLimitZ: slideRange(r) } as Partial<RigJoint>;
  return {};
}

/** A signed angle range within ±2π (often excluding rest), or free. */
function angleRange(r: R): [number, number] | null {
  if (r() < 0.3) return null;
  const a = uni(r, -2 * Math.PI, 2 * Math.PI), b = uni(r, -2 * Math.PI, 2 * Math.PI);
  return [round(Math.min(a, b)), round(Math.max(a, b))];
}

/** A slide range within ±0.3 m (often excluding rest), or free. */
function slideRange(r: R): [number, number] | null {
  if (r() < 0.3) return null;
  const a = uni(r, -0.3, 0.3), b = uni(r, -0.3, 0.3);
  return [round(Math.min(a, b)), round(Math.max(a, b))];
}

/** The joint types drawn: ball and hinge twice as often; with `coupledJoints` also screw, cylindrical, planar. */
const JOINT_TYPES = ['ball', 'ball', 'hinge', 'hinge', 'fixed', 'prismatic'] as const;
const ALL_JOINT_TYPES = [...JOINT_TYPES, 'screw', 'cylindrical', 'planar'] as const;

export interface RandomRigOptions {
  /** Force a feature (the minimal cases use these); otherwise each is drawn. */
  kind?: 'tree' | 'generate';
  /** Draw the coupled joints (screw, cylindrical, planar) too. Off, the draws are those of the generator
   *  before they existed, so the CI seed's rigs (and its count) stay the same. */
  coupledJoints?: boolean;
  /** The solver the rig names (default 'rigid'). The draws do not depend on it: 'articulated' runs the same
   *  rigs (all trees) on the reduced-coordinate solver (docs/articulated.md "Random rigs"). */
  solver?: 'rigid' | 'articulated';
}

export interface RandomRig { rig: RigDocument; kind: 'tree' | 'generate'; features: string[] }

/** One random rig from `seed` (validated by the caller). */
export function randomRig(seed: number, options: RandomRigOptions = {}): RandomRig {
  const r = rng(seed);
  const kind = options.kind ?? (r() < 0.33 ? 'generate' : 'tree');
  const features: string[] = [];
  const n = 2 + Math.floor(r() * 14);
  const chain = r() < 0.4;
  // Skeleton: bone i's parent is an earlier bone; its translation a random direction and length.
  const bones: Bone[] = [];
  const dirs: Vec3[] = [], lengths: number[] = [];
  const rootHeight = uni(r, 0.2, 2);
  for (let i = 0; i < n; i++) {
    const parent = i === 0 ? null : chain ? i - 1 : Math.floor(r() * i);
    const len = uni(r, 0.08, 0.7);
    dirs.push(randomUnit(r)); lengths.push(len);
    const t: Vec3 = i === 0 ? [0, rootHeight, 0] : rv((() => { const pl = lengths[parent!]!, d = dirs[parent!]!; const jitter = r() < 0.5 ? 1 : uni(r, 0.2, 1.2); return [d[0] * pl * jitter, d[1] * pl * jitter, d[2] * pl * jitter]; })());
    bones.push({ name: `b${i}`, parent: parent === null ? null : `b${parent}`, rest: { translation: t, rotation: r() < 0.5 ? [0, 0, 0, 1] : rv(randomQuat(r)) as unknown as Quat, scale: [1, 1, 1] } });
  }
  const gravity: Vec3 = r() < 0.3 ? [0, 0, 0] : r() < 0.9 ? [0, -9.81, 0] : rv([uni(r, -15, 15), uni(r, -15, 15), uni(r, -15, 15)]);
  if (gravity[0] === 0 && gravity[1] === 0 && gravity[2] === 0) features.push('zero-g');
  const simulation: RigDocument['simulation'] = {
    gravity, dt: pick(r, [1 / 60, 1 / 60, 1 / 30, 1 / 120]), substeps: pick(r, [1, 2, 2, 4, 4, 8]),
    velocityIterations: pick(r, [1, 4, 8, 8, 16]), positionIterations: pick(r, [0, 1, 2, 2, 4]),
    ground: r() < 0.6 ? { height: 0, friction: round(uni(r, 0, 1.5)), restitution: r() < 0.8 ? 0 : round(uni(r, 0, 1)) } : null,
  };
  if (simulation.substeps >= 4) features.push('substeps');

  let rig: RigDocument;
  const selfCollision = r() < 0.5;
  if (selfCollision) features.push('self-collision');
  if (kind === 'generate') {
    const doc = { ...newRigDocument(`gen-${seed}`, bones, simulation) };
    const g = generateRagdoll({ bones }, { selfCollision, motorMode: r() < 0.7 ? 'position' : 'pd', totalMass: r() < 0.5 ? undefined : uni(r, 1, 100) });
    rig = withGeneratedRagdoll(doc, g);
    rig.simulation = { ...simulation, ground: rig.simulation.ground === null ? null : { ...(simulation.ground ?? { height: 0, friction: 1, restitution: 0 }), height: rig.simulation.ground.height } };
  } else {
    rig = { format: RIG_FORMAT, version: RIG_VERSION, name: `tree-${seed}`, units: RIG_UNITS, axes: RIG_AXES, solver: 'rigid', skeleton: { bones }, bodies: [], joints: [], controllers: [], simulation };
    const boneWorld = boneRestWorld(bones);
    const baseDensity = logUni(r, 50, 3000);
    const ratio = r() < 0.3 ? MAX_JOINTED_MASS_RATIO : logUni(r, 1, MAX_JOINTED_MASS_RATIO);
    if (ratio > 10) features.push('mass-ratio');
    const rootType = r() < 0.15 ? 'static' : r() < 0.1 ? 'kinematic' : 'dynamic';
    for (let i = 0; i < n; i++) {
      const shapes: RigShape[] = [randomShape(r, dirs[i]!, lengths[i]!)];
      if (r() < 0.15) shapes.push(randomShape(r, randomUnit(r), lengths[i]! * uni(r, 0.3, 1)));
      const body: RigBody = {
        name: `b${i}`, bone: `b${i}`, type: i === 0 ? rootType : 'dynamic',
        offset: { position: r() < 0.7 ? [0, 0, 0] : rv([uni(r, -0.05, 0.05), uni(r, -0.05, 0.05), uni(r, -0.05, 0.05)]), rotation: [0, 0, 0, 1] },
        shapes, mass: null, density: round(baseDensity),
        material: { friction: round(uni(r, 0, 1.5)), restitution: r() < 0.8 ? 0 : round(uni(r, 0, 1)) },
        linearDamping: r() < 0.5 ? 0 : round(uni(r, 0, 1)), angularDamping: r() < 0.5 ? 0 : round(uni(r, 0, 1)),
        collisionGroup: 1, collisionMask: selfCollision ? 0xffffffff : 0xfffffffe,
      };
      rig.bodies.push(body);
    }
    // Masses: one body in two gets the mass ratio relative to its parent (alternating heavy / light),
    // the others the base density; the validated bound is between the two bodies of a joint.
    const masses = rig.bodies.map((b) => computeMassProperties(b.shapes as readonly ShapeDesc[], { density: b.density! }).mass);
    for (let i = 1; i < n; i++) {
      if (r() < 0.5) continue;
      const parent = Number(bones[i]!.parent!.slice(1));
      const target = masses[parent]! * (r() < 0.5 ? ratio * 0.999 : 0.999 / ratio);
      // Keep every neighbour within the bound too: clamp against the parent and the children already set.
      const neighbours = [parent, ...bones.flatMap((b, k) => (b.parent === `b${i}` ? [k] : []))];
      let m = target;
      for (const k of neighbours) m = Math.min(Math.max(m, masses[k]! / MAX_JOINTED_MASS_RATIO * 1.001), masses[k]! * MAX_JOINTED_MASS_RATIO * 0.999);
      // Neighbours already far apart leave no mass within the bound of all of them: keep the density's.
      if (m < 1e-6 || m > 1e6 || neighbours.some((k) => Math.max(m, masses[k]!) / Math.min(m, masses[k]!) > MAX_JOINTED_MASS_RATIO * 0.9995)) continue;
      masses[i] = m;
      rig.bodies[i]!.mass = round(m); rig.bodies[i]!.density = null;
      masses[i] = computeMassProperties(rig.bodies[i]!.shapes as readonly ShapeDesc[], { mass: rig.bodies[i]!.mass! }).mass;
    }
    // Shapes of one density can differ in volume by more than the bound: a last pass, parents first, brings
    // every child within the bound of its parent (the validated rule; a body has one parent joint).
    for (let i = 1; i < n; i++) {
      const parent = Number(bones[i]!.parent!.slice(1));
      const lo = masses[parent]! / (MAX_JOINTED_MASS_RATIO * 0.999), hi = masses[parent]! * MAX_JOINTED_MASS_RATIO * 0.999;
      if (masses[i]! >= lo && masses[i]! <= hi) continue;
      const m = Math.min(Math.max(masses[i]!, lo), hi);
      rig.bodies[i]!.mass = round(m); rig.bodies[i]!.density = null;
      masses[i] = computeMassProperties(rig.bodies[i]!.shapes as readonly ShapeDesc[], { mass: rig.bodies[i]!.mass! }).mass;
    }
    const bodyWorld = bodyRestWorld(rig.bodies, boneWorld);
    const totalMass = masses.reduce((a, b) => a + b, 0);
    const ballPositionSubsteps = simulation.substeps >= 4 && r() < 0.5;
    for (let i = 1; i < n; i++) {
      const parent = `b${bones[i]!.parent!.slice(1)}`;
      const a = bodyWorld.get(parent)!, b = bodyWorld.get(`b${i}`)!;
      const anchor = boneWorld.get(`b${i}`)!.position;
      const frameWorld = r() < 0.6 ? boneWorld.get(`b${i}`)!.rotation : randomQuat(r);
      const inA = quatRotate(quatConj(a.rotation), [anchor[0] - a.position[0], anchor[1] - a.position[1], anchor[2] - a.position[2]]);
      const inB = quatRotate(quatConj(b.rotation), [anchor[0] - b.position[0], anchor[1] - b.position[1], anchor[2] - b.position[2]]);
      const type = ballPositionSubsteps && i === 1 ? 'ball' : pick(r, options.coupledJoints ? ALL_JOINT_TYPES : JOINT_TYPES);
      const joint = {
        type, name: `j${i}`, bodyA: parent, bodyB: `b${i}`, collideConnected: selfCollision && r() < 0.3,
        frameA: { position: rv(inA), rotation: rv(quatNormalize(quatMul(quatConj(a.rotation), frameWorld))) as unknown as Quat },
        frameB: { position: rv(inB), rotation: rv(quatNormalize(quatMul(quatConj(b.rotation), frameWorld))) as unknown as Quat },
        ...limitsFor(r, type),
      } as RigJoint;
      if (type !== 'fixed') {
        const scaleTorque = totalMass * 9.81 * 0.3;
        (joint as { motor?: RigMotor }).motor = randomMotor(r, type, 'rest', scaleTorque, ballPositionSubsteps && i === 1 ? 'position' : undefined);
        // The slide drive of a cylindrical or planar joint (force units); the planar one's velocity target
        // must be 0 (no direction in the plane), as a ball's.
        if (type === 'cylindrical' || type === 'planar') {
          (joint as { slideMotor?: RigMotor }).slideMotor = randomMotor(r, type === 'planar' ? 'ball' : 'prismatic', 'rest', scaleTorque);
        }
      }
      rig.joints.push(joint);
    }
    if (ballPositionSubsteps) features.push('ball-position-motor');
    if (rig.joints.some((j) => j.type === 'screw' || j.type === 'cylindrical' || j.type === 'planar')) features.push('coupled-joint');
  }
  // A gait controller on a random chain from the root: every joint of the chain powered, targets from it.
  if (r() < 0.35) addController(rig, r, features);
  if (selfCollision && hasOverlap(rig)) features.push('overlap');
  if (options.solver) rig = { ...rig, solver: options.solver };
  return { rig, kind, features };
}

function addController(rig: RigDocument, r: R, features: string[]): void {
  const byParent = new Map<string, RigJoint[]>();
  for (const j of rig.joints) byParent.set(j.bodyA, [...(byParent.get(j.bodyA) ?? []), j]);
  const roots = rig.bodies.filter((b) => !rig.joints.some((j) => j.bodyB === b.name) && (byParent.get(b.name)?.length ?? 0) > 0);
  if (roots.length === 0) return;
  const root = pick(r, roots).name;
  const chain: RigJoint[] = [];
  let at = root;
  const want = 1 + Math.floor(r() * 4);
  while (chain.length < want) {
    const next = (byParent.get(at) ?? []).filter((j) => j.type === 'ball' || j.type === 'hinge');
    if (next.length === 0) break;
    const j = pick(r, next);
    chain.push(j); at = j.bodyB;
  }
  if (chain.length === 0) return;
  for (const j of chain) {
    const m = (j as { motor?: RigMotor }).motor;
    (j as { motor?: RigMotor }).motor = { ...(m ?? randomMotor(r, j.type, 'controller', 10, 'position')), mode: m && m.mode !== 'off' && r() < 0.5 ? m.mode : 'position', target: { source: 'controller' } };
  }
  const reach = 0.3 + r() * 0.8;
  const controller: RigController = {
    name: 'gait', type: 'cyclicPath', root, chain: chain.map((j) => j.name),
    effector: { body: at, offset: r() < 0.2 ? [0, 0, 0] : rv([uni(r, -0.2, 0.2), uni(r, -0.2, 0.2), uni(r, -0.2, 0.2)]) },
    controlPoints: Array.from({ length: 3 + Math.floor(r() * 4) }, () => rv([uni(r, -reach, reach), uni(r, -reach, reach), uni(r, -reach, reach)])),
    rate: round(uni(r, -2, 2)), phaseOffset: round(uni(r, 0, 0.999)), interpolation: r() < 0.7 ? 'centripetal-catmull-rom' : 'linear',
    // Sometimes a degenerate pole: on the chain's base, or on the path.
    pole: r() < 0.15 ? [0, 0, 0] : rv([uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1)]),
    steering: { target: r() < 0.5 ? null : rv([uni(r, -5, 5), 0, uni(r, -5, 5)]), gain: round(uni(r, 0, 5)), maxAngle: round(uni(r, 0, 1.5)) },
    enabled: true,
  };
  rig.controllers = [controller];
  features.push('gait');
}

/** Do any two bodies' bounding spheres overlap at rest (a start with self-collision that must push apart)? */
function hasOverlap(rig: RigDocument): boolean {
  const world = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
  const spheres = rig.bodies.map((b) => {
    const t = world.get(b.name)!;
    const s = b.shapes[0]!;
    const c = quatRotate(t.rotation, s.position as Vec3);
    const rad = s.type === 'sphere' ? s.radius : s.type === 'capsule' ? s.radius : s.type === 'box' ? Math.min(...s.halfExtents) : 0.01;
    return { c: [t.position[0] + c[0], t.position[1] + c[1], t.position[2] + c[2]], rad };
  });
  for (let i = 0; i < spheres.length; i++) for (let k = i + 1; k < spheres.length; k++) {
    const a = spheres[i]!, b = spheres[k]!;
    if (Math.hypot(a.c[0]! - b.c[0]!, a.c[1]! - b.c[1]!, a.c[2]! - b.c[2]!) < a.rad + b.rad) return true;
  }
  return false;
}

export interface StressResult {
  /** 'flung': past 100 m/s on a slide `marionette validate` warned is unbounded, far out along it (flungAlong):
   *  the rig's physics, counted apart from 'fast' (a solver failure). */
  outcome: 'refused' | 'ok' | 'nan' | 'throw' | 'fast' | 'flung';
  detail?: string;
  /** Step at which it failed. */
  step?: number;
  features: string[];
  kind: 'tree' | 'generate';
}

/** Validate and run one random rig for `seconds`. */
export function runRandomRig(seed: number, seconds = 2, options: RandomRigOptions = {}): StressResult {
  const { rig, kind, features } = randomRig(seed, options);
  const v = validateRig(rig);
  if (!v.ok) return { outcome: 'refused', detail: v.problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join('; '), features, kind };
  return runValidRig(v.rig, seconds, features, kind);
}

export function runValidRig(rig: RigDocument, seconds: number, features: string[] = [], kind: 'tree' | 'generate' = 'tree'): StressResult {
  let sim;
  try { sim = createSimulation(rig); } catch (e) { return { outcome: 'throw', detail: `createSimulation: ${(e as Error).message}`, step: -1, features, kind }; }
  const names = sim.bodyNames;
  const extent = names.map((n) => bodyExtent(rig.bodies.find((b) => b.name === n)!.shapes as readonly ShapeDesc[]));
  const steps = Math.ceil(seconds / rig.simulation.dt - 1e-9);
  for (let s = 0; s < steps; s++) {
    try { sim.step(); } catch (e) { return { outcome: 'throw', detail: (e as Error).message, step: s, features, kind }; }
    const frame = sim.frame();
    for (let k = 0; k < names.length; k++) {
      const b = frame.bodies[names[k]!]!;
      const all = [...b.p, ...b.q, ...b.v, ...b.w];
      if (!all.every(Number.isFinite)) return { outcome: 'nan', detail: `body ${names[k]} at step ${s}`, step: s, features, kind };
      if (Math.hypot(...b.v) > MAX_SPEED || Math.hypot(...b.w) * Math.max(extent[k]!, 0.1) > MAX_POINT_SPEED) {
        const detail = `body ${names[k]}: |v| ${Math.hypot(...b.v).toFixed(1)} m/s, |ω| ${Math.hypot(...b.w).toFixed(1)} rad/s at step ${s}`;
        const slide = flungAlong(rig, sim, names[k]!);
        if (slide !== null) return { outcome: 'flung', detail: `${detail}, ${slide}`, step: s, features, kind };
        return { outcome: 'fast', detail, step: s, features, kind };
      }
    }
  }
  return { outcome: 'ok', features, kind };
}

/** How far out along a warned slide a flung body must be (m): the random rigs are under 1.5 m across. */
export const FLUNG_SLIDE = 1;

/**
 * When `body` is the slid body of a joint `marionette validate` warns about as an unbounded slide
 * (checkUnboundedSlides: no limit, nothing that brings it back), that slide has carried it more than
 * FLUNG_SLIDE out, and its speed relative to the slide's parent is what the parent's turn gives at that
 * distance, then what the warning predicts happened — the parent's turn flings it out as cosh(ωt) — and a
 * fast body there is that physics, not the solver: returns the joint, the offset and the speeds; else null.
 */
function flungAlong(rig: RigDocument, sim: ReturnType<typeof createSimulation>, body: string): string | null {
  for (const w of checkUnboundedSlides(rig)) {
    const joint = rig.joints[Number(/\d+/.exec(w.path)![0])]!;
    if (joint.bodyB !== body) continue;
    const h = sim.jointHandle(joint.name);
    const at = joint.type === 'prismatic' ? [sim.world.getJointAngle(h) as number] : sim.world.getJointSlide?.(h) ?? [];
    const out = Math.max(0, ...at.map(Math.abs));
    if (!(out > FLUNG_SLIDE)) continue;
    // The speed is the parent's turn at that distance: flung out as r₀·cosh(ωt), the body moves at ≈ ω·r
    // outwards and ω·r around, √2·ω·r relative to its parent; a margin of 1.5 for the parent's own changes.
    const f = sim.frame(), a = f.bodies[joint.bodyA]!, b = f.bodies[body]!;
    const rel = Math.hypot(b.v[0] - a.v[0], b.v[1] - a.v[1], b.v[2] - a.v[2]);
    const turn = Math.hypot(...a.w) * Math.hypot(b.p[0] - a.p[0], b.p[1] - a.p[1], b.p[2] - a.p[2]);
    if (rel <= 1.5 * turn) return `${out.toFixed(1)} m out along the unbounded slide of joint "${joint.name}" (${rel.toFixed(1)} m/s relative to "${joint.bodyA}", whose turn gives ${turn.toFixed(1)} m/s at that distance)`;
  }
  return null;
}

/** Largest distance of a shape's surface from the body origin (m), roughly. */
function bodyExtent(shapes: readonly ShapeDesc[]): number {
  let e = 0;
  for (const s of shapes) {
    const p = s.position ?? [0, 0, 0];
    const c = Math.hypot(p[0], p[1], p[2]);
    const r = s.type === 'sphere' ? s.radius : s.type === 'capsule' ? s.radius + s.halfHeight : s.type === 'box' ? Math.hypot(...s.halfExtents)
      : s.type === 'cylinder' ? Math.hypot(s.radius, s.halfHeight) : Math.max(...s.radii);
    e = Math.max(e, c + r);
  }
  return e;
}

export interface StressReport {
  cases: number; refused: number; ok: number; failed: StressResult[]; byOutcome: Record<string, number>; failedSeeds: number[];
  /** Rigs flung out along a slide validation warned is unbounded (outcome 'flung'), not in `failed`. */
  flung: StressResult[]; flungSeeds: number[];
  /** Rigs that ran (not refused), per feature and kind (`kind:tree`, `kind:generate`). */
  ranByFeature: Record<string, number>;
}

export function stress(count: number, seed: number, seconds = 2, options: RandomRigOptions = {}, from = 0): StressReport {
  const report: StressReport = { cases: 0, refused: 0, ok: 0, failed: [], byOutcome: {}, failedSeeds: [], flung: [], flungSeeds: [], ranByFeature: {} };
  for (let i = from; i < from + count; i++) {
    const caseSeed = (seed * 1_000_003 + i) >>> 0;
    const res = runRandomRig(caseSeed, seconds, options);
    report.cases++;
    report.byOutcome[res.outcome] = (report.byOutcome[res.outcome] ?? 0) + 1;
    if (res.outcome === 'refused') { report.refused++; continue; }
    for (const x of [...res.features, `kind:${res.kind}`]) report.ranByFeature[x] = (report.ranByFeature[x] ?? 0) + 1;
    if (res.outcome === 'ok') report.ok++;
    else if (res.outcome === 'flung') { report.flung.push(res); report.flungSeeds.push(caseSeed); }
    else { report.failed.push(res); report.failedSeeds.push(caseSeed); }
  }
  return report;
}
