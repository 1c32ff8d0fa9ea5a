/**
 * The one contract between the renderer and the platform. Under Electron the preload exposes an object of
 * this shape as `window.marionette` (implemented in electron/preload.ts over the channels of shared/ipc.ts);
 * in the web build renderer/src/platform/web.ts implements it with a file input, downloads and IndexedDB.
 * The renderer imports only renderer/src/platform/bridge.ts, which picks one.
 */

/** A file the user picked. For a .gltf with external buffers/images, `resources` holds the sibling files
 *  it references, keyed by their URI as written in the .gltf. */
export interface PickedFile {
  name: string;
  /** Absolute path under Electron. In the browser there are no paths: the web bridge keeps what was picked in
   *  IndexedDB and gives its key as a pseudo-path `idb:creature/NAME`, which readCreature accepts (so a
   *  project saved in the browser finds its creature again); null only where nothing was kept. */
  path: string | null;
  bytes: Uint8Array;
  resources: Record<string, Uint8Array>;
}

/** The formats of File › Export (shared/export): rig JSON, MJCF (MuJoCo XML), glTF binary with KHR physics. */
export type ExportFileFormat = 'rig' | 'mjcf' | 'gltf';

export interface RecentEntry { kind: 'project' | 'creature'; path: string; name: string; openedAt: number }

/** The preview's viewport overlays (View menu): bodies, joint axes and limits, motor torque ramp,
 *  contact points, gait path and its handles. */
export type PreviewOverlay = 'bodies' | 'joints' | 'torque' | 'contacts' | 'path';

/** Commands the native menu (or, in the web build, the in-app menu bar) sends to the renderer. */
export type MenuCommand =
  | 'new' | 'open-creature' | 'open-project' | 'save' | 'save-as' | 'export-rig'
  | 'undo' | 'redo' | 'frame-selection' | 'toggle-skeleton' | 'about'
  /** View › Follow Creature: the orbit camera follows the previewed creature's root body (toggle). */
  | 'toggle-follow'
  /** Rig menu: authoring actions on the open creature, each one undo step (go limp / power on are inputs
   *  on the preview timeline at the frame shown, for every joint). Generate… opens the generate dialog;
   *  Apply Rig From… picks a rig JSON or project and applies its rig by bone names; Clear Preview Inputs
   *  takes every poke, blast, grab and limp switch off the timeline. */
  | 'generate-bodies' | 'mirror-left-to-right' | 'fix-mass-ratios' | 'fix-rest-overlaps' | 'apply-rig-from' | 'go-limp-all' | 'power-on-all' | 'clear-inputs'
  /** View › an overlay of the preview (toggle). */
  | { kind: 'toggle-overlay'; overlay: PreviewOverlay }
  /** View › Rigid Solver / Particle Solver: which solver the preview runs (the toolbar's Rigid | Particle). */
  | { kind: 'set-solver'; solver: 'rigid' | 'articulated' | 'particle' }
  /** File › Export › MJCF / glTF: the rig in another tool's format (shared/export); Rig JSON is 'export-rig'. */
  | { kind: 'export'; format: 'mjcf' | 'gltf' }
  /** Under Electron main adds `handle`: the capability to read (and, for a project, save) that file; the
   *  renderer's bridge keeps it and uses it in place of the path (shared/ipc.ts). */
  | { kind: 'open-recent'; entry: RecentEntry & { handle?: string } }
  /** An example from assets/examples/. `path` is where it is (absolute under Electron, a URL in the web
   *  build): a `.marionette` file opens with readProject, a creature (.glb/.gltf/.fbx) with readCreature,
   *  a `.json` particle scene ("marionette-particles") under the particle solver. */
  | { kind: 'open-example'; name: string; path?: string; handle?: string };

export interface PlatformApi {
  readonly kind: 'electron' | 'web';
  /** Ask the user for a creature file (.glb, .gltf + its resources, .fbx). null when cancelled.
   *  `missingPath`: a project's creature is no longer there; the dialog says which file it is looking for
   *  and starts in the folder where it was. */
  pickCreature(options?: { missingPath?: string }): Promise<PickedFile | null>;
  /** Read a creature from a known path (recent files, a project's creature reference). Rejects with a
   *  message naming the path when it is gone; the caller then asks the user where it is. Under Electron
   *  only a path main granted (it came back from a dialog, the recent list, an example, a drop or as the
   *  creature of an opened project) can be read: the bridge swaps it for main's handle. */
  readCreature(path: string): Promise<PickedFile>;
  /** Ask for a project file and read it. purpose 'apply-rig' (Rig › Apply Rig From…): a rig JSON or project
   *  read for its rig only — the dialog says so, and it is not kept as a recent project. */
  pickProject(options?: { purpose?: 'apply-rig' }): Promise<{ name: string; path: string | null; text: string } | null>;
  readProject(path: string): Promise<{ name: string; path: string | null; text: string }>;
  /** Save atomically (temp file + rename). path null → ask (Save As). Returns where it went, null if cancelled.
   *  Under Electron a path main did not grant for saving (an opened .json, an example) also asks. */
  saveProject(text: string, path: string | null, suggestedName: string): Promise<{ path: string; name: string } | null>;
  /** Write an exported rig (a save dialog under Electron, a download in the browser): rig JSON or MJCF text,
   *  or glTF (GLB) bytes. `format` defaults to 'rig'; it picks the dialog's filter and the file extension. */
  exportRig(data: string | Uint8Array, suggestedName: string, format?: ExportFileFormat): Promise<{ path: string; name: string } | null>;
  recentFiles(): Promise<RecentEntry[]>;
  addRecent(entry: Omit<RecentEntry, 'openedAt'>): Promise<void>;
  /** Periodic autosave of the unsaved document; offered back at the next start after a crash. */
  writeAutosave(text: string): Promise<void>;
  readAutosave(): Promise<{ text: string; savedAt: number } | null>;
  clearAutosave(): Promise<void>;
  /** Tell the platform the document title and whether it has unsaved changes (close prompt, title bar). */
  setDocumentState(title: string, dirty: boolean): void;
  /** Subscribe to menu commands; returns the unsubscribe function. */
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
}
