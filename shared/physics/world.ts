/**
 * The rigid-body world (issue 3): bodies in typed arrays, joints in one Float64Array, contacts from the
 * collision module, one sequential-impulse solver. Its Gauss-Seidel sweeps run island by island (islands.ts:
 * the dynamic bodies connected by joints or contacts this substep), each island's joints in slot order, then
 * its manifolds — bit-identical to sweeping the whole world in slot order, and as deterministic.
 *
 * One step(dt) runs `substeps` times the Box2D v3 pipeline with h = dt/substeps:
 *   1. update world inverse inertia R·I⁻¹·Rᵀ
 *   2. integrate velocities (gravity, forces, damping, the gyroscopic term: bodies.ts)
 *   3. prepare joints, prepare contacts (arms, effective masses, errors, motor targets)
 *   4. build the islands; warm start (impulses of the previous substep, matched contacts by feature id; with
 *      warmStart 'energy', the runtime's for rigs, the joints' part scaled per island so it adds no kinetic
 *      energy: warmStart.ts)
 *   5. solve × velocityIterations, island by island (useBias = true: limit correction, soft contact push-out),
 *      then LOADED_DRIVE_SWEEPS more over only an island's regularised drives and their neighbours (motor.ts)
 *   6. integrate positions (semi-implicit Euler; quaternions renormalised)
 *   7. jointCorrection 'projection' (default): joint position projection × positionIterations (NGS); a ball
 *      position drive that held inside its clamp in 5 records its relative rotation first and is held at it
 *      (ballJoint.ts holdBallDrive)
 *   8. relax × positionIterations, island by island: velocity rows with useBias = false (removes the
 *      contacts' push-out velocity), each sweep an island's contacts then its joints
 *   9. restitution
 *  10. jointCorrection 'shake': joint position correction × positionIterations along the start-of-substep
 *      Jacobian, with the matching velocity change for the drift this substep made
 *  11. store impulses and motor reports
 *
 * Joint error correction is at the position level (see stepContext.ts, joints/positionProjection.ts and
 * joints/positionCorrection.ts): β = settings.jointErrorReduction is the fraction of a joint's position
 * error removed per position iteration by moving the bodies directly (default 1, as Box2D v2.4's joints).
 * Joint velocity rows carry no bias. 'projection' leaves the velocities alone (dissipative: a double
 * pendulum loses 40 % of its energy in 10 s at 1 substep); 'shake' removes the error present at the start of
 * the substep without a velocity change and the drift of the substep with the velocity change that makes
 * v = (x₁ − x₀)/h (SHAKE/RATTLE: 6 % loss, and the modified energy never grows). The default stays
 * 'projection' because the shipped Armed Mine scenarios were tuned on it (see positionCorrection.ts).
 *
 * Defaults (WorldSettings): gravity (0, −9.81, 0) m/s², 1 substep, 8 velocity iterations, 2 relax
 * iterations, no ground plane, ground μ 0.6 / e 0, β 1, joint correction 'projection', gyroscopic
 * 'conserving', maxSpeed 500 m/s (or rad/s).
 */
import { quatNormalize, type Quat, type ReadonlyQuat } from '../math/quat';
import type { ReadonlyVec3, Vec3 } from '../math/vec3';
import {
  BodyStore, DYNAMIC, integratePositions, integrateVelocities, KINEMATIC, STATIC, updateWorldInertia,
} from './bodies';
import type { CollisionBackend } from './contacts/collisionBackend';
import { ContactSolver } from './contacts/contactSolver';
import { defaultCollisionBackend } from './contacts/defaultBackend';
import {
  BODY_A, BODY_B, FLAG_COLLIDE, FLAG_TORQUE_BALL, FLAGS, LA, LB, M_FRICTION, M_KP, M_KV, M_MAX, M_MODE, M_R, M_SATURATED, M_SPEED,
  M_TORQUE, M_TORQUE_NORM, MOTOR_MODE_CODES, MOTOR_OFF, QA, QB, S_MODE, STRIDE, T_Q, T_V, TYPE,
} from './joints/jointLayout';
import {
  beginStepJoints, correctJointPositions, finishJoints, JointStore, prepareJoints, projectJointPositions, recordJointHolds, solveJointList,
  warmStartJoints,
} from './joints/jointStore';
import { slideMotorReport, slideOffsets, validateSlideMotor, writeSlideMotor } from './joints/coupledJoint';
import type { JointTypeDef } from './joints/jointType';
import { JOINT_TYPES, jointTypeDef } from './joints/registry';
import { DEFAULT_MAX_DRIVE_SPEED, LOADED_DRIVE_SWEEPS } from './joints/motor';
import { rotationVector } from './joints/rows';
import { Islands } from './islands';
import { WarmStart } from './warmStart';
import { computeMassProperties, invertSymmetric3 } from './massProperties';
import { StepContext } from './stepContext';
import type {
  BodyDesc, BodyHandle, BodyType, ContactPoint, JointDesc, JointHandle, MassProperties, MotorDesc, MotorReport,
  PhysicsWorld, RayHit, WorldSettings, WorldSnapshot, WorldStats,
} from './types';
import { STEP_STAGES, type StepStage } from './types';
import { bodyLabel, validateBody, validateJointFrames, validateMotor, validateSettings } from './validation';

/** Add the time since `t0` to stage `i` of `times` and return the clock's reading (World.setStageTiming). */
function lap(clock: () => number, times: Float64Array, i: number, t0: number): number {
  const t = clock();
  times[i] = times[i]! + (t - t0);
  return t;
}

/**
 * An island's velocity sweeps have not converged while the last one still moves a jointed body by this much
 * (|Δv| in m/s or |Δω| in rad/s): the solver then sweeps on in batches of EXTRA_SWEEP_BATCH, up to
 * MAX_EXTRA_SWEEPS more, until a batch's last sweep moves none that much — MuJoCo's tolerance-based stop,
 * with the rig's velocityIterations as the least. Gauss-Seidel cut short on an ill-conditioned chain (mass
 * ratios compounding along it, stiff drives on light links) leaves velocity errors that the position pass and
 * the warm start feed back; on seed 1's random rigs that was most of what still ran past 100 m/s
 * (docs/physics.md "What prevents explosions"). 10 m/s sits far above what a converging island's last sweep
 * moves: the shipped creatures never reach it (the Armed Mine's crawl and kick: 0 extra sweeps; from 5 m/s
 * down they would).
 */
export const UNCONVERGED_SPEED = 10;
export const MAX_EXTRA_SWEEPS = 248;
export const EXTRA_SWEEP_BATCH = 8;

export const DEFAULT_WORLD_SETTINGS: Readonly<WorldSettings> = Object.freeze({
  gravity: [0, -9.81, 0] as const,
  substeps: 1,
  velocityIterations: 8,
  positionIterations: 2,
  groundHeight: null,
  groundMaterial: Object.freeze({ friction: 0.6, restitution: 0 }),
  jointErrorReduction: 1,
  jointCorrection: 'projection',
  gyroscopic: 'conserving',
  warmStart: 'full',
  contactCache: true,
  maxSpeed: 500,
});

/** Handles: slot + generation·2²², so ≈4 M slots and a stale handle never aliases a new body. */
const SLOT_BITS = 4194304;
const BODY_TYPE_CODES: Record<BodyType, number> = { dynamic: DYNAMIC, kinematic: KINEMATIC, static: STATIC };
const BODY_TYPE_NAMES: BodyType[] = ['dynamic', 'kinematic', 'static'];

interface SnapshotData {
  time: number;
  structureVersion: number;
  bodyCount: number;
  bodyFree: number[];
  bodyArrays: Record<string, Float64Array | Uint8Array | Uint32Array>;
  bodyNames: string[];
  bodyShapes: BodyStore['shapes'];
  bodyMass: MassProperties[];
  jointCount: number;
  jointFree: number[];
  jointData: Float64Array;
  jointAlive: Uint8Array;
  jointGeneration: Uint32Array;
  jointNames: string[];
  excluded: [number, number][];
  contacts: unknown;
}

const BODY_ARRAY_KEYS = [
  'alive', 'type', 'generation', 'p', 'q', 'v', 'w', 'mass', 'invMass', 'Il', 'invIl', 'invIw', 'localCom', 'force', 'torque',
  'linDamp', 'angDamp', 'gravityScale', 'friction', 'restitution', 'group', 'mask',
] as const;

export class World implements PhysicsWorld {
  readonly settings: Readonly<WorldSettings>;
  private _time = 0;
  private _blowUp: { body: string; reason: string } | null = null;
  readonly bodies = new BodyStore();
  readonly joints = new JointStore();
  readonly contacts: ContactSolver;
  private readonly islands = new Islands();
  /** The joints' warm start (warmStart.ts); read-only use: its smallestAlpha. */
  readonly warmStart = new WarmStart();
  private readonly ctx: StepContext;
  private massProps: MassProperties[] = [];
  /** Jointed body pairs (key = lo·SLOT_BITS + hi) → number of joints between them that disable collision. */
  private readonly excludedPairs = new Map<number, number>();
  /** The same pairs as per-body partner lists (with multiplicity), for the broad phase's per-candidate
   *  query: pair keys exceed 2³¹, so Map.has boxed a heap number per candidate pair (≈ 1.6 MB of garbage per
   *  step with 128 ragdolls); a body has only a few joints, so a linear scan of small integers is cheaper. */
  private exclusionPartners: number[][] = [];
  private lastSnapshot: WorldSnapshot | null = null;
  /** A fresh id (never reused, even across restores) after every add/remove of a body: a restore to a
   *  snapshot with another id rebuilds the collision shapes. */
  private structureVersion = 0;
  private structureCounter = 0;
  private stats: WorldStats & { extraSweeps: number; compliantDrives: number; cachedPairs: number } = { bodies: 0, joints: 0, contacts: 0, rows: 0, velocityIterations: 0, substeps: 0, extraSweeps: 0, compliantDrives: 0, cachedPairs: 0 };

  constructor(settings: Partial<WorldSettings> = {}, collision: CollisionBackend = defaultCollisionBackend) {
    const s: WorldSettings = { ...DEFAULT_WORLD_SETTINGS, ...settings };
    s.gravity = [...s.gravity] as unknown as ReadonlyVec3;
    s.groundMaterial = { ...DEFAULT_WORLD_SETTINGS.groundMaterial, ...settings.groundMaterial };
    validateSettings(s);
    this.settings = Object.freeze(s);
    this.ctx = new StepContext(this.bodies, this.joints.data, s.jointErrorReduction);
    this.contacts = new ContactSolver(this.bodies, this, collision);
  }

  get time(): number { return this._time; }
  get blowUp(): { body: string; reason: string } | null { return this._blowUp; }

  // ------------------------------------------------------------------------------------------- handles

  private slot(handle: BodyHandle, what = 'body handle'): number {
    const i = (handle as number) % SLOT_BITS, g = Math.floor((handle as number) / SLOT_BITS);
    const b = this.bodies;
    if (!Number.isInteger(handle) || i <= 0 || i >= b.count || b.alive[i] === 0 || b.generation[i] !== g) {
      throw new Error(`${what} ${String(handle)} is stale or invalid (the body was removed or never existed)`);
    }
    return i;
  }

  private jslot(handle: JointHandle): number {
    const j = (handle as number) % SLOT_BITS, g = Math.floor((handle as number) / SLOT_BITS);
    const js = this.joints;
    if (!Number.isInteger(handle) || j < 0 || j >= js.count || js.alive[j] === 0 || js.generation[j] !== g) {
      throw new Error(`joint handle ${String(handle)} is stale or invalid (the joint was removed or never existed)`);
    }
    return j;
  }

  private bodyHandle(i: number): BodyHandle { return (this.bodies.generation[i]! * SLOT_BITS + i) as BodyHandle; }

  /** Slot index of a body in the solver arrays (for renderers reading `bodies.p/q` directly). */
  bodyIndex(body: BodyHandle): number { return this.slot(body); }
  bodyName(body: BodyHandle): string { return this.bodies.names[this.slot(body)]!; }

  // -------------------------------------------------------------------------------------------- bodies

  addBody(desc: BodyDesc): BodyHandle {
    const label = bodyLabel(desc, this.bodies.count);
    validateBody(desc, label);
    const mp = computeMassProperties(desc.shapes, desc.type === 'dynamic' ? { mass: desc.mass, density: desc.density } : {});
    if (desc.type === 'dynamic' && !(mp.mass > 0 && Number.isFinite(mp.mass))) throw new Error(`${label}: mass computed from the shapes is ${mp.mass} (must be > 0)`);
    const b = this.bodies;
    const i = b.allocate();
    b.alive[i] = 1;
    b.names[i] = desc.name ?? `body${i}`;
    b.shapes[i] = desc.shapes;
    this.massProps[i] = mp;
    b.localCom.set(mp.centroid, 3 * i);
    this.writeBodyType(i, BODY_TYPE_CODES[desc.type]);
    const q = quatNormalize(desc.rotation ?? [0, 0, 0, 1]);
    b.q.set(q, 4 * i);
    this.writeOrigin(i, desc.position);
    b.v.set(desc.type === 'static' ? [0, 0, 0] : (desc.linearVelocity ?? [0, 0, 0]), 3 * i);
    b.w.set(desc.type === 'static' ? [0, 0, 0] : (desc.angularVelocity ?? [0, 0, 0]), 3 * i);
    b.force.fill(0, 3 * i, 3 * i + 3); b.torque.fill(0, 3 * i, 3 * i + 3);
    b.linDamp[i] = desc.linearDamping ?? 0;
    b.angDamp[i] = desc.angularDamping ?? 0;
    b.gravityScale[i] = desc.gravityScale ?? 1;
    b.friction[i] = desc.material?.friction ?? 0.6;
    b.restitution[i] = desc.material?.restitution ?? 0;
    b.group[i] = (desc.collisionGroup ?? 1) >>> 0;
    b.mask[i] = (desc.collisionMask ?? 0xffffffff) >>> 0;
    this.contacts.addBody(i, desc.shapes, b.names[i]!);
    this.joints.ensureBodies(b.capacity);
    this.sizeSweepScratch();
    this.structureVersion = ++this.structureCounter;
    return this.bodyHandle(i);
  }

  private writeBodyType(i: number, type: number): void {
    const b = this.bodies, mp = this.massProps[i]!;
    b.type[i] = type;
    if (type === DYNAMIC) {
      b.mass[i] = mp.mass; b.invMass[i] = 1 / mp.mass;
      b.Il.set(mp.inertia, 9 * i);
      b.invIl.set(invertSymmetric3(mp.inertia), 9 * i);
    } else {
      b.mass[i] = 0; b.invMass[i] = 0;
      b.Il.fill(0, 9 * i, 9 * i + 9); b.invIl.fill(0, 9 * i, 9 * i + 9); b.invIw.fill(0, 9 * i, 9 * i + 9);
      if (type === STATIC) { b.v.fill(0, 3 * i, 3 * i + 3); b.w.fill(0, 3 * i, 3 * i + 3); }
    }
  }

  /** p (centre of mass) = origin + R·localCentroid, with q already written. */
  private writeOrigin(i: number, origin: ReadonlyVec3): void {
    const b = this.bodies;
    const c = rotateBy(b.q, 4 * i, b.localCom[3 * i]!, b.localCom[3 * i + 1]!, b.localCom[3 * i + 2]!);
    b.p[3 * i] = origin[0] + c[0]; b.p[3 * i + 1] = origin[1] + c[1]; b.p[3 * i + 2] = origin[2] + c[2];
  }

  removeBody(body: BodyHandle): void {
    const i = this.slot(body);
    const J = this.joints.data;
    for (let j = 0; j < this.joints.count; j++) {
      if (this.joints.alive[j] && (J[j * STRIDE + BODY_A] === i || J[j * STRIDE + BODY_B] === i)) this.removeJointSlot(j);
    }
    this.contacts.removeBody(i);
    this.bodies.release(i);
    this.structureVersion = ++this.structureCounter;
  }

  setBodyType(body: BodyHandle, type: BodyType): void {
    const i = this.slot(body);
    const code = BODY_TYPE_CODES[type];
    if (code === undefined) throw new Error(`body '${this.bodies.names[i]}': type must be 'dynamic', 'kinematic' or 'static', got '${String(type)}'`);
    this.writeBodyType(i, code);
    this.contacts.setDynamic(i, code === DYNAMIC);
    updateWorldInertia(this.bodies);
  }

  getBodyType(body: BodyHandle): BodyType { return BODY_TYPE_NAMES[this.bodies.type[this.slot(body)]!]!; }

  getPosition(body: BodyHandle, out: Vec3 = [0, 0, 0]): Vec3 {
    const i = this.slot(body), b = this.bodies;
    const c = rotateBy(b.q, 4 * i, b.localCom[3 * i]!, b.localCom[3 * i + 1]!, b.localCom[3 * i + 2]!);
    out[0] = b.p[3 * i]! - c[0]; out[1] = b.p[3 * i + 1]! - c[1]; out[2] = b.p[3 * i + 2]! - c[2];
    return out;
  }

  /** World centre of mass (m). */
  getCenterOfMass(body: BodyHandle, out: Vec3 = [0, 0, 0]): Vec3 {
    const i = this.slot(body), p = this.bodies.p;
    out[0] = p[3 * i]!; out[1] = p[3 * i + 1]!; out[2] = p[3 * i + 2]!;
    return out;
  }

  getRotation(body: BodyHandle, out: Quat = [0, 0, 0, 1]): Quat {
    const i = this.slot(body), q = this.bodies.q;
    out[0] = q[4 * i]!; out[1] = q[4 * i + 1]!; out[2] = q[4 * i + 2]!; out[3] = q[4 * i + 3]!;
    return out;
  }

  /** Velocity of the centre of mass (m/s). */
  getLinearVelocity(body: BodyHandle, out: Vec3 = [0, 0, 0]): Vec3 {
    const i = this.slot(body), v = this.bodies.v;
    out[0] = v[3 * i]!; out[1] = v[3 * i + 1]!; out[2] = v[3 * i + 2]!;
    return out;
  }

  getAngularVelocity(body: BodyHandle, out: Vec3 = [0, 0, 0]): Vec3 {
    const i = this.slot(body), w = this.bodies.w;
    out[0] = w[3 * i]!; out[1] = w[3 * i + 1]!; out[2] = w[3 * i + 2]!;
    return out;
  }

  getMassProperties(body: BodyHandle): MassProperties {
    const mp = this.massProps[this.slot(body)]!;
    return { mass: mp.mass, centroid: [...mp.centroid], inertia: [...mp.inertia] };
  }

  setPose(body: BodyHandle, position: ReadonlyVec3, rotation: ReadonlyQuat): void {
    const i = this.slot(body);
    checkFinite(this.bodies.names[i]!, 'position', position);
    checkFinite(this.bodies.names[i]!, 'rotation', rotation);
    this.bodies.q.set(quatNormalize(rotation), 4 * i);
    this.writeOrigin(i, position);
    this.contacts.syncBody(i);
  }

  setVelocity(body: BodyHandle, linear: ReadonlyVec3, angular: ReadonlyVec3): void {
    const i = this.slot(body);
    checkFinite(this.bodies.names[i]!, 'linear velocity', linear);
    checkFinite(this.bodies.names[i]!, 'angular velocity', angular);
    if (this.bodies.type[i] === STATIC) return;
    this.bodies.v.set(linear, 3 * i); this.bodies.w.set(angular, 3 * i);
  }

  /**
   * Velocity that carries the body from its pose now to the requested pose in dt (seed 002):
   * v = (p₁ − p₀)/dt of the centre of mass, ω = rotvec(q₁·q₀⁻¹)/dt. The next step(dt) lands on it.
   */
  moveKinematic(body: BodyHandle, position: ReadonlyVec3, rotation: ReadonlyQuat, dt: number): void {
    const i = this.slot(body), b = this.bodies, name = b.names[i]!;
    if (b.type[i] !== KINEMATIC) throw new Error(`body '${name}': moveKinematic needs a kinematic body, it is ${BODY_TYPE_NAMES[b.type[i]!]}`);
    checkFinite(name, 'position', position); checkFinite(name, 'rotation', rotation);
    if (!(dt > 0 && Number.isFinite(dt))) throw new Error(`body '${name}': moveKinematic dt must be > 0, got ${dt}`);
    const q1 = quatNormalize(rotation);
    const c = rotateBy(new Float64Array(q1), 0, b.localCom[3 * i]!, b.localCom[3 * i + 1]!, b.localCom[3 * i + 2]!);
    for (let k = 0; k < 3; k++) b.v[3 * i + k] = (position[k]! + c[k]! - b.p[3 * i + k]!) / dt;
    const x0 = -b.q[4 * i]!, y0 = -b.q[4 * i + 1]!, z0 = -b.q[4 * i + 2]!, w0 = b.q[4 * i + 3]!;
    const [x1, y1, z1, w1] = q1;
    const tv = this.ctx.scratch.tv;
    rotationVector(tv,
      w1 * x0 + x1 * w0 + y1 * z0 - z1 * y0,
      w1 * y0 - x1 * z0 + y1 * w0 + z1 * x0,
      w1 * z0 + x1 * y0 - y1 * x0 + z1 * w0,
      w1 * w0 - x1 * x0 - y1 * y0 - z1 * z0);
    b.w[3 * i] = tv[0]! / dt; b.w[3 * i + 1] = tv[1]! / dt; b.w[3 * i + 2] = tv[2]! / dt;
  }

  applyImpulse(body: BodyHandle, impulse: ReadonlyVec3, worldPoint?: ReadonlyVec3): void {
    const i = this.slot(body), b = this.bodies;
    checkFinite(b.names[i]!, 'impulse', impulse);
    if (b.type[i] !== DYNAMIC) return;
    const im = b.invMass[i]!;
    for (let k = 0; k < 3; k++) b.v[3 * i + k] = b.v[3 * i + k]! + im * impulse[k]!;
    if (worldPoint) {
      checkFinite(b.names[i]!, 'point', worldPoint);
      const t = this.leverTorque(i, impulse, worldPoint);
      updateWorldInertia(b);
      const I = b.invIw, o = 9 * i;
      for (let k = 0; k < 3; k++) b.w[3 * i + k] = b.w[3 * i + k]! + I[o + 3 * k]! * t[0] + I[o + 3 * k + 1]! * t[1] + I[o + 3 * k + 2]! * t[2];
    }
  }

  /** Force (N) held for the next step; at a world point it also adds the torque (r × F). */
  applyForce(body: BodyHandle, force: ReadonlyVec3, worldPoint?: ReadonlyVec3): void {
    const i = this.slot(body), b = this.bodies;
    checkFinite(b.names[i]!, 'force', force);
    for (let k = 0; k < 3; k++) b.force[3 * i + k] = b.force[3 * i + k]! + force[k]!;
    if (worldPoint) {
      checkFinite(b.names[i]!, 'point', worldPoint);
      const t = this.leverTorque(i, force, worldPoint);
      for (let k = 0; k < 3; k++) b.torque[3 * i + k] = b.torque[3 * i + k]! + t[k]!;
    }
  }

  applyTorque(body: BodyHandle, torque: ReadonlyVec3): void {
    const i = this.slot(body), b = this.bodies;
    checkFinite(b.names[i]!, 'torque', torque);
    for (let k = 0; k < 3; k++) b.torque[3 * i + k] = b.torque[3 * i + k]! + torque[k]!;
  }

  private leverTorque(i: number, f: ReadonlyVec3, point: ReadonlyVec3): Vec3 {
    const p = this.bodies.p;
    const rx = point[0] - p[3 * i]!, ry = point[1] - p[3 * i + 1]!, rz = point[2] - p[3 * i + 2]!;
    return [ry * f[2] - rz * f[1], rz * f[0] - rx * f[2], rx * f[1] - ry * f[0]];
  }

  // -------------------------------------------------------------------------------------------- joints

  addJoint(desc: JointDesc): JointHandle {
    const label = `joint '${desc.name ?? `#${this.joints.count}`}'`;
    const def = jointTypeDef(desc.type, label);
    validateJointFrames(desc, label);
    def.validate(desc, label);
    if (desc.motor) validateMotor(label, desc.motor, def.name, def.motorRows);
    let iA: number, iB: number;
    try { iA = this.slot(desc.bodyA, 'bodyA'); iB = this.slot(desc.bodyB, 'bodyB'); } catch (e) { throw new Error(`${label}: ${(e as Error).message}`); }
    const js = this.joints;
    const j = js.allocate();
    this.ctx.joints = js.data;
    const J = js.data, o = j * STRIDE, b = this.bodies;
    J.fill(0, o, o + STRIDE);
    js.alive[j] = 1;
    js.names[j] = desc.name ?? `joint${j}`;
    J[o + TYPE] = def.code;
    J[o + BODY_A] = iA; J[o + BODY_B] = iB;
    for (let k = 0; k < 3; k++) {
      J[o + LA + k] = desc.frameA.position[k]! - b.localCom[3 * iA + k]!;
      J[o + LB + k] = desc.frameB.position[k]! - b.localCom[3 * iB + k]!;
    }
    J.set(quatNormalize(desc.frameA.rotation ?? [0, 0, 0, 1]), o + QA);
    J.set(quatNormalize(desc.frameB.rotation ?? [0, 0, 0, 1]), o + QB);
    J[o + FLAGS] = (desc.collideConnected ? FLAG_COLLIDE : 0) | def.configure(J, o, desc);
    this.writeMotor(o, desc.motor);
    def.init(this.ctx, o, iA, iB);
    if (!desc.collideConnected) {
      const key = pairKey(iA, iB);
      this.excludedPairs.set(key, (this.excludedPairs.get(key) ?? 0) + 1);
      (this.exclusionPartners[iA] ??= []).push(iB);
      (this.exclusionPartners[iB] ??= []).push(iA);
    }
    this.sizeSweepScratch();
    return (js.generation[j]! * SLOT_BITS + j) as JointHandle;
  }

  /** The extra-sweep and local-sweep scratch sized for every joint and body now, not by the step: a compiled
   *  step then has no allocation branch that only a new world's first step takes (a deoptimisation). */
  private sizeSweepScratch(): void {
    const nj = this.joints.count, nb = this.bodies.count;
    if (this.sweepStart.length < 12 * nj) this.sweepStart = new Float64Array(24 * nj);
    if (this.localList.length < nj) this.localList = new Int32Array(2 * nj);
    if (this.localMark.length < nb) this.localMark = new Uint8Array(2 * nb);
  }

  private writeMotor(o: number, m: MotorDesc | undefined): void {
    const J = this.joints.data;
    J[o + M_MODE] = m ? MOTOR_MODE_CODES[m.mode] : MOTOR_OFF;
    J[o + M_MAX] = m?.maxTorque ?? 0;
    J[o + M_R] = m?.errorReduction ?? 0.5;
    J[o + M_KP] = m?.stiffness ?? 0;
    J[o + M_KV] = m?.damping ?? 0;
    J[o + M_FRICTION] = m?.frictionTorque ?? 0;
    J[o + M_SPEED] = m?.maxSpeed ?? DEFAULT_MAX_DRIVE_SPEED;
    const flags = J[o + FLAGS]! & ~FLAG_TORQUE_BALL;
    J[o + FLAGS] = m?.torqueLimit === 'magnitude' ? flags | FLAG_TORQUE_BALL : flags;
  }

  removeJoint(joint: JointHandle): void { this.removeJointSlot(this.jslot(joint)); }

  private removeJointSlot(j: number): void {
    const J = this.joints.data, o = j * STRIDE;
    if (!(J[o + FLAGS]! & FLAG_COLLIDE)) {
      const key = pairKey(J[o + BODY_A]!, J[o + BODY_B]!);
      const n = (this.excludedPairs.get(key) ?? 1) - 1;
      if (n <= 0) this.excludedPairs.delete(key); else this.excludedPairs.set(key, n);
      const a = J[o + BODY_A]!, b = J[o + BODY_B]!;
      dropPartner(this.exclusionPartners[a], b); dropPartner(this.exclusionPartners[b], a);
    }
    this.joints.release(j);
  }

  jointName(joint: JointHandle): string { return this.joints.names[this.jslot(joint)]!; }

  /** The type of the record in slot j (registry.ts). */
  private typeOf(j: number): JointTypeDef { return JOINT_TYPES[this.joints.data[j * STRIDE + TYPE]!]!; }

  /**
   * Ball: S, the rotation of frame B relative to frame A (unit quaternion). Hinge: angle θ̂ (rad).
   * Prismatic: offset (m). In 'velocity' mode the target is the velocity: a number for hinge/prismatic,
   * a vector (rad/s, frame A axes) for a ball.
   */
  setMotorTarget(joint: JointHandle, target: ReadonlyQuat | ReadonlyVec3 | number): void {
    const j = this.jslot(joint), J = this.joints.data, o = j * STRIDE, name = this.joints.names[j]!;
    const def = this.typeOf(j), velocityMode = J[o + M_MODE] === MOTOR_MODE_CODES.velocity;
    if (typeof target === 'number') {
      if (!Number.isFinite(target)) throw new Error(`joint '${name}': motor target must be finite, got ${target}`);
      if (def.motorTarget === 'rotation') throw new Error(`joint '${name}': a ${def.name} joint's motor target is a quaternion (or a velocity vector), got a number`);
      if (velocityMode) J[o + T_V] = target; else J[o + T_Q] = target;
      return;
    }
    if (def.motorTarget !== 'rotation') throw new Error(`joint '${name}': a ${def.name} joint's motor target is a number`);
    checkFinite(name, 'motor target', target, 'joint');
    if (target.length === 3) { J.set(target, o + T_V); return; }
    if (velocityMode) throw new Error(`joint '${name}': in 'velocity' mode the motor target is an angular velocity [x, y, z]`);
    J.set(quatNormalize(target as ReadonlyQuat), o + T_Q);
  }

  /** PD mode's θ̇d (rad/s or m/s; a frame-A vector for ball joints). Default 0. */
  setMotorTargetVelocity(joint: JointHandle, velocity: number | ReadonlyVec3): void {
    const j = this.jslot(joint), J = this.joints.data, o = j * STRIDE, name = this.joints.names[j]!;
    if (typeof velocity === 'number') {
      if (!Number.isFinite(velocity)) throw new Error(`joint '${name}': motor target velocity must be finite`);
      J[o + T_V] = velocity;
    } else { checkFinite(name, 'motor target velocity', velocity, 'joint'); J.set(velocity, o + T_V); }
  }

  setMotor(joint: JointHandle, motor: MotorDesc): void {
    const j = this.jslot(joint), o = j * STRIDE, def = this.typeOf(j);
    validateMotor(`joint '${this.joints.names[j]}'`, motor, def.name, def.motorRows);
    this.writeMotor(o, motor);
  }

  getMotorReport(joint: JointHandle): MotorReport {
    const j = this.jslot(joint), J = this.joints.data, o = j * STRIDE;
    const off = J[o + M_MODE] === MOTOR_OFF;
    return {
      torque: J[o + M_TORQUE]!, torqueMagnitude: J[o + M_TORQUE_NORM]!, maxTorque: off ? J[o + M_FRICTION]! : J[o + M_MAX]!,
      saturated: J[o + M_SATURATED] === 1,
    };
  }

  /** Screw / cylindrical / planar (coupledJoint.ts): the offsets of the slide DOFs (m) at the current poses —
   *  cylindrical [along X], planar [along Y, along Z], screw [along X] (= pitch × the angle); [] for the other types. */
  getJointSlide(joint: JointHandle): number[] {
    const j = this.jslot(joint), J = this.joints.data, o = j * STRIDE, def = this.typeOf(j);
    if (def.name !== 'screw' && def.name !== 'cylindrical' && def.name !== 'planar') return [];
    this.ctx.joints = J;
    return slideOffsets(this.ctx, o, J[o + BODY_A]!, J[o + BODY_B]!, def.name);
  }

  /** The slide motor of a cylindrical or planar joint (force units: maxTorque in N, stiffness N/m). */
  setSlideMotor(joint: JointHandle, motor: MotorDesc): void {
    const j = this.jslot(joint), o = j * STRIDE, def = this.typeOf(j), label = `joint '${this.joints.names[j]}'`;
    if (!def.slideRows) throw new Error(`${label}: a ${def.name} joint has no slide motor (cylindrical and planar joints do)`);
    validateSlideMotor(label, motor, def.name);
    writeSlideMotor(this.joints.data, o, motor);
  }

  /** The slide motor's target: offset (m) along X (cylindrical) or [Y, Z] (planar); in 'velocity' mode the
   *  velocity (m/s). */
  setSlideMotorTarget(joint: JointHandle, target: number | readonly number[]): void {
    const j = this.jslot(joint), J = this.joints.data, o = j * STRIDE, def = this.typeOf(j), name = this.joints.names[j]!;
    const n = def.slideRows ?? 0;
    if (n === 0) throw new Error(`joint '${name}': a ${def.name} joint has no slide motor (cylindrical and planar joints do)`);
    const t = typeof target === 'number' ? [target] : target;
    if (t.length !== n || !t.every(Number.isFinite)) throw new Error(`joint '${name}': the slide motor target of a ${def.name} joint is ${n === 1 ? 'one finite number (m)' : 'two finite numbers [y, z] (m)'}, got ${JSON.stringify(target)}`);
    const velocityMode = J[o + S_MODE] === MOTOR_MODE_CODES.velocity;
    for (let k = 0; k < n; k++) J[o + (velocityMode ? T_V : T_Q) + 1 + k] = t[k]!;
  }

  /** The slide motor's report (forces in N). */
  getSlideMotorReport(joint: JointHandle): MotorReport {
    const j = this.jslot(joint), o = j * STRIDE;
    return slideMotorReport(this.joints.data, o);
  }

  /** Anchor separation |p_B + r_B − p_A − r_A| (m) at the current poses; for a prismatic joint the
   *  distance of B's anchor from A's slide axis (the type's anchorError). */
  getJointError(joint: JointHandle): number {
    const j = this.jslot(joint), J = this.joints.data, o = j * STRIDE;
    this.ctx.joints = J;
    return this.typeOf(j).anchorError(this.ctx, o, J[o + BODY_A]!, J[o + BODY_B]!);
  }

  /** Hinge angle (rad, unwrapped) / prismatic offset (m) at the current poses; ball (and fixed): rotation
   *  vector of frame B relative to frame A, in frame A axes (the type's position). */
  getJointAngle(joint: JointHandle): number | Vec3 {
    const j = this.jslot(joint), J = this.joints.data, o = j * STRIDE;
    this.ctx.joints = J;
    return this.typeOf(j).position(this.ctx, o, J[o + BODY_A]!, J[o + BODY_B]!);
  }

  /** Should bodies (slots) a and b collide as far as joints are concerned? */
  jointAllowsCollision(a: number, b: number): boolean { return !this.excludedBetween(a, b); }

  /** The contacts' pair filter (collision/types.ts PairExclusion): slots a and b are jointed and must not
   *  collide. The World itself, not a closure per world: the broad phase's call then has one target in
   *  every world, and V8 keeps it compiled when a second World is made. */
  excluded(a: number, b: number): boolean { return this.excludedBetween(a, b); }

  private excludedBetween(a: number, b: number): boolean {
    const list = this.exclusionPartners[a];
    if (list === undefined) return false;
    for (let k = 0; k < list.length; k++) if (list[k] === b) return true;
    return false;
  }

  // ---------------------------------------------------------------------------------------------- step

  step(dt: number): void {
    if (!(dt > 0 && Number.isFinite(dt))) throw new Error(`World.step: dt must be a finite number > 0, got ${dt}`);
    const s = this.settings, b = this.bodies, ctx = this.ctx, js = this.joints;
    const n = s.substeps, h = dt / n;
    ctx.h = h; ctx.invH = 1 / h; ctx.joints = js.data;
    ctx.stopStep = ctx.maxBiasVelocity * h / Math.max(1, s.positionIterations);
    const gx = s.gravity[0], gy = s.gravity[1], gz = s.gravity[2];
    let rows = 0;
    const cacheGeometry = s.contactCache !== false;
    const shake = s.jointCorrection === 'shake', conserving = s.gyroscopic !== 'damped', energyWarmStart = s.warmStart === 'energy';
    beginStepJoints(ctx, js);
    this.stats.extraSweeps = 0;
    let compliant = 0;
    // Stage timing (setStageTiming): off, `clock` is null and every lap below is one test of it.
    const clock = this.stageClock, times = this.stageTimes;
    if (clock) times.fill(0);
    let t = clock ? clock() : 0;
    for (let sub = 0; sub < n; sub++) {
      updateWorldInertia(b);
      integrateVelocities(b, h, gx, gy, gz, conserving);
      if (clock) t = lap(clock, times, 0, t);
      rows = prepareJoints(ctx, js);
      if (js.loadedCount > compliant) compliant = js.loadedCount;
      if (clock) t = lap(clock, times, 1, t);
      rows += this.contacts.prepare(ctx, s.groundHeight, s.groundMaterial, cacheGeometry);
      if (clock) t = lap(clock, times, 2, t);
      const isl = this.islands;
      isl.build(b, js, this.contacts); // before the warm start (it reads only joints and manifolds)
      if (clock) t = lap(clock, times, 3, t);
      if (energyWarmStart) {
        // Contacts first: the joints' line search then sees the floor's reaction already in the velocities
        // (a standing creature's joint impulses push its feet into the floor; judged without the contacts'
        // push back, that looks like energy and the search cut the weight-bearing impulses).
        this.contacts.warmStart(ctx);
        this.warmStart.run(ctx, js, isl);
      } else {
        warmStartJoints(ctx, js);
        this.contacts.warmStart(ctx);
      }
      if (clock) t = lap(clock, times, 4, t);
      this.solveIslands(s.velocityIterations, true);
      if (clock) t = lap(clock, times, 5, t);
      integratePositions(b, h);
      if (clock) t = lap(clock, times, 6, t);
      if (!shake && s.positionIterations > 0) recordJointHolds(ctx, js);
      if (!shake) for (let it = 0; it < s.positionIterations; it++) projectJointPositions(ctx, js);
      if (clock) t = lap(clock, times, 7, t);
      this.solveIslands(s.positionIterations, false);
      if (clock) t = lap(clock, times, 8, t);
      this.contacts.applyRestitution(ctx);
      if (shake) for (let it = 0; it < s.positionIterations; it++) correctJointPositions(ctx, js, it);
      finishJoints(ctx, js);
      this.contacts.store();
      if (clock) t = lap(clock, times, 9, t);
    }
    b.force.fill(0); b.torque.fill(0);
    this._time += dt;
    this.stats.bodies = this.liveBodies();
    this.stats.joints = this.liveJoints();
    this.stats.contacts = this.contacts.pointCount;
    this.stats.rows = rows;
    this.stats.velocityIterations = s.velocityIterations;
    this.stats.substeps = n;
    this.stats.compliantDrives = compliant;
    this.stats.cachedPairs = this.contacts.cachedPairs;
    this.checkBlowUp();
    if (clock) {
      lap(clock, times, 9, t); // the step's bookkeeping after the last substep counts as 'finish'
      const stageMs = {} as Record<StepStage, number>;
      STEP_STAGES.forEach((name, i) => { stageMs[name] = times[i]!; });
      this.stats.stageMs = stageMs;
    }
  }

  /**
   * Time each stage of every step on `clock` (ms, e.g. `() => performance.now()`: shared/ has no clock of its
   * own) and report it in getStats().stageMs — what Jolt's profiler zones and Unity's physics profiler
   * markers show; `bench/stages.ts` prints it for the benchmark scenes. `null` turns it off. Timing reads the
   * clock 10 times a substep and changes no result: a timed world steps bit for bit as an untimed one.
   */
  setStageTiming(clock: (() => number) | null): void {
    this.stageClock = clock;
    if (!clock) delete this.stats.stageMs;
  }

  /** Gauss-Seidel sweeps island by island (islands.ts: bit-identical to global sweeps, cache-resident). */
  private solveIslands(iterations: number, useBias: boolean): void {
    const isl = this.islands, ctx = this.ctx, jo = isl.jointOrder, js = isl.jointStart, co = isl.contactOrder, cs = isl.contactStart;
    for (let k = 0; k < isl.count; k++) {
      const j0 = js[k]!, j1 = js[k + 1]!, c0 = cs[k]!, c1 = cs[k + 1]!;
      // With joints and bias: not converged while the last sweep still moves a jointed body by UNCONVERGED_SPEED
      // or more; then sweep on in batches (at most MAX_EXTRA_SWEEPS more) until a batch's last sweep does not.
      const check = useBias && j1 > j0;
      for (let it = 0, last = iterations - 1; it <= last; it++) {
        if (check && it === last) this.recordJointVelocities(j0, j1);
        if (useBias) {
          if (j1 > j0) solveJointList(ctx, jo, j0, j1, true);
          if (c1 > c0) this.contacts.solveList(ctx, co, c0, c1, true);
        } else {
          // Relax: the contacts first, so the sweep ends on the joints (docs/physics.md "Relax ends on the
          // joints"): a light body's contact letting go of its impulse last left its joint violated by
          // hundreds of rad/s until the next step.
          if (c1 > c0) this.contacts.solveList(ctx, co, c0, c1, false);
          if (j1 > j0) solveJointList(ctx, jo, j0, j1, false);
        }
        if (check && it === last && last < iterations - 1 + MAX_EXTRA_SWEEPS && this.jointVelocityChange(j0, j1) >= UNCONVERGED_SPEED) {
          last += EXTRA_SWEEP_BATCH;
          this.stats.extraSweeps += EXTRA_SWEEP_BATCH;
        }
      }
      if (check) this.solveLoadedLocally(j0, j1);
    }
  }

  private sweepStart = new Float64Array(64);
  /** Stage timing (setStageTiming): the clock, and each stage's time in the step being run (ms). */
  private stageClock: (() => number) | null = null;
  private readonly stageTimes = new Float64Array(STEP_STAGES.length);

  /** The velocities (v, ω) of each joint's two bodies in island order, before a sweep (jointVelocityChange). */
  private recordJointVelocities(j0: number, j1: number): void {
    const J = this.ctx.joints, jo = this.islands.jointOrder, v = this.bodies.v, w = this.bodies.w;
    if (this.sweepStart.length < 12 * (j1 - j0)) this.sweepStart = new Float64Array(24 * (j1 - j0));
    const r = this.sweepStart;
    for (let n = j0, k = 0; n < j1; n++, k += 12) {
      const o = jo[n]! * STRIDE, a = 3 * J[o + BODY_A]!, b = 3 * J[o + BODY_B]!;
      r[k] = v[a]!; r[k + 1] = v[a + 1]!; r[k + 2] = v[a + 2]!; r[k + 3] = w[a]!; r[k + 4] = w[a + 1]!; r[k + 5] = w[a + 2]!;
      r[k + 6] = v[b]!; r[k + 7] = v[b + 1]!; r[k + 8] = v[b + 2]!; r[k + 9] = w[b]!; r[k + 10] = w[b + 1]!; r[k + 11] = w[b + 2]!;
    }
  }

  /** The largest change of a jointed body's |Δv| (m/s) or |Δω| (rad/s) since recordJointVelocities. */
  private jointVelocityChange(j0: number, j1: number): number {
    const J = this.ctx.joints, jo = this.islands.jointOrder, v = this.bodies.v, w = this.bodies.w, r = this.sweepStart;
    let most = 0;
    for (let n = j0, k = 0; n < j1; n++, k += 12) {
      const o = jo[n]! * STRIDE;
      for (let side = 0; side < 2; side++) {
        const i = 3 * J[o + (side === 0 ? BODY_A : BODY_B)]!, q = k + 6 * side;
        const dvx = v[i]! - r[q]!, dvy = v[i + 1]! - r[q + 1]!, dvz = v[i + 2]! - r[q + 2]!;
        const dwx = w[i]! - r[q + 3]!, dwy = w[i + 1]! - r[q + 4]!, dwz = w[i + 2]! - r[q + 5]!;
        most = Math.max(most, dvx * dvx + dvy * dvy + dvz * dvz, dwx * dwx + dwy * dwy + dwz * dwz);
      }
    }
    return Math.sqrt(most);
  }

  private localList = new Int32Array(64);
  private localMark = new Uint8Array(64);

  /** After the island's velocity sweeps, LOADED_DRIVE_SWEEPS more over only its joints with a regularised
   *  drive (JointStore.loaded: ρ > LOAD_RATIO_FROM) and the joints that share a dynamic body with them, in
   *  island order (docs/physics.md "What prevents explosions"). Nothing when the island has none, so rigs
   *  below the ramp are solved bit for bit as before. */
  private solveLoadedLocally(j0: number, j1: number): void {
    const jsr = this.joints, loaded = jsr.loaded, J = jsr.data, jo = this.islands.jointOrder, inv = this.bodies.invMass;
    let any = false;
    for (let n = j0; n < j1; n++) if (loaded[jo[n]!] === 1) { any = true; break; }
    if (!any) return;
    if (this.localMark.length < this.bodies.count) this.localMark = new Uint8Array(2 * this.bodies.count);
    if (this.localList.length < j1 - j0) this.localList = new Int32Array(2 * (j1 - j0));
    const mark = this.localMark, list = this.localList;
    for (let n = j0; n < j1; n++) {
      const j = jo[n]!;
      if (loaded[j] !== 1) continue;
      const o = j * STRIDE, a = J[o + BODY_A]!, b = J[o + BODY_B]!;
      if (inv[a]! > 0) mark[a] = 1;
      if (inv[b]! > 0) mark[b] = 1;
    }
    let m = 0;
    for (let n = j0; n < j1; n++) {
      const j = jo[n]!, o = j * STRIDE;
      if (loaded[j] === 1 || mark[J[o + BODY_A]!] === 1 || mark[J[o + BODY_B]!] === 1) list[m++] = j;
    }
    for (let n = j0; n < j1; n++) { const o = jo[n]! * STRIDE; mark[J[o + BODY_A]!] = 0; mark[J[o + BODY_B]!] = 0; }
    for (let it = 0; it < LOADED_DRIVE_SWEEPS; it++) solveJointList(this.ctx, list, 0, m, true);
  }

  private checkBlowUp(): void {
    const b = this.bodies, max = this.settings.maxSpeed;
    this._blowUp = null;
    for (let i = 1; i < b.count; i++) {
      if (!b.alive[i] || b.type[i] === STATIC) continue;
      const i3 = 3 * i;
      const v2 = b.v[i3]! ** 2 + b.v[i3 + 1]! ** 2 + b.v[i3 + 2]! ** 2;
      const w2 = b.w[i3]! ** 2 + b.w[i3 + 1]! ** 2 + b.w[i3 + 2]! ** 2;
      const p = b.p[i3]! + b.p[i3 + 1]! + b.p[i3 + 2]! + b.q[4 * i]! + b.q[4 * i + 1]! + b.q[4 * i + 2]! + b.q[4 * i + 3]!;
      if (!Number.isFinite(v2 + w2 + p)) { this._blowUp = { body: b.names[i]!, reason: 'non-finite position, rotation or velocity' }; return; }
      if (v2 > max * max) { this._blowUp = { body: b.names[i]!, reason: `speed ${Math.sqrt(v2).toFixed(1)} m/s exceeds maxSpeed ${max}` }; return; }
      if (w2 > max * max) { this._blowUp = { body: b.names[i]!, reason: `angular speed ${Math.sqrt(w2).toFixed(1)} rad/s exceeds maxSpeed ${max}` }; return; }
    }
  }

  private liveBodies(): number { let n = 0; for (let i = 1; i < this.bodies.count; i++) n += this.bodies.alive[i]!; return n; }
  private liveJoints(): number { let n = 0; for (let j = 0; j < this.joints.count; j++) n += this.joints.alive[j]!; return n; }

  getStats(): WorldStats { return { ...this.stats }; }

  // ------------------------------------------------------------------------------------ queries, state

  raycast(origin: ReadonlyVec3, direction: ReadonlyVec3, maxDistance: number): RayHit | null {
    checkFinite('raycast', 'origin', origin, 'query'); checkFinite('raycast', 'direction', direction, 'query');
    const hit = this.contacts.raycast(origin, direction, maxDistance, this.settings.groundHeight);
    if (!hit) return null;
    return { body: hit.body === 0 ? (0 as BodyHandle) : this.bodyHandle(hit.body), point: hit.point, normal: hit.normal, distance: hit.distance };
  }

  getContacts(): ContactPoint[] {
    return this.contacts.points().map((c) => ({
      bodyA: this.bodyHandle(c.a),
      bodyB: c.b === 0 ? null : this.bodyHandle(c.b),
      point: c.point, normal: c.normal, depth: c.depth, normalImpulse: c.normalImpulse,
    }));
  }

  resetWarmStart(): void {
    const J = this.joints.data;
    for (let j = 0; j < this.joints.count; j++) {
      if (this.joints.alive[j] === 0) continue;
      const o = j * STRIDE;
      for (const f of this.typeOf(j).impulses) J[o + f] = 0;
    }
    this.contacts.resetWarmStart();
  }

  snapshot(): WorldSnapshot {
    const b = this.bodies, js = this.joints;
    const bodyArrays: SnapshotData['bodyArrays'] = {};
    for (const k of BODY_ARRAY_KEYS) bodyArrays[k] = b[k].slice();
    const data: SnapshotData = {
      time: this._time,
      structureVersion: this.structureVersion,
      bodyCount: b.count, bodyFree: [...b.free], bodyArrays, bodyNames: [...b.names], bodyShapes: [...b.shapes],
      bodyMass: [...this.massProps],
      jointCount: js.count, jointFree: [...js.free], jointData: js.data.slice(), jointAlive: js.alive.slice(),
      jointGeneration: js.generation.slice(), jointNames: [...js.names],
      excluded: [...this.excludedPairs.entries()],
      contacts: this.contacts.snapshot(),
    };
    const snap: WorldSnapshot = { kind: 'marionette-world-snapshot', data };
    this.lastSnapshot = snap;
    return snap;
  }

  restore(snapshot: WorldSnapshot): void {
    if (!snapshot || snapshot.kind !== 'marionette-world-snapshot') throw new Error('World.restore: not a marionette-world-snapshot');
    const d = snapshot.data as SnapshotData;
    const b = this.bodies, js = this.joints;
    const cap = d.bodyArrays.alive!.length;
    if (b.capacity !== cap) {
      // The world grew or shrank since: take fresh arrays of the snapshot's capacity.
      for (const k of BODY_ARRAY_KEYS) (b as unknown as Record<string, unknown>)[k] = d.bodyArrays[k]!.slice();
      b.capacity = cap;
    } else for (const k of BODY_ARRAY_KEYS) (b[k] as Float64Array).set(d.bodyArrays[k] as Float64Array);
    b.count = d.bodyCount; b.free = [...d.bodyFree]; b.names = [...d.bodyNames]; b.shapes = [...d.bodyShapes];
    this.massProps = [...d.bodyMass];
    if (js.capacity !== d.jointAlive.length) {
      js.data = d.jointData.slice(); js.alive = d.jointAlive.slice(); js.generation = d.jointGeneration.slice();
      js.capacity = d.jointAlive.length;
    } else { js.data.set(d.jointData); js.alive.set(d.jointAlive); js.generation.set(d.jointGeneration); }
    js.count = d.jointCount; js.free = [...d.jointFree]; js.names = [...d.jointNames];
    this.ctx.joints = js.data;
    this.excludedPairs.clear();
    for (const [k, v] of d.excluded) this.excludedPairs.set(k, v);
    this.exclusionPartners = [];
    for (const [k, v] of d.excluded) {
      const lo = Math.floor(k / SLOT_BITS), hi = k % SLOT_BITS;
      for (let r = 0; r < v; r++) { (this.exclusionPartners[lo] ??= []).push(hi); (this.exclusionPartners[hi] ??= []).push(lo); }
    }
    if (d.structureVersion !== this.structureVersion) {
      this.contacts.rebuildShapes();
      this.structureVersion = d.structureVersion;
    }
    this.contacts.restore(d.contacts, b);
    this._time = d.time;
    this.stats.bodies = this.liveBodies();
    this.stats.joints = this.liveJoints();
    this._blowUp = null;
  }

  /** Restore the last snapshot this world took (the "last good state" after a blow-up). */
  restoreLastSnapshot(): boolean {
    if (!this.lastSnapshot) return false;
    this.restore(this.lastSnapshot);
    return true;
  }
}

function dropPartner(list: number[] | undefined, b: number): void {
  if (!list) return;
  const k = list.indexOf(b);
  if (k >= 0) list.splice(k, 1);
}

function pairKey(a: number, b: number): number { return a < b ? a * SLOT_BITS + b : b * SLOT_BITS + a; }

function rotateBy(q: Float64Array, o: number, x: number, y: number, z: number): Vec3 {
  const qx = q[o]!, qy = q[o + 1]!, qz = q[o + 2]!, qw = q[o + 3]!;
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

function checkFinite(name: string, field: string, v: readonly number[], kind = 'body'): void {
  for (let k = 0; k < v.length; k++) {
    if (!Number.isFinite(v[k])) throw new Error(`${kind} '${name}': ${field}[${k}] must be a finite number, got ${String(v[k])}`);
  }
}
