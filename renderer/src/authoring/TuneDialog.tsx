/**
 * Tune… (the motor panel): the user asks for a settle time (s, 2 % band) and an overshoot (%); Marionette
 * computes the motors' parameters (r for position motors, kp / kv for PD, τmax from the gravity load) and
 * verifies them by simulating each joint's step response (shared/authoring tune.ts, run in a Web Worker:
 * tuneRunner.ts). The dialog lists, per joint, the requested and the achieved settle time and overshoot,
 * or why it falls short (saturation, limits, the flexing chain); Apply makes it one undo step.
 * Everything goes through the headless editor's commands (editor.tools.computeTune / applyTune).
 */
import { useEffect, useState } from 'react';
import type { JointTune } from '../../../shared/authoring/tune';
import type { TunePlan } from '../../../shared/editor';
import { editor } from '../state/editor';
import { useEditor } from '../state/store';
import { NumberField } from './NumberField';
import { tuneStats } from './tuneRunner';
import './authoring.css';

const fmt = (x: number, digits = 3): string => String(Number(x.toPrecision(digits)));

export interface TuneDialogProps {
  /** The joints selected in the outliner / inspector (Tune… acts on the tunable ones among them). */
  selected: readonly string[];
  onClose: () => void;
}

export function TuneDialog({ selected, onClose }: TuneDialogProps) {
  const rig = useEditor((s) => s.document?.rig ?? null);
  const [settle, setSettle] = useState(0.3);
  const [overshoot, setOvershoot] = useState(5);
  const chosen = editor.tools.tunableJoints(selected);
  const all = editor.tools.tunableJoints();
  const [scope, setScope] = useState<'selected' | 'all'>(chosen.length > 0 ? 'selected' : 'all');
  const joints = scope === 'selected' ? chosen : all;
  const [plan, setPlan] = useState<TunePlan | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [ms, setMs] = useState<number | null>(null);

  // A report for other settings (or an older rig) is not what Apply would apply.
  useEffect(() => { setPlan(null); }, [settle, overshoot, scope]);
  useEffect(() => { if (plan && plan.from !== rig) setPlan(null); }, [rig, plan]);

  const compute = async () => {
    setBusy(true); setError(null); setPlan(null);
    const r = await editor.tools.computeTune({ settle, overshoot, joints });
    setBusy(false);
    if (!r.ok) { setError(`${r.error.field ? `${r.error.field}: ` : ''}${r.error.message}`); return; }
    setMs(tuneStats.lastTuneMs);
    setPlan(r.value);
  };
  const apply = () => {
    if (!plan) return;
    const r = editor.tools.applyTune(plan);
    if (!r.ok) { setError(`${r.error.field ? `${r.error.field}: ` : ''}${r.error.message}`); return; }
    onClose();
  };
  const positive = (set: (v: number) => void, max: number, unit: string) => (v: number) => {
    if (!(v > 0) || !Number.isFinite(v)) return `must be > 0 ${unit}, got ${v} ${unit}`;
    if (v > max) return `must be ≤ ${max} ${unit}, got ${v} ${unit}`;
    set(v);
    return null;
  };
  const percent = (v: number) => {
    if (!(v >= 0 && v < 100)) return `must be ≥ 0 % and < 100 %, got ${v} %`;
    setOvershoot(v);
    return null;
  };
  const rows = plan?.result.joints ?? [];
  const good = rows.filter((j) => j.ok).length;

  return (
    <div className="modal-backdrop" onKeyDown={(e) => { if (e.key === 'Escape') onClose(); }}>
      <div className="modal tune-dialog" role="dialog" aria-modal aria-labelledby="tune-title" data-testid="tune-dialog">
        <div className="modal-title" id="tune-title">Tune motors from a settle time</div>
        <div className="modal-text">
          Each motor's gains come from the joint's effective inertia and its torque limit from the gravity
          load it carries; each joint's step response is then simulated and reported next to the request
          (within 20 %, or why not). Position motors never overshoot.
        </div>
        <div className="generate-fields">
          <div className="prop-row"><span className="prop-label">Settle time</span><NumberField label="Settle time" name="tune-settle" value={settle} unit="s" digits={3} onCommit={positive(setSettle, 10, 's')} /></div>
          <div className="prop-row"><span className="prop-label">Overshoot</span><NumberField label="Overshoot" name="tune-overshoot" value={overshoot} unit="%" digits={1} onCommit={percent} /></div>
          <div className="prop-row">
            <span className="prop-label">Joints</span>
            <select className="field" aria-label="Joints to tune" value={scope} onChange={(e) => setScope(e.target.value as 'selected' | 'all')}>
              <option value="selected" disabled={chosen.length === 0}>Selected ({chosen.length}{chosen.length ? `: ${chosen.slice(0, 3).join(', ')}${chosen.length > 3 ? ', …' : ''}` : ''})</option>
              <option value="all">All tunable joints ({all.length})</option>
            </select>
          </div>
        </div>
        {error && <div className="field-error" role="alert" data-testid="tune-error">{error}</div>}
        {busy && <div className="hint" data-testid="tune-busy">Simulating {joints.length} step response{joints.length === 1 ? '' : 's'}…</div>}
        {plan && (
          <div className="tune-report" data-testid="tune-report">
            <div className="generate-plan-title">
              {good} of {rows.length} within 20 % of {fmt(settle)} s{ms !== null ? <span className="muted"> · computed in {fmt(ms / 1000, 2)} s{tuneStats.worker ? ' (worker)' : ''}</span> : null}
            </div>
            <table className="tune-table">
              <thead><tr><th>Joint</th><th>Motor</th><th>Settle asked</th><th>Settle got</th><th>Overshoot asked</th><th>Overshoot got</th><th /></tr></thead>
              <tbody>{rows.map((j) => <TuneRow key={j.joint} j={j} />)}</tbody>
            </table>
          </div>
        )}
        <div className="modal-actions">
          <button className="button" disabled={busy || joints.length === 0} onClick={() => { void compute(); }}>{plan ? 'Compute again' : 'Compute'}</button>
          <button className="button primary" disabled={!plan || busy} onClick={apply}>Apply</button>
          <button className="button" onClick={onClose}>Cancel</button>
        </div>
      </div>
    </div>
  );
}

function TuneRow({ j }: { j: JointTune }) {
  const a = j.achieved;
  const params = j.mode === 'pd' ? `PD kp ${fmt(j.params.stiffness)} kv ${fmt(j.params.damping)}` : `r ${fmt(j.params.errorReduction)}`;
  return (
    <tr data-tune-joint={j.joint} data-tune-ok={j.ok} data-tune-settle={a?.settle ?? ''} className={j.ok ? 'ok' : 'miss'} title={`${params}, τmax ${fmt(j.params.maxTorque)} N·m`}>
      <td>{j.joint}</td>
      <td>{j.mode === 'pd' ? 'PD' : 'position'}</td>
      <td className="num">{fmt(j.requested.settle)} s</td>
      <td className="num">{a ? (a.settle === null ? 'never' : `${fmt(a.settle)} s`) : '—'}</td>
      <td className="num">{j.mode === 'pd' ? `${fmt(j.requested.overshoot)} %` : '—'}</td>
      <td className="num">{a ? `${fmt(a.overshoot, 2)} %` : '—'}</td>
      <td className="tune-why">{j.ok ? 'ok' : j.why ?? 'missed'}</td>
    </tr>
  );
}
