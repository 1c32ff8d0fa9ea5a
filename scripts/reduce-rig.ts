/**
 * Reduce a random rig that runs past 100 m/s (scripts/stress-rigs.ts prints their seeds) to a smaller rig that
 * still does, greedily: drop a body (and its joints), the controllers, a motor, a motor's friction, a limit, a
 * second shape, a body's damping or self-collision, the ground — one at a time, keeping each removal after which
 * the rig still validates and still fails — until no removal keeps it failing. The reduced rig is written as a
 * rig file, ready to become a fixture in tests/fixtures/stress (docs/physics.md "What prevents explosions").
 *
 *   npx tsx scripts/reduce-rig.ts --case SEED [--coupled] [--solver articulated] [--out FILE] [--max-step N]
 *
 * --solver articulated: reduce the rig as the articulated solver runs it (scripts/stress-rigs.ts --solver).
 * --max-step N: count as failing only a run that fails by step N (keeps an early explosion from drifting into a
 * late, marginal one as bodies go). A chaotic rig often does not reduce to one mechanism: each removal may change
 * which body fails and when, so read the log of what was kept, not just the result.
 */
import { writeFileSync } from 'node:fs';
import { randomRig, runValidRig } from '../tests/fuzz/randomRigs';
import { validateRig, type RigDocument } from '../shared/rig';

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const seed = Number(argValue('case'));
if (!Number.isFinite(seed)) {
  console.error('usage: npx tsx scripts/reduce-rig.ts --case SEED [--coupled] [--solver articulated] [--out FILE] [--max-step N]');
  process.exit(2);
}
const out = argValue('out') ?? `reduced-${seed}.rig.json`;
const maxStep = Number(argValue('max-step') ?? Infinity);

type Edit = [label: string, apply: (rig: RigDocument) => void];
type Loose = Record<string, unknown>;
const clone = (rig: RigDocument): RigDocument => JSON.parse(JSON.stringify(rig)) as RigDocument;

/** The failure's description when `rig` validates and runs past the bounds by maxStep, else null. */
function failure(rig: RigDocument): string | null {
  const v = validateRig(rig);
  if (!v.ok) return null;
  const r = runValidRig(v.rig, 2);
  return (r.outcome === 'fast' || r.outcome === 'nan' || r.outcome === 'throw') && (r.step ?? 0) <= maxStep ? `${r.outcome}: ${r.detail ?? ''}` : null;
}

function edits(rig: RigDocument): Edit[] {
  const list: Edit[] = [];
  for (const b of rig.bodies) {
    list.push([`drop body ${b.name}`, (c) => {
      c.bodies = c.bodies.filter((x) => x.name !== b.name);
      c.joints = c.joints.filter((j) => j.bodyA !== b.name && j.bodyB !== b.name);
      c.controllers = [];
    }]);
  }
  if (rig.controllers.length > 0) list.push(['drop the controllers', (c) => { c.controllers = []; }]);
  rig.joints.forEach((j, i) => {
    const joint = j as unknown as Loose;
    for (const field of ['motor', 'slideMotor']) {
      const m = joint[field] as Loose | null | undefined;
      if (m && m.mode !== 'off') list.push([`${field} off on ${j.name}`, (c) => { ((c.joints[i] as unknown as Loose)[field] as Loose).mode = 'off'; }]);
      if (m && typeof m.frictionTorque === 'number' && m.frictionTorque > 0) list.push([`${field} friction 0 on ${j.name}`, (c) => { ((c.joints[i] as unknown as Loose)[field] as Loose).frictionTorque = 0; }]);
    }
    for (const field of ['limit', 'twistLimit', 'swingLimit', 'slideLimit', 'slideLimitY', 'slideLimitZ']) {
      if (joint[field] !== null && joint[field] !== undefined) list.push([`no ${field} on ${j.name}`, (c) => { (c.joints[i] as unknown as Loose)[field] = null; }]);
    }
  });
  rig.bodies.forEach((b, i) => {
    if (b.shapes.length > 1) list.push([`one shape on ${b.name}`, (c) => { c.bodies[i]!.shapes = [c.bodies[i]!.shapes[0]!]; }]);
    if (b.linearDamping !== 0 || b.angularDamping !== 0) list.push([`no damping on ${b.name}`, (c) => { c.bodies[i]!.linearDamping = 0; c.bodies[i]!.angularDamping = 0; }]);
    if ((b.collisionMask & 1) !== 0) list.push([`no self-collision on ${b.name}`, (c) => { c.bodies[i]!.collisionMask = (b.collisionMask & ~1) >>> 0; }]);
  });
  if (rig.simulation.ground) list.push(['no ground', (c) => { c.simulation.ground = null; }]);
  return list;
}

const solver = argValue('solver') ?? 'rigid';
if (solver !== 'rigid' && solver !== 'articulated') {
  console.error(`reduce-rig: --solver must be rigid or articulated, got "${solver}"`);
  process.exit(2);
}
let rig = clone(randomRig(seed, { coupledJoints: process.argv.includes('--coupled'), solver }).rig);
const start = failure(rig);
if (start === null) {
  console.error(`case ${seed} does not fail${Number.isFinite(maxStep) ? ` by step ${maxStep}` : ''}: nothing to reduce`);
  process.exit(1);
}
console.log(`case ${seed}: ${rig.bodies.length} bodies, ${rig.joints.length} joints — ${start}`);
for (let changed = true; changed;) {
  changed = false;
  for (const [label, apply] of edits(rig)) {
    const candidate = clone(rig);
    apply(candidate);
    const f = failure(candidate);
    if (f !== null) { rig = candidate; changed = true; console.log(`kept: ${label} → ${f}`); break; }
  }
}
writeFileSync(out, `${JSON.stringify(rig, null, 1)}\n`);
console.log(`wrote ${out}: ${rig.bodies.length} bodies, ${rig.joints.length} joints — ${failure(rig)}`);
