/**
 * Authoring actions the panels, the toolbar, the menu and shortcuts share: each is a command of the headless
 * editor (shared/editor rigCommands.ts — one undo step, a refusal told as a toast) called with what the view
 * knows: the multi-selection (Ctrl-clicked bodies and joints) and the dialog's settings.
 */
import { DEFAULT_GENERATE, generateOptions, type GenerateSettings } from '../../../shared/editor';
import type { AuthoringSkeleton, BonePlan, MotorPreset } from '../../../shared/authoring';
import type { RigJoint } from '../../../shared/rig';
import { editor, notify } from '../state/editor';
import { useEditor } from '../state/store';
import { setAuthoring, useAuthoring } from './authoringStore';
import { usePreview } from './preview';

export { DEFAULT_GENERATE, generateOptions, type GenerateSettings };

/** The authoring input of the open creature at the document's scale (skeleton.scale). */
export const currentAuthoringSkeleton = (): AuthoringSkeleton | null => editor.edits.authoringSkeleton();

/** Which bones would get bodies with these settings, and why (the dialog's preview). */
export const previewPlan = (settings: GenerateSettings): BonePlan[] => editor.edits.previewPlan(settings);

/** Bodies and joints for every included bone (replacing what the rig had), as one undo step. */
export function generateBodies(settings: GenerateSettings): boolean {
  const r = editor.edits.generate(settings);
  // Show what was made: the rig's bodies and joints are hidden by default so a creature opened for viewing
  // reads clearly.
  if (r.ok) usePreview.setState((s) => ({ overlays: { ...s.overlays, bodies: true, joints: true } }));
  return r.ok;
}

export const openGenerateDialog = (): void => setAuthoring({ generateDialog: true });

/** Which of two bodies is the parent: the one whose bone is an ancestor of the other's. */
export const parentOf = (a: string, b: string): [string, string] => editor.edits.parentOf(a, b);

/** The two bodies a "create joint" would join: the selected body and one ctrl-clicked body. */
export function jointCandidates(): [string, string] | null {
  const sel = useEditor.getState().session.selection;
  const extra = useAuthoring.getState().extraBodies;
  if (sel?.kind !== 'body' && sel?.kind !== 'shape') return null;
  const other = extra.find((n) => n !== sel.name);
  return other ? parentOf(other, sel.name) : null;
}

export function createJointBetween(type: RigJoint['type']): boolean {
  const pair = jointCandidates();
  if (!pair) { notify('error', 'Create joint: select one body, then Ctrl-click a second one.'); return false; }
  const r = editor.edits.createJoint(pair[0], pair[1], type);
  if (r.ok) setAuthoring({ extraBodies: [] });
  return r.ok;
}

export const deleteSelection = (): void => { editor.edits.deleteSelection(); };
export const mirrorBody = (name: string): boolean => editor.edits.mirrorBody(name).ok;
/** Rig › Mirror Left → Right: every left body and joint copied onto its right-hand name (one undo step). */
export const mirrorLeftToRight = (): boolean => editor.edits.mirrorLeftToRight().ok;

/** The joints a motor operation applies to: the selected joint and every Ctrl-clicked one. */
export function selectedJoints(): string[] {
  const sel = useEditor.getState().session.selection;
  const names = sel?.kind === 'joint' ? [sel.name] : [];
  for (const j of useAuthoring.getState().extraJoints) if (!names.includes(j)) names.push(j);
  return names;
}

export const presetJoints = (preset: MotorPreset, joints = selectedJoints()): boolean => editor.edits.applyPreset(joints, preset).ok;
export const copyMotor = (from: string): void => { editor.edits.copyMotor(from); };
export const pasteMotor = (joints = selectedJoints()): boolean => editor.edits.pasteMotor(joints).ok;
/** Rig › Fix Mass Ratios (and the outliner's button): says what it fixed, or why nothing. */
export const fixMassRatiosNow = (): boolean => editor.edits.fixMassRatios().ok;
