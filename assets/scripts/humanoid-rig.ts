/**
 * Generates assets/creatures/humanoid.rig.json with the authoring generator (shared/authoring), as the
 * editor's Generate and `marionette generate` do. Deterministic: same .glb, same bytes.
 *
 *   npx tsx assets/scripts/humanoid-rig.ts            (writes the file)
 *   npx tsx assets/scripts/humanoid-rig.ts --check    (exit 1 if the file on disk differs)
 */
import { authoringSkeletonFromCreature } from '../../shared/authoring/fromCreature';
import { generateRagdoll } from '../../shared/authoring/generate';
import { newRigDocument, withGeneratedRagdoll } from '../../shared/authoring/document';
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
 * The shipped humanoid rig is exactly what Generate makes of humanoid.glb, with no tuning on top: the
 * generator now sizes the motors to hold the rest pose (support torques for the legs), makes the feet flat
 * boxes carrying at least 4.5 % of the mass each, and keeps jointed mass and inertia ratios within 9.5 —
 * what this script used to patch by hand (foot boxes, ankle torques, the mass-ratio fix). It stands on its
 * motors for 5 s (tests/unit/authoring/humanoidRig.test.ts).
 */
export function humanoidRig(creature: AuthoringSkeleton): RigDocument {
  return withGeneratedRagdoll(newRigDocument('humanoid', creature.bones), generateRagdoll(creature));
}

async function main(): Promise<void> {
  const { creatureFile, writeOrCheckRig } = await import('./rigFile');
  const creature = authoringSkeletonFromCreature(parseCreature({ name: 'humanoid.glb', bytes: await creatureFile('humanoid.glb') }));
  await writeOrCheckRig(humanoidRig(creature), 'humanoid.rig.json', 'assets/scripts/humanoid-rig.ts');
}

if (import.meta.url === `file://${process.argv[1]}`) main().catch((e: unknown) => { console.error(e); process.exit(1); });
