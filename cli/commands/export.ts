/** marionette export <project> --out rig.json — the rig of a project file, validated, with computed mass. */
import { writeFileSync } from 'node:fs';
import { computeMassProperties } from '../../shared/physics/massProperties';
import type { ShapeDesc } from '../../shared/physics/types';
import { parseProject, ProjectFileError } from '../../shared/project';
import { formatProblem, serializeRig, validateRig, type RigDocument } from '../../shared/rig';
import { parse, str } from '../args';
import { readTextFile } from '../files';
import { EXIT_INVALID, EXIT_OK, UsageError, type CliIO } from '../io';

export const summary = 'write the rig of a .marionette project as a runtime rig JSON';

export const help = `Usage: marionette export <project.marionette> --out <rig.json>

Reads a Marionette project, validates its rig (migrating an older format
version), writes each body's computed mass, centre of mass and inertia from its
shapes (so a runtime need not recompute them), and saves the rig JSON a game
loads with loadRig().

Options:
  --out FILE   where to write the rig (required)
  -h, --help   show this help

Exit status: 0 written, 1 the project or its rig is invalid, 2 usage error.
`;

/** The export form of a rig: every body's `computed` block recomputed from its shapes. */
export function withComputedMass(rig: RigDocument): RigDocument {
  return {
    ...rig,
    bodies: rig.bodies.map((b) => ({
      ...b,
      computed: computeMassProperties(b.shapes as readonly ShapeDesc[], b.mass !== null ? { mass: b.mass } : { density: b.density! }),
    })),
  };
}

export function run(argv: string[], io: CliIO): number {
  const { values, positionals } = parse(argv, { out: { type: 'string', short: 'o' } });
  if (values.help) { io.out(help); return EXIT_OK; }
  const out = str(values.out);
  if (positionals.length !== 1) throw new UsageError(`export takes one project file, got ${positionals.length}`);
  if (out === undefined) throw new UsageError('export needs --out <rig.json>');
  const file = positionals[0]!;
  const read = readTextFile(file);
  if (!read.ok) { io.err(`${file}: ${read.message}\n`); return EXIT_INVALID; }
  let rigJson: unknown;
  try {
    rigJson = parseProject(read.text, file).rig;
  } catch (e) {
    if (e instanceof ProjectFileError) { io.err(`${e.message}\n`); return EXIT_INVALID; }
    throw e;
  }
  // The rig's `computed` blocks may be stale in a project (they are an export product): drop them before
  // validating, then write fresh ones.
  const result = validateRig(stripComputed(rigJson));
  if (!result.ok) {
    io.err(`${file}: the project's rig is invalid (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'})\n${result.problems.map((p) => `  rig.${formatProblem(p)}\n`).join('')}`);
    return EXIT_INVALID;
  }
  const rig = withComputedMass(result.rig);
  writeFileSync(out, serializeRig(rig));
  io.out(`${out}: rig "${rig.name}" written — ${rig.bodies.length} bodies, ${rig.joints.length} joints, ${rig.controllers.length} controllers, total mass ${rig.bodies.reduce((m, b) => m + b.computed!.mass, 0).toFixed(3)} kg\n`);
  return EXIT_OK;
}

function stripComputed(rig: unknown): unknown {
  if (!rig || typeof rig !== 'object' || !Array.isArray((rig as { bodies?: unknown }).bodies)) return rig;
  const r = rig as { bodies: unknown[] };
  return { ...r, bodies: r.bodies.map((b) => (b && typeof b === 'object' && !Array.isArray(b) ? (({ computed: _c, ...rest }) => rest)(b as Record<string, unknown>) : b)) };
}

/** For tests and the editor: the same export from text in memory. */
export function exportRigText(projectText: string, fileName: string): string {
  const result = validateRig(stripComputed(parseProject(projectText, fileName).rig));
  if (!result.ok) throw new Error(`${fileName}: ${result.problems.map(formatProblem).join('; ')}`);
  return serializeRig(withComputedMass(result.rig));
}

