/**
 * marionette generate <creature.glb|.gltf|.fbx> --out <rig.json> — the editor's Generate for pipelines that
 * rig a hundred characters: the same code (shared/authoring generateRagdoll; for FBX the editor's three.js
 * reader), the same options. Prints what it merged and why, the warnings (scale, far bodies, degenerate
 * shapes, overlaps, mass ratios) and the mass summary; exit 1 with a message naming the file when it
 * cannot use it.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  authoringSkeletonFromCreature, checkRigPlausibility, generateRagdoll, newRigDocument, runTrial, scaleForHeight, scaleProblem,
  scaleSkeleton, withGeneratedRagdoll, type AuthoringSkeleton, type GenerateOptions, type ShapeChoice,
} from '../../shared/authoring';
import { validateRig, formatProblem } from '../../shared/rig';
import { writeRigJson } from '../../shared/export/rig';
import { parseCreature } from '../../shared/skeleton';
import { parse, parseNumber, str } from '../args';
import { EXIT_INVALID, EXIT_OK, UsageError, type CliIO } from '../io';

export const summary = 'rig a creature file (glb, gltf, fbx): bodies, joints and motors, as the editor\'s Generate';

export const help = `Usage: marionette generate <creature.glb|.gltf|.fbx> --out <rig.json> [options]

Reads a rigged creature and writes a rig with a body per deforming bone (IK,
pole, control, twist and end bones, fingers and toes merge into their parent's
body), shapes fitted to the bone's vertices, masses (Winter's segment fractions
for a recognised biped, else volume x density), anatomical joints and limits,
and PD motors strong enough to hold the rest pose. Prints the bones it merged
and why, the warnings and the mass summary.

Options:
  --out FILE          where to write the rig JSON (required)
  --shape S           auto (default: boxes for feet and hands), capsule, sphere or box
  --min-bone M        bones smaller than M metres get no body (default 3 % of the height)
  --total-mass KG     total mass (default 70 kg for a recognised biped)
  --density D         kg/m^3 for volume-based masses (default 985)
  --height H          rescale the creature to H metres tall (its file units are wrong)
  --scale S           rescale by S (metres per file unit), e.g. 0.01 for centimetres
  --self-collision    let the ragdoll's bodies collide with each other
  --check             also run it 5 s powered and 5 s limp and print what happened
  --quiet             print only warnings and errors
  -h, --help          show this help

Exit status: 0 written, 1 the file cannot be used (or --check saw a blow-up), 2 usage error.
`;

const SHAPES = ['auto', 'capsule', 'sphere', 'box'];

/** The creature file as the authoring input, in metres (before any --height / --scale). */
export async function readCreatureInput(file: string): Promise<{ input: AuthoringSkeleton; warnings: string[] }> {
  const name = basename(file);
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  if (statSync(file).isDirectory()) throw new Error(`${file}: is a directory, not a creature file`);
  const bytes = new Uint8Array(readFileSync(file));
  if (/\.fbx$/i.test(file)) {
    // The editor's FBX reader (three.js FBXLoader + fbxCreature.ts), loaded only when needed.
    const { loadFbx } = await import('../../renderer/src/creature/fbx/loadFbx');
    const { authoringSkeleton } = await import('../../renderer/src/authoring/creatureInput');
    const { rigBonesOf } = await import('../../shared/document');
    const fbx = loadFbx(name, bytes, siblings(file, []));
    return { input: authoringSkeleton({ display: fbx.display, skeleton: fbx.skeleton, bones: rigBonesOf(fbx.skeleton), clips: fbx.clips }), warnings: fbx.warnings };
  }
  if (!/\.(glb|gltf)$/i.test(file)) throw new Error(`${file}: not a creature file (expected .glb, .gltf or .fbx)`);
  let uris: string[] = [];
  if (/\.gltf$/i.test(file)) {
    try {
      const json = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: { uri?: string }[]; images?: { uri?: string }[] };
      uris = [...(json.buffers ?? []), ...(json.images ?? [])].map((b) => b.uri).filter((u): u is string => typeof u === 'string' && !u.startsWith('data:'));
    } catch { /* parseCreature says what is wrong */ }
  }
  const creature = parseCreature({ name, bytes, resources: siblings(file, uris) });
  return { input: authoringSkeletonFromCreature(creature), warnings: creature.warnings };
}

/** The files a .gltf names, read from beside it (only plain relative names; parseCreature refuses the rest). */
function siblings(file: string, uris: readonly string[]): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const uri of uris) {
    let decoded: string;
    try { decoded = decodeURIComponent(uri); } catch { continue; }
    if (decoded.includes('..') || decoded.startsWith('/') || /^[a-z]+:/i.test(decoded)) continue;
    const path = join(dirname(file), decoded);
    if (existsSync(path) && statSync(path).isFile()) out[uri] = new Uint8Array(readFileSync(path));
  }
  return out;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, {
    out: { type: 'string', short: 'o' }, shape: { type: 'string' }, 'min-bone': { type: 'string' }, 'total-mass': { type: 'string' },
    density: { type: 'string' }, height: { type: 'string' }, scale: { type: 'string' }, 'self-collision': { type: 'boolean' },
    check: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' },
  });
  if (values.help) { io.out(help); return EXIT_OK; }
  if (positionals.length !== 1) throw new UsageError(`generate takes one creature file, got ${positionals.length}`);
  const out = str(values.out);
  if (!out) throw new UsageError('generate needs --out FILE (the rig JSON to write)');
  const shape = str(values.shape) ?? 'auto';
  if (!SHAPES.includes(shape)) throw new UsageError(`--shape must be one of ${SHAPES.join(', ')}, got "${shape}"`);
  const positive = (x: number) => x > 0;
  const minBone = parseNumber(str(values['min-bone']), '--min-bone', (x) => x >= 0, 'a non-negative number of metres');
  const totalMass = parseNumber(str(values['total-mass']), '--total-mass', positive, 'a positive number of kilograms');
  const density = parseNumber(str(values.density), '--density', positive, 'a positive number of kg/m^3');
  const height = parseNumber(str(values.height), '--height', positive, 'a positive number of metres');
  const scaleArg = parseNumber(str(values.scale), '--scale', positive, 'a positive number (metres per file unit)');
  if (height !== undefined && scaleArg !== undefined) throw new UsageError('give --height or --scale, not both');
  const say = (s: string) => { if (!values.quiet) io.out(s); };

  const file = positionals[0]!;
  const { input: raw, warnings: readWarnings } = await readCreatureInput(file);
  for (const w of readWarnings) io.out(`warning: ${w}\n`);
  const scale = height !== undefined ? scaleForHeight(raw, height) : scaleArg ?? 1;
  const input = scaleSkeleton(raw, scale);
  const problem = scaleProblem(input, basename(file));
  if (problem) io.out(`warning: ${problem.message}${height === undefined && scaleArg === undefined ? ` Use --height H or --scale ${problem.suggestedScale}.` : ''}\n`);

  const options: GenerateOptions = {
    shape: shape as ShapeChoice, ...(minBone !== undefined ? { minBoneLength: minBone } : {}), ...(totalMass !== undefined ? { totalMass } : {}),
    ...(density !== undefined ? { density } : {}), selfCollision: values['self-collision'] === true,
  };
  const generated = generateRagdoll(input, options);
  let rig = withGeneratedRagdoll(newRigDocument(basename(file).replace(/\.(glb|gltf|fbx)$/i, ''), input.bones), generated);
  // The rig records the scale it was generated at (the editor draws the file's mesh by it).
  if (scale !== 1) rig = { ...rig, skeleton: { ...rig.skeleton, scale } };
  const valid = validateRig(rig);
  if (!valid.ok) {
    const list = valid.problems.slice(0, 5).map((p) => `  ${formatProblem(p)}`).join('\n');
    // At an implausible size the masses and torques leave the format's physical bounds: say how to fix it.
    if (problem) throw new Error(`${file}: at ${problem.height.toFixed(1)} m tall the rig leaves the format's physical bounds; rescale it with --height H (its real height in metres) or --scale ${problem.suggestedScale}:\n${list}`);
    throw new Error(`${file}: the generated rig is not valid (a bug — please report it with the file):\n${list}`);
  }

  const s = generated.summary;
  say(`${file}: ${input.bones.length} bones -> ${rig.bodies.length} bodies, ${rig.joints.length} joints; height ${s.height.toFixed(3)} m${scale !== 1 ? ` (scaled x${+scale.toPrecision(6)})` : ''}\n`);
  say(`mass: ${s.totalMass.toFixed(2)} kg, ${s.massSource === 'segments' ? 'a recognised biped: Winter\'s segment fractions' : 'volume x density'}${Object.keys(s.raised).length ? `; raised for jointed ratios <= 9.5 and heavy soles: ${Object.entries(s.raised).map(([b, k]) => `${b} x${k.toFixed(2)}`).join(', ')}` : ''}\n`);
  for (const b of rig.bodies) say(`  ${b.name.padEnd(28)} ${b.shapes[0]!.type.padEnd(8)} ${b.mass!.toFixed(3).padStart(9)} kg\n`);
  const merged = generated.plan.filter((p) => !p.body);
  if (merged.length) {
    say(`merged (no body of their own): ${merged.length}\n`);
    for (const p of merged) say(`  ${p.bone.padEnd(28)} -> ${(p.mergedInto ?? '(above every body)').padEnd(24)} ${p.note}\n`);
  }
  const warnings = checkRigPlausibility(rig);
  for (const w of warnings) io.out(`warning: ${w.path ? `${w.path}: ` : ''}${w.message}\n`);

  const tmp = `${out}.tmp-${process.pid}`;
  writeFileSync(tmp, writeRigJson(rig));
  renameSync(tmp, out);
  say(`wrote ${out}\n`);

  if (values.check) {
    const powered = runTrial(rig, 5, true), limp = runTrial(rig, 5, false);
    const line = (what: string, r: typeof powered) => `${what}: ${r.blewUpAt !== null ? `BLEW UP at ${r.blewUpAt.toFixed(2)} s (${r.blowUp})` : 'no blow-up'}, top body ${(100 * r.minTopFraction).toFixed(0)} % of its start at its lowest, ${(100 * r.finalTopFraction).toFixed(0)} % at 5 s, fastest body ${r.maxSpeed.toFixed(1)} m/s${r.compliantDrives > 0 ? `; ${r.compliantDrives} drive(s) softened on a light link that carries a heavy load (they sag a little: docs/physics.md "What prevents explosions")` : ''}\n`;
    io.out(line('powered 5 s', powered));
    io.out(line('limp 5 s', limp));
    if (powered.blewUpAt !== null || limp.blewUpAt !== null) return EXIT_INVALID;
  }
  return EXIT_OK;
}
