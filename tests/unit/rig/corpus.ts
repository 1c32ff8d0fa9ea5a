/** Paths and loaders for the rig fixtures, shared by the rig, runtime and CLI tests. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../../../', import.meta.url));
export const fixture = (p: string) => `${repo}tests/fixtures/${p}`;
export const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

export const badRigDir = fixture('bad-rigs');
export const badRigManifest = readJson(`${badRigDir}/manifest.json`) as Record<string, { expect: string[]; exit: number }>;

/** Every valid rig we ship or keep as a fixture: test rigs plus assets/creatures/*.rig.json when present. */
export function shippedRigs(): string[] {
  const fixtures = readdirSync(fixture('rigs')).filter((f) => f.endsWith('.rig.json')).map((f) => fixture(`rigs/${f}`));
  const creatures = `${repo}assets/creatures`;
  const shipped = existsSync(creatures) ? readdirSync(creatures).filter((f) => f.endsWith('.rig.json')).map((f) => `${creatures}/${f}`) : [];
  return [...fixtures, ...shipped];
}
