/**
 * window.__marionette in the test build: read-only views of the editor for end-to-end assertions. It
 * never changes state; tests act through the UI like a user.
 */
import { useEditor, type Selection } from '../state/store';
import { historyInfo, projectText } from '../state/editor';
import { getViewportHandle, viewportStats } from '../viewport/viewportHandle';
import { BONE_PLAN_BODY_COLOR, BONE_PLAN_MERGED_COLOR, BONE_SELECTED_COLOR, VIEWPORT_BACKGROUND } from '../viewport/theme';
import { activeSkeletonOverlay } from '../viewport/SkeletonLayer';
import { timelineInputs } from '../preview/savedInputs';
import type { PreviewInput } from '../../../shared/preview/input';

export interface MarionetteTestHook {
  ready(): boolean;
  document(): unknown;
  projectText(): string;
  /** What is selected, by kind + name (+ shape index): a bone, body, shape or joint may share one name. */
  selection(): Selection;
  creature(): { fileName: string; bones: { name: string; parent: string | null }[] } | null;
  dirty(): boolean;
  undoDepth(): number;
  status(): string;
  /** The undo entry's label (null when there is nothing to undo). */
  undoLabel(): string | null;
  /** The preview's timeline inputs (pokes, blasts, grabs, limp switches): what a saved project keeps. */
  previewInputs(): PreviewInput[];
  boneScreenPosition(bone: string): { x: number; y: number } | null;
  highlightedBones(): string[];
  /** Bones drawn in the secondary colour: the selected body's bone. */
  secondaryBones(): string[];
  /** The bones the Generate dialog's preview colours, by colour; null when no preview is drawn. */
  planBones(): { body: string[]; merged: string[]; excluded: string[] } | null;
  frames(): number;
  /** Of those frames, the ones that drew the scene (an unchanged picture is not drawn again). */
  renders(): number;
  colors: { background: string; selected: string; planBody: string; planMerged: string };
}

export function installTestHook(): void {
  const hook: MarionetteTestHook = {
    ready: () => useEditor.getState().creature !== null && getViewportHandle() !== null && viewportStats.frames > 2,
    document: () => structuredClone(useEditor.getState().document),
    projectText,
    selection: () => structuredClone(useEditor.getState().session.selection),
    creature: () => {
      const c = useEditor.getState().creature;
      if (!c) return null;
      const bones = c.skeleton.bones;
      return { fileName: c.fileName, bones: bones.map((b) => ({ name: b.name, parent: b.parent >= 0 ? bones[b.parent]!.name : null })) };
    },
    dirty: () => historyInfo().dirty,
    undoDepth: () => historyInfo().depth,
    status: () => useEditor.getState().status,
    undoLabel: () => useEditor.getState().history.undoLabel,
    previewInputs: () => structuredClone(timelineInputs()),
    boneScreenPosition: (bone) => getViewportHandle()?.boneScreenPosition(bone) ?? null,
    highlightedBones: () => getViewportHandle()?.highlightedBones() ?? [],
    secondaryBones: () => activeSkeletonOverlay?.secondaryBones() ?? [],
    planBones: () => activeSkeletonOverlay?.planBones() ?? null,
    frames: () => viewportStats.frames,
    renders: () => viewportStats.renders,
    colors: { background: VIEWPORT_BACKGROUND, selected: BONE_SELECTED_COLOR, planBody: BONE_PLAN_BODY_COLOR, planMerged: BONE_PLAN_MERGED_COLOR },
  };
  (window as unknown as { __marionette: MarionetteTestHook }).__marionette = hook;
}
