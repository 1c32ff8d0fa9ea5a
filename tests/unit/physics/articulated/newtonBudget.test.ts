/**
 * The Newton work of the Delassus solve (delassus.ts) is bounded per island and solve: the third-party
 * QuaterniusHorse (228 rows in one island) took ≈ 1,950 ms a step when every substep ran all 100 sweeps, each
 * followed by up to 8 Newton steps — mostly tied steps, a full elimination of the island each; with the
 * budgets its tied steps stop at half of what its sweeps cost at the cap, untied steps (an LDLᵀ kept across
 * steps) go on, and all its Newton steps stop at three times that. An island that converges (the Armed Mine
 * crawling) never meets either budget, so its path is the one it had before them. Counted in multiply-adds
 * (solverWork), not in wall-clock time.
 */
import { describe, expect, it } from 'vitest';
import { generateRagdoll, newRigDocument, scaleForHeight, scaleSkeleton, withGeneratedRagdoll } from '../../../../shared/authoring';
import { headingYaw, yawDirection } from '../../../../shared/gait/steering';
import { newtonBudgetOf, solverWork, tiedBudgetOf } from '../../../../shared/physics/articulated/delassus';
import { validateRig } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';
import { readCreatureInput } from '../../../../cli/commands/generate';
import { corpus } from '../../../../scripts/corpus-report';
import { loadArmedMine, mineSimulation } from '../../scenarios/armedMineWorld';

const resetWork = () => Object.assign(solverWork, { islands: 0, sweeps: 0, newtonSteps: 0, newtonWork: 0, untied: 0, budgetRanOut: 0, maxBudgetUsed: 0 });

describe('the Delassus solve’s Newton budget', () => {
  it('a large island (QuaterniusHorse, 228 rows) spends at most its budget on Newton steps, and converges untied', async () => {
    const entry = corpus().find((e) => e.name === 'QuaterniusHorse')!;
    const { input: raw } = await readCreatureInput(new URL('../../../../', import.meta.url).pathname + entry.file);
    const input = scaleSkeleton(raw, scaleForHeight(raw, entry.heightMetres));
    const v = validateRig(withGeneratedRagdoll({ ...newRigDocument(entry.name, input.bones), skeleton: { bones: [...input.bones], scale: 1 } }, generateRagdoll(input)));
    if (!v.ok) throw new Error('the horse does not validate');
    const sim = createSimulation(v.rig, { solver: 'articulated' });
    const steps = 3;
    resetWork();
    for (let s = 0; s < steps; s++) sim.step();
    const stats = sim.world.getStats();
    const solves = steps * stats.substeps;
    console.log(`QuaterniusHorse, ${steps} steps: ${stats.rows} rows, ${solverWork.islands} island solves, sweeps ${solverWork.sweeps}, Newton steps ${solverWork.newtonSteps} (${(solverWork.newtonWork / solves).toExponential(2)} multiply-adds a solve; budget ${newtonBudgetOf(stats.rows, 100).toExponential(2)}, tied ${tiedBudgetOf(stats.rows, 100).toExponential(2)}), untied in ${solverWork.untied}, budget ran out in ${solverWork.budgetRanOut}`);
    expect(stats.rows).toBe(228);
    // One island, solved once a substep and once more in the relax when a row pushed (its feet's probes start
    // in the ground: drives.ts stepWithDrives); the relax starts from the first solve's impulses.
    expect(solverWork.islands).toBeGreaterThanOrEqual(solves);
    expect(solverWork.islands).toBeLessThanOrEqual(2 * solves);
    expect(solverWork.untied).toBe(solves);
    expect(solverWork.maxBudgetUsed).toBeLessThanOrEqual(1);
    expect(solverWork.newtonWork).toBeLessThanOrEqual(solverWork.islands * 3 * 100 * 228 * 228);
    // Before the budgets: all 100 sweeps in every solve, up to 8 tied steps (each ≈ 4e6 multiply-adds) after each.
    expect(solverWork.sweeps).toBeLessThan(100 * solves);
    // Measured 80 sweeps in the 6 solves: its active set now settles (83 with the 6 relax solves).
    expect(solverWork.sweeps).toBeLessThan(20 * solves);
  }, 60_000);

  it('an island that converges (the Armed Mine crawling 10 s, articulated) never meets its budget', () => {
    const m = mineSimulation({ ...loadArmedMine(), solver: 'articulated' });
    const start = m.sim.bodyPose('body'), ahead = yawDirection(headingYaw(start.rotation));
    m.sim.setTarget([start.position[0] + 5 * ahead[0], 0, start.position[2] + 5 * ahead[2]]);
    resetWork();
    for (let s = 0; s < Math.round(10 / m.sim.dt); s++) m.sim.step();
    console.log(`Armed Mine, 10 s: ${solverWork.islands} island solves, ${(solverWork.sweeps / solverWork.islands).toFixed(2)} sweeps and ${(solverWork.newtonSteps / solverWork.islands).toFixed(2)} Newton steps a solve, at most ${(100 * solverWork.maxBudgetUsed).toFixed(1)} % of the budget`);
    expect(solverWork.budgetRanOut).toBe(0);
    expect(solverWork.untied).toBe(0);
    // Measured 0.44 of the budget at most (20 s), 7.2 sweeps a solve.
    expect(solverWork.maxBudgetUsed).toBeLessThan(0.6);
    expect(solverWork.sweeps / solverWork.islands).toBeLessThan(10);
  }, 60_000);
});
