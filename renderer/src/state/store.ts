/**
 * The editor's zustand store, in scopes (tldraw's split):
 *  - document, history, file, creature, selection, hover: owned by the headless Editor (shared/editor);
 *    the store holds a mirror that state/editor.ts refreshes on every change event. Components never
 *    write them directly: they call the editor's commands.
 *  - file: where the document lives on disk and whether it has unsaved changes.
 *  - creature: the loaded creature (skeleton data + three objects). Runtime, never saved.
 *  - session: selection, hover, view toggles, panel sizes — neither saved nor undone.
 *  - notices: toasts, the status-bar message and modal prompts.
 * Per-frame values (simulation poses, fps) never pass through here; the viewport reads them from refs.
 */
import { create } from 'zustand';
import type { EditorDocument } from '../../../shared/document';
import type { LoadedCreature } from '../creature/types';
import { loadLayoutPrefs } from './layoutPrefs';

export interface CameraPose { position: [number, number, number]; target: [number, number, number] }

/** What the inspector shows and the viewport highlights (shared/editor's Selection). */
export type { Selection } from '../../../shared/editor';
import type { Selection } from '../../../shared/editor';

export interface HistoryInfo {
  canUndo: boolean;
  canRedo: boolean;
  undoLabel: string | null;
  redoLabel: string | null;
}

export interface Toast { id: number; kind: 'error' | 'info'; text: string }

export interface Prompt {
  id: number;
  title: string;
  text: string;
  actions: { label: string; primary?: boolean; run: () => void }[];
}

export interface SessionState {
  selection: Selection;
  hover: Selection;
  showSkeleton: boolean;
  showMesh: boolean;
  /** Bumped to ask the viewport to frame the selection (F). */
  frameRequest: number;
  /** A camera pose to restore (from a project file) instead of framing, consumed by the viewport. */
  cameraRequest: CameraPose | null;
  leftWidth: number;
  rightWidth: number;
  /** Height (px) of the timeline + plots area under the viewport while the plots are open; null: the default
   *  fraction of the window (layoutPrefs.ts). Remembered across sessions, like plotsOpen. */
  bottomHeight: number | null;
  plotsOpen: boolean;
}

/** The dock's sizes: kept when a creature opens or the document closes (only the content changes). */
export type PanelSizes = Pick<SessionState, 'leftWidth' | 'rightWidth' | 'bottomHeight' | 'plotsOpen'>;
export const panelSizes = (s: SessionState): PanelSizes =>
  ({ leftWidth: s.leftWidth, rightWidth: s.rightWidth, bottomHeight: s.bottomHeight, plotsOpen: s.plotsOpen });

export interface EditorState {
  /** null until a creature is open. */
  document: EditorDocument | null;
  history: HistoryInfo;
  file: { path: string | null; fileName: string | null; dirty: boolean };
  creature: LoadedCreature | null;
  loading: string | null;
  session: SessionState;
  toasts: Toast[];
  status: string;
  prompt: Prompt | null;
}

export const initialSession = (): SessionState => ({
  ...loadLayoutPrefs(),
  selection: null,
  hover: null,
  showSkeleton: true,
  showMesh: true,
  frameRequest: 0,
  cameraRequest: null,
  leftWidth: 240,
  rightWidth: 300,
});

export const useEditor = create<EditorState>()(() => ({
  document: null,
  history: { canUndo: false, canRedo: false, undoLabel: null, redoLabel: null },
  file: { path: null, fileName: null, dirty: false },
  creature: null,
  loading: null,
  session: initialSession(),
  toasts: [],
  status: 'Ready',
  prompt: null,
}));

export const setSession = (patch: Partial<SessionState>): void =>
  useEditor.setState((s) => ({ session: { ...s.session, ...patch } }));
