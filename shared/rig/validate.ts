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
    const parsed = parseJson(input);
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

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // tolerate a UTF-8 BOM
  if (body.trim() === '') return { ok: false, message: 'the file is empty; a rig is a JSON object' };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    // The engine's message is not reliable about where (V8 gives no position for "Unexpected token"), so
    // find the first offending character ourselves.
    const found = locateJsonError(body);
    if (found === null) return { ok: false, message: `is not valid JSON: ${(e as Error).message}` };
    if (found.pos >= body.trimEnd().length) {
      return { ok: false, message: `is not valid JSON: it ends too early at ${lineColumn(body, body.trimEnd().length)}, ${found.reason} (truncated file?)` };
    }
    return { ok: false, message: `is not valid JSON at ${lineColumn(body, found.pos)}: ${found.reason}` };
  }
}

/** Where JSON.parse fails on `text` and why, by a small scanner (iterative: deep nesting cannot overflow it).
 *  null if the scanner finds nothing wrong (then the engine's own message is used). */
export function locateJsonError(text: string): { pos: number; reason: string } | null {
  let i = 0;
  const n = text.length;
  const ws = () => { while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++; };
  const describeAt = (p: number): string => {
    if (p >= n) return 'the text ends';
    const rest = text.slice(p, p + 12);
    if (/^-?(NaN|Infinity)/.test(rest)) return `${/^-?(NaN|Infinity)/.exec(rest)![0]} is not a JSON number (write a finite number)`;
    if (/^(undefined|None|True|False|nil)/.test(rest)) return `${/^\w+/.exec(rest)![0]} is not a JSON value (JSON has true, false and null)`;
    if (text[p] === "'") return 'strings are written in double quotes in JSON';
    if (text[p] === '/') return 'JSON has no comments';
    return `unexpected ${JSON.stringify(text[p])}`;
  };
  const stack: Array<'{' | '['> = [];
  const fail = (reason: string) => ({ pos: Math.min(i, n), reason });
  const value = (): { pos: number; reason: string } | null => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') { stack.push(c); i++; return null; }
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      if (!m || m[0] === '-') return fail(describeAt(i));
      i += m[0].length;
      return null;
    }
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) { i += word.length; return null; }
    return fail(i >= n ? 'a value is missing at the end' : `expected a value: ${describeAt(i)}`);
  };
  const string = (): { pos: number; reason: string } | null => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) { i++; return null; }
      if (c < 0x20) return fail(c === 10 ? 'a string runs past the end of the line (missing closing quote?)' : 'a control character inside a string must be escaped');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') { if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail('\\u must be followed by 4 hex digits'); i += 6; continue; }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return fail(`bad escape \\${e ?? ''} in a string`);
        i += 2; continue;
      }
      i++;
    }
    return fail('a string is not closed');
  };
  // Iterative walk: after a value, expect the continuation of the innermost container.
  let problem = value();
  if (problem) return problem;
  let justOpened = stack.length > 0;
  for (;;) {
    ws();
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (i < n) return fail(`${describeAt(i)} after the end of the document`);
      return null;
    }
    const close = top === '{' ? '}' : ']';
    if (text[i] === close) { stack.pop(); i++; justOpened = false; continue; }
    if (!justOpened) {
      if (text[i] !== ',') return fail(i >= n ? `the text ends inside ${top === '{' ? 'an object' : 'an array'}` : `expected ',' or '${close}': ${describeAt(i)}`);
      i++;
      ws();
      if (text[i] === close) return fail(`a trailing comma before '${close}' is not allowed in JSON`);
    }
    justOpened = false;
    if (top === '{') {
      ws();
      if (text[i] !== '"') return fail(i >= n ? 'the text ends inside an object' : `expected a property name in double quotes: ${describeAt(i)}`);
      problem = string();
      if (problem) return problem;
      ws();
      if (text[i] !== ':') return fail(`expected ':' after the property name: ${describeAt(i)}`);
      i++;
    }
    ws();
    if (i >= n) return fail(`the text ends inside ${top === '{' ? 'an object' : 'an array'}`);
    const depth = stack.length;
    problem = value();
    if (problem) return problem;
    justOpened = stack.length > depth;
  }
}

function lineColumn(text: string, pos: number): string {
  let line = 1, col = 1;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) { line++; col = 1; } else col++;
  }
  return `line ${line}, column ${col}`;
}

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
