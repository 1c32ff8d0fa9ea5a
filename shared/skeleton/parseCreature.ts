/** Bytes of a .glb, or of a .gltf plus its external buffers, → a Creature (skeleton, skins, per-bone
 *  skinned vertices and their statistics, clips), or just its skeleton. Throws CreatureLoadError with
 *  "<file>: <reason>" for anything malformed or unsupported. Pure: no DOM, no Node, no three. */
import { readClips } from './animation';
import { readContainer } from './container';
import { CreatureLoadError } from './errors';
import { GltfDocument } from './gltfDocument';
import { readNodes, type NodeTree } from './nodes';
import { readSkeleton, type SkeletonDraft, type SkeletonOptions } from './skeleton';
import { boneTailsAndStats, readOwnedVertices } from './skinning';
import type { Creature, CreatureSkeleton, CreatureSource, Skeleton } from './types';

export type ParseOptions = SkeletonOptions;

/** The whole creature. A clip that cannot be read refuses the file (readers that want to keep the
 *  others read clips one by one with readClips). */
export function parseCreature(source: CreatureSource, options: ParseOptions = {}): Creature {
  return reading(source, (fileName) => {
    const { doc, tree, draft, head } = skeletonLayers(fileName, source, options);
    const { owned, primitives, rigidParts, mesh } = readOwnedVertices(doc, tree, draft);
    const boneVertices = boneTailsAndStats(draft.bones, owned);
    const warnings = [...draft.warnings];
    const clips = readClips(doc, draft.boneOfNode, warnings);
    return { ...head, warnings, boneVertices, skinnedPrimitives: primitives, rigidParts, clips, mesh };
  });
}

/** Only the skeleton and skins: no vertices and no clips are read, so a file whose mesh or animations
 *  are broken still gives its bones (the editor draws the mesh with its own loader). Bone tails are
 *  not computed ('none'). */
export function parseSkeleton(source: CreatureSource, options: ParseOptions = {}): CreatureSkeleton {
  return reading(source, (fileName) => skeletonLayers(fileName, source, options).head);
}

function skeletonLayers(fileName: string, source: CreatureSource, options: ParseOptions):
  { doc: GltfDocument; tree: NodeTree; draft: SkeletonDraft; head: CreatureSkeleton } {
  const container = readContainer(fileName, source.bytes);
  const doc = new GltfDocument(fileName, container, source.resources ?? {});
  const tree = readNodes(doc);
  const draft = readSkeleton(doc, tree, options);
  const asset = doc.json.asset as Record<string, unknown>;
  const head: CreatureSkeleton = {
    fileName,
    format: container.format,
    generator: typeof asset.generator === 'string' ? asset.generator : null,
    skeleton: { bones: draft.bones, roots: draft.roots },
    skins: draft.skins,
    warnings: draft.warnings,
  };
  return { doc, tree, draft, head };
}

function reading<T>(source: CreatureSource, read: (fileName: string) => T): T {
  const fileName = source.name || 'creature';
  try {
    return read(fileName);
  } catch (e) {
    if (e instanceof CreatureLoadError) throw e;
    // A bug or a case we did not foresee still reaches the user as a message about this file.
    throw new CreatureLoadError(fileName, `cannot be read (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** Bone index by name, -1 when absent. */
export const boneIndex = (skeleton: Skeleton, name: string): number => skeleton.bones.findIndex((b) => b.name === name);

/** Bone indices in the order the file's first skin lists its joints, then any bones that only other
 *  skins list (parents first): the order the editor shows bones in and rig files store them. */
export function jointOrder(creature: CreatureSkeleton): number[] {
  const first = creature.skins[0]?.joints ?? [];
  const listed = new Set(first);
  return [...first, ...creature.skeleton.bones.map((_, i) => i).filter((i) => !listed.has(i))];
}
