/**
 * Inspector section for a gait controller (shown when one of its path points is selected): on/off, rate,
 * phase offset and the steering law's numbers (docs/locomotion.md), a gait pattern for the limbs on the
 * same root (tripod, wave, trot, walk, alternating: shared/authoring/gaitPresets.ts), the control points' numbers (edit,
 * insert after the selected, remove), and τmax and r of the motors it drives. Each
 * change is one undo step; the preview re-simulates from frame 0.
 */
import { useEffect, useRef, useState } from 'react';
import { useEditor } from '../state/store';
import { editor, told } from '../state/editor';
import { GAIT_PRESETS, GAIT_SETTINGS, gaitSetting, limbsOf, type GaitSetting } from '../../../shared/authoring';
import { selectPathPoint, usePreview } from './previewStore';

function NumberField({ value, label, onCommit }: { value: number; label: string; onCommit: (v: number) => boolean }) {
  const [text, setText] = useState(String(value));
  // Escape blurs the field; that blur must not commit the text being reverted.
  const reverting = useRef(false);
  useEffect(() => setText(String(value)), [value]);
  const commit = () => {
    if (reverting.current) { reverting.current = false; return; }
    const v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v) || !onCommit(v)) setText(String(value));
  };
  return (
    <input className="field num" aria-label={label} value={text} onChange={(e) => setText(e.target.value)} onFocus={() => { reverting.current = false; }} onBlur={commit}
      onKeyDown={(e) => { if (e.key === 'Enter') (e.target as HTMLElement).blur(); if (e.key === 'Escape') { reverting.current = true; setText(String(value)); (e.target as HTMLElement).blur(); } }} />
  );
}

export function ControllerInspector({ name }: { name: string }) {
  const c = useEditor((s) => s.document?.rig.controllers.find((x) => x.name === name));
  const joints = useEditor((s) => s.document?.rig.joints);
  const sel = usePreview((s) => (s.selectedPoint?.controller === name ? s.selectedPoint.index : -1));
  const rig = useEditor((s) => s.document?.rig);
  if (!c || c.type !== 'cyclicPath' || !joints) return <div className="inspector-empty">Controller “{name}” is not in this rig.</div>;
  const point = sel >= 0 ? c.controlPoints[sel] : undefined;
  const limbs = rig ? limbsOf(rig, c.root) : [];
  const presets = GAIT_PRESETS.filter((p) => p.limbs === limbs.length);
  return (
    <div data-testid="controller-inspector">
      <div className="inspector-heading"><span className="badge">Gait</span><span className="inspector-name">{c.name}</span></div>
      <div className="inspector-section">
        <div className="inspector-section-title">Gait and steering</div>
        <div className="prop-row">
          <span className="prop-label">Enabled</span>
          <span className="prop-value">
            <input type="checkbox" aria-label={`${name} enabled`} checked={c.enabled}
              title="A disabled controller freezes its phase and sets no motor targets"
              onChange={(e) => told(editor.edits.setGaitEnabled(name, e.target.checked))} />
          </span>
        </div>
        <div className="prop-row" data-testid="gait-presets">
          <span className="prop-label" title={`Phase offsets of a common pattern for the ${limbs.length} limb${limbs.length === 1 ? '' : 's'} on ${c.root} (one undo step)`}>Pattern ({limbs.length} limb{limbs.length === 1 ? '' : 's'})</span>
          <span className="prop-value">
            {presets.length > 0
              ? presets.map((p) => (
                <button key={p.preset} className="link" title={p.description} onClick={() => told(editor.edits.setGaitPreset(name, p.preset))}>{p.label}</button>
              ))
              : <span className="muted" title="Presets: alternating (2 limbs), trot and walk (4), tripod and wave (6)">no preset for {limbs.length}</span>}
          </span>
        </div>
        {limbs.length >= 2 && limbs[0]!.name !== name && (
          <div className="prop-row" data-testid="gait-group-note">
            <span className="prop-label" />
            <span className="prop-value muted" title="The limbs on one root share one steering law and one arrival: the first limb's steering numbers (gain … stop radius) steer and stop them all (docs/locomotion.md, Multi-limb gaits)">
              Steered and stopped with {limbs.length - 1} other limb{limbs.length === 2 ? '' : 's'} by {limbs[0]!.name}'s steering numbers
            </span>
          </div>
        )}
        {(Object.keys(GAIT_SETTINGS) as GaitSetting[]).map((field) => (
          <div key={field} className="prop-row">
            <span className="prop-label" title={GAIT_SETTINGS[field].unit}>{GAIT_SETTINGS[field].label} ({GAIT_SETTINGS[field].unit})</span>
            <span className="prop-value">
              <NumberField label={`${name} ${GAIT_SETTINGS[field].label}`} value={gaitSetting(c, field)}
                onCommit={(v) => told(editor.edits.setGaitSetting(name, field, v, `${name} ${GAIT_SETTINGS[field].label}`))} />
            </span>
          </div>
        ))}
      </div>
      <div className="inspector-section">
        <div className="inspector-section-title">Path points ({c.controlPoints.length}) · creature frame, m</div>
        {c.controlPoints.map((p, i) => (
          <div key={i} className={`prop-row${i === sel ? ' selected' : ''}`} onClick={() => selectPathPoint({ controller: name, index: i })}>
            <span className="prop-label">{i === sel ? '● ' : ''}Point {i + 1}</span>
            <span className="vec">
              {[0, 1, 2].map((k) => (
                <NumberField key={k} label={`Point ${i + 1} ${'xyz'[k]}`} value={p[k]!}
                  onCommit={(v) => told(editor.edits.setControlPoint(name, i, p.map((q, j) => (j === k ? v : q))))} />
              ))}
            </span>
          </div>
        ))}
        <div className="prop-row">
          <span className="prop-label" />
          <span className="prop-value">
            <button className="link" disabled={!point} onClick={() => {
              const r = editor.edits.insertControlPoint(name, sel);
              if (told(r) && r.ok) selectPathPoint({ controller: name, index: r.value });
            }}>Insert after</button>
            <button className="link" disabled={!point} onClick={() => {
              if (told(editor.edits.removeControlPoint(name, sel))) selectPathPoint(null);
            }}>Remove</button>
          </span>
        </div>
      </div>
      <div className="inspector-section">
        <div className="inspector-section-title">Motors · τmax (N·m) and r</div>
        {c.chain.map((jn) => {
          const j = joints.find((x) => x.name === jn);
          if (!j || j.type === 'fixed') return null;
          return (
            <div key={jn} className="prop-row">
              <span className="prop-label">{jn}</span>
              <span className="vec" style={{ gridTemplateColumns: '1fr 1fr' }}>
                <NumberField label={`${jn} τmax`} value={j.motor.maxTorque} onCommit={(v) => told(editor.edits.setMotorNumber(jn, 'maxTorque', v))} />
                <NumberField label={`${jn} r`} value={j.motor.errorReduction} onCommit={(v) => told(editor.edits.setMotorNumber(jn, 'errorReduction', v))} />
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
