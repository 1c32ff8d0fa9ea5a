/**
 * The editor's rig commands (shared/editor/rigCommands.ts), each driven headless with numbers: generate,
 * joints and bodies, shape / joint frame / limits / motor edits, mirror, presets, copy / paste, mass
 * ratios, rescale, the document's own fields, the gait path and its settings. Every one returns a Result;
 * undo restores the document deep-equal.
 */
import { describe, expect, it } from 'vitest';
import { checkMassRatios, jointWorldFrame, measureSkeleton, setMass } from '../../../shared/authoring';
import { bodyRestWorld, boneRestWorld } from '../../../shared/rig/restPose';
import { composeTransforms } from '../../../shared/math/transform';
import { boneNote, isBoneIncluded } from '../../../shared/document';
import { DEFAULT_GENERATE } from '../../../shared/editor';
import type { RigDocument } from '../../../shared/rig';
import type { Vec3 } from '../../../shared/math/vec3';
import type { Quat } from '../../../shared/math/quat';
import { openedEditor, TestEditor } from './testEditor';

const joint = (r: RigDocument, n: string) => r.joints.find((j) => j.name === n)!;
const motor = (r: RigDocument, n: string) => { const j = joint(r, n); if (j.type === 'fixed') throw new Error('fixed'); return j.motor; };

/** World centre of a body's first shape at rest. */
function shapeCentre(rig: RigDocument, body: string): Vec3 {
  const w = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones)).get(body)!;
  const s = rig.bodies.find((b) => b.name === body)!.shapes[0]!;
  return composeTransforms(w, { position: s.position as Vec3, rotation: s.rotation as Quat }).position;
}

describe('Editor rig commands', () => {
  it('generate: bodies and joints for the humanoid\'s included bones in one undo step; undo restores the bare rig', async () => {
    const e = new TestEditor();
    e.picks.push(e.putAsset('humanoid.glb'));
    await e.files.pickAndOpenCreature();
    const bare = structuredClone(e.document);
    const plan = e.edits.previewPlan(DEFAULT_GENERATE);
    const r = e.edits.generate(DEFAULT_GENERATE);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.bodies).toBe(plan.filter((p) => p.body).length);
    expect(r.value.bodies).toBeGreaterThanOrEqual(10);
    expect(r.value.joints).toBe(r.value.bodies - 1); // a tree
    const mass = e.rig!.bodies.reduce((m, b) => m + (b.mass ?? b.computed?.mass ?? 0), 0);
    expect(e.lastNotice).toMatch(new RegExp(`^Generated ${r.value.bodies} bodies and ${r.value.joints} joints, \\d+\\.\\d kg`));
    expect(mass === 0 || Math.abs(mass - 70) < 0.5).toBe(true); // a recognised biped: 70 kg by segment fractions
    expect(e.getState().history.depth).toBe(1);
    e.undo();
    expect(e.document).toEqual(bare);
    // Excluding a bone takes it out of the plan.
    expect(e.edits.setBoneIncluded('head', false).ok).toBe(true);
    expect(e.edits.previewPlan(DEFAULT_GENERATE).find((p) => p.bone === 'head')).toMatchObject({ body: false });
    expect(new TestEditor().edits.generate().ok).toBe(false);
  });

  it('createJoint names the joint after the child body, finds the parent from the bones, selects it; remove and delete undo', async () => {
    const e = await openedEditor('humanoid');
    expect(e.edits.createJoint('forearm_l', 'spine', 'ball')).toMatchObject({ ok: false, error: { message: expect.stringMatching(/already the child/) } });
    expect(e.edits.removeJoint('forearm_l').ok).toBe(true);
    const before = structuredClone(e.document);
    const r = e.edits.createJoint('forearm_l', 'spine', 'ball'); // order does not matter: the spine's bone is the ancestor
    expect(r).toEqual({ ok: true, value: 'forearm_l' });
    const j = joint(e.rig!, 'forearm_l');
    expect([j.bodyA, j.bodyB, j.type]).toEqual(['spine', 'forearm_l', 'ball']);
    expect(e.selection).toEqual({ kind: 'joint', name: 'forearm_l' });
    expect(e.edits.deleteSelection().ok).toBe(true);
    expect(e.selection).toBeNull();
    expect(e.document).toEqual(before);
    expect(e.edits.removeBody('nope').ok).toBe(false);
    expect(e.lastNotice).toMatch(/^Remove body: /);
    const n = e.rig!.bodies.length;
    e.select({ kind: 'body', name: 'forearm_l' });
    expect(e.edits.deleteSelection().ok).toBe(true);
    expect(e.rig!.bodies).toHaveLength(n - 1);
    e.undo();
    expect(e.document).toEqual(before);
  });

  it('body edits: add, rename, mass / friction / collision in one step (all or nothing), shapes added and removed', async () => {
    const e = await openedEditor();
    const before = structuredClone(e.document);
    expect(e.edits.setBody('forearm', { mass: 2, friction: 0.9, restitution: 0.1, group: 2, mask: 5 }).ok).toBe(true);
    const fa = e.rig!.bodies.find((b) => b.name === 'forearm')!;
    expect([fa.mass, fa.material?.friction, fa.material?.restitution, fa.collisionGroup, fa.collisionMask]).toEqual([2, 0.9, 0.1, 2, 5]);
    expect(e.getState().history.depth).toBe(1);
    const r = e.edits.setBody('forearm', { mass: 3, friction: -1 });
    expect(r.ok).toBe(false);
    expect(e.rig!.bodies.find((b) => b.name === 'forearm')!.mass).toBe(2); // the mass of a refused edit is not kept
    e.undo();
    expect(e.document).toEqual(before);
    const n = e.rig!.bodies.find((b) => b.name === 'hand')!.shapes.length;
    expect(e.edits.addShape('hand', { type: 'sphere', radius: 0.05, hollow: false, position: [0, 0.1, 0], rotation: [0, 0, 0, 1] }).ok).toBe(true);
    expect(e.rig!.bodies.find((b) => b.name === 'hand')!.shapes).toHaveLength(n + 1);
    expect(e.edits.removeShape('hand', n).ok).toBe(true);
    expect(e.rig!.bodies.find((b) => b.name === 'hand')!.shapes).toHaveLength(n);
    expect(e.edits.parentOf('hand', 'body')).toEqual(['body', 'hand']);
    expect(e.edits.parentOf('body', 'hand')).toEqual(['body', 'hand']);
    expect(e.edits.renameBody('hand', 'claw').ok).toBe(true);
    expect(e.rig!.joints.find((j) => j.name === 'wrist')!.bodyB).toBe('claw');
  });

  it('addBody puts a body on a bone that has none; a second body on a taken name is refused', async () => {
    const e = new TestEditor();
    e.picks.push(e.putAsset('humanoid.glb'));
    await e.files.pickAndOpenCreature(); // the bare skeleton: no bodies yet
    const free = e.rig!.skeleton.bones[0]!;
    const n = e.rig!.bodies.length;
    expect(n).toBe(0);
    expect(e.edits.addBody(free.name, free.name).ok).toBe(true);
    expect(e.rig!.bodies).toHaveLength(n + 1);
    expect(e.rig!.bodies.at(-1)).toMatchObject({ name: free.name, bone: free.name });
    expect(e.edits.addBody(free.name, free.name).ok).toBe(false);
    expect(e.edits.addBody('x', 'no-such-bone').ok).toBe(false);
  });

  it('setShapeParams and setJointWorldFrame: the gizmos\' edits, with the anchors meeting at rest within 1e-5 m', async () => {
    const e = await openedEditor();
    expect(e.edits.setShapeParams('forearm', 0, { position: [0.01, 0.2, -0.02] }).ok).toBe(true);
    expect(e.rig!.bodies.find((b) => b.name === 'forearm')!.shapes[0]!.position).toEqual([0.01, 0.2, -0.02]);
    const W = jointWorldFrame(e.rig!, 'elbow')!;
    const moved = { position: [W.position[0] + 0.05, W.position[1] - 0.03, W.position[2]] as Vec3, rotation: W.rotation };
    expect(e.edits.setJointWorldFrame('elbow', moved).ok).toBe(true);
    const rest = bodyRestWorld(e.rig!.bodies, boneRestWorld(e.rig!.skeleton.bones));
    const j = joint(e.rig!, 'elbow');
    const a = composeTransforms(rest.get(j.bodyA)!, { position: j.frameA.position as Vec3, rotation: j.frameA.rotation as Quat }).position;
    const b = composeTransforms(rest.get(j.bodyB)!, { position: j.frameB.position as Vec3, rotation: j.frameB.rotation as Quat }).position;
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(a[k]! - moved.position[k]!)).toBeLessThan(1e-5);
      expect(Math.abs(b[k]! - moved.position[k]!)).toBeLessThan(1e-5);
    }
    expect(e.edits.setJointWorldFrame('elbow', { position: [Number.NaN, 0, 0], rotation: [0, 0, 0, 1] })).toMatchObject({ ok: false, error: { field: 'joint' } });
    expect(e.edits.setJointWorldFrame('knee', moved)).toEqual({ ok: false, error: { field: 'joint', message: 'there is no joint named "knee"' } });
  });

  it('setJointLimits and setMotor: accepted values stored, out-of-range ones refused with the field', async () => {
    const e = await openedEditor();
    expect(e.edits.setJointLimits('elbow', { limit: [-1, 0.5] }).ok).toBe(true);
    const el = joint(e.rig!, 'elbow');
    expect(el.type === 'hinge' && el.limit).toEqual([-1, 0.5]);
    expect(e.edits.setJointLimits('elbow', { limit: [1, -1] }).ok).toBe(false);
    expect(e.edits.setMotor('elbow', { maxTorque: 42 }).ok).toBe(true);
    expect(motor(e.rig!, 'elbow').maxTorque).toBe(42);
    const bad = e.edits.setMotor('elbow', { maxTorque: -1 });
    expect(bad.ok).toBe(false);
    expect(motor(e.rig!, 'elbow').maxTorque).toBe(42);
  });

  it('mirror left → right puts each right body where the mirrored left one is: x = −x within 1.5 mm (offsets are stored to 1 mm)', async () => {
    const e = await openedEditor('humanoid');
    // Move the left upper arm's shape so the two sides differ first.
    expect(e.edits.setShapeParams('upper_arm_l', 0, { position: [0.031, 0.12, -0.017] }).ok).toBe(true);
    const l0 = shapeCentre(e.rig!, 'upper_arm_l'), r0 = shapeCentre(e.rig!, 'upper_arm_r');
    expect(Math.hypot(r0[0] + l0[0], r0[1] - l0[1], r0[2] - l0[2])).toBeGreaterThan(0.01);
    expect(e.edits.mirrorLeftToRight().ok).toBe(true);
    expect(e.lastNotice).toBe('Mirrored the left side onto the right');
    for (const [left, right] of [['upper_arm_l', 'upper_arm_r'], ['thigh_l', 'thigh_r'], ['foot_l', 'foot_r']] as const) {
      const l = shapeCentre(e.rig!, left), r = shapeCentre(e.rig!, right);
      expect(Math.abs(r[0] + l[0])).toBeLessThan(1.5e-3);
      expect(Math.abs(r[1] - l[1])).toBeLessThan(1.5e-3);
      expect(Math.abs(r[2] - l[2])).toBeLessThan(1.5e-3);
    }
    expect(e.edits.mirrorBody('pelvis').ok).toBe(false);
    expect(e.lastNotice).toMatch(/^Mirror: "pelvis" has no side in its name/);
    const mine = await openedEditor();
    expect(mine.edits.mirrorLeftToRight().ok).toBe(false);
    expect(mine.lastNotice).toBe('Mirror Left → Right: no body is on the left side (names ending _l, .L or Left).');
  });

  it('presets scale the motors of the chosen joints; copy / paste copies one joint\'s motor onto others', async () => {
    const e = await openedEditor();
    const before = motor(e.rig!, 'elbow');
    expect(e.edits.applyPreset(['elbow'], 'limp').ok).toBe(true);
    expect(motor(e.rig!, 'elbow')).not.toEqual(before);
    expect(motor(e.rig!, 'shoulder')).toEqual(motor(structuredClone(e.rig!), 'shoulder'));
    expect(e.edits.applyPreset([], 'stiff').ok).toBe(false);
    e.undo();
    expect(motor(e.rig!, 'elbow')).toEqual(before);

    expect(e.edits.copyMotor('shoulder').ok).toBe(true);
    expect(e.getState().motorClipboard?.from).toBe('shoulder');
    expect(e.edits.pasteMotor(['elbow', 'wrist', 'shoulder']).ok).toBe(true);
    const src = motor(e.rig!, 'shoulder');
    for (const n of ['elbow', 'wrist']) expect(motor(e.rig!, n).maxTorque).toBe(src.maxTorque);
    expect(e.getState().history.undoLabel).toBe('Paste motor to 2 joints');
    expect(e.edits.copyMotor('nope').ok).toBe(false);
  });

  it('fix mass ratios brings every jointed pair\'s mass ratio to 10× (1e-6), says how many it fixed, and nothing when none is over', async () => {
    const e = await openedEditor();
    // The forearm (the hand carries 0.6 kg of per-shape weights: a lighter total is refused). 32× is over
    // the editor's 10× warning but within the 100× validation refuses (MAX_JOINTED_MASS_RATIO).
    expect(e.editRig('Light forearm', (r) => setMass(r, 'forearm', 0.1)).ok).toBe(true);
    const issues = checkMassRatios(e.rig!);
    expect(issues.find((i) => i.joint === 'elbow')!.massRatio).toBeCloseTo(32, 9); // upper arm 3.2 kg / forearm 0.1 kg
    const r = e.edits.fixMassRatios();
    expect(r).toEqual({ ok: true, value: issues.length });
    for (const i of checkMassRatios(e.rig!)) expect(i.massRatio).toBeLessThanOrEqual(10 + 1e-6);
    expect(e.rig!.bodies.find((b) => b.name === 'forearm')!.mass).toBeCloseTo(0.32, 6); // upper arm / 10
    expect(e.lastNotice).toBe(`Fixed ${issues.length} jointed pair${issues.length === 1 ? '' : 's'} over the 10× mass or inertia ratio`);
    // The shipped humanoid is within 10× everywhere: nothing to fix, said so, nothing recorded.
    const h = await openedEditor('humanoid');
    expect(h.edits.fixMassRatios().ok).toBe(false);
    expect(h.lastNotice).toBe('Mass ratios: every jointed pair is within 10×; nothing to fix.');
    expect(h.getState().history.depth).toBe(0);
  });

  it('rescale makes the creature stand at the height asked, within 1e-6 relative', async () => {
    const e = await openedEditor();
    const r = e.edits.rescaleTo(2, 'armed-mine.glb');
    expect(r.ok).toBe(true);
    const h = measureSkeleton(e.edits.authoringSkeleton()!).height;
    expect(Math.abs(h - 2) / 2).toBeLessThan(1e-6);
    expect(e.rig!.skeleton.scale).toBeCloseTo(r.ok ? r.value : 0, 12);
    expect(e.edits.rescaleTo(-1).ok).toBe(false);
  });

  it('rename, bone include and bone note: the document\'s own fields, refusals naming the field', async () => {
    const e = await openedEditor();
    expect(e.edits.rename('  Crab ').ok).toBe(true);
    expect(e.rig!.name).toBe('Crab');
    expect(e.edits.rename('  ')).toEqual({ ok: false, error: { field: 'Name', message: 'must not be empty.' } });
    expect(e.edits.setBoneIncluded('hand', false).ok).toBe(true);
    expect(isBoneIncluded(e.rig!, 'hand')).toBe(false);
    expect(e.edits.setBoneNote('body', 'ballast').ok).toBe(true);
    expect(boneNote(e.rig!, 'body')).toBe('ballast');
    expect(e.edits.setBoneNote('tail', 'x')).toEqual({ ok: false, error: { field: 'Bone "tail"', message: "not in this creature's skeleton." } });
    expect(e.getState().history.depth).toBe(3);
  });

  it('path and gait: move / insert / remove points, steering target, settings, enable, chain motors', async () => {
    const e = await openedEditor();
    const c = e.edits.pathController('hand-path')!;
    const n = c.controlPoints.length;
    const p0 = c.controlPoints[0]!, p1 = c.controlPoints[1]!;
    const ins = e.edits.insertControlPoint('hand-path', 0);
    expect(ins).toEqual({ ok: true, value: 1 });
    const mid = e.edits.pathController('hand-path')!.controlPoints[1]!;
    for (let k = 0; k < 3; k++) expect(Math.abs(mid[k]! - (p0[k]! + p1[k]!) / 2)).toBeLessThan(1e-12);
    expect(e.edits.setControlPoint('hand-path', 1, [0.1, 0.2, 0.3]).ok).toBe(true);
    expect(e.edits.pathController('hand-path')!.controlPoints[1]).toEqual([0.1, 0.2, 0.3]);
    expect(e.edits.removeControlPoint('hand-path', 1).ok).toBe(true);
    expect(e.edits.pathController('hand-path')!.controlPoints).toHaveLength(n);
    expect(e.edits.setSteeringTarget('hand-path', [2, 0, 3]).ok).toBe(true);
    expect(e.edits.pathController('hand-path')!.steering.target).toEqual([2, 0, 3]);
    expect(e.edits.setGaitSetting('hand-path', 'rate', 0.8).ok).toBe(true);
    expect(e.edits.pathController('hand-path')!.rate).toBe(0.8);
    expect(e.edits.setGaitSetting('hand-path', 'phaseOffset', 1.5)).toEqual({ ok: false, error: { field: 'hand-path phaseOffset', message: 'must be < 1, got 1.5.' } });
    expect(e.edits.setGaitEnabled('hand-path', false).ok).toBe(true);
    expect(e.edits.pathController('hand-path')!.enabled).toBe(false);
    const jn = c.chain[0]!;
    expect(e.edits.setMotorNumber(jn, 'maxTorque', 12).ok).toBe(true);
    expect(motor(e.rig!, jn).maxTorque).toBe(12);
    expect(e.edits.setControlPoint('nope', 0, [0, 0, 0])).toEqual({ ok: false, error: { field: 'Controller "nope"', message: 'not a cyclic-path controller of this rig.' } });
  });
});
