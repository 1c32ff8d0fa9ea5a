/**
 * Creatures shipped with the app (assets/creatures/*.glb), bundled as URL assets. A glob rather than a
 * fixed import keeps the build working while the asset set grows.
 */
const urls = import.meta.glob('../../../assets/creatures/*.glb', { query: '?url', import: 'default', eager: true }) as Record<string, string>;

export interface BuiltinCreature { name: string; fileName: string; url: string }

export const builtinCreatures: BuiltinCreature[] = Object.entries(urls)
  .map(([path, url]) => {
    const fileName = path.replace(/^.*\//, '');
    return { name: fileName.replace(/\.glb$/, ''), fileName, url };
  })
  .sort((a, b) => (a.name === 'armed-mine' ? -1 : b.name === 'armed-mine' ? 1 : a.name.localeCompare(b.name)));

export const DEFAULT_CREATURE = 'armed-mine';

export async function fetchBuiltin(name: string): Promise<{ fileName: string; bytes: Uint8Array }> {
  const entry = builtinCreatures.find((c) => c.name === name);
  if (!entry) throw new Error(`Built-in creature "${name}" is not part of this build`);
  const res = await fetch(entry.url);
  if (!res.ok) throw new Error(`${entry.fileName}: could not be read (${res.status} ${res.statusText})`);
  return { fileName: entry.fileName, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Rigs shipped next to the built-in creatures (assets/creatures/NAME.rig.json), loaded on demand. */
const rigs = import.meta.glob('../../../assets/creatures/*.rig.json', { import: 'default' }) as Record<string, () => Promise<unknown>>;

/** The shipped rig document of a built-in creature, or null when it has none. */
export async function builtinRig(name: string): Promise<unknown> {
  const entry = Object.entries(rigs).find(([path]) => path.endsWith(`/${name}.rig.json`));
  return entry ? await entry[1]() : null;
}
