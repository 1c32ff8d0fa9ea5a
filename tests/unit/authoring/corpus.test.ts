/**
 * The real-creature corpus (assets/third-party/corpus.json: 13 third-party creatures and 5 built to cover
 * what no redistributable file has) and the shipped humanoid, each rescaled to its real height, through
 * generate → validate → 5 s powered → 5 s limp (issue 10's checks). Figures per creature:
 * `npx tsx scripts/corpus-report.ts`.
 *
 * Known limits (docs/creatures.md, "What does not stand yet"): a creature listed in FALLS would be one that
 * does not yet keep its highest body at 70 % of its height for 5 s powered; its test is `it.fails`, which
 * passes while the limit stands and turns red the day a change makes the creature stand, so the list is kept
 * true. Today every corpus creature stands, and none blows up, powered or limp.
 */
import { describe, expect, it } from 'vitest';
import { MIN_LENGTH_FRACTION, MIN_RADIUS_FRACTION } from '../../../shared/authoring';
import { corpus, trialCreature, type CorpusEntry } from '../../../scripts/corpus-report';

const FALLS = new Set<string>([]);

const entries: CorpusEntry[] = [
  ...corpus(),
  { name: 'humanoid (shipped)', file: 'assets/creatures/humanoid.glb', kind: 'biped', standsOnLegs: true, heightMetres: 1.8 },
];

describe.each(entries)('$name', (entry) => {
  const run = trialCreature(entry);

  it('generates a valid rig: no errors, no warnings (mass ratios, far bodies, degenerate shapes, overlaps, scale)', async () => {
    const r = await run;
    expect(r.valid.ok ? [] : r.valid.problems).toEqual([]);
    expect(r.warnings.map((w) => `${w.kind}: ${w.message}`)).toEqual([]);
    expect(r.rig.bodies.length).toBeGreaterThan(3);
  }, 120_000);

  it(`shapes are never thinner than ${MIN_RADIUS_FRACTION} or shorter than ${MIN_LENGTH_FRACTION} of their bone's length`, async () => {
    const r = await run;
    for (const b of r.rig.bodies) {
      const L = r.generated.summary.lengths[b.name]!;
      const s = b.shapes[0]!;
      if (s.type === 'capsule') {
        expect(s.radius, b.name).toBeGreaterThanOrEqual(MIN_RADIUS_FRACTION * L - 1e-9);
        expect(2 * (s.halfHeight + s.radius), b.name).toBeGreaterThanOrEqual(MIN_LENGTH_FRACTION * L - 1e-6);
      } else if (s.type === 'box') {
        expect(Math.min(...s.halfExtents), b.name).toBeGreaterThan(0.02 * L);
      }
    }
  }, 120_000);

  it('powered 5 s: no blow-up', async () => {
    expect((await run).powered.blowUp).toBeNull();
  }, 120_000);

  // Generate keeps jointed mass ratios at 9.5, under the load ratio at which a drive takes the loaded-link
  // compliance (motor.ts LOAD_RATIO_FROM, 10), so a generated creature's drives are solved rigid and hold
  // their targets without the compliance's sag. When the load ratio also counted the anchor's arm against
  // dynamic partners, four of these crossed it (the Fox's wrists at 20.6: its powered trial sagged to 0.936
  // of its height instead of 0.982; docs/physics.md "Only against a partner that cannot move").
  it('powered 5 s: every drive is solved rigid (none takes the loaded-link compliance)', async () => {
    expect((await run).powered.compliantDrives).toBe(0);
  }, 120_000);

  if (entry.standsOnLegs) {
    (FALLS.has(entry.name) ? it.fails : it)('powered 5 s: stands — the highest body stays at ≥ 70 % of its starting height', async () => {
      const r = await run;
      expect(r.powered.blowUp).toBeNull();
      expect(r.powered.minTopFraction).toBeGreaterThanOrEqual(0.7);
    }, 120_000);
  }

  it('limp 5 s: falls without a blow-up, every body slower than 15 m/s', async () => {
    const r = await run;
    expect(r.limp.blowUp).toBeNull();
    expect(r.limp.maxSpeed).toBeLessThan(15);
  }, 120_000);
});
