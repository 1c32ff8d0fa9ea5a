/**
 * The app's Editor (shared/editor — the headless editor: document, selection, hover, history and every
 * command) with the renderer's platform injected, and the zustand store kept as a thin view over it: every
 * change event is mirrored into useEditor (document, history, file, creature, selection, hover) and every
 * notice becomes a toast. Components read the store and call the editor's commands — here as the functions
 * they have always imported (edit, select, openCreatureFile, save …), each a one-line call into `editor`.
 * What is view-only stays here: toasts, the status line, modal prompts, panel sizes and view toggles.
 */
import { Editor, errorText, isCancelled, type EditorPlatform, type PreviewInputs, type Result } from '../../../shared/editor';
import type { EditorDocument } from '../../../shared/document';
import type { EditResult } from '../../../shared/authoring';
import type { RigDocument } from '../../../shared/rig';
import type { ExportFileFormat, PickedFile } from '../../../shared/platform';
import { creatureFromFiles, platform } from '../platform/bridge';
import { loadCreature } from '../creature/loadCreature';
import { DEFAULT_CREATURE, builtinCreatures, builtinRig, fetchBuiltin } from '../creature/builtins';
import type { LoadedCreature } from '../creature/types';
import { authoringSkeleton } from '../authoring/creatureInput';
import { setAuthoring, useAuthoring } from '../authoring/authoringStore';
import { initialSession, panelSizes, setSession, useEditor, type CameraPose, type Selection } from './store';
import { creatureNotices } from './creatureNotices';
import { runTune } from '../authoring/tuneRunner';

let toastId = 0;
let promptId = 0;

// ---------------------------------------------------------------- notices and prompts (view state)

/** A toast (and the status line). `ms`: how long it stays — errors 9 s, info 3.5 s unless given. */
export function notify(kind: 'error' | 'info', text: string, ms = kind === 'error' ? 9000 : 3500): void {
  const id = ++toastId;
  useEditor.setState((s) => ({ toasts: [...s.toasts, { id, kind, text }].slice(-4), status: text }));
  setTimeout(() => dismissToast(id), ms);
}

export const dismissToast = (id: number): void => useEditor.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
export const setStatus = (status: string): void => useEditor.setState({ status });

/** A modal question; resolves with the chosen label (the last action is the cancel). */
export function ask(title: string, text: string, labels: string[]): Promise<string> {
  return new Promise((resolve) => {
    const id = ++promptId;
    const close = (label: string) => () => {
      useEditor.setState((s) => (s.prompt?.id === id ? { prompt: null } : {}));
      resolve(label);
    };
    useEditor.setState({ prompt: { id, title, text, actions: labels.map((label, i) => ({ label, primary: i === 0, run: close(label) })) } });
  });
}

// ---------------------------------------------------------------- the platform the editor runs on

function disposeCreature(c: LoadedCreature): void {
  c.display.root.traverse((o) => {
    const m = o as { geometry?: { dispose(): void }; material?: { dispose(): void } | { dispose(): void }[] };
    m.geometry?.dispose();
    if (Array.isArray(m.material)) m.material.forEach((x) => x.dispose()); else m.material?.dispose();
  });
}

/** What the app shell connects once the viewport and the preview exist (main.tsx / App.tsx). */
const view: { cameraPose: (() => CameraPose | null) | null; preview: PreviewInputs | null } = { cameraPose: null, preview: null };
export function connectView(parts: { cameraPose?: () => CameraPose | null; preview?: PreviewInputs }): void {
  if (parts.cameraPose) view.cameraPose = parts.cameraPose;
  if (parts.preview) view.preview = parts.preview;
}

const rendererPlatform: EditorPlatform<LoadedCreature> = {
  files: platform,
  ask,
  creatures: {
    load: loadCreature,
    bones: (c) => c.bones,
    boneNames: (c) => c.skeleton.bones.map((b) => b.name),
    authoringSkeleton: (c, scale) => authoringSkeleton(c, scale),
    notices: creatureNotices,
    dispose: disposeCreature,
  },
  builtins: {
    defaultName: DEFAULT_CREATURE,
    has: (name) => builtinCreatures.some((c) => c.name === name),
    fetch: fetchBuiltin,
    rig: builtinRig,
  },
  get preview() { return view.preview; },
  // Tune… simulates each joint's step response: in a Web Worker (authoring/tuneRunner.ts).
  tuneRig: runTune,
  viewSession: () => {
    const camera = view.cameraPose?.() ?? null;
    return { showSkeleton: useEditor.getState().session.showSkeleton, ...(camera ? { camera } : {}) };
  },
};

/** The one editor of this window. */
export const editor = new Editor<LoadedCreature>(rendererPlatform);

// The store mirrors the editor: one setState per change, so views never see half an update.
editor.subscribe((event) => {
  if (event.type === 'notice') { notify(event.kind, event.text, event.ms); return; }
  if (event.type === 'status') { setStatus(event.text); return; }
  const st = event.state;
  useEditor.setState((s) => {
    let session = s.session;
    if (event.opened) {
      const saved = event.opened.session;
      session = st.creature
        ? { ...initialSession(), ...panelSizes(s.session), showSkeleton: saved?.showSkeleton ?? true, frameRequest: s.session.frameRequest + 1, cameraRequest: saved?.camera ?? null }
        : { ...initialSession(), ...panelSizes(s.session) };
    }
    return {
      document: st.document,
      history: { canUndo: st.history.canUndo, canRedo: st.history.canRedo, undoLabel: st.history.undoLabel, redoLabel: st.history.redoLabel },
      file: st.file,
      creature: st.creature,
      loading: st.loading,
      session: { ...session, selection: st.selection, hover: st.hover },
    };
  });
  if (st.motorClipboard !== useAuthoring.getState().motorClipboard) setAuthoring({ motorClipboard: st.motorClipboard });
});

/** A command's refusal as a toast (a cancelled dialog says nothing); whether the command went through. */
export const told = (r: Result<unknown>): boolean => {
  if (!r.ok && !isCancelled(r)) notify('error', errorText(r.error));
  return r.ok;
};

// ---------------------------------------------------------------- document edits

/** A document edit as one undo step; a refusal (returned or thrown) is told as a toast. */
export const edit = (label: string, update: (doc: EditorDocument) => EditorDocument | Result<unknown>): boolean => told(editor.edit(label, update));
/** A rig edit (shared/authoring's RigDocument → EditResult) as one undo step; a refusal is told as a toast. */
export const editRig = (label: string, f: (rig: RigDocument) => EditResult): boolean => told(editor.editRig(label, f));

/** Start a gesture (a drag, a slider): everything until endGesture is one undo step. */
export const beginGesture = (): string => editor.beginGesture();
export const endGesture = (mark: string, label?: string): void => editor.endGesture(mark, label);
export const cancelGesture = (mark: string): void => editor.cancelGesture(mark);
export const undo = (): void => { editor.undo(); };
export const redo = (): void => { editor.redo(); };

// ---------------------------------------------------------------- session

export const select = (selection: Selection): void => { editor.select(selection); };
/** Hover moves on pointer motion: the store changes only when the target does. */
export const hover = (h: Selection): void => editor.hover(h);
export const frameSelection = (): void => setSession({ frameRequest: useEditor.getState().session.frameRequest + 1 });
export const toggleSkeleton = (): void => setSession({ showSkeleton: !useEditor.getState().session.showSkeleton });
export const toggleMesh = (): void => setSession({ showMesh: !useEditor.getState().session.showMesh });

// ---------------------------------------------------------------- files

export const openCreatureFile = async (picked: PickedFile, builtin?: string): Promise<boolean> => (await editor.files.openCreatureFile(picked, builtin)).ok;
export const openBuiltinCreature = async (name: string, path?: string): Promise<boolean> => (await editor.files.openBuiltinCreature(name, path)).ok;
export const pickAndOpenCreature = async (): Promise<void> => { await editor.files.pickAndOpenCreature(); };

/** Files dropped on the viewport: one creature plus its resources (null from the bridge: the user declined). */
export async function openDroppedFiles(files: readonly File[]): Promise<void> {
  let picked: PickedFile | null;
  try {
    picked = await creatureFromFiles(files);
  } catch (e) {
    notify('error', `Could not open ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if (picked) await editor.files.openCreatureFile(picked);
}

export const newProject = async (): Promise<void> => { await editor.files.newProject(); };
/** Close the document (asking about unsaved changes first). false when the user cancelled. */
export const closeDocument = (): Promise<boolean> => editor.files.closeDocument();
export const openProjectText = async (text: string, name: string, path: string | null, opts: { fromAutosave?: boolean } = {}): Promise<boolean> =>
  (await editor.files.openProjectText(text, name, path, opts)).ok;
export const pickAndOpenProject = async (): Promise<void> => { await editor.files.pickAndOpenProject(); };
export const openRecent = async (entry: { kind: 'project' | 'creature'; path: string; name: string }): Promise<void> => { await editor.files.openRecent(entry); };

/** The project file's text for the current document (throws with nothing open: for the test hook). */
export function projectText(projectPath: string | null = useEditor.getState().file.path): string {
  const r = editor.files.projectText(projectPath);
  if (!r.ok) throw new Error(errorText(r.error));
  return r.value;
}

export const save = async (as: boolean): Promise<boolean> => (await editor.files.save(as)).ok;
export const exportRig = async (format: ExportFileFormat = 'rig'): Promise<void> => { await editor.files.exportRig(format); };

// ---------------------------------------------------------------- autosave and startup

export const AUTOSAVE_INTERVAL_MS = 30_000;

export function startAutosave(): () => void {
  const timer = setInterval(() => { void editor.files.autosave(); }, AUTOSAVE_INTERVAL_MS);
  return () => clearInterval(timer);
}

export const startup = async (): Promise<void> => { await editor.files.startup(); };

/** Read-only access for the test hook and diagnostics. */
export const historyInfo = () => ({ depth: editor.getState().history.depth, dirty: editor.dirty, document: editor.document });
