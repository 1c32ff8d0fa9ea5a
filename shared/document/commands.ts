/**
 * Document edits, each a pure function (document, arguments) → document. Invalid arguments throw an
 * Error whose message names the field and the reason; the caller shows it and keeps the old document.
 * The editor runs these through DocumentHistory.apply so each one is an undo step.
 */
import type { BoneSettings, CreatureRef, EditorDocument } from './editorDocument';

export const MAX_NAME_LENGTH = 120;

export function renameProject(doc: EditorDocument, name: string): EditorDocument {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new Error('Project name: must not be empty.');
  if (trimmed.length > MAX_NAME_LENGTH) throw new Error(`Project name: at most ${MAX_NAME_LENGTH} characters (got ${trimmed.length}).`);
  return trimmed === doc.name ? doc : { ...doc, name: trimmed };
}

function updateBone(doc: EditorDocument, bone: string, update: (b: BoneSettings) => BoneSettings): EditorDocument {
  const index = doc.rig.bones.findIndex((b) => b.bone === bone);
  if (index < 0) throw new Error(`Bone "${bone}": not in this creature's skeleton.`);
  const before = doc.rig.bones[index]!;
  const after = update(before);
  if (after === before) return doc;
  const bones = doc.rig.bones.slice();
  bones[index] = after;
  return { ...doc, rig: { ...doc.rig, bones } };
}

export function setBoneIncluded(doc: EditorDocument, bone: string, included: boolean): EditorDocument {
  return updateBone(doc, bone, (b) => (b.includeInRagdoll === included ? b : { ...b, includeInRagdoll: included }));
}

export const MAX_NOTE_LENGTH = 2000;

export function setBoneNote(doc: EditorDocument, bone: string, note: string): EditorDocument {
  if (note.length > MAX_NOTE_LENGTH) throw new Error(`Bone "${bone}" note: at most ${MAX_NOTE_LENGTH} characters (got ${note.length}).`);
  return updateBone(doc, bone, (b) => (b.note === note ? b : { ...b, note }));
}

/** The creature file was found somewhere else (it moved): point the document there. */
export function relinkCreature(doc: EditorDocument, creature: CreatureRef): EditorDocument {
  return { ...doc, creature };
}

/**
 * Keep the per-bone settings in step with the skeleton actually loaded: settings of bones that still exist
 * are kept, new bones get defaults, vanished bones are dropped. Returns the same object when nothing changed.
 */
export function syncBonesWithSkeleton(doc: EditorDocument, boneNames: readonly string[]): EditorDocument {
  const byName = new Map(doc.rig.bones.map((b) => [b.bone, b]));
  const bones = boneNames.map((bone) => byName.get(bone) ?? { bone, includeInRagdoll: true, note: '' });
  const same = bones.length === doc.rig.bones.length && bones.every((b, i) => b === doc.rig.bones[i]);
  return same ? doc : { ...doc, rig: { ...doc.rig, bones } };
}
