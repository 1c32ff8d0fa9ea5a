/**
 * The editor's actions: everything a menu item, shortcut or panel does goes through here. Components
 * read the store and call these; they never touch the history or the platform themselves.
 */
import {
  DocumentHistory, documentForCreature, relinkCreature, syncSkeleton, type EditorDocument,
} from '../../../shared/document';
import { creaturePathForProject, parseProject, projectFileName, resolveCreaturePath, serializeProject, type ProjectCreature, type ProjectSession } from '../../../shared/project';
import type { ExportFileFormat, PickedFile } from '../../../shared/platform';
import { stripComputed, writeRigJson } from '../../../shared/export/rig';
import { creatureFromFiles, platform } from '../platform/bridge';
import { formatProblem, validateRig, type RigDocument } from '../../../shared/rig';
import { getViewportHandle } from '../viewport/viewportHandle';
import { loadCreature } from '../creature/loadCreature';
import { DEFAULT_CREATURE, builtinCreatures, builtinRig, fetchBuiltin } from '../creature/builtins';
import type { LoadedCreature } from '../creature/types';
import { initialSession, panelSizes, setSession, useEditor, type Selection } from './store';
import { sameTarget, selectedBoneName } from './selection';
import { creatureNotices } from './creatureNotices';

const history = new DocumentHistory<EditorDocument | null>(null);
let toastId = 0;
let promptId = 0;

const docName = (): string => history.document?.rig.name ?? 'Untitled';

/** Copy the history's state into the store and tell the platform (title bar, close prompt). */
function sync(): void {
  const { file } = useEditor.getState();
  useEditor.setState({
    document: history.document,
    history: { canUndo: history.canUndo, canRedo: history.canRedo, undoLabel: history.undoLabel, redoLabel: history.redoLabel },
    file: { ...file, dirty: history.dirty },
  });
  platform.setDocumentState(file.fileName ?? docName(), history.dirty);
}

// ---------------------------------------------------------------- notices

/** A toast (and the status line). `ms`: how long it stays — errors 9 s, info 3.5 s unless given. */
export function notify(kind: 'error' | 'info', text: string, ms = kind === 'error' ? 9000 : 3500): void {
  const id = ++toastId;
  useEditor.setState((s) => ({ toasts: [...s.toasts, { id, kind, text }].slice(-4), status: text }));
  setTimeout(() => dismissToast(id), ms);
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
  const choice = await ask('Unsaved changes', `"${docName()}" has unsaved changes. Save them first?`, ['Save', "Don't save", 'Cancel']);
  if (choice === 'Save') return save(false);
  return choice === "Don't save";
}

// ---------------------------------------------------------------- document edits

/** Run a document edit as one undo step. Returns false (with a message) when the edit was refused. */
export function edit(label: string, update: (doc: EditorDocument) => EditorDocument): boolean {
  try {
    const changed = history.apply(label, (doc) => (doc ? update(doc) : doc));
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
/** Hover moves on pointer motion: the store changes (and subscribers re-render) only when the target does —
 *  a different kind counts, so the bone "forearm" and the body "forearm" are never both lit. */
export const hover = (h: Selection): void => {
  if (!sameTarget(useEditor.getState().session.hover, h)) setSession({ hover: h });
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
    const creature = await loadCreature(fileName, bytes, resources);
    creatureSources.set(creature, { name: fileName, bytes, resources });
    return creature;
  } catch (e) {
    notify('error', `Could not open ${errorText(e).startsWith(fileName) ? errorText(e) : `${fileName}: ${errorText(e)}`}`);
    return null;
  } finally {
    useEditor.setState({ loading: null });
  }
}

function showCreature(creature: LoadedCreature, doc: EditorDocument, file: { path: string | null; fileName: string | null }, dirty = false, session?: ProjectSession): void {
  const state = useEditor.getState();
  const old = state.creature;
  history.reset(syncSkeleton(doc, creature.bones), dirty);
  const selectedBone = session?.selectedBone && creature.skeleton.bones.some((b) => b.name === session.selectedBone) ? session.selectedBone : null;
  useEditor.setState({
    creature,
    file: { ...file, dirty },
    session: {
      ...initialSession(),
      ...panelSizes(state.session),
      showSkeleton: session?.showSkeleton ?? true,
      selection: selectedBone ? { kind: 'bone', name: selectedBone } : null,
      frameRequest: state.session.frameRequest + 1,
      cameraRequest: session?.camera ?? null,
    },
  });
  if (old !== creature) disposeCreature(old);
  sync();
  // Clip problems and what the loader tolerated (an FBX texture not provided…): the info stays as long as
  // an error, as there is something to act on (pick the texture with the file).
  if (old !== creature) for (const n of creatureNotices(creature)) notify(n.kind, n.text, 9000);
}

/** A new project on a creature file (File > Open Creature…, drag and drop, examples). */
export async function openCreatureFile(picked: PickedFile, builtin?: string): Promise<boolean> {
  if (!(await confirmDiscard())) return false;
  const creature = await tryLoad(picked.name, picked.bytes, picked.resources);
  if (!creature) return false;
  const ref: ProjectCreature = builtin ? { name: picked.name, path: null, builtin } : { name: picked.name, path: picked.path ?? picked.name };
  let doc = documentForCreature(ref, creature.bones);
  // A built-in creature opens with the rig shipped next to it (bodies, joints, motors, gait), when valid.
  const shipped = builtin ? validateRig(await builtinRig(builtin).catch(() => null)) : null;
  if (shipped?.ok) doc = { ...doc, rig: shipped.rig };
  // A glTF carrying the (draft) KHR physics extensions opens with its rig: bodies, joints, motors.
  const imported = builtin ? null : /\.xml$/i.test(picked.name) ? await mjcfRigOf(picked) : await physicsRigOf(picked);
  if (imported) doc = { ...doc, rig: imported };
  showCreature(creature, doc, { path: null, fileName: null });
  const from = /\.xml$/i.test(picked.name) ? 'the MJCF (no mesh: the shapes are drawn)' : 'KHR_physics_rigid_bodies (draft)';
  notify('info', `Opened ${picked.name}: ${creature.skeleton.bones.length} bones${imported ? `; rig imported from ${from}: ${imported.bodies.length} bodies, ${imported.joints.length} joints` : ''}`);
  return true;
}

/** The rig of a MuJoCo .xml (its creature is that rig's skeleton, loaded by loadCreature). */
async function mjcfRigOf(picked: PickedFile): Promise<RigDocument | null> {
  try {
    const { readMjcf } = await import('../../../shared/export/mjcfImport');
    return readMjcf(new TextDecoder().decode(picked.bytes), picked.name);
  } catch (e) {
    notify('error', `Could not import ${picked.name}: ${errorText(e)}`, 9000);
    return null;
  }
}

/** The rig a .glb / .gltf describes with KHR_physics_rigid_bodies, or null (none there, or not importable: said). */
async function physicsRigOf(picked: PickedFile): Promise<RigDocument | null> {
  if (!/\.(glb|gltf)$/i.test(picked.name) || !containsAscii(picked.bytes, 'KHR_physics_rigid_bodies')) return null;
  try {
    const { importGltfBytes } = await import('../../../shared/export');
    return (await importGltfBytes(picked.bytes as Uint8Array<ArrayBuffer>, picked.name, picked.resources as Record<string, Uint8Array<ArrayBuffer>>)).rig;
  } catch (e) {
    notify('error', `Could not import the physics of ${picked.name}: ${errorText(e)}`, 9000);
    return null;
  }
}

function containsAscii(bytes: Uint8Array, text: string): boolean {
  const first = text.charCodeAt(0);
  outer: for (let i = bytes.indexOf(first); i >= 0 && i <= bytes.length - text.length; i = bytes.indexOf(first, i + 1)) {
    for (let k = 1; k < text.length; k++) if (bytes[i + k] !== text.charCodeAt(k)) continue outer;
    return true;
  }
  return false;
}

export async function openBuiltinCreature(name: string, path?: string): Promise<boolean> {
  try {
    if (builtinCreatures.some((c) => c.name === name)) {
      const { fileName, bytes } = await fetchBuiltin(name);
      return await openCreatureFile({ name: fileName, path: null, bytes, resources: {} }, name);
    }
    if (path) return await openCreatureFile(await platform.readCreature(path));
    throw new Error(`Example "${name}" is not part of this build`);
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

/** Files dropped on the viewport: one creature plus its resources. */
export async function openDroppedFiles(files: readonly File[]): Promise<void> {
  try {
    await openCreatureFile(await creatureFromFiles(files));
  } catch (e) {
    notify('error', `Could not open ${errorText(e)}`);
  }
}

export async function newProject(): Promise<void> {
  if (builtinCreatures.some((c) => c.name === DEFAULT_CREATURE)) await openBuiltinCreature(DEFAULT_CREATURE);
  else await closeDocument();
}

/** Close the document (asking about unsaved changes first): an empty editor, e.g. under a particle
 *  scene example. false when the user cancelled. */
export async function closeDocument(): Promise<boolean> {
  if (!(await confirmDiscard())) return false;
  history.reset(null);
  disposeCreature(useEditor.getState().creature);
  useEditor.setState((s) => ({ creature: null, file: { path: null, fileName: null, dirty: false }, session: { ...initialSession(), ...panelSizes(s.session) } }));
  sync();
  return true;
}

// ---------------------------------------------------------------- projects

/** The creature a project refers to: built in, at its path, or — when it moved — wherever the user says. */
async function findCreature(ref: ProjectCreature, projectName: string, projectPath: string | null): Promise<{ picked: PickedFile; relinked: boolean } | null> {
  if (ref.builtin && builtinCreatures.some((c) => c.name === ref.builtin)) {
    const { fileName, bytes } = await fetchBuiltin(ref.builtin);
    return { picked: { name: fileName, path: null, bytes, resources: {} }, relinked: false };
  }
  let where = ref.name;
  if (ref.path) {
    where = resolveCreaturePath(projectPath, ref.path);
    try {
      return { picked: await platform.readCreature(where), relinked: false };
    } catch { /* moved, deleted or (browser) not stored here: ask below */ }
  }
  const choice = await ask('Creature file not found', `${projectName} uses the creature "${where}", which cannot be found. Where is it now?`, ['Locate…', 'Cancel']);
  if (choice !== 'Locate…') return null;
  const picked = await platform.pickCreature({ missingPath: where });
  return picked ? { picked, relinked: true } : null;
}

export async function openProjectText(text: string, name: string, path: string | null, opts: { fromAutosave?: boolean } = {}): Promise<boolean> {
  try {
    const project = parseProject(text, name);
    const rig = project.rig as EditorDocument['rig'];
    if (!Array.isArray(rig.skeleton?.bones)) throw new Error(`${name}: rig.skeleton.bones: missing (not a rig document)`);
    const found = await findCreature(project.creature, name, path);
    if (!found) { notify('error', `${name}: not opened (its creature file was not found)`); return false; }
    const creature = await tryLoad(found.picked.name, found.picked.bytes, found.picked.resources);
    if (!creature) return false;
    const storedPath = project.creature.path ? resolveCreaturePath(path, project.creature.path) : null;
    let doc: EditorDocument = { creature: { ...project.creature, path: storedPath }, rig };
    if (found.relinked) doc = relinkCreature(doc, { name: found.picked.name, path: found.picked.path ?? found.picked.name });
    const file = opts.fromAutosave ? { path: null, fileName: null } : { path, fileName: name };
    showCreature(creature, doc, file, found.relinked || !!opts.fromAutosave, project.session);
    notify('info', opts.fromAutosave ? `Restored the autosaved "${doc.rig.name}"` : `Opened project ${name}`);
    return true;
  } catch (e) {
    notify('error', `Could not open ${errorText(e)}`);
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

/** The project file's text for the current document, with creature paths relative to `projectPath`. */
export function projectText(projectPath: string | null = useEditor.getState().file.path): string {
  const doc = history.document;
  if (!doc) throw new Error('Nothing to save: no creature is open.');
  const { session } = useEditor.getState();
  const camera = getViewportHandle()?.cameraPose();
  const creature = doc.creature.path ? { ...doc.creature, path: creaturePathForProject(projectPath, doc.creature.path) } : doc.creature;
  return serializeProject({
    creature,
    rig: doc.rig,
    session: { selectedBone: selectedBoneName(session.selection), showSkeleton: session.showSkeleton, ...(camera ? { camera } : {}) },
  });
}

/** Save (or Save As when `as` or never saved). Returns whether the document is now on disk. */
export async function save(as: boolean): Promise<boolean> {
  const { file } = useEditor.getState();
  const path = as ? null : file.path;
  try {
    const result = await platform.saveProject(projectText(path), path, file.fileName ?? projectFileName(docName()));
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

/**
 * File › Export: the rig as the game runtime reads it (rig JSON with computed blocks), as MJCF for MuJoCo,
 * or as glTF with the draft KHR physics extensions on the creature's own glTF (skin, mesh, animations) —
 * the same shared/export module as `marionette export`.
 */
export async function exportRig(format: ExportFileFormat = 'rig'): Promise<void> {
  const doc = history.document;
  if (!doc) { notify('error', 'Nothing to export: no creature is open.'); return; }
  try {
    const validation = validateRig(stripComputed(doc.rig));
    if (!validation.ok) {
      const first = validation.problems[0];
      throw new Error(`the rig is not complete yet (${first ? formatProblem(first) : 'invalid'})${validation.problems.length > 1 ? ` and ${validation.problems.length - 1} more problem(s)` : ''}`);
    }
    if (format === 'rig') {
      // The rig JSON needs no glTF machinery: no lazy chunk to load.
      const r = await platform.exportRig(writeRigJson(validation.rig), `${doc.rig.name}.rig.json`, 'rig');
      if (r) notify('info', `Exported ${r.name}`);
      return;
    }
    const { exportRig: exportAs, gltfIO, CreatureUnitsError } = await import('../../../shared/export');
    let creature;
    const source = creatureSources.get(useEditor.getState().creature as LoadedCreature);
    let note = '';
    if (format === 'gltf' && source) {
      const lower = source.name.toLowerCase();
      if (lower.endsWith('.glb')) creature = await gltfIO().readBinary(source.bytes as Uint8Array<ArrayBuffer>);
      else if (lower.endsWith('.gltf')) creature = await gltfIO().readJSON({ json: JSON.parse(new TextDecoder().decode(source.bytes)), resources: source.resources as Record<string, Uint8Array<ArrayBuffer>> });
      else note = ` (the ${source.name.split('.').pop()!.toUpperCase()} creature's mesh is not carried: open it as glTF to include it)`;
    }
    let result;
    try { result = await exportAs(validation.rig, format, { creature }); } catch (e) {
      if (!(e instanceof CreatureUnitsError)) throw e;
      result = await exportAs(validation.rig, format);
      note = ` (without the creature's mesh: ${e.message})`;
    }
    const suggested = format === 'mjcf' ? `${doc.rig.name}.xml` : `${doc.rig.name}.glb`;
    const r = await platform.exportRig(result.data, suggested, format);
    const draft = format === 'gltf' ? ' — KHR_physics_rigid_bodies and KHR_implicit_shapes are draft extensions' : '';
    const losses = result.losses ? `; ${result.losses.approximated.length} approximations and ${result.losses.lost.length} losses listed in the file` : '';
    if (r) notify('info', `Exported ${r.name}${draft}${losses}${note}`);
  } catch (e) {
    notify('error', `Could not export ${doc.rig.name}: ${errorText(e)}`);
  }
}

/** The file each loaded creature came from: File › Export › glTF carries its skin, mesh and animations. */
const creatureSources = new WeakMap<LoadedCreature, { name: string; bytes: Uint8Array; resources: Record<string, Uint8Array> }>();

// ---------------------------------------------------------------- autosave and startup

export const AUTOSAVE_INTERVAL_MS = 30_000;

export function startAutosave(): () => void {
  const timer = setInterval(() => {
    // projectText(null): the creature path stays absolute, so a recovered document (which has no project
    // path to resolve a relative one against) finds its creature.
    if (history.dirty) void platform.writeAutosave(projectText(null)).catch((e: unknown) => setStatus(`Autosave failed: ${errorText(e)}`));
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
