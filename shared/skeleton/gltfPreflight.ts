/**
 * Before a display loader (three's GLTFLoader, which allocates whatever each accessor declares) sees a glTF:
 * the container, the asset version and every accessor's declared size against its bytes and the cap of
 * gltfDocument.ts. Throws a CreatureLoadError naming the file and the accessor; allocates nothing.
 */
import { readContainer } from './container';
import { GltfDocument } from './gltfDocument';

export function preflightGltf(bytes: Uint8Array, fileName: string, resources: Record<string, Uint8Array> = {}): void {
  new GltfDocument(fileName, readContainer(fileName, bytes), resources).checkAccessorSizes();
}
