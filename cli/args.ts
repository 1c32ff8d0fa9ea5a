/** Command-line parsing on node:util's parseArgs, with our usage errors and number/vector parsing. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io';

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

export function parse(argv: string[], options: Options): Parsed {
  try {
    return parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' }, ...options }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/** A string option's value (undefined when absent). */
export const str = (v: Parsed['values'][string]): string | undefined => (typeof v === 'string' ? v : undefined);
/** A repeatable string option's values. */
export const strs = (v: Parsed['values'][string]): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

export function parseNumber(text: string | undefined, what: string, check: (x: number) => boolean = Number.isFinite, rule = 'a finite number'): number | undefined {
  if (text === undefined) return undefined;
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x) || !check(x)) throw new UsageError(`${what} must be ${rule}, got "${text}"`);
  return x;
}

export function parseVec3(text: string, what: string): [number, number, number] {
  const parts = text.split(',').map((s) => Number(s));
  if (parts.length !== 3 || parts.some((x) => !Number.isFinite(x))) throw new UsageError(`${what} must be three numbers x,y,z (metres), got "${text}"`);
  return [parts[0]!, parts[1]!, parts[2]!];
}
