import { describe, expect, it } from 'vitest';
import * as commands from '../../../shared/document';
import {
  DocumentHistory, boneNote, documentForCreature, editorExtras, isBoneIncluded, syncSkeleton, MAX_NAME_LENGTH, type EditorDocument,
} from '../../../shared/document';
import type { EditResult } from '../../../shared/authoring';
import { parseProject, serializeProject } from '../../../shared/project';
import type { Bone } from '../../../shared/rig';

const bone = (name: string, parent: string | null, y: number): Bone => ({
  name, parent, rest: { translation: [0, y, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
});
const mineBones = [bone('body', null, 0.4), bone('upper_arm', 'body', 0.3), bone('forearm', 'upper_arm', 0.45), bone('hand', 'forearm', 0.4)];
/** The user's document edits are rig edits returning a result (the authoring convention); here on whole
 *  documents, a refusal thrown as "field: message" (the text the editor shows) for toThrow. */
const onDoc = (d: EditorDocument, r: EditResult): EditorDocument => {
  if (!r.ok) throw new Error(`${r.field}: ${r.message}`);
  return r.rig === d.rig ? d : { ...d, rig: r.rig };
};
const renameCreature = (d: EditorDocument, name: string) => onDoc(d, commands.renameCreature(d.rig, name));
const setBoneIncluded = (d: EditorDocument, b: string, on: boolean) => onDoc(d, commands.setBoneIncluded(d.rig, b, on));
const setBoneNote = (d: EditorDocument, b: string, note: string) => onDoc(d, commands.setBoneNote(d.rig, b, note));
const fresh = (): EditorDocument => documentForCreature({ name: 'armed-mine.glb', path: null, builtin: 'armed-mine' }, mineBones);

describe('document commands', () => {
  it('a fresh document has the creature skeleton, the file name as rig name, every bone included', () => {
    const doc = fresh();
    expect(doc.rig.name).toBe('armed-mine');
    expect(doc.rig.skeleton.bones.map((b) => b.name)).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
    expect(mineBones.every((b) => isBoneIncluded(doc.rig, b.name))).toBe(true);
    expect(doc.rig.extras).toBeUndefined();
  });

  it('renames with trimming and refuses an empty or over-long name, naming the field', () => {
    expect(renameCreature(fresh(), '  crab ').rig.name).toBe('crab');
    expect(() => renameCreature(fresh(), '   ')).toThrow(/Name: must not be empty/);
    expect(() => renameCreature(fresh(), 'x'.repeat(MAX_NAME_LENGTH + 1))).toThrow(/at most 256/);
    const doc = fresh();
    expect(renameCreature(doc, 'armed-mine')).toBe(doc);
    expect(commands.renameCreature(doc.rig, '')).toEqual({ ok: false, field: 'Name', message: 'must not be empty.' });
  });

  it('excluding bones keeps them in skeleton order in extras.editor; including all removes extras', () => {
    let doc = setBoneIncluded(fresh(), 'hand', false);
    doc = setBoneIncluded(doc, 'body', false);
    expect(editorExtras(doc.rig).excludedBones).toEqual(['body', 'hand']);
    expect(isBoneIncluded(doc.rig, 'hand')).toBe(false);
    doc = setBoneIncluded(setBoneIncluded(doc, 'hand', true), 'body', true);
    expect(doc.rig.extras).toBeUndefined();
    expect(() => setBoneIncluded(doc, 'tail', false)).toThrow(/Bone "tail": not in this creature's skeleton/);
  });

  it('notes are stored per bone and an empty note is removed', () => {
    let doc = setBoneNote(fresh(), 'forearm', 'hinge only');
    expect(boneNote(doc.rig, 'forearm')).toBe('hinge only');
    doc = setBoneNote(doc, 'forearm', '');
    expect(doc.rig.extras).toBeUndefined();
  });

  it('every edit undoes to the exact previous document through the history', () => {
    const start = fresh();
    const h = new DocumentHistory<EditorDocument>(start);
    h.apply('Rename', (d) => renameCreature(d, 'Crab'));
    h.apply('Exclude hand', (d) => setBoneIncluded(d, 'hand', false));
    h.apply('Note', (d) => setBoneNote(d, 'body', 'ballast inside'));
    const end = h.document;
    h.undo(); h.undo(); h.undo();
    expect(h.document).toEqual(start);
    h.redo(); h.redo(); h.redo();
    expect(h.document).toEqual(end);
  });

  it('syncSkeleton takes the creature file as the truth for bones and returns the same doc when equal', () => {
    const doc = fresh();
    expect(syncSkeleton(doc, mineBones)).toBe(doc);
    const moved = [...mineBones.slice(0, 3), bone('hand', 'forearm', 0.5)];
    expect(syncSkeleton(doc, moved).rig.skeleton.bones[3]!.rest.translation).toEqual([0, 0.5, 0]);
  });

  it('syncSkeleton keeps a rescaled rig\'s scale: the file\'s bones are compared and stored at skeleton.scale', () => {
    const k = 0.01;
    const base = fresh();
    const scaledBones = mineBones.map((b) => ({ ...b, rest: { ...b.rest, translation: b.rest.translation.map((x) => x * k) as [number, number, number] } }));
    const doc: EditorDocument = { ...base, rig: { ...base.rig, skeleton: { bones: scaledBones, scale: k } } };
    // The same file: nothing to change, the same document.
    expect(syncSkeleton(doc, mineBones)).toBe(doc);
    // A re-exported file: its bones, scaled, and the scale kept.
    const moved = [...mineBones.slice(0, 3), bone('hand', 'forearm', 0.5)];
    const synced = syncSkeleton(doc, moved);
    expect(synced.rig.skeleton.scale).toBe(k);
    expect(synced.rig.skeleton.bones[3]!.rest.translation[1]).toBeCloseTo(0.5 * k, 12);
    expect(synced.rig.skeleton.bones[0]!.rest.translation).toEqual(scaledBones[0]!.rest.translation);
  });

  it('a document survives the project file round trip exactly', () => {
    const doc = setBoneNote(setBoneIncluded(renameCreature(fresh(), 'Crab'), 'hand', false), 'body', 'ünïcode ✓');
    const text = serializeProject({ creature: doc.creature, rig: doc.rig });
    const back = parseProject(text, 'crab.marionette');
    expect({ creature: back.creature, rig: back.rig }).toEqual(doc);
  });
});
