/**
 * marionette simulate <rig.json> --seconds S … — run a rig headless and write its trace (docs/runtime.md).
 * Summary figures:
 *   distance — the root body's path length (m, sum of per-step displacements) and its net displacement;
 *   mean speed — path length / simulated time (m/s);
 *   max joint error — the largest anchor separation (m) any joint had after any step;
 *   saturation — % of (powered joint, step) pairs whose motor ended the step at its torque limit.
 * The root is the first controller's root body, else the first dynamic body no joint holds as a child.
 */
import { writeFileSync } from 'node:fs';
import { distance, type Vec3 } from '../../shared/math/vec3';
import { formatProblem, validateRig, type RigDocument } from '../../shared/rig';
import { createSimulation, csvHeader, FrameRecorder, traceColumns, traceRow, type Simulation } from '../../shared/index';
import type { SimulationSolver } from '../../shared/runtime';
import { BODY_STRIDE, JOINT_STRIDE } from '../../shared/runtime/trace';
import { parse, parseNumber, parseVec3, str, strs } from '../args';
import { readTextFile } from '../files';
import { EXIT_INVALID, EXIT_OK, UsageError, type CliIO } from '../io';
import { isParticleInput, simulateParticles } from './simulateParticles';

export const summary = 'run a rig headless; write its trace (JSON or CSV) and print a summary';

export const help = `Usage: marionette simulate <rig.json> --seconds S [options]

Runs the rig with the Marionette runtime, exactly as a game would, for S
seconds of simulated time, and prints a summary: distance travelled by the
root body, mean speed, max joint error, motor saturation.

Rigs run under the solver their "solver" field names (rigid, articulated or
particle); --solver overrides it. rigid: maximal coordinates, sequential
impulses; articulated: joint coordinates (Featherstone's articulated-body
method; the joints must form a tree; joints cannot come apart); same trace.
Particle scenes (format "marionette-particles", e.g. assets/examples/*.json)
and rigs run with the particle solver run under the particle solver: the trace
frames carry "particles": {NAME: [x,y,z]} (CSV: NAME.x, NAME.y, NAME.z), an
--impulse BONE@T:x,y,z acts at the bone's midpoint, and the summary gives the
root particle's travel, the max bone length error, energy and overlap.

Options:
  --seconds S             simulated time (s), required
  --dt DT                 override the rig's fixed step (s)
  --solver S              rigid, articulated or particle: override the rig's solver
  --every K               record every K-th step in the trace (default 1)
  --target x,y,z          steering target (m, world) for the controllers
  --impulse BODY@T:x,y,z  apply an impulse (N·s, world) to BODY at time T (s); repeatable
  --limp JOINT@T          switch JOINT's motor off at time T (s); JOINT * = all joints; repeatable
  --out FILE              write the trace: FILE.json (trace format) or FILE.csv (same columns, flat)
  --skip-controllers      run without controllers whose type has no implementation loaded
  --quiet                 print nothing but errors
  -h, --help              show this help

Times are rounded to the nearest step. The trace format is documented in
docs/runtime.md: {"rig","dt","frames":[{"t","bodies","joints","controllers"}]}.
Exit status: 0 ran, 1 the rig is invalid or the simulation blew up, 2 usage error.
`;

interface Event { step: number; apply(sim: Simulation): void; describe: string }

type Solver = 'rigid' | 'articulated' | 'particle';
const SOLVERS: readonly Solver[] = ['rigid', 'articulated', 'particle'];

function isRigText(text: string): boolean {
  try { return (JSON.parse(text) as { format?: unknown }).format === 'marionette-rig'; } catch { return false; }
}

export function run(argv: string[], io: CliIO): number {
  const { values, positionals } = parse(argv, {
    seconds: { type: 'string' }, dt: { type: 'string' }, every: { type: 'string' }, target: { type: 'string' },
    impulse: { type: 'string', multiple: true }, limp: { type: 'string', multiple: true }, out: { type: 'string', short: 'o' },
    'skip-controllers': { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' }, solver: { type: 'string' },
  });
  if (values.help) { io.out(help); return EXIT_OK; }
  if (positionals.length !== 1) throw new UsageError(`simulate takes one rig file, got ${positionals.length}`);
  const seconds = parseNumber(str(values.seconds), '--seconds', (x) => x > 0 && x <= 1e6, 'a positive number of seconds');
  if (seconds === undefined) throw new UsageError('simulate needs --seconds S');
  const dtOverride = parseNumber(str(values.dt), '--dt', (x) => x > 0 && x <= 0.1, 'a step in (0, 0.1] seconds');
  const every = parseNumber(str(values.every), '--every', (x) => Number.isInteger(x) && x >= 1, 'a positive integer') ?? 1;
  const out = str(values.out);
  if (out !== undefined && !/\.(json|csv)$/i.test(out)) throw new UsageError(`--out must end in .json or .csv, got "${out}"`);
  const target = str(values.target) === undefined ? null : parseVec3(str(values.target)!, '--target');
  const solver = str(values.solver);
  if (solver !== undefined && !SOLVERS.includes(solver as Solver)) throw new UsageError(`--solver must be one of ${SOLVERS.join(', ')}, got "${solver}"`);

  const file = positionals[0]!;
  const read = readTextFile(file);
  if (!read.ok) { io.err(`${file}: ${read.message}\n`); return EXIT_INVALID; }
  // Particle scenes and rigs meant for the particle solver (docs/particles.md) run in simulateParticles.ts.
  const particleScene = isParticleInput(read.text) && !isRigText(read.text);
  if (particleScene && solver !== undefined && solver !== 'particle') throw new UsageError(`--solver ${solver}: ${file} is a particle scene, which runs under the particle solver only`);
  if (particleScene || solver === 'particle' || (solver === undefined && isParticleInput(read.text))) {
    return simulateParticles({
      file, text: read.text, seconds, dt: dtOverride, every, out, impulses: strs(values.impulse), limp: strs(values.limp), target,
      skipControllers: !!values['skip-controllers'], quiet: !!values.quiet,
    }, io);
  }
  const result = validateRig(read.text);
  if (!result.ok) {
    io.err(`${file}: invalid rig (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}); run \`marionette validate ${file}\`\n${result.problems.slice(0, 20).map((p) => `  ${formatProblem(p)}\n`).join('')}`);
    return EXIT_INVALID;
  }
  const rig: RigDocument = dtOverride === undefined ? result.rig : { ...result.rig, simulation: { ...result.rig.simulation, dt: dtOverride } };
  const dt = rig.simulation.dt;
  const steps = Math.max(1, Math.round(seconds / dt));
  const events = [
    ...strs(values.impulse).map((s) => impulseEvent(s, rig, dt)),
    ...strs(values.limp).map((s) => limpEvent(s, rig, dt)),
  ].sort((a, b) => a.step - b.step);

  let sim: Simulation;
  try {
    sim = createSimulation(rig, { missingControllers: values['skip-controllers'] ? 'skip' : 'error', ...(solver ? { solver: solver as SimulationSolver } : {}) });
  } catch (e) {
    io.err(`${file}: ${(e as Error).message}${/no implementation/.test((e as Error).message) ? ' (or pass --skip-controllers)' : ''}\n`);
    return EXIT_INVALID;
  }
  if (target) sim.setTarget(target);

  const root = rootBody(rig);
  // Every step's state goes through the flat frame (Simulation.writeFrame, no objects): the summary reads
  // it there, and the steps the trace keeps are recorded by a FrameRecorder, which builds the trace's
  // objects only when the file is written.
  const recorder = new FrameRecorder(sim, { capacity: out === undefined ? 1 : Math.max(1, Math.floor(steps / every)) });
  const { layout } = recorder;
  const flat = new Float64Array(recorder.frameSize);
  const rootAt = 1 + layout.bodies.indexOf(root) * BODY_STRIDE;
  if (rootAt < 1) throw new Error(`simulate: the root body "${root}" is not in the simulation's frame`);
  const jointsAt = 1 + layout.bodies.length * BODY_STRIDE;
  let path = 0, maxError = 0, maxErrorJoint = '', saturated = 0, powered = 0;
  const start = sim.bodyPose(root).position;
  let prev: Vec3 = [start[0], start[1], start[2]], cur: Vec3 = [0, 0, 0];
  const poweredJoints = new Set(rig.joints.filter((j) => j.type !== 'fixed' && j.motor.mode !== 'off').map((j) => j.name));
  const limped = new Set<string>();
  let nextEvent = 0;
  let lastProgress = Date.now();

  for (let s = 0; s < steps; s++) {
    while (nextEvent < events.length && events[nextEvent]!.step === s) {
      const ev = events[nextEvent++]!;
      ev.apply(sim);
      if (ev.describe.startsWith('limp ')) for (const n of ev.describe.slice(5).split(',')) limped.add(n);
    }
    sim.step();
    if (out !== undefined && (s + 1) % every === 0) recorder.read(recorder.record(), flat);
    else sim.writeFrame(flat, 0);
    cur[0] = flat[rootAt]!; cur[1] = flat[rootAt + 1]!; cur[2] = flat[rootAt + 2]!;
    path += distance(cur, prev);
    [prev, cur] = [cur, prev];
    layout.joints.forEach((name, j) => {
      // Flat joint block: error (m), torque, maxTorque, saturated (0/1).
      const error = flat[jointsAt + j * JOINT_STRIDE]!, isSaturated = flat[jointsAt + j * JOINT_STRIDE + 3] !== 0;
      if (error > maxError) { maxError = error; maxErrorJoint = name; }
      if (poweredJoints.has(name) && !limped.has(name) && !limped.has('*')) { powered++; if (isSaturated) saturated++; }
    });
    if (sim.blowUp) break;
    if (io.interactive && !values.quiet && Date.now() - lastProgress > 250) {
      lastProgress = Date.now();
      io.err(`\rsimulating ${file}: ${(sim.time).toFixed(2)} / ${(steps * dt).toFixed(2)} s`);
    }
  }
  if (io.interactive && !values.quiet && steps * dt > 0) io.err('\r\x1b[K');

  if (out !== undefined) writeTrace(out, rig.name, dt * every, recorder);

  const time = sim.time;
  const net = distance(sim.bodyPose(root).position, start);
  if (!values.quiet) {
    const lines = [
      `${file}: rig "${rig.name}" (${sim.solver} solver), ${sim.steps} steps of ${fmt(dt * 1000, 4)} ms = ${fmt(time, 4)} s${out ? `, trace → ${out} (${recorder.length} frames)` : ''}`,
      `  root "${root}": travelled ${fmt(path, 4)} m (net ${fmt(net, 4)} m), mean speed ${fmt(time > 0 ? path / time : 0, 4)} m/s`,
      `  max joint error ${fmt(maxError, 3)} m${maxErrorJoint ? ` (joint "${maxErrorJoint}")` : ''}`,
      `  motor saturation ${powered > 0 ? fmt((100 * saturated) / powered, 3) : '0'}% of powered joint-steps${powered === 0 ? ' (no powered joints)' : ''}`,
    ];
    io.out(`${lines.join('\n')}\n`);
  }
  if (sim.blowUp) {
    io.err(`${file}: the simulation blew up at t = ${fmt(sim.time, 4)} s (body "${sim.blowUp.body}": ${sim.blowUp.reason}); the trace stops there\n`);
    return EXIT_INVALID;
  }
  return EXIT_OK;
}

/** The recorded frames as the trace file; each frame's objects are built (FrameRecorder.frame) only here. */
function writeTrace(path: string, rigName: string, dt: number, recorder: FrameRecorder): void {
  const lines: string[] = [];
  if (/\.csv$/i.test(path)) {
    lines.push(recorder.length > 0 ? csvHeader(traceColumns(recorder.frame(0))) : 't');
    for (let i = 0; i < recorder.length; i++) lines.push(traceRow(recorder.frame(i)));
    writeFileSync(path, `${lines.join('\n')}\n`);
  } else {
    // One frame per line: diffable, and a reader can stream it line by line after the header.
    for (let i = 0; i < recorder.length; i++) lines.push(JSON.stringify(recorder.frame(i)));
    const body = lines.join(',\n');
    writeFileSync(path, `{"rig":${JSON.stringify(rigName)},"dt":${dt},"frames":[\n${body}\n]}\n`);
  }
}

function parseAt(spec: string, option: string, dt: number): { name: string; step: number; rest: string } {
  const m = /^([^@]+)@([^:]+)(?::(.*))?$/.exec(spec);
  if (!m) throw new UsageError(`${option} must look like ${option === '--impulse' ? 'BODY@T:x,y,z' : 'JOINT@T'}, got "${spec}"`);
  const t = parseNumber(m[2], `${option} time`, (x) => x >= 0, 'a time ≥ 0 in seconds')!;
  return { name: m[1]!, step: Math.round(t / dt), rest: m[3] ?? '' };
}

function impulseEvent(spec: string, rig: RigDocument, dt: number): Event {
  const { name, step, rest } = parseAt(spec, '--impulse', dt);
  if (!rig.bodies.some((b) => b.name === name)) throw new UsageError(`--impulse: rig "${rig.name}" has no body "${name}" (bodies: ${rig.bodies.map((b) => b.name).join(', ')})`);
  const impulse = parseVec3(rest, '--impulse vector');
  return { step, apply: (sim) => sim.applyImpulse(name, impulse), describe: `impulse ${name}` };
}

function limpEvent(spec: string, rig: RigDocument, dt: number): Event {
  const { name, step } = parseAt(spec, '--limp', dt);
  if (name !== '*' && !rig.joints.some((j) => j.name === name)) throw new UsageError(`--limp: rig "${rig.name}" has no joint "${name}" (joints: ${rig.joints.map((j) => j.name).join(', ')})`);
  return { step, apply: (sim) => sim.setMotorsEnabled(false, name === '*' ? undefined : [name]), describe: `limp ${name}` };
}

/** The body whose travel the summary reports. */
export function rootBody(rig: RigDocument): string {
  if (rig.controllers[0]) return rig.controllers[0].root;
  const children = new Set(rig.joints.map((j) => j.bodyB));
  return (rig.bodies.find((b) => b.type === 'dynamic' && !children.has(b.name))
    ?? rig.bodies.find((b) => b.type === 'dynamic') ?? rig.bodies[0]!).name;
}

const fmt = (x: number, digits: number) => Number(x.toPrecision(digits)).toString();
