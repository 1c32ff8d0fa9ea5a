/**
 * Document edits, each a pure function (document, arguments) → document that returns the same object
 * when nothing changes. Invalid arguments throw an Error whose message names the field and the reason;
 * the editor shows it and keeps the old document. The editor runs these through DocumentHistory.apply,
 * so each is one undo step.
 */
import type { Bone, RigDocument } from '../rig/schema';
import type { ProjectCreature } from '../project/projectFile';
import { editorExtras, type EditorDocument, type EditorExtras } from './editorDocument';

/** The rig format's limit on names. */
export const MAX_NAME_LENGTH = 256;
export const MAX_NOTE_LENGTH = 2000;

export function renameCreature(doc: EditorDocument, name: string): EditorDocument {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new Error('Name: must not be empty.');
  if (trimmed.length > MAX_NAME_LENGTH) throw new Error(`Name: at most ${MAX_NAME_LENGTH} characters (got ${trimmed.length}).`);
  return trimmed === doc.rig.name ? doc : { ...doc, rig: { ...doc.rig, name: trimmed } };
}

function requireBone(rig: RigDocument, bone: string): void {
  if (!rig.skeleton.bones.some((b) => b.name === bone)) throw new Error(`Bone "${bone}": not in this creature's skeleton.`);
}

function withExtras(doc: EditorDocument, next: EditorExtras): EditorDocument {
  const editor: Record<string, unknown> = {};
  if (next.excludedBones.length > 0) editor.excludedBones = next.excludedBones;
  if (Object.keys(next.notes).length > 0) editor.notes = next.notes;
  const extras: Record<string, unknown> = { ...doc.rig.extras };
  if (Object.keys(editor).length > 0) extras.editor = editor;
  else delete extras.editor;
  const rig: RigDocument = { ...doc.rig };
  if (Object.keys(extras).length > 0) rig.extras = extras;
  else delete rig.extras;
  return { ...doc, rig };
}

export function setBoneIncluded(doc: EditorDocument, bone: string, included: boolean): EditorDocument {
  requireBone(doc.rig, bone);
  const extras = editorExtras(doc.rig);
  if (extras.excludedBones.includes(bone) !== included) return doc;
  const order = doc.rig.skeleton.bones.map((b) => b.name);
  const excluded = included ? extras.excludedBones.filter((b) => b !== bone) : [...extras.excludedBones, bone];
  // Skeleton order keeps the saved file stable however the flags were toggled.
  excluded.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return withExtras(doc, { ...extras, excludedBones: excluded });
}

export function setBoneNote(doc: EditorDocument, bone: string, note: string): EditorDocument {
  requireBone(doc.rig, bone);
  if (note.length > MAX_NOTE_LENGTH) throw new Error(`Bone "${bone}" note: at most ${MAX_NOTE_LENGTH} characters (got ${note.length}).`);
  const extras = editorExtras(doc.rig);
  if ((extras.notes[bone] ?? '') === note) return doc;
  const notes = { ...extras.notes };
  if (note === '') delete notes[bone];
  else notes[bone] = note;
  return withExtras(doc, { ...extras, notes });
}

/** The creature file was found somewhere else (it moved): point the document there. */
export function relinkCreature(doc: EditorDocument, creature: ProjectCreature): EditorDocument {
  return { ...doc, creature };
}

/**
 * The rig's skeleton replaced by the one in the creature file actually loaded (the file is the truth for
 * bones; it may have been re-exported since the project was saved), at the rig's `skeleton.scale` (a
 * rescaled rig stores its bones scaled; the scale is kept). Returns the same object when equal.
 */
export function syncSkeleton(doc: EditorDocument, bones: readonly Bone[]): EditorDocument {
  const k = doc.rig.skeleton.scale;
  const scaled = k === undefined || k === 1 ? bones : bones.map((b) => ({
    ...b, rest: { ...b.rest, translation: [b.rest.translation[0] * k, b.rest.translation[1] * k, b.rest.translation[2] * k] as [number, number, number] },
  }));
  const same = JSON.stringify(doc.rig.skeleton.bones) === JSON.stringify(scaled);
  return same ? doc : { ...doc, rig: { ...doc.rig, skeleton: { ...doc.rig.skeleton, bones: scaled.map(cloneBone) } } };
}

const cloneBone = (b: Bone): Bone => ({
  name: b.name,
  parent: b.parent,
  rest: { translation: [...b.rest.translation], rotation: [...b.rest.rotation], scale: [...b.rest.scale] },
});
