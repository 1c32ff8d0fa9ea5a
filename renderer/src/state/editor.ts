/**
 * The editor's actions: everything a menu item, shortcut or panel does goes through here. Components
 * read the store and call these; they never touch the history or the platform themselves.
 */
import {
  DocumentHistory, baseName, documentForCreature, emptyDocument, parseProject, serializeProject,
  relinkCreature, syncBonesWithSkeleton, PROJECT_EXTENSION, type CreatureRef, type EditorDocument,
} from '../../../shared/document';
import type { PickedFile } from '../../../shared/platform';
import { platform } from '../platformAccess';
import { loadCreature } from '../creature/loadCreature';
import { DEFAULT_CREATURE, builtinCreatures, fetchBuiltin } from '../creature/builtins';
import type { LoadedCreature } from '../creature/types';
import { initialSession, setSession, useEditor, type Selection } from './store';

const history = new DocumentHistory<EditorDocument>(emptyDocument());
let toastId = 0;
let promptId = 0;

/** Copy the history's state into the store and tell the platform (title bar, close prompt). */
function sync(): void {
  const { file } = useEditor.getState();
  useEditor.setState({
    document: history.document,
    history: { canUndo: history.canUndo, canRedo: history.canRedo, undoLabel: history.undoLabel, redoLabel: history.redoLabel },
    file: { ...file, dirty: history.dirty },
  });
  const title = `${history.document.name}${history.dirty ? ' •' : ''} — Marionette`;
  platform.setDocumentState(title, history.dirty);
}

// ---------------------------------------------------------------- notices

export function notify(kind: 'error' | 'info', text: string): void {
  const id = ++toastId;
  useEditor.setState((s) => ({ toasts: [...s.toasts, { id, kind, text }].slice(-4), status: text }));
  setTimeout(() => dismissToast(id), kind === 'error' ? 9000 : 3500);
}

export const dismissToast = (id: number): void => useEditor.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
export const setStatus = (status: string): void => useEditor.setState({ status });
const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

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

async function confirmDiscard(): Promise<boolean> {
  if (!history.dirty) return true;
  const choice = await ask('Unsaved changes', `"${history.document.name}" has unsaved changes. Save them first?`, ['Save', "Don't save", 'Cancel']);
  if (choice === 'Save') return save(false);
  return choice === "Don't save";
}

// ---------------------------------------------------------------- document edits

/** Run a document edit as one undo step. Returns false (with a message) when the edit was refused. */
export function edit(label: string, update: (doc: EditorDocument) => EditorDocument): boolean {
  try {
    const changed = history.apply(label, update);
    if (changed) sync();
    return changed;
  } catch (e) {
    notify('error', errorText(e));
    return false;
  }
}

/** Start a gesture (a drag, a slider): everything until endGesture is one undo step. */
export const beginGesture = (): string => history.mark();
export function endGesture(mark: string, label?: string): void { history.squashToMark(mark, label); sync(); }
export function cancelGesture(mark: string): void { history.bailToMark(mark); sync(); }

export function undo(): void {
  const label = history.undoLabel;
  if (history.undo()) { sync(); setStatus(`Undo ${label}`); }
}
export function redo(): void {
  const label = history.redoLabel;
  if (history.redo()) { sync(); setStatus(`Redo ${label}`); }
}

// ---------------------------------------------------------------- session

export const select = (selection: Selection): void => setSession({ selection });
export const hover = (h: Selection): void => {
  const cur = useEditor.getState().session.hover;
  if (cur?.name !== h?.name) setSession({ hover: h });
};
export const frameSelection = (): void => setSession({ frameRequest: useEditor.getState().session.frameRequest + 1 });
export const toggleSkeleton = (): void => setSession({ showSkeleton: !useEditor.getState().session.showSkeleton });
export const toggleMesh = (): void => setSession({ showMesh: !useEditor.getState().session.showMesh });

// ---------------------------------------------------------------- creatures

function disposeCreature(c: LoadedCreature | null): void {
  c?.display.root.traverse((o) => {
    const m = o as { geometry?: { dispose(): void }; material?: { dispose(): void } | { dispose(): void }[] };
    m.geometry?.dispose();
    if (Array.isArray(m.material)) m.material.forEach((x) => x.dispose()); else m.material?.dispose();
  });
}

/** Parse a creature; on failure say why (toast + status) and keep what the editor had. */
async function tryLoad(fileName: string, bytes: Uint8Array, resources: Record<string, Uint8Array>): Promise<LoadedCreature | null> {
  useEditor.setState({ loading: fileName, status: `Loading ${fileName}…` });
  try {
    return await loadCreature(fileName, bytes, resources);
  } catch (e) {
    notify('error', `Could not open ${errorText(e).startsWith(fileName) ? errorText(e) : `${fileName}: ${errorText(e)}`}`);
    return null;
  } finally {
    useEditor.setState({ loading: null });
  }
}

function showCreature(creature: LoadedCreature, doc: EditorDocument, file: { path: string | null; fileName: string | null }, dirty = false): void {
  const old = useEditor.getState().creature;
  history.reset(syncBonesWithSkeleton(doc, creature.skeleton.bones.map((b) => b.name)), dirty);
  useEditor.setState({ creature, file: { ...file, dirty }, session: { ...initialSession(), leftWidth: useEditor.getState().session.leftWidth, rightWidth: useEditor.getState().session.rightWidth, frameRequest: useEditor.getState().session.frameRequest + 1 } });
  if (old !== creature) disposeCreature(old);
  sync();
}

/** A new project on a creature file (File > Open Creature…, drag and drop). */
export async function openCreatureFile(picked: PickedFile, builtin: string | null = null): Promise<boolean> {
  if (!(await confirmDiscard())) return false;
  const creature = await tryLoad(picked.name, picked.bytes, picked.resources);
  if (!creature) return false;
  const ref: CreatureRef = { fileName: picked.name, path: picked.path, builtin };
  showCreature(creature, documentForCreature(baseName(picked.name), ref, creature.skeleton.bones.map((b) => b.name)), { path: null, fileName: null });
  notify('info', `Opened ${picked.name}: ${creature.skeleton.bones.length} bones`);
  if (picked.path) void platform.addRecent({ kind: 'creature', path: picked.path, name: picked.name });
  return true;
}

export async function openBuiltinCreature(name: string): Promise<boolean> {
  try {
    const { fileName, bytes } = await fetchBuiltin(name);
    return await openCreatureFile({ name: fileName, path: null, bytes, resources: {} }, name);
  } catch (e) {
    notify('error', errorText(e));
    return false;
  }
}

export async function pickAndOpenCreature(): Promise<void> {
  try {
    const picked = await platform.pickCreature();
    if (picked) await openCreatureFile(picked);
  } catch (e) {
    notify('error', errorText(e));
  }
}

export async function newProject(): Promise<void> {
  if (builtinCreatures.some((c) => c.name === DEFAULT_CREATURE)) await openBuiltinCreature(DEFAULT_CREATURE);
  else if (await confirmDiscard()) {
    history.reset(emptyDocument());
    disposeCreature(useEditor.getState().creature);
    useEditor.setState({ creature: null, file: { path: null, fileName: null, dirty: false }, session: initialSession() });
    sync();
  }
}

// ---------------------------------------------------------------- projects

/** The creature a project refers to: built in, at its path, or — when it moved — wherever the user says. */
async function findCreature(doc: EditorDocument, projectName: string): Promise<{ picked: PickedFile; relinked: boolean } | null> {
  const ref = doc.creature;
  if (!ref) return null;
  if (ref.builtin && builtinCreatures.some((c) => c.name === ref.builtin)) {
    const { fileName, bytes } = await fetchBuiltin(ref.builtin);
    return { picked: { name: fileName, path: null, bytes, resources: {} }, relinked: false };
  }
  if (ref.path) {
    try {
      return { picked: await platform.readCreature(ref.path), relinked: false };
    } catch { /* moved or deleted: ask below */ }
  }
  const where = ref.path ?? ref.fileName;
  const choice = await ask('Creature file not found', `${projectName} uses the creature "${where}", which cannot be found. Where is it now?`, ['Locate…', 'Cancel']);
  if (choice !== 'Locate…') return null;
  const picked = await platform.pickCreature();
  return picked ? { picked, relinked: true } : null;
}

export async function openProjectText(text: string, name: string, path: string | null, opts: { fromAutosave?: boolean } = {}): Promise<boolean> {
  let doc: EditorDocument;
  try {
    doc = parseProject(text, name);
  } catch (e) {
    notify('error', `Could not open ${errorText(e)}`);
    return false;
  }
  try {
    const found = await findCreature(doc, name);
    if (!found) { if (doc.creature) notify('error', `${name}: not opened (its creature file was not found)`); return false; }
    const creature = await tryLoad(found.picked.name, found.picked.bytes, found.picked.resources);
    if (!creature) return false;
    if (found.relinked) doc = relinkCreature(doc, { fileName: found.picked.name, path: found.picked.path, builtin: null });
    const file = opts.fromAutosave ? { path: null, fileName: null } : { path, fileName: name };
    showCreature(creature, doc, file, found.relinked || !!opts.fromAutosave);
    notify('info', opts.fromAutosave ? `Restored the autosaved "${doc.name}"` : `Opened project ${name}`);
    if (path && !opts.fromAutosave) void platform.addRecent({ kind: 'project', path, name });
    return true;
  } catch (e) {
    notify('error', `Could not open ${name}: ${errorText(e)}`);
    return false;
  }
}

export async function pickAndOpenProject(): Promise<void> {
  if (!(await confirmDiscard())) return;
  try {
    const p = await platform.pickProject();
    if (p) await openProjectText(p.text, p.name, p.path);
  } catch (e) {
    notify('error', errorText(e));
  }
}

export async function openRecent(entry: { kind: 'project' | 'creature'; path: string; name: string }): Promise<void> {
  try {
    if (entry.kind === 'project') {
      if (!(await confirmDiscard())) return;
      const p = await platform.readProject(entry.path);
      await openProjectText(p.text, p.name, p.path);
    } else {
      await openCreatureFile(await platform.readCreature(entry.path));
    }
  } catch (e) {
    notify('error', errorText(e));
  }
}

export const projectText = (): string => serializeProject(history.document);

/** Save (or Save As when `as` or never saved). Returns whether the document is now on disk. */
export async function save(as: boolean): Promise<boolean> {
  const { file } = useEditor.getState();
  const suggested = file.fileName ?? `${history.document.name}${PROJECT_EXTENSION}`;
  try {
    const result = await platform.saveProject(projectText(), as ? null : file.path, suggested);
    if (!result) return false;
    history.markSaved();
    useEditor.setState({ file: { path: result.path, fileName: result.name, dirty: false } });
    sync();
    notify('info', `Saved ${result.name}`);
    void platform.clearAutosave();
    void platform.addRecent({ kind: 'project', path: result.path, name: result.name });
    return true;
  } catch (e) {
    notify('error', `Could not save: ${errorText(e)}`);
    return false;
  }
}

/** The rig as a game runtime reads it (grows with the rig format: bodies, joints, motors). */
export async function exportRig(): Promise<void> {
  const doc = history.document;
  const creature = useEditor.getState().creature;
  const rig = {
    format: 'marionette-rig',
    version: 1,
    name: doc.name,
    creature: doc.creature?.fileName ?? null,
    skeleton: creature?.skeleton.bones.map((b) => ({ name: b.name, parent: b.parent >= 0 ? creature.skeleton.bones[b.parent]!.name : null, translation: b.translation, rotation: b.rotation })) ?? [],
    bones: doc.rig.bones,
    bodies: doc.rig.bodies,
    joints: doc.rig.joints,
  };
  try {
    const r = await platform.exportRig(JSON.stringify(rig, null, 2) + '\n', `${doc.name}.rig.json`);
    if (r) notify('info', `Exported ${r.name}`);
  } catch (e) {
    notify('error', `Could not export: ${errorText(e)}`);
  }
}

// ---------------------------------------------------------------- autosave and startup

export const AUTOSAVE_INTERVAL_MS = 30_000;

export function startAutosave(): () => void {
  const timer = setInterval(() => {
    if (history.dirty) void platform.writeAutosave(projectText()).catch((e: unknown) => setStatus(`Autosave failed: ${errorText(e)}`));
  }, AUTOSAVE_INTERVAL_MS);
  return () => clearInterval(timer);
}

export async function startup(): Promise<void> {
  try {
    const auto = await platform.readAutosave();
    if (auto) {
      const when = new Date(auto.savedAt).toLocaleString();
      const choice = await ask('Restore unsaved work?', `Marionette closed with unsaved changes (autosaved ${when}). Restore them?`, ['Restore', 'Discard']);
      if (choice === 'Restore' && (await openProjectText(auto.text, 'autosave', null, { fromAutosave: true }))) return;
      await platform.clearAutosave();
    }
  } catch (e) {
    notify('error', `Could not read the autosave: ${errorText(e)}`);
  }
  await newProject();
}

/** Read-only access for the test hook and diagnostics. */
export const historyInfo = () => ({ depth: history.undoDepth, dirty: history.dirty, document: history.document });
