/**
 * PreviewEngine: the preview's simulation and its recording, with no DOM — it runs inside the Web Worker
 * (renderer/src/preview/simWorker.ts, through host.ts), on the main thread where workers are missing, and
 * headless in the unit tests. It reads the world through the Simulation's handle lookups and writes only
 * through the Simulation's methods.
 *
 * Frame i is the state after i fixed steps (frame 0 = the rest pose, before any step). Inputs (impulses,
 * blasts, grabs, go-limp / power-on, steering-target keys) are stamped with the frame they act on: an
 * input at frame f is applied after frame f is recorded and before the step f → f + 1. So a recording is a
 * pure function of (rig, clips, inputs): scrubbing, editing and re-simulating reproduce it bit for bit.
 *
 * Every SNAPSHOT_EVERY frames the engine keeps a Simulation snapshot. Changing the inputs truncates the
 * recording to the last snapshot at or before the earliest changed frame and re-simulates from there;
 * changing the rig starts again from frame 0 (any parameter can change the very first step).
 *
 * Besides the runtime's flat frame (shared/runtime/trace.ts) each frame carries an "aux" record for the
 * overlays: the steering target, the grab spring, per controller the path placement (WorldPathFrame) and
 * IK target, the joints' motor on/off state and the contact points (layout: auxLayout below).
 */
import { createSimulation, FrameRecorder, type Simulation, type SimulationSnapshot } from '../runtime';
import { cyclicPathControllerFactory, type CyclicPathInstance } from '../gait/register';
import type { BodyHandle, JointHandle } from '../physics/types';
import type { RigDocument } from '../rig';
import { animationTargets, inheritVelocity } from '../authoring';
import type { AnimationClip } from '../authoring/skeletonInput';
import { quatFromRotationVector, quatRotate, quatToMat3, type Quat, type ReadonlyQuat } from '../math/quat';
import { invertSymmetric3 } from '../physics/massProperties';
import type { Vec3 } from '../math/vec3';
import { Timeline } from './timeline';
import type { PreviewInput, Vec3Tuple } from './input';

export type { PreviewInput, Vec3Tuple } from './input';

/** Frames between kept snapshots (0.5 s at 60 Hz): a scrub or an input re-simulates at most this many. */
export const SNAPSHOT_EVERY = 30;
/** Contact points kept per frame for the overlay (the deepest first is not needed: the order is the world's). */
export const MAX_CONTACTS = 16;
/** Numbers per controller in the aux record: yaw, skew, origin xyz, pivot x z, IK target xyz, solved effector xyz. */
export const CONTROLLER_AUX = 13;
/** Grab spring: natural frequency (Hz) and damping ratio of the spring that pulls the grabbed point. */
export const GRAB_FREQUENCY = 2.5;
export const GRAB_DAMPING = 1;
/** The grab force is capped at this many times the body's weight (keeps a wild drag from blowing up the rig). */
export const GRAB_MAX_WEIGHTS = 40;

export interface AuxLayout {
  size: number;
  /** steering target x y z, has (0/1) */
  steering: number;
  /** active (0/1), grabbed point x y z, spring target x y z */
  grab: number;
  controllers: number;
  /** one number per joint: motor on (1) or limp (0) */
  motors: number;
  /** three numbers per joint: angle, motor target, tracking error (rad; a ball joint's are rotation
   *  angles from the rest frame and the angle between current and target; NaN where unknown) */
  jointState: number;
  /** count, then MAX_CONTACTS × (x, y, z, normal impulse N·s) */
  contacts: number;
}

export function auxLayout(controllers: number, joints: number): AuxLayout {
  const steering = 0, grab = 4, ctl = 11, motors = ctl + controllers * CONTROLLER_AUX, jointState = motors + joints;
  const contacts = jointState + 3 * joints;
  return { steering, grab, controllers: ctl, motors, jointState, contacts, size: contacts + 1 + MAX_CONTACTS * 4 };
}

interface GrabState { body: string; local: Vec3Tuple; target: Vec3Tuple }

export interface EngineOptions {
  snapshotEvery?: number;
  /** Initial capacity of the recording (frames). */
  capacity?: number;
}

export class PreviewEngine {
  readonly rig: RigDocument;
  readonly sim: Simulation;
  readonly recorder: FrameRecorder;
  readonly aux: AuxLayout;
  private auxData: Float64Array;
  /** Body and joint handles by name, from the Simulation's lookups (for reading sim.world). */
  private readonly handles: ReadonlyMap<string, BodyHandle>;
  private readonly jointHandles: ReadonlyMap<string, JointHandle>;
  /** The same by joint index (recordFrame's per-joint loop, without a Map lookup per joint per frame). */
  private readonly jointHandleList: readonly (JointHandle | undefined)[];
  private readonly controllers: CyclicPathInstance[] = [];
  private readonly timeline: Timeline<SimulationSnapshot>;
  private targetKeys: { frame: number; target: Vec3Tuple | null }[] = [];
  private grab: GrabState | null = null;
  private motors: boolean[] = [];
  private clips = new Map<string, AnimationClip>();
  private readonly defaultTarget: Vec3Tuple | null;
  private readonly scratch: Float64Array;

  constructor(rig: RigDocument, options: EngineOptions = {}) {
    this.rig = rig;
    this.sim = createSimulation(rig, {
      controllers: {
        cyclicPath: (config, ctx) => {
          const inst = cyclicPathControllerFactory(config, ctx) as CyclicPathInstance;
          this.controllers.push(inst);
          return inst;
        },
      },
      missingControllers: 'skip',
    });
    const sim = this.sim;
    this.handles = new Map(sim.bodyNames.map((n) => [n, sim.bodyHandle(n)] as const));
    this.jointHandles = new Map(sim.jointNames.map((n) => [n, sim.jointHandle(n)] as const));
    this.jointHandleList = sim.jointNames.map((n) => this.jointHandles.get(n));
    const first = rig.controllers.find((c) => c.type === 'cyclicPath');
    const t = first && 'steering' in first ? first.steering.target : null;
    this.defaultTarget = t ? [t[0], t[1], t[2]] : null;
    this.recorder = new FrameRecorder(this.sim, { capacity: options.capacity ?? 1024 });
    this.aux = auxLayout(this.controllers.length, this.sim.jointNames.length);
    this.auxData = new Float64Array(this.aux.size * this.recorder.capacity);
    this.scratch = new Float64Array(this.recorder.frameSize);
    this.motors = this.sim.jointNames.map(() => true);
    this.timeline = new Timeline<SimulationSnapshot>({
      length: () => this.length,
      snapshot: () => this.sim.snapshot(),
      rewind: (snap, s) => {
        this.sim.restore(snap);
        this.recorder.truncate(s + 1);
        this.grab = this.grabStateBefore(s);
        this.motors = this.motorsBefore(s);
      },
    }, options.snapshotEvery ?? SNAPSHOT_EVERY);
    this.recordFrame();
  }

  /** Frames recorded so far (frame indices 0 … length − 1). */
  get length(): number { return this.recorder.length; }
  get frameSize(): number { return this.recorder.frameSize; }
  get dt(): number { return this.sim.dt; }
  get controllerInstances(): readonly CyclicPathInstance[] { return this.controllers; }
  /** The earliest frame the last setInputs changed (frames ≤ it are unaffected). */
  get lastChange(): number { return this.timeline.lastChange; }
  /** Non-null once the simulation blew up: no further frames are computed for this rig and inputs. */
  get failure(): string | null { return this.timeline.failure; }

  /** The flat frames [from, to) and their aux records, copied (for posting to the viewport). */
  slice(from: number, to: number): { frames: Float64Array; aux: Float64Array } {
    const n = Math.max(0, to - from);
    const frames = new Float64Array(n * this.frameSize);
    for (let i = 0; i < n; i++) frames.set(this.recorder.read(from + i, this.scratch), i * this.frameSize);
    const aux = this.auxData.slice(from * this.aux.size, to * this.aux.size);
    return { frames, aux };
  }

  /**
   * Take over `prev`'s recording through frame `through` and resume from its last snapshot at or before
   * it: for an edit that leaves frames 0 … through unchanged (editFrontier.ts), from an engine of the
   * edited rig with the same inputs and clips. Call after setClips/setInputs on a fresh engine. Returns
   * the frame resumed from (the recording then holds frames 0 … that), 0 when nothing could be taken.
   */
  resumeFrom(prev: PreviewEngine, through: number): number {
    if (!(through >= 1) || this.length !== 1 || prev.frameSize !== this.frameSize || prev.aux.size !== this.aux.size) return 0;
    const s = prev.timeline.snapshotAtOrBefore(Math.min(through, prev.length - 1));
    if (s <= 0) return 0;
    const { frames, aux } = prev.slice(1, s + 1);
    this.recorder.append(frames);
    const size = this.aux.size;
    if ((s + 1) * size > this.auxData.length) {
      const bigger = new Float64Array(Math.max(this.auxData.length * 2, (s + 1) * size));
      bigger.set(this.auxData);
      this.auxData = bigger;
    }
    this.auxData.set(aux, size);
    this.timeline.adopt(prev.timeline.snapshotsThrough(s), s);
    this.writeTarget(s); // the edited rig's default target, if that is what changed, as a fresh run records it
    return s;
  }

  /** Clips for joints whose motor target source is "animation" (matched by rig motor.target.clip). */
  setClips(clips: readonly AnimationClip[]): number {
    this.clips = new Map(clips.map((c) => [c.name, c]));
    return this.timeline.invalidateFrom(0);
  }

  /**
   * Replace the inputs. Returns the recording's new length: everything from the last snapshot at or
   * before the earliest changed frame is dropped and will be re-simulated by advance().
   */
  setInputs(inputs: readonly PreviewInput[]): number {
    const length = this.timeline.setInputs(inputs);
    this.targetKeys = this.timeline.inputs.filter((i): i is Extract<PreviewInput, { kind: 'target' }> => i.kind === 'target').map((k) => ({ frame: k.frame, target: k.target }));
    // The last kept frame may be the very frame of a changed key (a key on a snapshot frame): its physics
    // is before the key acts, but its record shows the target in force at it, as a full run records it.
    this.writeTarget(length - 1);
    return length;
  }

  /** Simulate up to `count` more frames (stops early on a blow-up). Returns the frames added. */
  advance(count: number): number {
    let added = 0;
    while (added < count && !this.failure) {
      const f = this.length - 1;
      this.applyInputs(f);
      this.sim.step();
      if (this.sim.blowUp) this.timeline.failure = `the simulation blew up at ${(this.sim.time).toFixed(2)} s (${this.sim.blowUp.body}: ${this.sim.blowUp.reason})`;
      this.recordFrame();
      added++;
    }
    return added;
  }

  /**
   * Live simulate (live.ts): apply an input now — after the newest frame, before the next step — without
   * putting it on the timeline (a live session is not re-simulated, so it need not be reproducible). A
   * 'target' steers from the next step on: it becomes the last target key (at the newest frame), so the
   * frames that follow record it and the gait turns toward it.
   */
  applyNow(input: PreviewInput): void {
    if (input.kind === 'target') {
      const f = this.length - 1;
      this.targetKeys = [...this.targetKeys.filter((k) => k.frame < f), { frame: f, target: input.target ? [input.target[0], input.target[1], input.target[2]] : null }];
      return;
    }
    this.apply(input, this.length - 1);
  }

  /** The steering target in force at frame f: the last key at or before f, else the rig's default. */
  targetAt(f: number): Vec3Tuple | null {
    let t = this.defaultTarget;
    for (const k of this.targetKeys) { if (k.frame > f) break; t = k.target; }
    return t;
  }

  // ------------------------------------------------------------------------------------------ internals

  private recordFrame(): void {
    const i = this.recorder.record();
    this.timeline.recorded(i);
    const a = this.aux, size = a.size;
    if ((i + 1) * size > this.auxData.length) {
      const bigger = new Float64Array(Math.max(this.auxData.length * 2, (i + 1) * size));
      bigger.set(this.auxData);
      this.auxData = bigger;
    }
    const o = i * size, d = this.auxData;
    d.fill(0, o, o + size);
    this.writeTarget(i);
    if (this.grab) {
      const p = this.grabPoint(this.grab);
      d[o + a.grab] = 1;
      d.set(p, o + a.grab + 1);
      d.set(this.grab.target, o + a.grab + 4);
    }
    this.controllers.forEach((c, k) => {
      const last = c.controller.lastFrame;
      if (!last) return;
      const q = o + a.controllers + k * CONTROLLER_AUX, f = last.frame;
      d[q] = f.yaw; d[q + 1] = f.skew; d.set(f.origin, q + 2); d[q + 5] = f.pivot[0]; d[q + 6] = f.pivot[2];
      d.set(last.target, q + 7); d.set(last.solvedEffector, q + 10);
    });
    for (let j = 0; j < this.motors.length; j++) d[o + a.motors + j] = this.motors[j]! ? 1 : 0;
    // The target the simulation holds (rest pose, controller or animation — the Simulation keeps it
    // through snapshot/restore, so a re-simulated frame plots the same target as the first run).
    const names = this.sim.jointNames, handles = this.jointHandleList, world = this.sim.world;
    for (let j = 0; j < names.length; j++) {
      const h = handles[j], q = o + a.jointState + 3 * j;
      const type = this.rig.joints[j]!.type;
      if (h === undefined || type === 'fixed') { d[q] = NaN; d[q + 1] = NaN; d[q + 2] = NaN; continue; }
      const angle = world.getJointAngle(h), target = this.sim.motorTarget(names[j]!);
      if (typeof angle === 'number') {
        d[q] = angle;
        d[q + 1] = typeof target === 'number' ? target : NaN;
        // Hinge angles are unwrapped, targets in (−π, π]: the error is the smallest difference (prismatic: m, no wrap).
        d[q + 2] = typeof target !== 'number' ? NaN : type === 'hinge' || type === 'screw' || type === 'cylindrical' || type === 'planar' ? wrapAngle(target - angle) : target - angle;
      } else {
        d[q] = Math.hypot(angle[0], angle[1], angle[2]);
        const cur = quatFromRotationVector(angle);
        if (target && typeof target !== 'number') {
          d[q + 1] = rotationAngle(target);
          d[q + 2] = 2 * Math.acos(Math.min(1, Math.abs(cur[0] * target[0] + cur[1] * target[1] + cur[2] * target[2] + cur[3] * target[3])));
        } else { d[q + 1] = NaN; d[q + 2] = NaN; }
      }
    }
    if (i > 0) {
      const contacts = this.sim.world.getContacts();
      const n = Math.min(MAX_CONTACTS, contacts.length);
      d[o + a.contacts] = n;
      for (let k = 0; k < n; k++) {
        const c = contacts[k]!, q = o + a.contacts + 1 + k * 4;
        d[q] = c.point[0]; d[q + 1] = c.point[1]; d[q + 2] = c.point[2]; d[q + 3] = c.normalImpulse;
      }
    }
  }

  /** Frame i's aux record of the steering target in force at it (the first four slots: x, y, z, 1; zeros for none). */
  private writeTarget(i: number): void {
    if (i < 0) return;
    const o = i * this.aux.size, d = this.auxData, t = this.targetAt(i);
    if (t) { d[o] = t[0]; d[o + 1] = t[1]; d[o + 2] = t[2]; d[o + 3] = 1; } else d.fill(0, o, o + 4);
  }

  /** Motor switches as the limp inputs before frame s left them (the Simulation keeps its own private). */
  private motorsBefore(s: number): boolean[] {
    const on = this.sim.jointNames.map(() => true);
    for (const i of this.timeline.inputs) {
      if (i.frame >= s) break;
      if (i.kind !== 'limp') continue;
      this.sim.jointNames.forEach((n, j) => { if (i.joints === 'all' || i.joints.includes(n)) on[j] = !i.limp; });
    }
    return on;
  }

  private applyInputs(f: number): void {
    const target = this.targetAt(f);
    const current = this.controllers[0]?.controller.steeringTarget ?? null;
    if (!sameTarget(target, current)) this.sim.setTarget(target);
    for (const input of this.timeline.inputsAt(f)) this.apply(input, f);
    this.animationStep();
    if (this.grab) this.grabStep(this.grab);
  }

  private apply(input: PreviewInput, f: number): void {
    switch (input.kind) {
      case 'impulse':
        if (this.handles.has(input.body)) this.sim.applyImpulse(input.body, input.impulse, input.point);
        break;
      case 'blast': this.blast(input.center, input.radius, input.strength); break;
      case 'grab':
        if (this.handles.has(input.body)) this.grab = { body: input.body, local: this.toLocal(input.body, input.point), target: [...input.point] };
        break;
      case 'grabMove': if (this.grab) this.grab = { ...this.grab, target: [...input.target] }; break;
      case 'release': this.grab = null; break;
      case 'limp': this.setLimp(input.joints, input.limp, f); break;
      case 'target': break;
    }
  }

  /** Radial impulse: strength (N·s) at the centre, falling linearly to 0 at `radius` (m), on each body's centre of mass. */
  private blast(center: Vec3Tuple, radius: number, strength: number): void {
    if (!(radius > 0)) return;
    for (const [name, h] of this.handles) {
      const com = this.centreOfMass(h);
      const d: Vec3 = [com[0] - center[0], com[1] - center[1], com[2] - center[2]];
      const len = Math.hypot(d[0], d[1], d[2]);
      if (len >= radius) continue;
      // At the very centre the direction is undefined: push straight up.
      const dir: Vec3 = len > 1e-9 ? [d[0] / len, d[1] / len, d[2] / len] : [0, 1, 0];
      const s = strength * (1 - len / radius);
      this.sim.applyImpulse(name, [dir[0] * s, dir[1] * s, dir[2] * s], com);
    }
  }

  /**
   * Go limp / power on at frame f (seed 002): the bodies moved by the switched joints (their child bodies;
   * 'all': every body) take the velocity their last two recorded transforms imply, so momentum carries
   * over with no frame delay.
   */
  private setLimp(joints: string[] | 'all', limp: boolean, f: number): void {
    const names = joints === 'all' ? [...this.sim.jointNames] : joints.filter((j) => this.sim.jointNames.includes(j));
    if (names.length === 0) return;
    this.sim.setMotorsEnabled(!limp, names);
    this.sim.jointNames.forEach((n, j) => { if (names.includes(n)) this.motors[j] = !limp; });
    if (f < 1) return;
    const bodies = joints === 'all' ? [...this.handles.keys()] : [...new Set(names.map((n) => this.rig.joints.find((j) => j.name === n)!.bodyB))];
    const prev = this.recorder.frame(f - 1), cur = this.recorder.frame(f);
    for (const b of bodies) {
      const h = this.handles.get(b), p0 = prev.bodies[b], p1 = cur.bodies[b];
      if (h === undefined || !p0 || !p1) continue;
      const centroid = this.sim.world.getMassProperties(h).centroid;
      const v = inheritVelocity({ position: p0.p as Vec3, rotation: p0.q as Quat }, { position: p1.p as Vec3, rotation: p1.q as Quat }, this.sim.dt, centroid);
      this.sim.setBodyVelocity(b, v.linear, v.angular);
    }
  }

  private animationStep(): void {
    if (this.clips.size === 0) return;
    for (const clip of this.clips.values()) {
      const targets = animationTargets(this.rig, clip, this.sim.time, { onlyAnimationJoints: true });
      if (Object.keys(targets).length === 0) continue;
      this.sim.setMotorTargets(targets);
    }
  }

  /**
   * Spring-damper on the grabbed point, k = m·ω², c = 2ζ·m·ω (m the body's mass), stepped implicitly as a
   * soft point constraint (Box2D's mouse joint): the impulse P solves P = dt·(k·C − (c + dt·k)·v_p′) with
   * v_p′ = v_p + K·P, where K is the 3×3 inverse effective mass at the point (1/m + r×I⁻¹×r) and C the
   * spring's stretch. The capped impulse is applied at the point.
   *
   * Stepped explicitly with the body's mass (F·dt from the velocity before the step) the damper was
   * unstable: at a point off the centre of mass the effective mass is smaller (a solid sphere held at its
   * surface: m/3.5), so the damping rate c·K·dt reached ~1.8 per frame and, with the spring, past the
   * explicit bound of 2. The held Armed Mine then spun up to ~45 rad/s within half a second while its arm
   * flailed, and its hand, striking the floor at 25 m/s, reached 465–544 rad/s (CI: a blow-up in Live
   * simulate). The implicit step is stable at any stiffness; grabDrag.test.ts holds the held spin down.
   */
  private grabStep(g: GrabState): void {
    const h = this.handles.get(g.body);
    if (h === undefined) return;
    const w = this.sim.world;
    const mp = w.getMassProperties(h);
    const m = mp.mass;
    if (!(m > 0)) return;
    const p = this.grabPoint(g);
    const com = this.centreOfMass(h);
    const v = w.getLinearVelocity(h), om = w.getAngularVelocity(h);
    const r: Vec3 = [p[0] - com[0], p[1] - com[1], p[2] - com[2]];
    const vp: Vec3 = [v[0] + om[1] * r[2] - om[2] * r[1], v[1] + om[2] * r[0] - om[0] * r[2], v[2] + om[0] * r[1] - om[1] * r[0]];
    const wn = 2 * Math.PI * GRAB_FREQUENCY;
    const k = m * wn * wn, c = 2 * GRAB_DAMPING * m * wn, dt = this.sim.dt;
    const soft = dt * (c + dt * k);
    // K = 1/m − [r]×·I_w⁻¹·[r]× (symmetric), and P = (1 + soft·K)⁻¹·(dt·k·C − soft·v_p).
    const S = [0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0];
    const SIS = mul3(mul3(S, worldInverseInertia(mp.inertia, w.getRotation(h))), S);
    const inv = invertSymmetric3(SIS.map((x, i) => (i % 4 === 0 ? 1 + soft / m : 0) - soft * x));
    const rhs = [0, 1, 2].map((i) => dt * k * (g.target[i]! - p[i]!) - soft * vp[i]!);
    const P = [0, 3, 6].map((i) => inv[i]! * rhs[0]! + inv[i + 1]! * rhs[1]! + inv[i + 2]! * rhs[2]!);
    const cap = GRAB_MAX_WEIGHTS * m * 9.81 * dt, mag = Math.hypot(P[0], P[1], P[2]);
    const s = mag > cap ? cap / mag : 1;
    this.sim.applyImpulse(g.body, [P[0] * s, P[1] * s, P[2] * s], p);
  }

  private grabPoint(g: GrabState): Vec3Tuple {
    const h = this.handles.get(g.body)!;
    const pos = this.sim.world.getPosition(h), rot = this.sim.world.getRotation(h);
    const r = quatRotate(rot, g.local);
    return [pos[0] + r[0], pos[1] + r[1], pos[2] + r[2]];
  }

  private toLocal(body: string, point: Vec3Tuple): Vec3Tuple {
    const h = this.handles.get(body)!;
    const pos = this.sim.world.getPosition(h), rot = this.sim.world.getRotation(h);
    const inv: Quat = [-rot[0], -rot[1], -rot[2], rot[3]];
    const r = quatRotate(inv, [point[0] - pos[0], point[1] - pos[1], point[2] - pos[2]]);
    return [r[0], r[1], r[2]];
  }

  private centreOfMass(h: BodyHandle): Vec3 {
    const w = this.sim.world;
    const c = quatRotate(w.getRotation(h), w.getMassProperties(h).centroid);
    const p = w.getPosition(h);
    return [p[0] + c[0], p[1] + c[1], p[2] + c[2]];
  }

  /** The grab in force at the start of frame s (inputs at frames < s). */
  private grabStateBefore(s: number): GrabState | null {
    // Replaying the grab inputs needs the body poses at their frames, which only the run had: re-derive
    // the local point from the recorded frame of the grab instead.
    let g = null as GrabState | null;
    for (const i of this.timeline.inputs) {
      if (i.frame >= s) break;
      if (i.kind === 'grab') {
        const fr = this.recorder.frame(i.frame).bodies[i.body];
        if (!fr) { g = null; continue; }
        const q = fr.q, inv: Quat = [-q[0]!, -q[1]!, -q[2]!, q[3]!];
        const r = quatRotate(inv, [i.point[0] - fr.p[0]!, i.point[1] - fr.p[1]!, i.point[2] - fr.p[2]!]);
        g = { body: i.body, local: [r[0], r[1], r[2]], target: [...i.point] };
      } else if (i.kind === 'grabMove' && g) g = { ...g, target: [...i.target] };
      else if (i.kind === 'release') g = null;
    }
    return g;
  }
}

const wrapAngle = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

/** Rotation angle (rad) of a unit quaternion, in [0, π]. */
const rotationAngle = (q: ReadonlyQuat): number => 2 * Math.acos(Math.min(1, Math.abs(q[3])));

const sameTarget = (a: readonly number[] | null, b: readonly number[] | null): boolean =>
  a === b || (!!a && !!b && a[0] === b[0] && a[1] === b[1] && a[2] === b[2]);

/** Row-major 3×3 product. */
function mul3(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[3 * i + j] = a[3 * i]! * b[j]! + a[3 * i + 1]! * b[3 + j]! + a[3 * i + 2]! * b[6 + j]!;
  return out;
}

/** R·I⁻¹·Rᵀ for a body-axes inertia tensor (row-major 3×3) and the body's rotation. */
function worldInverseInertia(inertia: readonly number[], q: ReadonlyQuat): number[] {
  const R = quatToMat3(q), Rt = [R[0]!, R[3]!, R[6]!, R[1]!, R[4]!, R[7]!, R[2]!, R[5]!, R[8]!];
  return mul3(mul3(R, invertSymmetric3(inertia)), Rt);
}
