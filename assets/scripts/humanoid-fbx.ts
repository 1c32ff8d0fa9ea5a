/**
 * Generates assets/creatures/humanoid.fbx: the humanoid of humanoid.glb (same spec: bones, skinned mesh,
 * materials, the wave and squat clips) as an ASCII FBX 7.4 file in centimetres (toFbx.ts), the test
 * asset of the editor's FBX reader. Deterministic: same code, same bytes (tests/unit/assets/humanoidFbx
 * regenerates and compares).
 *
 *   npx tsx assets/scripts/humanoid-fbx.ts            (writes the file; `npm run assets` does too)
 *   npx tsx assets/scripts/humanoid-fbx.ts --check    (exit 1 if the file on disk differs)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { humanoid } from './humanoid';
import { toFbx } from './toFbx';

export const HUMANOID_FBX = 'humanoid.fbx';
export const humanoidFbxUrl = new URL(`../creatures/${HUMANOID_FBX}`, import.meta.url);

export const humanoidFbx = (): string => toFbx(humanoid(), 'Marionette assets/scripts/humanoid-fbx.ts');

/** Writes the file, or with `check` compares it: true when the file on disk is what the script writes. */
export async function writeOrCheckHumanoidFbx(check: boolean): Promise<boolean> {
  const text = humanoidFbx();
  if (check) return (await readFile(humanoidFbxUrl, 'utf8').catch(() => '')) === text;
  await writeFile(humanoidFbxUrl, text);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  writeOrCheckHumanoidFbx(check).then((ok) => {
    if (!ok) { console.error(`${HUMANOID_FBX} is out of date: run npx tsx assets/scripts/humanoid-fbx.ts`); process.exit(1); }
    console.log(check ? `${HUMANOID_FBX} is up to date` : `wrote ${fileURLToPath(humanoidFbxUrl)}`);
  }).catch((e: unknown) => { console.error(e); process.exit(1); });
}
