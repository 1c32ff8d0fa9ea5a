/**
 * The renderer's only way to the platform. Under Electron the preload has put `window.marionette` there;
 * in a plain browser the web implementation (file input, downloads, IndexedDB) takes its place. Either
 * way the UI gets one PlatformApi, plus two helpers that work in both:
 *   dispatchMenuCommand — the in-app menu bar, toolbar buttons and shortcuts send commands through it,
 *                         reaching the same onMenuCommand listeners as the native menu;
 *   creatureFromFiles   — for drag-and-drop of a FileList onto the window.
 */
import type { MenuCommand, PickedFile, PlatformApi } from '../../../shared/platform';
import { creatureFormatOf } from '../../../shared/project';
import { createMenuBus } from './menuBus';
import { createWebPlatform } from './web';
import { browserDeps } from './browserDeps';

/** What the Electron preload exposes: PlatformApi plus the disk path of a dropped File ('' if none). */
export interface ElectronPlatformApi extends PlatformApi {
  pathForFile(file: File): string;
}

declare global {
  interface Window {
    marionette?: ElectronPlatformApi;
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
  native.onMenuCommand((command) => bus.dispatch(command));
  const platform: PlatformApi = {
    kind: 'electron',
    pickCreature: (options) => native.pickCreature(options),
    readCreature: (path) => native.readCreature(path),
    pickProject: () => native.pickProject(),
    readProject: (path) => native.readProject(path),
    saveProject: (text, path, name) => native.saveProject(text, path, name),
    exportRig: (text, name) => native.exportRig(text, name),
    recentFiles: () => native.recentFiles(),
    addRecent: (entry) => native.addRecent(entry),
    writeAutosave: (text) => native.writeAutosave(text),
    readAutosave: () => native.readAutosave(),
    clearAutosave: () => native.clearAutosave(),
    setDocumentState: (title, dirty) => native.setDocumentState(title, dirty),
    onMenuCommand: (listener) => bus.subscribe(listener),
  };
  // A dropped creature is read from disk by main, so a .gltf's sibling files come along as with Open.
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
    return native.readCreature(path);
  };
  return { platform, dispatch: bus.dispatch, fromFiles };
}

const created = createPlatform();

export const platform: PlatformApi = created.platform;
export const dispatchMenuCommand: (command: MenuCommand) => void = created.dispatch;
export const creatureFromFiles: (files: FileList | readonly File[]) => Promise<PickedFile> = created.fromFiles;
