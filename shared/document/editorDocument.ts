/**
 * The editor's document: what is saved, undone and exported. Plain JSON only (no class instances, no
 * typed arrays), so history diffs and JSON round trips are exact.
 *
 * `rig` grows with the rig format (bodies, joints, motors, gait paths); the per-bone settings are the
 * artist's first decisions about a creature: which bones get a rigid body when bodies are generated
 * from the skeleton, and a free note.
 */
export interface CreatureRef {
  /** File name as the user knows it, e.g. "armed-mine.glb". */
  fileName: string;
  /** Absolute path on disk (desktop); null for a creature that came from a browser pick or the built-in set. */
  path: string | null;
  /** Name of a creature shipped with the app ("armed-mine"), so projects that use one need no path. */
  builtin: string | null;
}

export interface BoneSettings {
  bone: string;
  /** Whether "generate bodies" gives this bone a rigid body. Tiny helper bones are usually excluded. */
  includeInRagdoll: boolean;
  note: string;
}

export interface RigSection {
  bones: BoneSettings[];
  bodies: unknown[];
  joints: unknown[];
}

export interface EditorDocument {
  /** The project's name, shown in the title bar and used as the default file name. */
  name: string;
  creature: CreatureRef | null;
  rig: RigSection;
}

export const emptyDocument = (): EditorDocument => ({
  name: 'Untitled',
  creature: null,
  rig: { bones: [], bodies: [], joints: [] },
});

/** A fresh document for a creature: every bone included, no notes. */
export function documentForCreature(name: string, creature: CreatureRef, boneNames: readonly string[]): EditorDocument {
  return {
    name,
    creature,
    rig: { bones: boneNames.map((bone) => ({ bone, includeInRagdoll: true, note: '' })), bodies: [], joints: [] },
  };
}

/** Project name from a file name: "armed-mine.glb" → "armed-mine". */
export const baseName = (fileName: string): string => fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '') || fileName;
