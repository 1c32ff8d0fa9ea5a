/**
 * Issue 10: "a fresh Generate, and every shipped example, shows 0 mass-ratio warnings". Every rig the
 * project ships — assets/creatures/*.rig.json and any assets/examples/*.json in the rig format (the
 * examples are particle scenes today) — passes shared/authoring's checks with nothing to say: no jointed
 * pair over 10× in mass or inertia (checkMassRatios), and no plausibility warning (checkRigPlausibility:
 * body far from its bone, degenerate shape, rest overlap, mass ratio, creature scale).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkMassRatios, checkRigPlausibility } from '../../../shared/authoring';
import { loadRig, RIG_FORMAT } from '../../../shared/rig';

const dir = (d: string) => fileURLToPath(new URL(`../../../assets/${d}/`, import.meta.url));
const jsonIn = (d: string, suffix: string) => readdirSync(dir(d)).filter((f) => f.endsWith(suffix)).map((f) => ({ file: `assets/${d}/${f}`, text: readFileSync(dir(d) + f, 'utf8') }));
const shipped = [...jsonIn('creatures', '.rig.json'), ...jsonIn('examples', '.json')]
  .filter(({ text }) => (JSON.parse(text) as { format?: unknown }).format === RIG_FORMAT);

describe('every shipped rig has 0 mass-ratio and plausibility warnings', () => {
  it('finds the shipped rigs (the Armed Mine, the humanoid and the Hexapod at least)', () => {
    expect(shipped.map((s) => s.file)).toEqual(expect.arrayContaining(['assets/creatures/armed-mine.rig.json', 'assets/creatures/humanoid.rig.json', 'assets/creatures/hexapod.rig.json']));
  });
  for (const { file, text } of shipped) {
    it(`${file}: jointed mass and inertia ratios ≤ 10, no plausibility warning`, () => {
      const rig = loadRig(JSON.parse(text), { source: file });
      const ratios = checkMassRatios(rig).map((i) => `${i.joint}: mass ${i.massRatio.toFixed(2)}×, inertia ${i.inertiaRatio.toFixed(2)}×`);
      expect(ratios, file).toEqual([]);
      expect(checkRigPlausibility(rig).map((w) => `${w.kind} ${w.path}: ${w.message}`), file).toEqual([]);
    });
  }
});
