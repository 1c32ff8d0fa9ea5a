/**
 * Panel fields' door to the editor's rig edits (shared/editor editRig: shared/authoring's RigDocument →
 * EditResult as one undo step): an accepted edit becomes one undo step, a refused one comes back to the
 * field that asked (NumberField shows it under the field), and the document keeps its last valid value.
 */
import type { EditResult } from '../../../shared/authoring';
import type { EditorError } from '../../../shared/editor';
import type { RigDocument } from '../../../shared/rig';
import { editor } from '../state/editor';

export type FieldError = EditorError;

/** Runs `f` on the current rig as one undo step; null when accepted (or nothing changed), else why not. */
export function rigEdit(label: string, f: (rig: RigDocument) => EditResult): FieldError | null {
  const r = editor.editRig(label, f);
  return r.ok ? null : r.error;
}

/** Several edits in sequence as one step (e.g. paste to many joints); stops at the first refusal. */
export function chain(...steps: ((rig: RigDocument) => EditResult)[]): (rig: RigDocument) => EditResult {
  return (rig) => {
    let cur = rig;
    for (const s of steps) {
      const r = s(cur);
      if (!r.ok) return r;
      cur = r.rig;
    }
    return { ok: true, rig: cur };
  };
}

export const currentRig = (): RigDocument | null => editor.rig;
