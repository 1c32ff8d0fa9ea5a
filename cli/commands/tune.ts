/**
 * marionette tune <rig.json> [--settle S] [--overshoot P] [--joint NAME] --out <rig.json> — motor gains from
 * a requested settle time and overshoot (shared/authoring/tune.ts), each joint verified by a simulated step
 * response; prints a table of requested vs achieved and writes the tuned rig.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { tuneRig, type JointTune } from '../../shared/authoring/tune';
import { writeRigJson } from '../../shared/export/rig';
import { formatProblem, validateRig } from '../../shared/rig';
import { parse, parseNumber, str, strs } from '../args';
import { readTextFile } from '../files';
import { EXIT_INVALID, EXIT_OK, UsageError, type CliIO } from '../io';

export const summary = 'compute motor gains from a settle time and overshoot; verify by step responses';

export const help = `Usage: marionette tune <rig.json> --out <rig.json> [options]

Computes each motorised joint's parameters from a requested settle time
(2 % band) and overshoot: kp / kv for PD motors, r (errorReduction) for
position motors, from the effective inertia of the chain the joint carries,
and τmax from that chain's static gravity torque times a margin. Then it
simulates each joint's step response (its parent held, 0.1 rad step) and
prints the achieved settle time and overshoot next to the request; a joint
that misses by more than 20 % says why (saturation at τmax, limits, the
chain flexing below it).

Options:
  --settle S      requested settle time (s, > 0; default 0.3)
  --overshoot P   requested overshoot (%, 0 ≤ P < 100; default 5; PD only)
  --joint NAME    tune only this joint; repeatable (default: every hinge and
                  ball joint whose motor mode is pd or position)
  --margin K      factor on the static gravity torque for τmax (default 2.5)
  --out FILE      where to write the tuned rig JSON (required)
  --json          print the per-joint results as JSON instead of the table
  -h, --help      show this help

Exit status: 0 written (joints that missed are listed, not an error),
1 the rig is invalid, 2 usage error (a bad --settle, --overshoot, --joint).
`;

export function run(argv: string[], io: CliIO): number {
  const { values, positionals } = parse(argv, {
    settle: { type: 'string' }, overshoot: { type: 'string' }, joint: { type: 'string', multiple: true },
    margin: { type: 'string' }, out: { type: 'string', short: 'o' }, json: { type: 'boolean' },
  });
  if (values.help) { io.out(help); return EXIT_OK; }
  if (positionals.length !== 1) throw new UsageError(`tune takes one rig file, got ${positionals.length}`);
  const settle = parseNumber(str(values.settle), '--settle', (x) => x > 0 && x <= 60, 'a settle time in (0, 60] seconds') ?? 0.3;
  const overshoot = parseNumber(str(values.overshoot), '--overshoot', (x) => x >= 0 && x < 100, 'an overshoot in [0, 100) percent') ?? 5;
  const margin = parseNumber(str(values.margin), '--margin', (x) => x > 0 && x <= 100, 'a factor in (0, 100]') ?? 2.5;
  const out = str(values.out);
  if (!out) throw new UsageError('tune needs --out FILE (the tuned rig JSON to write)');
  if (!/\.json$/i.test(out)) throw new UsageError(`--out must end in .json, got "${out}"`);

  const file = positionals[0]!;
  const read = readTextFile(file);
  if (!read.ok) { io.err(`${file}: ${read.message}\n`); return EXIT_INVALID; }
  const result = validateRig(read.text);
  if (!result.ok) {
    io.err(`${file}: invalid rig (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}); run \`marionette validate ${file}\`\n${result.problems.slice(0, 20).map((p) => `  ${formatProblem(p)}\n`).join('')}`);
    return EXIT_INVALID;
  }
  const rig = result.rig;
  const names = strs(values.joint);
  for (const n of names) {
    const j = rig.joints.find((x) => x.name === n);
    if (!j) throw new UsageError(`--joint: rig "${rig.name}" has no joint "${n}" (joints: ${rig.joints.map((x) => x.name).join(', ')})`);
    if (!((j.type === 'hinge' || j.type === 'ball') && (j.motor.mode === 'pd' || j.motor.mode === 'position'))) {
      throw new UsageError(`--joint: joint "${n}" is a ${j.type} joint${j.type === 'fixed' ? '' : ` with motor mode "${j.motor.mode}"`}; only hinge and ball joints with a pd or position motor can be tuned`);
    }
  }
  const tuned = tuneRig(rig, { settle, overshoot, margin, joints: names.length > 0 ? names : undefined });
  if (tuned.joints.length === 0) { io.err(`${file}: rig "${rig.name}" has no hinge or ball joint with a pd or position motor to tune\n`); return EXIT_INVALID; }

  const tmp = `${out}.tmp-${process.pid}`;
  writeFileSync(tmp, writeRigJson(tuned.rig));
  renameSync(tmp, out);

  const ok = tuned.joints.filter((j) => j.ok).length;
  if (values.json) io.out(`${JSON.stringify(tuned.joints)}\n`);
  else io.out(`${file}: rig "${rig.name}" tuned for settle ${fmt(settle)} s, overshoot ${fmt(overshoot)} % → ${out}\n${table(tuned.joints)}${ok} of ${tuned.joints.length} joints within 20 % of the requested settle time\n`);
  return EXIT_OK;
}

function table(rows: readonly JointTune[]): string {
  const head = ['joint', 'mode', 'I kg·m²', 'kp', 'kv', 'r', 'τmax', 'settle s', 'got s', 'os %', 'got %', 'ok'];
  const body = rows.map((r) => [
    r.joint, r.mode, fmt(r.inertia), r.mode === 'pd' ? fmt(r.params.stiffness) : '-', r.mode === 'pd' ? fmt(r.params.damping) : '-',
    r.mode === 'position' ? fmt(r.params.errorReduction) : '-', fmt(r.params.maxTorque), fmt(r.requested.settle),
    r.achieved?.settle == null ? 'never' : fmt(r.achieved.settle), fmt(r.requested.overshoot), r.achieved ? fmt(r.achieved.overshoot) : '-',
    r.ok ? 'ok' : `MISS: ${r.why ?? ''}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (i === head.length - 1 ? 0 : b[i]!.length))));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}\n`;
  return line(head) + body.map(line).join('');
}

const fmt = (x: number) => Number(x.toPrecision(3)).toString();
