/**
 * Generates assets/creatures/humanoid.rig.json with the authoring generator (shared/authoring), then tunes
 * the numbers below for a humanoid that stands on its own motors. Deterministic: same .glb, same bytes.
 *
 *   npx tsx assets/scripts/humanoid-rig.ts            (writes the file)
 *   npx tsx assets/scripts/humanoid-rig.ts --check    (exit 1 if the file on disk differs)
 */
import { authoringSkeletonFromCreature } from '../../shared/authoring/fromCreature';
import { generateRagdoll } from '../../shared/authoring/generate';
import { newRigDocument, withGeneratedRagdoll } from '../../shared/authoring/document';
import { fixMassRatios } from '../../shared/authoring/massRatio';
import type { AuthoringSkeleton } from '../../shared/authoring/skeletonInput';
import type { RigDocument } from '../../shared/rig/schema';
import { parseCreature } from '../../shared/skeleton';

/** A .glb creature file read into the authoring input (Node: the bytes from disk, shared/skeleton's
 *  reader; a .gltf would also need its resources). */
export async function readCreature(path: string): Promise<AuthoringSkeleton> {
  const { readFile } = await import('node:fs/promises');
  const { basename } = await import('node:path');
  return authoringSkeletonFromCreature(parseCreature({ name: basename(path), bytes: new Uint8Array(await readFile(path)) }));
}

/**
 * Tuning on top of the generator, and why (figures in docs/authoring.md):
 *  - feet are boxes (a capsule foot rolls; a box gives the stance a support polygon), μ 1.2;
 *  - torque limits (N·m) sized for standing on one's own motors: the ankles carry the whole body's
 *    tipping moment (≈ 70 kg · g · 0.1 m ≈ 70 N·m at a 10 cm sway), knees and hips a little more;
 *    the generator's child-mass·length rule gives the small joints (ankle 8 N·m) far too little for that;
 *  - the mass-ratio fix (shared/authoring/massRatio.ts): the generated 31 kg chest carries 1.8 kg upper
 *    arms (17×); the one-click fix raises them to 3.1 kg (10×);
 *  - error reduction r = 0.15 instead of the generator's 0.5: with r ≥ 0.25 the position rows (bias
 *    r·ε/Δt) and the foot contacts excite each other, the feet creep backward and the body topples
 *    after 1.5–4 s; r = 0.1 and 0.2 both stand, 0.15 sits between them.
 */
export const HUMANOID_TUNING = {
  footFriction: 1.2,
  errorReduction: 0.15,
  maxTorque: { spine: 400, head: 40, thigh: 250, shin: 250, foot: 200, upper_arm: 40, forearm: 20 } as Record<string, number>,
};

export function humanoidRig(creature: AuthoringSkeleton, tuning = HUMANOID_TUNING): RigDocument {
  const generated = generateRagdoll(creature, { shapes: { foot_l: 'box', foot_r: 'box' } });
  const rig = withGeneratedRagdoll(newRigDocument('humanoid', creature.bones), generated);
  const kind = (name: string) => name.replace(/_[lr]$/, '');
  return fixMassRatios({
    ...rig,
    bodies: rig.bodies.map((b) => (kind(b.name) === 'foot' ? { ...b, material: { ...b.material, friction: tuning.footFriction } } : b)),
    joints: rig.joints.map((j) => {
      const t = tuning.maxTorque[kind(j.name)];
      return j.type === 'fixed' || t === undefined ? j : { ...j, motor: { ...j.motor, maxTorque: t, errorReduction: tuning.errorReduction } };
    }),
  });
}

async function main(): Promise<void> {
  const { creatureFile, writeOrCheckRig } = await import('./rigFile');
  const creature = authoringSkeletonFromCreature(parseCreature({ name: 'humanoid.glb', bytes: await creatureFile('humanoid.glb') }));
  await writeOrCheckRig(humanoidRig(creature), 'humanoid.rig.json', 'assets/scripts/humanoid-rig.ts');
}

if (import.meta.url === `file://${process.argv[1]}`) main().catch((e: unknown) => { console.error(e); process.exit(1); });
