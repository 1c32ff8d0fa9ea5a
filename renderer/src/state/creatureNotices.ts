/**
 * What the user is told when a creature opens, beyond "Opened …": clips the file has but that could not be
 * read (errors: a clip the user may pick as a motor target is missing), and what the loader tolerated
 * (info: e.g. an FBX texture that was not provided, so the mesh is drawn without it). The warnings go in
 * one notice — a file can have many, and the toasts keep only the last few — naming the file.
 */
export interface CreatureNotice { kind: 'error' | 'info'; text: string }

/** At most this many warnings are spelled out in the notice; the rest are counted. */
export const WARNINGS_SHOWN = 3;

export function creatureNotices(creature: { fileName: string; clipProblems: readonly string[]; warnings: readonly string[] }): CreatureNotice[] {
  const out: CreatureNotice[] = creature.clipProblems.map((text) => ({ kind: 'error', text }));
  const w = creature.warnings.map((t) => withoutFile(t, creature.fileName));
  if (w.length === 0) return out;
  const shown = w.slice(0, WARNINGS_SHOWN).join('; ');
  const more = w.length > WARNINGS_SHOWN ? `; and ${w.length - WARNINGS_SHOWN} more (in the developer console)` : '';
  out.push({ kind: 'info', text: w.length === 1 ? `${creature.fileName}: ${w[0]}` : `${creature.fileName}: ${w.length} warnings — ${shown}${more}` });
  return out;
}

/** A warning that already starts with the file's name is not prefixed with it twice. */
function withoutFile(text: string, fileName: string): string {
  return text.startsWith(`${fileName}: `) ? text.slice(fileName.length + 2) : text;
}
