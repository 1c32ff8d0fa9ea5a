/**
 * "Never explode on a valid rig" (issue 11 item 4): 2,000 random rigs that validateRig accepts
 * (tests/fuzz/randomRigs.ts: chains and trees of 2–15 capsules, boxes and spheres, random joints, limits
 * and motors, a third shaped like Generate's output, overlapping starts with self-collision, ball position
 * motors at 4–8 substeps, zero gravity, gait controllers on random chains, jointed mass ratios up to the
 * validated bound), each stepped 2 s through createSimulation/step. One fixed seed by default, in CI and
 * locally, so neither a landing nor a user's `npm test` is decided by a dice roll; MARIONETTE_STRESS_SEED
 * picks another (a number, or `random` for a new one, printed).
 * `npx tsx scripts/stress-rigs.ts` runs 10,000.
 *
 * Also the minimal cases the stress run found, each with its numbers before and after the fix.
 */
import { describe, expect, it } from 'vitest';
import { FLUNG_SLIDE, randomRig, runRandomRig, runValidRig, stress } from '../../fuzz/randomRigs';
import { validateRig } from '../../../shared/rig';
import { MAX_JOINTED_MASS_RATIO } from '../../../shared/rig/semantics';

/** The seed every landing and every plain `npm test` runs on, so the suite's verdict is the same on any checkout. */
const FIXED_SEED = 20261126;
/** MARIONETTE_STRESS_SEED: a number picks a seed, `random` draws a new one (printed) to explore; unset, the fixed seed. */
const seedEnv = process.env.MARIONETTE_STRESS_SEED;
const seed = seedEnv === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(seedEnv ?? FIXED_SEED);
const fixedSeed = seed === FIXED_SEED;

/**
 * Rigs of 2,000 that may still run faster than 100 m/s (never NaN, never a throw). The target is 0: met on
 * the CI seed, not on seed 1 (below). With the joints' energy warm start (shared/physics/warmStart.ts, the runtime's for every rig)
 * the CI seed had 36 of 2,000 (1.8 %; 513 before it); with the position drives' regularisation on links that
 * carry more than 10× their mass (shared/physics/joints/motor.ts POSITION_DRIVE_COMPLIANCE) it had 15
 * (0.75 %); with the load ratio counting the joint's partner and stiff pd drives regularised too
 * (PD_DRIVE_COMPLIANCE) 12 (0.6 %); with 16 extra Gauss-Seidel sweeps over only the regularised drives' joints and
 * their neighbours (motor.ts LOADED_DRIVE_SWEEPS, world.ts solveLoadedLocally) 3 (0.15 %); with a ball drive's
 * target clamped into its joint's twist and swing limits (ballJoint.ts clampTargetToLimits: a drive held far
 * from its target by a stop is unstable) it has 0; it keeps 0 with the drives' speed bound (motor.maxSpeed,
 * 50 rad/s by default) and the extra sweeps of an island that has not converged (world.ts UNCONVERGED_SPEED).
 * The target is met on the CI seed, NOT on every seed: seed 1 still has 3 of 10,000 (1004768, 1007191,
 * 1009003), and 3 more flung out along a slide validation warns is unbounded, counted apart as 'flung'
 * (randomRigs.ts flungAlong; 4 + 2 while the anchor's arm counted against dynamic partners too,
 * 7 before the load ratio counted the anchor's arm, 45 before the hinge and slider clamp, 43 before the speed
 * bound and the extra sweeps, 19 with the bound at 100; docs/physics.md "What prevents explosions"; the
 * reduced cases, now cured, in tests/unit/physics/explosions.test.ts). The bound for other seeds below was
 * set on the 7, flung ones included: it stays (lower it as fixes land, never raise it).
 * The bound on the fixed seed is its count (0: the target). Another seed (MARIONETTE_STRESS_SEED) is held to
 * the larger of the rates measured on seed 1 (7 of 10,000, 1.4 per 2,000; the bound of 50 was chosen on it)
 * and seed 2 (2 of its first 2,000, chosen on nothing) plus 4σ (2 + 4·1.4 ≈ 8; 21 before, from 45 of 10,000 on
 * seed 1), so exploring does not fail by chance while the residual is what it is. Lower both as
 * fixes land, never raise them.
 */
const KNOWN_FAST_PER_2000 = fixedSeed ? 0 : 8;

describe('random valid rigs never explode', () => {
  it(`2,000 rigs (seed ${seed}): no throw, no NaN; bodies faster than 100 m/s within the known residual`, () => {
    const report = stress(2000, seed);
    const ran = report.cases - report.refused;
    console.log(`stress seed ${seed}: ${report.cases} rigs, ${report.refused} refused, ${report.ok} clean, ${JSON.stringify(report.byOutcome)}`);
    for (const [i, f] of report.flung.entries()) console.log(`  flung (not a failure): case ${report.flungSeeds[i]}: ${f.detail}`);
    // The generator makes valid rigs: almost all are accepted (validation refuses only what it should).
    expect(report.refused).toBeLessThan(report.cases * 0.02);
    expect(ran).toBeGreaterThanOrEqual(1960);
    // Every feature the issue names is exercised.
    for (const f of ['self-collision', 'overlap', 'substeps', 'ball-position-motor', 'zero-g', 'gait', 'mass-ratio', 'kind:generate', 'kind:tree']) {
      expect(report.ranByFeature[f] ?? 0, f).toBeGreaterThan(50);
    }
    const hard = report.failed.filter((f) => f.outcome === 'throw' || f.outcome === 'nan');
    expect(hard.map((f) => `${f.outcome}: ${f.detail}`)).toEqual([]);
    expect(report.byOutcome.fast ?? 0).toBeLessThanOrEqual(KNOWN_FAST_PER_2000);
  }, 900_000);
});

/**
 * The coupled joints (screw, cylindrical, planar) drawn too (randomRig's coupledJoints; issue 11 item 4 asks
 * for the joint types a rig can have). Measured 2026-11-27 (after the local sweeps of the loaded drives):
 * the CI seed 15 of 2,000 rigs past 100 m/s (all 15 have a coupled joint; 0 of the 900 without), 0 NaN,
 * 0 throws, the first 300 of it 2 (107 and 9 before the local sweeps, 138 and 13 before the projection's
 * Newton steps were damped); two fresh seeds (99, 100) 28 and 30 of 2,000 — the CI seed is the one every
 * change was measured on, so its count runs low. The bound is the fresh seeds' rate per 300 (4.35) plus 4σ
 * (8.3; a a run on another seed must not fail by chance: the fixed seed's own 2.25 + 4σ = 8 would fail about one run in 30 on a new seed).
 * The target is 0 and is NOT met (docs/physics.md "Not done": what the 15 are). With the drives' speed bound
 * and the extra sweeps of unconverged islands (2026-11-27, later) the CI seed has 8 of 2,000 (22 before; 10
 * with the speed bound at 100), none in its first 300; the fresh seeds were not re-measured, so the bound stays.
 * With the coupled joints' relax sweeps on the rows their motor masses were prepared for (coupledJoint.ts
 * `project` keeps the substep's rows; 2026-11-27, later): the CI seed 4 of 2,000 (0 in its first 300), the
 * fresh seeds 99 and 100 6 and 4 of 2,000 — 0.75 per 300, plus 4σ: 4 (13 before).
 */
const KNOWN_FAST_COUPLED_PER_300 = 4;

describe('random valid rigs with screw, cylindrical and planar joints never explode', () => {
  it(`300 rigs (seed ${seed}): no throw, no NaN; faster than 100 m/s within the known residual`, () => {
    const report = stress(300, seed, 2, { coupledJoints: true });
    console.log(`stress seed ${seed}, coupled joints: ${report.cases} rigs, ${report.refused} refused, ${report.ok} clean, ${JSON.stringify(report.byOutcome)}`);
    expect(report.refused).toBeLessThan(report.cases * 0.02);
    expect(report.ranByFeature['coupled-joint'] ?? 0).toBeGreaterThan(120);
    const hard = report.failed.filter((f) => f.outcome === 'throw' || f.outcome === 'nan');
    expect(hard.map((f) => `${f.outcome}: ${f.detail}`)).toEqual([]);
    expect(report.byOutcome.fast ?? 0).toBeLessThanOrEqual(KNOWN_FAST_COUPLED_PER_300);
  }, 600_000);
});

/**
 * The same rigs on the articulated (reduced-coordinate) solver (randomRig's `solver`), which the property test
 * did not run until 2026-11-28: the first 100 of the CI seed then had 28 past 100 m/s and a throw (a singular
 * 3×3 solve), 66 + 3 of the first 200. With its pushes back from past a stop and out of a penetration bounded
 * and relaxed away (docs/articulated.md "Pushes back: bounded, and relaxed away") the first 100 had 19 and no
 * throw (46 of 200); with the contacts between bodies soft as MuJoCo's (drives.ts PAIR_CONTACT_SOFTNESS) 5 (17
 * of 200); with the velocity products implicit where they do no work or remove energy (drives.ts
 * implicitVelocityProducts) 2 (6 of 200); with no row for a contact the joints lock (LOCKED_CONTACT_RATIO) 1
 * (2 of 200); with the substeps cut where the mass matrix changes fast (ArticulatedWorld MAX_MASS_CHANGE) 0 (1 of
 * 200, 1826048311 at 100.2 m/s in its last steps); with the drives on the loop a pushing body contact closes
 * held in the relax and an unconverged solve's line search (drives.ts loopBodies, delassus.ts lineSearch) 0 (0 of
 * 200). The target is 0, met on the CI seed's first 200 (the 10,000 not measured): this holds the count where it is
 * (lower it as fixes land, never raise it). The fixed seed only (the count is its measurement); `npx tsx scripts/stress-rigs.ts --solver
 * articulated` is the long run.
 */
const KNOWN_FAST_ARTICULATED_PER_100 = 0;

describe('random valid rigs on the articulated solver', () => {
  it.runIf(fixedSeed)(`100 rigs (seed ${FIXED_SEED}): no throw, no NaN; faster than 100 m/s at most the known residual`, () => {
    const report = stress(100, FIXED_SEED, 2, { solver: 'articulated' });
    console.log(`stress seed ${FIXED_SEED}, articulated: ${report.cases} rigs, ${report.refused} refused, ${report.ok} clean, ${JSON.stringify(report.byOutcome)}`);
    expect(report.refused).toBe(0);
    const hard = report.failed.filter((f) => f.outcome === 'throw' || f.outcome === 'nan');
    expect(hard.map((f) => `${f.outcome}: ${f.detail}`)).toEqual([]);
    expect(report.byOutcome.fast ?? 0).toBeLessThanOrEqual(KNOWN_FAST_ARTICULATED_PER_100);
  }, 600_000);
});

describe('bodies flung out along a slide validation warned is unbounded are counted apart (randomRigs.ts flungAlong)', () => {
  // Two of seed 1's 10,000 rigs (cases 1,006,625 and 1,006,728; 1,002,003 was one until the load ratio counted
  // what a held link carries, 2026-11-28, and 1,004,049 until a holding drive held in the projection, the same
  // day: both now stay under 100 m/s): a prismatic slide with no limit whose drive is
  // off or in velocity mode, which `marionette validate` warns about (checkUnboundedSlides: the parent's turn
  // flings the body out as cosh(ωt)); each passes 100 m/s metres out along that slide, at the speed the
  // parent's turn gives there. 1,007,191 also passes 100 m/s 4 m out along a warned slide, but faster than its
  // parent's turn explains (118 m/s relative, 1.5 × the turn's is less): it stays a failure.
  it('each is "flung", naming its joint, how far out it is and the turn that explains its speed; the others are not', () => {
    const expected: Record<number, string> = { 1006625: 'j8', 1006728: 'j7' };
    for (const [c, joint] of Object.entries(expected)) {
      const r = runRandomRig(Number(c));
      expect(r.outcome, `${c}: ${r.detail}`).toBe('flung');
      const m = /\|v\| ([\d.]+) m\/s.*, ([\d.]+) m out along the unbounded slide of joint "(\w+)" \(([\d.]+) m\/s relative to "\w+", whose turn gives ([\d.]+) m\/s/.exec(r.detail ?? '');
      expect(m, r.detail).not.toBeNull();
      expect(Number(m![1])).toBeGreaterThan(100);
      expect(Number(m![2])).toBeGreaterThan(FLUNG_SLIDE);
      expect(m![3]).toBe(joint);
      expect(Number(m![4])).toBeLessThanOrEqual(1.5 * Number(m![5]));
    }
    expect(runRandomRig(1007191).outcome).toBe('fast');
    // With a limit on its slides, 1,006,728 runs clean: the slide was the cause.
    const { rig } = randomRig(1006728);
    for (const j of rig.joints) if (j.type === 'prismatic' && (j.limit === null || j.limit === undefined)) j.limit = [-0.3, 0.3];
    const v = validateRig(rig);
    if (!v.ok) throw new Error('the limited rig should validate');
    expect(runValidRig(v.rig, 2).outcome).toBe('ok');
  });
});

describe('the generator makes what validation accepts', () => {
  it('jointed mass ratios reach the validated bound and no further', () => {
    let reached = 0;
    for (let s = 0; s < 200; s++) {
      const { rig, features } = randomRig(s);
      const v = validateRig(rig);
      expect(v.ok, v.ok ? '' : JSON.stringify(v.problems.slice(0, 2))).toBe(true);
      if (features.includes('mass-ratio')) reached++;
    }
    expect(reached).toBeGreaterThan(20);
    // With the coupled joints: every type drawn, each rig accepted.
    const types = new Set<string>();
    for (let s = 0; s < 200; s++) {
      const { rig } = randomRig(s, { coupledJoints: true });
      const v = validateRig(rig);
      expect(v.ok, v.ok ? '' : JSON.stringify(v.problems.slice(0, 2))).toBe(true);
      for (const j of rig.joints) types.add(j.type);
    }
    expect([...types].sort()).toEqual(['ball', 'cylindrical', 'fixed', 'hinge', 'planar', 'prismatic', 'screw']);
    expect(MAX_JOINTED_MASS_RATIO).toBe(100);
  });

  it('the solver option changes the rig\'s solver and nothing else (the same draws on either solver)', () => {
    for (let s = 0; s < 50; s++) {
      const rigid = randomRig(s), art = randomRig(s, { solver: 'articulated' });
      expect(rigid.rig.solver).toBe('rigid');
      expect(art.rig.solver).toBe('articulated');
      expect({ ...art.rig, solver: 'rigid' }).toEqual(rigid.rig);
      expect(art.features).toEqual(rigid.features);
    }
  });

  it('a rig over the bound is refused, naming the lighter body', () => {
    const { rig } = randomRig(3, { kind: 'tree' });
    const light = rig.bodies[1]!;
    light.mass = 1e-6; light.density = null;
    delete (light as { computed?: unknown }).computed;
    const v = validateRig(rig);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.problems.map((p) => `${p.path}: ${p.message}`).join('\n')).toMatch(/bodies\[1\]\.mass: body "b1" .* mass ratio of .*above 100/);
  });

  it('runs a rig it accepts the same way twice (the failures it reports replay from their seed)', () => {
    const { rig } = randomRig(11);
    const v = validateRig(rig);
    if (!v.ok) throw new Error('seed 11 should validate');
    expect(runValidRig(v.rig, 0.5)).toEqual(runValidRig(v.rig, 0.5));
  });
});
