/**
 * createSimulation: a RigDocument → a running Simulation (Jolt's RagdollSettings → Ragdoll split). The
 * document is read, never mutated or kept in a mutable form; everything that changes while running lives
 * in the World's typed arrays and in this object's small per-joint arrays.
 *
 * One step() (DESIGN.md "One simulation step"), dt = rig.simulation.dt:
 *   1. controllers (gait + IK) write motor targets for their chains;
 *   2. the motor targets of every powered joint are handed to the World;
 *   3. world.step(dt) — gravity, impulses, joints, limits, motors, contacts;
 *   4. bones are read from bodies on demand (bonePoses): bone world = body world · offset⁻¹.
 * Deterministic: the same rig, options and calls give bit-identical frames in the same JS engine.
 */
import { quatConj, quatMul, quatNormalize, quatRotate, type Quat, type ReadonlyQuat } from '../math/quat';
import { composeTransforms, invertTransform, type ReadonlyTransform, type Transform } from '../math/transform';
import { dot, sub, type ReadonlyVec3, type Vec3 } from '../math/vec3';
import type {
  BodyDesc, BodyHandle, JointDesc, JointHandle, MotorDesc, PhysicsWorld, ShapeDesc, WorldSettings, WorldSnapshot,
} from '../physics/types';
import { World } from '../physics/world';
import { ArticulatedWorld } from '../physics/articulated/world';
import { boneRestWorld, orderBones, type BoneWorld } from '../rig/restPose';
import type { RigDocument, RigJoint, RigMotor } from '../rig/schema';
import {
  controllerFactory, type ControllerContext, type ControllerFactories, type ControllerFactory, type ControllerInstance,
  type ControllerStep,
} from './controllers';
import { BODY_STRIDE, JOINT_STRIDE, flatFrameSize, frameFromFlat, type FrameLayout, type TraceFrame } from './trace';

export interface SimulationOptions {
  /** Where the rig's model origin stands in the world (default: origin, identity). */
  placement?: { position?: ReadonlyVec3; rotation?: ReadonlyQuat };
  /** Controller implementations for this simulation, tried before the global registry. */
  controllers?: ControllerFactories;
  /** A controller type with no implementation: 'error' (default) throws; 'skip' runs without it, its
   *  joints then hold their rest pose. */
  missingControllers?: 'error' | 'skip';
  /** Build the physics world (default: shared/physics World, or the ArticulatedWorld under the articulated
   *  solver). For tests and other engines; takes precedence over `solver`. */
  createWorld?: (settings: Partial<WorldSettings>) => PhysicsWorld;
  /** The physics back end, overriding the rig's `solver` (a rig saying "particle" runs rigid here: the
   *  particle solver has its own simulation, shared/runtime/particles.ts). rigid: maximal coordinates,
   *  sequential impulses (shared/physics/world.ts); articulated: joint coordinates, Featherstone's
   *  articulated-body method (shared/physics/articulated, docs/articulated.md). */
  solver?: SimulationSolver;
}

export type SimulationSolver = 'rigid' | 'articulated';

/** The back end a Simulation of this rig runs on, given an override. */
export function simulationSolver(rig: RigDocument, override?: SimulationSolver): SimulationSolver {
  return override ?? (rig.solver === 'articulated' ? 'articulated' : 'rigid');
}

/** A bone transform for skinning. World: model placement applied. Local: relative to the parent bone (as
 *  three.js Bone.position/quaternion/scale), root bones relative to the placement. */
export interface BonePose { position: Vec3; rotation: Quat; scale: Vec3 }

export interface SimulationSnapshot {
  readonly kind: 'marionette-simulation-snapshot';
  readonly steps: number;
  readonly world: WorldSnapshot;
  readonly motorsOn: readonly boolean[];
  readonly targets: readonly (readonly number[] | number)[];
  readonly steeringTarget: readonly number[] | null;
  readonly controllers: readonly unknown[];
}

export interface Simulation {
  /** The document this simulation was built from (read-only: editing it does not change the simulation). */
  readonly rig: RigDocument;
  /** The physics world (read API; stepping and every write go through this object's methods). */
  readonly world: PhysicsWorld;
  /** The physics back end it runs on (a custom createWorld reports 'rigid'). */
  readonly solver: SimulationSolver;
  /** Simulated time (s) = steps · dt. */
  readonly time: number;
  readonly steps: number;
  readonly dt: number;
  readonly bodyNames: readonly string[];
  readonly jointNames: readonly string[];
  readonly controllerNames: readonly string[];
  /** Bones parents-first; the order of writeBonePoses. */
  readonly boneNames: readonly string[];

  /** Advance one fixed step of rig.simulation.dt. */
  step(): void;
  /** Steering target (m, world) for every controller, or null to walk straight. */
  setTarget(target: ReadonlyVec3 | null): void;
  /** Impulse (N·s, world) on a body, at a world point (default: its centre of mass). */
  applyImpulse(body: string, impulse: ReadonlyVec3, worldPoint?: ReadonlyVec3): void;
  /** Power (true) or limp (false) the motors of the named joints (default: all). Limp motors keep their
   *  frictionTorque. */
  setMotorsEnabled(on: boolean, joints?: readonly string[]): void;
  /** Targets for joints whose motor target source is "animation" (ball: quaternion S; hinge: rad;
   *  prismatic: m). Until set, they hold the rest pose. */
  setMotorTargets(targets: Readonly<Record<string, ReadonlyQuat | number>>): void;
  /** The motor target in force for a joint — rest pose, controller or animation, whichever set it last
   *  (ball: quaternion S of frame B in frame A; hinge: rad; prismatic: m; fixed: 0). For plots. */
  motorTarget(joint: string): ReadonlyQuat | number;
  bodyPose(body: string): { position: Vec3; rotation: Quat };
  /** The world's handle of a body, for reading `world` (throws on a name the rig does not have). */
  bodyHandle(body: string): BodyHandle;
  /** The world's handle of a joint, for reading `world` (throws on a name the rig does not have). */
  jointHandle(joint: string): JointHandle;
  /** The body a world handle belongs to (e.g. a raycast hit), or null for a handle of no rig body. */
  bodyName(handle: BodyHandle): string | null;
  /** Set a body's velocities (m/s of its centre of mass, rad/s; world). */
  setBodyVelocity(body: string, linear: ReadonlyVec3, angular: ReadonlyVec3): void;
  /** Place a body (its origin, world) without stepping — e.g. to pose a never-stepped simulation from a
   *  recorded frame and read its bones or raycast it. */
  setBodyPose(body: string, position: ReadonlyVec3, rotation: ReadonlyQuat): void;
  /** Per-bone transforms for skinning (see BonePose). */
  bonePoses(space?: 'world' | 'local'): Record<string, BonePose>;
  /** Allocation-free form: 7 numbers per bone (px, py, pz, qx, qy, qz, qw) in boneNames order. */
  writeBonePoses(out: Float32Array | Float64Array, space?: 'world' | 'local'): void;
  /** The current state in the trace format (docs/runtime.md). Allocates the objects: to record every step,
   *  use a FrameRecorder (recorder.ts), which stores writeFrame's numbers and builds frames on demand. */
  frame(): TraceFrame;
  /** Numbers in one flat frame (trace.ts "flat frames": the CSV columns in order). */
  readonly frameSize: number;
  /** Allocation-free form of frame(): the flat frame written to out[offset … offset + frameSize). */
  writeFrame(out: Float64Array, offset?: number): void;
  snapshot(): SimulationSnapshot;
  restore(snapshot: SimulationSnapshot): void;
  /** Non-null after a step in which the world blew up (speed past maxSpeed or a non-finite value). */
  readonly blowUp: { body: string; reason: string } | null;
}

export function createSimulation(rig: RigDocument, options: SimulationOptions = {}): Simulation {
  return new RigSimulation(rig, options);
}

// ---------------------------------------------------------------------------------------------- implementation

const motorDesc = (m: RigMotor, on: boolean): MotorDesc => ({
  mode: on ? m.mode : 'off', maxTorque: m.maxTorque, errorReduction: m.errorReduction,
  stiffness: m.stiffness, damping: m.damping, frictionTorque: m.frictionTorque,
  ...(m.torqueLimit ? { torqueLimit: m.torqueLimit } : {}),
  ...(m.maxSpeed !== undefined ? { maxSpeed: m.maxSpeed } : {}),
});

const copyTarget = (t: ReadonlyQuat | number): readonly number[] | number => (typeof t === 'number' ? t : [t[0], t[1], t[2], t[3]]);

class RigSimulation implements Simulation {
  readonly rig: RigDocument;
  readonly world: PhysicsWorld;
  readonly solver: SimulationSolver;
  readonly dt: number;
  readonly bodyNames: string[];
  readonly jointNames: string[];
  readonly controllerNames: string[];
  readonly boneNames: string[];
  private steps_ = 0;
  private readonly placement: Transform;
  private readonly bodyHandles: BodyHandle[] = [];
  private readonly jointHandles: JointHandle[] = [];
  private readonly bodyIndex = new Map<string, number>();
  private readonly jointIndex = new Map<string, number>();
  private readonly motorsOn: boolean[];
  /** Current motor target per joint (quaternion or number; fixed joints: 0). */
  private targets: (ReadonlyQuat | number)[];
  /** Per joint, the target last handed to the World by pushTargets (undefined: none, or forgotten after a
   *  restore or a motor switch). */
  private pushed: (ReadonlyQuat | number | undefined)[] = [];
  private readonly restTargets: (ReadonlyQuat | number)[];
  private readonly controllers: ControllerInstance[] = [];
  private steeringTarget: Vec3 | null = null;
  // Bone read-out, precomputed: for each bone (parents first) its body, offset⁻¹, parent and rest-relative.
  private readonly bones: { body: number; offsetInv: Transform; parent: number; restLocal: Transform; parentScale: Vec3; restWorld: Transform; scale: Vec3 }[] = [];
  private readonly boneScratch: Float64Array;
  private readonly frameLayout: FrameLayout;
  readonly frameSize: number;
  private readonly frameScratch: Float64Array;
  private readonly v3: Vec3 = [0, 0, 0];
  private readonly q4: Quat = [0, 0, 0, 1];

  constructor(rig: RigDocument, options: SimulationOptions) {
    this.rig = rig;
    this.dt = rig.simulation.dt;
    const p = options.placement;
    this.placement = { position: [...(p?.position ?? [0, 0, 0])] as Vec3, rotation: quatNormalize(p?.rotation ?? [0, 0, 0, 1]) };
    const sim = rig.simulation;
    const settings: Partial<WorldSettings> = {
      gravity: sim.gravity, substeps: sim.substeps, velocityIterations: sim.velocityIterations,
      positionIterations: sim.positionIterations, groundHeight: sim.ground ? sim.ground.height : null,
      jointCorrection: sim.jointCorrection ?? 'projection',
      gyroscopic: sim.gyroscopic ?? 'damped',
      warmStart: 'energy', // never pumps energy into a rig (docs/physics.md "Random rigs")
      ...(sim.ground ? { groundMaterial: { friction: sim.ground.friction, restitution: sim.ground.restitution } } : {}),
    };
    this.solver = options.createWorld ? 'rigid' : simulationSolver(rig, options.solver);
    this.world = options.createWorld ? options.createWorld(settings)
      : this.solver === 'articulated' ? new ArticulatedWorld(rig, { placement: this.placement, settings })
        : new World(settings);

    // Rest pose in the world: placement · bone rest · body offset.
    const boneRest = boneRestWorld(rig.skeleton.bones);
    const restBodies = new Map<string, Transform>();
    for (const [i, b] of rig.bodies.entries()) {
      const bone = boneRest.get(b.bone);
      if (!bone) throw new Error(`body "${b.name}": bone "${b.bone}" is not in the skeleton (validate the rig with loadRig first)`);
      const world = composeTransforms(this.placement, composeTransforms(bone, { position: b.offset.position as Vec3, rotation: quatNormalize(b.offset.rotation) }));
      world.rotation = quatNormalize(world.rotation);
      restBodies.set(b.name, world);
      const desc: BodyDesc = {
        name: b.name, type: b.type, position: world.position, rotation: world.rotation,
        shapes: b.shapes as readonly ShapeDesc[],
        ...(b.mass !== null ? { mass: b.mass } : { density: b.density ?? undefined }),
        material: { friction: b.material.friction, restitution: b.material.restitution },
        linearDamping: b.linearDamping, angularDamping: b.angularDamping,
        collisionGroup: b.collisionGroup, collisionMask: b.collisionMask,
      };
      this.bodyHandles.push(this.world.addBody(desc));
      this.bodyIndex.set(b.name, i);
    }
    this.bodyNames = rig.bodies.map((b) => b.name);

    this.restTargets = rig.joints.map((j) => restTarget(j, restBodies));
    this.targets = [...this.restTargets];
    this.motorsOn = rig.joints.map(() => true);
    for (const [i, j] of rig.joints.entries()) {
      this.jointHandles.push(this.world.addJoint(jointDesc(j, this.handleOf(j.bodyA), this.handleOf(j.bodyB))));
      this.jointIndex.set(j.name, i);
      this.pushVelocityTarget(i);
    }
    this.jointNames = rig.joints.map((j) => j.name);

    const ctx: ControllerContext = {
      rig, world: this.world, restBodies, dt: this.dt,
      bodyHandle: (name) => this.handleOf(name),
      jointHandle: (name) => this.jointHandles[this.jointAt(name)]!,
      restTarget: (name) => this.restTargets[this.jointAt(name)]!,
    };
    this.controllerNames = [];
    for (const c of rig.controllers) {
      const factory = (options.controllers?.[c.type] ?? controllerFactory(c.type)) as ControllerFactory | undefined;
      if (!factory) {
        if (options.missingControllers === 'skip') continue;
        throw new Error(`controller "${c.name}" has type "${c.type}" but no implementation is registered: import the gait module (it calls registerControllerType('${c.type}', …)), pass options.controllers, or set missingControllers: 'skip'`);
      }
      this.controllers.push(factory(c, ctx));
      this.controllerNames.push(c.name);
    }

    // Bones, parents first.
    const ordered = orderBones(rig.skeleton.bones).ordered;
    this.boneNames = ordered.map((b) => b.name);
    const boneAt = new Map(this.boneNames.map((n, i) => [n, i] as const));
    const bodyOfBone = new Map(rig.bodies.map((b, i) => [b.bone, i] as const));
    for (const b of ordered) {
      const rest = boneRest.get(b.name)!;
      const parent = b.parent === null ? -1 : boneAt.get(b.parent)!;
      const parentRest: BoneWorld | undefined = parent >= 0 ? boneRest.get(b.parent!) : undefined;
      const body = bodyOfBone.get(b.name) ?? -1;
      const offset = body >= 0 ? rig.bodies[body]!.offset : null;
      this.bones.push({
        body,
        offsetInv: offset ? invertTransform({ position: offset.position as Vec3, rotation: quatNormalize(offset.rotation) }) : { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
        parent,
        restLocal: parentRest ? composeTransforms(invertTransform(parentRest), rest) : rest,
        parentScale: parentRest ? parentRest.scale : [1, 1, 1],
        restWorld: composeTransforms(this.placement, rest),
        scale: [...b.rest.scale] as Vec3,
      });
    }
    this.boneScratch = new Float64Array(this.bones.length * 7);
    this.frameLayout = { bodies: this.bodyNames, joints: this.jointNames, controllers: this.controllerNames };
    this.frameSize = flatFrameSize(this.frameLayout);
    this.frameScratch = new Float64Array(this.frameSize);
  }

  get time(): number { return this.steps_ * this.dt; }
  get steps(): number { return this.steps_; }
  get blowUp() { return this.world.blowUp; }

  step(): void {
    if (this.controllers.length > 0) {
      const step: ControllerStep = {
        time: this.time, dt: this.dt,
        setMotorTarget: (joint, target) => { this.targets[this.jointAt(joint)] = target; },
      };
      this.controllers.forEach((c, i) => { if (this.rig.controllers[i]!.enabled) c.step(step); });
    }
    this.pushTargets();
    this.world.step(this.dt);
    this.steps_++;
  }

  setTarget(target: ReadonlyVec3 | null): void {
    this.steeringTarget = target ? [target[0], target[1], target[2]] : null;
    for (const c of this.controllers) c.setTarget(this.steeringTarget);
  }

  applyImpulse(body: string, impulse: ReadonlyVec3, worldPoint?: ReadonlyVec3): void {
    this.world.applyImpulse(this.handleOf(body), impulse, worldPoint);
  }

  setMotorsEnabled(on: boolean, joints?: readonly string[]): void {
    const which = joints ? joints.map((n) => this.jointAt(n)) : this.rig.joints.map((_, i) => i);
    for (const i of which) {
      const j = this.rig.joints[i]!;
      if (j.type === 'fixed' || this.motorsOn[i] === on) continue;
      this.motorsOn[i] = on;
      this.pushed[i] = undefined;
      this.world.setMotor(this.jointHandles[i]!, motorDesc(j.motor, on));
      if (j.type === 'cylindrical' || j.type === 'planar') this.world.setSlideMotor?.(this.jointHandles[i]!, motorDesc(j.slideMotor, on));
      if (on) this.pushVelocityTarget(i);
    }
  }

  setMotorTargets(targets: Readonly<Record<string, ReadonlyQuat | number>>): void {
    for (const [name, t] of Object.entries(targets)) {
      const i = this.jointAt(name);
      const j = this.rig.joints[i]!;
      const wantsNumber = j.type === 'hinge' || j.type === 'prismatic' || j.type === 'screw' || j.type === 'cylindrical' || j.type === 'planar';
      if (j.type === 'fixed' || wantsNumber !== (typeof t === 'number')) {
        throw new Error(`joint "${name}" (${j.type}) takes ${j.type === 'fixed' ? 'no target' : wantsNumber ? 'a number' : 'a quaternion [x, y, z, w]'} as its motor target`);
      }
      this.targets[i] = typeof t === 'number' ? t : quatNormalize(t);
    }
  }

  motorTarget(joint: string): ReadonlyQuat | number {
    return this.targets[this.jointAt(joint)]!;
  }

  bodyPose(body: string): { position: Vec3; rotation: Quat } {
    const h = this.handleOf(body);
    return { position: this.world.getPosition(h), rotation: this.world.getRotation(h) };
  }

  bodyHandle(body: string): BodyHandle { return this.handleOf(body); }

  jointHandle(joint: string): JointHandle { return this.jointHandles[this.jointAt(joint)]!; }

  bodyName(handle: BodyHandle): string | null {
    const i = this.bodyHandles.indexOf(handle);
    return i < 0 ? null : this.bodyNames[i]!;
  }

  setBodyVelocity(body: string, linear: ReadonlyVec3, angular: ReadonlyVec3): void {
    this.world.setVelocity(this.handleOf(body), linear, angular);
  }

  setBodyPose(body: string, position: ReadonlyVec3, rotation: ReadonlyQuat): void {
    this.world.setPose(this.handleOf(body), position, rotation);
  }

  writeBonePoses(out: Float32Array | Float64Array, space: 'world' | 'local' = 'world'): void {
    if (out.length < this.bones.length * 7) throw new Error(`writeBonePoses: need ${this.bones.length * 7} numbers (7 per bone), got ${out.length}`);
    const w = this.boneScratch;
    // World transforms first (parents before children), then optionally made parent-relative.
    for (let i = 0; i < this.bones.length; i++) {
      const b = this.bones[i]!;
      let t: ReadonlyTransform;
      if (b.body >= 0) {
        const h = this.bodyHandles[b.body]!;
        t = composeTransforms({ position: this.world.getPosition(h), rotation: this.world.getRotation(h) }, b.offsetInv);
      } else if (b.parent >= 0) {
        // A bone without a body keeps its rest placement relative to its parent.
        t = composeTransforms(readPose(w, b.parent), b.restLocal);
      } else {
        t = b.restWorld;
      }
      writePose(w, i, t.position, quatNormalize(t.rotation));
    }
    if (space === 'world') { out.set(w); return; }
    const placementInv = invertTransform(this.placement);
    for (let i = 0; i < this.bones.length; i++) {
      const b = this.bones[i]!;
      const world = readPose(w, i);
      const local = composeTransforms(b.parent >= 0 ? invertTransform(readPose(w, b.parent)) : placementInv, world);
      const s = b.parentScale;
      writePose(out, i, [local.position[0] / s[0], local.position[1] / s[1], local.position[2] / s[2]], quatNormalize(local.rotation));
    }
  }

  bonePoses(space: 'world' | 'local' = 'world'): Record<string, BonePose> {
    const buf = new Float64Array(this.bones.length * 7);
    this.writeBonePoses(buf, space);
    const out: Record<string, BonePose> = {};
    this.boneNames.forEach((name, i) => {
      const t = readPose(buf, i);
      out[name] = { position: t.position, rotation: t.rotation, scale: space === 'local' ? [...this.bones[i]!.scale] as Vec3 : [1, 1, 1] };
    });
    return out;
  }

  frame(): TraceFrame {
    this.writeFrame(this.frameScratch, 0);
    return frameFromFlat(this.frameLayout, this.frameScratch);
  }

  writeFrame(out: Float64Array, offset = 0): void {
    if (out.length < offset + this.frameSize) throw new Error(`writeFrame: need ${this.frameSize} numbers from offset ${offset}, the array holds ${out.length}`);
    const w = this.world, v = this.v3, q = this.q4;
    out[offset] = this.time;
    let o = offset + 1;
    for (let i = 0; i < this.bodyHandles.length; i++, o += BODY_STRIDE) {
      const h = this.bodyHandles[i]!;
      w.getPosition(h, v); out[o] = v[0]; out[o + 1] = v[1]; out[o + 2] = v[2];
      w.getRotation(h, q); out[o + 3] = q[0]; out[o + 4] = q[1]; out[o + 5] = q[2]; out[o + 6] = q[3];
      w.getLinearVelocity(h, v); out[o + 7] = v[0]; out[o + 8] = v[1]; out[o + 9] = v[2];
      w.getAngularVelocity(h, v); out[o + 10] = v[0]; out[o + 11] = v[1]; out[o + 12] = v[2];
    }
    const joints = this.rig.joints;
    for (let i = 0; i < joints.length; i++, o += JOINT_STRIDE) {
      const h = this.jointHandles[i]!;
      out[o] = w.getJointError(h);
      if (joints[i]!.type === 'fixed') { out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 0; out[o + 4] = 0; continue; }
      const r = w.getMotorReport(h);
      out[o + 1] = r.torque; out[o + 2] = r.maxTorque; out[o + 3] = r.saturated ? 1 : 0; out[o + 4] = r.torqueMagnitude;
    }
    for (let i = 0; i < this.controllers.length; i++) out[o++] = this.controllers[i]!.phase;
  }

  snapshot(): SimulationSnapshot {
    return {
      kind: 'marionette-simulation-snapshot', steps: this.steps_, world: this.world.snapshot(),
      motorsOn: [...this.motorsOn], targets: this.targets.map(copyTarget),
      steeringTarget: this.steeringTarget ? [...this.steeringTarget] : null,
      controllers: this.controllers.map((c) => c.snapshot()),
    };
  }

  restore(s: SimulationSnapshot): void {
    if (s?.kind !== 'marionette-simulation-snapshot') throw new Error('Simulation.restore: not a marionette-simulation-snapshot');
    if (s.motorsOn.length !== this.motorsOn.length || s.controllers.length !== this.controllers.length) {
      throw new Error('Simulation.restore: the snapshot was taken from a simulation of a different rig');
    }
    this.world.restore(s.world);
    this.pushed = [];
    this.steps_ = s.steps;
    this.targets = s.targets.map((t) => (typeof t === 'number' ? t : [t[0]!, t[1]!, t[2]!, t[3]!] as const));
    this.steeringTarget = s.steeringTarget ? [s.steeringTarget[0]!, s.steeringTarget[1]!, s.steeringTarget[2]!] : null;
    this.rig.joints.forEach((j, i) => {
      if (j.type === 'fixed') return;
      this.motorsOn[i] = s.motorsOn[i]!;
      this.world.setMotor(this.jointHandles[i]!, motorDesc(j.motor, this.motorsOn[i]!));
      if (j.type === 'cylindrical' || j.type === 'planar') this.world.setSlideMotor?.(this.jointHandles[i]!, motorDesc(j.slideMotor, this.motorsOn[i]!));
      this.pushVelocityTarget(i);
    });
    this.controllers.forEach((c, i) => { c.setTarget(this.steeringTarget); c.restore(s.controllers[i]); });
  }

  // -------------------------------------------------------------------------------------------- helpers

  private handleOf(body: string): BodyHandle {
    const i = this.bodyIndex.get(body);
    if (i === undefined) throw new Error(`no body named "${body}" in rig "${this.rig.name}" (bodies: ${this.rig.bodies.map((b) => b.name).join(', ')})`);
    return this.bodyHandles[i]!;
  }

  private jointAt(joint: string): number {
    const i = this.jointIndex.get(joint);
    if (i === undefined) throw new Error(`no joint named "${joint}" in rig "${this.rig.name}" (joints: ${this.rig.joints.map((j) => j.name).join(', ')})`);
    return i;
  }

  /** Position and PD motors get this step's target; velocity motors keep their constant target. A target
   *  the World already holds (the same number, or the same quaternion array — targets are replaced, never
   *  changed in place) is not handed over again: the rest pose's targets of a creature without controllers
   *  cost a validation and a normalised copy per joint per step for nothing. */
  private pushTargets(): void {
    const joints = this.rig.joints, pushed = this.pushed;
    for (let i = 0; i < joints.length; i++) {
      const j = joints[i]!;
      if (j.type === 'fixed' || !this.motorsOn[i]) continue;
      const mode = j.motor.mode, t = this.targets[i]!;
      if ((mode === 'position' || mode === 'pd') && pushed[i] !== t) {
        this.world.setMotorTarget(this.jointHandles[i]!, t);
        pushed[i] = t;
      }
    }
  }

  /** A velocity motor's target: a number for hinge/prismatic, an angular-velocity vector (rad/s, frame A)
   *  for a ball — the rig gives balls no velocity (schema: "ball joints: 0, a damper"), so [0, 0, 0], which
   *  also clears a θ̇d left from an earlier PD mode. Fixed joints have no motor. */
  private pushVelocityTarget(i: number): void {
    const j = this.rig.joints[i]!;
    if (j.type === 'fixed') return;
    // The slide motor of a cylindrical joint takes its target velocity along X; a planar one's is 0 (schema).
    if ((j.type === 'cylindrical' || j.type === 'planar') && j.slideMotor.mode === 'velocity') {
      this.world.setSlideMotorTarget?.(this.jointHandles[i]!, j.type === 'planar' ? [0, 0] : j.slideMotor.target.velocity ?? 0);
    }
    if (j.motor.mode !== 'velocity') return;
    if (j.type === 'ball') this.world.setMotorTarget(this.jointHandles[i]!, BALL_DAMPER_TARGET);
    else this.world.setMotorTarget(this.jointHandles[i]!, j.motor.target.velocity ?? 0);
  }
}

const BALL_DAMPER_TARGET: ReadonlyVec3 = [0, 0, 0];

function jointDesc(j: RigJoint, bodyA: BodyHandle, bodyB: BodyHandle): JointDesc {
  const base = {
    name: j.name, bodyA, bodyB, collideConnected: j.collideConnected,
    frameA: { position: j.frameA.position, rotation: quatNormalize(j.frameA.rotation) },
    frameB: { position: j.frameB.position, rotation: quatNormalize(j.frameB.rotation) },
  };
  switch (j.type) {
    case 'ball': return {
      ...base, type: 'ball', motor: motorDesc(j.motor, true),
      ...(j.twistLimit ? { twistLimit: j.twistLimit } : {}), ...(j.swingLimit ? { swingLimit: j.swingLimit } : {}),
    };
    case 'hinge': return { ...base, type: 'hinge', motor: motorDesc(j.motor, true), ...(j.limit ? { limit: j.limit } : {}) };
    case 'prismatic': return { ...base, type: 'prismatic', motor: motorDesc(j.motor, true), ...(j.limit ? { limit: j.limit } : {}) };
    case 'fixed': return { ...base, type: 'fixed' };
    case 'screw': return { ...base, type: 'screw', pitch: j.pitch, motor: motorDesc(j.motor, true), ...(j.limit ? { limit: j.limit } : {}) };
    case 'cylindrical': return {
      ...base, type: 'cylindrical', motor: motorDesc(j.motor, true), slideMotor: motorDesc(j.slideMotor, true),
      ...(j.limit ? { limit: j.limit } : {}), ...(j.slideLimit ? { slideLimit: j.slideLimit } : {}),
    };
    case 'planar': return {
      ...base, type: 'planar', motor: motorDesc(j.motor, true), slideMotor: motorDesc(j.slideMotor, true),
      ...(j.limit ? { limit: j.limit } : {}), ...(j.slideLimitY ? { slideLimitY: j.slideLimitY } : {}), ...(j.slideLimitZ ? { slideLimitZ: j.slideLimitZ } : {}),
    };
  }
}

/**
 * The joint's value at the rest pose — the target a "rest" motor holds. S = (qA·fA)⁻¹ (qB·fB): frame B
 * relative to frame A; identity when the frames were authored to coincide. Hinge: the angle of S about
 * frame X, θ = 2·atan2(Sx, Sw). Prismatic: the anchors' separation along frame A's X (≈ 0 for a valid rig).
 */
function restTarget(j: RigJoint, rest: ReadonlyMap<string, Transform>): ReadonlyQuat | number {
  if (j.type === 'fixed') return 0;
  const a = rest.get(j.bodyA)!, b = rest.get(j.bodyB)!;
  const qa = quatMul(a.rotation, quatNormalize(j.frameA.rotation));
  const qb = quatMul(b.rotation, quatNormalize(j.frameB.rotation));
  let s = quatNormalize(quatMul(quatConj(qa), qb));
  if (s[3] < 0) s = [-s[0], -s[1], -s[2], -s[3]];
  if (j.type === 'ball') return s;
  // Screw, cylindrical, planar: the motor drives the angle about frame X (their slides rest at offset 0).
  if (j.type === 'hinge' || j.type === 'screw' || j.type === 'cylindrical' || j.type === 'planar') return 2 * Math.atan2(s[0], s[3]);
  const pa = composeTransforms(a, { position: j.frameA.position as Vec3, rotation: [0, 0, 0, 1] }).position;
  const pb = composeTransforms(b, { position: j.frameB.position as Vec3, rotation: [0, 0, 0, 1] }).position;
  return dot(sub(pb, pa), quatRotate(qa, [1, 0, 0]));
}

function writePose(out: Float32Array | Float64Array, i: number, p: ReadonlyVec3, q: ReadonlyQuat): void {
  const o = i * 7;
  out[o] = p[0]; out[o + 1] = p[1]; out[o + 2] = p[2];
  out[o + 3] = q[0]; out[o + 4] = q[1]; out[o + 5] = q[2]; out[o + 6] = q[3];
}

function readPose(a: Float64Array, i: number): Transform {
  const o = i * 7;
  return { position: [a[o]!, a[o + 1]!, a[o + 2]!], rotation: [a[o + 3]!, a[o + 4]!, a[o + 5]!, a[o + 6]!] };
}
