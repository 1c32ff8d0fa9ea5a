/**
 * Dropped (or input-picked) browser files → a PickedFile: the .glb/.gltf is the creature, every other file
 * is offered as a resource under its name, which is how a .gltf's relative URIs ("mine.bin") refer to them.
 */
import type { PickedFile } from '../../../shared/platform';

export async function filesToPicked(files: readonly File[]): Promise<PickedFile | null> {
  const main = files.find((f) => /\.(glb|gltf)$/i.test(f.name));
  if (!main) return null;
  const resources: Record<string, Uint8Array> = {};
  for (const f of files) if (f !== main) resources[f.name] = new Uint8Array(await f.arrayBuffer());
  return { name: main.name, path: null, bytes: new Uint8Array(await main.arrayBuffer()), resources };
}
