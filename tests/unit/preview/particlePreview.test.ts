/**
 * The preview under the particle solver, headless: the recorded timeline (inputs re-simulate from the
 * snapshot before them, bit for bit), the host's particle reset, the skinned bones' rest pose and bone
 * picking from a particle frame.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createParticleSimulation } from '../../../shared/physics/particles';
import { boneRestWorld, validateRig, type RigDocument } from '../../../shared/rig';
import { newRigDocument } from '../../../shared/authoring/document';
import { ParticlePreviewEngine, particleSceneFor, startParticleEngine } from '../../../shared/preview/particleEngine';
import { ParticlePoser, type ParticleHostLayout } from '../../../shared/preview/particlePose';
import { createHost } from '../../../shared/preview/host';
import type { FromHost } from '../../../shared/preview/protocol';
import type { PreviewInput } from '../../../shared/preview/engine';
import { repo } from '../rig/corpus';

const text = (p: string) => readFileSync(`${repo}${p}`, 'utf8');
const ragdollScene = JSON.parse(text('assets/examples/ragdoll.json')) as unknown;
const humanoid = (): RigDocument => { const v = validateRig(text('assets/creatures/humanoid.rig.json')); if (!v.ok) throw new Error('humanoid rig invalid'); return v.rig; };

function engineFor(scene: unknown, name: string): ParticlePreviewEngine {
  const r = startParticleEngine(null, { scene, name }, 256);
  if (!r.ok) throw new Error(r.message);
  return r.engine;
}

/** Largest particle displacement (m) between the same frames of two recordings. */
function maxDelta(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i += 3) d = Math.max(d, Math.hypot(a[i]! - b[i]!, a[i + 1]! - b[i + 1]!, a[i + 2]! - b[i + 2]!));
  return d;
}

describe('particle preview engine', () => {
  it('records the scene as the library runs it: frame 0 is the rest pose, frame i is i steps', () => {
    const e = engineFor(ragdollScene, 'ragdoll.json');
    expect(e.advance(60)).toBe(60);
    expect(e.length).toBe(61);
    const sim = createParticleSimulation(ragdollScene);
    expect(Array.from(e.positionsAt(0))).toEqual(Array.from(sim.positions));
    for (let i = 0; i < 60; i++) sim.step();
    expect(Array.from(e.positionsAt(60))).toEqual(Array.from(sim.positions));
    const poses = new Float64Array(7 * sim.boneNames.length);
    sim.writeBonePoses(poses);
    const { frames } = e.slice(60, 61);
    expect(Array.from(frames.subarray(e.particles.poses))).toEqual(Array.from(poses));
    expect(frames[0]).toBeCloseTo(60 * e.dt, 12);
  });

  it('a click input re-simulates from the snapshot before it: earlier frames unchanged, later ones moved, removal restores the run exactly', () => {
    const e = engineFor(ragdollScene, 'ragdoll.json');
    e.advance(120);
    const before = Array.from({ length: 121 }, (_, f) => e.positionsAt(f).slice());
    // A push on the left shin at frame 45, at its centre, 20 N·s sideways.
    const shin = e.particles.boneNames.indexOf('shin_l');
    const frame = e.slice(45, 46).frames, o = e.particles.poses + 7 * shin;
    const click: PreviewInput = { kind: 'impulse', frame: 45, body: 'shin_l', point: [frame[o]!, frame[o + 1]!, frame[o + 2]!], impulse: [20, 0, 0] };
    const len = e.setInputs([click]);
    expect(len).toBe(31); // back to the snapshot at frame 30
    e.advance(120 - 30);
    for (let f = 0; f <= 45; f++) expect(maxDelta(e.positionsAt(f), before[f]!)).toBe(0);
    let moved = 0;
    for (let f = 46; f <= 75; f++) moved = Math.max(moved, maxDelta(e.positionsAt(f), before[f]!));
    expect(moved).toBeGreaterThan(0.02);
    // Taking the click away gives back the very same recording (determinism).
    e.setInputs([]);
    e.advance(120);
    for (let f = 0; f <= 120; f++) expect(maxDelta(e.positionsAt(f), before[f]!)).toBe(0);
  });

  it('a rig runs as its particle version (body names map to bones); a rig without bodies uses its skeleton', () => {
    const rig = humanoid();
    const fromRig = particleSceneFor(rig, { scene: null, name: rig.name });
    expect(fromRig.source).toBe('rig');
    expect(fromRig.scene.bones.map((b) => b.name)).toEqual(expect.arrayContaining(rig.skeleton.bones.map((b) => b.name)));
    const e = new ParticlePreviewEngine(fromRig.scene, fromRig.rig, 'rig', { capacity: 64 });
    expect(e.rig.bodies).toEqual([]); // the client's rigid overlays see no bodies under particles
    const body = rig.bodies.find((b) => b.bone === 'spine')!;
    e.setInputs([{ kind: 'impulse', frame: 0, body: body.name, point: [0, 1.5, 0], impulse: [0, 0, 30] }]);
    e.advance(30);
    const spine = e.particles.particleNames.indexOf('spine');
    expect(e.positionsAt(30)[3 * spine + 2]!).toBeGreaterThan(0.05);
    const bare = particleSceneFor(newRigDocument('bare', rig.skeleton.bones), { scene: null, name: 'bare' });
    expect(bare.scene.bones).toHaveLength(rig.skeleton.bones.length);
    expect(Number.isFinite(bare.scene.settings.damping)).toBe(true);
  });

  it('grab inputs pull the bone toward the dragged point, are recorded in the aux grab block, and replay exactly after a rewind', () => {
    const e = engineFor(ragdollScene, 'ragdoll.json');
    e.advance(90);
    const before = Array.from({ length: 91 }, (_, f) => e.positionsAt(f).slice());
    const head = e.particles.particleNames.indexOf('head');
    const at = (f: number) => { const x = e.positionsAt(f); return [x[3 * head]!, x[3 * head + 1]!, x[3 * head + 2]!]; };
    const p0 = at(10), target: [number, number, number] = [p0[0]! + 0.4, p0[1]! + 0.3, p0[2]!];
    const inputs: PreviewInput[] = [
      { kind: 'grab', frame: 10, body: 'spine', point: [p0[0]!, p0[1]!, p0[2]!] },
      { kind: 'grabMove', frame: 10, target },
      { kind: 'release', frame: 70 },
    ];
    expect(e.setInputs(inputs)).toBe(1); // back to the snapshot at frame 0
    e.advance(90);
    for (let f = 0; f <= 10; f++) expect(maxDelta(e.positionsAt(f), before[f]!)).toBe(0);
    const d = (f: number) => Math.hypot(at(f)[0]! - target[0], at(f)[1]! - target[1], at(f)[2]! - target[2]);
    const dFree = (f: number) => { const x = before[f]!; return Math.hypot(x[3 * head]! - target[0], x[3 * head + 1]! - target[1], x[3 * head + 2]! - target[2]); };
    // Measured: the spine's head end is 0.5 m from the target at the grab; 0.5 s later the grabbed run is
    // far nearer it than the free fall (which drops away from it).
    expect(d(70)).toBeLessThan(0.6 * dFree(70));
    const aux = (f: number) => e.slice(f, f + 1).aux;
    expect(aux(10)[e.aux.grab]).toBe(0); // frame 10 is recorded before its inputs act
    expect(aux(40)[e.aux.grab]).toBe(1);
    expect(Array.from(aux(40).subarray(e.aux.grab + 4, e.aux.grab + 7))).toEqual(target);
    expect(aux(71)[e.aux.grab]).toBe(0);
    // Re-simulating from a snapshot taken mid-grab gives the same frames (the grab is in the snapshot).
    const run = Array.from({ length: 91 }, (_, f) => e.positionsAt(f).slice());
    e.setInputs([...inputs, { kind: 'impulse', frame: 85, body: 'head', point: at(85) as [number, number, number], impulse: [0, 0, 1] }]);
    e.advance(90);
    for (let f = 0; f <= 85; f++) expect(maxDelta(e.positionsAt(f), run[f]!)).toBe(0);
  });

  it('Power on drives the ragdoll toward its rest pose from the frame of the input; Go limp at the same frame undoes it', () => {
    const e = engineFor(ragdollScene, 'ragdoll.json');
    e.advance(120);
    const limp = Array.from({ length: 121 }, (_, f) => e.positionsAt(f).slice());
    e.setInputs([{ kind: 'limp', frame: 20, joints: 'all', limp: false }]);
    e.advance(120);
    for (let f = 0; f <= 20; f++) expect(maxDelta(e.positionsAt(f), limp[f]!)).toBe(0);
    expect(maxDelta(e.positionsAt(120), limp[120]!)).toBeGreaterThan(0.05);
    e.setInputs([{ kind: 'limp', frame: 20, joints: 'all', limp: false }, { kind: 'limp', frame: 20, joints: 'all', limp: true }]);
    e.advance(120);
    for (let f = 0; f <= 120; f++) expect(maxDelta(e.positionsAt(f), limp[f]!)).toBe(0);
  });

  it('per-joint Power on under a rig maps the joint to its child body\'s bone', () => {
    const rig = humanoid();
    const fromRig = particleSceneFor(rig, { scene: null, name: rig.name });
    const e = new ParticlePreviewEngine(fromRig.scene, fromRig.rig, 'rig', { capacity: 64 });
    const joint = rig.joints.find((j) => rig.bodies.find((b) => b.name === j.bodyB)?.bone === 'forearm_l')!;
    e.setInputs([{ kind: 'limp', frame: 0, joints: [joint.name], limp: false }]);
    e.advance(2);
    expect(e.sim.isPowered('forearm_l')).toBe(true);
    expect(e.sim.isPowered('forearm_r')).toBe(false);
  });

  it('a bad scene is refused with the file, the field and the reason', () => {
    const broken = JSON.parse(text('assets/examples/double-pendulum.json')) as { bones: { head: string }[] };
    broken.bones[0]!.head = 'ghost';
    const r = startParticleEngine(null, { scene: broken, name: 'broken.json' }, 64);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/broken\.json: bones\[0\]\.head.*"ghost"/);
  });

  it('the host resets to a particle recording and streams its frames', () => {
    const posted: FromHost[] = [];
    const queue: (() => void)[] = [];
    const host = createHost((m) => posted.push(m), (fn) => queue.push(fn));
    host.receive({ type: 'horizon', frames: 40 });
    host.receive({ type: 'rig', rig: null, generation: 1, particles: { scene: ragdollScene, name: 'ragdoll.json' } });
    for (let i = 0; i < 50 && queue.length; i++) { queue.shift()!(); host.receive({ type: 'ack' }); }
    const reset = posted.find((m) => m.type === 'reset');
    expect(reset?.type === 'reset' && reset.particles?.particleNames.length).toBe(31);
    const frames = posted.filter((m) => m.type === 'frames');
    const count = frames.reduce((a, m) => a + (m.type === 'frames' ? m.count : 0), 0);
    expect(count).toBe(40);
  });
});

describe('particle poser (skinning and picking on the main thread)', () => {
  const rig = humanoid();
  const r = startParticleEngine(rig, { scene: null, name: rig.name }, 64);
  if (!r.ok) throw new Error(r.message);
  const e = r.engine;
  const layout: ParticleHostLayout = { generation: 1, rig: e.rig, layout: e.layout, frameSize: e.frameSize, aux: e.aux, dt: e.dt, controllers: [], particles: e.particles };
  const poser = new ParticlePoser(layout);

  it('at the rest frame the skinned bones sit exactly at their rest pose', () => {
    const out = new Float64Array(7 * poser.boneNames.length);
    poser.writeBoneWorld(e.slice(0, 1).frames, out);
    const rest = boneRestWorld(rig.skeleton.bones);
    poser.boneNames.forEach((n, i) => {
      const w = rest.get(n)!;
      for (let k = 0; k < 3; k++) expect(out[7 * i + k]!).toBeCloseTo(w.position[k]!, 9);
      // q and −q are the same rotation.
      const dot = Math.abs(w.rotation[0] * out[7 * i + 3]! + w.rotation[1] * out[7 * i + 4]! + w.rotation[2] * out[7 * i + 5]! + w.rotation[3] * out[7 * i + 6]!);
      expect(dot).toBeCloseTo(1, 9);
    });
  });

  it('after falling, a bone keeps its offset from its capsule (the mesh follows the particles)', () => {
    e.advance(60);
    const frame = e.slice(60, 61).frames;
    const out = new Float64Array(7 * poser.boneNames.length);
    poser.writeBoneWorld(frame, out);
    const i = poser.boneNames.indexOf('shin_l'), centre = poser.boneCentre(frame, 'shin_l')!;
    const restCentre = poser.boneCentre(e.slice(0, 1).frames, 'shin_l')!;
    const rest = boneRestWorld(rig.skeleton.bones).get('shin_l')!;
    const dRest = Math.hypot(rest.position[0] - restCentre[0], rest.position[1] - restCentre[1], rest.position[2] - restCentre[2]);
    const dNow = Math.hypot(out[7 * i]! - centre[0], out[7 * i + 1]! - centre[1], out[7 * i + 2]! - centre[2]);
    expect(dNow).toBeCloseTo(dRest, 9);
    expect(Math.abs(out[7 * i + 1]! - rest.position[1])).toBeGreaterThan(0.01); // it moved
  });

  it('a ray through a bone capsule picks that bone at the frame given', () => {
    const frame = e.slice(60, 61).frames;
    const c = poser.boneCentre(frame, 'spine')!;
    const hit = poser.pick(frame, [c[0], c[1], c[2] + 5], [0, 0, -1], 100);
    expect(hit?.body).toBe('spine');
    expect(hit!.distance).toBeGreaterThan(4.5);
    expect(hit!.distance).toBeLessThan(5);
    expect(poser.pick(frame, [c[0] + 10, c[1], c[2] + 5], [0, 0, -1], 100)).toBeNull();
  });
});

describe('solver mode follows the rig (particleMode.ts)', () => {
  it('opening a rig meant for particles selects the particle solver; a rigid rig selects rigid; the preview source follows', async () => {
    const { useEditor } = await import('../../../renderer/src/state/store');
    const { useSolver, previewSource } = await import('../../../renderer/src/preview/particleMode');
    const rig = humanoid();
    const open = (solver: 'rigid' | 'particle') => {
      const doc = { creature: { name: 'humanoid.glb', path: null }, rig: { ...rig, solver } };
      // A new creature object is what showCreature sets when a document opens.
      useEditor.setState({ creature: { id: Math.random() } as never, document: doc as never });
      return doc.rig;
    };
    const particleRig = open('particle');
    expect(useSolver.getState().solver).toBe('particle');
    const src = previewSource(particleRig)!;
    expect(src.particles).toEqual({ scene: null, name: rig.name });
    expect(previewSource(particleRig)!.key).toBe(src.key); // stable: the client does not resend
    const rigidRig = open('rigid');
    expect(useSolver.getState().solver).toBe('rigid');
    expect(previewSource(rigidRig)).toEqual({ key: rigidRig, rig: rigidRig });
  });

  it('Articulated sends the rig with solver "articulated" (stable key); a rig saying "articulated" opens so and Rigid overrides it', async () => {
    const { useEditor } = await import('../../../renderer/src/state/store');
    const { useSolver, previewSource } = await import('../../../renderer/src/preview/particleMode');
    const rig = humanoid();
    const open = (solver: 'rigid' | 'articulated') => {
      const doc = { creature: { name: 'humanoid.glb', path: null }, rig: { ...rig, solver } };
      useEditor.setState({ creature: { id: Math.random() } as never, document: doc as never });
      return doc.rig;
    };
    const rigid = open('rigid');
    useSolver.setState({ solver: 'articulated' });
    const src = previewSource(rigid)!;
    expect(src.particles).toBeUndefined();
    expect((src.rig as RigDocument).solver).toBe('articulated');
    expect({ ...(src.rig as RigDocument), solver: 'rigid' }).toEqual(rigid); // nothing else changes
    expect(previewSource(rigid)!.key).toBe(src.key);
    const articulated = open('articulated');
    expect(useSolver.getState().solver).toBe('articulated');
    useSolver.setState({ solver: 'rigid' });
    expect((previewSource(articulated)!.rig as RigDocument).solver).toBe('rigid');
  });
});
