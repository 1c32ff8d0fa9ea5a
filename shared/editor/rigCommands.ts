/**
 * Rig commands: generate, joints and bodies, mirror, motor presets, copy / paste of motor settings, mass
 * ratios, rescale, and the named field edits of bodies, joints, motors, limits, the gait path and its
 * settings. Each is one undo step over a pure edit of shared/authoring (RigDocument → EditResult) and returns
 * a Result. Menu and toolbar commands also tell the user (a notice) what they did or why not; field edits
 * only return the refusal, which the panel shows at the field.
 */
import {
  addBody, addShape, applyPreset, checkMassRatios, removeShape, renameBody, setCollisionFilter, setDensity, setMass, setMaterial, copyMotorSettings, createJoint, fixMassRatios, generateRagdoll, mirrorSide, removeBody, removeJoint,
  rescaleRig, scaleForHeight, setJointLimits, setJointWorldFrame, setMotor, setShapeParams, sideOf, withGeneratedRagdoll,
  insertControlPoint, pathController, removeControlPoint, setControlPoint, setGaitEnabled, setGaitPreset, setGaitSetting, setMotorNumber, setSteeringTarget,
  type AuthoringSkeleton, type BonePlan, type EditResult, type GaitPreset, type GaitSetting, type GenerateOptions, type MotorPreset, type ShapeChoice,
} from '../authoring';
import { isBoneIncluded } from '../document/editorDocument';
import { renameCreature, setBoneIncluded, setBoneNote } from '../document/commands';
import type { RigDocument, RigJoint, RigMotor } from '../rig/schema';
import type { Transform } from '../math/transform';
import type { EditorCore } from './core';
import { err, ok, thrownText, type Result } from './types';

/** The Generate dialog's options. minBoneLength null: 3 % of the creature's height; totalMass null: 70 kg
 *  for a recognised biped, volume × density otherwise. keepHelpers / keepDigits: IK, control, twist and end
 *  bones / fingers and toes are judged like any other bone instead of merging into their parents. */
export interface GenerateSettings {
  shape: ShapeChoice; minBoneLength: number | null; density: number; totalMass: number | null;
  keepHelpers?: boolean; keepDigits?: boolean;
}
export const DEFAULT_GENERATE: GenerateSettings = { shape: 'auto', minBoneLength: null, density: 985, totalMass: null };

/** The Generate options for a rig (what the dialog previews and Generate uses). */
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

/** What rig commands use of the editor. */
export type RigAccess<C> = Pick<EditorCore<C>, 'platform' | 'rig' | 'creature' | 'selection' | 'getState' | 'edit' | 'editRig' | 'select' | 'notify' | 'refuse' | 'setMotorClipboard'>;

export class RigCommands<C> {
  constructor(private readonly editor: RigAccess<C>) {}

  /** A menu / toolbar rig edit: one undo step, a refusal told as a notice. */
  #run(what: string, label: string, f: (rig: RigDocument) => EditResult): Result {
    const r = this.editor.editRig(label, f);
    return r.ok ? r : this.editor.refuse(what, r.error);
  }

  #needRig(what: string): Result<RigDocument> {
    const rig = this.editor.rig;
    return rig ? ok(rig) : this.editor.refuse(what, { field: '', message: 'open a creature first.' });
  }

  // ------------------------------------------------------------------ generate

  /** The authoring input of the open creature at the document's scale (skeleton.scale). */
  authoringSkeleton(): AuthoringSkeleton | null {
    const { creature, rig } = this.editor;
    return creature && rig ? this.editor.platform.creatures.authoringSkeleton(creature, rig.skeleton.scale ?? 1) : null;
  }

  /** Which bones would get bodies with these settings, and why (the dialog's preview). */
  previewPlan(settings: GenerateSettings): BonePlan[] {
    const sk = this.authoringSkeleton(), rig = this.editor.rig;
    if (!sk || !rig) return [];
    try { return generateRagdoll(sk, generateOptions(settings, rig)).plan; } catch { return []; }
  }

  /** Bodies and joints for every included bone (replacing what the rig had), as one undo step. */
  generate(settings: GenerateSettings = DEFAULT_GENERATE): Result<{ bodies: number; joints: number; skipped: number }> {
    const { creature } = this.editor;
    if (!creature || !this.editor.rig) return this.editor.refuse('Generate bodies', { field: '', message: 'open a creature first.' });
    let skipped = 0;
    let summary = '';
    const r = this.#run('Generate bodies', 'Generate bodies', (rig) => {
      try {
        const generated = generateRagdoll(this.editor.platform.creatures.authoringSkeleton(creature, rig.skeleton.scale ?? 1), generateOptions(settings, rig));
        skipped = generated.skipped.length;
        const s = generated.summary;
        summary = `, ${s.totalMass.toFixed(1)} kg (${s.massSource === 'segments' ? 'biped segment fractions' : 'volume × density'})`;
        return { ok: true, rig: withGeneratedRagdoll(rig, generated) };
      } catch (e) {
        return { ok: false, field: 'options', message: thrownText(e) };
      }
    });
    if (!r.ok) return r;
    const rig = this.editor.rig!;
    this.editor.notify('info', `Generated ${rig.bodies.length} bodies and ${rig.joints.length} joints${summary}${skipped ? `; ${skipped} bones merged into their parents' bodies (helpers, end bones, fingers and toes, bones without vertices)` : ''}`);
    return ok({ bodies: rig.bodies.length, joints: rig.joints.length, skipped });
  }

  // ------------------------------------------------------------------ bodies and joints

  /** Which of two bodies is the parent: the one whose bone is an ancestor of the other's. */
  parentOf(a: string, b: string): [string, string] {
    const rig = this.editor.rig;
    if (!rig) return [a, b];
    const boneOf = (n: string) => rig.bodies.find((x) => x.name === n)?.bone;
    const parents = new Map(rig.skeleton.bones.map((x) => [x.name, x.parent]));
    const isAncestor = (anc: string | undefined, bone: string | undefined) => {
      for (let p = bone ? parents.get(bone) ?? null : null; p; p = parents.get(p) ?? null) if (p === anc) return true;
      return false;
    };
    return isAncestor(boneOf(b), boneOf(a)) ? [b, a] : [a, b];
  }

  /** A joint between two bodies (the parent found from the bones), named after the child; selects it. */
  createJoint(body1: string, body2: string, type: RigJoint['type']): Result<string> {
    const have = this.#needRig('Create joint');
    if (!have.ok) return have;
    const [bodyA, bodyB] = this.parentOf(body1, body2);
    let name = bodyB;
    for (let k = 2; have.value.joints.some((j) => j.name === name); k++) name = `${bodyB}_${k}`;
    const r = this.#run('Create joint', `Create joint ${name}`, (rig) => createJoint(rig, { name, bodyA, bodyB, type }));
    if (!r.ok) return r;
    this.editor.select({ kind: 'joint', name });
    return ok(name);
  }

  removeBody(name: string): Result {
    const r = this.#run('Remove body', `Remove body ${name}`, (rig) => removeBody(rig, name));
    if (r.ok && this.editor.selection?.name === name) this.editor.select(null);
    return r;
  }

  removeJoint(name: string): Result {
    const r = this.#run('Remove joint', `Remove joint ${name}`, (rig) => removeJoint(rig, name));
    if (r.ok && this.editor.selection?.kind === 'joint' && this.editor.selection.name === name) this.editor.select(null);
    return r;
  }

  /** Delete: the selected body or joint (nothing else is deletable). */
  deleteSelection(): Result {
    const sel = this.editor.selection;
    if (sel?.kind === 'body') return this.removeBody(sel.name);
    if (sel?.kind === 'joint') return this.removeJoint(sel.name);
    return err('Delete', 'select a body or a joint');
  }

  /** A body on a bone (a capsule along it unless a shape is given). */
  addBody(name: string, bone: string, shape?: Parameters<typeof addBody>[1]['shape']): Result {
    return this.editor.editRig(`Add body ${name}`, (rig) => addBody(rig, { name, bone, ...(shape ? { shape } : {}) }));
  }

  renameBody(name: string, newName: string): Result {
    return this.editor.editRig(`Rename body ${name}`, (rig) => renameBody(rig, name, newName));
  }

  /**
   * A body's physical fields as one undo step: mass (kg) or density (kg/m³), friction and restitution,
   * collision group and mask. The first refusal refuses the whole edit.
   */
  setBody(name: string, patch: { mass?: number; density?: number; friction?: number; restitution?: number; group?: number; mask?: number }, label = `Edit body ${name}`): Result {
    return this.editor.editRig(label, (rig0) => {
      let rig = rig0;
      const steps: ((r: RigDocument) => EditResult)[] = [];
      if (patch.mass !== undefined) steps.push((r) => setMass(r, name, patch.mass!));
      if (patch.density !== undefined) steps.push((r) => setDensity(r, name, patch.density!));
      if (patch.friction !== undefined || patch.restitution !== undefined) {
        steps.push((r) => setMaterial(r, name, { ...(patch.friction !== undefined ? { friction: patch.friction } : {}), ...(patch.restitution !== undefined ? { restitution: patch.restitution } : {}) }));
      }
      if (patch.group !== undefined || patch.mask !== undefined) {
        steps.push((r) => setCollisionFilter(r, name, { ...(patch.group !== undefined ? { group: patch.group } : {}), ...(patch.mask !== undefined ? { mask: patch.mask } : {}) }));
      }
      for (const step of steps) {
        const r = step(rig);
        if (!r.ok) return r;
        rig = r.rig;
      }
      return { ok: true, rig };
    });
  }

  addShape(body: string, shape: Parameters<typeof addShape>[2]): Result {
    return this.editor.editRig(`Add ${shape.type} (${body})`, (rig) => addShape(rig, body, shape));
  }

  removeShape(body: string, index: number): Result {
    return this.editor.editRig(`Remove shape (${body})`, (rig) => removeShape(rig, body, index));
  }

  /** A shape's pose or size (the shape gizmo, the body inspector). Field edit: the refusal is returned. */
  setShapeParams(body: string, index: number, patch: Partial<Record<string, unknown>>, label = `Edit shape (${body})`): Result {
    return this.editor.editRig(label, (rig) => setShapeParams(rig, body, index, patch));
  }

  /** Both joint frames from one world frame at rest (the joint gizmo). */
  setJointWorldFrame(joint: string, world: Transform, rest?: ReadonlyMap<string, Transform>, label = `Move joint anchor (${joint})`): Result {
    return this.editor.editRig(label, (rig) => setJointWorldFrame(rig, joint, world, rest));
  }

  setJointLimits(joint: string, limits: Parameters<typeof setJointLimits>[2], label = `Limits of ${joint}`): Result {
    return this.editor.editRig(label, (rig) => setJointLimits(rig, joint, limits));
  }

  setMotor(joint: string, patch: Partial<RigMotor>, label = `Motor of ${joint}`): Result {
    return this.editor.editRig(label, (rig) => setMotor(rig, joint, patch));
  }

  // ------------------------------------------------------------------ mirror, presets, clipboard, mass

  /** Mirror the side `name` is on onto the other side. */
  mirrorBody(name: string): Result {
    const side = sideOf(name);
    if (!side) return this.editor.refuse('Mirror', { field: '', message: `"${name}" has no side in its name (…_l / …_r, .L / .R, Left / Right).` });
    const r = this.#run('Mirror', `Mirror ${side} side`, (rig) => mirrorSide(rig, side));
    if (r.ok) this.editor.notify('info', `Mirrored the ${side} side onto the ${side === 'left' ? 'right' : 'left'}`);
    return r;
  }

  /** Rig › Mirror Left → Right: every left body and joint copied onto its right-hand name (one undo step). */
  mirrorLeftToRight(): Result {
    const rig = this.editor.rig;
    if (!rig || rig.bodies.length === 0) return this.editor.refuse('Mirror Left → Right', { field: '', message: 'generate or add bodies first.' });
    if (!rig.bodies.some((b) => sideOf(b.name) === 'left' || sideOf(b.bone) === 'left')) {
      return this.editor.refuse('Mirror Left → Right', { field: '', message: 'no body is on the left side (names ending _l, .L or Left).' });
    }
    const r = this.#run('Mirror Left → Right', 'Mirror left → right', (x) => mirrorSide(x, 'left'));
    if (r.ok) this.editor.notify('info', 'Mirrored the left side onto the right');
    return r;
  }

  applyPreset(joints: readonly string[], preset: MotorPreset): Result {
    if (joints.length === 0) return err('joints', 'select at least one joint');
    return this.#run('Motor preset', `Preset ${preset} on ${joints.length === 1 ? joints[0] : `${joints.length} joints`}`, (rig) => applyPreset(rig, joints, preset));
  }

  /** Copy a joint's motor settings to the editor's motor clipboard. */
  copyMotor(from: string): Result {
    const j = this.editor.rig?.joints.find((x) => x.name === from);
    if (!j || j.type === 'fixed') return this.editor.refuse('Copy motor', { field: '', message: `joint "${from}" has no motor.` });
    this.editor.setMotorClipboard({ from, motor: JSON.parse(JSON.stringify(j.motor)) as RigMotor });
    this.editor.notify('info', `Copied the motor settings of ${from}`);
    return ok();
  }

  /** Paste what was copied onto `joints` (not onto its source), even if the source has changed since. */
  pasteMotor(joints: readonly string[]): Result {
    const clip = this.editor.getState().motorClipboard;
    if (!clip) return err('Paste motor', 'nothing copied');
    if (joints.length === 0) return err('joints', 'select at least one joint');
    const targets = joints.filter((n) => n !== clip.from);
    return this.#run('Paste motor', `Paste motor to ${targets.length === 1 ? targets[0] : `${targets.length} joints`}`, (r) => {
      const src = r.joints.find((j) => j.name === clip.from);
      if (!src || src.type === 'fixed') return { ok: false, field: 'from', message: `the copied joint "${clip.from}" no longer exists; copy again` };
      const withSource = { ...r, joints: r.joints.map((j) => (j.name === clip.from && j.type !== 'fixed' ? { ...j, motor: clip.motor } : j)) } as RigDocument;
      const res = copyMotorSettings(withSource, clip.from, targets);
      return res.ok ? { ok: true, rig: { ...res.rig, joints: res.rig.joints.map((j) => (j.name === clip.from ? src : j)) } } : res;
    });
  }

  /** Rig › Fix Mass Ratios: every jointed pair over 10× in mass or inertia brought within it. ok with the
   *  number of pairs fixed. */
  fixMassRatios(): Result<number> {
    const rig = this.editor.rig;
    if (!rig) return this.editor.refuse('Rig menu', { field: '', message: 'open a creature first.' });
    if (rig.bodies.length === 0) return this.editor.refuse('Fix Mass Ratios', { field: '', message: 'the rig has no bodies yet.' });
    const issues = checkMassRatios(rig).length;
    if (issues === 0) {
      this.editor.notify('info', 'Mass ratios: every jointed pair is within 10×; nothing to fix.');
      return err('Fix Mass Ratios', 'nothing to fix');
    }
    const r = this.#run('Fix mass ratios', 'Fix mass ratios', (x) => ({ ok: true, rig: fixMassRatios(x) }));
    if (!r.ok) return r;
    this.editor.notify('info', `Fixed ${issues} jointed pair${issues === 1 ? '' : 's'} over the 10× mass or inertia ratio`);
    return ok(issues);
  }

  /** Rescale the creature (its rig) so it stands `height` metres tall: one undo step. ok with the factor. */
  rescaleTo(height: number, creatureName = 'the creature'): Result<number> {
    const sk = this.authoringSkeleton();
    if (!sk) return this.editor.refuse('Rescale', { field: '', message: 'open a creature first.' });
    let factor: number;
    try { factor = scaleForHeight(sk, height); } catch (e) {
      return this.editor.refuse(`Rescale ${creatureName}`, { field: '', message: thrownText(e) });
    }
    const r = this.editor.edit(`Rescale to ${height} m`, (d) => ({ ...d, rig: rescaleRig(d.rig, factor) }));
    if (!r.ok) return this.editor.refuse('Rescale', r.error);
    this.editor.notify('info', `Rescaled ${creatureName} ×${Number(factor.toPrecision(4))}: ${height} m tall`);
    return ok(factor);
  }

  // ------------------------------------------------------------------ the document's own fields

  rename(name: string): Result { return this.editor.editRig('Rename', (rig) => renameCreature(rig, name)); }
  setBoneIncluded(bone: string, included: boolean): Result {
    return this.editor.editRig(`${included ? 'Include' : 'Exclude'} ${bone}`, (rig) => setBoneIncluded(rig, bone, included));
  }
  setBoneNote(bone: string, note: string): Result { return this.editor.editRig(`Note on ${bone}`, (rig) => setBoneNote(rig, bone, note)); }

  // ------------------------------------------------------------------ the gait path and its settings

  setControlPoint(controller: string, index: number, point: readonly number[], label = `Move ${controller} point ${index + 1}`): Result {
    return this.editor.editRig(label, (rig) => setControlPoint(rig, controller, index, point));
  }

  /** Insert a point after `index`, halfway to the next; ok with the new point's index. */
  insertControlPoint(controller: string, index: number): Result<number> {
    const r = this.editor.editRig(`Insert ${controller} point`, (rig) => insertControlPoint(rig, controller, index));
    return r.ok ? ok(index + 1) : r;
  }

  removeControlPoint(controller: string, index: number): Result {
    return this.editor.editRig(`Remove ${controller} point ${index + 1}`, (rig) => removeControlPoint(rig, controller, index));
  }

  setSteeringTarget(controller: string, target: readonly number[] | null): Result {
    return this.editor.editRig('Move steering target', (rig) => setSteeringTarget(rig, controller, target));
  }

  setGaitSetting(controller: string, field: GaitSetting, value: number, label = `${controller} ${field}`): Result {
    return this.editor.editRig(label, (rig) => setGaitSetting(rig, controller, field, value));
  }

  setGaitEnabled(controller: string, enabled: boolean): Result {
    return this.editor.editRig(`${enabled ? 'Enable' : 'Disable'} ${controller}`, (rig) => setGaitEnabled(rig, controller, enabled));
  }

  /** A gait preset (tripod, wave, trot, walk, alternating) on the limbs sharing `controller`'s root. */
  setGaitPreset(controller: string, preset: GaitPreset): Result {
    return this.editor.editRig(`${controller}: ${preset} gait`, (rig) => setGaitPreset(rig, controller, preset));
  }

  setMotorNumber(joint: string, field: 'maxTorque' | 'errorReduction', value: number): Result {
    return this.editor.editRig(`${joint} ${field === 'maxTorque' ? 'τmax' : 'r'}`, (rig) => setMotorNumber(rig, joint, field, value));
  }

  /** The cyclic-path controller `name`, or null. */
  pathController(name: string) { return this.editor.rig ? pathController(this.editor.rig, name) : null; }
}
