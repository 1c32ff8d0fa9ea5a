/**
 * The zustand store is a thin view over the headless editor (renderer/src/state/editor.ts): it mirrors the
 * editor's state from its change events, and the editor's notices become toasts.
 */
import { describe, expect, it } from 'vitest';
import { editor, edit, select } from '../../../renderer/src/state/editor';
import { useEditor } from '../../../renderer/src/state/store';

describe('store mirror of the editor', () => {
  it('selection and hover set on the editor appear in the store session, in one update each', () => {
    let updates = 0;
    const off = useEditor.subscribe(() => { updates++; });
    editor.select({ kind: 'bone', name: 'forearm' });
    expect(useEditor.getState().session.selection).toEqual({ kind: 'bone', name: 'forearm' });
    expect(updates).toBe(1);
    editor.hover({ kind: 'body', name: 'hand' });
    expect(useEditor.getState().session.hover).toEqual({ kind: 'body', name: 'hand' });
    select(null);
    expect(editor.selection).toBeNull();
    expect(useEditor.getState().session.selection).toBeNull();
    off();
  });

  it('a refused edit is told as an error toast; notices from the editor become toasts with their text', () => {
    const toasts = () => useEditor.getState().toasts.map((t) => `${t.kind}: ${t.text}`);
    expect(edit('Rename', (d) => d)).toBe(false); // nothing is open
    expect(toasts().at(-1)).toBe('error: no creature is open');
    editor.notify('info', 'Exported x.rig.json');
    expect(toasts().at(-1)).toBe('info: Exported x.rig.json');
    expect(useEditor.getState().status).toBe('Exported x.rig.json');
    expect(useEditor.getState().document).toBe(editor.document);
  });
});
