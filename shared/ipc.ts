/**
 * The wire between the preload (renderer side) and the main process. Three channels, all prefixed
 * `marionette:`; every message is a member of a discriminated union below, and main validates each one
 * with the zod schemas of electron/ipcSchemas.ts before acting on it (the renderer is treated as untrusted
 * input, as Electron's security checklist asks). No zod here: the sandboxed preload imports this file and
 * should stay a few kilobytes.
 *
 *   marionette:request         renderer → main, invoke/handle; PlatformRequest → IpcResult
 *   marionette:document-state  renderer → main, send; DocumentState (title bar, close prompt)
 *   marionette:menu-command    main → renderer, send; MenuCommand (shared/platform.ts)
 *
 * Also the Content-Security-Policy both sides agree on (main sends it as a header, the renderer's
 * index.html carries it as a meta tag).
 */
import type { MenuCommand, PickedFile, RecentEntry } from './platform';

export const IPC_CHANNELS = {
  request: 'marionette:request',
  documentState: 'marionette:document-state',
  menuCommand: 'marionette:menu-command',
} as const;

/** Upper bound on any text the renderer sends (a project or exported rig): 64 Mi UTF-16 code units. A
 *  rig is kilobytes; the cap only stops a runaway renderer from making main allocate without bound. */
export const MAX_TEXT_LENGTH = 64 * 1024 * 1024;

/**
 * Renderer → main requests (invoke on `marionette:request`). main validates each against
 * electron/ipcSchemas.ts, whose inferred type is checked to equal this one.
 *
 * Files are named by HANDLE, never by path: main issues an opaque handle (electron/capabilities.ts) for each
 * file the user gave the app — picked in a dialog, on the recent list, on the command line or from the OS,
 * dropped, an example, or the creature of a project the user opened — and every read or write goes through
 * one. A path the renderer makes up reaches nothing. The one request that carries a path,
 * `open-dropped-creature`, proves nothing by itself (a compromised page could send any path): main reads
 * only a creature file (.glb/.gltf/.fbx) and only after the user confirms, in a main-process dialog naming
 * the file, that they dropped it — unless the window already holds a handle for that file. A File made by
 * script has no disk path, so the preload sends '' for it.
 */
export type PlatformRequest =
  | { type: 'pick-creature'; /** a project's creature moved: the dialog says which file it looks for */ missingPath?: string }
  | { type: 'read-creature'; handle: string }
  /** null when the user says in main's dialog that they did not drop it (cancel). */
  | { type: 'open-dropped-creature'; path: string }
  /** purpose 'apply-rig' (Rig › Apply Rig From…): a rig or project read for its rig only — the dialog says
   *  so, it is not added to the recent list and its creature is neither granted nor asked about. */
  | { type: 'pick-project'; purpose?: 'apply-rig' }
  | { type: 'read-project'; handle: string }
  /** handle null, or a handle without the right to save over it (an opened .json): ask with the Save dialog. */
  | { type: 'save-project'; text: string; handle: string | null; suggestedName: string }
  /** text: rig JSON or MJCF; bytes: a GLB (format 'gltf'), with text ''. format defaults to 'rig'. */
  | { type: 'export-rig'; text: string; suggestedName: string; format?: 'rig' | 'mjcf' | 'gltf'; bytes?: Uint8Array<ArrayBuffer> }
  | { type: 'recent-files' }
  | { type: 'add-recent'; handle: string }
  | { type: 'write-autosave'; text: string }
  | { type: 'read-autosave' }
  | { type: 'clear-autosave' };
export type PlatformRequestType = PlatformRequest['type'];

/** A file main granted the renderer: its path (to show, and to store relative in a project) and the handle
 *  to use in requests. */
export interface GrantedFile { path: string; handle: string }

export interface TextFile { name: string; path: string | null; text: string }
export interface SavedFile { path: string; name: string }

/** What main answers under Electron: the platform's shapes plus the handles it issued. */
export type NativePickedFile = PickedFile & { path: string; handle: string };
export interface NativeTextFile extends TextFile {
  path: string;
  handle: string;
  /** The creature the project refers to (resolved against the project's folder), granted for reading when
   *  it lies inside the project's folder (or the user opened it before, or confirmed it in main's dialog —
   *  otherwise main refuses the project); null when the project names none, names no creature file, or is
   *  not a project. */
  creature: GrantedFile | null;
}
export interface NativeSavedFile extends SavedFile { handle: string }
export type NativeRecentEntry = RecentEntry & { handle: string };
export interface NativeAutosave { text: string; savedAt: number; creature: GrantedFile | null }

/** What each request resolves to. */
export interface PlatformResponses {
  'pick-creature': NativePickedFile | null;
  'read-creature': NativePickedFile;
  'open-dropped-creature': NativePickedFile | null;
  'pick-project': NativeTextFile | null;
  'read-project': NativeTextFile;
  'save-project': NativeSavedFile | null;
  'export-rig': SavedFile | null;
  'recent-files': NativeRecentEntry[];
  'add-recent': void;
  'write-autosave': void;
  'read-autosave': NativeAutosave | null;
  'clear-autosave': void;
}

/** What the Electron preload exposes as `window.marionette`: the requests above, one method each, plus the
 *  disk path of a dropped File ('' for data that is not a file on disk). renderer/src/platform/bridge.ts
 *  turns it into the PlatformApi the UI uses, keeping the path → handle table. */
export interface NativePlatformApi {
  readonly kind: 'electron';
  pickCreature(options?: { missingPath?: string }): Promise<NativePickedFile | null>;
  readCreature(handle: string): Promise<NativePickedFile>;
  openDroppedCreature(path: string): Promise<NativePickedFile | null>;
  pickProject(options?: { purpose?: 'apply-rig' }): Promise<NativeTextFile | null>;
  readProject(handle: string): Promise<NativeTextFile>;
  saveProject(text: string, handle: string | null, suggestedName: string): Promise<NativeSavedFile | null>;
  exportRig(text: string, suggestedName: string, format?: 'rig' | 'mjcf' | 'gltf', bytes?: Uint8Array<ArrayBuffer>): Promise<SavedFile | null>;
  recentFiles(): Promise<NativeRecentEntry[]>;
  addRecent(handle: string): Promise<void>;
  writeAutosave(text: string): Promise<void>;
  readAutosave(): Promise<NativeAutosave | null>;
  clearAutosave(): Promise<void>;
  setDocumentState(title: string, dirty: boolean): void;
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
  pathForFile(file: unknown): string;
}

/** Main never lets an exception cross the wire (Electron would prefix it with its own noise): a failure
 *  is a value whose message the preload rethrows as an Error, word for word. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Renderer → main (send on `marionette:document-state`): drives the title bar and the close prompt. */
export interface DocumentState { title: string; dirty: boolean }

export type MenuCommandMessage = MenuCommand;

/**
 * Content-Security-Policy: ONE policy, sent by main as a header on every app:// response and written by
 * the Vite build into index.html's meta tag (scripts/cspMeta.ts), so the web build has the same rules.
 *
 * Scripts only from the app itself (no inline script, no eval, no WebAssembly: the renderer compiles
 * none); `blob:` workers because the simulation can run in a Web Worker built from a blob; `blob:`/`data:`
 * images and fetches because three's GLTFLoader turns embedded and picked textures/buffers into such URLs.
 * Styles only from the app's own CSS files: no `'unsafe-inline'`. React's `style={…}` props and uPlot set
 * styles through the CSSOM (element.style), which CSP does not govern; nothing in the renderer writes a
 * `style="…"` attribute or injects a <style> element (the e2e csp test collects violations).
 * Framing is refused by `X-Frame-Options: DENY` beside the header (`frame-ancestors` is ignored in a meta
 * tag, so it would make the two differ).
 *
 * Dev (the Vite dev server) adds its inline React-refresh preamble, the <style> elements it injects for
 * CSS modules under HMR, and its WebSocket.
 */
export function contentSecurityPolicy(options: { dev?: boolean } = {}): string {
  const dev = options.dev ?? false;
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...(dev ? ["'unsafe-inline'"] : [])]],
    ['worker-src', ["'self'", 'blob:']],
    ['style-src', ["'self'", ...(dev ? ["'unsafe-inline'"] : [])]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", 'data:', 'blob:', ...(dev ? ['ws:', 'wss:'] : [])]],
    ['media-src', ["'self'", 'blob:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** The window title for a document: "armed-mine — Marionette", with a leading bullet while it has unsaved
 *  changes where the platform has no native edited marker (macOS shows a dot in the close button instead). */
export function documentWindowTitle(name: string, dirty: boolean, nativeEditedMarker: boolean): string {
  const title = name.trim() === '' ? 'Marionette' : `${name.trim()} — Marionette`;
  return dirty && !nativeEditedMarker ? `• ${title}` : title;
}
