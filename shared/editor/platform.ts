/**
 * What the editor needs from the world around it, injected: files and dialogs (a subset of shared/platform.ts's
 * PlatformApi — Electron's preload or the web build's IndexedDB bridge in the app, an in-memory map in
 * tests), a question to the user, the creature loader (three.js in the app, so it lives outside shared/),
 * the built-in examples, the preview that takes inputs, and the view state a project file records.
 * The editor never reaches any of these by import.
 */
import type { PlatformApi } from '../platform';
import type { Bone, RigDocument } from '../rig/schema';
import type { AuthoringSkeleton } from '../authoring/skeletonInput';
import type { Transform } from '../math/transform';
import type { ProjectSession } from '../project/projectFile';
import type { PreviewInput } from '../preview/input';
import type { TuneOptions, TuneResult } from '../authoring/tune';
import type { NoticeKind } from './types';

export type EditorFiles = Pick<PlatformApi,
  'pickCreature' | 'readCreature' | 'pickProject' | 'readProject' | 'saveProject' | 'exportRig' | 'addRecent'
  | 'writeAutosave' | 'readAutosave' | 'clearAutosave' | 'setDocumentState'>;

/** Loads creature files into the platform's creature objects `C` and reads what the editor needs from them. */
export interface CreatureLoader<C> {
  load(fileName: string, bytes: Uint8Array, resources: Record<string, Uint8Array>): Promise<C>;
  /** The skeleton in the rig format (what the document stores). */
  bones(creature: C): Bone[];
  /** Bone names, for checking a project's saved selection. */
  boneNames(creature: C): string[];
  /** The authoring input (bones, skinned vertices, clips) at the document's scale (skeleton.scale). */
  authoringSkeleton(creature: C, scale: number): AuthoringSkeleton;
  /** What to tell the user when it opens (clip problems, tolerated warnings). */
  notices(creature: C): { kind: NoticeKind; text: string }[];
  /** Free what it holds (GPU buffers) when it is replaced or closed. */
  dispose(creature: C): void;
}

/** The creatures shipped with the build (assets/creatures), opened by name. */
export interface Builtins {
  /** The creature opened by New. */
  readonly defaultName: string;
  has(name: string): boolean;
  fetch(name: string): Promise<{ fileName: string; bytes: Uint8Array }>;
  /** The rig shipped next to it (unvalidated JSON), or a rejection when there is none. */
  rig(name: string): Promise<unknown>;
}

/**
 * The preview the inputs go to: each is stamped at the frame shown and the preview re-simulates from there.
 * A refusal (e.g. the preview still runs an older rig) is thrown; the editor turns it into a result.
 */
export interface PreviewInputs {
  applyImpulseAt(body: string, point: readonly number[], impulse: readonly number[]): void;
  blast(centre: readonly number[], radius: number, strength: number): void;
  grab(body: string, point: readonly number[]): void;
  moveGrab(target: readonly number[]): void;
  releaseGrab(): void;
  setLimp(joints: string[] | 'all', limp: boolean): void;
  /** A body's pose on a recorded frame, or null (copy pose, tests). */
  bodyPoseAt?(body: string, frame: number): Transform | null;
  /** Every input on the timeline now, sorted by frame (what a saved project keeps). */
  list?(): PreviewInput[];
  /** Replace the timeline's inputs (a project opened with its inputs; [] clears them). Called right after
   *  the project's creature is shown: the preview keeps them through its own reset for the new creature. */
  replace?(inputs: PreviewInput[]): void;
}

export interface EditorPlatform<C> {
  files: EditorFiles;
  /** A modal question; resolves with the chosen label (the last label is the cancel). */
  ask(title: string, text: string, labels: string[]): Promise<string>;
  creatures: CreatureLoader<C>;
  builtins: Builtins;
  preview: PreviewInputs | null;
  /** The view state a saved project records besides the selection (skeleton shown, camera). */
  viewSession(): Omit<ProjectSession, 'selectedBone'>;
  /** Runs shared/authoring's tuneRig somewhere else (a Web Worker in the app: it simulates each joint's
   *  step response, 0.3–0.5 s of work on the shipped rigs); without it the editor runs it itself. */
  tuneRig?(rig: RigDocument, options: TuneOptions): Promise<TuneResult>;
}
