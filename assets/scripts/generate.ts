/** `npm run assets`: regenerates the shipped creatures into assets/creatures/ (or the folder given as
 *  the first argument). Deterministic: same code → byte-identical files (tests/unit/assets checks it). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { armedMine } from './armedMine';
import { corpusCreatureFiles } from './corpusCreatures';
import { hexapod } from './hexapod';
import { humanoid } from './humanoid';
import { HUMANOID_FBX, humanoidFbx } from './humanoid-fbx';
import { toGlb, toGltfWithBin } from './toGltf';

/** File name → bytes of everything the generator writes. */
export async function generateCreatureFiles(): Promise<Record<string, Uint8Array>> {
  const mine = armedMine();
  return {
    'armed-mine.glb': await toGlb(mine),
    'humanoid.glb': await toGlb(humanoid()),
    'hexapod.glb': await toGlb(hexapod()),
    // The same Armed Mine as .gltf JSON + external .bin, for loading with external buffers.
    ...(await toGltfWithBin(mine, 'armed-mine')),
  };
}

export const defaultOutDir = resolve(dirname(fileURLToPath(import.meta.url)), '../creatures');

export async function writeCreatureFiles(outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const files = await generateCreatureFiles();
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(outDir, name), bytes);
  return Object.keys(files).map((n) => join(outDir, n));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ? resolve(process.argv[2]) : defaultOutDir;
  for (const f of await writeCreatureFiles(out)) console.log(`wrote ${f}`);
  // The FBX humanoid (the FBX reader's test asset) has its own byte-for-byte test,
  // tests/unit/assets/humanoidFbx.test.ts; written here too so one command regenerates every creature.
  writeFileSync(join(out, HUMANOID_FBX), humanoidFbx());
  console.log(`wrote ${join(out, HUMANOID_FBX)}`);
  // The synthetic members of the real-creature corpus (tests/unit/assets/thirdParty.test.ts compares them).
  const corpusDir = resolve(dirname(fileURLToPath(import.meta.url)), '../third-party/synthetic');
  mkdirSync(corpusDir, { recursive: true });
  for (const [name, bytes] of Object.entries(await corpusCreatureFiles())) {
    writeFileSync(join(corpusDir, name), bytes);
    console.log(`wrote ${join(corpusDir, name)}`);
  }
}
