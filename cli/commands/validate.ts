/** marionette validate <rig.json>… — every problem of every file, exit 1 if any file is invalid. */
import { checkUnboundedSlides } from '../../shared/authoring';
import { formatProblem, validateRig } from '../../shared/rig';
import { parse, parseNumber, str } from '../args';
import { readTextFile } from '../files';
import { EXIT_INVALID, EXIT_OK, UsageError, type CliIO } from '../io';
import { isParticleScene, validateParticleScene } from './simulateParticles';

export const summary = 'check rig files against the format (structure, units, references, cycles, chains)';

export const help = `Usage: marionette validate <rig.json>... [--json] [--max-size MB]

Checks each rig file: JSON syntax, format version (older versions are migrated,
newer ones refused), every field's type and range, and the cross-checks the
schema cannot express (missing bones/bodies/joints, duplicate names, cycles in
the joint graph, limit min > max, disconnected controller chains, joint anchors
that do not meet at the rest pose, computed mass properties that disagree with
the shapes). Every problem is listed with its JSON path. A valid rig may carry
warnings, listed under it without changing the exit status: a slide with no
limit that nothing brings back (its body is flung out when its parent turns).
A particle scene
(format "marionette-particles", assets/examples/) is checked by the particle
loader instead.

Options:
  --json          print one JSON object per line: {"file","ok","problems":[{"path","message"}],"warnings":[…]}
  --max-size MB   refuse files larger than this (default 16)
  -h, --help      show this help

Exit status: 0 all files valid, 1 some file invalid or unreadable, 2 usage error.
`;

export function run(argv: string[], io: CliIO): number {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, 'max-size': { type: 'string' } });
  if (values.help) { io.out(help); return EXIT_OK; }
  if (positionals.length === 0) throw new UsageError('validate needs at least one rig file');
  const maxMb = parseNumber(str(values['max-size']), '--max-size', (x) => x > 0, 'a positive number of megabytes') ?? 16;
  const maxBytes = Math.floor(maxMb * 2 ** 20);

  let invalid = 0;
  for (const file of positionals) {
    const read = readTextFile(file, maxBytes);
    if (read.ok && isParticleScene(read.text)) {
      // A particle scene (assets/examples): checked by the particle loader, not against the rig format.
      const r = validateParticleScene(read.text, file);
      if (!r.ok) invalid++;
      if (values.json) io.out(`${JSON.stringify({ file, ok: r.ok, kind: 'particle-scene', problems: r.ok ? [] : r.problems })}\n`);
      else if (r.ok) io.out(`${file}: valid — ${r.summary}\n`);
      else io.out(`${file}: INVALID particle scene — ${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}\n${r.problems.map((p) => `  ${formatProblem(p)}\n`).join('')}`);
      continue;
    }
    const result = read.ok ? validateRig(read.text, { maxBytes }) : { ok: false as const, problems: [{ path: '', message: read.message }] };
    if (!result.ok) invalid++;
    // Physically hopeless but valid: said up front, the rig still loads (shared/authoring/plausibility.ts).
    const warnings = result.ok ? checkUnboundedSlides(result.rig).map((w) => ({ path: w.path, message: w.message })) : [];
    if (values.json) {
      io.out(`${JSON.stringify(result.ok ? { file, ok: true, problems: [], warnings } : { file, ok: false, problems: result.problems, warnings })}\n`);
    } else if (result.ok) {
      const r = result.rig;
      const migrated = result.migratedFrom === null ? '' : ` (migrated from version ${result.migratedFrom})`;
      io.out(`${file}: valid — rig "${r.name}", ${r.skeleton.bones.length} bones, ${r.bodies.length} bodies, ${r.joints.length} joints, ${r.controllers.length} controllers${migrated}\n`);
      for (const w of warnings) io.out(`  warning: ${formatProblem(w)}\n`);
    } else {
      const n = result.problems.length;
      io.out(`${file}: INVALID — ${n} problem${n === 1 ? '' : 's'}\n${result.problems.map((p) => `  ${formatProblem(p)}\n`).join('')}`);
    }
  }
  if (!values.json && positionals.length > 1) io.out(`${positionals.length - invalid} of ${positionals.length} files valid\n`);
  return invalid > 0 ? EXIT_INVALID : EXIT_OK;
}
