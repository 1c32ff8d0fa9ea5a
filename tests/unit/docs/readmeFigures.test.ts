import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
// @ts-expect-error — plain ESM script without types
import { BEGIN, END, FIGURES, README, formatDuration, parseFigures } from '../../../scripts/readme-figures.mjs';

type Parse = (text: string) => { lines: Map<string, string>; before: string; after: string };
const parse = parseFigures as Parse;
const labels = FIGURES as Record<string, string>;
const readme = readFileSync(README as string, 'utf8');

/** The README with its figures block's lines replaced by `lines`. */
function withLines(lines: string[]): string {
  const { before, after } = parse(readme);
  return `${before}${BEGIN as string}\n${lines.join('\n')}\n${END as string}${after}`;
}
const measured = {
  unit: `- ${labels.unit}: 2 min 05 s (measured 2026-11-24 on 2 cores at load 1.3, Node v20.20.2)`,
  e2e: `- ${labels.e2e}: 4 min 40 s (measured 2026-11-24 on 2 cores at load 1.3, Node v20.20.2)`,
  preview: `- ${labels.preview}: 16423 frames/s = 274× real time; the 20 s timeline recorded in 4.4 s (measured 2026-11-24 on 2 cores at load 5.2, Node v20.20.2)`,
};

describe("README's figures block (written by scripts/readme-figures.mjs)", () => {
  it('exists once, between its markers, with one well-formed line per figure in order', () => {
    const { lines } = parse(readme);
    expect([...lines.keys()]).toEqual(['unit', 'e2e', 'preview']);
    for (const [key, line] of lines) expect(line.startsWith(`- ${labels[key]}: `), line).toBe(true);
  });

  it('every measured line carries its date, cores, load and Node; placeholders say how to measure', () => {
    for (const line of parse(readme).lines.values()) {
      expect(line).toMatch(/\(measured \d{4}-\d{2}-\d{2} on \d+ cores? at load \d+\.\d, Node v\d+\.\d+\.\d+\)$|not measured yet — run `node scripts\/readme-figures\.mjs --(tests|preview)`/);
    }
  });

  it('the parser accepts measured lines and refuses a typed-in figure, a missing stamp, a missing line and a second block', () => {
    expect([...parse(withLines([measured.unit, measured.e2e, measured.preview])).lines.values()]).toEqual(Object.values(measured));
    // Since issue 17 the preview line also says how long an edit takes to show at the playhead.
    const withEdit = measured.preview.replace('4.4 s (', '4.4 s; an edit shows at the playhead in 412 ms (median) (');
    expect(parse(withLines([measured.unit, measured.e2e, withEdit])).lines.get('preview')).toBe(withEdit);
    // … and, since the hops were measured, posed and drawn apart, with the whole timeline's return.
    const withHops = measured.preview.replace('4.4 s (', '4.4 s; an edit is posed at the playhead in 95 ms and drawn in 246 ms, the whole timeline back in 0.30 s (medians) (');
    expect(parse(withLines([measured.unit, measured.e2e, withHops])).lines.get('preview')).toBe(withHops);
    expect(() => parse(withLines([measured.unit, measured.e2e, withHops.replace('drawn in 246 ms', 'drawn soon')]))).toThrow(/malformed value/);
    expect(() => parse(withLines([measured.unit, measured.e2e, withEdit.replace('412 ms', 'fast')]))).toThrow(/malformed value/);
    expect(() => parse(withLines([`- ${labels.unit}: about a minute`, measured.e2e, measured.preview]))).toThrow(/figures line "unit" does not end with "\(measured/);
    expect(() => parse(withLines([measured.unit.replace('2 min 05 s', 'about 2 min'), measured.e2e, measured.preview]))).toThrow(/malformed value "about 2 min"/);
    expect(() => parse(withLines([measured.unit, measured.preview]))).toThrow(/has 2 lines, expected 3/);
    expect(() => parse(withLines([measured.e2e, measured.unit, measured.preview]))).toThrow(/line 1 should start with/);
    expect(() => parse(`${readme}\n${BEGIN as string}\n${END as string}\n`)).toThrow(/more than once/);
    expect(() => parse(readme.replace(END as string, ''))).toThrow(/end marker not found/);
  });

  it('formats durations as the parser expects them', () => {
    const format = formatDuration as (ms: number) => string;
    expect(format(42_400)).toBe('42 s');
    expect(format(125_000)).toBe('2 min 05 s');
    expect(format(59_600)).toBe('1 min 00 s');
  });
});
