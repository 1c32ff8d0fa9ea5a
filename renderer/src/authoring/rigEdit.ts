/**
 * The bridge between shared/authoring's edits (RigDocument → { ok, rig } | { ok: false, field, message })
 * and the editor's undo history: an accepted edit becomes one undo step, a refused one comes back to the
 * field that asked, and the document keeps its last valid value.
 */
import type { EditResult } from '../../../shared/authoring';
import type { RigDocument } from '../../../shared/rig';
import { edit } from '../state/editor';
import { useEditor } from '../state/store';

export interface FieldError { field: string; message: string }

/** Runs `f` on the current rig; null when accepted (or nothing changed), else why it was refused. */
export function rigEdit(label: string, f: (rig: RigDocument) => EditResult): FieldError | null {
  const doc = useEditor.getState().document;
  if (!doc) return { field: '', message: 'no creature is open' };
  const result = f(doc.rig);
  if (!result.ok) return { field: result.field, message: result.message };
  if (result.rig === doc.rig) return null;
  let refused: FieldError | null = null;
  edit(label, (d) => {
    // The history's document is the store's; recompute only if something else changed it in between.
    const again = d.rig === doc.rig ? result : f(d.rig);
    if (!again.ok) { refused = { field: again.field, message: again.message }; return d; }
    return { ...d, rig: again.rig };
  });
  return refused;
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

export const currentRig = (): RigDocument | null => useEditor.getState().document?.rig ?? null;
