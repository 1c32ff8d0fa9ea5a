/**
 * Document edits. The user's edits (rename, include / exclude a bone, a bone note) are pure functions
 * RigDocument → EditResult like every authoring edit (shared/authoring/editResult.ts): the same rig when
 * nothing changes, `{ ok: false, field, message }` naming the field and the reason on bad input. The editor
 * (shared/editor) runs them as undo steps. relinkCreature and syncSkeleton cannot fail and map documents.
 */
import type { Bone, RigDocument } from '../rig/schema';
import type { ProjectCreature } from '../project/projectFile';
import { editorExtras, type EditorDocument, type EditorExtras } from './editorDocument';
import { fail, type EditResult } from '../authoring/editResult';

/** The rig format's limit on names. */
export const MAX_NAME_LENGTH = 256;
export const MAX_NOTE_LENGTH = 2000;

export function renameCreature(rig: RigDocument, name: string): EditResult {
  const trimmed = name.trim();
  if (trimmed.length === 0) return fail('Name', 'must not be empty.');
  if (trimmed.length > MAX_NAME_LENGTH) return fail('Name', `at most ${MAX_NAME_LENGTH} characters (got ${trimmed.length}).`);
  return { ok: true, rig: trimmed === rig.name ? rig : { ...rig, name: trimmed } };
}

const missingBone = (rig: RigDocument, bone: string): EditResult | null =>
  rig.skeleton.bones.some((b) => b.name === bone) ? null : fail(`Bone "${bone}"`, "not in this creature's skeleton.");

function withExtras(rig0: RigDocument, next: EditorExtras): EditResult {
  const editor: Record<string, unknown> = {};
  if (next.excludedBones.length > 0) editor.excludedBones = next.excludedBones;
  if (Object.keys(next.notes).length > 0) editor.notes = next.notes;
  const extras: Record<string, unknown> = { ...rig0.extras };
  if (Object.keys(editor).length > 0) extras.editor = editor;
  else delete extras.editor;
  const rig: RigDocument = { ...rig0 };
  if (Object.keys(extras).length > 0) rig.extras = extras;
  else delete rig.extras;
  return { ok: true, rig };
}

export function setBoneIncluded(rig: RigDocument, bone: string, included: boolean): EditResult {
  const missing = missingBone(rig, bone);
  if (missing) return missing;
  const extras = editorExtras(rig);
  if (extras.excludedBones.includes(bone) !== included) return { ok: true, rig };
  const order = rig.skeleton.bones.map((b) => b.name);
  const excluded = included ? extras.excludedBones.filter((b) => b !== bone) : [...extras.excludedBones, bone];
  // Skeleton order keeps the saved file stable however the flags were toggled.
  excluded.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return withExtras(rig, { ...extras, excludedBones: excluded });
}

export function setBoneNote(rig: RigDocument, bone: string, note: string): EditResult {
  const missing = missingBone(rig, bone);
  if (missing) return missing;
  if (note.length > MAX_NOTE_LENGTH) return fail(`Bone "${bone}" note`, `at most ${MAX_NOTE_LENGTH} characters (got ${note.length}).`);
  const extras = editorExtras(rig);
  if ((extras.notes[bone] ?? '') === note) return { ok: true, rig };
  const notes = { ...extras.notes };
  if (note === '') delete notes[bone];
  else notes[bone] = note;
  return withExtras(rig, { ...extras, notes });
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
