/** The built-in examples (assets/examples/), for the File ▸ Examples menu. */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { ExampleFile } from './menuTemplate';

const EXAMPLE_EXTENSIONS = new Set(['.marionette', '.json', '.glb', '.gltf']);

/** Example files in `folder`, sorted by name; [] when the folder does not exist. */
export async function listExamples(folder: string): Promise<ExampleFile[]> {
  let names: string[];
  try {
    names = await fsp.readdir(folder);
  } catch {
    return [];
  }
  return names
    .filter((n) => EXAMPLE_EXTENSIONS.has(path.extname(n).toLowerCase()) && !n.startsWith('.'))
    .sort((a, b) => a.localeCompare(b))
    .map((n) => ({ name: n.slice(0, -path.extname(n).length), path: path.join(folder, n) }));
}
