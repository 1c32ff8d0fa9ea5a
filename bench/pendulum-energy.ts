/**
 * Energy of released rod pendulums in Marionette, Rapier, Jolt and MuJoCo (issue 11 item 2: "measure Rapier
 * and Jolt on the same pendulums"). The pendulums are those of tests/unit/physics/pendulumEnergy.test.ts:
 * 1 kg rods of length 1 m (capsule r 2 cm, so the inertia is the solid capsule's) hung from a fixed pivot at
 * (0, 2, 0), released from rest in the x-y plane, no damping, no limits, no collisions, gravity 9.81 m/s²,
 * step dt = 1/60 s for 10 s. Per engine, "2 substeps or the engine's equivalent":
 *  - Marionette: World defaults with substeps 2 (8 velocity, 2 position iterations), jointCorrection
 *    'shake' and 'projection' (the Marionette rows come from the test's own builder, tests/unit/physics/pendulum.ts);
 *  - Rapier: world.step() at timestep 1/60 with its defaults (numSolverIterations 4: its solver substeps the
 *    step four times, one PGS iteration each);
 *  - Jolt: Step(1/60, 2) — two collision steps, i.e. two substeps — with its default 10 velocity and 2
 *    position steps, damping set to 0 (Jolt's default body damping is 0.05);
 *  - MuJoCo: the same rods as MJCF (hinge / ball joints in generalised coordinates: no joint drift at all)
 *    at timestep 1/120 (two steps per 1/60), Euler (its default) and RK4.
 * Measured like the test: the largest |E(t) − E(0)| over the 10 s as a fraction of the analytic swing energy
 * (E(0) minus the energy hanging at rest), and what is lost after 10 s. Every engine's bodies have the
 * same mass and inertia (computeMassProperties of the capsule, given explicitly where the engine takes it),
 * and E is computed from each engine's reported state with that inertia.
 *
 *   npx tsx bench/pendulum-energy.ts            # the table
 *   npx tsx bench/pendulum-energy.ts --json     # and the rows as JSON on the last line
 *   npx tsx bench/pendulum-energy.ts --write-docs   # also write the table into docs/physics.md (between its markers)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import RAPIER from '@dimforge/rapier3d-compat';
import initJolt from 'jolt-physics/wasm-compat';
import loadMujoco from 'mujoco-js';
import { quatFromAxisAngle, quatRotate, type Quat } from '../shared/math/quat';
import type { Vec3 } from '../shared/math/vec3';
import { computeMassProperties } from '../shared/physics/massProperties';
import { pendulumEnergy, type PendulumKind } from '../tests/unit/physics/pendulum';

const G = 9.81, L = 1, HALF = L / 2, RADIUS = 0.02, MASS = 1, DT = 1 / 60, SECONDS = 10;
const PIVOT: Vec3 = [0, 2, 0];
const DEG = Math.PI / 180;

export interface PendulumCase {
  /** Row label. */
  name: string;
  kind: PendulumKind;
  /** Release angles from the downward vertical (rad): the upper rod and, for double pendulums, the lower. */
  angle: number;
  angle2: number;
}

/** The cases of pendulumEnergy.test.ts (and docs/physics.md's accuracy table). */
export const PENDULUM_CASES: readonly PendulumCase[] = [
  { name: 'rod pendulum, hinge, 60°', kind: 'hinge', angle: 60 * DEG, angle2: 60 * DEG },
  { name: 'rod pendulum, ball joint, 60°', kind: 'ball', angle: 60 * DEG, angle2: 60 * DEG },
  { name: 'double pendulum, hinges, straight at 60°', kind: 'double-hinge', angle: 60 * DEG, angle2: 60 * DEG },
  { name: 'double pendulum, ball joints, straight at 60°', kind: 'double-ball', angle: 60 * DEG, angle2: 60 * DEG },
  { name: 'double pendulum, hinges, bent 60° / 90°', kind: 'double-hinge', angle: 60 * DEG, angle2: 90 * DEG },
  { name: 'double pendulum, ball joints, bent 60° / 120°', kind: 'double-ball', angle: 60 * DEG, angle2: 120 * DEG },
];

export type PendulumEngine = 'marionette-shake' | 'marionette-projection' | 'rapier' | 'jolt' | 'mujoco-euler' | 'mujoco-rk4';
export const PENDULUM_ENGINES: readonly PendulumEngine[] = ['marionette-shake', 'marionette-projection', 'rapier', 'jolt', 'mujoco-euler', 'mujoco-rk4'];

export interface PendulumRow {
  case: string;
  engine: PendulumEngine;
  /** Analytic swing energy (J). */
  swing: number;
  /** Largest |E(t) − E(0)| over the run / swing energy. */
  maxLoss: number;
  /** (E(0) − E(end)) / swing energy: positive = lost. */
  endLoss: number;
  /** E(0) minus the energy hanging at rest, from the engine's own initial state (J): equals `swing` when the
   *  engine built the pendulum as asked. */
  startSwing: number;
}

/** Analytic swing energy (J): the potential energy above hanging straight down at rest. */
export function swingEnergy(c: PendulumCase): number {
  if (!c.kind.startsWith('double')) return MASS * G * HALF * (1 - Math.cos(c.angle));
  return MASS * G * (HALF * (1 - Math.cos(c.angle)) + L * (1 - Math.cos(c.angle)) + HALF * (1 - Math.cos(c.angle2)));
}

/** Body-frame inertia of the rod (capsule along its local y), kg·m²: [transverse, axial, transverse]. */
const ROD = computeMassProperties([{ type: 'capsule', radius: RADIUS, halfHeight: HALF - RADIUS }], { mass: MASS });
const I_DIAG: Vec3 = [ROD.inertia[0]!, ROD.inertia[4]!, ROD.inertia[8]!];

/** Initial rods: centre and rotation (about +z) of each link, released from rest. */
function links(c: PendulumCase): { centre: Vec3; tilt: Quat; top: Vec3 }[] {
  const n = c.kind.startsWith('double') ? 2 : 1;
  const out: { centre: Vec3; tilt: Quat; top: Vec3 }[] = [];
  let top: Vec3 = [...PIVOT];
  for (let i = 0; i < n; i++) {
    const tilt = quatFromAxisAngle([0, 0, 1], i === 0 ? c.angle : c.angle2);
    const dir = quatRotate(tilt, [0, -1, 0]);
    out.push({ centre: [top[0] + dir[0] * HALF, top[1] + dir[1] * HALF, top[2] + dir[2] * HALF], tilt, top });
    top = [top[0] + dir[0] * L, top[1] + dir[1] * L, top[2] + dir[2] * L];
  }
  return out;
}

/** Kinetic + potential energy of one rod from its COM height, COM velocity, rotation and world ω (J). */
function rodEnergy(y: number, v: readonly number[], q: Quat, w: Vec3): number {
  const wb = quatRotate([-q[0], -q[1], -q[2], q[3]], w);
  return 0.5 * MASS * (v[0]! ** 2 + v[1]! ** 2 + v[2]! ** 2)
    + 0.5 * (I_DIAG[0] * wb[0] ** 2 + I_DIAG[1] * wb[1] ** 2 + I_DIAG[2] * wb[2] ** 2) + MASS * G * y;
}

/** Energy (J) of the pendulum hanging straight down at rest: the rods' centres at 0.5 and 1.5 m below the pivot. */
function restEnergy(c: PendulumCase): number {
  const n = c.kind.startsWith('double') ? 2 : 1;
  let e = 0;
  for (let i = 0; i < n; i++) e += MASS * G * (PIVOT[1] - (i * L + HALF));
  return e;
}

/** Steps `step` `steps` times and returns the energy figures; `energy` reads the current total. */
function run(c: PendulumCase, engine: PendulumEngine, steps: number, step: () => void, energy: () => number): PendulumRow {
  const swing = swingEnergy(c);
  const e0 = energy(), startSwing = e0 - restEnergy(c);
  let maxLoss = 0, e = e0;
  for (let s = 0; s < steps; s++) {
    step();
    e = energy();
    if (!Number.isFinite(e)) return { case: c.name, engine, swing, maxLoss: NaN, endLoss: NaN, startSwing };
    maxLoss = Math.max(maxLoss, Math.abs(e - e0) / swing);
  }
  return { case: c.name, engine, swing, maxLoss, endLoss: (e0 - e) / swing, startSwing };
}

// ------------------------------------------------------------------------------------------------ Rapier

async function rapierRow(c: PendulumCase, seconds: number): Promise<PendulumRow> {
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: -G, z: 0 });
  world.timestep = DT;
  const anchor = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(PIVOT[0], PIVOT[1], PIVOT[2]));
  const bodies: RAPIER.RigidBody[] = [];
  let prev = anchor;
  links(c).forEach((link, i) => {
    // No collider: mass and inertia given directly (the solid capsule's), so nothing collides.
    const rb = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic()
      .setTranslation(link.centre[0], link.centre[1], link.centre[2])
      .setRotation({ x: link.tilt[0], y: link.tilt[1], z: link.tilt[2], w: link.tilt[3] })
      .setAdditionalMassProperties(MASS, { x: 0, y: 0, z: 0 }, { x: I_DIAG[0], y: I_DIAG[1], z: I_DIAG[2] }, { x: 0, y: 0, z: 0, w: 1 })
      .setCanSleep(false));
    const la = i === 0 ? { x: 0, y: 0, z: 0 } : { x: 0, y: -HALF, z: 0 }, lb = { x: 0, y: HALF, z: 0 };
    // Every body turns about z only, so z is the hinge axis in every local frame.
    const data = c.kind.endsWith('ball') ? RAPIER.JointData.spherical(la, lb) : RAPIER.JointData.revolute(la, lb, { x: 0, y: 0, z: 1 });
    world.createImpulseJoint(data, prev, rb, true);
    bodies.push(rb);
    prev = rb;
  });
  const energy = () => {
    let e = 0;
    for (const rb of bodies) {
      const t = rb.translation(), v = rb.linvel(), r = rb.rotation(), w = rb.angvel();
      e += rodEnergy(t.y, [v.x, v.y, v.z], [r.x, r.y, r.z, r.w], [w.x, w.y, w.z]);
    }
    return e;
  };
  try {
    return run(c, 'rapier', Math.round(seconds / DT), () => world.step(), energy);
  } finally {
    world.free();
  }
}

/** Rapier's solver settings as used, for the table's notes. */
export async function rapierSettings(): Promise<string> {
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: -G, z: 0 });
  const p = world.integrationParameters;
  const text = `rapier3d-compat ${RAPIER.version()}: numSolverIterations ${p.numSolverIterations}, numInternalPgsIterations ${p.numInternalPgsIterations}`;
  world.free();
  return text;
}

// -------------------------------------------------------------------------------------------------- Jolt

type JoltModule = Awaited<ReturnType<typeof initJolt>>;
let joltModule: Promise<JoltModule> | null = null;

async function joltRow(c: PendulumCase, seconds: number): Promise<PendulumRow> {
  joltModule ??= initJolt();
  const Jolt = await joltModule;
  const temporaries: { destroy: unknown }[] = [];
  const keep = <T>(obj: T): T => { temporaries.push(obj as never); return obj; };
  const v3 = (v: readonly number[]) => keep(new Jolt.Vec3(v[0]!, v[1]!, v[2]!));
  const r3 = (v: readonly number[]) => keep(new Jolt.RVec3(v[0]!, v[1]!, v[2]!));
  const quat = (q: readonly number[]) => keep(new Jolt.Quat(q[0]!, q[1]!, q[2]!, q[3]!));
  // Two object layers that never collide (no EnableCollision): the rods pass through each other and the pivot.
  const objectFilter = new Jolt.ObjectLayerPairFilterTable(2);
  const bpInterface = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
  bpInterface.MapObjectToBroadPhaseLayer(0, keep(new Jolt.BroadPhaseLayer(0)));
  bpInterface.MapObjectToBroadPhaseLayer(1, keep(new Jolt.BroadPhaseLayer(1)));
  const settings = new Jolt.JoltSettings();
  settings.mObjectLayerPairFilter = objectFilter;
  settings.mBroadPhaseLayerInterface = bpInterface;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, objectFilter, 2);
  const jolt = new Jolt.JoltInterface(settings);
  Jolt.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  system.SetGravity(v3([0, -G, 0]));
  const bi = system.GetBodyInterface();
  const pivotSettings = new Jolt.BodyCreationSettings(new Jolt.SphereShapeSettings(0.01).Create().Get(), r3(PIVOT), quat([0, 0, 0, 1]), Jolt.EMotionType_Static, 0);
  const pivot = bi.CreateBody(pivotSettings);
  Jolt.destroy(pivotSettings);
  bi.AddBody(pivot.GetID(), Jolt.EActivation_DontActivate);
  const bodies: InstanceType<JoltModule['Body']>[] = [];
  let prev = pivot;
  for (const link of links(c)) {
    const shape = new Jolt.CapsuleShapeSettings(HALF - RADIUS, RADIUS).Create().Get();
    const bcs = new Jolt.BodyCreationSettings(shape, r3(link.centre), quat(link.tilt), Jolt.EMotionType_Dynamic, 1);
    bcs.mOverrideMassProperties = Jolt.EOverrideMassProperties_MassAndInertiaProvided;
    bcs.mMassPropertiesOverride.mMass = MASS;
    bcs.mMassPropertiesOverride.mInertia = Jolt.Mat44.prototype.sScaleVec3(v3(I_DIAG));
    bcs.mLinearDamping = 0;
    bcs.mAngularDamping = 0;
    bcs.mAllowSleeping = false;
    const body = bi.CreateBody(bcs);
    Jolt.destroy(bcs);
    bi.AddBody(body.GetID(), Jolt.EActivation_Activate);
    if (c.kind.endsWith('ball')) {
      const cs = new Jolt.PointConstraintSettings();
      cs.mSpace = Jolt.EConstraintSpace_WorldSpace;
      cs.mPoint1 = r3(link.top);
      cs.mPoint2 = r3(link.top);
      system.AddConstraint(cs.Create(prev, body));
      Jolt.destroy(cs);
    } else {
      const cs = new Jolt.HingeConstraintSettings();
      cs.mSpace = Jolt.EConstraintSpace_WorldSpace;
      cs.mPoint1 = r3(link.top);
      cs.mPoint2 = r3(link.top);
      cs.mHingeAxis1 = v3([0, 0, 1]);
      cs.mHingeAxis2 = v3([0, 0, 1]);
      cs.mNormalAxis1 = v3([1, 0, 0]);
      cs.mNormalAxis2 = v3([1, 0, 0]);
      system.AddConstraint(cs.Create(prev, body)); // limits at their defaults (−π, π): none
      Jolt.destroy(cs);
    }
    bodies.push(body);
    prev = body;
  }
  const energy = () => {
    let e = 0;
    for (const body of bodies) {
      const p = body.GetCenterOfMassPosition(), v = body.GetLinearVelocity(), q = body.GetRotation(), w = body.GetAngularVelocity();
      e += rodEnergy(p.GetY(), [v.GetX(), v.GetY(), v.GetZ()], [q.GetX(), q.GetY(), q.GetZ(), q.GetW()], [w.GetX(), w.GetY(), w.GetZ()]);
    }
    return e;
  };
  try {
    return run(c, 'jolt', Math.round(seconds / DT), () => jolt.Step(DT, 2), energy);
  } finally {
    Jolt.destroy(jolt);
    for (const t of temporaries) Jolt.destroy(t as never);
  }
}

// ------------------------------------------------------------------------------------------------ MuJoCo

interface Mj {
  FS: { mkdir(p: string): void; writeFile(p: string, s: string): void; unlink(p: string): void };
  MjModel: { loadFromXML(path: string): MjModel };
  MjData: new (m: MjModel) => MjData;
  mj_step(m: MjModel, d: MjData): void;
  mj_forward(m: MjModel, d: MjData): void;
}
interface MjModel { delete(): void }
interface MjData { qpos: Float64Array; energy: Float64Array; delete(): void }
let mujoco: Promise<Mj> | null = null;
let mjFiles = 0;

/** The rods as MJCF (Z up: the swing plane is x-z, the hinge axis y; the rest as in the other engines). */
export function pendulumMjcf(c: PendulumCase, integrator: 'Euler' | 'RK4'): string {
  const n = c.kind.startsWith('double') ? 2 : 1;
  const joint = c.kind.endsWith('ball') ? '<joint type="ball"/>' : '<joint type="hinge" axis="0 1 0"/>';
  const rod = (inner: string, pos: string) =>
    `<body pos="${pos}">${joint}<geom type="capsule" size="${RADIUS}" fromto="0 0 ${-RADIUS} 0 0 ${-(L - RADIUS)}" contype="0" conaffinity="0"/>` +
    `<inertial pos="0 0 ${-HALF}" mass="${MASS}" diaginertia="${I_DIAG[0]} ${I_DIAG[2]} ${I_DIAG[1]}"/>${inner}</body>`;
  const chain = n === 2 ? rod(rod('', `0 0 ${-L}`), `0 0 ${PIVOT[1]}`) : rod('', `0 0 ${PIVOT[1]}`);
  return `<mujoco><option timestep="${DT / 2}" integrator="${integrator}" gravity="0 0 ${-G}"><flag energy="enable"/></option>` +
    `<worldbody>${chain}</worldbody></mujoco>`;
}

async function mujocoRow(c: PendulumCase, integrator: 'Euler' | 'RK4', seconds: number): Promise<PendulumRow> {
  mujoco ??= (async () => {
    const mj = (await loadMujoco()) as unknown as Mj;
    mj.FS.mkdir('/pendulum');
    return mj;
  })();
  const mj = await mujoco;
  const file = `/pendulum/p${mjFiles++}.xml`;
  mj.FS.writeFile(file, pendulumMjcf(c, integrator));
  const model = mj.MjModel.loadFromXML(file);
  mj.FS.unlink(file);
  const data = new mj.MjData(model);
  // Joint coordinates of the release pose (rotation about +y by the angle; the lower one relative to the upper).
  const rel = [c.angle, c.angle2 - c.angle];
  if (c.kind.endsWith('ball')) {
    rel.slice(0, c.kind.startsWith('double') ? 2 : 1).forEach((a, i) => {
      data.qpos[4 * i] = Math.cos(a / 2); data.qpos[4 * i + 1] = 0; data.qpos[4 * i + 2] = Math.sin(a / 2); data.qpos[4 * i + 3] = 0;
    });
  } else {
    rel.slice(0, c.kind.startsWith('double') ? 2 : 1).forEach((a, i) => { data.qpos[i] = a; });
  }
  const energy = () => {
    mj.mj_forward(model, data);
    // Potential energy relative to z = 0 (the same datum as y = 0 in the other engines) plus kinetic.
    return data.energy[0]! + data.energy[1]!;
  };
  try {
    return run(c, integrator === 'Euler' ? 'mujoco-euler' : 'mujoco-rk4', Math.round(seconds / DT), () => { mj.mj_step(model, data); mj.mj_step(model, data); }, energy);
  } finally {
    data.delete();
    model.delete();
  }
}

// ------------------------------------------------------------------------------------------------- table

/** Every case in every engine, `seconds` of simulated time each (10 s for the table). */
export async function measurePendulums(engines: readonly PendulumEngine[] = PENDULUM_ENGINES, cases: readonly PendulumCase[] = PENDULUM_CASES,
  seconds = SECONDS): Promise<PendulumRow[]> {
  const rows: PendulumRow[] = [];
  for (const c of cases) {
    for (const engine of engines) {
      switch (engine) {
        case 'marionette-shake':
        case 'marionette-projection': {
          const r = pendulumEnergy(c.kind, { jointCorrection: engine === 'marionette-shake' ? 'shake' : 'projection' }, seconds, DT, c.angle, c.angle2);
          rows.push({ case: c.name, engine, swing: swingEnergy(c), maxLoss: r.maxLoss, endLoss: r.endLoss, startSwing: r.swing });
          break;
        }
        case 'rapier': rows.push(await rapierRow(c, seconds)); break;
        case 'jolt': rows.push(await joltRow(c, seconds)); break;
        case 'mujoco-euler': rows.push(await mujocoRow(c, 'Euler', seconds)); break;
        case 'mujoco-rk4': rows.push(await mujocoRow(c, 'RK4', seconds)); break;
      }
    }
  }
  return rows;
}

const HEADERS: Record<PendulumEngine, string> = {
  'marionette-shake': 'Marionette `shake`',
  'marionette-projection': 'Marionette `projection`',
  rapier: 'Rapier',
  jolt: 'Jolt',
  'mujoco-euler': 'MuJoCo Euler',
  'mujoco-rk4': 'MuJoCo RK4',
};

const pct = (x: number) => (Number.isNaN(x) ? 'blew up' : `${(100 * x).toFixed(2)} %`);

/** Markdown table: per case and engine "largest |ΔE| (lost after 10 s)" in % of the analytic swing energy. */
export function pendulumTable(rows: readonly PendulumRow[], engines: readonly PendulumEngine[] = PENDULUM_ENGINES): string {
  const cases = [...new Set(rows.map((r) => r.case))];
  const lines = [
    `| case | swing energy (analytic) | ${engines.map((e) => HEADERS[e]).join(' | ')} |`,
    `|---|---|${engines.map(() => '---').join('|')}|`,
  ];
  for (const name of cases) {
    const of = rows.filter((r) => r.case === name);
    const cells = engines.map((e) => {
      const r = of.find((x) => x.engine === e);
      return r ? `${pct(r.maxLoss)} (${pct(r.endLoss)})` : '—';
    });
    lines.push(`| ${name} | ${of[0]!.swing.toFixed(4)} J | ${cells.join(' | ')} |`);
  }
  const ranges = engines.map((e) => {
    const losses = rows.filter((r) => r.engine === e).map((r) => r.maxLoss);
    return `${HEADERS[e]} ${pct(Math.min(...losses)).replace(' %', '')}–${pct(Math.max(...losses))}`;
  });
  return `${lines.join('\n')}\n\nLargest |ΔE| over the cases, least–most: ${ranges.join('; ')}.`;
}

export const DOCS_BEGIN = '<!-- pendulum-figures:begin — written by `npx tsx bench/pendulum-energy.ts --write-docs`; do not edit by hand -->';
export const DOCS_END = '<!-- pendulum-figures:end -->';

/** Replace the text between the markers of docs/physics.md; throws naming the file when a marker is missing. */
export function replaceBetween(text: string, begin: string, end: string, body: string, file: string): string {
  const b = text.indexOf(begin), e = text.indexOf(end);
  if (b < 0 || e < 0 || e < b) throw new Error(`${file}: the markers "${begin.slice(0, 40)}…" and "${end}" are missing or out of order`);
  return `${text.slice(0, b + begin.length)}\n${body}\n${text.slice(e)}`;
}

async function main(argv: readonly string[]): Promise<number> {
  for (const a of argv) {
    if (!['--json', '--write-docs'].includes(a)) {
      process.stderr.write(`pendulum-energy: unknown option "${a}" (known: --json, --write-docs)\n`);
      return 2;
    }
  }
  const rows = await measurePendulums();
  const table = pendulumTable(rows);
  process.stdout.write(`${table}\n\n`);
  const rapier = await rapierSettings();
  const note = `Largest |E(t) − E(0)| over 10 s (in brackets: lost after 10 s; negative = gained), % of the analytic swing energy; ` +
    `dt 1/60 s; Marionette substeps 2 (8 velocity, 2 position iterations); ${rapier} (its substeps); Jolt Step(1/60, 2) ` +
    `(10 velocity, 2 position steps, damping 0); MuJoCo ${'`'}timestep${'`'} 1/120 s. Measured ${new Date().toISOString().slice(0, 10)} ` +
    `with Node ${process.version} (${os.platform()}).`;
  process.stdout.write(`${note}\n`);
  if (argv.includes('--write-docs')) {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'physics.md');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, replaceBetween(text, DOCS_BEGIN, DOCS_END, `${table}\n\n${note}`, 'docs/physics.md'));
    process.stdout.write('written into docs/physics.md\n');
  }
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(rows)}\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
