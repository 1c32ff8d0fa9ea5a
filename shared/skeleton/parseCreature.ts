/** Bytes of a .glb, or of a .gltf plus its external buffers, → a Creature (skeleton, skins, per-bone
 *  skinned-vertex statistics, clips). Throws CreatureLoadError with "<file>: <reason>" for anything
 *  malformed or unsupported. Pure: no DOM, no Node, no three. */
import { readClips } from './animation';
import { readContainer } from './container';
import { CreatureLoadError } from './errors';
import { GltfDocument } from './gltfDocument';
import { readNodes } from './nodes';
import { readSkeleton } from './skeleton';
import { boneTailsAndStats, readOwnedVertices } from './skinning';
import type { Creature, CreatureSource, Skeleton } from './types';

export function parseCreature(source: CreatureSource): Creature {
  const fileName = source.name || 'creature';
  try {
    const container = readContainer(fileName, source.bytes);
    const doc = new GltfDocument(fileName, container, source.resources ?? {});
    const tree = readNodes(doc);
    const draft = readSkeleton(doc, tree);
    const { owned, mesh } = readOwnedVertices(doc, tree, draft);
    const boneVertices = boneTailsAndStats(draft.bones, owned);
    const warnings = [...draft.warnings];
    const clips = readClips(doc, draft.boneOfNode, warnings);
    const asset = doc.json.asset as Record<string, unknown>;
    return {
      fileName,
      format: container.format,
      generator: typeof asset.generator === 'string' ? asset.generator : null,
      skeleton: { bones: draft.bones, roots: draft.roots },
      skins: draft.skins,
      boneVertices,
      clips,
      mesh,
      warnings,
    };
  } catch (e) {
    if (e instanceof CreatureLoadError) throw e;
    // A bug or a case we did not foresee still reaches the user as a message about this file.
    throw new CreatureLoadError(fileName, `cannot be read (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** Bone index by name, -1 when absent. */
export const boneIndex = (skeleton: Skeleton, name: string): number => skeleton.bones.findIndex((b) => b.name === name);
