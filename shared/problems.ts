/**
 * Problems a user can act on: a JSON path (`joints[3].motor.maxTorque`) and a sentence (`must be ≥ 0, got
 * -5`). zod's issues are rewritten here into that form, so the CLI, the editor and a game's loader all
 * print the same thing — for rigs (rig/validate.ts) and particle scenes (physics/particles/scene.ts) alike,
 * which is why this module belongs to neither. parseJsonText says where and why JSON text is broken.
 */
import type { core } from 'zod';

export interface RigProblem {
  /** JSON path of the offending value, e.g. `joints[3].motor.maxTorque`; '' for the document itself. */
  path: string;
  message: string;
}

/** `path: message`, or the message alone for document-level problems. */
export function formatProblem(p: RigProblem): string {
  return p.path ? `${p.path}: ${p.message}` : p.message;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const k of path) {
    if (typeof k === 'number') out += `[${k}]`;
    else {
      const s = String(k);
      out += /^[A-Za-z_$][\w$]*$/.test(s) ? (out ? `.${s}` : s) : `[${JSON.stringify(s)}]`;
    }
  }
  return out;
}

/** A short, safe rendering of a bad value for a message (never dumps a 50 MB array). */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') {
    const s = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the string ${JSON.stringify(s)}`;
  }
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

const NUMBERISH = /^\s*[-+]?(NaN|Infinity|inf|nan|\d+(\.\d*)?([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)\s*$/;

const EXPECTED: Record<string, string> = {
  number: 'a number', int: 'an integer', string: 'a string', boolean: 'true or false', array: 'an array',
  object: 'an object', tuple: 'an array', null: 'null', record: 'an object', literal: 'a fixed value',
};

function typeMessage(expected: string, input: unknown): string {
  if (input === undefined) return 'is required';
  if (expected === 'number' && typeof input === 'number') return `must be a finite number, got ${show(input)}`;
  if (expected === 'int' && typeof input === 'number') return `must be an integer, got ${show(input)}`;
  if ((expected === 'number' || expected === 'int') && typeof input === 'string' && NUMBERISH.test(input)) {
    return `must be a number, got ${show(input)} (write the number without quotes; JSON has no NaN or Infinity, so use a finite value)`;
  }
  return `must be ${EXPECTED[expected] ?? expected}, got ${show(input)}`;
}

function bound(issue: { minimum?: unknown; maximum?: unknown; inclusive?: boolean; origin?: string; input?: unknown }, small: boolean): string {
  const limit = Number(small ? issue.minimum : issue.maximum);
  const input = issue.input;
  switch (issue.origin) {
    case 'array': case 'set': {
      const n = Array.isArray(input) ? input.length : '?';
      if (issue.minimum !== undefined && issue.maximum !== undefined && issue.minimum === issue.maximum) return `must have exactly ${limit} items, got ${n}`;
      return small ? `must have at least ${limit} item${limit === 1 ? '' : 's'}, got ${n}` : `must have at most ${limit} items, got ${n}`;
    }
    case 'string': {
      const n = typeof input === 'string' ? input.length : '?';
      if (small && limit === 1) return 'must not be empty';
      return small ? `must be at least ${limit} characters long, got ${n}` : `must be at most ${limit} characters long, got ${n}`;
    }
    default: {
      const op = small ? (issue.inclusive === false ? '>' : '≥') : (issue.inclusive === false ? '<' : '≤');
      return `must be ${op} ${Number(limit.toPrecision(6))}, got ${show(input)}`;
    }
  }
}

/** One zod issue → one or more problems (an unknown-keys issue names each key). */
export function problemsFromIssue(issue: core.$ZodIssue): RigProblem[] {
  const path = formatPath(issue.path);
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      return [{ path, message: typeMessage(issue.expected, input) }];
    case 'too_small':
      return [{ path, message: bound(issue as never, true) }];
    case 'too_big':
      return [{ path, message: bound(issue as never, false) }];
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v));
      const got = input === undefined ? 'it is missing' : `got ${typeof input === 'string' ? JSON.stringify(input.slice(0, 40)) : show(input)}`;
      return [{ path, message: values.length === 1 ? `must be ${values[0]}, ${got}` : `must be one of ${values.join(', ')}, ${got}` }];
    }
    case 'unrecognized_keys':
      return issue.keys.map((k) => ({
        path: formatPath([...issue.path, k]),
        message: 'is not a field of the rig format (misspelt? application data goes in "extras")',
      }));
    case 'invalid_union': {
      const u = issue as core.$ZodIssueInvalidUnion & { discriminator?: string; options?: unknown[] };
      if (u.discriminator !== undefined) {
        const got = input && typeof input === 'object' ? (input as Record<string, unknown>)[u.discriminator] : undefined;
        const opts = (u.options ?? []).map((o) => JSON.stringify(o)).join(', ');
        return [{ path, message: got === undefined ? `is required (one of ${opts})` : `must be one of ${opts}, got ${typeof got === 'string' ? JSON.stringify(got) : show(got)}` }];
      }
      return [{ path, message: issue.message }];
    }
    case 'invalid_key':
      return [{ path, message: `has an invalid key: ${issue.message}` }];
    default:
      return [{ path, message: issue.message }];
  }
}

// ------------------------------------------------------------------------------------------- JSON text

/** JSON text → its value, or a message saying where and why it is not JSON (a UTF-8 BOM is tolerated).
 *  `what` names the expected document in the empty-file message ("a rig"). */
export function parseJsonText(text: string, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // tolerate a UTF-8 BOM
  if (body.trim() === '') return { ok: false, message: `the file is empty; ${what} is a JSON object` };
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
