/**
 * TEMPORARY minimal web platform, used only until renderer/src/platform/bridge.ts lands (the platform
 * helper's). File input for picking, a download for saving, localStorage for recent files and autosave.
 */
import type { MenuCommand, PickedFile, PlatformApi, RecentEntry } from '../../shared/platform';

function pickFiles(accept: string, multiple: boolean): Promise<File[] | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = accept;
    input.multiple = multiple;
    input.style.display = 'none';
    input.addEventListener('change', () => { resolve(input.files ? [...input.files] : null); input.remove(); });
    input.addEventListener('cancel', () => { resolve(null); input.remove(); });
    document.body.appendChild(input);
    input.click();
  });
}

const bytesOf = async (f: File) => new Uint8Array(await f.arrayBuffer());

export async function filesToPicked(files: File[]): Promise<PickedFile | null> {
  const main = files.find((f) => /\.(glb|gltf|fbx)$/i.test(f.name)) ?? files[0];
  if (!main) return null;
  const resources: Record<string, Uint8Array> = {};
  for (const f of files) if (f !== main) resources[f.name] = await bytesOf(f);
  return { name: main.name, path: null, bytes: await bytesOf(main), resources };
}

function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const RECENT_KEY = 'marionette.recent';
const AUTOSAVE_KEY = 'marionette.autosave';

export const tempPlatform: PlatformApi = {
  kind: 'web',
  async pickCreature() {
    const files = await pickFiles('.glb,.gltf,.bin,.png,.jpg,.jpeg,.ktx2,.webp', true);
    return files ? filesToPicked(files) : null;
  },
  readCreature(path) { return Promise.reject(new Error(`${path}: the browser build cannot read files by path`)); },
  async pickProject() {
    const files = await pickFiles('.marionette,.json', false);
    const f = files?.[0];
    return f ? { name: f.name, path: null, text: await f.text() } : null;
  },
  readProject(path) { return Promise.reject(new Error(`${path}: the browser build cannot read files by path`)); },
  async saveProject(text, _path, suggestedName) {
    download(text, suggestedName);
    return { path: suggestedName, name: suggestedName };
  },
  async exportRig(text, suggestedName) {
    download(text, suggestedName);
    return { path: suggestedName, name: suggestedName };
  },
  async recentFiles() {
    try { return JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as RecentEntry[]; } catch { return []; }
  },
  async addRecent(entry) {
    const list = (await this.recentFiles()).filter((e) => e.path !== entry.path);
    localStorage.setItem(RECENT_KEY, JSON.stringify([{ ...entry, openedAt: Date.now() }, ...list].slice(0, 10)));
  },
  async writeAutosave(text) { localStorage.setItem(AUTOSAVE_KEY, JSON.stringify({ text, savedAt: Date.now() })); },
  async readAutosave() {
    const raw = localStorage.getItem(AUTOSAVE_KEY);
    return raw ? (JSON.parse(raw) as { text: string; savedAt: number }) : null;
  },
  async clearAutosave() { localStorage.removeItem(AUTOSAVE_KEY); },
  setDocumentState(title) { document.title = title; },
  onMenuCommand(_listener: (c: MenuCommand) => void) { return () => {}; },
};
