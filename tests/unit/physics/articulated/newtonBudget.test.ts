/**
 * The Newton work of the Delassus solve (delassus.ts) is bounded per island and solve: an island that never
 * converges (the third-party QuaterniusHorse, 228 rows in one island, every substep at the 100-sweep cap) took
 * ≈ 1,900 ms a step when each of its 100 sweeps was followed by up to 8 LDLᵀ of the island; with the budget it
 * stops taking Newton steps once they have cost as much as its sweeps at the cap. An island that converges
 * (the Armed Mine crawling) never meets its budget, so its path is the one it had before the budget. Counted
 * in multiply-adds (solverWork), not in wall-clock time.
 */
import { describe, expect, it } from 'vitest';
import { generateRagdoll, newRigDocument, scaleForHeight, scaleSkeleton, withGeneratedRagdoll } from '../../../../shared/authoring';
import { headingYaw, yawDirection } from '../../../../shared/gait/steering';
import { newtonBudgetOf, solverWork } from '../../../../shared/physics/articulated/delassus';
import { validateRig } from '../../../../shared/rig';
import { createSimulation } from '../../../../shared/runtime';
import { readCreatureInput } from '../../../../cli/commands/generate';
import { corpus } from '../../../../scripts/corpus-report';
import { loadArmedMine, mineSimulation } from '../../scenarios/armedMineWorld';

const resetWork = () => Object.assign(solverWork, { islands: 0, sweeps: 0, newtonSteps: 0, newtonWork: 0, budgetRanOut: 0, maxBudgetUsed: 0 });

describe('the Delassus solve’s Newton budget', () => {
  it('an island that never converges (QuaterniusHorse, 228 rows) spends at most its budget on Newton steps', async () => {
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
    console.log(`QuaterniusHorse, ${steps} steps: ${stats.rows} rows, ${solverWork.islands} island solves, sweeps ${solverWork.sweeps}, Newton steps ${solverWork.newtonSteps} (${(solverWork.newtonWork / solves).toExponential(2)} multiply-adds a solve; budget ${newtonBudgetOf(stats.rows, 100).toExponential(2)}), budget ran out in ${solverWork.budgetRanOut}`);
    expect(stats.rows).toBe(228);
    expect(solverWork.islands).toBe(solves); // one island
    expect(solverWork.sweeps).toBe(100 * solves); // never converges
    expect(solverWork.budgetRanOut).toBe(solves);
    expect(solverWork.maxBudgetUsed).toBeLessThanOrEqual(1);
    // Without the budget: up to 8 Newton steps after each of the 99 sweeps, each a (partial) LDLᵀ of up to 228 rows.
    expect(solverWork.newtonSteps).toBeLessThan(100 * solves);
    expect(solverWork.newtonWork).toBeLessThanOrEqual(solves * 100 * 228 * 228);
  }, 60_000);

  it('an island that converges (the Armed Mine crawling 10 s, articulated) never meets its budget', () => {
    const m = mineSimulation({ ...loadArmedMine(), solver: 'articulated' });
    const start = m.sim.bodyPose('body'), ahead = yawDirection(headingYaw(start.rotation));
    m.sim.setTarget([start.position[0] + 5 * ahead[0], 0, start.position[2] + 5 * ahead[2]]);
    resetWork();
    for (let s = 0; s < Math.round(10 / m.sim.dt); s++) m.sim.step();
    console.log(`Armed Mine, 10 s: ${solverWork.islands} island solves, ${(solverWork.sweeps / solverWork.islands).toFixed(2)} sweeps and ${(solverWork.newtonSteps / solverWork.islands).toFixed(2)} Newton steps a solve, at most ${(100 * solverWork.maxBudgetUsed).toFixed(1)} % of the budget`);
    expect(solverWork.budgetRanOut).toBe(0);
    // Measured 0.44 of the budget at most (20 s), 7.2 sweeps a solve.
    expect(solverWork.maxBudgetUsed).toBeLessThan(0.6);
    expect(solverWork.sweeps / solverWork.islands).toBeLessThan(10);
  }, 60_000);
});
