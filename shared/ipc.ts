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

/** Renderer → main requests (invoke on `marionette:request`). main validates each against
 *  electron/ipcSchemas.ts, whose inferred type is checked to equal this one. */
export type PlatformRequest =
  | { type: 'pick-creature'; /** a project's creature moved: the dialog says which file it looks for */ missingPath?: string }
  | { type: 'read-creature'; path: string }
  | { type: 'pick-project' }
  | { type: 'read-project'; path: string }
  | { type: 'save-project'; text: string; path: string | null; suggestedName: string }
  | { type: 'export-rig'; text: string; suggestedName: string }
  | { type: 'recent-files' }
  | { type: 'add-recent'; entry: { kind: 'project' | 'creature'; path: string; name: string } }
  | { type: 'write-autosave'; text: string }
  | { type: 'read-autosave' }
  | { type: 'clear-autosave' };
export type PlatformRequestType = PlatformRequest['type'];

export interface TextFile { name: string; path: string | null; text: string }
export interface SavedFile { path: string; name: string }

/** What each request resolves to. */
export interface PlatformResponses {
  'pick-creature': PickedFile | null;
  'read-creature': PickedFile;
  'pick-project': TextFile | null;
  'read-project': TextFile;
  'save-project': SavedFile | null;
  'export-rig': SavedFile | null;
  'recent-files': RecentEntry[];
  'add-recent': void;
  'write-autosave': void;
  'read-autosave': { text: string; savedAt: number } | null;
  'clear-autosave': void;
}

/** Main never lets an exception cross the wire (Electron would prefix it with its own noise): a failure
 *  is a value whose message the preload rethrows as an Error, word for word. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Renderer → main (send on `marionette:document-state`): drives the title bar and the close prompt. */
export interface DocumentState { title: string; dirty: boolean }

export type MenuCommandMessage = MenuCommand;

/**
 * Content-Security-Policy. Scripts only from the app itself; `'wasm-unsafe-eval'` because the physics
 * engines (Rapier, Jolt) compile WebAssembly; `blob:` workers because the simulation can run in a Web
 * Worker built from a blob; `blob:`/`data:` images and fetches because three's GLTFLoader turns embedded
 * and picked textures/buffers into such URLs. Inline styles are allowed (libraries inject <style> tags;
 * styles cannot run code). Dev adds the Vite dev server's inline React-refresh preamble and its
 * WebSocket. `frame-ancestors` only works as a header (browsers ignore it in a meta tag and warn).
 */
export function contentSecurityPolicy(options: { dev?: boolean; delivery?: 'header' | 'meta' } = {}): string {
  const dev = options.dev ?? false;
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", "'wasm-unsafe-eval'", ...(dev ? ["'unsafe-inline'"] : [])]],
    ['worker-src', ["'self'", 'blob:']],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", 'data:', 'blob:', ...(dev ? ['ws:', 'wss:'] : [])]],
    ['media-src', ["'self'", 'blob:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'none'"]],
  ];
  if (options.delivery === 'header') directives.push(['frame-ancestors', ["'none'"]]);
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** The window title for a document: "armed-mine — Marionette", with a leading bullet while it has unsaved
 *  changes where the platform has no native edited marker (macOS shows a dot in the close button instead). */
export function documentWindowTitle(name: string, dirty: boolean, nativeEditedMarker: boolean): string {
  const title = name.trim() === '' ? 'Marionette' : `${name.trim()} — Marionette`;
  return dirty && !nativeEditedMarker ? `• ${title}` : title;
}
