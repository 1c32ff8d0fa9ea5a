/**
 * Authoring tools that compute a whole rig's worth of change, each applied as one undo step:
 *  - Tune… (the motor panel): motor gains from a settle time and overshoot (shared/authoring/tune.ts),
 *    computed — on the platform's worker when it has one, it simulates each joint's step response — then
 *    applied; the per-joint report (requested vs achieved settle time and overshoot, or why not) comes back
 *    for the dialog. `computeTune` + `applyTune` let the dialog show the report before applying it.
 *  - Rig › Apply Rig From…: another rig (a rig JSON or a project file) applied to the open creature by bone
 *    names (shared/authoring/transfer.ts); every unmatched bone and everything left out with it is listed.
 */
import { tuneRig, type JointTune, type TuneOptions, type TuneResult } from '../authoring/tune';
import { transferRig, type BoneMatch, type TransferResult } from '../authoring/transfer';
import { stripComputed } from '../export/rig';
import { parseProject, PROJECT_FORMAT } from '../project/projectFile';
import { formatProblem } from '../rig/problems';
import type { RigDocument, RigJoint } from '../rig/schema';
import { validateRig } from '../rig/validate';
import type { EditorCore } from './core';
import { cancelled, err, ok, thrownText, type Result } from './types';

/** What the Tune… dialog asks: settle time (s, 2 % band), overshoot (%), the joints (default: every tunable one). */
export interface TuneRequest { settle: number; overshoot?: number; joints?: readonly string[] }

/** A computed tune and the rig it was computed on (applyTune refuses it once the rig has changed). */
export interface TunePlan { from: RigDocument; result: TuneResult }

/** What Apply Rig From… did: bone matches, unmatched bones, what was left out, bodies/joints/controllers kept. */
export interface RigTransferReport {
  source: string;
  matched: BoneMatch[];
  unmatched: string[];
  dropped: TransferResult['dropped'];
  bodies: number; joints: number; controllers: number;
}

const tunable = (j: RigJoint): boolean => (j.type === 'hinge' || j.type === 'ball') && (j.motor.mode === 'pd' || j.motor.mode === 'position');
const fmt = (x: number): string => String(Number(x.toPrecision(3)));

/** One line of the tune report: "elbow: settle 0.317 s (asked 0.3 s), overshoot 0 %: ok" or the reason. */
export function tuneLine(j: JointTune): string {
  const a = j.achieved;
  const settle = a ? (a.settle === null ? 'never settled' : `settle ${fmt(a.settle)} s`) : 'not verified';
  const over = a && j.mode === 'pd' ? `, overshoot ${fmt(a.overshoot)} % (asked ${fmt(j.requested.overshoot)} %)` : '';
  return `${j.joint}: ${settle} (asked ${fmt(j.requested.settle)} s)${over}: ${j.ok ? 'ok' : j.why ?? 'missed'}`;
}

export class ToolCommands<C> {
  constructor(private readonly editor: Pick<EditorCore<C>, 'platform' | 'rig' | 'creature' | 'edit' | 'notify' | 'refuse'>) {}

  /** The joints Tune… acts on from a selection: the tunable ones among them (all tunable ones for none). */
  tunableJoints(selected: readonly string[] = []): string[] {
    const rig = this.editor.rig;
    if (!rig) return [];
    const all = rig.joints.filter(tunable).map((j) => j.name);
    return selected.length === 0 ? all : selected.filter((n) => all.includes(n));
  }

  /** Check a tune request against the open rig: the options tuneRig takes, or the refusal (field + reason). */
  #tuneOptions(req: TuneRequest): Result<TuneOptions> {
    const rig = this.editor.rig;
    if (!rig) return err('Tune', 'open a creature first.');
    if (!(typeof req.settle === 'number' && Number.isFinite(req.settle) && req.settle > 0)) return err('Settle time', `must be > 0 s, got ${req.settle}`);
    if (req.settle > 10) return err('Settle time', `must be ≤ 10 s, got ${req.settle} s`);
    const overshoot = req.overshoot ?? 5;
    if (!(Number.isFinite(overshoot) && overshoot >= 0 && overshoot < 100)) return err('Overshoot', `must be ≥ 0 % and < 100 %, got ${overshoot} %`);
    let joints: string[] | undefined;
    if (req.joints && req.joints.length > 0) {
      for (const n of req.joints) {
        const j = rig.joints.find((x) => x.name === n);
        if (!j) return err('Joints', `there is no joint named "${n}"`);
        if (!tunable(j)) return err('Joints', `"${n}" is a ${j.type} joint${j.type === 'fixed' ? '' : ` with a ${j.motor.mode} motor`}: only hinge and ball joints with a PD or position motor can be tuned`);
      }
      joints = [...req.joints];
    } else if (this.tunableJoints().length === 0) return err('Tune', 'no joint can be tuned: only hinge and ball joints with a PD or position motor can');
    return ok({ settle: req.settle, overshoot, ...(joints ? { joints } : {}) });
  }

  /** Compute gains for the request and verify them (nothing changes yet); the refusal is returned, not told. */
  async computeTune(req: TuneRequest): Promise<Result<TunePlan>> {
    const opts = this.#tuneOptions(req);
    if (!opts.ok) return opts;
    const from = this.editor.rig!;
    try {
      const run = this.editor.platform.tuneRig;
      const result = run ? await run(from, opts.value) : tuneRig(from, opts.value);
      return ok({ from, result });
    } catch (e) {
      return err('Tune', thrownText(e));
    }
  }

  /** Apply a computed tune as one undo step (only the tuned joints' motors change). ok with the report. */
  applyTune(plan: TunePlan): Result<JointTune[]> {
    if (this.editor.rig !== plan.from) return err('Tune', 'the rig changed while tuning; tune again');
    const n = plan.result.joints.length;
    if (n === 0) return err('Tune', 'no joint was tuned');
    const motors = new Map(plan.result.rig.joints.filter((j) => plan.result.joints.some((t) => t.joint === j.name)).map((j) => [j.name, (j as Extract<RigJoint, { motor: unknown }>).motor]));
    const label = `Tune ${n === 1 ? plan.result.joints[0]!.joint : `${n} joints`} (${fmt(plan.result.joints[0]!.requested.settle)} s)`;
    const r = this.editor.edit(label, (doc) => ({
      ...doc,
      rig: { ...doc.rig, joints: doc.rig.joints.map((j) => (motors.has(j.name) && j.type !== 'fixed' ? { ...j, motor: motors.get(j.name)! } as RigJoint : j)) },
    }));
    if (!r.ok) return r;
    const good = plan.result.joints.filter((j) => j.ok).length;
    this.editor.notify('info', `Tuned ${n} joint${n === 1 ? '' : 's'} for ${fmt(plan.result.joints[0]!.requested.settle)} s: ${good} of ${n} within 20 %`);
    return ok(plan.result.joints);
  }

  /** Tune… in one go: compute, then apply as one undo step; a refusal is told as a notice. */
  async tune(req: TuneRequest): Promise<Result<JointTune[]>> {
    const plan = await this.computeTune(req);
    if (!plan.ok) return this.editor.refuse('Tune', plan.error);
    const r = this.applyTune(plan.value);
    return r.ok ? r : this.editor.refuse('', r.error);
  }

  // ------------------------------------------------------------------ Apply Rig From…

  /** Rig › Apply Rig From…: pick a rig JSON (or a project) and apply its rig to the open creature. */
  async pickAndApplyRig(): Promise<Result<RigTransferReport>> {
    if (!this.editor.rig || !this.editor.creature) return this.editor.refuse('Apply Rig From…', { field: '', message: 'open a creature first.' });
    let picked;
    try { picked = await this.editor.platform.files.pickProject({ purpose: 'apply-rig' }); } catch (e) {
      return this.editor.refuse('Apply Rig From…', { field: '', message: thrownText(e) });
    }
    if (!picked) return cancelled();
    return this.applyRigText(picked.text, picked.name);
  }

  /**
   * Another rig applied to the open creature by bone names, scaled by bone lengths, as one undo step: its
   * bodies, shapes, joints, limits, motors, controllers and simulation settings; the document keeps its
   * name and skeleton. `text` is a rig JSON or a project file (its rig). Unmatched bones, and the bodies,
   * joints and controllers left out with them, are told in a notice and a dialog and returned.
   */
  applyRigText(text: string, fileName: string): Result<RigTransferReport> {
    const what = 'Apply Rig From…';
    const rig = this.editor.rig;
    if (!rig || !this.editor.creature) return this.editor.refuse(what, { field: '', message: 'open a creature first.' });
    const source = readRig(text, fileName);
    if (!source.ok) return this.editor.refuse(what, source.error);
    let t: TransferResult;
    try {
      t = transferRig(source.value, rig.skeleton.bones, { name: rig.name });
    } catch (e) {
      return this.editor.refuse(what, { field: fileName, message: thrownText(e) });
    }
    const next: RigDocument = {
      ...rig, solver: source.value.solver, simulation: source.value.simulation,
      bodies: t.rig.bodies, joints: t.rig.joints, controllers: t.rig.controllers,
    };
    const valid = validateRig(stripComputed(next));
    if (!valid.ok) {
      const first = valid.problems[0];
      return this.editor.refuse(what, { field: fileName, message: `the rig applied to this creature is not valid (${first ? formatProblem(first) : 'invalid'}${valid.problems.length > 1 ? ` and ${valid.problems.length - 1} more` : ''}); is the creature in metres?` });
    }
    const r = this.editor.edit(`Apply rig from ${fileName}`, (doc) => ({ ...doc, rig: next }));
    if (!r.ok) return this.editor.refuse(what, r.error);
    const report: RigTransferReport = {
      source: fileName, matched: t.matched, unmatched: t.unmatched, dropped: t.dropped,
      bodies: next.bodies.length, joints: next.joints.length, controllers: next.controllers.length,
    };
    const total = t.matched.length + t.unmatched.length;
    const summary = `Applied the rig from ${fileName}: ${t.matched.length} of ${total} bones matched; ${report.bodies} bodies, ${report.joints} joints, ${report.controllers} controllers`;
    if (t.unmatched.length === 0 && t.dropped.length === 0) {
      this.editor.notify('info', summary);
    } else {
      const lines = [
        ...(t.unmatched.length ? [`Unmatched bones (${t.unmatched.length}): ${t.unmatched.join(', ')}`] : []),
        ...t.dropped.map((d) => `Left out ${d.kind} "${d.name}": ${d.reason}`),
      ];
      this.editor.notify('error', `${summary}. ${lines[0]}${lines.length > 1 ? ` (+${lines.length - 1} more in the dialog)` : ''}`);
      void this.editor.platform.ask('Rig applied — some bones did not match', `${summary}.\n\n${lines.join('\n')}`, ['OK']).catch(() => undefined);
    }
    return ok(report);
  }
}

/** A rig from a rig JSON's or a project's text, validated; the refusal names the file. */
export function readRig(text: string, fileName: string): Result<RigDocument> {
  let json: unknown;
  try { json = JSON.parse(text); } catch (e) { return err(fileName, `not valid JSON (${thrownText(e)})`); }
  let rigJson = json;
  const isProject = !!json && typeof json === 'object' && (json as { format?: unknown }).format === PROJECT_FORMAT;
  if (isProject) {
    try { rigJson = parseProject(text, fileName).rig; } catch (e) { return err('', thrownText(e)); }
  }
  const v = validateRig(stripComputed(rigJson));
  if (!v.ok) {
    const first = v.problems[0];
    return err(fileName, `the ${isProject ? "project's " : ''}rig is not valid (${first ? `${isProject ? 'rig.' : ''}${formatProblem(first)}` : 'invalid'}${v.problems.length > 1 ? ` and ${v.problems.length - 1} more problem${v.problems.length === 2 ? '' : 's'}` : ''})`);
  }
  return ok(v.rig);
}
