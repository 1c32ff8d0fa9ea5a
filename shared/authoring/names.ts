/** Left/right naming: the suffixes and prefixes artists use for mirrored bones and bodies. */
const PAIRS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^(.*)([_.\-\s])([lLrR])$/, (m) => `${m[1]}${m[2]}${swapLetter(m[3]!)}`],
  [/^([lLrR])([_.\-\s])(.*)$/, (m) => `${swapLetter(m[1]!)}${m[2]}${m[3]}`],
  [/^(.*)(Left|Right|left|right|LEFT|RIGHT)(.*)$/, (m) => `${m[1]}${swapWord(m[2]!)}${m[3]}`],
];

const swapLetter = (c: string) => ({ l: 'r', r: 'l', L: 'R', R: 'L' })[c as 'l'] ?? c;
const swapWord = (w: string) => ({ Left: 'Right', Right: 'Left', left: 'right', right: 'left', LEFT: 'RIGHT', RIGHT: 'LEFT' })[w as 'Left'] ?? w;

/** The mirror name ("upper_arm_l" → "upper_arm_r", "hand.L" → "hand.R", "LeftFoot" → "RightFoot"), or
 *  null for a name without a side ("spine"). */
export function mirrorName(name: string): string | null {
  for (const [re, swap] of PAIRS) {
    const m = name.match(re);
    if (m) return swap(m);
  }
  return null;
}

/** 'left', 'right' or null. */
export function sideOf(name: string): 'left' | 'right' | null {
  const other = mirrorName(name);
  if (other === null) return null;
  const m = name.match(/(^|[_.\-\s])([lL])$|^([lL])[_.\-\s]|Left|left|LEFT/);
  return m ? 'left' : 'right';
}
