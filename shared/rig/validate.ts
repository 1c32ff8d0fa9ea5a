/**
 * validateRig: JSON text or a parsed value → a RigDocument, or every problem found, each with its JSON path
 * and a sentence. Order of checks, each stage only on what the previous accepted:
 *   size → JSON syntax → nesting depth → format name → version (refuse newer, migrate older) →
 *   schema (all field problems at once) → semantics (references, cycles, ranges, chains).
 * Never throws on any input; the input is never mutated.
 */
import { migrate } from './migrations';
import { formatProblem, parseJsonText as parseJson, problemsFromIssue, show, type RigProblem } from '../problems';
import { RIG_FORMAT, RIG_VERSION, rigSchema, type RigDocument } from './schema';
import { checkSemantics } from './semantics';

export { locateJsonError } from '../problems';

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
  try {
    return validateRigUnguarded(input, options);
  } catch (error) {
    // The last guard: a value no JSON file can hold (a throwing getter, a Proxy, …) is refused, not thrown.
    return { ok: false, problems: [{ path: '', message: `cannot be read as a rig (${error instanceof Error ? error.message : String(error)})` }] };
  }
}

function validateRigUnguarded(input: unknown, options: ValidateOptions): RigValidation {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxProblems = options.maxProblems ?? 500;
  const fail = (problems: RigProblem[]): RigValidation => ({ ok: false, problems: capProblems(problems, maxProblems) });

  let value = input;
  if (typeof input === 'string') {
    if (input.length > maxBytes) {
      return fail([{ path: '', message: `is ${megabytes(input.length)} long; rigs are limited to ${megabytes(maxBytes)} (a 100-bone rig is about 0.2 MB), so this is refused without reading it` }]);
    }
    const parsed = parseJson(input, 'a rig');
    if (!parsed.ok) return fail([{ path: '', message: parsed.message }]);
    value = parsed.value;
  }

  const deep = findDeepNesting(value, options.maxDepth ?? DEFAULT_MAX_DEPTH, maxBytes);
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

/**
 * Iterative depth-first walk (a recursive one would overflow on the very input it guards against): refuses
 * nesting deeper than `maxDepth`, values no JSON file can hold (BigInt, functions, symbols, non-finite
 * numbers are left to the schema), and a value whose JSON would be longer than `maxBytes` — what
 * serializeRig writes must load again (the text limit of loadRig), so a huge `extras` is refused here.
 */
function findDeepNesting(root: unknown, maxDepth: number, maxBytes: number): RigProblem | null {
  const stack: { v: unknown; depth: number; path: (string | number)[] }[] = [{ v: root, depth: 0, path: [] }];
  const shown = (path: (string | number)[]) => path.slice(0, 6).map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('').replace(/^\./, '') + (path.length > 6 ? '…' : '');
  // Serialised length, estimated as serializeRig writes it (2-space indent, primitive arrays on one line).
  let bytes = 0;
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    const kind = typeof v;
    if (kind === 'bigint' || kind === 'function' || kind === 'symbol') {
      return { path: shown(path), message: `is a ${kind === 'bigint' ? 'BigInt' : kind}, which no JSON file holds; a rig holds only JSON values` };
    }
    if (kind === 'string') bytes += (v as string).length + 2;
    else if (kind === 'number' || kind === 'boolean') bytes += String(v).length;
    else if (v === null) bytes += 4;
    if (bytes > maxBytes) return { path: '', message: `would be more than ${megabytes(maxBytes)} as a file (the limit loadRig reads); keep large application data out of extras` };
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth) {
      return { path: shown(path), message: `nests deeper than ${maxDepth} levels; a rig needs about 8, so this is refused` };
    }
    // Paths are kept to 8 segments: enough for the message, and no quadratic copying on deep input.
    const next = (k: string | number) => (path.length < 8 ? [...path, k] : path);
    bytes += 2 + depth * 2;
    if (Array.isArray(v)) {
      bytes += v.length * 2;
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: next(i) });
    } else {
      for (const k of Object.keys(v)) {
        bytes += k.length + 4 + depth * 2;
        stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, path: next(k) });
      }
    }
  }
  return null;
}
