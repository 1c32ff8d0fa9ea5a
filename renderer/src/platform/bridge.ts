/**
 * The renderer's only way to the platform. Under Electron the preload has put `window.marionette` there;
 * in a plain browser the web implementation (file input, downloads, IndexedDB) takes its place. Either
 * way the UI gets one PlatformApi, plus two helpers that work in both:
 *   dispatchMenuCommand — the in-app menu bar, toolbar buttons and shortcuts send commands through it,
 *                         reaching the same onMenuCommand listeners as the native menu;
 *   creatureFromFiles   — for drag-and-drop of a FileList onto the window.
 */
import type { MenuCommand, PickedFile, PlatformApi } from '../../../shared/platform';
import type { GrantedFile, NativePlatformApi } from '../../../shared/ipc';
import { createHandleTable } from './handles';
import { creatureFormatOf } from '../../../shared/project';
import { createMenuBus } from './menuBus';
import { createWebPlatform } from './web';
import { browserDeps } from './browserDeps';

declare global {
  interface Window {
    /** The Electron preload's API (shared/ipc.ts): files by main's handles. */
    marionette?: NativePlatformApi;
  }
}

function createPlatform(): { platform: PlatformApi; dispatch(command: MenuCommand): void; fromFiles(files: FileList | readonly File[]): Promise<PickedFile> } {
  const native = typeof window !== 'undefined' ? window.marionette : undefined;
  if (native === undefined) {
    const web = createWebPlatform(browserDeps());
    return { platform: web, dispatch: web.dispatchMenuCommand, fromFiles: web.creatureFromFiles };
  }
  // The native menu and in-renderer dispatches share one bus, subscribed once to the preload.
  const bus = createMenuBus();
  const table = createHandleTable();
  native.onMenuCommand((command) => {
    table.keepCommand(command);
    bus.dispatch(command);
  });
  const kept = <T extends { path: string; handle: string; creature?: GrantedFile | null }>(file: T): T => {
    table.keep(file);
    table.keep(file.creature);
    return file;
  };
  const keptOrNull = <T extends { path: string; handle: string; creature?: GrantedFile | null }>(file: T | null): T | null => (file === null ? null : kept(file));
  const platform: PlatformApi = {
    kind: 'electron',
    pickCreature: async (options) => keptOrNull(await native.pickCreature(options)),
    readCreature: async (path) => kept(await native.readCreature(table.require(path))),
    pickProject: async (options) => keptOrNull(await native.pickProject(options)),
    readProject: async (path) => kept(await native.readProject(table.require(path))),
    saveProject: async (text, path, name) => keptOrNull(await native.saveProject(text, path === null ? null : (table.handleOf(path) ?? null), name)),
    exportRig: (data, name, format) => (typeof data === 'string' ? native.exportRig(data, name, format) : native.exportRig('', name, format, data as Uint8Array<ArrayBuffer>)),
    recentFiles: async () => (await native.recentFiles()).map((entry) => kept(entry)),
    addRecent: async (entry) => {
      // main already lists what it opened or saved; an entry it never granted is not added.
      const handle = table.handleOf(entry.path);
      if (handle !== undefined) await native.addRecent(handle);
    },
    writeAutosave: (text) => native.writeAutosave(text),
    readAutosave: async () => {
      const saved = await native.readAutosave();
      if (saved === null) return null;
      table.keep(saved.creature);
      return { text: saved.text, savedAt: saved.savedAt };
    },
    clearAutosave: () => native.clearAutosave(),
    setDocumentState: (title, dirty) => native.setDocumentState(title, dirty),
    onMenuCommand: (listener) => bus.subscribe(listener),
  };
  // A dropped creature is read from disk by main, so a .gltf's sibling files come along as with Open; main
  // first asks the user to confirm the drop (shared/ipc.ts), since main cannot see the drop itself.
  const fromFiles = async (list: FileList | readonly File[]): Promise<PickedFile> => {
    const files = Array.from(list as ArrayLike<File>);
    const creatures = files.filter((f) => creatureFormatOf(f.name) !== null);
    if (creatures.length !== 1) {
      throw new Error(creatures.length === 0
        ? `None of ${files.map((f) => f.name).join(', ') || 'the files'} is a creature Marionette opens (.glb, .gltf or .fbx).`
        : `Open one creature at a time (got ${creatures.map((f) => f.name).join(', ')}).`);
    }
    const path = native.pathForFile(creatures[0]!);
    if (path === '') throw new Error(`${creatures[0]!.name}: dropped data that is not a file on disk; save it to a file and open that.`);
    const opened = await native.openDroppedCreature(path);
    if (opened === null) throw new Error(`${creatures[0]!.name}: not opened (Cancel was chosen when Marionette asked to confirm the drop).`);
    return kept(opened);
  };
  return { platform, dispatch: bus.dispatch, fromFiles };
}

const created = createPlatform();

export const platform: PlatformApi = created.platform;
export const dispatchMenuCommand: (command: MenuCommand) => void = created.dispatch;
export const creatureFromFiles: (files: FileList | readonly File[]) => Promise<PickedFile> = created.fromFiles;
