/**
 * createParticleSimulation: a ParticleScene → a running Jakobsen/Verlet simulation (a RigDocument goes
 * through particleSceneFromRig in shared/runtime/particles.ts, whose createParticleSimulation takes either). The scene is read, never kept mutable; all state lives in typed
 * arrays and step() allocates nothing.
 *
 * One step(), dt = scene.settings.dt (the paper's order: integrate, then relax):
 *   1. scheduled impulses whose time has come (the demo's clicks), applied as x0 shifts; the mouse grab's
 *      spring force for this step (grab.ts);
 *   2. Verlet: x' = x + k(x − x0) + (g + a)·dt², k = 1/(1 + damping·dt); then the pose drive turns powered
 *      joints toward their rest pose (drive.ts) — before the energy is measured, so it may do work;
 *   3. relaxation × iterations: fixed points → distances (bone clusters, lengths, minimum distances, the
 *      paper's law-of-cosines angles) → angular limits (arc-only cone, signed hinge, twist) →
 *      bone–bone capsules → floor. Collisions come last, so a step ends with bones separated;
 *   4. the relaxation is workless: kinetic energy it added is taken back from the velocities, positions
 *      untouched (state.ts, capKineticEnergy).
 */
import { createWorldShape, raycastShape, RayHit, updateWorldShape, type WorldShape } from '../collision';
import type { ReadonlyVec3, Vec3 } from '../../math/vec3';
import { BoneTable, boneFrame, frameToQuat } from './bones';
import { collidingPairs, maxPenetration, solveBoneCollisions, solveFloor, type BonePairs } from './collisions';
import { DistanceConstraints, FixedPoints, lawOfCosines, solveDistances, solveFixed } from './distance';
import { applyBoneImpulse, applyParticleImpulse } from './impulse';
import { PoseDrive, type DriveSettings } from './drive';
import { applyGrab, GRAB_STATE, grabBone, moveGrabTarget, readGrab, startGrab, type GrabSpring } from './grab';
import { CONE, HINGE, JointLimits, solveJointLimits, TWIST, type JointLimitSpec } from './jointLimits';
import { loadParticleScene, type ParticleScene } from './scene';
import {
  capKineticEnergy, E_ALLOWED, E_KE, E_KE_REL, E_NOW, integrate, kineticEnergy, P_DAMPING, P_DT, P_FLOOR, P_FLOOR_MU, P_FRICTION,
  ParticleState, relativeKineticEnergy,
} from './state';

export { DEFAULT_ITERATIONS } from './constants';
/** Relative kinetic energy may end a relaxation this much above where it started (fraction): room for the
 *  O(dt²) energy oscillation of a symplectic step, so a pendulum is not made dissipative. */
const ENERGY_SLACK = 2e-3;

/** A trace frame (shared/runtime/trace.ts's TraceFrame, which this type is assignable to: a particle scene
 *  has no bodies, joints or controllers) plus the particle positions: "particles": {NAME: [x, y, z]}. */
export interface ParticleTraceFrame {
  t: number;
  bodies: Record<string, never>;
  joints: Record<string, never>;
  controllers: Record<string, never>;
  particles: Record<string, number[]>;
}

export interface BonePick { bone: string; boneIndex: number; point: Vec3; normal: Vec3; distance: number }

export interface ParticleSnapshot {
  readonly kind: 'marionette-particle-snapshot'; readonly time: number; readonly x: Float64Array; readonly x0: Float64Array; readonly nextImpulse: number;
  /** The grab in progress (grab.ts GRAB_STATE numbers) and the powered joints (one per drive pair); a
   *  snapshot without them (positions only, e.g. for picking) leaves the simulation's own. */
  readonly grab?: Float64Array; readonly powered?: Uint8Array;
}

/** The mouse grab in progress: the bone, the grabbed point on it and the spring's other end (world, m). */
export interface GrabInfo { bone: string; boneIndex: number; point: Vec3; target: Vec3 }

export interface ParticleSimulation {
  readonly scene: ParticleScene;
  readonly dt: number;
  /** Simulated time (s). */
  readonly time: number;
  readonly particleNames: readonly string[];
  readonly boneNames: readonly string[];
  /** Live particle positions, [x, y, z] per particle in particleNames order. Read only. */
  readonly positions: Float64Array;
  /** Particle masses (kg), same order. */
  readonly masses: Float64Array;
  /** Bone radii (m) and rest lengths (m), boneNames order. */
  readonly boneRadii: Float64Array;
  readonly boneLengths: Float64Array;
  step(): void;
  /** Trace frame of the current state (allocates; once per recorded frame). */
  frame(): ParticleTraceFrame;
  /** Mouse impulse (N·s) at a world point (m) on a bone, split by the lever rule (nearer end gets more). */
  applyImpulse(bone: string | number, point: ReadonlyVec3, impulse: ReadonlyVec3): void;
  applyParticleImpulse(particle: string | number, impulse: ReadonlyVec3): void;
  /** Ray (origin, direction) against the bone capsules: nearest hit within maxDistance (m), or null. */
  pick(origin: ReadonlyVec3, direction: ReadonlyVec3, maxDistance?: number): BonePick | null;
  /** Bone boxes/capsules for drawing: per bone [cx, cy, cz, qx, qy, qz, qw] (centre m, rotation with local
   *  +Y along head → tip and local X toward the orientation particle) into out[7·b..]. Half extents of the
   *  box are [radius, length/2, radius]; the capsule has halfHeight length/2 and radius. No allocation. */
  writeBonePoses(out: Float64Array): void;
  /** Head and tip of every bone: out[6·b..] = head xyz, tip xyz. No allocation. */
  writeBoneSegments(out: Float64Array): void;
  particleIndex(name: string): number;
  boneIndex(name: string): number;
  /** Kinetic energy from the step velocity v = (x − x0)/dt and gravitational potential at the step midpoint
   *  (x + x0)/2 — the pairing in which Verlet's energy is conserved to O(dt²) (J). */
  energy(): { kinetic: number; potential: number; total: number };
  /** Deepest bone–bone capsule overlap right now (m). */
  maxPenetration(): number;
  snapshot(): ParticleSnapshot;
  restore(snapshot: ParticleSnapshot): void;
  /** Grab a bone at a world point with a spring (grab.ts); the target starts at the point. Replaces any grab. */
  grab(bone: string | number, point: ReadonlyVec3, spring: GrabSpring): void;
  /** Move the grab spring's target (world, m); nothing when nothing is grabbed. */
  moveGrab(target: ReadonlyVec3): void;
  releaseGrab(): void;
  grabbed(): GrabInfo | null;
  /** The grabbed point and the target into out[0..6) without allocating; false when nothing is grabbed. */
  readGrab(out: Float64Array): boolean;
  /** Bones whose joint to their parent the pose drive can power (drive.ts), boneNames order. */
  readonly drivenBones: readonly string[];
  /** Power on (true) or let go limp (false) the joints at these child bones, or all of them. Unknown or
   *  undriven bone names are refused with the list of driven ones. */
  setPowered(bones: 'all' | readonly string[], on: boolean): void;
  isPowered(bone: string): boolean;
  setDrive(settings: Partial<DriveSettings>): void;
  readonly drive: Readonly<DriveSettings>;
  /** Mean and largest angle (rad) of every driven joint from its rest orientation (powered or not). */
  poseError(): { mean: number; max: number };
}

/** A particle scene (a ParticleScene, or JSON text / a parsed value checked by loadParticleScene; errors
 *  are prefixed with `source`) → a running simulation. */
export function createParticleSimulation(input: ParticleScene | unknown, source?: string): ParticleSimulation {
  return new ParticleSimulationImpl(loadParticleScene(input, source));
}

/** A scene a builder made (particleSceneFromRig), run as given without loadParticleScene's checks — what
 *  createParticleSimulation(rig) has always done. Anything read from outside goes through the entry above. */
export function simulateBuiltScene(scene: ParticleScene): ParticleSimulation {
  return new ParticleSimulationImpl(scene);
}

class ParticleSimulationImpl implements ParticleSimulation {
  readonly scene: ParticleScene;
  readonly dt: number;
  time = 0;
  readonly particleNames: string[];
  readonly boneNames: string[];
  readonly positions: Float64Array;
  readonly masses: Float64Array;
  readonly boneRadii: Float64Array;
  readonly boneLengths: Float64Array;
  private readonly s: ParticleState;
  private readonly bones: BoneTable;
  private readonly distances: DistanceConstraints;
  private readonly fixed: FixedPoints;
  private readonly limits: JointLimits;
  private readonly pairs: BonePairs;
  private readonly gravity: Float64Array;
  private readonly impulses: ParticleScene['impulses'];
  private nextImpulse = 0;
  private readonly particleByName = new Map<string, number>();
  private readonly boneByName = new Map<string, number>();
  private readonly pickShapes: WorldShape[];
  private readonly pickHit = new RayHit();
  private readonly pose = new Float64Array(7);
  private readonly frameScratch = new Float64Array(9);
  private readonly params = new Float64Array(8);
  private readonly energyScratch = new Float64Array(8);
  private readonly grabState = new Float64Array(GRAB_STATE);
  private readonly grabScratch = new Float64Array(6);
  /** Each bone's own mass (kg): its cluster's particle masses, each shared among the clusters holding it. */
  private readonly boneMass: Float64Array;
  private readonly poseDrive: PoseDrive;
  readonly drivenBones: readonly string[];

  constructor(scene: ParticleScene) {
    this.scene = scene;
    const set = scene.settings;
    this.dt = set.dt;
    this.gravity = Float64Array.from(set.gravity);
    this.params.set(set.gravity, 0);
    this.params[P_DT] = set.dt; this.params[P_DAMPING] = set.damping; this.params[P_FRICTION] = set.friction;
    this.params[P_FLOOR] = set.floor ? set.floor.height : Number.NaN; this.params[P_FLOOR_MU] = set.floor ? set.floor.friction : 0;
    const s = (this.s = new ParticleState(scene.particles.length));
    this.particleNames = scene.particles.map((p) => p.name);
    scene.particles.forEach((p, i) => {
      this.particleByName.set(p.name, i);
      s.x.set(p.position, 3 * i); s.x0.set(p.position, 3 * i);
      s.m[i] = p.mass; s.w[i] = 1 / p.mass;
    });
    const P = (n: string) => this.particleByName.get(n)!;
    const fixed: number[] = [], fixedAt: number[] = [];
    for (const c of scene.constraints) {
      if (c.type !== 'fixed') continue;
      const i = P(c.particle);
      s.w[i] = 0; fixed.push(i); fixedAt.push(s.x[3 * i]!, s.x[3 * i + 1]!, s.x[3 * i + 2]!);
    }
    this.fixed = new FixedPoints(fixed, fixedAt);

    // Bones and their rigid clusters.
    this.boneNames = scene.bones.map((b) => b.name);
    const members = scene.bones.map((b) => [...new Set([P(b.head), P(b.tip), ...(b.frame === null ? [] : [P(b.frame)]), ...b.attached.map(P)])]);
    const bones = (this.bones = new BoneTable(this.boneNames, members));
    scene.bones.forEach((b, k) => {
      this.boneByName.set(b.name, k);
      bones.head[k] = P(b.head); bones.tip[k] = P(b.tip); bones.frame[k] = b.frame === null ? -1 : P(b.frame);
      bones.radius[k] = b.radius; bones.collide[k] = b.collide ? 1 : 0;
      bones.restLength[k] = dist(s.x, bones.head[k]!, bones.tip[k]!);
      for (const i of [bones.head[k]!, bones.tip[k]!]) s.radius[i] = Math.max(s.radius[i]!, b.collide ? b.radius : 0);
    });
    this.boneRadii = bones.radius; this.boneLengths = bones.restLength;

    // Distances: every pair inside each cluster, then the scene's own.
    const B = (n: string) => this.boneByName.get(n)!;
    let capacity = members.reduce((a, m) => a + (m.length * (m.length - 1)) / 2, 0) + scene.constraints.length;
    const d = (this.distances = new DistanceConstraints(capacity));
    for (const m of members) {
      for (let i = 0; i < m.length; i++) for (let j = i + 1; j < m.length; j++) {
        const L = dist(s.x, m[i]!, m[j]!);
        d.add(m[i]!, m[j]!, L, L);
      }
    }
    const specs: JointLimitSpec[] = [];
    const F = new Float64Array(18);
    for (const c of scene.constraints) {
      switch (c.type) {
        case 'fixed': break;
        case 'length': { const L = c.length ?? dist(s.x, P(c.a), P(c.b)); d.add(P(c.a), P(c.b), L, L); break; }
        case 'minDistance': d.add(P(c.a), P(c.b), c.distance, Infinity); break;
        default: {
          const parent = B(c.parent), child = B(c.child), pivot = bones.head[child]!;
          const far = 'from' in c && c.from === 'parent-bone' ? farEnd(bones, parent, pivot) : -1;
          if (c.type === 'angle' && c.rule === 'distance') {
            // The paper's rule: θ ∈ [min, max] ⇔ D ∈ [D(min), D(max)] between the far ends (D grows with θ).
            const tip = bones.tip[child]!, a = dist(s.x, far, pivot), b = dist(s.x, tip, pivot);
            d.add(far, tip, lawOfCosines(a, b, c.min), lawOfCosines(a, b, c.max));
            break;
          }
          // Child's rest axis and side in the parent's frame coordinates.
          const restAxis = [0, 0, 0], restSide = [0, 0, 0];
          if (boneFrame(s, bones, parent, F, 0) && boneFrame(s, bones, child, F, 9)) {
            for (let r = 0; r < 3; r++) {
              restAxis[r] = F[3 * r]! * F[12]! + F[3 * r + 1]! * F[13]! + F[3 * r + 2]! * F[14]!;
              restSide[r] = F[3 * r]! * F[9]! + F[3 * r + 1]! * F[10]! + F[3 * r + 2]! * F[11]!;
            }
          }
          const base = { parent, child, pivot, far, axis: [0, 0, 1], axisInParent: false, planar: false, restAxis, restSide };
          if (c.type === 'angle') specs.push({ ...base, kind: CONE, min: c.min, max: c.max });
          else if (c.type === 'swing') specs.push({ ...base, far: -1, kind: CONE, min: Math.PI - c.max, max: Math.PI });
          else if (c.type === 'hinge') specs.push({ ...base, kind: HINGE, min: c.min, max: c.max, axis: c.axis, axisInParent: c.axisSpace === 'parent', planar: c.planar });
          else specs.push({ ...base, far: -1, kind: TWIST, min: c.min, max: c.max });
        }
      }
    }
    capacity = d.count;
    this.limits = new JointLimits(specs, bones, s);
    this.pairs = collidingPairs(bones, s);
    this.impulses = [...scene.impulses].sort((a, b) => a.time - b.time);
    this.pickShapes = scene.bones.map((b, k) =>
      createWorldShape({ type: 'capsule', radius: b.radius, halfHeight: Math.max(0, bones.restLength[k]! / 2), axis: 'y' }, { label: `bone ${b.name}` }));
    this.positions = s.x;
    this.masses = s.m;
    const holders = new Float64Array(s.count);
    for (const m of members) for (const i of m) holders[i]! += 1;
    this.boneMass = Float64Array.from(members, (m) => m.reduce((a, i) => a + s.m[i]! / holders[i]!, 0));
    this.poseDrive = new PoseDrive(s, bones);
    this.drivenBones = Array.from(this.poseDrive.pairs.child, (c) => this.boneNames[c]!);
  }

  step(): void {
    const s = this.s, dt = this.dt, P = this.params, E = this.energyScratch;
    while (this.nextImpulse < this.impulses.length && this.impulses[this.nextImpulse]!.time <= this.time + 1e-9) {
      const imp = this.impulses[this.nextImpulse++]!;
      applyBoneImpulse(s, this.bones, this.boneByName.get(imp.bone)!, imp.point[0], imp.point[1], imp.point[2], imp.impulse[0], imp.impulse[1], imp.impulse[2], dt);
    }
    applyGrab(this.grabState, s, this.bones, this.boneMass, dt);
    integrate(s, P);
    this.poseDrive.apply(s, this.bones, dt);
    relativeKineticEnergy(s, P, E);
    const before = E[E_KE_REL]!;
    kineticEnergy(s, P, E);
    const beforeTotal = E[E_KE]!;
    this.limits.used.fill(0);
    const iterations = this.scene.settings.iterations;
    for (let it = 0; it < iterations; it++) {
      solveFixed(s, this.fixed);
      solveDistances(s, this.distances);
      solveJointLimits(s, this.bones, this.limits);
      solveBoneCollisions(s, this.bones, this.pairs, P);
      solveFloor(s, P);
    }
    // The relaxation is workless (capKineticEnergy): take back kinetic energy it added — relative to the
    // centre of mass first (momentum kept), then in total (contacts and pins may take momentum, never
    // give energy).
    relativeKineticEnergy(s, P, E);
    E[E_NOW] = E[E_KE_REL]!; E[E_ALLOWED] = before * (1 + ENERGY_SLACK) + 1e-9;
    capKineticEnergy(s, P, E);
    kineticEnergy(s, P, E);
    E[0] = 0; E[1] = 0; E[2] = 0; E[E_NOW] = E[E_KE]!; E[E_ALLOWED] = beforeTotal * (1 + ENERGY_SLACK) + 1e-9;
    capKineticEnergy(s, P, E);
    this.time += dt;
  }

  frame(): ParticleTraceFrame {
    const particles: Record<string, number[]> = {};
    const x = this.s.x;
    this.particleNames.forEach((n, i) => { particles[n] = [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!]; });
    return { t: this.time, bodies: {}, joints: {}, controllers: {}, particles };
  }

  particleIndex(name: string): number {
    const i = this.particleByName.get(name);
    if (i === undefined) throw new Error(`particle simulation "${this.scene.name}": no particle named "${name}" (particles: ${this.particleNames.join(', ')})`);
    return i;
  }

  boneIndex(name: string): number {
    const i = this.boneByName.get(name);
    if (i === undefined) throw new Error(`particle simulation "${this.scene.name}": no bone named "${name}" (bones: ${this.boneNames.join(', ')})`);
    return i;
  }

  applyImpulse(bone: string | number, point: ReadonlyVec3, impulse: ReadonlyVec3): void {
    const b = typeof bone === 'number' ? bone : this.boneIndex(bone);
    if (!(b >= 0 && b < this.bones.count)) throw new Error(`applyImpulse: bone index ${b} out of range 0..${this.bones.count - 1}`);
    if (![...point, ...impulse].every(Number.isFinite)) throw new Error('applyImpulse: point and impulse must be finite');
    applyBoneImpulse(this.s, this.bones, b, point[0], point[1], point[2], impulse[0], impulse[1], impulse[2], this.dt);
  }

  applyParticleImpulse(particle: string | number, impulse: ReadonlyVec3): void {
    const i = typeof particle === 'number' ? particle : this.particleIndex(particle);
    if (!(i >= 0 && i < this.s.count)) throw new Error(`applyParticleImpulse: particle index ${i} out of range`);
    applyParticleImpulse(this.s, i, impulse[0], impulse[1], impulse[2], this.dt);
  }

  writeBonePoses(out: Float64Array): void {
    const x = this.s.x, F = this.frameScratch, bones = this.bones;
    for (let b = 0; b < bones.count; b++) {
      const h = 3 * bones.head[b]!, t = 3 * bones.tip[b]!, o = 7 * b;
      out[o] = 0.5 * (x[h]! + x[t]!); out[o + 1] = 0.5 * (x[h + 1]! + x[t + 1]!); out[o + 2] = 0.5 * (x[h + 2]! + x[t + 2]!);
      if (boneFrame(this.s, bones, b, F, 0)) frameToQuat(F, out, o + 3);
      else { out[o + 3] = 0; out[o + 4] = 0; out[o + 5] = 0; out[o + 6] = 1; }
    }
  }

  writeBoneSegments(out: Float64Array): void {
    const x = this.s.x, bones = this.bones;
    for (let b = 0; b < bones.count; b++) {
      const h = 3 * bones.head[b]!, t = 3 * bones.tip[b]!, o = 6 * b;
      out[o] = x[h]!; out[o + 1] = x[h + 1]!; out[o + 2] = x[h + 2]!; out[o + 3] = x[t]!; out[o + 4] = x[t + 1]!; out[o + 5] = x[t + 2]!;
    }
  }

  pick(origin: ReadonlyVec3, direction: ReadonlyVec3, maxDistance = 1e4): BonePick | null {
    let best: BonePick | null = null;
    const pose = this.pose, hit = this.pickHit;
    for (let b = 0; b < this.bones.count; b++) {
      const x = this.s.x, h = 3 * this.bones.head[b]!, t = 3 * this.bones.tip[b]!;
      pose[0] = 0.5 * (x[h]! + x[t]!); pose[1] = 0.5 * (x[h + 1]! + x[t + 1]!); pose[2] = 0.5 * (x[h + 2]! + x[t + 2]!);
      if (boneFrame(this.s, this.bones, b, this.frameScratch, 0)) frameToQuat(this.frameScratch, pose, 3);
      else { pose[3] = pose[4] = pose[5] = 0; pose[6] = 1; }
      const shape = this.pickShapes[b]!;
      updateWorldShape(shape, pose, 0, pose, 3);
      if (raycastShape(shape, origin, direction, best ? best.distance : maxDistance, hit) && (!best || hit.distance < best.distance)) {
        best = { bone: this.boneNames[b]!, boneIndex: b, point: [hit.point[0]!, hit.point[1]!, hit.point[2]!], normal: [hit.normal[0]!, hit.normal[1]!, hit.normal[2]!], distance: hit.distance };
      }
    }
    return best;
  }

  energy(): { kinetic: number; potential: number; total: number } {
    const { x, x0, m, w } = this.s, g = this.gravity, dt = this.dt;
    let kinetic = 0, potential = 0;
    for (let i = 0; i < this.s.count; i++) {
      if (w[i] === 0) continue;
      const o = 3 * i;
      const vx = (x[o]! - x0[o]!) / dt, vy = (x[o + 1]! - x0[o + 1]!) / dt, vz = (x[o + 2]! - x0[o + 2]!) / dt;
      kinetic += 0.5 * m[i]! * (vx * vx + vy * vy + vz * vz);
      potential -= m[i]! * (g[0]! * 0.5 * (x[o]! + x0[o]!) + g[1]! * 0.5 * (x[o + 1]! + x0[o + 1]!) + g[2]! * 0.5 * (x[o + 2]! + x0[o + 2]!));
    }
    return { kinetic, potential, total: kinetic + potential };
  }

  maxPenetration(): number { return maxPenetration(this.s, this.bones, this.pairs); }

  snapshot(): ParticleSnapshot {
    return {
      kind: 'marionette-particle-snapshot', time: this.time, x: this.s.x.slice(), x0: this.s.x0.slice(), nextImpulse: this.nextImpulse,
      grab: this.grabState.slice(), powered: this.poseDrive.powered.slice(),
    };
  }

  restore(snap: ParticleSnapshot): void {
    if (snap.kind !== 'marionette-particle-snapshot' || snap.x.length !== this.s.x.length) throw new Error('restore: snapshot is from a different particle scene');
    this.s.x.set(snap.x); this.s.x0.set(snap.x0); this.time = snap.time; this.nextImpulse = snap.nextImpulse;
    if (snap.grab) this.grabState.set(snap.grab);
    if (snap.powered) this.poseDrive.powered.set(snap.powered);
  }

  grab(bone: string | number, point: ReadonlyVec3, spring: GrabSpring): void {
    const b = typeof bone === 'number' ? bone : this.boneIndex(bone);
    if (!(b >= 0 && b < this.bones.count)) throw new Error(`grab: bone index ${b} out of range 0..${this.bones.count - 1}`);
    if (!point.every(Number.isFinite)) throw new Error('grab: point must be finite');
    if (!(spring.frequency > 0) || !(spring.damping >= 0) || !(spring.maxWeights > 0)) throw new Error(`grab: spring needs frequency > 0 Hz, damping ≥ 0, maxWeights > 0 (got ${JSON.stringify(spring)})`);
    startGrab(this.grabState, this.s, this.bones, b, point, spring);
  }

  moveGrab(target: ReadonlyVec3): void {
    if (!target.every(Number.isFinite)) throw new Error('moveGrab: target must be finite');
    moveGrabTarget(this.grabState, target);
  }

  releaseGrab(): void { this.grabState[0] = 0; }

  grabbed(): GrabInfo | null {
    const o = this.grabScratch;
    if (!readGrab(this.grabState, this.s, this.bones, o)) return null;
    const b = grabBone(this.grabState);
    return { bone: this.boneNames[b]!, boneIndex: b, point: [o[0]!, o[1]!, o[2]!], target: [o[3]!, o[4]!, o[5]!] };
  }

  /** The grabbed point and target into out[0..6) without allocating; false when nothing is grabbed. */
  readGrab(out: Float64Array): boolean { return readGrab(this.grabState, this.s, this.bones, out); }

  setPowered(bones: 'all' | readonly string[], on: boolean): void {
    const d = this.poseDrive;
    if (bones === 'all') { d.powered.fill(on ? 1 : 0); return; }
    const pairs = bones.map((n) => {
      const k = d.pairOfChild(this.boneIndex(n));
      if (k < 0) throw new Error(`particle simulation "${this.scene.name}": bone "${n}" has no driven joint (driven: ${this.drivenBones.join(', ') || 'none'})`);
      return k;
    });
    for (const k of pairs) d.powered[k] = on ? 1 : 0;
  }

  isPowered(bone: string): boolean {
    const k = this.poseDrive.pairOfChild(this.boneIndex(bone));
    return k >= 0 && this.poseDrive.powered[k] === 1;
  }

  setDrive(settings: Partial<DriveSettings>): void {
    const next = { ...this.poseDrive.settings, ...settings };
    if (!(next.frequency > 0) || !(next.damping >= 0) || !(next.maxAcceleration >= 0)) throw new Error(`setDrive: needs frequency > 0 Hz, damping ≥ 0, maxAcceleration ≥ 0 rad/s² (got ${JSON.stringify(next)})`);
    this.poseDrive.settings = next;
  }

  get drive(): Readonly<DriveSettings> { return this.poseDrive.settings; }

  poseError(): { mean: number; max: number } { return this.poseDrive.poseError(this.s, this.bones); }
}

const dist = (x: Float64Array, i: number, j: number) =>
  Math.hypot(x[3 * i]! - x[3 * j]!, x[3 * i + 1]! - x[3 * j + 1]!, x[3 * i + 2]! - x[3 * j + 2]!);

/** The parent's particle at the other end from the pivot: its head when the child hangs at its tip or at
 *  an attached particle, its tip when the child starts at its head. */
function farEnd(bones: BoneTable, parent: number, pivot: number): number {
  return bones.head[parent] === pivot ? bones.tip[parent]! : bones.head[parent]!;
}
