/**
 * validateRig at the edge: JSON syntax errors give the position and the real reason (not "truncated" for
 * every unexpected token), values no JSON holds are refused with their path, it never throws, and what it
 * accepts can be serialised and loaded again (no huge extras).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadRig, serializeRig, validateRig, locateJsonError } from '../../../shared/rig';

const text = readFileSync('assets/creatures/armed-mine.rig.json', 'utf8');
const message = (input: unknown): string => {
  const r = validateRig(input);
  expect(r.ok).toBe(false);
  return r.ok ? '' : r.problems[0]!.message;
};
const lineOf = (needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('JSON syntax errors', () => {
  it.each([
    ['{"a": NaN}', /at line 1, column 7: expected a value: NaN is not a JSON number/],
    ['{"a": -Infinity}', /column 7: .*-Infinity is not a JSON number/],
    ['{"a": 1,}', /column 9: a trailing comma before '}' is not allowed/],
    ['{"a" 1}', /column 6: expected ':' after the property name/],
    ["{'a': 1}", /column 2: .*strings are written in double quotes/],
    ['{"a": 1} x', /column 10: unexpected "x" after the end of the document/],
    ['{"a": tru}', /column 7: expected a value: unexpected "t"/],
    ['{"a": "x\ny"}', /column 9: a string runs past the end of the line/],
    ['{"a": 1 // note\n}', /column 9: expected ',' or '}': JSON has no comments/],
    ['{"a": [1, 2', /ends too early at line 1, column 12, the text ends inside an array \(truncated file\?\)/],
  ])('%j → %s', (input, expected) => {
    expect(message(input)).toMatch(/^is not valid JSON/);
    expect(message(input)).toMatch(expected);
  });

  it('a NaN in the middle of a real rig is reported where it is, not as a truncated file', () => {
    const broken = text.replace('"dt": ', '"dt": NaN, "was": ');
    expect(message(broken)).toBe(`is not valid JSON at line ${lineOf('"dt": ')}, column ${text.split('\n')[lineOf('"dt": ') - 1]!.indexOf('"dt": ') + 7}: expected a value: NaN is not a JSON number (write a finite number)`);
    expect(message(text.slice(0, text.length / 2))).toMatch(/ends too early .*\(truncated file\?\)/);
  });

  it('the scanner agrees with JSON.parse on valid text and on a deep nest (no recursion)', () => {
    expect(locateJsonError(text)).toBeNull();
    expect(locateJsonError('['.repeat(200_000) + ']'.repeat(200_000))).toBeNull();
    expect(locateJsonError('['.repeat(200_000))).toEqual({ pos: 200_000, reason: 'the text ends inside an array' });
  });
});

describe('values no JSON holds; never throws', () => {
  it('a BigInt (also in a version-0 document), a function, a symbol are refused with their path', () => {
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect(validateRig({ ...doc, version: 0, extras: { big: 10n } })).toEqual({ ok: false, problems: [{ path: 'extras.big', message: 'is a BigInt, which no JSON file holds; a rig holds only JSON values' }] });
    expect(message({ ...doc, extras: { f: () => 1 } })).toMatch(/is a function/);
    expect(message({ ...doc, name: Symbol('x') })).toMatch(/is a symbol/);
  });

  it('throwing getters and proxies are refused, not thrown', () => {
    const doc = JSON.parse(text) as Record<string, unknown>;
    const getter = Object.defineProperty({ ...doc }, 'name', { get() { throw new Error('getter boom'); }, enumerable: true });
    expect(message(getter)).toMatch(/cannot be read as a rig \(getter boom\)/);
    const proxy = new Proxy({}, { ownKeys() { throw new Error('keys boom'); } });
    expect(message(proxy)).toMatch(/keys boom/);
    const cyclic: Record<string, unknown> = { ...doc };
    cyclic.extras = { self: cyclic };
    expect(message(cyclic)).toMatch(/nests deeper than 64 levels/);
  });

  it('what validates serialises to a file loadRig reads: 5 million numbers in extras are refused up front', () => {
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect(message({ ...doc, extras: { samples: new Array(5_000_000).fill(1.2345) } })).toMatch(/would be more than 16\.0 MB as a file/);
    const ok = validateRig(doc);
    expect(ok.ok).toBe(true);
    if (ok.ok) expect(loadRig(serializeRig(ok.rig)).name).toBe(ok.rig.name);
  });
});
