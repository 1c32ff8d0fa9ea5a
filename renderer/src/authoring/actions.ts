/**
 * Authoring actions the panels, the toolbar, the menu and shortcuts share. Each is one undo step; each
 * reports a refusal as a toast (panel fields show theirs at the field instead, through rigEdit).
 */
import {
  applyPreset, copyMotorSettings, createJoint, fixMassRatios, generateRagdoll, mirrorSide, removeBody, removeJoint,
  sideOf, withGeneratedRagdoll, type AuthoringSkeleton, type BonePlan, type GenerateOptions, type MotorPreset, type ShapeChoice,
} from '../../../shared/authoring';
import { isBoneIncluded } from '../../../shared/document';
import type { RigDocument, RigJoint } from '../../../shared/rig';
import { notify, select } from '../state/editor';
import { useEditor } from '../state/store';
import { setAuthoring, useAuthoring } from './authoringStore';
import { authoringSkeleton } from './creatureInput';
import { rigEdit } from './rigEdit';
import { usePreview } from './preview';

/** The Generate dialog's options. minBoneLength null: 3 % of the creature's height; totalMass null: 70 kg
 *  for a recognised biped, volume × density otherwise. keepHelpers / keepDigits: IK, control, twist and end
 *  bones / fingers and toes are judged like any other bone instead of merging into their parents. */
export interface GenerateSettings {
  shape: ShapeChoice; minBoneLength: number | null; density: number; totalMass: number | null;
  keepHelpers?: boolean; keepDigits?: boolean;
}
export const DEFAULT_GENERATE: GenerateSettings = { shape: 'auto', minBoneLength: null, density: 985, totalMass: null };

/** The Generate options for the current document (what the dialog previews and Generate uses). */
export function generateOptions(settings: GenerateSettings, rig: RigDocument): GenerateOptions {
  return {
    shape: settings.shape, density: settings.density,
    ...(settings.minBoneLength !== null ? { minBoneLength: settings.minBoneLength } : {}),
    ...(settings.totalMass !== null ? { totalMass: settings.totalMass } : {}),
    ...(settings.keepHelpers ? { keepHelpers: true } : {}),
    ...(settings.keepDigits ? { keepDigits: true } : {}),
    include: (bone) => isBoneIncluded(rig, bone),
  };
}

/** The authoring input of the open creature at the document's scale (skeleton.scale). */
export function currentAuthoringSkeleton(): AuthoringSkeleton | null {
  const { creature, document } = useEditor.getState();
  return creature && document ? authoringSkeleton(creature, document.rig.skeleton.scale ?? 1) : null;
}

/** Which bones would get bodies with these settings, and why (the dialog's preview). */
export function previewPlan(settings: GenerateSettings): BonePlan[] {
  const { document } = useEditor.getState();
  const sk = currentAuthoringSkeleton();
  if (!sk || !document) return [];
  try {
    return generateRagdoll(sk, generateOptions(settings, document.rig)).plan;
  } catch {
    return [];
  }
}

const report = (r: { message: string; field: string } | null, what: string): boolean => {
  if (r) notify('error', `${what}: ${r.field ? `${r.field}: ` : ''}${r.message}`);
  return r === null;
};

/** Bodies and joints for every included bone (replacing what the rig had), as one undo step. */
export function generateBodies(settings: GenerateSettings): boolean {
  const { creature, document } = useEditor.getState();
  if (!creature || !document) { notify('error', 'Generate bodies: open a creature first.'); return false; }
  let skipped = 0;
  let summary = '';
  const ok = report(rigEdit('Generate bodies', (rig) => {
    try {
      const generated = generateRagdoll(authoringSkeleton(creature, rig.skeleton.scale ?? 1), generateOptions(settings, rig));
      skipped = generated.skipped.length;
      const s = generated.summary;
      summary = `, ${s.totalMass.toFixed(1)} kg (${s.massSource === 'segments' ? 'biped segment fractions' : 'volume × density'})`;
      return { ok: true, rig: withGeneratedRagdoll(rig, generated) };
    } catch (e) {
      return { ok: false, field: 'options', message: e instanceof Error ? e.message : String(e) };
    }
  }), 'Generate bodies');
  if (ok) {
    // Show what was made: the rig's bodies and joints are hidden by default so a creature opened for viewing
    // reads clearly.
    usePreview.setState((s) => ({ overlays: { ...s.overlays, bodies: true, joints: true } }));
    const rig = useEditor.getState().document!.rig;
    notify('info', `Generated ${rig.bodies.length} bodies and ${rig.joints.length} joints${summary}${skipped ? `; ${skipped} bones merged into their parents' bodies (helpers, end bones, fingers and toes, bones without vertices)` : ''}`);
  }
  return ok;
}

export const openGenerateDialog = (): void => setAuthoring({ generateDialog: true });

/** Which of two bodies is the parent: the one whose bone is an ancestor of the other's. */
export function parentOf(a: string, b: string): [string, string] {
  const rig = useEditor.getState().document?.rig;
  if (!rig) return [a, b];
  const boneOf = (n: string) => rig.bodies.find((x) => x.name === n)?.bone;
  const parents = new Map(rig.skeleton.bones.map((x) => [x.name, x.parent]));
  const isAncestor = (anc: string | undefined, bone: string | undefined) => {
    for (let p = bone ? parents.get(bone) ?? null : null; p; p = parents.get(p) ?? null) if (p === anc) return true;
    return false;
  };
  return isAncestor(boneOf(b), boneOf(a)) ? [b, a] : [a, b];
}

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
  const [bodyA, bodyB] = pair;
  const rig = useEditor.getState().document!.rig;
  let name = bodyB;
  for (let k = 2; rig.joints.some((j) => j.name === name); k++) name = `${bodyB}_${k}`;
  const ok = report(rigEdit(`Create joint ${name}`, (r) => createJoint(r, { name, bodyA, bodyB, type })), 'Create joint');
  if (ok) { setAuthoring({ extraBodies: [] }); select({ kind: 'joint', name }); }
  return ok;
}

export function deleteSelection(): void {
  const sel = useEditor.getState().session.selection;
  if (sel?.kind === 'body') { if (report(rigEdit(`Remove body ${sel.name}`, (r) => removeBody(r, sel.name)), 'Remove body')) select(null); }
  else if (sel?.kind === 'joint') { if (report(rigEdit(`Remove joint ${sel.name}`, (r) => removeJoint(r, sel.name)), 'Remove joint')) select(null); }
}

export function mirrorBody(name: string): boolean {
  const side = sideOf(name);
  if (!side) { notify('error', `Mirror: "${name}" has no side in its name (…_l / …_r, .L / .R, Left / Right).`); return false; }
  const ok = report(rigEdit(`Mirror ${side} side`, (r) => mirrorSide(r, side)), 'Mirror');
  if (ok) notify('info', `Mirrored the ${side} side onto the ${side === 'left' ? 'right' : 'left'}`);
  return ok;
}

/** Rig › Mirror Left → Right: every left body and joint copied onto its right-hand name (one undo step). */
export function mirrorLeftToRight(): boolean {
  const rig = useEditor.getState().document?.rig;
  if (!rig || rig.bodies.length === 0) { notify('error', 'Mirror Left → Right: generate or add bodies first.'); return false; }
  if (!rig.bodies.some((b) => sideOf(b.name) === 'left' || sideOf(b.bone) === 'left')) {
    notify('error', 'Mirror Left → Right: no body is on the left side (names ending _l, .L or Left).');
    return false;
  }
  const ok = report(rigEdit('Mirror left → right', (r) => mirrorSide(r, 'left')), 'Mirror Left → Right');
  if (ok) notify('info', 'Mirrored the left side onto the right');
  return ok;
}

/** The joints a motor operation applies to: the selected joint and every Ctrl-clicked one. */
export function selectedJoints(): string[] {
  const sel = useEditor.getState().session.selection;
  const names = sel?.kind === 'joint' ? [sel.name] : [];
  for (const j of useAuthoring.getState().extraJoints) if (!names.includes(j)) names.push(j);
  return names;
}

export function presetJoints(preset: MotorPreset, joints = selectedJoints()): boolean {
  if (joints.length === 0) return false;
  return report(rigEdit(`Preset ${preset} on ${joints.length === 1 ? joints[0] : `${joints.length} joints`}`, (r) => applyPreset(r, joints, preset)), 'Motor preset');
}

export function copyMotor(from: string): void {
  const j = useEditor.getState().document?.rig.joints.find((x) => x.name === from);
  if (!j || j.type === 'fixed') { notify('error', `Copy motor: joint "${from}" has no motor.`); return; }
  setAuthoring({ motorClipboard: { from, motor: structuredClone(j.motor) } });
  notify('info', `Copied the motor settings of ${from}`);
}

export function pasteMotor(joints = selectedJoints()): boolean {
  const clip = useAuthoring.getState().motorClipboard;
  if (!clip || joints.length === 0) return false;
  const targets = joints.filter((n) => n !== clip.from);
  return report(rigEdit(`Paste motor to ${targets.length === 1 ? targets[0] : `${targets.length} joints`}`, (r) => {
    // Paste what was copied, even if the source joint has changed or gone since.
    const withSource = { ...r, joints: r.joints.map((j) => (j.name === clip.from && j.type !== 'fixed' ? { ...j, motor: clip.motor } : j)) };
    const src = r.joints.find((j) => j.name === clip.from);
    if (src && src.type !== 'fixed') {
      const res = copyMotorSettings(withSource as typeof r, clip.from, targets);
      return res.ok ? { ok: true, rig: { ...res.rig, joints: res.rig.joints.map((j) => (j.name === clip.from ? src : j)) } } : res;
    }
    return { ok: false, field: 'from', message: `the copied joint "${clip.from}" no longer exists; copy again` };
  }), 'Paste motor');
}

export function fixMassRatiosNow(): boolean {
  return report(rigEdit('Fix mass ratios', (r) => ({ ok: true, rig: fixMassRatios(r) })), 'Fix mass ratios');
}
