/**
 * Problems a user can act on: a JSON path (`joints[3].motor.maxTorque`) and a sentence (`must be ≥ 0, got
 * -5`). zod's issues are rewritten here into that form, so the CLI, the editor and a game's loader all
 * print the same thing.
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
