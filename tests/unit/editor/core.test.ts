/**
 * The headless editor's core (shared/editor/core.ts) driven without a browser: document edits as undo steps
 * with one result type, gestures, undo / redo restoring the document deep-equal, selection, hover, events.
 */
import { describe, expect, it } from 'vitest';
import { setMass } from '../../../shared/authoring';
import { openedEditor, TestEditor } from './testEditor';

const massOf = (e: TestEditor, body: string) => e.rig!.bodies.find((b) => b.name === body)!.mass!;

describe('Editor core', () => {
  it('an edit is one undo step; undo restores the document deep-equal, redo the edited one', async () => {
    const e = await openedEditor();
    const before = structuredClone(e.document);
    expect(e.getState().history).toMatchObject({ canUndo: false, depth: 0 });
    expect(e.editRig('Mass of forearm', (r) => setMass(r, 'forearm', 2.5))).toEqual({ ok: true, value: undefined });
    expect(massOf(e, 'forearm')).toBe(2.5);
    expect(e.getState().history).toMatchObject({ canUndo: true, undoLabel: 'Mass of forearm', depth: 1 });
    expect(e.dirty).toBe(true);
    const edited = structuredClone(e.document);
    expect(e.undo().ok).toBe(true);
    expect(e.document).toEqual(before);
    expect(e.dirty).toBe(false);
    expect(e.statuses.at(-1)).toBe('Undo Mass of forearm');
    expect(e.redo().ok).toBe(true);
    expect(e.document).toEqual(edited);
    expect(e.undo().ok && e.undo()).toEqual({ ok: false, error: { field: 'Undo', message: 'nothing to undo' } });
  });

  it('a refused edit returns { ok: false, error } naming the field and records nothing', async () => {
    const e = await openedEditor();
    const doc = e.document;
    const r = e.editRig('Mass', (x) => setMass(x, 'forearm', -1));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.field).toMatch(/mass/);
    expect(e.document).toBe(doc);
    expect(e.getState().history.depth).toBe(0);
    // A throw inside a document update is a refusal too, never an exception out of the editor.
    expect(e.edit('Throws', () => { throw new Error('bad input'); })).toEqual({ ok: false, error: { field: '', message: 'bad input' } });
    // Nothing open: refused.
    expect(new TestEditor().editRig('x', (x) => ({ ok: true, rig: x })).ok).toBe(false);
  });

  it('a gesture (many edits while dragging) is one undo step; cancelling it restores the document', async () => {
    const e = await openedEditor();
    const before = structuredClone(e.document);
    const mark = e.beginGesture();
    for (const m of [1.1, 1.2, 1.3]) e.editRig('Drag mass', (r) => setMass(r, 'hand', m));
    e.endGesture(mark, 'Set hand mass');
    expect(e.getState().history).toMatchObject({ depth: 1, undoLabel: 'Set hand mass' });
    expect(massOf(e, 'hand')).toBe(1.3);
    const mark2 = e.beginGesture();
    e.editRig('Drag mass', (r) => setMass(r, 'hand', 9));
    e.cancelGesture(mark2);
    expect(massOf(e, 'hand')).toBe(1.3);
    expect(e.getState().history.depth).toBe(1);
    e.undo();
    expect(e.document).toEqual(before);
  });

  it('selects what the document has, refuses what it lacks; hover changes only when the target does', async () => {
    const e = await openedEditor();
    expect(e.select({ kind: 'body', name: 'forearm' }).ok).toBe(true);
    expect(e.selection).toEqual({ kind: 'body', name: 'forearm' });
    expect(e.select({ kind: 'joint', name: 'knee' })).toEqual({ ok: false, error: { field: 'joint', message: 'there is no joint named "knee"' } });
    expect(e.select({ kind: 'shape', name: 'forearm', index: 5 }).ok).toBe(false);
    expect(e.selection).toEqual({ kind: 'body', name: 'forearm' });
    const n = e.changes;
    e.hover({ kind: 'bone', name: 'forearm' });
    e.hover({ kind: 'bone', name: 'forearm' });
    expect(e.changes).toBe(n + 1);
    e.hover({ kind: 'body', name: 'forearm' }); // same name, other kind: a change
    expect(e.changes).toBe(n + 2);
    expect(e.getState().hover).toEqual({ kind: 'body', name: 'forearm' });
  });

  it('subscribers get a change event with the previous and next state; unsubscribe stops them', async () => {
    const e = await openedEditor();
    const seen: number[] = [];
    const off = e.subscribe((ev) => { if (ev.type === 'change') seen.push(ev.state.history.depth - ev.previous.history.depth); });
    expect(e.editRig('Mass', (r) => setMass(r, 'forearm', 2.5)).ok).toBe(true);
    off();
    expect(e.editRig('Mass', (r) => setMass(r, 'forearm', 2.6)).ok).toBe(true);
    expect(seen).toEqual([1]);
    // The platform is told the title and the dirty flag (title bar, close prompt).
    expect(e.title).toEqual({ title: 'armed-mine', dirty: true });
  });
});
