/** The shipped creatures read once per test file (Node side, through the humanoid script's reader). */
import { fileURLToPath } from 'node:url';
import { readCreature } from '../../../assets/scripts/humanoid-rig';
import type { AuthoringSkeleton } from '../../../shared/authoring';

const dir = fileURLToPath(new URL('../../../assets/creatures/', import.meta.url));
const cache = new Map<string, Promise<AuthoringSkeleton>>();
export const creature = (name: 'humanoid' | 'armed-mine'): Promise<AuthoringSkeleton> => {
  if (!cache.has(name)) cache.set(name, readCreature(`${dir}${name}.glb`));
  return cache.get(name)!;
};
export const creaturesDir = dir;
