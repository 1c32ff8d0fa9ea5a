/**
 * The editor's document: what is saved, undone and exported — the creature reference and the RigDocument
 * (shared/rig) built on it, exactly the two halves of a project file (shared/project). Plain JSON only, so
 * history diffs and JSON round trips are exact.
 *
 * A fresh rig has the creature's skeleton and no bodies yet (it validates as a rig once bodies are
 * generated). The artist's per-bone choices that are not part of the runtime format — which bones get a
 * body when bodies are generated, a free note — live in the rig's `extras.editor`, which the format
 * carries along unchanged and the runtime never reads.
 */
import type { ProjectCreature } from '../project/projectFile';
import type { Bone, RigDocument } from '../rig/schema';
import { newRigDocument } from '../authoring/document';

export interface EditorExtras {
  /** Bones that get no rigid body when bodies are generated (shared/authoring's `include` option). */
  excludedBones: string[];
  /** Free notes per bone name. */
  notes: Record<string, string>;
}

export interface EditorDocument {
  creature: ProjectCreature;
  rig: RigDocument;
}

/** Project name from a file name: "armed-mine.glb" → "armed-mine". */
export const baseName = (fileName: string): string => fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '') || fileName;

/** A fresh document for a creature: its skeleton, every bone included, no bodies yet. */
export function documentForCreature(creature: ProjectCreature, bones: readonly Bone[]): EditorDocument {
  return { creature, rig: newRigDocument(baseName(creature.name), bones) };
}

export function editorExtras(rig: RigDocument): EditorExtras {
  const raw = rig.extras?.editor as Partial<EditorExtras> | undefined;
  return {
    excludedBones: Array.isArray(raw?.excludedBones) ? raw.excludedBones.filter((b): b is string => typeof b === 'string') : [],
    notes: raw?.notes && typeof raw.notes === 'object' ? raw.notes : {},
  };
}

/** Whether "generate bodies" gives `bone` a body. */
export const isBoneIncluded = (rig: RigDocument, bone: string): boolean => !editorExtras(rig).excludedBones.includes(bone);
export const boneNote = (rig: RigDocument, bone: string): string => editorExtras(rig).notes[bone] ?? '';
