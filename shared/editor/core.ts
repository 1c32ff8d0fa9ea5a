/**
 * The editor's core: its state (document, history, file, creature, selection, hover, motor clipboard), the
 * change events, and the primitive commands every other one is built from — a document edit as one undo
 * step, gestures (a drag is one step; Escape bails), undo / redo, select / hover. No DOM, no React, no
 * store: the app's zustand store mirrors `getState()` from the change events (renderer/src/state), tests
 * drive it directly (tests/unit/editor). Per-concern commands live beside it (files.ts, rigCommands.ts,
 * inputs.ts) and Editor.ts puts them together.
 */
import { DocumentHistory } from '../document/history';
import type { EditorDocument } from '../document/editorDocument';
import type { EditResult } from '../authoring/editResult';
import type { RigDocument } from '../rig/schema';
import type { EditorPlatform } from './platform';
import {
  err, errorText, ok, sameTarget, thrownText,
  type EditorError, type EditorEvent, type EditorState, type FileInfo, type MotorClipboard, type NoticeKind, type OpenedInfo, type Result, type Selection,
} from './types';

/** How long a notice stays unless given: errors 9 s, information 3.5 s. */
export const noticeMs = (kind: NoticeKind): number => (kind === 'error' ? 9000 : 3500);

export class EditorCore<C> {
  protected readonly history = new DocumentHistory<EditorDocument | null>(null);
  private readonly listeners = new Set<(event: EditorEvent<C>) => void>();
  private state: EditorState<C>;

  constructor(readonly platform: EditorPlatform<C>) {
    this.state = {
      document: null,
      history: { canUndo: false, canRedo: false, undoLabel: null, redoLabel: null, depth: 0 },
      file: { path: null, fileName: null, dirty: false },
      creature: null,
      loading: null,
      selection: null,
      hover: null,
      motorClipboard: null,
    };
  }

  // ------------------------------------------------------------------ state and events

  getState(): EditorState<C> { return this.state; }
  get document(): EditorDocument | null { return this.history.document; }
  get rig(): RigDocument | null { return this.history.document?.rig ?? null; }
  get creature(): C | null { return this.state.creature; }
  get selection(): Selection { return this.state.selection; }
  /** Unsaved changes: document edits since the last save, or preview inputs (saved with the project)
   *  that differ from the saved ones. */
  get dirty(): boolean { return this.history.dirty || this.#inputsDirty; }
  /** The document's name ("Untitled" with nothing open). */
  get documentName(): string { return this.history.document?.rig.name ?? 'Untitled'; }

  /** Listen to every change and notice; returns the unsubscribe function. */
  subscribe(listener: (event: EditorEvent<C>) => void): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  protected emit(event: EditorEvent<C>): void {
    for (const l of [...this.listeners]) l(event);
  }

  /** The state from the history plus `patch`, one change event, and the platform told (title, close prompt). */
  protected commit(patch: Partial<EditorState<C>> = {}, opened?: OpenedInfo): void {
    const previous = this.state;
    const h = this.history;
    const file: FileInfo = { ...(patch.file ?? previous.file), dirty: this.dirty };
    this.state = {
      ...previous,
      ...patch,
      document: h.document,
      history: { canUndo: h.canUndo, canRedo: h.canRedo, undoLabel: h.undoLabel, redoLabel: h.redoLabel, depth: h.undoDepth },
      file,
    };
    this.emit({ type: 'change', state: this.state, previous, ...(opened ? { opened } : {}) });
    // The title bar and the close prompt follow the document and the file, not the selection or hover.
    if (previous.document !== this.state.document || previous.file.fileName !== file.fileName || previous.file.dirty !== file.dirty || opened) {
      this.platform.files.setDocumentState(file.fileName ?? this.documentName, file.dirty);
    }
  }

  notify(kind: NoticeKind, text: string, ms = noticeMs(kind)): void { this.emit({ type: 'notice', kind, text, ms }); }
  setStatus(text: string): void { this.emit({ type: 'status', text }); }

  /** A refusal told as a notice ("what: field: message") and returned. */
  refuse<T>(what: string, error: EditorError): Result<T> {
    return this.fail(what ? `${what}: ` : '', error);
  }

  /** A refusal told as a notice (`prefix` + "field: message") and returned. */
  fail<T>(prefix: string, error: EditorError): Result<T> {
    this.notify('error', `${prefix}${errorText(error)}`);
    return { ok: false, error };
  }

  // ------------------------------------------------------------------ preview inputs (saved with the project)

  /** The preview inputs as last saved or opened (count and JSON), and whether the timeline differs from them. */
  #savedInputs = { count: 0, json: '[]' };
  #inputsDirty = false;

  #currentInputs(): unknown[] {
    try { return this.platform.preview?.list?.() ?? []; } catch { return []; }
  }

  /** The preview's inputs are what is saved now (a save, or a project opened with them). */
  inputsSaved(inputs: readonly unknown[] = this.#currentInputs()): void {
    this.#savedInputs = { count: inputs.length, json: JSON.stringify(inputs) };
    this.#inputsDirty = false;
  }

  /** The platform says the preview's inputs changed (a poke, a grab, Clear): a project file's document has
   *  unsaved changes while they differ from the ones saved in it (the title's dot, the close prompt, the
   *  autosave). Before the document is a project file, trying things out is not a change to ask about. */
  inputsChanged(): void {
    if (!this.history.document || this.state.file.path === null) return;
    const now = this.#currentInputs();
    const differ = now.length !== this.#savedInputs.count || JSON.stringify(now) !== this.#savedInputs.json;
    if (differ === this.#inputsDirty) return;
    this.#inputsDirty = differ;
    this.commit();
  }

  // ------------------------------------------------------------------ document edits

  /**
   * A document edit as one undo step. `update` returns the next document (the same object for no change)
   * or a refusal; a throw inside it is a refusal too. Nothing is recorded when it is refused or changes
   * nothing. Refusals are returned, not told: the caller shows them where the user asked (a field, a toast).
   */
  edit(label: string, update: (doc: EditorDocument) => EditorDocument | Result<unknown>): Result {
    if (!this.history.document) return err('', 'no creature is open');
    let refused: EditorError | null = null;
    let changed: boolean;
    try {
      changed = this.history.apply(label, (doc) => {
        if (!doc) return doc;
        const next = update(doc);
        if ('ok' in next) { if (!next.ok) refused = next.error; return doc; }
        return next;
      });
    } catch (e) {
      return err('', thrownText(e));
    }
    if (refused) return { ok: false, error: refused };
    if (changed) this.commit();
    return ok();
  }

  /** A rig edit (shared/authoring's RigDocument → EditResult, the pure-edit convention) as one undo step. */
  editRig(label: string, f: (rig: RigDocument) => EditResult): Result {
    return this.edit(label, (doc) => {
      const r = f(doc.rig);
      if (!r.ok) return err(r.field, r.message);
      return r.rig === doc.rig ? doc : { ...doc, rig: r.rig };
    });
  }

  /** Start a gesture (a drag, a slider): every edit until endGesture is one undo step. Returns its mark. */
  beginGesture(): string { return this.history.mark(); }
  /** End a gesture: its edits become one undo step labelled `label`. */
  endGesture(mark: string, label?: string): void { this.history.squashToMark(mark, label); this.commit(); }
  /** Cancel a gesture (Escape): its edits are reverted and forgotten. */
  cancelGesture(mark: string): void { this.history.bailToMark(mark); this.commit(); }

  undo(): Result {
    const label = this.history.undoLabel;
    if (!this.history.undo()) return err('Undo', 'nothing to undo');
    this.commit();
    this.setStatus(`Undo ${label}`);
    return ok();
  }

  redo(): Result {
    const label = this.history.redoLabel;
    if (!this.history.redo()) return err('Redo', 'nothing to redo');
    this.commit();
    this.setStatus(`Redo ${label}`);
    return ok();
  }

  // ------------------------------------------------------------------ session

  /** Select a bone, body, shape or joint (null: nothing). A target the open document lacks is refused. */
  select(selection: Selection): Result {
    if (selection && this.rig && !this.#exists(selection)) return err(selection.kind, `there is no ${selection.kind} named "${selection.name}"${selection.kind === 'shape' ? ` with shape ${selection.index}` : ''}`);
    if (selection !== this.state.selection) this.commit({ selection });
    return ok();
  }

  /** Hover moves on pointer motion: an event only when the target changes (a different kind counts). */
  hover(hover: Selection): void {
    if (!sameTarget(this.state.hover, hover)) this.commit({ hover });
  }

  setMotorClipboard(motorClipboard: MotorClipboard | null): void { this.commit({ motorClipboard }); }

  #exists(s: NonNullable<Selection>): boolean {
    const rig = this.rig;
    if (!rig) return false;
    switch (s.kind) {
      case 'bone': return rig.skeleton.bones.some((b) => b.name === s.name);
      case 'body': return rig.bodies.some((b) => b.name === s.name);
      case 'shape': return (rig.bodies.find((b) => b.name === s.name)?.shapes.length ?? 0) > s.index && s.index >= 0;
      case 'joint': return rig.joints.some((j) => j.name === s.name);
    }
  }

  // ------------------------------------------------------------------ the document itself

  // The steps the file commands (files.ts) take; not for views.

  /** Show a new document on a (possibly new) creature: the history starts over. */
  replaceDocument(creature: C | null, doc: EditorDocument | null, file: Omit<FileInfo, 'dirty'>, dirty: boolean, session: OpenedInfo['session'], selection: Selection = null): void {
    const old = this.state.creature;
    this.history.reset(doc, dirty);
    this.inputsSaved([]); // a new document starts with an empty timeline (files.ts puts a project's back)
    this.commit({ creature, file: { ...file, dirty }, selection, hover: null }, { session, creatureChanged: old !== creature });
    if (old && old !== creature) this.platform.creatures.dispose(old);
  }

  setLoading(loading: string | null): void { this.commit({ loading }); }

  /** The document is what is on disk now (after a save). */
  markSaved(file: Omit<FileInfo, 'dirty'>): void {
    this.history.markSaved();
    this.inputsSaved();
    this.commit({ file: { ...file, dirty: false } });
  }
}
