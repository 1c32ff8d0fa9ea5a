/**
 * validateRig: JSON text or a parsed value → a RigDocument, or every problem found, each with its JSON path
 * and a sentence. Order of checks, each stage only on what the previous accepted:
 *   size → JSON syntax → nesting depth → format name → version (refuse newer, migrate older) →
 *   schema (all field problems at once) → semantics (references, cycles, ranges, chains).
 * Never throws on any input; the input is never mutated.
 */
import { migrate } from './migrations';
import { formatProblem, problemsFromIssue, show, type RigProblem } from './problems';
import { RIG_FORMAT, RIG_VERSION, rigSchema, type RigDocument } from './schema';
import { checkSemantics } from './semantics';

export interface ValidateOptions {
  /** Refuse JSON text longer than this many characters (default 16 MiB; a 100-bone rig is ~0.2 MB). */
  maxBytes?: number;
  /** Deepest nesting accepted (default 64; the format itself needs 8 plus whatever `extras` holds). */
  maxDepth?: number;
  /** Stop listing after this many problems (default 500) and say how many more there were. */
  maxProblems?: number;
}

export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_DEPTH = 64;

export type RigValidation =
  | { ok: true; rig: RigDocument; /** The file's version when it was migrated, else null. */ migratedFrom: number | null }
  | { ok: false; problems: RigProblem[] };

export function validateRig(input: unknown, options: ValidateOptions = {}): RigValidation {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxProblems = options.maxProblems ?? 500;
  const fail = (problems: RigProblem[]): RigValidation => ({ ok: false, problems: capProblems(problems, maxProblems) });

  let value = input;
  if (typeof input === 'string') {
    if (input.length > maxBytes) {
      return fail([{ path: '', message: `is ${megabytes(input.length)} long; rigs are limited to ${megabytes(maxBytes)} (a 100-bone rig is about 0.2 MB), so this is refused without reading it` }]);
    }
    const parsed = parseJson(input);
    if (!parsed.ok) return fail([{ path: '', message: parsed.message }]);
    value = parsed.value;
  }

  const deep = findDeepNesting(value, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  if (deep) return fail([deep]);

  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail([{ path: '', message: `a rig must be a JSON object, got ${show(value)}` }]);
  }
  const doc = value as Record<string, unknown>;
  if (doc.format !== RIG_FORMAT) {
    const got = doc.format === undefined ? 'no "format" field' : `format ${JSON.stringify(doc.format)}`;
    return fail([{ path: 'format', message: `must be "${RIG_FORMAT}", got ${got}; this is not a Marionette rig` }]);
  }
  const version = doc.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return fail([{ path: 'version', message: `must be a non-negative integer format version, got ${typeof version === 'string' ? JSON.stringify(version) : show(version)}` }]);
  }

  let current: Record<string, unknown> = doc;
  let migratedFrom: number | null = null;
  if (version !== RIG_VERSION) {
    const m = migrate(doc, version);
    if (!m.ok) return fail([{ path: 'version', message: m.message }]);
    current = m.doc;
    migratedFrom = version;
  }

  const parsed = rigSchema.safeParse(current, { reportInput: true });
  const note = migratedFrom === null ? '' : ` (after migrating from version ${migratedFrom})`;
  if (!parsed.success) {
    return fail(parsed.error.issues.flatMap(problemsFromIssue).map((p) => ({ ...p, message: p.message + note })));
  }
  const semantic = checkSemantics(parsed.data);
  if (semantic.length > 0) return fail(semantic.map((p) => ({ ...p, message: p.message + note })));
  return { ok: true, rig: parsed.data, migratedFrom };
}

/** A thrown RigError carries every problem; its message lists them (capped) one per line. */
export class RigError extends Error {
  readonly problems: readonly RigProblem[];
  constructor(problems: readonly RigProblem[], source?: string) {
    const head = `${source ? `${source}: ` : ''}invalid rig (${problems.length} problem${problems.length === 1 ? '' : 's'})`;
    super([head, ...problems.slice(0, 50).map((p) => `  ${formatProblem(p)}`)].join('\n'));
    this.name = 'RigError';
    this.problems = problems;
  }
}

// ---------------------------------------------------------------------------------------------- helpers

function capProblems(problems: RigProblem[], max: number): RigProblem[] {
  if (problems.length <= max) return problems;
  return [...problems.slice(0, max), { path: '', message: `… and ${problems.length - max} more problems` }];
}

const megabytes = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // tolerate a UTF-8 BOM
  if (body.trim() === '') return { ok: false, message: 'the file is empty; a rig is a JSON object' };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    const raw = (e as Error).message;
    const m = /position (\d+)/.exec(raw);
    const pos = m ? Number(m[1]) : body.length;
    // An error at the very end means the text stopped mid-document: say so rather than quote the parser.
    if (pos >= body.trimEnd().length || /end of JSON/i.test(raw)) {
      return { ok: false, message: `is not valid JSON: it ends too early at ${lineColumn(body, body.trimEnd().length)} (truncated file?)` };
    }
    const where = lineColumn(body, pos);
    const reason = raw.replace(/\s*in JSON at position \d+.*$/s, '');
    return { ok: false, message: `is not valid JSON at ${where}: ${reason}` };
  }
}


function lineColumn(text: string, pos: number): string {
  let line = 1, col = 1;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) { line++; col = 1; } else col++;
  }
  return `line ${line}, column ${col}`;
}

/** Iterative depth-first walk (a recursive one would overflow on the very input it guards against). */
function findDeepNesting(root: unknown, maxDepth: number): RigProblem | null {
  const stack: { v: unknown; depth: number; path: (string | number)[] }[] = [{ v: root, depth: 0, path: [] }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth) {
      const shown = path.slice(0, 6).map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('').replace(/^\./, '');
      return { path: shown + (path.length > 6 ? '…' : ''), message: `nests deeper than ${maxDepth} levels; a rig needs about 8, so this is refused` };
    }
    // Paths are kept to 8 segments: enough for the message, and no quadratic copying on deep input.
    const next = (k: string | number) => (path.length < 8 ? [...path, k] : path);
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: next(i) });
    else for (const k of Object.keys(v)) stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, path: next(k) });
  }
  return null;
}
