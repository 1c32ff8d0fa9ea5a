/**
 * PlatformApi for the browser build: a hidden file input instead of open dialogs, downloads instead of
 * save dialogs, IndexedDB instead of a disk. Browser pages have no file paths, so what the user picks or
 * saves is kept in IndexedDB under pseudo-paths — `idb:creature/NAME`, `idb:project/NAME` — that
 * readCreature/readProject accept; that is what makes "save → reload → same document" work here.
 * Other non-absolute paths are URLs relative to the page (the built-in creatures and examples).
 */
import type { MenuCommand, PickedFile, PlatformApi, RecentEntry } from '../../../shared/platform';
import { documentWindowTitle } from '../../../shared/ipc';
import { basenameOf, creatureFormatOf, isGltfFormat, decodeResourceUri, isAbsolutePath, listGltfResources, projectFileName } from '../../../shared/project';
import { createMenuBus } from './menuBus';
import type { KeyValueStore } from './storage';

export interface WebPlatformDeps {
  store: KeyValueStore;
  /** Show the browser's file picker; [] when the user cancels. */
  pickFiles(accept: string, multiple: boolean): Promise<File[]>;
  /** Offer text (or bytes, with their MIME type) as a file download. */
  download(fileName: string, data: string | Uint8Array, type?: string): void;
  /** GET a URL relative to the page; rejects with a message naming it when it is not there. */
  fetchBytes(url: string): Promise<Uint8Array>;
  setTitle(title: string): void;
  /** Ask the browser to confirm leaving the page (the unsaved-changes prompt of the web build). */
  setLeaveGuard(active: boolean): void;
  now(): number;
}

export interface WebPlatform extends PlatformApi {
  readonly kind: 'web';
  /** The in-app menu bar (and shortcuts) deliver commands through this to onMenuCommand listeners. */
  dispatchMenuCommand(command: MenuCommand): void;
  /** A creature from files the user dropped or picked together: one .glb/.gltf/.fbx plus its resources. */
  creatureFromFiles(files: FileList | readonly File[]): Promise<PickedFile>;
}

export const CREATURE_ACCEPT = '.glb,.gltf,.bin,.png,.jpg,.jpeg,.webp,.ktx2,.fbx,.xml';
export const PROJECT_ACCEPT = '.marionette,.json';
const MAX_RECENT = 10;
/** Creatures kept in browser storage; older ones are dropped (they are megabytes each). */
const MAX_STORED_CREATURES = 8;

interface StoredCreature { name: string; bytes: Uint8Array; resources: Record<string, Uint8Array>; storedAt: number }
interface StoredProject { name: string; text: string; savedAt: number }

const IDB_PREFIX = 'idb:';
export function idbPath(kind: 'creature' | 'project', name: string): string {
  return `${IDB_PREFIX}${kind}/${name}`;
}
function parseIdbPath(path: string): { kind: string; name: string } | null {
  const match = /^idb:(creature|project)\/(.+)$/.exec(path);
  return match ? { kind: match[1]!, name: match[2]! } : null;
}

const fileBytes = async (file: File): Promise<Uint8Array> => new Uint8Array(await file.arrayBuffer());

/** Which picked file a glTF resource URI means: the same file name (browsers give no folders), any case. */
function findResourceFile(files: readonly File[], uri: string, gltfName: string): File | undefined {
  const wanted = basenameOf(decodeResourceUri(uri, gltfName));
  return files.find((f) => f.name === wanted) ?? files.find((f) => f.name.toLowerCase() === wanted.toLowerCase());
}

export function createWebPlatform(deps: WebPlatformDeps): WebPlatform {
  const menu = createMenuBus();
  const { store } = deps;

  async function keepCreature(picked: Omit<StoredCreature, 'storedAt'>): Promise<string> {
    await store.put('creatures', picked.name, { ...picked, storedAt: deps.now() } satisfies StoredCreature);
    const all = await Promise.all((await store.keys('creatures')).map(async (key) => ({ key, at: (await store.get<StoredCreature>('creatures', key))?.storedAt ?? 0 })));
    all.sort((a, b) => b.at - a.at);
    for (const old of all.slice(MAX_STORED_CREATURES)) await store.delete('creatures', old.key);
    return idbPath('creature', picked.name);
  }

  async function creatureFromFiles(list: FileList | readonly File[]): Promise<PickedFile> {
    const files = Array.from(list as ArrayLike<File>);
    const mains = files.filter((f) => creatureFormatOf(f.name) !== null);
    if (mains.length === 0) {
      throw new Error(`None of ${files.map((f) => f.name).join(', ') || 'the files'} is a creature Marionette opens (.glb, .gltf or .fbx).`);
    }
    if (mains.length > 1) throw new Error(`Open one creature at a time (got ${mains.map((f) => f.name).join(', ')}).`);
    const main = mains[0]!;
    const bytes = await fileBytes(main);
    const resources: Record<string, Uint8Array> = {};
    if (isGltfFormat(creatureFormatOf(main.name))) {
      for (const ref of listGltfResources(bytes, main.name)) {
        if (ref.uri in resources) continue;
        const file = findResourceFile(files, ref.uri, main.name);
        if (!file) {
          throw new Error(`${main.name}: its ${ref.kind} "${ref.uri}" was not picked. Select the .gltf together with all its files (Ctrl/Cmd-click) or drop them all at once.`);
        }
        resources[ref.uri] = await fileBytes(file);
      }
    } else if (creatureFormatOf(main.name) === 'fbx') {
      // An FBX names its textures by (often foreign, absolute) paths: images picked with it are matched by name.
      for (const f of files) if (f !== main && /\.(png|jpe?g|tga|bmp|gif|webp)$/i.test(f.name)) resources[f.name] = await fileBytes(f);
    }
    const path = await keepCreature({ name: main.name, bytes, resources });
    return { name: main.name, path, bytes, resources };
  }

  async function fetchCreature(url: string): Promise<PickedFile> {
    const name = basenameOf(url.split(/[?#]/)[0]!) || url;
    if (creatureFormatOf(name) === null) throw new Error(`${name}: not a creature file Marionette opens (.glb, .gltf or .fbx).`);
    const bytes = await deps.fetchBytes(url);
    const resources: Record<string, Uint8Array> = {};
    if (isGltfFormat(creatureFormatOf(name))) {
      for (const ref of listGltfResources(bytes, name)) {
        if (/^[a-z][a-z0-9+.-]*:|^\/|\.\.(\/|\\|$)/i.test(decodeResourceUri(ref.uri, name))) {
          throw new Error(`${name}: resource "${ref.uri}" points outside the creature's folder; glTF resources must sit beside the file or below it.`);
        }
        // Resolved against the creature's own URL; the check above keeps it in the creature's folder.
        resources[ref.uri] ??= await deps.fetchBytes(`${url.slice(0, url.split(/[?#]/)[0]!.lastIndexOf('/') + 1)}${ref.uri}`);
      }
    }
    return { name, path: url, bytes, resources };
  }

  async function recentFiles(): Promise<RecentEntry[]> {
    const entries = (await store.get<RecentEntry[]>('settings', 'recent')) ?? [];
    const present: RecentEntry[] = [];
    for (const entry of entries) {
      const idb = parseIdbPath(entry.path);
      const exists = idb === null || (await store.get(idb.kind === 'creature' ? 'creatures' : 'projects', idb.name)) !== undefined;
      if (exists) present.push(entry);
    }
    if (present.length !== entries.length) await store.put('settings', 'recent', present);
    return present;
  }

  async function addRecent(entry: Omit<RecentEntry, 'openedAt'>): Promise<void> {
    const entries = ((await store.get<RecentEntry[]>('settings', 'recent')) ?? []).filter((e) => e.path !== entry.path);
    await store.put('settings', 'recent', [{ ...entry, openedAt: deps.now() }, ...entries].slice(0, MAX_RECENT));
  }

  function desktopPathError(path: string): Error {
    return new Error(`${path} is a file on a computer's disk; the browser build cannot read it. Open the file again to continue.`);
  }

  const platform: WebPlatform = {
    kind: 'web',

    async pickCreature() {
      const files = await deps.pickFiles(CREATURE_ACCEPT, true);
      if (files.length === 0) return null;
      const picked = await creatureFromFiles(files);
      await addRecent({ kind: 'creature', path: picked.path!, name: picked.name });
      return picked;
    },

    async readCreature(path) {
      const idb = parseIdbPath(path);
      if (idb !== null) {
        const stored = await store.get<StoredCreature>('creatures', idb.name);
        if (stored === undefined) throw new Error(`${idb.name} is no longer in this browser's storage (it keeps the last ${MAX_STORED_CREATURES} creatures opened). Open the file again to continue.`);
        return { name: stored.name, path, bytes: stored.bytes, resources: stored.resources };
      }
      if (isAbsolutePath(path)) throw desktopPathError(path);
      return fetchCreature(path);
    },

    async pickProject(options) {
      const [file] = await deps.pickFiles(PROJECT_ACCEPT, false);
      if (file === undefined) return null;
      const text = await file.text();
      // Apply Rig From…: read for its rig only — not kept as a project, not a recent entry.
      if (options?.purpose === 'apply-rig') return { name: file.name, path: null, text };
      await store.put('projects', file.name, { name: file.name, text, savedAt: deps.now() } satisfies StoredProject);
      const path = idbPath('project', file.name);
      await addRecent({ kind: 'project', path, name: file.name });
      return { name: file.name, path, text };
    },

    async readProject(path) {
      const idb = parseIdbPath(path);
      if (idb !== null) {
        const stored = await store.get<StoredProject>('projects', idb.name);
        if (stored === undefined) throw new Error(`${idb.name} is not in this browser's storage any more.`);
        return { name: stored.name, path, text: stored.text };
      }
      if (isAbsolutePath(path)) throw desktopPathError(path);
      const name = basenameOf(path.split(/[?#]/)[0]!) || path;
      return { name, path, text: new TextDecoder().decode(await deps.fetchBytes(path)) };
    },

    async saveProject(text, path, suggestedName) {
      const existing = path === null ? null : parseIdbPath(path);
      const name = existing?.kind === 'project' ? existing.name : projectFileName(suggestedName);
      await store.put('projects', name, { name, text, savedAt: deps.now() } satisfies StoredProject);
      // A first save or Save As also hands the user a real file; later saves update the browser copy only,
      // so Ctrl+S does not fill the Downloads folder with "robot (7).marionette".
      if (existing === null) deps.download(name, text);
      const saved = { path: idbPath('project', name), name };
      await store.delete('settings', 'autosave');
      await addRecent({ kind: 'project', ...saved });
      return saved;
    },

    async exportRig(data, suggestedName, format = 'rig') {
      const ext = { rig: '.json', mjcf: '.xml', gltf: '.glb' }[format];
      const type = { rig: 'application/json', mjcf: 'application/xml', gltf: 'model/gltf-binary' }[format];
      const name = suggestedName.toLowerCase().endsWith(ext) ? suggestedName : `${suggestedName}${ext}`;
      deps.download(name, data, type);
      return { path: name, name };
    },

    recentFiles,
    addRecent,

    async writeAutosave(text) {
      await store.put('settings', 'autosave', { text, savedAt: deps.now() });
    },
    async readAutosave() {
      return (await store.get<{ text: string; savedAt: number }>('settings', 'autosave')) ?? null;
    },
    async clearAutosave() {
      await store.delete('settings', 'autosave');
    },

    setDocumentState(title, dirty) {
      deps.setTitle(documentWindowTitle(title, dirty, false));
      deps.setLeaveGuard(dirty);
    },

    onMenuCommand: (listener) => menu.subscribe(listener),
    dispatchMenuCommand: (command) => menu.dispatch(command),
    creatureFromFiles,
  };
  return platform;
}
