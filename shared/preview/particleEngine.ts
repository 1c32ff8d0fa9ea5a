/**
 * The preview under the particle solver (shared/physics/particles, docs/particles.md): the same recorded,
 * snapshot-backed timeline as PreviewEngine (engine.ts), so the host (host.ts) runs either one and the
 * client, the timeline and the inputs work unchanged. No DOM: it runs in the worker and in unit tests.
 *
 * What it simulates: a particle scene (an example file), or the particle version of the document's rig —
 * particleSceneFromRig when the rig has bodies (radii, masses, limits from them), else
 * particleSceneFromSkeleton on its bones (the same creature before bodies are generated).
 *
 * Flat frame: [t, x y z per particle (particleNames order), cx cy cz qx qy qz qw per bone (boneNames order;
 * +Y along head → tip, writeBonePoses)]. Frame i is the state after i steps; an input at frame f acts
 * after frame f is recorded, before the step f → f + 1 (as in engine.ts). Inputs under particles:
 *  - `impulse` (a bone name, or a rig body name → its bone; split between the bone's ends by the lever
 *    rule) and `blast` (per bone at its midpoint);
 *  - `grab` / `grabMove` / `release`: the rigid grab's spring (GRAB_FREQUENCY, GRAB_DAMPING,
 *    GRAB_MAX_WEIGHTS) on the point of the bone's axis nearest the grabbed point (shared grab.ts); the aux
 *    record's grab block (active, grabbed point, spring target) is filled as the rigid engine's;
 *  - `limp`: the pose drive (shared drive.ts) of the joints named (a rig joint → the bone of its child
 *    body; a bone name; or 'all'). A particle ragdoll starts limp — the paper's ragdoll, and what the
 *    examples and the falls show — and Power on drives every joint toward its rest pose;
 *  - `target` (steering): no particle controller walks, so it is ignored; the aux record has no steering
 *    target, so the target marker is not drawn under particles.
 */
import {
  createParticleSimulation, loadParticleScene,
  type ParticleScene, type ParticleSimulation, type ParticleSnapshot,
} from '../physics/particles';
import { particleSceneFromRig, particleSceneFromSkeleton } from '../runtime/particles';
import { validateRig, type Bone, type RigDocument } from '../rig';
import type { FrameLayout } from '../runtime';
import { newRigDocument } from '../authoring/document';
import { auxLayout, GRAB_DAMPING, GRAB_FREQUENCY, GRAB_MAX_WEIGHTS, SNAPSHOT_EVERY, type AuxLayout, type PreviewInput } from './engine';
import { Timeline } from './timeline';

/** What the client asks the host to run under the particle solver: a scene (parsed JSON of a
 *  "marionette-particles" file) or, when `scene` is null, the rig sent alongside. */
export interface ParticleRequest { scene: unknown | null; name: string }

/** What the client needs to draw, pose and pick particle frames (sent once per reset). */
export interface ParticleLayout {
  scene: ParticleScene;
  particleNames: string[];
  boneNames: string[];
  boneRadii: number[];
  boneLengths: number[];
  /** Offsets of the positions and the bone poses in a flat frame. */
  positions: number;
  poses: number;
  /** Where the scene came from: a scene file, or the document's rig. */
  source: 'scene' | 'rig';
}

export class ParticlePreviewEngine {
  readonly sim: ParticleSimulation;
  /** The rig as the client sees it: its skeleton only. */
  readonly rig: RigDocument;
  readonly particles: ParticleLayout;
  /** The rigid layout the client and overlays read: no bodies, joints or controllers. */
  readonly layout: FrameLayout = { bodies: [], joints: [], controllers: [] };
  readonly aux: AuxLayout = auxLayout(0, 0);
  readonly frameSize: number;
  private data: Float64Array;
  private auxData: Float64Array;
  private count = 0;
  /** A rig joint's name → the particle bone its child body sits on (for per-joint limp inputs). */
  private readonly boneOfJoint: Map<string, string>;
  private readonly grabScratch = new Float64Array(6);
  private readonly timeline: Timeline<ParticleSnapshot>;
  private readonly boneOfBody: Map<string, string>;
  private readonly segments: Float64Array;

  constructor(scene: ParticleScene, rig: RigDocument, source: 'scene' | 'rig', options: { snapshotEvery?: number; capacity?: number } = {}) {
    this.sim = createParticleSimulation(scene);
    // The rigid overlays read bodies, joints and controllers from the reset's rig: under particles there
    // are none (the skeleton stays, for skinning).
    this.rig = { ...rig, bodies: [], joints: [], controllers: [] };
    this.timeline = new Timeline<ParticleSnapshot>({
      length: () => this.count,
      snapshot: () => this.sim.snapshot(),
      rewind: (snap, s) => { this.sim.restore(snap); this.count = s + 1; },
    }, options.snapshotEvery ?? SNAPSHOT_EVERY);
    const P = this.sim.particleNames.length, B = this.sim.boneNames.length;
    this.particles = {
      scene, source, particleNames: [...this.sim.particleNames], boneNames: [...this.sim.boneNames],
      boneRadii: Array.from(this.sim.boneRadii), boneLengths: Array.from(this.sim.boneLengths), positions: 1, poses: 1 + 3 * P,
    };
    this.frameSize = 1 + 3 * P + 7 * B;
    this.data = new Float64Array(Math.max(1, options.capacity ?? 1024) * this.frameSize);
    this.auxData = new Float64Array(Math.max(1, options.capacity ?? 1024) * this.aux.size);
    this.boneOfBody = new Map(rig.bodies.map((b) => [b.name, b.bone]));
    this.boneOfJoint = new Map(rig.joints.flatMap((j) => { const b = this.boneOfBody.get(j.bodyB); return b === undefined ? [] : [[j.name, b] as const]; }));
    this.segments = new Float64Array(6 * B);
    this.record();
  }

  get length(): number { return this.count; }
  get dt(): number { return this.sim.dt; }
  /** The earliest frame the last setInputs changed. */
  get lastChange(): number { return this.timeline.lastChange; }
  get failure(): string | null { return this.timeline.failure; }

  slice(from: number, to: number): { frames: Float64Array; aux: Float64Array } {
    return { frames: this.data.slice(from * this.frameSize, to * this.frameSize), aux: this.auxData.slice(from * this.aux.size, to * this.aux.size) };
  }

  /** Animation clips drive motors; particles have none. */
  setClips(): number { return this.length; }

  /** Replace the inputs; returns the new length (cut back to the snapshot before the earliest change). */
  setInputs(inputs: readonly PreviewInput[]): number { return this.timeline.setInputs(inputs); }

  advance(count: number): number {
    let added = 0;
    while (added < count && !this.failure) {
      for (const input of this.timeline.inputsAt(this.length - 1)) this.apply(input);
      this.sim.step();
      if (!this.sim.positions.every(Number.isFinite)) this.timeline.failure = `the particle simulation diverged at ${this.sim.time.toFixed(2)} s`;
      this.record();
      added++;
    }
    return added;
  }

  /** Particle positions of frame f (a view; valid until the recording changes). */
  positionsAt(f: number): Float64Array {
    const o = f * this.frameSize + this.particles.positions;
    return this.data.subarray(o, o + 3 * this.particles.particleNames.length);
  }

  private record(): void {
    const i = this.count;
    if ((i + 1) * this.frameSize > this.data.length) {
      const bigger = new Float64Array(Math.max(this.data.length * 2, (i + 1) * this.frameSize));
      bigger.set(this.data);
      this.data = bigger;
    }
    const o = i * this.frameSize;
    this.data[o] = this.sim.time;
    this.data.set(this.sim.positions, o + this.particles.positions);
    this.sim.writeBonePoses(this.data.subarray(o + this.particles.poses, o + this.frameSize));
    const size = this.aux.size;
    if ((i + 1) * size > this.auxData.length) {
      const bigger = new Float64Array(Math.max(this.auxData.length * 2, (i + 1) * size));
      bigger.set(this.auxData);
      this.auxData = bigger;
    }
    const a = i * size + this.aux.grab, g = this.grabScratch;
    this.auxData.fill(0, i * size, (i + 1) * size);
    if (this.sim.readGrab(g)) { this.auxData[a] = 1; this.auxData.set(g, a + 1); }
    this.count = i + 1;
    this.timeline.recorded(i);
  }

  private bone(name: string): number {
    const bone = this.particles.boneNames.includes(name) ? name : this.boneOfBody.get(name);
    return bone === undefined ? -1 : this.particles.boneNames.indexOf(bone);
  }

  private apply(input: PreviewInput): void {
    if (input.kind === 'impulse') {
      const b = this.bone(input.body);
      if (b >= 0) this.sim.applyImpulse(b, input.point, input.impulse);
    } else if (input.kind === 'grab') {
      const b = this.bone(input.body);
      if (b >= 0) this.sim.grab(b, input.point, { frequency: GRAB_FREQUENCY, damping: GRAB_DAMPING, maxWeights: GRAB_MAX_WEIGHTS });
    } else if (input.kind === 'grabMove') this.sim.moveGrab(input.target);
    else if (input.kind === 'release') this.sim.releaseGrab();
    else if (input.kind === 'limp') {
      if (input.joints === 'all') { this.sim.setPowered('all', !input.limp); return; }
      // Joints (or bones) without a driven particle joint — a root, a prismatic joint — have nothing to switch.
      const driven = new Set(this.sim.drivenBones);
      const bones = input.joints.map((j) => this.boneOfJoint.get(j) ?? j).filter((b) => driven.has(b));
      this.sim.setPowered(bones, !input.limp);
    } else if (input.kind === 'blast' && input.radius > 0) {
      // As the rigid blast: strength (N·s) at the centre, falling linearly to 0 at the radius, per bone at
      // its midpoint (so split evenly between its two ends), pointing away from the centre.
      const seg = this.segments;
      this.sim.writeBoneSegments(seg);
      for (let b = 0; b < this.particles.boneNames.length; b++) {
        const m: [number, number, number] = [0.5 * (seg[6 * b]! + seg[6 * b + 3]!), 0.5 * (seg[6 * b + 1]! + seg[6 * b + 4]!), 0.5 * (seg[6 * b + 2]! + seg[6 * b + 5]!)];
        const d = [m[0] - input.center[0], m[1] - input.center[1], m[2] - input.center[2]];
        const len = Math.hypot(d[0]!, d[1]!, d[2]!);
        if (len >= input.radius) continue;
        const s = input.strength * (1 - len / input.radius);
        const dir = len > 1e-9 ? [d[0]! / len, d[1]! / len, d[2]! / len] : [0, 1, 0];
        this.sim.applyImpulse(b, m, [dir[0]! * s, dir[1]! * s, dir[2]! * s]);
      }
    }
  }
}

/** The particle scene for a request: the scene file (checked by the particle loader), or the rig's. */
export function particleSceneFor(rawRig: unknown, request: ParticleRequest): { scene: ParticleScene; rig: RigDocument; source: 'scene' | 'rig' } {
  if (request.scene !== null) {
    const scene = loadParticleScene(request.scene, request.name);
    return { scene, rig: newRigDocument(scene.name, []), source: 'scene' };
  }
  const v = validateRig(rawRig);
  if (v.ok && v.rig.bodies.length > 0) return { scene: loadParticleScene(particleSceneFromRig(v.rig), request.name), rig: v.rig, source: 'rig' };
  // A rig without bodies yet (or not valid yet): the creature's skeleton under the default particle
  // settings, so the switch works from the moment a creature is opened.
  const raw = rawRig as Partial<RigDocument> | null;
  const bones = raw?.skeleton?.bones;
  if (!Array.isArray(bones) || bones.length === 0) throw new Error(`${request.name}: the rig has no skeleton to build a particle ragdoll from`);
  const name = typeof raw?.name === 'string' ? raw.name : request.name;
  const scene = loadParticleScene(particleSceneFromSkeleton(bones as Bone[], { name }), request.name);
  return { scene, rig: v.ok ? v.rig : newRigDocument(name, bones as Bone[]), source: 'rig' };
}

/** Build the engine for a request; a bad scene or rig becomes a message for the preview's problem line. */
export function startParticleEngine(rawRig: unknown, request: ParticleRequest, capacity: number):
  { ok: true; engine: ParticlePreviewEngine } | { ok: false; message: string } {
  try {
    const { scene, rig, source } = particleSceneFor(rawRig, request);
    return { ok: true, engine: new ParticlePreviewEngine(scene, rig, source, { capacity }) };
  } catch (e) {
    return { ok: false, message: `the particle preview cannot run: ${e instanceof Error ? e.message : String(e)}` };
  }
}
