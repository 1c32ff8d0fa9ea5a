/** The command line both rig generators share: validate the generated rig, then write
 *  assets/creatures/NAME, or with --check exit 1 when the file on disk differs from what it would write. */
import { readFile, writeFile } from 'node:fs/promises';
import { serializeRig } from '../../shared/rig/load';
import type { RigDocument } from '../../shared/rig/schema';
import { validateRig } from '../../shared/rig/validate';

export const creaturesDir = new URL('../creatures/', import.meta.url);

/** Bytes of a file in assets/creatures/. */
export const creatureFile = async (name: string): Promise<Uint8Array> => new Uint8Array(await readFile(new URL(name, creaturesDir)));

export async function writeOrCheckRig(rig: RigDocument, fileName: string, script: string): Promise<void> {
  const check = validateRig(rig);
  if (!check.ok) throw new Error(`${fileName}: the generated rig does not validate:\n${check.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`);
  const text = serializeRig(rig);
  const out = new URL(fileName, creaturesDir);
  if (process.argv.includes('--check')) {
    const old = await readFile(out, 'utf8').catch(() => '');
    if (old !== text) { console.error(`${fileName} is out of date: run npx tsx ${script}`); process.exit(1); }
    return;
  }
  await writeFile(out, text);
  console.log(`wrote ${out.pathname} (${text.length} bytes)`);
}
