/**
 * What Generate does with the rig features that made four corpus creatures fall (docs/creatures.md, "What
 * Generate does"): IK feet that are skeleton roots of their own, tiny bodies between big ones, a stance
 * whose centre of mass sits near the heel, loose bodies (ears) on a segment, shins that reached the floor.
 * Generate only (no trial): the corpus test runs the trials.
 */
import { describe, expect, it } from 'vitest';
import { readCreatureInput } from '../../../cli/commands/generate';
import { generateRagdoll, lowestPoint, newRigDocument, scaleForHeight, scaleSkeleton, SOLE_FRACTION, withGeneratedRagdoll } from '../../../shared/authoring';
import { checkMassRatios } from '../../../shared/authoring/massRatio';
import { boneRestWorld } from '../../../shared/rig/restPose';
import { corpus } from '../../../scripts/corpus-report';

const root = new URL('../../../', import.meta.url).pathname;

async function generated(name: string) {
  const entry = corpus().find((c) => c.name === name)!;
  const { input: raw } = await readCreatureInput(root + entry.file);
  const scale = scaleForHeight(raw, entry.heightMetres);
  const input = scaleSkeleton(raw, scale);
  const g = generateRagdoll(input);
  const rig = withGeneratedRagdoll({ ...newRigDocument(name, input.bones), skeleton: { bones: [...input.bones], scale } }, g);
  return { g, rig, mass: (b: string) => rig.bodies.find((x) => x.name === b)!.mass! };
}

describe('Generate on real rigs', () => {
  it('IK feet that are skeleton roots of their own and own the pastern get bodies, joined to the shin (Quaternius horse)', async () => {
    const { g, rig } = await generated('QuaterniusHorse');
    for (const side of ['L', 'R']) {
      for (const [ik, shin, hoof] of [[`IKBackLeg.${side}`, `BackLowerLeg.${side}`, `FFB.${side}`], [`IKFrontLeg.${side}`, `FrontLowerLeg.${side}`, `FF.${side}`]] as const) {
        const plan = g.plan.find((p) => p.bone === ik)!;
        expect(plan.body, ik).toBe(true);
        expect(plan.reason).toBe('deforming');
        expect(rig.joints.find((j) => j.bodyB === ik)?.bodyA, ik).toBe(shin);
        // The hoof under it is part of the same sole (no body of its own joined to nothing).
        expect(g.plan.find((p) => p.bone === hoof)!.mergedInto).toBe(ik);
      }
    }
    // One ragdoll: every body but the root has a joint.
    expect(rig.joints.length).toBe(rig.bodies.length - 1);
  }, 60_000);

  it('every corpus creature is one ragdoll, with no mass-ratio issue', async () => {
    for (const { name } of corpus()) {
      const { rig } = await generated(name);
      expect(rig.joints.length, name).toBe(rig.bodies.length - 1);
      expect(checkMassRatios(rig).map((i) => `${i.joint}: ${i.massRatio.toFixed(1)} / ${i.inertiaRatio.toFixed(1)}`), name).toEqual([]);
    }
  }, 120_000);

  it('only the soles touch the floor: every body with a body below it clears the floor by ≥ 1 % of the height', async () => {
    for (const name of ['QuaterniusKnight', 'QuaterniusHumanoidRig', 'QuaterniusHorse', 'QuaterniusStag', 'QuaterniusTrex', 'QuaterniusApatosaurus', 'RobotExpressive']) {
      const { g, rig } = await generated(name);
      const world = boneRestWorld(rig.skeleton.bones);
      const parents = new Set(rig.joints.map((j) => j.bodyA));
      const low = new Map(rig.bodies.map((b) => [b.name, lowestPoint({ world: world.get(b.bone)! }, b.shapes[0]!)]));
      const floor = Math.min(...low.values());
      for (const b of rig.bodies) if (parents.has(b.name)) expect((low.get(b.name)! - floor) / g.summary.height, `${name} ${b.name}`).toBeGreaterThanOrEqual(0.01);
    }
  }, 120_000);

  it('a tiny neck bone (8 vertices) is no longer the heaviest body of a knight; its feet carry what its stance needs', async () => {
    const { rig, mass } = await generated('QuaterniusKnight');
    // Before: the Neck weighed 10.2 kg, more than the head (4.4 kg) and the abdomen.
    expect(mass('Neck')).toBeLessThan(mass('Abdomen'));
    expect(mass('Neck')).toBeLessThan(0.05 * 70);
    // Its centre of mass is 2.5 cm inside its heels at 0.73 m: the soles' floor contact (a spring on their
    // own mass) needs far more than the 4.5 % floor to hold it upright.
    expect(mass('Foot.L')).toBeCloseTo(mass('Foot.R'), 6);
    expect(mass('Foot.L') / 70).toBeGreaterThan(3 * SOLE_FRACTION);
    expect(rig.bodies.reduce((s, b) => s + b.mass!, 0)).toBeCloseTo(70, 6);
  }, 60_000);

  it('ears (no segment names them) take the density of the head they hang from, not 985 kg/m³ (chibi)', async () => {
    const { mass } = await generated('QuaterniusHumanoidRig');
    // Before: 17 kg of ears (volume × 985 kg/m³, a quarter of the creature) on a 5.7 kg head group; now
    // 2.3 kg.
    const ears = ['Ear1', 'Ear2', 'Ear3'].reduce((s, e) => s + mass(`${e}.L`) + mass(`${e}.R`), 0);
    expect(ears).toBeLessThan(0.05 * 70);
  }, 60_000);
});
