/**
 * marionette transfer <rig.json> --creature <file> --out <rig.json> — a tuned rig moved onto another
 * creature by bone names (shared/authoring transferRig): exact, then without namespace/prefix, then the
 * side spelt one way, then the anatomy (Mixamo, Unreal mannequin, Rigify), scaled by the bone lengths.
 * The creature is read as `generate` reads it (FBX through the editor's reader). Prints the matched and
 * unmatched bones and what was left out; exit 1 with a message naming the file it cannot use.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { checkRigPlausibility, scaleForHeight, scaleSkeleton, transferRig } from '../../shared/authoring';
import { formatProblem, validateRig } from '../../shared/rig';
import { writeRigJson } from '../../shared/export/rig';
import { parse, parseNumber, str } from '../args';
import { readTextFile } from '../files';
import { EXIT_OK, UsageError, type CliIO } from '../io';
import { readRigInput } from './export';
import { readCreatureInput } from './generate';

export const summary = 'apply a rig to another creature (glb, gltf, fbx) by bone names, scaled by bone lengths';

export const help = `Usage: marionette transfer <rig.json> --creature <creature.glb|.gltf|.fbx> --out <rig.json> [options]

Applies a rig's bodies, shapes, joints, limits, motors and controllers to
another creature's skeleton. Bones are matched by name: exact, then without
namespace, prefix and case (mixamorig:Hips = Hips), then with the side spelt one
way (upper_arm_l = LeftUpperArm), then by anatomy (thigh_l = mixamorig:LeftUpLeg
= DEF-thigh.L). Each body keeps its place along its bone, scaled by the ratio of
the bone lengths (masses x k^3, torques and gains x k^4). Bodies whose bone has
no match are left out and listed, with the joints and controllers naming them.

Options:
  --creature FILE     the creature to apply the rig to (required)
  --out FILE          where to write the rig JSON (required)
  --height H          rescale the creature to H metres tall first (its file units are wrong)
  --scale S           rescale it by S (metres per file unit)
  --quiet             print only warnings and errors
  -h, --help          show this help

Exit status: 0 written, 1 a file cannot be used (or nothing matches), 2 usage error.
`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, {
    creature: { type: 'string', short: 'c' }, out: { type: 'string', short: 'o' }, height: { type: 'string' }, scale: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
  });
  if (values.help) { io.out(help); return EXIT_OK; }
  if (positionals.length !== 1) throw new UsageError(`transfer takes one rig file, got ${positionals.length}`);
  const creatureFile = str(values.creature);
  if (!creatureFile) throw new UsageError('transfer needs --creature FILE (the creature to apply the rig to)');
  const out = str(values.out);
  if (!out) throw new UsageError('transfer needs --out FILE (the rig JSON to write)');
  const positive = (x: number) => x > 0;
  const height = parseNumber(str(values.height), '--height', positive, 'a positive number of metres');
  const scaleArg = parseNumber(str(values.scale), '--scale', positive, 'a positive number (metres per file unit)');
  if (height !== undefined && scaleArg !== undefined) throw new UsageError('give --height or --scale, not both');
  const say = (s: string) => { if (!values.quiet) io.out(s); };

  const rigFile = positionals[0]!;
  const read = readTextFile(rigFile);
  if (!read.ok) throw new Error(`${rigFile}: ${read.message}`);
  const source = readRigInput(read.text, rigFile);
  if (!source.ok) throw new Error(source.message);

  const { input: raw, warnings: readWarnings } = await readCreatureInput(creatureFile);
  for (const w of readWarnings) io.out(`warning: ${w}\n`);
  const scale = height !== undefined ? scaleForHeight(raw, height) : scaleArg ?? 1;
  const input = scaleSkeleton(raw, scale);

  let result;
  try {
    result = transferRig(source.rig, input.bones, { name: basename(creatureFile).replace(/\.(glb|gltf|fbx)$/i, ''), skeletonScale: scale });
  } catch (e) {
    throw new Error(`${creatureFile}: ${(e as Error).message}`);
  }
  const valid = validateRig(result.rig);
  if (!valid.ok) {
    const list = valid.problems.slice(0, 5).map((p) => `  ${formatProblem(p)}`).join('\n');
    throw new Error(`${creatureFile}: the transferred rig is not valid (is the creature in metres? try --height H):\n${list}`);
  }

  say(`${rigFile} -> ${creatureFile}: ${result.matched.length} of ${result.matched.length + result.unmatched.length} bones matched; ${result.rig.bodies.length} bodies, ${result.rig.joints.length} joints, ${result.rig.controllers.length} controllers${scale !== 1 ? ` (creature scaled x${+scale.toPrecision(6)})` : ''}\n`);
  say('matched:\n');
  const bodyOn = new Map(result.rig.bodies.map((b) => [b.bone, b.name]));
  for (const m of result.matched) {
    const k = result.scale[bodyOn.get(m.to) ?? ''];
    say(`  ${m.from.padEnd(28)} -> ${m.to.padEnd(28)} ${m.kind.padEnd(8)}${k !== undefined ? ` x${k.toFixed(3)}` : ''}\n`);
  }
  // Unmatched bones and what they took with them are always printed: nothing is dropped silently.
  if (result.unmatched.length) {
    io.out(`unmatched: ${result.unmatched.length}\n`);
    for (const b of result.unmatched) io.out(`  ${b}\n`);
  }
  for (const d of result.dropped) io.out(`left out: ${d.kind} "${d.name}": ${d.reason}\n`);
  for (const w of checkRigPlausibility(result.rig)) io.out(`warning: ${w.path ? `${w.path}: ` : ''}${w.message}\n`);

  const tmp = `${out}.tmp-${process.pid}`;
  writeFileSync(tmp, writeRigJson(valid.rig));
  renameSync(tmp, out);
  say(`wrote ${out}\n`);
  return EXIT_OK;
}
