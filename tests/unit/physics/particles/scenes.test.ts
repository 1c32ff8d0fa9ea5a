/** Example files, the scene format's validation, building from a skeleton / RigDocument, determinism. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildExamples, sceneText, skeletonFromGlb } from '../../../../assets/examples/generate';
import {
  createParticleSimulation, loadParticleScene, ParticleSceneError, particleTraceColumns,
  particleTraceValues, type ParticleScene,
} from '../../../../shared/physics/particles';
import { createParticleSimulation as createFromRigOrScene, particleSceneFromRig } from '../../../../shared/runtime/particles';
import { loadRig } from '../../../../shared/rig';
import { boneLengthErrors, EXAMPLES, exampleNames, loadExample, pos, simOf } from './helpers';

const CREATURES = join(EXAMPLES, '../creatures');

describe('example scenes', () => {
  it('are up to date with assets/examples/generate.ts', () => {
    const glb = join(CREATURES, 'humanoid.glb');
    const built = buildExamples(skeletonFromGlb(readFileSync(glb), glb));
    expect(Object.keys(built).sort()).toEqual([...exampleNames].sort());
    for (const [name, scene] of Object.entries(built)) expect(readFileSync(join(EXAMPLES, `${name}.json`), 'utf8')).toBe(sceneText(scene));
  });

  it.each(exampleNames)('%s loads and runs 10 s without NaN, every frame trace-shaped', (name) => {
    const sim = simOf(loadExample(name));
    const steps = Math.round(10 / sim.dt);
    for (let i = 0; i < steps; i++) sim.step();
    expect(sim.positions.every(Number.isFinite)).toBe(true);
    const frame = sim.frame();
    expect(frame.t).toBeCloseTo(10, 9);
    expect(Object.keys(frame.particles)).toEqual(sim.particleNames);
    expect(frame).toMatchObject({ bodies: {}, joints: {}, controllers: {} });
    for (const p of Object.values(frame.particles)) expect(p).toHaveLength(3);
    const cols = particleTraceColumns(frame), vals = particleTraceValues(frame);
    expect(cols).toHaveLength(3 * sim.particleNames.length);
    expect(cols.slice(0, 3)).toEqual([`${sim.particleNames[0]}.x`, `${sim.particleNames[0]}.y`, `${sim.particleNames[0]}.z`]);
    expect(vals.slice(3, 6)).toEqual(frame.particles[sim.particleNames[1]!]);
  });

  it('the ragdoll falls, lands on the floor, keeps its bones (median error < 0.1 %) and ends at rest', () => {
    const sim = simOf(loadExample('ragdoll'));
    const errors: number[] = [];
    let lowest = Infinity;
    for (let i = 0; i < Math.round(10 / sim.dt); i++) {
      sim.step();
      errors.push(boneLengthErrors(sim));
      for (let p = 0; p < sim.particleNames.length; p++) lowest = Math.min(lowest, sim.positions[3 * p + 1]!);
    }
    errors.sort((a, b) => a - b);
    expect(errors[errors.length >> 1]).toBeLessThan(1e-3);
    expect(lowest).toBeGreaterThan(-0.005); // nothing sinks through the floor
    expect(pos(sim, 'pelvis')[1]).toBeLessThan(0.4); // it fell down
    expect(sim.energy().kinetic).toBeLessThan(1); // and came to rest
  });
});

describe('scene validation', () => {
  const good = (): ParticleScene => JSON.parse(JSON.stringify(loadExample('double-pendulum-170')));
  const fails = (scene: unknown, pattern: RegExp) => {
    expect(() => loadParticleScene(scene, 'demo.json')).toThrow(ParticleSceneError);
    expect(() => loadParticleScene(scene, 'demo.json')).toThrow(pattern);
  };

  it('names the file, the field and the reason', () => {
    const s1 = good(); s1.bones[1]!.tip = 'hand';
    fails(s1, /demo\.json: bones\[1\]\.tip: names particle "hand", which is not in `particles`/);
    const s2 = good(); (s2.constraints[1] as { min: number }).min = 4;
    fails(s2, /constraints\[1\]\.min: is 4 rad, more than max/);
    const s3 = good(); s3.particles[0]!.mass = -1;
    fails(s3, /particles\[0\]\.mass/);
    const s4 = good(); s4.constraints.push({ type: 'twist', parent: 'upper', child: 'lower', min: -1, max: 1 });
    fails(s4, /bone "upper" has no frame particle/);
    const s5 = good(); s5.bones[1]!.head = 'end'; s5.bones[1]!.tip = 'elbow';
    fails(s5, /must start \(head "end"\) at a particle of bone "upper"/);
    fails('{ not json', /demo\.json: is not valid JSON/);
    fails({ ...good(), format: 'marionette-rig' }, /format: must be "marionette-particles"/);
    fails({ ...good(), version: 2 }, /version: is 2, newer than this program reads/);
    const s6 = good(); s6.particles.push({ ...s6.particles[0]! });
    fails(s6, /particles\[3\]\.name: "pin" is used by an earlier particle/);
  });

  it('lists every problem at once', () => {
    const s = good(); s.bones[0]!.head = 'nowhere'; s.bones[1]!.tip = 'nothing';
    try { loadParticleScene(s); expect.unreachable(); } catch (e) {
      expect((e as ParticleSceneError).problems.length).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('one creature, either solver', () => {
  it('builds the Armed Mine rig as particles (limits from its joints) and runs it', () => {
    const rig = loadRig(readFileSync(join(CREATURES, 'armed-mine.rig.json'), 'utf8'));
    const scene = particleSceneFromRig(rig);
    expect(() => loadParticleScene(scene)).not.toThrow(); // the builder's output passes validation
    expect(scene.bones.map((b) => b.name).sort()).toEqual(rig.skeleton.bones.map((b) => b.name).sort());
    const jointTypes = new Set(rig.joints.map((j) => j.type));
    if (jointTypes.has('hinge')) expect(scene.constraints.some((c) => c.type === 'hinge')).toBe(true);
    const sim = createFromRigOrScene(rig); // the runtime's (the package's) entry accepts a RigDocument directly
    // The solver's own entry takes scenes only, and says what to do with a rig.
    expect(() => createParticleSimulation(rig, 'armed-mine.rig.json')).toThrow(/armed-mine\.rig\.json: format: must be "marionette-particles" \(this is not a particle scene; it is a rig: build its scene with particleSceneFromRig/);
    for (let i = 0; i < Math.round(2 / sim.dt); i++) sim.step();
    expect(sim.positions.every(Number.isFinite)).toBe(true);
    expect(scene.settings.dt).toBe(rig.simulation.dt);
  });

  it('runs the shipped humanoid rig under the particle solver: it falls limp onto the floor and settles', () => {
    const rig = loadRig(readFileSync(join(CREATURES, 'humanoid.rig.json'), 'utf8'));
    const sim = createFromRigOrScene(rig);
    expect(sim.boneNames).toHaveLength(rig.skeleton.bones.length);
    const pelvis0 = pos(sim, 'pelvis')[1];
    for (let i = 0; i < Math.round(5 / sim.dt); i++) sim.step();
    expect(sim.positions.every(Number.isFinite)).toBe(true);
    expect(pos(sim, 'pelvis')[1]).toBeLessThan(pelvis0 - 0.3); // no motors: it collapses
    expect(sim.energy().kinetic).toBeLessThan(1);
    expect(boneLengthErrors(sim)).toBeLessThan(5e-3);
  });

  it('puts a particle at every bone head of the humanoid skeleton and a tip on each leaf', () => {
    const scene = loadExample('ragdoll');
    const glb = join(CREATURES, 'humanoid.glb');
    const bones = skeletonFromGlb(readFileSync(glb), glb);
    for (const b of bones) expect(scene.particles.some((p) => p.name === b.name)).toBe(true);
    const leaves = bones.filter((b) => !bones.some((c) => c.parent === b.name));
    for (const l of leaves) expect(scene.particles.some((p) => p.name === `${l.name}_tip`)).toBe(true);
    const total = scene.particles.reduce((s, p) => s + p.mass, 0);
    expect(total).toBeCloseTo(71, 6); // the 13 bone masses, each split 3/8 + 3/8 + 1/4
  });
});

describe('determinism and snapshots', () => {
  it('the same scene gives bit-identical frames; restore + re-simulate reproduces them', () => {
    const a = simOf(loadExample('ragdoll')), b = simOf(loadExample('ragdoll'));
    let snap = a.snapshot();
    const frames: number[][] = [];
    for (let i = 0; i < 240; i++) {
      a.step(); b.step();
      if (i === 99) snap = a.snapshot();
      if (i >= 100) frames.push(Array.from(a.positions));
    }
    expect(Array.from(a.positions)).toEqual(Array.from(b.positions));
    a.restore(snap);
    for (let i = 100; i < 240; i++) { a.step(); expect(Array.from(a.positions)).toEqual(frames[i - 100]); }
  });
});
