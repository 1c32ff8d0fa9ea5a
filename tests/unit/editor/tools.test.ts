/**
 * The editor's Tune… and Apply Rig From… (shared/editor/tools.ts), headless: tuning the Armed Mine gives
 * achieved settle times within 20 % of the request and applies as one undo step; a tune computed on an older
 * rig is refused; the platform's tune runner (the app's worker) is used when given; a rig applied to the
 * creature it came from gives the same bodies; unmatched bones are listed, nothing silently dropped.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tuneRig } from '../../../shared/authoring/tune';
import type { RigDocument } from '../../../shared/rig';
import { assetsDir, openedEditor } from './testEditor';

const shipped = (name: string): string => readFileSync(new URL(`${name}.rig.json`, assetsDir), 'utf8');
const motorOf = (rig: RigDocument, joint: string) => { const j = rig.joints.find((x) => x.name === joint)!; return j.type === 'fixed' ? null : j.motor; };

describe('Tune…', () => {
  it('the Armed Mine at 0.3 s: every joint settles within 20 %, applied as one undo step that undo takes back', async () => {
    const e = await openedEditor();
    const before = e.rig!;
    const depth = e.getState().history.depth;
    const r = await e.tools.tune({ settle: 0.3, overshoot: 5 });
    expect(r.ok).toBe(true);
    const report = r.ok ? r.value : [];
    expect(report.map((j) => j.joint)).toEqual(['shoulder', 'elbow', 'wrist']);
    for (const j of report) {
      expect(j.ok).toBe(true);
      expect(j.requested.settle).toBe(0.3);
      expect(Math.abs(j.achieved!.settle! - 0.3) / 0.3).toBeLessThanOrEqual(0.2);
      expect(j.achieved!.overshoot).toBeLessThan(1); // position motors never overshoot
      expect(motorOf(e.rig!, j.joint)!.errorReduction).toBeCloseTo(j.params.errorReduction, 12);
      expect(motorOf(e.rig!, j.joint)!.maxTorque).toBeCloseTo(j.params.maxTorque, 9);
    }
    expect(e.getState().history.depth).toBe(depth + 1);
    expect(e.getState().history.undoLabel).toBe('Tune 3 joints (0.3 s)');
    expect(e.lastNotice).toBe('Tuned 3 joints for 0.3 s: 3 of 3 within 20 %');
    // The same numbers as the library (and the CLI) compute.
    const lib = tuneRig(before, { settle: 0.3, overshoot: 5 });
    expect(e.rig!.joints).toEqual(lib.rig.joints);
    expect(e.undo().ok).toBe(true);
    expect(e.rig).toEqual(before);
  });

  it('only the selected joints change; the report says requested vs achieved per joint', async () => {
    const e = await openedEditor('humanoid');
    const before = e.rig!;
    const plan = await e.tools.computeTune({ settle: 0.3, overshoot: 5, joints: ['forearm_l', 'shin_l'] });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(e.rig).toBe(before); // computing changes nothing
    const r = e.tools.applyTune(plan.value);
    expect(r.ok).toBe(true);
    for (const j of e.rig!.joints) {
      if (j.name === 'forearm_l' || j.name === 'shin_l') expect(motorOf(e.rig!, j.name)).not.toEqual(motorOf(before, j.name));
      else expect(j).toBe(before.joints.find((x) => x.name === j.name));
    }
    const forearm = plan.value.result.joints.find((j) => j.joint === 'forearm_l')!;
    expect(forearm.mode).toBe('pd');
    expect(Math.abs(forearm.achieved!.settle! - 0.3) / 0.3).toBeLessThanOrEqual(0.2);
    expect(forearm.achieved!.overshoot).toBeLessThanOrEqual(5 + 2);
  });

  it('refusals name the field and reason; a tune of an older rig is refused; the platform runner is used', async () => {
    const e = await openedEditor();
    expect(e.tools.tunableJoints()).toEqual(['shoulder', 'elbow', 'wrist']);
    expect(e.tools.tunableJoints(['elbow', 'nope'])).toEqual(['elbow']);
    expect(await e.tools.computeTune({ settle: -1 })).toEqual({ ok: false, error: { field: 'Settle time', message: 'must be > 0 s, got -1' } });
    expect(await e.tools.computeTune({ settle: 0.3, overshoot: 100 })).toEqual({ ok: false, error: { field: 'Overshoot', message: 'must be ≥ 0 % and < 100 %, got 100 %' } });
    expect(await e.tools.computeTune({ settle: 0.3, joints: ['knee'] })).toEqual({ ok: false, error: { field: 'Joints', message: 'there is no joint named "knee"' } });
    const plan = await e.tools.computeTune({ settle: 0.5 });
    expect(plan.ok).toBe(true);
    expect(e.edits.setMotorNumber('elbow', 'maxTorque', 20).ok).toBe(true);
    expect(plan.ok && e.tools.applyTune(plan.value)).toEqual({ ok: false, error: { field: 'Tune', message: 'the rig changed while tuning; tune again' } });

    let calls = 0;
    e.platform.tuneRig = async (rig, options) => { calls++; return tuneRig(rig, { ...options, verify: false }); };
    const r = await e.tools.tune({ settle: 0.5 });
    expect(calls).toBe(1);
    expect(r).toMatchObject({ ok: true });
    expect(r.ok && r.value.every((j) => j.achieved === null)).toBe(true);
    e.platform.tuneRig = async () => { throw new Error('the tune worker failed'); };
    expect(await e.tools.tune({ settle: 0.5 })).toEqual({ ok: false, error: { field: 'Tune', message: 'the tune worker failed' } });
    expect(e.lastNotice).toBe('Tune: Tune: the tune worker failed');
  });

  it('a joint that cannot reach the request says why', async () => {
    const e = await openedEditor('humanoid');
    // 20 ms is two steps at 1/100 s: no motor follows, and the report says so.
    const plan = await e.tools.computeTune({ settle: 0.02, joints: ['spine'] });
    expect(plan.ok).toBe(true);
    const j = plan.ok ? plan.value.result.joints[0]! : null;
    expect(j!.ok).toBe(false);
    expect(j!.why).toMatch(/steps of|saturated|flexes|did not stay/);
  });
});

describe('Apply Rig From…', () => {
  it('the humanoid rig applied to the humanoid: the same bodies and joints, one undo step, every bone matched', async () => {
    const e = await openedEditor('humanoid');
    const before = e.rig!;
    const depth = e.getState().history.depth;
    const r = e.tools.applyRigText(shipped('humanoid'), 'humanoid.rig.json');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.unmatched).toEqual([]);
    expect(r.value.dropped).toEqual([]);
    expect(r.value.matched).toHaveLength(13);
    expect(r.value.matched.every((m) => m.kind === 'exact' && m.from === m.to)).toBe(true);
    const after = e.rig!;
    expect(after.bodies.map((b) => b.name)).toEqual(before.bodies.map((b) => b.name));
    for (const b of after.bodies) {
      const o = before.bodies.find((x) => x.name === b.name)!;
      for (let k = 0; k < 3; k++) expect(b.offset.position[k]!).toBeCloseTo(o.offset.position[k]!, 9);
    }
    expect(after.joints.map((j) => j.name)).toEqual(before.joints.map((j) => j.name));
    expect(after.name).toBe(before.name);
    expect(after.skeleton).toBe(before.skeleton);
    expect(e.getState().history.depth).toBe(depth + 1);
    expect(e.getState().history.undoLabel).toBe('Apply rig from humanoid.rig.json');
    expect(e.lastNotice).toBe('Applied the rig from humanoid.rig.json: 13 of 13 bones matched; 13 bodies, 12 joints, 0 controllers');
    e.undo();
    expect(e.rig).toEqual(before);
  });

  it('unmatched bones and what they took are listed in a notice and a dialog, nothing silently dropped', async () => {
    const e = await openedEditor('humanoid');
    const source = JSON.parse(shipped('humanoid')) as RigDocument;
    // A rig whose head bone is called "antenna": no bone of the humanoid matches it.
    for (const b of source.skeleton.bones) if (b.name === 'head') b.name = 'antenna';
    for (const b of source.bodies) if (b.bone === 'head') b.bone = 'antenna';
    const r = e.tools.applyRigText(JSON.stringify(source), 'odd.rig.json');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.unmatched).toEqual(['antenna']);
    expect(r.value.dropped).toEqual([
      { kind: 'body', name: 'head', reason: 'its bone "antenna" has no match in the target skeleton' },
      { kind: 'joint', name: 'head', reason: 'its body "head" was left out' },
    ]);
    expect(e.rig!.bodies).toHaveLength(12);
    expect(e.lastNotice).toBe('Applied the rig from odd.rig.json: 12 of 13 bones matched; 12 bodies, 11 joints, 0 controllers. Unmatched bones (1): antenna (+2 more in the dialog)');
    await Promise.resolve();
    expect(e.asked.at(-1)!.text).toContain('Left out joint "head": its body "head" was left out');
  });

  it('a project file works too; a broken file is refused naming it; picking goes through the project dialog', async () => {
    const e = await openedEditor('humanoid');
    const project = JSON.stringify({ format: 'marionette-project', version: 2, creature: { name: 'h.glb', path: 'h.glb' }, rig: JSON.parse(shipped('armed-mine')) });
    // The Armed Mine's trunk maps onto the humanoid's spine by anatomy; its one-sided arm matches no side.
    const fromMine = e.tools.applyRigText(project, 'mine.marionette');
    expect(fromMine.ok).toBe(true);
    if (!fromMine.ok) return;
    expect(fromMine.value.matched).toEqual([{ from: 'body', to: 'spine', kind: 'anatomy' }]);
    expect(fromMine.value.unmatched).toEqual(['upper_arm', 'forearm', 'hand']);
    expect(fromMine.value.dropped.map((d) => `${d.kind} ${d.name}`)).toEqual(['body upper_arm', 'body forearm', 'body hand', 'joint shoulder', 'joint elbow', 'joint wrist', 'controller hand-path']);
    expect(e.rig!.bodies.map((b) => `${b.name}@${b.bone}`)).toEqual(['body@spine']);
    expect(e.tools.applyRigText('{ nope', 'broken.json')).toMatchObject({ ok: false, error: { field: 'broken.json' } });
    expect(e.lastNotice).toMatch(/^Apply Rig From…: broken\.json: not valid JSON/);
    expect(e.tools.applyRigText('{"format":"marionette-rig","version":1}', 'empty.rig.json')).toMatchObject({ ok: false, error: { field: 'empty.rig.json' } });
    expect(e.lastNotice).toMatch(/^Apply Rig From…: empty\.rig\.json: the rig is not valid \(/);
    e.disk.set('/rigs/humanoid.rig.json', shipped('humanoid'));
    e.picks.push('/rigs/humanoid.rig.json');
    const pick = e.platform.files.pickProject;
    const asked: unknown[] = [];
    e.platform.files.pickProject = (options) => { asked.push(options); return pick(options); };
    const picked = await e.tools.pickAndApplyRig();
    expect(picked.ok && picked.value.source).toBe('humanoid.rig.json');
    expect(asked).toEqual([{ purpose: 'apply-rig' }]); // not kept as a recent project
    e.picks.push(null);
    expect((await e.tools.pickAndApplyRig()).ok).toBe(false);
  });
});
