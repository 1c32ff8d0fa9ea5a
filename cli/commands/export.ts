/** marionette export <project.marionette | rig.json> --format rig|mjcf|gltf [--creature FILE] --out FILE */
import { writeFileSync } from 'node:fs';
import { NodeIO, type Document } from '@gltf-transform/core';
import { EXPORT_FORMATS, exportRig, stripComputed, withComputedMass, type ExportFormat } from '../../shared/export';
import { parseProject, ProjectFileError } from '../../shared/project';
import { formatProblem, validateRig, type RigDocument } from '../../shared/rig';
import { parse, str } from '../args';
import { readTextFile } from '../files';
import { EXIT_INVALID, EXIT_OK, UsageError, type CliIO } from '../io';

export const summary = 'write a rig as rig JSON, MJCF (MuJoCo) or glTF with KHR physics';

export const help = `Usage: marionette export <project.marionette | rig.json> --out FILE [--format rig|mjcf|gltf] [--creature FILE]

Reads a Marionette project (or a rig JSON), validates its rig (migrating an
older format version) and writes it in one of three formats:

  rig    the rig JSON a game loads with loadRig(), every body with its computed
         mass, centre of mass and inertia (the default)
  mjcf   MuJoCo XML: nested bodies, exact inertials, hinge/slide/ball joints with
         ranges, torque-limited position/velocity actuators, contact excludes,
         gravity and timestep (MuJoCo is Z-up: the world is turned)
  gltf   binary glTF (.glb) with the DRAFT Khronos extensions
         KHR_physics_rigid_bodies and KHR_implicit_shapes; with --creature the
         creature's skinned mesh, skin and animations are carried along

What a format cannot carry is listed in the file (an XML comment, the glTF
root's extras) and in docs/interop.md.

Options:
  --out FILE        where to write (required)
  --format NAME     rig (default), mjcf or gltf
  --creature FILE   gltf only: the creature's .glb / .gltf whose nodes are the rig's bones
  -h, --help        show this help

Exit status: 0 written, 1 the input or its rig is invalid, 2 usage error.
`;

export { withComputedMass };

/** The validated rig of a project file or a rig JSON (stale `computed` blocks dropped first). */
export function readRigInput(text: string, file: string): { ok: true; rig: RigDocument } | { ok: false; message: string } {
  let json: unknown;
  try { json = JSON.parse(text); } catch (e) { return { ok: false, message: `${file}: not valid JSON (${(e as Error).message})` }; }
  let rigJson: unknown = json;
  const declared = json && typeof json === 'object' ? (json as { format?: unknown }).format : undefined;
  // A project by its format, or anything not declaring itself a rig that is not a .json file.
  const isProject = declared === 'marionette-project' || (declared !== 'marionette-rig' && !file.toLowerCase().endsWith('.json'));
  if (isProject) {
    try { rigJson = parseProject(text, file).rig; } catch (e) {
      if (e instanceof ProjectFileError) return { ok: false, message: e.message };
      throw e;
    }
  }
  const result = validateRig(stripComputed(rigJson));
  if (!result.ok) {
    const prefix = isProject ? 'rig.' : '';
    return { ok: false, message: `${file}: the ${isProject ? "project's " : ''}rig is invalid (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'})\n${result.problems.map((p) => `  ${prefix}${formatProblem(p)}`).join('\n')}` };
  }
  return { ok: true, rig: result.rig };
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, { out: { type: 'string', short: 'o' }, format: { type: 'string', short: 'f' }, creature: { type: 'string' } });
  if (values.help) { io.out(help); return EXIT_OK; }
  const out = str(values.out);
  const format = (str(values.format) ?? 'rig') as ExportFormat;
  const creaturePath = str(values.creature);
  if (positionals.length !== 1) throw new UsageError(`export takes one project or rig file, got ${positionals.length}`);
  if (out === undefined) throw new UsageError('export needs --out FILE');
  if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${format}"`);
  if (creaturePath !== undefined && format !== 'gltf') throw new UsageError(`--creature only applies to --format gltf (the ${format} format carries no mesh)`);
  const file = positionals[0]!;
  const read = readTextFile(file);
  if (!read.ok) { io.err(`${file}: ${read.message}\n`); return EXIT_INVALID; }
  const input = readRigInput(read.text, file);
  if (!input.ok) { io.err(`${input.message}\n`); return EXIT_INVALID; }
  const rig = input.rig;
  let creature: Document | undefined;
  if (creaturePath !== undefined) {
    try { creature = await new NodeIO().read(creaturePath); } catch (e) {
      io.err(`${creaturePath}: cannot read the creature as glTF (${(e as Error).message})\n`);
      return EXIT_INVALID;
    }
  }
  let result;
  try { result = await exportRig(rig, format, { creature }); } catch (e) {
    io.err(`${creaturePath ?? file}: ${(e as Error).message}\n`);
    return EXIT_INVALID;
  }
  writeFileSync(out, result.data);
  const mass = withComputedMass(rig).bodies.reduce((m, b) => m + b.computed!.mass, 0);
  const lost = result.losses ? ` (${result.losses.approximated.length} approximations, ${result.losses.lost.length} losses listed in the file)` : '';
  io.out(`${out}: ${format === 'rig' ? '' : `${format} of `}rig "${rig.name}" written — ${rig.bodies.length} bodies, ${rig.joints.length} joints, ${rig.controllers.length} controllers, total mass ${mass.toFixed(3)} kg${lost}\n`);
  return EXIT_OK;
}
