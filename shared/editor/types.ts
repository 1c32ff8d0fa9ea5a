/**
 * The headless editor's vocabulary: what is selected, the one result type every command returns, the
 * change events the views subscribe to. Plain data: no DOM, React or store.
 */
import type { RigMotor } from '../rig/schema';
import type { EditorDocument } from '../document/editorDocument';
import type { ProjectSession } from '../project/projectFile';

/** What the inspector shows and the viewport highlights. Bodies and joints are named by the rig; a shape is
 *  one entry of a body's `shapes` list. */
export type Selection =
  | { kind: 'bone'; name: string }
  | { kind: 'body'; name: string }
  | { kind: 'shape'; name: string; index: number }
  | { kind: 'joint'; name: string }
  | null;

/** Why a command was refused: the field (or thing) at fault and the reason, as the user reads it. */
export interface EditorError { field: string; message: string }

/**
 * The one error convention of the editor's commands: never a throw for a refusal. `value` carries what a
 * command made (e.g. the index of an inserted point).
 */
export type Result<T = undefined> = { ok: true; value: T } | { ok: false; error: EditorError };

export const ok = <T = undefined>(value?: T): Result<T> => ({ ok: true, value: value as T });
export const err = (field: string, message: string): Result<never> => ({ ok: false, error: { field, message } });
/** The refusal of a command the user cancelled (a dialog, the unsaved-changes prompt): not an error to show. */
export const cancelled = (): Result<never> => ({ ok: false, error: { field: '', message: 'cancelled' } });
export const isCancelled = (r: Result<unknown>): boolean => !r.ok && r.error.field === '' && r.error.message === 'cancelled';

/** "field: message" (or the message alone when the field is empty): what a toast says. */
export const errorText = (e: EditorError): string => (e.field ? `${e.field}: ${e.message}` : e.message);
/** A thrown value's message (for errors from the platform, a parser, an importer). */
export const thrownText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export interface HistoryInfo {
  canUndo: boolean;
  canRedo: boolean;
  undoLabel: string | null;
  redoLabel: string | null;
  /** Entries on the undo stack. */
  depth: number;
}

export interface FileInfo { path: string | null; fileName: string | null; dirty: boolean }

export interface MotorClipboard { from: string; motor: RigMotor }

export interface EditorState<C> {
  /** null until a creature is open. */
  document: EditorDocument | null;
  history: HistoryInfo;
  file: FileInfo;
  /** The loaded creature, as the platform's loader made it (opaque to the editor). */
  creature: C | null;
  /** The file being loaded, or null. */
  loading: string | null;
  selection: Selection;
  hover: Selection;
  motorClipboard: MotorClipboard | null;
}

export type NoticeKind = 'error' | 'info';

/** A document (and creature) was just opened or closed: views reset what they show about the old one. */
export interface OpenedInfo {
  /** The project's saved view (selected bone, skeleton shown, camera), when a project was opened. */
  session: ProjectSession | null;
  /** Whether the creature object changed (a new load, or closed). */
  creatureChanged: boolean;
}

export type EditorEvent<C> =
  | { type: 'change'; state: EditorState<C>; previous: EditorState<C>; opened?: OpenedInfo }
  /** Something the user should read: a refusal, what an open or export did. `ms`: how long it stays. */
  | { type: 'notice'; kind: NoticeKind; text: string; ms?: number }
  /** A status-line message (undo / redo labels, autosave trouble). */
  | { type: 'status'; text: string };

/** A stable key for a selection target: "bone:forearm", "body:forearm", "shape:forearm#1", "joint:elbow". */
export function selectionKey(s: Selection): string | null {
  if (!s) return null;
  return s.kind === 'shape' ? `shape:${s.name}#${s.index}` : `${s.kind}:${s.name}`;
}

/** Whether two selections point at the same thing (both null counts as the same). Bodies and joints are
 *  usually named after bones, so names alone would mistake the bone "forearm" for the body "forearm". */
export const sameTarget = (a: Selection, b: Selection): boolean => selectionKey(a) === selectionKey(b);

/** The bone a selection names, or null when it is a body, shape or joint (whatever their names). */
export const selectedBoneName = (s: Selection): string | null => (s?.kind === 'bone' ? s.name : null);
