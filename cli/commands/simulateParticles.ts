/**
 * `marionette simulate` for the particle solver (shared/physics/particles, docs/particles.md): particle
 * scenes ("marionette-particles", e.g. assets/examples/*.json) and rigs whose `solver` is "particle".
 * simulate.ts hands a file over when isParticleInput says so; the options mean the same as for rigid rigs.
 *
 * Summary figures:
 *   distance — path length (m, sum of per-step displacements) and net displacement of the root particle:
 *              the head of the rig root body's bone for a rig, the first non-pinned particle of a scene;
 *   max length error — the largest |‖tip − head‖ − L| / L of any bone after any step (%), L its rest length;
 *   energy — kinetic + gravitational potential at the start and the end (J), the scene's own definition;
 *   penetration — the deepest bone–bone capsule overlap seen after any step (m);
 *   clicks — the scene's scheduled impulses plus --impulse ones.
 * Trace: JSON {"rig","solver":"particle","dt","frames":[{t,bodies:{},joints:{},controllers:{},particles:{NAME:[x,y,z]}}]};
 * CSV: `t` then NAME.x, NAME.y, NAME.z per particle.
 */
import { writeFileSync } from 'node:fs';
import {
  particleTraceColumns, particleTraceValues, ParticleSceneError, PARTICLE_SCENE_FORMAT,
  type ParticleSimulation, type ParticleTraceFrame,
} from '../../shared/physics/particles';
import { createParticleSimulation } from '../../shared/runtime/particles';
import { formatProblem, validateRig, type RigDocument } from '../../shared/rig';
import { csvHeader, traceColumns, traceRow } from '../../shared/runtime/trace';
import { parseNumber, parseVec3 } from '../args';
import { EXIT_INVALID, EXIT_OK, UsageError, type CliIO } from '../io';

/** What simulate.ts has parsed already. */
export interface ParticleRunOptions {
  file: string;
  text: string;
  seconds: number;
  dt: number | undefined;
  every: number;
  out: string | undefined;
  impulses: readonly string[];
  limp: readonly string[];
  target: readonly number[] | null;
  skipControllers: boolean;
  quiet: boolean;
}

/** The parsed JSON's format: a particle scene, or a rig meant for the particle solver. Anything else
 *  (including text that is not JSON) is left to the rigid path and its messages. */
export function isParticleInput(text: string): boolean {
  let v: unknown;
  try { v = JSON.parse(text); } catch { return false; }
  if (typeof v !== 'object' || v === null) return false;
  const o = v as { format?: unknown; solver?: unknown };
  return o.format === PARTICLE_SCENE_FORMAT || (o.format === 'marionette-rig' && o.solver === 'particle');
}

interface Click { step: number; bone: number; impulse: [number, number, number]; spec: string }

export function simulateParticles(o: ParticleRunOptions, io: CliIO): number {
  if (o.limp.length > 0) throw new UsageError('--limp: the particle solver has no motors (a particle ragdoll is always limp)');
  if (o.target) throw new UsageError('--target: the particle solver has no controllers to steer');

  let rig: RigDocument | null = null;
  let input: unknown = o.text;
  const parsed = JSON.parse(o.text) as { format?: unknown };
  if (parsed.format === 'marionette-rig') {
    const v = validateRig(o.text);
    if (!v.ok) {
      io.err(`${o.file}: invalid rig (${v.problems.length} problem${v.problems.length === 1 ? '' : 's'}); run \`marionette validate ${o.file}\`\n${v.problems.slice(0, 20).map((p) => `  ${formatProblem(p)}\n`).join('')}`);
      return EXIT_INVALID;
    }
    rig = o.dt === undefined ? v.rig : { ...v.rig, simulation: { ...v.rig.simulation, dt: o.dt } };
    input = rig;
  } else if (o.dt !== undefined) {
    const scene = parsed as { settings?: Record<string, unknown> };
    input = { ...scene, settings: { ...scene.settings, dt: o.dt } };
  }

  let sim: ParticleSimulation;
  try {
    sim = createParticleSimulation(input, o.file);
  } catch (e) {
    const message = (e as Error).message;
    io.err(e instanceof ParticleSceneError ? `${message}\n` : `${o.file}: ${message}\n`);
    return EXIT_INVALID;
  }

  const dt = sim.dt;
  const steps = Math.max(1, Math.round(o.seconds / dt));
  const segments = new Float64Array(6 * sim.boneNames.length);
  const clicks = o.impulses.map((s) => parseClick(s, sim, rig, dt)).sort((a, b) => a.step - b.step);
  const root = rootParticle(sim, rig);
  const frames: ParticleTraceFrame[] = [];
  let path = 0, maxLengthError = 0, maxLengthBone = '', maxPenetration = 0;
  const start = position(sim, root);
  let prev = start;
  const e0 = sim.energy().total;
  let nextClick = 0;

  for (let s = 0; s < steps; s++) {
    while (nextClick < clicks.length && clicks[nextClick]!.step === s) {
      const c = clicks[nextClick++]!;
      // The bone's midpoint: the impulse splits evenly between its ends (the lever rule at the centre).
      sim.writeBoneSegments(segments);
      const k = 6 * c.bone;
      const mid: [number, number, number] = [0.5 * (segments[k]! + segments[k + 3]!), 0.5 * (segments[k + 1]! + segments[k + 4]!), 0.5 * (segments[k + 2]! + segments[k + 5]!)];
      sim.applyImpulse(c.bone, mid, c.impulse);
    }
    sim.step();
    const p = position(sim, root);
    path += Math.hypot(p[0] - prev[0], p[1] - prev[1], p[2] - prev[2]);
    prev = p;
    sim.writeBoneSegments(segments);
    for (let b = 0; b < sim.boneNames.length; b++) {
      const k = 6 * b, L = sim.boneLengths[b]!;
      const err = Math.abs(Math.hypot(segments[k + 3]! - segments[k]!, segments[k + 4]! - segments[k + 1]!, segments[k + 5]! - segments[k + 2]!) - L) / L;
      if (err > maxLengthError) { maxLengthError = err; maxLengthBone = sim.boneNames[b]!; }
    }
    maxPenetration = Math.max(maxPenetration, sim.maxPenetration());
    if (o.out !== undefined && (s + 1) % o.every === 0) frames.push(sim.frame());
  }
  if (!sim.positions.every(Number.isFinite)) {
    io.err(`${o.file}: the particle simulation produced non-finite positions by t = ${fmt(sim.time, 4)} s\n`);
    return EXIT_INVALID;
  }
  if (o.out !== undefined) writeParticleTrace(o.out, sim.scene.name, dt * o.every, frames);

  if (!o.quiet) {
    const e1 = sim.energy().total;
    const net = position(sim, root);
    const scheduled = sim.scene.impulses.filter((i) => i.time <= sim.time + 1e-9).length;
    const lines = [
      `${o.file}: particle ${rig ? 'rig' : 'scene'} "${sim.scene.name}", ${steps} steps of ${fmt(dt * 1000, 4)} ms = ${fmt(sim.time, 4)} s (${sim.particleNames.length} particles, ${sim.boneNames.length} bones, ${sim.scene.settings.iterations} iterations)${o.out ? `, trace → ${o.out} (${frames.length} frames)` : ''}`,
      `  root particle "${sim.particleNames[root]}": travelled ${fmt(path, 4)} m (net ${fmt(Math.hypot(net[0] - start[0], net[1] - start[1], net[2] - start[2]), 4)} m), mean speed ${fmt(sim.time > 0 ? path / sim.time : 0, 4)} m/s`,
      `  max length error ${fmt(100 * maxLengthError, 3)}%${maxLengthBone ? ` (bone "${maxLengthBone}")` : ''}`,
      `  energy ${fmt(e0, 5)} J → ${fmt(e1, 5)} J; deepest bone overlap ${fmt(maxPenetration * 1000, 3)} mm`,
      `  clicks: ${scheduled} scheduled by the ${rig ? 'rig' : 'scene'}, ${clicks.length} from --impulse`,
    ];
    io.out(`${lines.join('\n')}\n`);
  }
  return EXIT_OK;
}

export function writeParticleTrace(path: string, name: string, dt: number, frames: ParticleTraceFrame[]): void {
  if (/\.csv$/i.test(path)) {
    const lines = frames.length > 0
      ? [csvHeader([...traceColumns(frames[0]!), ...particleTraceColumns(frames[0]!)]), ...frames.map((f) => `${traceRow(f)},${particleTraceValues(f).join(',')}`)]
      : ['t'];
    writeFileSync(path, `${lines.join('\n')}\n`);
  } else {
    // One frame per line, as the rigid trace.
    const body = frames.map((f) => JSON.stringify(f)).join(',\n');
    writeFileSync(path, `{"rig":${JSON.stringify(name)},"solver":"particle","dt":${dt},"frames":[\n${body}\n]}\n`);
  }
}

/** BONE@T:x,y,z; for a rig, BONE may also name a body (its bone takes the impulse). */
function parseClick(spec: string, sim: ParticleSimulation, rig: RigDocument | null, dt: number): Click {
  const m = /^([^@]+)@([^:]+):(.*)$/.exec(spec);
  if (!m) throw new UsageError(`--impulse must look like BONE@T:x,y,z, got "${spec}"`);
  const t = parseNumber(m[2], '--impulse time', (x) => x >= 0, 'a time ≥ 0 in seconds')!;
  const name = m[1]!;
  const bone = sim.boneNames.includes(name) ? name : rig?.bodies.find((b) => b.name === name)?.bone;
  if (bone === undefined || !sim.boneNames.includes(bone)) {
    throw new UsageError(`--impulse: "${sim.scene.name}" has no bone "${name}" (bones: ${sim.boneNames.join(', ')})`);
  }
  return { step: Math.round(t / dt), bone: sim.boneIndex(bone), impulse: parseVec3(m[3]!, '--impulse vector'), spec };
}

/** The particle whose travel the summary reports. */
function rootParticle(sim: ParticleSimulation, rig: RigDocument | null): number {
  if (rig) {
    const children = new Set(rig.joints.map((j) => j.bodyB));
    const body = rig.controllers[0]?.root ?? rig.bodies.find((b) => b.type === 'dynamic' && !children.has(b.name))?.name;
    const bone = rig.bodies.find((b) => b.name === body)?.bone;
    const i = bone === undefined ? -1 : sim.particleNames.indexOf(bone);
    if (i >= 0) return i;
  }
  const pinned = new Set(sim.scene.constraints.flatMap((c) => (c.type === 'fixed' ? [c.particle] : [])));
  const i = sim.particleNames.findIndex((n) => !pinned.has(n));
  return i >= 0 ? i : 0;
}

const position = (sim: ParticleSimulation, i: number): [number, number, number] =>
  [sim.positions[3 * i]!, sim.positions[3 * i + 1]!, sim.positions[3 * i + 2]!];

const fmt = (x: number, digits: number) => Number(x.toPrecision(digits)).toString();

/** `marionette validate` on a particle scene: the particle loader's checks (schema + names, frames,
 *  ranges), so a scene is not reported against the rig format it does not follow. */
export function validateParticleScene(text: string, file: string): { ok: true; summary: string } | { ok: false; problems: { path: string; message: string }[] } {
  try {
    const sim = createParticleSimulation(text, file);
    const s = sim.scene;
    return { ok: true, summary: `particle scene "${s.name}", ${s.particles.length} particles, ${s.bones.length} bones, ${s.constraints.length} constraints, ${s.impulses.length} scheduled clicks` };
  } catch (e) {
    if (e instanceof ParticleSceneError) return { ok: false, problems: e.problems };
    return { ok: false, problems: [{ path: '', message: (e as Error).message }] };
  }
}

/** Whether the text is a particle scene (its format says so), whatever else is wrong with it. */
export function isParticleScene(text: string): boolean {
  try { return (JSON.parse(text) as { format?: unknown } | null)?.format === PARTICLE_SCENE_FORMAT; } catch { return false; }
}
