/**
 * Creature scale in the editor (shared/authoring/creatureScale.ts has the rules): a creature whose standing
 * height is outside PLAUSIBLE_HEIGHT (an 80-unit fox read as 80 m, a model in kilometres) is flagged when
 * it opens — a notice naming the file, its height and why — and the viewport's scale banner offers one
 * action: rescale it to a height the user gives, one undo step (rescaleRig: bones, bodies, joints,
 * controllers, and `skeleton.scale`, by which the viewport draws the creature's mesh).
 */
import { scaleProblem, type ScaleProblem } from '../../../shared/authoring';
import { editor, frameSelection, notify } from '../state/editor';
import { useEditor } from '../state/store';
import { currentAuthoringSkeleton } from './actions';

/** Why the open creature's size is implausible at the document's scale, or null (also with nothing open). */
export function creatureScaleProblem(): ScaleProblem | null {
  const { creature } = useEditor.getState();
  const sk = currentAuthoringSkeleton();
  if (!creature || !sk) return null;
  try {
    return scaleProblem(sk, creature.fileName);
  } catch {
    return null;
  }
}

/** Rescale the creature (its rig) so it stands `height` metres tall: one undo step (shared/editor). */
export function rescaleCreatureTo(height: number): boolean {
  const name = useEditor.getState().creature?.fileName;
  const r = editor.edits.rescaleTo(height, name);
  if (r.ok) frameSelection();
  return r.ok;
}

// A creature opens (the document arrives in the same task, just after it): flag an implausible size.
useEditor.subscribe((s, p) => {
  if (s.creature === p.creature || !s.creature) return;
  queueMicrotask(() => {
    const problem = creatureScaleProblem();
    if (problem) notify('error', problem.message, 15_000);
  });
});
