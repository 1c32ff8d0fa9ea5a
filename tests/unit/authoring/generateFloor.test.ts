/**
 * Generate's motor torque floor (2 % · m·g·height) is capped by the child body's inertia so that its spring
 * keeps a period of at least FLOOR_PERIOD_SUBSTEPS substeps (shared/authoring/generate.ts). Without the cap
 * the Quaternius donkey's 43 g tail links got the 182 kg creature's 57 N·m floor (384 N·m/rad), spun at
 * 100–185 rad/s while it stood and blew up 9.5 s into the preview's 20 s timeline (Tail5 at 657 rad/s).
 */
import { describe, expect, it } from 'vitest';
import { corpus, type CorpusEntry } from '../../../scripts/corpus-report';
import { generateRagdoll, newRigDocument, scaleForHeight, scaleSkeleton, withGeneratedRagdoll } from '../../../shared/authoring';
import { readCreatureInput } from '../../../cli/commands/generate';
import { PreviewEngine } from '../../../shared/preview/engine';
import { registerCyclicPathController } from '../../../shared/gait/register';
import type { RigDocument } from '../../../shared/rig';
import { FLOOR_PERIOD_SUBSTEPS } from '../../../shared/authoring/generate';

registerCyclicPathController();

async function generated(entry: CorpusEntry): Promise<RigDocument> {
  const { input: raw } = await readCreatureInput(new URL(`../../../${entry.file}`, import.meta.url).pathname);
  const scale = scaleForHeight(raw, entry.heightMetres);
  const input = scaleSkeleton(raw, scale);
  return withGeneratedRagdoll({ ...newRigDocument(entry.name, input.bones), skeleton: { bones: [...input.bones], scale } }, generateRagdoll(input));
}

describe(`generated motors: the torque floor keeps a ${FLOOR_PERIOD_SUBSTEPS}-substep period`, () => {
  const donkey = corpus().find((e) => e.name === 'QuaterniusDonkey')!;

  it('the donkey (41 bodies) stays still for the preview\'s 20 s, powered: no blow-up, every body under 15 rad/s after the first second', async () => {
    const rig = await generated(donkey);
    expect(rig.bodies.length).toBeGreaterThanOrEqual(40);
    const engine = new PreviewEngine(rig, { capacity: 1202 });
    const handles = rig.bodies.map((b) => engine.sim.bodyHandle(b.name));
    let fastest = 0, who = '';
    for (let f = 0; f < 1200; f++) {
      engine.advance(1);
      expect(engine.failure).toBeNull();
      if (f < 60) continue;
      handles.forEach((h, i) => {
        const w = engine.sim.world.getAngularVelocity(h), s = Math.hypot(w[0], w[1], w[2]);
        if (s > fastest) { fastest = s; who = rig.bodies[i]!.name; }
      });
    }
    // Before the cap: Tail5 at 100–185 rad/s from 2 s on, then 657 rad/s (blow-up) at 9.5 s. With it: the
    // legs settle at 6.1 rad/s at most (FrontLowerLeg.L), the tail under 1 rad/s.
    expect(fastest, `fastest body: ${who}`).toBeLessThan(15);
  }, 120_000);

  it('the tail tip\'s motor keeps the capped floor, not 2 % · m·g·height (57 N·m)', async () => {
    const rig = await generated(donkey);
    const tip = rig.joints.find((j) => j.bodyB === 'Tail7')!;
    if (!('motor' in tip)) throw new Error('Tail7: no motor');
    // 29 g: 0.19 N·m with the cap (1.3 N·m/rad), 57.3 N·m (382 N·m/rad) without.
    expect(tip.motor.maxTorque).toBeLessThan(0.25);
    expect(tip.motor.maxTorque).toBeGreaterThan(0);
  }, 120_000);
});
