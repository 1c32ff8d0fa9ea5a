/**
 * The articulated solver behind the PhysicsWorld interface (shared/physics/types.ts), so the runtime's
 * Simulation — controllers, gait, IK, recorder, trace, preview — runs on it unchanged: the Simulation
 * builds `new ArticulatedWorld(rig, …)` instead of the rigid `World` when the rig's (or the caller's)
 * solver is "articulated", then adds the rig's bodies and joints by their descriptions as it always does
 * (here they only name what the model built from the rig already holds).
 *
 * One step(dt): `substeps` substeps of h = dt/substeps, each one stepWithDrives (drives.ts): the ABA's
 * accelerations (gravity, Coriolis, body damping and applied forces as external spatial forces), then the
 * motor, limit, ground and body–body contact rows as joint-space impulses solved together on their Delassus
 * matrix (delassus.ts), then the joint coordinates advance (semi-implicit Euler). Joints cannot come apart: getJointError is measured
 * from the bodies' poses and stays at rounding (~1e-15 m).
 *
 * Mapped from the rigid World's semantics:
 *  - body damping (the rigid solver's v ← v/(1 + c·h) per body) as a viscous external force per body,
 *    F = −m·c′·v_com and τ = −c′·I·ω with c′ = c/(1 + c·h), which gives a free body exactly that factor;
 *  - contacts between bodies: every pair the rig lets collide (group/mask, jointed pairs only with
 *    collideConnected; bodies welded into one link never) whose shapes' AABBs meet (the rigid world's sweep and prune),
 *    through the rigid solver's narrow phase
 *    (shared/physics/collision), each point a normal row and two friction rows with μ = √(μa·μb) — the
 *    ground's model;
 *  - setPose / setVelocity on a body set the joint coordinates (and velocities) that put it there relative
 *    to its parent link (resolved parents first, so a whole recorded frame can be set in any order);
 *  - static and kinematic bodies are the world: moveKinematic and setBodyType are refused.
 */
import { bodiesCollide, jointRestSlides, jointRestValue } from '../../export/mjcf';
import { bodyMassProperties } from '../../export/rig';
import { quatConj, quatMul, quatNormalize, quatRotate, quatToRotationVector, wrapAngle, type Quat, type ReadonlyQuat } from '../../math/quat';
import { composeTransforms, invertTransform, transformPoint, type Transform } from '../../math/transform';
import type { ReadonlyVec3, Vec3 } from '../../math/vec3';
import { bodyRestWorld, boneRestWorld } from '../../rig/restPose';
import type { RigDocument, RigJoint } from '../../rig/schema';
import {
  collide, createWorldShape, ContactManifold, SweepAndPrune, type PairExclusion, raycastGround, raycastShape, RayHit as ShapeRayHit, updateWorldShape, type WorldShape,
} from '../collision';
import type {
  BodyDesc, BodyHandle, BodyType, ContactPoint, JointDesc, JointHandle, MassProperties, MotorDesc, MotorReport, PhysicsWorld,
  RayHit, ShapeDesc, WorldSettings, WorldSnapshot, WorldStats,
} from '../types';
import { DEFAULT_WORLD_SETTINGS } from '../world';
import { DEFAULT_MAX_DRIVE_SPEED } from '../joints/motor';
import {
  drivesFromRig, groundFromRig, pointJacobian, stepWithDrives, type ContactResult, type GroundContact, type JointDrive, type PairContact,
} from './drives';
import { articulatedFromRig, matToQuat, type ArticulatedRig } from './fromRig';
import type { ArticulatedModel, Kinematics } from './model';
import { xMotion, zero6, type Plucker, type Vec6 } from './spatial';

export interface ArticulatedWorldOptions {
  /** Where the rig's model origin stands (the Simulation's placement). */
  placement?: Transform;
  /** The Simulation's world settings (gravity, substeps, ground material, maxSpeed); the rest is the rig's. */
  settings?: Partial<WorldSettings>;
  /** Most solver sweeps per substep (default 100, stopping early at convergence: drives.ts, delassus.ts). */
  iterations?: number;
  /** Speculative margin (m) of body–body contacts (default 0.05, as the ground probes: a body at 6 m/s moves 5 cm in 1/120 s). */
  contactMargin?: number;
  /** The step (drives.ts DriveStepOptions.integrator): 'verlet' (default) or 'euler' (MuJoCo's Euler). */
  integrator?: 'euler' | 'verlet';
  /** The kick's velocity products (DriveStepOptions.velocityProducts): 'implicit' (default) or 'explicit'. */
  velocityProducts?: 'explicit' | 'implicit';
  /** The most the mass matrix may change over one integration step before the substep is cut (default
   *  MAX_MASS_CHANGE; Infinity never cuts). Measured with the implicit velocity products only. */
  maxMassChange?: number;
}

interface BodyInfo {
  name: string;
  type: BodyType;
  /** Model link it moves with (−1: the world) and its pose in that link's frame (world pose for −1). */
  link: number;
  offset: Transform;
  mass: MassProperties;
  linearDamping: number;
  angularDamping: number;
  friction: number;
  shapes: WorldShape[];
}

interface JointInfo {
  name: string;
  type: RigJoint['type'];
  bodyA: number;
  bodyB: number;
  frameA: Transform;
  frameB: Transform;
  /** Index into drives, or −1 (fixed joints; joints between two world bodies): the angle / slide / ball motor. */
  drive: number;
  /** Cylindrical and planar: the slide DOFs' drives (X; or Y, Z) and their rest offsets. */
  slideDrives: number[];
  slideRest: number[];
  slideReport: MotorReport;
  /** Screw: the pitch (m/rad); 0 otherwise. */
  pitch: number;
  /** Model link and coordinate offset of the joint (−1 when it has none). */
  link: number;
  qi: number;
  /** Hinge/prismatic/screw/cylindrical/planar: the rig's angle (offset) at the rest pose (the model's q is measured from it). */
  rest: number;
  report: MotorReport;
  motorMaxTorque: number;
}

interface ArticulatedSnapshotData {
  time: number;
  q: number[];
  qd: number[];
  drives: { mode: JointDrive['mode']; maxTorque: number; errorReduction: number; stiffness: number; damping: number; frictionTorque: number; target: number; targetVelocity: number; targetRotation: number[] | null; torqueLimit: JointDrive['torqueLimit']; maxSpeed?: number }[];
  reports: MotorReport[];
  slideReports: MotorReport[];
  /** The last piece's mass rate, which cuts the next substep (absent in older snapshots: 0). */
  massRate?: number;
}

const IDENTITY: Transform = { position: [0, 0, 0], rotation: [0, 0, 0, 1] };

/**
 * The most the mass matrix may change, relative, over one integration step: h·ρ(M⁻¹·Ṁ) (DriveStepResult
 * massRate). A substep whose motion would change it more is cut into pieces (ArticulatedWorld.piecesFor):
 * the velocity products c(q, q̇) ∝ q̇² and the configuration they come from are taken at one point of the
 * step, and once they change by a sizeable fraction within it the step's error feeds on itself (docs/articulated.md
 * "Substeps cut where the motion is fast"). 0.3 cured each random rig that ran away on the CI seed's and seed 1's
 * first 200; the shipped creatures cut 0–5 % of their substeps.
 */
export const MAX_MASS_CHANGE = 0.3;
/** The most pieces one substep is cut into. */
export const MAX_PIECES = 16;

export class ArticulatedWorld implements PhysicsWorld {
  readonly settings: Readonly<WorldSettings>;
  readonly rig: RigDocument;
  readonly articulated: ArticulatedRig;
  readonly model: ArticulatedModel;
  readonly drives: JointDrive[];
  private readonly ground: GroundContact | null;
  private readonly bodies: BodyInfo[] = [];
  private readonly joints: JointInfo[] = [];
  private readonly bodyIndex = new Map<string, number>();
  private readonly jointIndex = new Map<string, number>();
  /** Body pairs (indices into bodies, A < B) the rig lets collide, with at least one moving and on different links. */
  private readonly pairs: [number, number][] = [];
  /** The broad phase over the pairs' bodies (findContacts): the bodies in any pair, their shapes, a pair's
   *  index by a·bodies + b, and the exclusion of every body pair not in `pairs`. */
  private readonly pairBodies: number[] = [];
  private readonly pairShapes: WorldShape[] = [];
  private readonly pairIndex = new Map<number, number>();
  private readonly broadPhase = new SweepAndPrune();
  private readonly pairExclusion: PairExclusion = {
    excluded: (a, b) => !this.pairIndex.has(a < b ? a * this.bodies.length + b : b * this.bodies.length + a),
  };
  private readonly manifold = new ContactManifold();
  private readonly iterations: number;
  private readonly contactMargin: number;
  readonly integrator: 'euler' | 'verlet';
  readonly velocityProducts: 'explicit' | 'implicit';
  /** ArticulatedWorldOptions.maxMassChange. */
  readonly maxMassChange: number;
  /** The last piece's DriveStepResult.massRate (1/s). */
  private massRate = 0;
  private addedBodies = 0;
  private addedJoints = 0;
  private time_ = 0;
  private blowUp_: { body: string; reason: string } | null = null;
  private lastContacts: ContactResult[] = [];
  private stats: WorldStats;
  /** Forces and torques applied for the next step (world, about the world origin), per link. */
  private pendingForce: Vec6[];
  /** setPose / setVelocity wishes per link, resolved parents first before the next read or step. */
  private pendingPose = new Map<number, Transform>();
  private pendingVelocity = new Map<number, { body: number; linear: Vec3; angular: Vec3 }>();
  // Per-state caches (cleared whenever q or q̇ changes).
  private kin: Kinematics | null = null;
  private linkPoses: (Transform | undefined)[] = [];

  constructor(rig: RigDocument, options: ArticulatedWorldOptions = {}) {
    this.rig = rig;
    const sim = rig.simulation;
    this.settings = Object.freeze({
      ...DEFAULT_WORLD_SETTINGS,
      gravity: sim.gravity, substeps: sim.substeps, velocityIterations: sim.velocityIterations, positionIterations: sim.positionIterations,
      groundHeight: sim.ground ? sim.ground.height : null,
      ...(sim.ground ? { groundMaterial: { friction: sim.ground.friction, restitution: sim.ground.restitution } } : {}),
      ...options.settings,
    });
    this.iterations = options.iterations ?? 100;
    this.contactMargin = options.contactMargin ?? 0.05;
    this.integrator = options.integrator ?? 'verlet';
    this.velocityProducts = options.velocityProducts ?? 'implicit';
    this.maxMassChange = options.maxMassChange ?? MAX_MASS_CHANGE;
    if (!(this.maxMassChange > 0)) throw new Error(`articulated world: maxMassChange must be > 0, got ${String(options.maxMassChange)}`);
    const g = this.settings.gravity;
    this.articulated = articulatedFromRig(rig, { placement: options.placement, gravity: [g[0], g[1], g[2]] });
    this.model = this.articulated.model;
    const { drives, unsupported } = drivesFromRig(rig, this.articulated);
    if (unsupported.length) throw new Error(`rig "${rig.name}": the articulated solver does not support ${unsupported.join('; ')}`);
    this.drives = drives;
    const ground = groundFromRig(rig, this.articulated);
    this.ground = ground && this.settings.groundHeight !== null ? { ...ground, height: this.settings.groundHeight } : null;
    this.pendingForce = this.model.bodies.map(() => zero6());

    const rest = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
    rig.bodies.forEach((b, i) => {
      const at = this.articulated.bodies.get(b.name)!;
      const mp = bodyMassProperties(b);
      this.bodies.push({
        name: b.name, type: b.type, link: at.link, offset: at.offset, mass: mp,
        linearDamping: b.linearDamping, angularDamping: b.angularDamping, friction: b.material.friction,
        shapes: b.shapes.map((s, k) => createWorldShape(s as ShapeDesc, { body: i, label: `body '${b.name}' shape ${k}`, aabbMargin: this.contactMargin })),
      });
      this.bodyIndex.set(b.name, i);
    });
    const driveOf = new Map(drives.map((d, k) => [`${d.body}:${d.dof ?? 0}`, k]));
    rig.joints.forEach((j, i) => {
      const at = this.articulated.joints.get(j.name);
      const report: MotorReport = { torque: 0, torqueMagnitude: 0, maxTorque: j.type === 'fixed' ? 0 : j.motor.maxTorque, saturated: false };
      this.joints.push({
        name: j.name, type: j.type, bodyA: this.bodyIndex.get(j.bodyA)!, bodyB: this.bodyIndex.get(j.bodyB)!,
        frameA: { position: [...j.frameA.position] as Vec3, rotation: quatNormalize(j.frameA.rotation) },
        frameB: { position: [...j.frameB.position] as Vec3, rotation: quatNormalize(j.frameB.rotation) },
        drive: at && j.type !== 'fixed' ? driveOf.get(`${at.link}:0`) ?? -1 : -1,
        slideDrives: at ? [1, 2].map((k) => driveOf.get(`${at.link}:${k}`)).filter((k): k is number => k !== undefined) : [],
        slideRest: jointRestSlides(j, rest),
        slideReport: { torque: 0, torqueMagnitude: 0, maxTorque: j.type === 'cylindrical' || j.type === 'planar' ? j.slideMotor.maxTorque : 0, saturated: false },
        pitch: j.type === 'screw' ? j.pitch : 0,
        link: at ? at.link : -1, qi: at ? at.qi : -1,
        rest: j.type === 'ball' || j.type === 'fixed' ? 0 : jointRestValue(j, rest),
        report, motorMaxTorque: report.maxTorque,
      });
      this.jointIndex.set(j.name, i);
    });
    for (let a = 0; a < rig.bodies.length; a++) {
      for (let b = a + 1; b < rig.bodies.length; b++) {
        const A = this.bodies[a]!, B = this.bodies[b]!;
        if ((A.link < 0 && B.link < 0) || A.link === B.link) continue;
        if (!A.shapes.length || !B.shapes.length) continue;
        if (bodiesCollide(rig, rig.bodies[a]!, rig.bodies[b]!)) this.pairs.push([a, b]);
      }
    }
    const inPair = new Set(this.pairs.flat());
    for (let i = 0; i < rig.bodies.length; i++) if (inPair.has(i)) { this.pairBodies.push(i); this.pairShapes.push(...this.bodies[i]!.shapes); }
    this.pairs.forEach(([a, b], k) => this.pairIndex.set(a * rig.bodies.length + b, k));
    this.stats = { bodies: rig.bodies.length, joints: rig.joints.length, contacts: 0, rows: 0, velocityIterations: 0, substeps: this.settings.substeps };
  }

  get time(): number { return this.time_; }
  get blowUp(): { body: string; reason: string } | null { return this.blowUp_; }

  // ------------------------------------------------------------------------------------ building

  /** The Simulation adds the rig's bodies in order: each is matched to the model's by name. */
  addBody(desc: BodyDesc): BodyHandle {
    const want = this.rig.bodies[this.addedBodies];
    if (!want || desc.name !== want.name) {
      throw new Error(`articulated world: bodies are built from rig "${this.rig.name}" and added in its order; expected ${want ? `"${want.name}"` : 'no more bodies'}, got "${desc.name ?? '(unnamed)'}"`);
    }
    return (++this.addedBodies) as BodyHandle;
  }

  addJoint(desc: JointDesc): JointHandle {
    const want = this.rig.joints[this.addedJoints];
    if (!want || desc.name !== want.name) {
      throw new Error(`articulated world: joints are built from rig "${this.rig.name}" and added in its order; expected ${want ? `"${want.name}"` : 'no more joints'}, got "${desc.name ?? '(unnamed)'}"`);
    }
    const h = (++this.addedJoints) as JointHandle;
    if (desc.type !== 'fixed' && desc.motor) this.setMotor(h, desc.motor);
    return h;
  }

  removeBody(): void { throw new Error('articulated world: bodies cannot be removed (the tree is built from the rig)'); }
  removeJoint(): void { throw new Error('articulated world: joints cannot be removed (the tree is built from the rig)'); }

  // ------------------------------------------------------------------------------------ stepping

  step(dt: number): void {
    this.resolvePending();
    const n = this.settings.substeps, h = dt / n;
    for (const j of this.joints) {
      for (const r of [j.report, j.slideReport]) { r.torque = 0; r.torqueMagnitude = 0; r.saturated = false; }
    }
    let rows = 0, iterations = 0, pieces = 0;
    for (let s = 0; s < n; s++) for (let p = 0, k = 1; p < k; p++) {
      if (p === 0) { k = this.piecesFor(h); pieces += k; }
      const hp = h / k;
      this.loadExternalForces(hp);
      const res = stepWithDrives(this.model, this.drives, hp, {
        ...(this.ground ? { ground: this.ground } : {}),
        // Found where the rows are built (after the half drift under 'verlet').
        ...(this.pairs.length ? { pairs: () => { this.invalidate(); return this.findContacts(); } } : {}),
        iterations: this.iterations, integrator: this.integrator, velocityProducts: this.velocityProducts,
        ...(k > 1 ? { biasStep: h } : {}),
      });
      this.invalidate();
      for (const j of this.joints) {
        if (j.drive >= 0) {
          const r = j.report;
          r.torque = Math.max(r.torque, res.motorRowTorque[j.drive]!);
          r.torqueMagnitude = Math.max(r.torqueMagnitude, Math.abs(res.motorTorque[j.drive]!));
          r.saturated = res.saturated[j.drive]!;
        }
        if (j.slideDrives.length) {
          // The slide motor's rows (one per slide DOF): the largest row, the vector's magnitude.
          const r = j.slideReport;
          let sq = 0, sat = false;
          for (const k of j.slideDrives) { r.torque = Math.max(r.torque, res.motorRowTorque[k]!); sq += res.motorTorque[k]! ** 2; sat ||= res.saturated[k]!; }
          r.torqueMagnitude = Math.max(r.torqueMagnitude, Math.sqrt(sq));
          r.saturated = sat;
        }
      }
      this.lastContacts = res.contacts;
      this.massRate = res.massRate;
      rows = res.rows; iterations = res.iterations;
    }
    for (const f of this.pendingForce) f.fill(0);
    this.time_ += dt;
    this.stats = { ...this.stats, contacts: this.lastContacts.length, rows, velocityIterations: iterations, splitSubsteps: pieces - n };
    this.checkBlowUp();
  }

  /**
   * How many pieces the next substep of length h is cut into: enough that the mass matrix changes by at most
   * maxMassChange in each at the rate the last piece measured (one piece late: the rate comes with the
   * velocity products, computed inside the step), at most MAX_PIECES.
   */
  private piecesFor(h: number): number {
    const change = h * this.massRate;
    if (!(change > this.maxMassChange)) return 1; // NaN too: checkBlowUp reports it
    return Math.min(MAX_PIECES, Math.ceil(change / this.maxMassChange));
  }

  /** model.fext for this substep: applied forces plus the bodies' damping. */
  private loadExternalForces(h: number): void {
    const m = this.model;
    for (let i = 0; i < m.bodies.length; i++) {
      const f = m.fext[i]!, p = this.pendingForce[i]!;
      for (let k = 0; k < 6; k++) f[k] = p[k]!;
    }
    const v: Vec3 = [0, 0, 0], w: Vec3 = [0, 0, 0];
    for (let i = 0; i < this.bodies.length; i++) {
      const b = this.bodies[i]!;
      if (b.link < 0 || (b.linearDamping <= 0 && b.angularDamping <= 0)) continue;
      const cl = b.linearDamping / (1 + b.linearDamping * h), ca = b.angularDamping / (1 + b.angularDamping * h);
      const pose = this.bodyWorldPose(i);
      const c = transformPoint(pose, b.mass.centroid);
      this.comVelocity(i, v, w);
      const F: Vec3 = [-b.mass.mass * cl * v[0], -b.mass.mass * cl * v[1], -b.mass.mass * cl * v[2]];
      // τ = −c′·I_world·ω, I_world = R·I·Rᵀ.
      const wb = quatRotate(quatConj(pose.rotation), w), I = b.mass.inertia;
      const Iw = quatRotate(pose.rotation, [I[0]! * wb[0] + I[1]! * wb[1] + I[2]! * wb[2], I[3]! * wb[0] + I[4]! * wb[1] + I[5]! * wb[2], I[6]! * wb[0] + I[7]! * wb[1] + I[8]! * wb[2]]);
      addWorldForce(m.fext[b.link]!, F, c, [-ca * Iw[0], -ca * Iw[1], -ca * Iw[2]]);
    }
  }

  /**
   * Contacts between the bodies the rig lets collide, by the rigid solver's broad and narrow phases. The
   * candidate pairs come from the rigid world's sweep and prune (collision/broadphase.ts) over the shapes of
   * the bodies in any pair, the pairs the rig does not let collide excluded, instead of every pair; a shape
   * pair whose AABBs are apart makes no contact, so the contacts — in the pairs' order — are the same.
   */
  private findContacts(): PairContact[] {
    const out: PairContact[] = [];
    const shapes = this.pairShapes;
    for (const i of this.pairBodies) {
      const pose = this.bodyWorldPose(i);
      for (const s of this.bodies[i]!.shapes) updateWorldShape(s, pose.position, 0, pose.rotation, 0);
    }
    const sap = this.broadPhase, nb = this.bodies.length, candidates: number[] = [];
    sap.update(shapes, shapes.length, this.pairExclusion);
    for (let p = 0; p < sap.pairCount; p++) {
      const a = shapes[sap.pairs[2 * p]!]!.body, b = shapes[sap.pairs[2 * p + 1]!]!.body;
      candidates.push(this.pairIndex.get(a < b ? a * nb + b : b * nb + a)!);
    }
    candidates.sort((x, y) => x - y);
    const m = this.manifold;
    for (let c = 0; c < candidates.length; c++) {
      const k = candidates[c]!;
      if (c > 0 && candidates[c - 1] === k) continue; // two shape pairs of one body pair
      const [a, b] = this.pairs[k]!;
      const A = this.bodies[a]!, B = this.bodies[b]!;
      for (const sa of A.shapes) {
        for (const sb of B.shapes) {
          if (!aabbOverlap(sa.aabb, sb.aabb)) continue;
          const count = collide(sa, sb, this.contactMargin, m);
          for (let k = 0; k < count; k++) {
            out.push({
              bodyA: A.link, bodyB: B.link,
              point: [(m.pointA[3 * k]! + m.pointB[3 * k]!) / 2, (m.pointA[3 * k + 1]! + m.pointB[3 * k + 1]!) / 2, (m.pointA[3 * k + 2]! + m.pointB[3 * k + 2]!) / 2],
              normal: [m.normal[0]!, m.normal[1]!, m.normal[2]!], depth: m.depth[k]!, friction: Math.sqrt(A.friction * B.friction),
            });
          }
        }
      }
    }
    return out;
  }

  private checkBlowUp(): void {
    this.blowUp_ = null;
    const max = this.settings.maxSpeed;
    const finite = (a: ArrayLike<number>) => { for (let k = 0; k < a.length; k++) if (!Number.isFinite(a[k]!)) return false; return true; };
    if (!finite(this.model.q) || !finite(this.model.qd)) {
      this.blowUp_ = { body: this.bodies.find((b) => b.link >= 0)?.name ?? '', reason: 'non-finite joint coordinate or velocity' };
      return;
    }
    const v: Vec3 = [0, 0, 0], w: Vec3 = [0, 0, 0];
    for (let i = 0; i < this.bodies.length; i++) {
      if (this.bodies[i]!.link < 0) continue;
      this.comVelocity(i, v, w);
      const s = Math.hypot(...v), a = Math.hypot(...w);
      if (s > max) { this.blowUp_ = { body: this.bodies[i]!.name, reason: `speed ${s.toFixed(1)} m/s exceeds maxSpeed ${max}` }; return; }
      if (a > max) { this.blowUp_ = { body: this.bodies[i]!.name, reason: `angular speed ${a.toFixed(1)} rad/s exceeds maxSpeed ${max}` }; return; }
    }
  }

  // ------------------------------------------------------------------------------------ reading

  private invalidate(): void { this.kin = null; this.linkPoses.length = 0; }

  private kinematics(): Kinematics {
    if (this.pendingPose.size || this.pendingVelocity.size) this.resolvePending();
    return (this.kin ??= this.model.kinematics());
  }

  private linkPose(link: number): Transform {
    let p = this.linkPoses[link];
    if (!p) {
      p = poseOfPlucker(this.kinematics().X0[link]!);
      this.linkPoses[link] = p;
    }
    return p;
  }

  private bodyWorldPose(i: number): Transform {
    const b = this.bodies[i]!;
    return b.link < 0 ? b.offset : composeTransforms(this.linkPose(b.link), b.offset);
  }

  /** Velocity of body i's centre of mass and its angular velocity (world). */
  private comVelocity(i: number, v: Vec3, w: Vec3): void {
    const b = this.bodies[i]!;
    if (b.link < 0) { v.fill(0); w.fill(0); return; }
    const kin = this.kinematics(), X = kin.X0[b.link]!, s = kin.v[b.link]!, E = X.E;
    // Body coordinates → world: Eᵀ.
    w[0] = E[0]! * s[0]! + E[3]! * s[1]! + E[6]! * s[2]!; w[1] = E[1]! * s[0]! + E[4]! * s[1]! + E[7]! * s[2]!; w[2] = E[2]! * s[0]! + E[5]! * s[1]! + E[8]! * s[2]!;
    const vo = [E[0]! * s[3]! + E[3]! * s[4]! + E[6]! * s[5]!, E[1]! * s[3]! + E[4]! * s[4]! + E[7]! * s[5]!, E[2]! * s[3]! + E[5]! * s[4]! + E[8]! * s[5]!];
    const c = transformPoint(this.bodyWorldPose(i), b.mass.centroid);
    const rx = c[0] - X.r[0], ry = c[1] - X.r[1], rz = c[2] - X.r[2];
    v[0] = vo[0]! + w[1] * rz - w[2] * ry; v[1] = vo[1]! + w[2] * rx - w[0] * rz; v[2] = vo[2]! + w[0] * ry - w[1] * rx;
  }

  getPosition(body: BodyHandle, out: Vec3 = [0, 0, 0]): Vec3 {
    const p = this.bodyWorldPose(this.slot(body)).position;
    out[0] = p[0]; out[1] = p[1]; out[2] = p[2];
    return out;
  }

  getRotation(body: BodyHandle, out: Quat = [0, 0, 0, 1]): Quat {
    const q = this.bodyWorldPose(this.slot(body)).rotation;
    out[0] = q[0]; out[1] = q[1]; out[2] = q[2]; out[3] = q[3];
    return out;
  }

  getLinearVelocity(body: BodyHandle, out: Vec3 = [0, 0, 0]): Vec3 {
    this.comVelocity(this.slot(body), out, [0, 0, 0]);
    return out;
  }

  getAngularVelocity(body: BodyHandle, out: Vec3 = [0, 0, 0]): Vec3 {
    this.comVelocity(this.slot(body), [0, 0, 0], out);
    return out;
  }

  getMassProperties(body: BodyHandle): MassProperties {
    const mp = this.bodies[this.slot(body)]!.mass;
    return { mass: mp.mass, centroid: [...mp.centroid], inertia: [...mp.inertia] };
  }

  getJointError(joint: JointHandle): number {
    const j = this.joints[this.jslot(joint)]!;
    const a = transformPoint(this.bodyWorldPose(j.bodyA), j.frameA.position);
    const b = transformPoint(this.bodyWorldPose(j.bodyB), j.frameB.position);
    return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  }

  /** As the rigid World: hinge angle / prismatic offset of frame B in frame A (the rig's convention: rest
   *  value + q, continuous), ball: the rotation vector of frame B in frame A. */
  getJointAngle(joint: JointHandle): number | Vec3 {
    const j = this.joints[this.jslot(joint)]!;
    this.kinematics();
    if (j.type === 'fixed') return 0;
    if (j.type === 'ball') {
      const qa = quatMul(this.bodyWorldPose(j.bodyA).rotation, j.frameA.rotation);
      const qb = quatMul(this.bodyWorldPose(j.bodyB).rotation, j.frameB.rotation);
      return quatToRotationVector(quatNormalize(quatMul(quatConj(qa), qb)));
    }
    return j.qi < 0 ? j.rest : j.rest + this.model.q[j.qi]!;
  }

  /** Screw: pitch × its angle from rest (the frames agree at rest); cylindrical [X], planar [Y, Z]. */
  getJointSlide(joint: JointHandle): number[] {
    const j = this.joints[this.jslot(joint)]!;
    this.kinematics();
    if (j.type === 'screw') return [j.qi < 0 ? 0 : j.pitch * this.model.q[j.qi]!];
    return j.slideRest.map((r, k) => (j.qi < 0 ? r : r + this.model.q[j.qi + 1 + k]!));
  }

  setSlideMotor(joint: JointHandle, motor: MotorDesc): void {
    const j = this.joints[this.jslot(joint)]!;
    j.slideReport.maxTorque = motor.maxTorque;
    for (const k of j.slideDrives) applyMotorDesc(this.drives[k]!, motor);
  }

  setSlideMotorTarget(joint: JointHandle, target: number | readonly number[]): void {
    const j = this.joints[this.jslot(joint)]!;
    const values = typeof target === 'number' ? [target] : target;
    j.slideDrives.forEach((k, i) => {
      const d = this.drives[k]!, t = values[i] ?? 0;
      if (d.mode === 'velocity') d.targetVelocity = t;
      else d.target = t - (j.slideRest[i] ?? 0);
    });
  }

  getSlideMotorReport(joint: JointHandle): MotorReport {
    const j = this.joints[this.jslot(joint)]!, r = j.slideReport, d = j.slideDrives.length ? this.drives[j.slideDrives[0]!]! : null;
    return { torque: r.torque, torqueMagnitude: r.torqueMagnitude, maxTorque: d ? (d.mode === 'off' ? d.frictionTorque : d.maxTorque) : r.maxTorque, saturated: r.saturated };
  }

  getMotorReport(joint: JointHandle): MotorReport {
    const j = this.joints[this.jslot(joint)]!, r = j.report, d = j.drive >= 0 ? this.drives[j.drive]! : null;
    // As the rigid World: a motor switched off reports its friction torque as the limit.
    return { torque: r.torque, torqueMagnitude: r.torqueMagnitude, maxTorque: d ? (d.mode === 'off' ? d.frictionTorque : d.maxTorque) : r.maxTorque, saturated: r.saturated };
  }

  raycast(origin: ReadonlyVec3, direction: ReadonlyVec3, maxDistance: number): RayHit | null {
    const hit = new ShapeRayHit();
    let best: RayHit | null = null;
    for (let i = 0; i < this.bodies.length; i++) {
      const pose = this.bodyWorldPose(i);
      for (const s of this.bodies[i]!.shapes) {
        updateWorldShape(s, pose.position, 0, pose.rotation, 0);
        if (raycastShape(s, origin, direction, best ? best.distance : maxDistance, hit) && (!best || hit.distance < best.distance)) {
          best = { body: (i + 1) as BodyHandle, point: [...hit.point] as Vec3, normal: [...hit.normal] as Vec3, distance: hit.distance };
        }
      }
    }
    const gh = this.settings.groundHeight;
    if (gh !== null && raycastGround(gh, origin, direction, best ? best.distance : maxDistance, hit) && (!best || hit.distance < best.distance)) {
      best = { body: 0 as BodyHandle, point: [...hit.point] as Vec3, normal: [...hit.normal] as Vec3, distance: hit.distance };
    }
    return best;
  }

  getContacts(): ContactPoint[] {
    const bodyOfLink = (link: number) => this.bodies.findIndex((b) => b.link === link);
    return this.lastContacts.map((c) => ({
      bodyA: (bodyOfLink(c.bodyA) + 1) as BodyHandle,
      bodyB: c.bodyB < 0 ? null : (bodyOfLink(c.bodyB) + 1) as BodyHandle,
      point: [...c.point], normal: [...c.normal], depth: c.depth, normalImpulse: c.normalImpulse,
    }));
  }

  getStats(): WorldStats { return { ...this.stats }; }

  // ------------------------------------------------------------------------------------ writing

  setPose(body: BodyHandle, position: ReadonlyVec3, rotation: ReadonlyQuat): void {
    const b = this.bodies[this.slot(body)]!;
    if (b.link < 0) throw new Error(`articulated world: body "${b.name}" is ${b.type}, part of the world; it cannot be moved`);
    const link = composeTransforms({ position: [...position] as Vec3, rotation: quatNormalize(rotation) }, invertTransform(b.offset));
    this.pendingPose.set(b.link, link);
  }

  setVelocity(body: BodyHandle, linear: ReadonlyVec3, angular: ReadonlyVec3): void {
    const i = this.slot(body), b = this.bodies[i]!;
    if (b.link < 0) throw new Error(`articulated world: body "${b.name}" is ${b.type}, part of the world; it has no velocity`);
    this.pendingVelocity.set(b.link, { body: i, linear: [linear[0], linear[1], linear[2]], angular: [angular[0], angular[1], angular[2]] });
    this.invalidate();
  }

  moveKinematic(): void {
    throw new Error('articulated world: kinematic bodies are part of the world (fixed at their rest pose); moving them is not supported by the articulated solver');
  }

  setBodyType(): void {
    throw new Error('articulated world: body types are fixed when the tree is built from the rig');
  }

  applyImpulse(body: BodyHandle, impulse: ReadonlyVec3, worldPoint?: ReadonlyVec3): void {
    const i = this.slot(body), b = this.bodies[i]!;
    if (b.link < 0) return;
    checkFinite(b.name, 'impulse', impulse);
    const kin = this.kinematics();
    const p = worldPoint ?? transformPoint(this.bodyWorldPose(i), b.mass.centroid);
    const len = Math.hypot(impulse[0], impulse[1], impulse[2]);
    if (len === 0) return;
    // Generalized impulse J_qᵀ·(impulse) at p; Δq̇ = M⁻¹·it.
    const tau = pointJacobian(this.model, kin, b.link, p, [impulse[0] / len, impulse[1] / len, impulse[2] / len]);
    const dqd = this.model.inverseMassOperator(this.model.q)(tau);
    for (let k = 0; k < this.model.nv; k++) this.model.qd[k] += len * dqd[k]!;
    this.invalidate();
  }

  applyForce(body: BodyHandle, force: ReadonlyVec3, worldPoint?: ReadonlyVec3): void {
    const i = this.slot(body), b = this.bodies[i]!;
    if (b.link < 0) return;
    checkFinite(b.name, 'force', force);
    addWorldForce(this.pendingForce[b.link]!, force, worldPoint ?? transformPoint(this.bodyWorldPose(i), b.mass.centroid), [0, 0, 0]);
  }

  applyTorque(body: BodyHandle, torque: ReadonlyVec3): void {
    const b = this.bodies[this.slot(body)]!;
    if (b.link < 0) return;
    checkFinite(b.name, 'torque', torque);
    addWorldForce(this.pendingForce[b.link]!, [0, 0, 0], [0, 0, 0], torque);
  }

  setMotorTarget(joint: JointHandle, target: ReadonlyQuat | ReadonlyVec3 | number): void {
    const j = this.joints[this.jslot(joint)]!;
    if (j.drive < 0) return;
    const d = this.drives[j.drive]!;
    if (typeof target === 'number') {
      if (d.mode === 'velocity') d.targetVelocity = target;
      else d.target = target - j.rest;
    } else if (target.length === 4) {
      d.targetRotation = quatNormalize(target as ReadonlyQuat);
    } else if (Math.hypot(target[0], target[1], target[2]) > 0) {
      throw new Error(`articulated world: joint "${j.name}": a ball velocity target other than [0, 0, 0] is not supported by the articulated solver`);
    }
  }

  setMotorTargetVelocity(joint: JointHandle, velocity: number | ReadonlyVec3): void {
    const j = this.joints[this.jslot(joint)]!;
    if (j.drive < 0 || typeof velocity !== 'number') return;
    this.drives[j.drive]!.targetVelocity = velocity;
  }

  setMotor(joint: JointHandle, motor: MotorDesc): void {
    const j = this.joints[this.jslot(joint)]!;
    j.report.maxTorque = motor.maxTorque;
    if (j.drive < 0) return;
    applyMotorDesc(this.drives[j.drive]!, motor);
  }

  // ------------------------------------------------------------------------------------ state

  snapshot(): WorldSnapshot {
    this.resolvePending();
    const data: ArticulatedSnapshotData = {
      time: this.time_, q: Array.from(this.model.q), qd: Array.from(this.model.qd),
      drives: this.drives.map((d) => ({
        mode: d.mode, maxTorque: d.maxTorque, errorReduction: d.errorReduction, stiffness: d.stiffness, damping: d.damping,
        frictionTorque: d.frictionTorque, target: d.target, targetVelocity: d.targetVelocity,
        targetRotation: d.targetRotation ? [...d.targetRotation] : null, torqueLimit: d.torqueLimit, maxSpeed: d.maxSpeed,
      })),
      reports: this.joints.map((j) => ({ ...j.report })),
      slideReports: this.joints.map((j) => ({ ...j.slideReport })),
      massRate: this.massRate,
    };
    return { kind: 'marionette-world-snapshot', data: { articulated: data } };
  }

  restore(snapshot: WorldSnapshot): void {
    const data = (snapshot?.data as { articulated?: ArticulatedSnapshotData } | undefined)?.articulated;
    if (snapshot?.kind !== 'marionette-world-snapshot' || !data) throw new Error('articulated world: restore needs a snapshot of an articulated world');
    if (data.q.length !== this.model.nq || data.drives.length !== this.drives.length) throw new Error('articulated world: the snapshot was taken from a different rig');
    this.pendingPose.clear(); this.pendingVelocity.clear();
    this.time_ = data.time;
    this.model.q = Float64Array.from(data.q);
    this.model.qd = Float64Array.from(data.qd);
    data.drives.forEach((s, i) => {
      const d = this.drives[i]!;
      d.mode = s.mode; d.maxTorque = s.maxTorque; d.errorReduction = s.errorReduction; d.stiffness = s.stiffness; d.damping = s.damping;
      d.frictionTorque = s.frictionTorque; d.target = s.target; d.targetVelocity = s.targetVelocity;
      if (s.targetRotation) d.targetRotation = s.targetRotation as [number, number, number, number];
      if (s.torqueLimit) d.torqueLimit = s.torqueLimit;
      if (s.maxSpeed !== undefined) d.maxSpeed = s.maxSpeed;
    });
    data.reports.forEach((r, i) => { Object.assign(this.joints[i]!.report, r); });
    data.slideReports.forEach((r, i) => { Object.assign(this.joints[i]!.slideReport, r); });
    this.massRate = data.massRate ?? 0;
    for (const f of this.pendingForce) f.fill(0);
    this.blowUp_ = null;
    this.invalidate();
  }

  /** No warm start: every step's rows start from zero impulse. */
  resetWarmStart(): void {}

  // ------------------------------------------------------------------------------------ helpers

  /** setPose / setVelocity wishes → joint coordinates, parents first (a link not named keeps its q). */
  private resolvePending(): void {
    if (!this.pendingPose.size && !this.pendingVelocity.size) return;
    const poses = this.pendingPose, vels = this.pendingVelocity;
    this.pendingPose = new Map(); this.pendingVelocity = new Map();
    const m = this.model;
    for (let i = 0; i < m.bodies.length; i++) {
      const want = poses.get(i);
      if (!want) continue;
      this.invalidate();
      const b = m.bodies[i]!;
      if (b.joint === 'free') {
        m.q.set([...want.position, ...quatNormalize(want.rotation)], b.qi);
        continue;
      }
      // Child joint frame in the parent joint frame: Jq = inParent⁻¹ · T_p⁻¹ · T_i · bodyInJoint⁻¹.
      const parent = b.parent < 0 ? IDENTITY : poseOfPlucker(this.model.kinematics().X0[b.parent]!);
      const inParent = poseOfPlucker(b.Xtree), bodyInJoint = poseOfPlucker(b.XB);
      const rel = composeTransforms(composeTransforms(invertTransform(inParent), invertTransform(parent)), composeTransforms(want, invertTransform(bodyInJoint)));
      const angle = () => { const cur = m.q[b.qi]!; return cur + wrapAngle(2 * Math.atan2(rel.rotation[0], rel.rotation[3]) - cur); };
      if (b.joint === 'hinge' || b.joint === 'screw') m.q[b.qi] = angle();
      else if (b.joint === 'prismatic') m.q[b.qi] = rel.position[0];
      else if (b.joint === 'cylindrical') { m.q[b.qi] = angle(); m.q[b.qi + 1] = rel.position[0]; }
      else if (b.joint === 'planar') { m.q[b.qi] = angle(); m.q[b.qi + 1] = rel.position[1]; m.q[b.qi + 2] = rel.position[2]; }
      else m.q.set(quatNormalize(rel.rotation), b.qi);
    }
    this.invalidate();
    for (let i = 0; i < m.bodies.length; i++) {
      const want = vels.get(i);
      if (!want) continue;
      const b = m.bodies[i]!;
      const kin = this.model.kinematics();
      const E = kin.X0[i]!.E, w = want.angular, o = kin.X0[i]!.r;
      // The link origin's velocity from the centre of mass's: v_o = v_c − ω × (c − o), at the resolved pose.
      const c = transformPoint(composeTransforms(poseOfPlucker(kin.X0[i]!), this.bodies[want.body]!.offset), this.bodies[want.body]!.mass.centroid);
      const r = [c[0] - o[0], c[1] - o[1], c[2] - o[2]], vc = want.linear;
      const v = [vc[0] - (w[1] * r[2]! - w[2] * r[1]!), vc[1] - (w[2] * r[0]! - w[0] * r[2]!), vc[2] - (w[0] * r[1]! - w[1] * r[0]!)] as Vec3;
      if (b.joint === 'free') {
        m.qd.set([v[0], v[1], v[2], E[0]! * w[0] + E[1]! * w[1] + E[2]! * w[2], E[3]! * w[0] + E[4]! * w[1] + E[5]! * w[2], E[6]! * w[0] + E[7]! * w[1] + E[8]! * w[2]], b.vi);
        this.invalidate();
        continue;
      }
      // Wanted spatial velocity in body coordinates, minus the parent's carried over: project on S (least squares).
      const vb: Vec6 = [E[0]! * w[0] + E[1]! * w[1] + E[2]! * w[2], E[3]! * w[0] + E[4]! * w[1] + E[5]! * w[2], E[6]! * w[0] + E[7]! * w[1] + E[8]! * w[2],
        E[0]! * v[0] + E[1]! * v[1] + E[2]! * v[2], E[3]! * v[0] + E[4]! * v[1] + E[5]! * v[2], E[6]! * v[0] + E[7]! * v[1] + E[8]! * v[2]];
      const vp = b.parent < 0 ? zero6() : xMotion(kin.Xup[i]!, kin.v[b.parent]!);
      const rel = vb.map((x, k) => x - vp[k]!);
      const S = kin.S[i]!;
      const A: number[] = [], rhs: number[] = [];
      for (let r = 0; r < b.nv; r++) {
        for (let c = 0; c < b.nv; c++) A.push(dot(S[r]!, S[c]!));
        rhs.push(dot(S[r]!, rel));
      }
      const x = solveSmall(A, rhs, b.nv);
      for (let k = 0; k < b.nv; k++) m.qd[b.vi + k] = x[k]!;
      this.invalidate();
    }
  }

  private slot(body: BodyHandle): number {
    const i = (body as number) - 1;
    if (!(i >= 0 && i < this.bodies.length)) throw new Error(`articulated world: no body with handle ${body as number}`);
    return i;
  }

  private jslot(joint: JointHandle): number {
    const i = (joint as number) - 1;
    if (!(i >= 0 && i < this.joints.length)) throw new Error(`articulated world: no joint with handle ${joint as number}`);
    return i;
  }
}

function applyMotorDesc(d: JointDrive, motor: MotorDesc): void {
  d.mode = motor.mode; d.maxTorque = motor.maxTorque; d.errorReduction = motor.errorReduction ?? 0.5;
  d.stiffness = motor.stiffness ?? 0; d.damping = motor.damping ?? 0; d.frictionTorque = motor.frictionTorque ?? 0;
  if (motor.torqueLimit) d.torqueLimit = motor.torqueLimit;
  d.maxSpeed = motor.maxSpeed ?? DEFAULT_MAX_DRIVE_SPEED;
}

/** The pose (position, body → world rotation) of a frame whose world → frame transform is X. */
function poseOfPlucker(X: Plucker): Transform {
  const E = X.E;
  return { position: [X.r[0], X.r[1], X.r[2]], rotation: matToQuat([E[0]!, E[3]!, E[6]!, E[1]!, E[4]!, E[7]!, E[2]!, E[5]!, E[8]!]) };
}

/** f += the spatial force (world, about the origin) of force F at point p plus a pure torque τ: [p×F + τ; F]. */
function addWorldForce(f: Vec6, F: ReadonlyVec3, p: ReadonlyVec3, tau: ReadonlyVec3): void {
  f[0] += p[1] * F[2] - p[2] * F[1] + tau[0]; f[1] += p[2] * F[0] - p[0] * F[2] + tau[1]; f[2] += p[0] * F[1] - p[1] * F[0] + tau[2];
  f[3] += F[0]; f[4] += F[1]; f[5] += F[2];
}

function aabbOverlap(a: Float64Array, b: Float64Array): boolean {
  return a[0]! <= b[3]! && b[0]! <= a[3]! && a[1]! <= b[4]! && b[1]! <= a[4]! && a[2]! <= b[5]! && b[2]! <= a[5]!;
}

const dot = (a: Vec6, b: Vec6) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]! + a[4]! * b[4]! + a[5]! * b[5]!;

function solveSmall(A: number[], b: number[], n: number): number[] {
  if (n === 1) return [A[0]! > 0 ? b[0]! / A[0]! : 0];
  // Gaussian elimination (n ≤ 6, S has full column rank).
  const M = A.slice(), x = b.slice();
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r * n + c]!) > Math.abs(M[p * n + c]!)) p = r;
    if (p !== c) { for (let k = 0; k < n; k++) [M[c * n + k], M[p * n + k]] = [M[p * n + k]!, M[c * n + k]!]; [x[c], x[p]] = [x[p]!, x[c]!]; }
    const d = M[c * n + c]!;
    for (let r = c + 1; r < n; r++) {
      const f = M[r * n + c]! / d;
      for (let k = c; k < n; k++) M[r * n + k] -= f * M[c * n + k]!;
      x[r] -= f * x[c]!;
    }
  }
  for (let c = n - 1; c >= 0; c--) {
    let s = x[c]!;
    for (let k = c + 1; k < n; k++) s -= M[c * n + k]! * x[k]!;
    x[c] = s / M[c * n + c]!;
  }
  return x;
}

function checkFinite(body: string, what: string, v: ReadonlyVec3): void {
  if (!Number.isFinite(v[0]) || !Number.isFinite(v[1]) || !Number.isFinite(v[2])) throw new Error(`body "${body}": ${what} must be finite, got [${v.join(', ')}]`);
}
