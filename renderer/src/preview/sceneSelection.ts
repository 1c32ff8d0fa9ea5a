/**
 * What is picked in an open particle scene (File › Examples › Ragdoll …): a bone, a particle or a
 * constraint, listed in the outliner and shown in the inspector, the picked bone lit in the viewport. A
 * scene has no document, so this is not the editor's selection (state/store.ts): session state of its
 * own, cleared whenever another scene (or a creature) opens. Like the editor's selection of a bone, body
 * or joint (select() is session state, never an undo step), a pick is not part of undo: picking makes no
 * undo step and Undo / Redo leave it as it is; Escape clears it as it clears the selection
 * (state/commands.ts; tests/e2e/sceneOutliner.test.ts).
 */
import { create } from 'zustand';
import { useSolver } from './solverState';

export type ScenePick =
  | { kind: 'bone'; name: string }
  | { kind: 'particle'; name: string }
  | { kind: 'constraint'; index: number }
  | null;

export const useScenePick = create<{ pick: ScenePick }>()(() => ({ pick: null }));

export const pickInScene = (pick: ScenePick): void => useScenePick.setState({ pick });

useSolver.subscribe((s, p) => { if (s.scene !== p.scene) pickInScene(null); });

/** The bone the viewport lights for a pick: the bone itself, else null. */
export const pickedBone = (pick: ScenePick): string | null => (pick?.kind === 'bone' ? pick.name : null);
