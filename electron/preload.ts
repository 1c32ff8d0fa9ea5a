/**
 * The preload: exposes exactly one object, `window.marionette`, implementing PlatformApi over the three
 * channels of shared/ipc.ts. It runs sandboxed (it can require only 'electron'; build-electron.mjs bundles
 * it to CommonJS) and never hands the page ipcRenderer itself or any function that takes a channel name.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { IPC_CHANNELS, type IpcResult, type NativePlatformApi, type PlatformRequest, type PlatformResponses } from '../shared/ipc';
import type { MenuCommand } from '../shared/platform';

async function request<R extends PlatformRequest>(message: R): Promise<PlatformResponses[R['type']]> {
  const result = (await ipcRenderer.invoke(IPC_CHANNELS.request, message)) as IpcResult<PlatformResponses[R['type']]>;
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

// Menu commands can arrive before React has subscribed (a file opened from the OS at start-up); they wait
// here until the first listener comes.
const listeners = new Set<(command: MenuCommand) => void>();
const pending: MenuCommand[] = [];
ipcRenderer.on(IPC_CHANNELS.menuCommand, (_event: IpcRendererEvent, command: MenuCommand) => {
  if (listeners.size === 0) pending.push(command);
  else for (const listener of listeners) listener(command);
});

/** NativePlatformApi (shared/ipc.ts): files by main's handles, plus the disk path of a File dropped on the
 *  window (File.path is gone since Electron 32); '' for data that is not a file on disk, such as a File a
 *  script constructed. */
const api: NativePlatformApi = {
  kind: 'electron',
  pickCreature: (options) => request({ type: 'pick-creature', ...(options?.missingPath ? { missingPath: options.missingPath } : {}) }),
  readCreature: (handle) => request({ type: 'read-creature', handle }),
  openDroppedCreature: (path) => request({ type: 'open-dropped-creature', path }),
  pickProject: (options) => request({ type: 'pick-project', ...(options?.purpose ? { purpose: options.purpose } : {}) }),
  readProject: (handle) => request({ type: 'read-project', handle }),
  saveProject: (text, handle, suggestedName) => request({ type: 'save-project', text, handle, suggestedName }),
  exportRig: (text, suggestedName, format, bytes) => request({ type: 'export-rig', text, suggestedName, ...(format ? { format } : {}), ...(bytes ? { bytes } : {}) }),
  recentFiles: () => request({ type: 'recent-files' }),
  addRecent: (handle) => request({ type: 'add-recent', handle }),
  writeAutosave: (text) => request({ type: 'write-autosave', text }),
  readAutosave: () => request({ type: 'read-autosave' }),
  clearAutosave: () => request({ type: 'clear-autosave' }),
  setDocumentState: (title, dirty) => ipcRenderer.send(IPC_CHANNELS.documentState, { title, dirty }),
  pathForFile: (file) => (file instanceof File ? webUtils.getPathForFile(file) : ''),
  onMenuCommand: (listener) => {
    listeners.add(listener);
    for (const command of pending.splice(0)) listener(command);
    return () => {
      listeners.delete(listener);
    };
  },
};

contextBridge.exposeInMainWorld('marionette', api);
