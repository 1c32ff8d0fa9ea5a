import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyChanges, diff, DocumentHistory } from '../../../shared/document';

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 4 })),
})).value;

describe('diff / applyChanges', () => {
  it('forward turns a into b, backward turns b into a, for any pair of JSON values', () => {
    fc.assert(fc.property(json, json, (a, b) => {
      const changes = diff(a, b);
      expect(applyChanges(a, changes, 'forward')).toEqual(b);
      expect(applyChanges(b, changes, 'backward')).toEqual(a);
    }), { numRuns: 400 });
  });

  it('records one change for one edited field and shares the untouched subtrees', () => {
    const a = { rig: { name: 'mine', bones: [{ name: 'body' }, { name: 'arm' }] }, creature: { name: 'm.glb' } };
    const b = { ...a, rig: { ...a.rig, name: 'crab' } };
    const changes = diff(a, b);
    expect(changes).toEqual([{ path: ['rig', 'name'], before: 'mine', after: 'crab' }]);
    const back = applyChanges(b, changes, 'backward');
    expect(back).toEqual(a);
    expect(back.rig.bones).toBe(b.rig.bones);
    expect(back.creature).toBe(b.creature);
  });

  it('removes a key on undo of its addition', () => {
    const a: Record<string, unknown> = { x: 1 };
    const b = { x: 1, extras: { k: [1, 2] } };
    const back = applyChanges(b, diff(a, b), 'backward') as Record<string, unknown>;
    expect('extras' in back).toBe(false);
  });
});

describe('DocumentHistory', () => {
  type D = { n: number; label: string };
  const set = (n: number) => (d: D) => ({ ...d, n });

  it('undoes and redoes edits in order, and a new edit clears the redo stack', () => {
    const h = new DocumentHistory<D>({ n: 0, label: 'x' });
    h.apply('one', set(1));
    h.apply('two', set(2));
    expect(h.undoLabel).toBe('two');
    expect(h.undo()).toBe(true);
    expect(h.document.n).toBe(1);
    expect(h.redoLabel).toBe('two');
    expect(h.redo()).toBe(true);
    expect(h.document.n).toBe(2);
    h.undo();
    h.apply('three', set(3));
    expect(h.canRedo).toBe(false);
    h.undo();
    h.undo();
    expect(h.document.n).toBe(0);
    expect(h.undo()).toBe(false);
  });

  it('records nothing for an edit that changes nothing', () => {
    const h = new DocumentHistory<D>({ n: 0, label: 'x' });
    expect(h.apply('same', (d) => ({ ...d }))).toBe(false);
    expect(h.canUndo).toBe(false);
    expect(h.dirty).toBe(false);
  });

  it('a drag (mark … squash) is one undo step back to where it started', () => {
    const h = new DocumentHistory<D>({ n: 0, label: 'x' });
    h.apply('before', set(5));
    const mark = h.mark();
    for (let i = 6; i <= 30; i++) h.apply('drag', set(i));
    h.squashToMark(mark, 'Drag n');
    expect(h.undoDepth).toBe(2);
    expect(h.undoLabel).toBe('Drag n');
    h.undo();
    expect(h.document.n).toBe(5);
    h.redo();
    expect(h.document.n).toBe(30);
  });

  it('bailing to a mark reverts the gesture and leaves no trace in the history', () => {
    const h = new DocumentHistory<D>({ n: 0, label: 'x' });
    h.apply('before', set(1));
    const mark = h.mark();
    h.apply('drag', set(2));
    h.apply('drag', set(3));
    h.bailToMark(mark);
    expect(h.document.n).toBe(1);
    expect(h.undoDepth).toBe(1);
  });

  it('is clean at the saved point, dirty elsewhere, clean again after undoing back to it', () => {
    const h = new DocumentHistory<D>({ n: 0, label: 'x' });
    h.apply('one', set(1));
    expect(h.dirty).toBe(true);
    h.markSaved();
    expect(h.dirty).toBe(false);
    h.apply('two', set(2));
    expect(h.dirty).toBe(true);
    h.undo();
    expect(h.dirty).toBe(false);
    h.undo();
    expect(h.dirty).toBe(true);
    h.reset({ n: 9, label: 'y' }, true);
    expect(h.dirty).toBe(true);
    expect(h.canUndo).toBe(false);
  });
});
