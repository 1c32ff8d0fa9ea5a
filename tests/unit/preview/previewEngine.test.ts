/**
 * The preview engine (shared/preview/engine.ts), headless, on the shipped Armed Mine: the recording is a pure
 * function of (rig, inputs), so re-simulating from a snapshot after a scrub or an input edit reproduces
 * the frames bit for bit, and inputs act exactly at their frame.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig } from '../../../shared/rig';
import { PreviewEngine, SNAPSHOT_EVERY, type PreviewInput } from '../../../shared/preview/engine';
import { RigPoser } from '../../../shared/preview/rigPose';
import { World } from '../../../shared/physics/world';

const path = new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url);
const rig = loadRig(JSON.parse(readFileSync(path, 'utf8')), { source: 'armed-mine.rig.json' });

const bodyY = (e: PreviewEngine, f: number, body = 'body') => e.recorder.frame(f).bodies[body]!.p[1]!;

describe('PreviewEngine', () => {
  it('records frame 0 at the rest pose and one frame per step after it', () => {
    const e = new PreviewEngine(rig);
    expect(e.length).toBe(1);
    expect(e.advance(10)).toBe(10);
    expect(e.length).toBe(11);
    expect(e.recorder.frame(10).t).toBeCloseTo(10 * rig.simulation.dt, 12);
  });

  it('re-simulates from the snapshot before a new input and reproduces the untouched frames bit for bit', () => {
    const e = new PreviewEngine(rig);
    e.advance(150);
    const before = e.slice(0, 151).frames;
    const len = e.setInputs([{ kind: 'impulse', frame: 100, body: 'body', point: [0, 0.3, 0], impulse: [40, 0, 0] }]);
    // Truncated to the snapshot at or before frame 100.
    expect(len).toBe(100 - (100 % SNAPSHOT_EVERY) + 1);
    e.advance(151 - len);
    const after = e.slice(0, 151).frames;
    const size = e.frameSize;
    // Frames up to the input's frame (inclusive) are the same numbers; the impulse changes frame 101 on.
    expect(Array.from(after.subarray(0, 101 * size))).toEqual(Array.from(before.subarray(0, 101 * size)));
    const vx = (frames: Float64Array, f: number) => frames[f * size + 1 + 7]!; // body v.x
    expect(vx(after, 101) - vx(before, 101)).toBeGreaterThan(0.5);
    // Removing the input again gives back the original recording exactly.
    e.setInputs([]);
    e.advance(151 - e.length);
    expect(Array.from(e.slice(0, 151).frames)).toEqual(Array.from(before));
  });

  it('a rebuilt engine with the same inputs gives the same frames (determinism)', () => {
    const inputs = [
      { kind: 'blast', frame: 20, center: [0.3, 0, 0.2], radius: 2, strength: 30 },
      { kind: 'limp', frame: 40, joints: 'all', limp: true },
    ] as const;
    const a = new PreviewEngine(rig), b = new PreviewEngine(rig);
    a.setInputs(inputs.map((i) => ({ ...i })) as never); b.setInputs(inputs.map((i) => ({ ...i })) as never);
    a.advance(80); b.advance(80);
    expect(Array.from(a.slice(0, 81).frames)).toEqual(Array.from(b.slice(0, 81).frames));
  });

  it('going limp switches the motors off in the aux record and carries the last two transforms\' velocity over', () => {
    const e = new PreviewEngine(rig);
    e.setInputs([{ kind: 'limp', frame: 60, joints: ['elbow'], limp: true }]);
    e.advance(70);
    const a = e.aux, aux = e.slice(0, 71).aux;
    const elbow = rig.joints.findIndex((j) => j.name === 'elbow');
    expect(aux[60 * a.size + a.motors + elbow]).toBe(1);
    expect(aux[61 * a.size + a.motors + elbow]).toBe(0);
    expect(aux[61 * a.size + a.motors + 0]).toBe(1);
    // Limp motors report no torque after the switch.
    expect(Math.abs(e.recorder.frame(65).joints.elbow!.torque)).toBeLessThan(1e-9);
  });

  it('a grab spring lifts the body toward the target and lets go on release', () => {
    const e = new PreviewEngine(rig);
    e.advance(30);
    const p = e.recorder.frame(30).bodies.body!.p as [number, number, number];
    e.setInputs([
      { kind: 'grab', frame: 30, body: 'body', point: [p[0], p[1], p[2]] },
      { kind: 'grabMove', frame: 31, target: [p[0], p[1] + 0.5, p[2]] },
      { kind: 'release', frame: 120 },
    ]);
    e.advance(200 - e.length);
    expect(bodyY(e, 110) - p[1]).toBeGreaterThan(0.25);
    // Released: it falls back under 10 cm of where it started.
    expect(bodyY(e, 199) - p[1]).toBeLessThan(0.1);
    // The aux record shows the spring while held.
    expect(e.slice(100, 101).aux[e.aux.grab]).toBe(1);
    expect(e.slice(150, 151).aux[e.aux.grab]).toBe(0);
  });

  it('steering keys switch the target at their frame', () => {
    const e = new PreviewEngine(rig);
    e.setInputs([{ kind: 'target', frame: 10, target: [5, 0, 0] }]);
    e.advance(20);
    const aux = e.slice(0, 20).aux, a = e.aux;
    expect(Array.from(aux.subarray(9 * a.size, 9 * a.size + 4))).toEqual([0, 0, 5, 1]);
    expect(Array.from(aux.subarray(10 * a.size, 10 * a.size + 4))).toEqual([5, 0, 0, 1]);
  });

  it('re-simulating from a snapshot after an input edit gives the state of a straight run with those inputs (within 1e-12)', () => {
    // Limp, grab and drag before the edit: the rewind must re-derive the motor switches and the grab
    // spring at the snapshot (motorsBefore, grabStateBefore), which only the inputs and the recording know.
    const early: PreviewInput[] = [
      { kind: 'limp', frame: 35, joints: ['elbow'], limp: true },
      { kind: 'grab', frame: 45, body: 'body', point: [0, 0.2, 0] },
      { kind: 'grabMove', frame: 50, target: [0.1, 0.6, 0] },
      { kind: 'target', frame: 55, target: [3, 0, 1] },
    ];
    const late: PreviewInput = { kind: 'impulse', frame: 75, body: 'body', point: [0, 0.3, 0], impulse: [0, 0, 25] };
    const edited = new PreviewEngine(rig);
    edited.setInputs(early);
    edited.advance(140);
    const len = edited.setInputs([...early, late]);
    expect(len).toBe(75 - (75 % SNAPSHOT_EVERY) + 1); // cut back to the snapshot at frame 60
    edited.advance(141 - len);

    const straight = new PreviewEngine(rig);
    straight.setInputs([...early, late]);
    straight.advance(140);

    expect(edited.length).toBe(141);
    expect(straight.length).toBe(141);
    const a = edited.slice(0, 141), b = straight.slice(0, 141);
    let worst = 0;
    for (let i = 0; i < a.frames.length; i++) worst = Math.max(worst, Math.abs(a.frames[i]! - b.frames[i]!));
    expect(worst).toBeLessThanOrEqual(1e-12);
    // The overlays' records too (grab spring, motor switches, joint angles, contacts); NaN where both are NaN.
    for (let i = 0; i < a.aux.length; i++) {
      const x = a.aux[i]!, y = b.aux[i]!;
      if (Number.isNaN(x) || Number.isNaN(y)) expect(Number.isNaN(x) && Number.isNaN(y), `aux[${i}]`).toBe(true);
      else expect(Math.abs(x - y), `aux[${i}]`).toBeLessThanOrEqual(1e-12);
    }
    // The edit did act: the late impulse moved the body sideways.
    const withoutLate = new PreviewEngine(rig);
    withoutLate.setInputs(early);
    withoutLate.advance(140);
    expect(Math.abs(straight.recorder.frame(80).bodies.body!.v[2]! - withoutLate.recorder.frame(80).bodies.body!.v[2]!)).toBeGreaterThan(0.1);
  });

  it('an input at frame N leaves frames 0 … N untouched and changes N + 1 (the step N → N + 1 is the first to feel it)', () => {
    const plain = new PreviewEngine(rig), kicked = new PreviewEngine(rig);
    kicked.setInputs([{ kind: 'impulse', frame: 42, body: 'body', point: [0, 0.3, 0], impulse: [30, 0, 0] }]);
    plain.advance(45); kicked.advance(45);
    const size = plain.frameSize, p = plain.slice(0, 46).frames, k = kicked.slice(0, 46).frames;
    expect(Array.from(k.subarray(0, 43 * size))).toEqual(Array.from(p.subarray(0, 43 * size)));
    const vx = (frames: Float64Array, f: number) => frames[f * size + 1 + 7]!;
    expect(vx(k, 43) - vx(p, 43)).toBeGreaterThan(0.5);
  });

  it('reads and writes the world only through the Simulation: World.addBody / addJoint are not patched', () => {
    const e = new PreviewEngine(rig);
    const world = e.sim.world as World;
    expect(world).toBeInstanceOf(World);
    expect(Object.prototype.hasOwnProperty.call(world, 'addBody')).toBe(false);
    expect(Object.prototype.hasOwnProperty.call(world, 'addJoint')).toBe(false);
    // Every rig body and joint reachable by name, as the engine's interactions need.
    for (const b of rig.bodies) expect(e.sim.bodyName(e.sim.bodyHandle(b.name))).toBe(b.name);
    for (const j of rig.joints) expect(typeof e.sim.jointHandle(j.name)).toBe('number');
  });
});

describe('RigPoser (the client\'s read-out of recorded frames)', () => {
  it('poses a never-stepped simulation from a recorded frame: bones as the running simulation has them, rays hit bodies', () => {
    const e = new PreviewEngine(rig);
    e.advance(90);
    const poser = new RigPoser(rig);
    expect(poser.boneNames).toEqual(e.sim.boneNames);
    const fromFrame = new Float64Array(7 * poser.boneNames.length), live = new Float64Array(7 * poser.boneNames.length);
    poser.writeBoneWorld(e.recorder.layout, e.slice(90, 91).frames, fromFrame);
    e.sim.writeBonePoses(live, 'world'); // the engine's simulation stands at frame 90
    for (let i = 0; i < live.length; i++) expect(Math.abs(fromFrame[i]! - live[i]!), `bone pose number ${i}`).toBeLessThanOrEqual(1e-12);

    // Straight down onto the body from 2 m above it: the hit names the body and lies below the ray's start.
    const p = e.recorder.frame(90).bodies.body!.p;
    const hit = poser.pick([p[0]!, p[1]! + 2, p[2]!], [0, -1, 0], 10);
    expect(hit?.body).toBe('body');
    expect(hit!.distance).toBeGreaterThan(1);
    expect(hit!.distance).toBeLessThan(2);
    expect(poser.pick([p[0]!, p[1]! + 2, p[2]!], [0, 1, 0], 10)).toBeNull();
    expect(poser.massOf('body')!.mass).toBe(e.sim.world.getMassProperties(e.sim.bodyHandle('body')).mass);
    expect(poser.massOf('no such body')).toBeNull();
  });
});
