/**
 * A refusal said in the field's own unit and words. The edits (shared/authoring) and the validators speak
 * the stored unit (radians) or none at all, and a schema check can surface zod's own wording ("Too small:
 * expected number to be >=0"); a field shows degrees, kg, N·m. fieldMessage rewrites a message for the field
 * that shows it:
 *   "Too small: expected number to be >=0"            under a kg field      → "must be ≥ 0 kg"
 *   "must be > 0, got -2"                              under a kg field      → "must be > 0 kg, got -2 kg"
 *   "min must be ≤ max, got [1.5, 0.5] rad"            under a degree field  → "min must be ≤ max, got [85.9°, 28.6°]"
 *   "must lie within (−π, π] rad (−180°, 180°], got 4" under a degree field  → "must lie within (−180°, 180°], got 229.2°"
 * Numbers already in the field's unit are left alone; a field without a unit only gets zod's words fixed.
 */

/** How a field shows its value: shown = stored × scale, in `unit` (e.g. '°' with scale 180/π). */
export interface FieldUnit { unit?: string; scale?: number; digits?: number }

const NUM = String.raw`[-+−]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?`;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function rewriteZod(message: string): string {
  return message
    .replace(/Too (small|big): expected number to be ([<>]=?)\s*(\S+)/g, (_m, _k, op: string, n: string) => {
      const sym = op === '>=' ? '≥' : op === '<=' ? '≤' : op;
      return `must be ${sym} ${Number(Number(n).toPrecision(6))}`;
    })
    .replace(/Invalid input: expected number, received \w+/g, 'must be a number')
    .replace(/Too small: expected (string|array) to have >=1 (characters|items)/g, 'must not be empty');
}

/** `message` as the field shows it (see the file comment). */
export function fieldMessage(message: string, field: FieldUnit = {}): string {
  const unit = field.unit ?? '';
  const scale = field.scale ?? 1;
  const converting = scale !== 1;
  const digits = field.digits ?? 1;
  let text = rewriteZod(message);
  if (!unit) return text;
  const show = (n: string): string => {
    const v = Number(n.replace('−', '-'));
    if (!Number.isFinite(v)) return n;
    const r = Number((v * scale).toFixed(digits)); // only a converting field rounds: the stored number is the user's own otherwise
    return `${converting ? (Object.is(r, -0) ? 0 : r) : n}${unit === '°' ? '°' : ` ${unit}`}`;
  };
  // The stored unit a converting field's numbers come in (radians for degree fields), said both ways.
  if (converting && unit === '°') text = text.replace(/\(−π, π\] rad \(−180°, 180°\]/g, '(−180°, 180°]').replace(/\(0, π\] rad \(0°, 180°\]/g, '(0°, 180°]');
  const stored = converting ? (unit === '°' ? 'rad' : null) : null;
  const unitAfter = `(?: (${[stored, unit].filter((u): u is string => !!u).map(escape).join('|')})(?![\\w/³²·]))?`;
  // [a, b] pairs (a range), then single numbers after a comparison or "got".
  text = text.replace(new RegExp(String.raw`\[(${NUM}), (${NUM})\]${unitAfter}`, 'g'), (m, a: string, b: string, u: string | undefined) => (u === unit ? m : `[${show(a)}, ${show(b)}]`));
  text = text.replace(new RegExp(String.raw`(≥|≤|>|<|got) (${NUM})(?![\d°])${unitAfter}`, 'g'), (m, op: string, n: string, u: string | undefined) => (u === unit ? m : `${op} ${show(n)}`));
  return text;
}
