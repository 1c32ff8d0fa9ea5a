/**
 * The joint motor: mode (position = clamped velocity, the Armed Mine's drive; PD; velocity; off), τmax (a ball
 * joint's budget: per axis or on the torque's magnitude),
 * error reduction r, kp / kv — the PD gains also as natural frequency f (Hz) and damping ratio ζ, converted
 * with the joint's effective inertia I (shared/authoring pdGains: kp = I·(2πf)², kv = 2ζ·I·2πf) — the target
 * source, presets and copy/paste to every selected joint. Switching to PD with no gains yet fills in the
 * Stiff preset's response as starting gains (pdStart.ts), in the same undo step. Tune… (TuneDialog.tsx)
 * computes the gains of this joint, the selected joints or all of them from a settle time and overshoot.
 */
import { useMemo, useState } from 'react';
import { frequencyFromPdGains, jointEffectiveInertia, pdGainsFromFrequency, setMotor, MOTOR_PRESETS } from '../../../shared/authoring';
import type { RigDocument, RigJoint, RigMotor } from '../../../shared/rig';
import { DEFAULT_MAX_DRIVE_SPEED } from '../../../shared/physics/joints/motor';
import { useEditor } from '../state/store';
import { useAuthoring } from './authoringStore';
import { copyMotor, pasteMotor, presetJoints, selectedJoints } from './actions';
import { Section } from './Section';
import { FieldRow, NumberField, formatNumber } from './NumberField';
import { rigEdit } from './rigEdit';
import { creatureClipNames } from './clips';
import { motorModeChange } from './pdStart';
import { notify } from '../state/editor';
import { TuneDialog } from './TuneDialog';

type MotorJoint = Extract<RigJoint, { motor: RigMotor }>;

const MODES: { value: RigMotor['mode']; label: string }[] = [
  { value: 'position', label: 'Position (clamped velocity)' },
  { value: 'pd', label: 'PD (spring–damper)' },
  { value: 'velocity', label: 'Velocity' },
  { value: 'off', label: 'Off (friction only)' },
];

export function MotorPanel({ joint, rig }: { joint: MotorJoint; rig: RigDocument }) {
  const m = joint.motor;
  const name = joint.name;
  const clipboard = useAuthoring((s) => s.motorClipboard);
  useAuthoring((s) => s.extraJoints); // re-render when the multi-selection changes
  const creature = useEditor((s) => s.creature);
  const clips = useMemo(() => creatureClipNames(creature), [creature]);
  const inertia = useMemo(() => { try { return jointEffectiveInertia(rig, joint); } catch { return null; } }, [rig, joint]);
  const slide = joint.type === 'prismatic'; // a slider's PD is a force law: N/m, N·s/m, effective mass
  const freq = inertia && m.stiffness > 0 ? frequencyFromPdGains({ stiffness: m.stiffness, damping: m.damping }, inertia) : null;
  const set = (label: string, patch: Partial<RigMotor>) => rigEdit(`${label} (${name})`, (r) => setMotor(r, name, patch));
  const setFrequency = (f: number, zeta: number) => {
    if (!inertia) return 'the effective inertia is unknown (both bodies must exist)';
    try {
      const g = pdGainsFromFrequency(f, zeta, inertia);
      return set('PD gains', { stiffness: Number(g.stiffness.toPrecision(6)), damping: Number(g.damping.toPrecision(6)) });
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };
  const setMode = (mode: RigMotor['mode']) => {
    let change: ReturnType<typeof motorModeChange>;
    try {
      change = motorModeChange(rig, joint, mode);
    } catch (e) {
      notify('error', `Motor mode (${name}): PD needs starting gains, and ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const refused = set('Motor mode', change.patch);
    if (refused) notify('error', `Motor mode (${name}): ${refused.field ? `${refused.field} ` : ''}${refused.message}`);
    else if (change.note) notify('info', change.note);
  };
  const targets = selectedJoints();
  const many = targets.length > 1 ? ` to ${targets.length} joints` : '';
  const [tuning, setTuning] = useState(false);
  const tunable = (joint.type === 'hinge' || joint.type === 'ball') && (m.mode === 'pd' || m.mode === 'position');

  return (
    <Section title="Motor" tools={<span className="motor-tools">
      <button className="mini-button" title="Copy this joint's motor settings" onClick={() => copyMotor(name)}>Copy</button>
      <button className="mini-button" disabled={!clipboard || targets.every((t) => t === clipboard.from)} title={clipboard ? `Paste the motor of ${clipboard.from}${many || ' here'}` : 'Copy a motor first'} onClick={() => pasteMotor()}>Paste{many}</button>
      <button className="mini-button" title={tunable ? `Gains from a settle time and overshoot for ${targets.length > 1 ? `the ${targets.length} selected joints` : 'this joint'} (or all joints), verified by simulation` : 'Tune… sets PD or position motors of hinge and ball joints: switch the mode to PD or Position first'} onClick={() => setTuning(true)}>Tune…</button>
      {tuning && <TuneDialog selected={targets} onClose={() => setTuning(false)} />}
    </span>}>
      <FieldRow label="Mode">
        <select className="field" aria-label="Motor mode" value={m.mode} onChange={(e) => setMode(e.target.value as RigMotor['mode'])}>
          {MODES.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      </FieldRow>
      <FieldRow label="τmax"><NumberField label="Max torque" name="maxTorque" value={m.maxTorque} unit={joint.type === 'prismatic' ? 'N' : 'N·m'} digits={2} onCommit={(v) => set('Max torque', { maxTorque: v })} /></FieldRow>
      {joint.type === 'ball' && (
        <FieldRow label="Budget" hint="per axis: each of the three rows up to τmax (together up to √3·τmax); magnitude: the torque vector's length up to τmax">
          <select className="field" aria-label="Torque limit" value={m.torqueLimit ?? 'perAxis'} onChange={(e) => set('Torque limit', { torqueLimit: e.target.value as NonNullable<RigMotor['torqueLimit']> })}>
            <option value="perAxis">τmax per axis</option>
            <option value="magnitude">‖τ‖ ≤ τmax</option>
          </select>
        </FieldRow>
      )}
      {m.mode === 'position' && (
        <FieldRow label="r" hint="error reduction: the drive closes r of the angle error each step (0 < r ≤ 1)"><NumberField label="Error reduction" name="errorReduction" value={m.errorReduction} onCommit={(v) => set('Error reduction', { errorReduction: v })} /></FieldRow>
      )}
      {m.mode === 'pd' && (
        <>
          <FieldRow label="kp"><NumberField label="Stiffness kp" name="stiffness" value={m.stiffness} unit={slide ? 'N/m' : 'N·m/rad'} digits={2} onCommit={(v) => set('Stiffness', { stiffness: v })} /></FieldRow>
          <FieldRow label="kv"><NumberField label="Damping kv" name="damping" value={m.damping} unit={slide ? 'N·s/m' : 'N·m·s/rad'} digits={3} onCommit={(v) => set('Damping', { damping: v })} /></FieldRow>
          <FieldRow label="Frequency" hint={inertia ? `effective ${slide ? 'mass' : 'inertia'} ${inertia.toExponential(2)} ${slide ? 'kg' : 'kg·m²'}` : undefined}>
            <NumberField label="Natural frequency" name="frequency" value={freq ? freq.frequencyHz : null} placeholder="—" unit="Hz" digits={2} onCommit={(f) => setFrequency(f, freq && Number.isFinite(freq.dampingRatio) ? freq.dampingRatio : 1)} />
          </FieldRow>
          <FieldRow label="Damping ζ">
            <NumberField label="Damping ratio" name="dampingRatio" value={freq && Number.isFinite(freq.dampingRatio) ? freq.dampingRatio : null} placeholder="—" digits={2} onCommit={(z) => (freq ? setFrequency(freq.frequencyHz, z) : 'set a frequency (or kp) first')} />
          </FieldRow>
          {inertia && (slide
            ? <div className="hint motor-hint">m<sub>eff</sub> = {inertia.toExponential(2)} kg (both bodies along the slide)</div>
            : <div className="hint motor-hint">I<sub>eff</sub> = {inertia.toExponential(2)} kg·m² (both bodies about the anchor)</div>)}
        </>
      )}
      {m.mode === 'velocity' && (
        <FieldRow label="Velocity"><NumberField label="Target velocity" name="targetVelocity" value={m.target.velocity ?? 0} unit={slide ? 'm/s' : 'rad/s'} onCommit={(v) => set('Target velocity', { target: { ...m.target, velocity: v } })} /></FieldRow>
      )}
      {m.mode !== 'off' && (
        <FieldRow label="Max speed" hint={`the fastest the drive asks the joint to move (${joint.type === 'ball' ? 'the rotation rate' : 'each axis'}); ${DEFAULT_MAX_DRIVE_SPEED} unless set`}>
          <NumberField label="Max speed" name="maxSpeed" value={m.maxSpeed ?? DEFAULT_MAX_DRIVE_SPEED} unit={slide ? 'm/s' : 'rad/s'} digits={1} onCommit={(v) => set('Max speed', { maxSpeed: v })} />
        </FieldRow>
      )}
      {m.mode === 'off' && (
        <FieldRow label="Friction"><NumberField label="Friction torque" name="frictionTorque" value={m.frictionTorque} unit={slide ? 'N' : 'N·m'} digits={2} onCommit={(v) => set('Friction torque', { frictionTorque: v })} /></FieldRow>
      )}
      <FieldRow label="Target">
        <select className="field" aria-label="Target source" value={m.target.source}
          onChange={(e) => {
            const source = e.target.value as RigMotor['target']['source'];
            set('Motor target', { target: source === 'animation' ? { ...m.target, source, clip: m.target.clip ?? clips[0] ?? 'idle' } : { ...m.target, source } });
          }}>
          <option value="rest">Rest pose</option>
          <option value="animation">Animation clip</option>
          <option value="controller">IK controller</option>
        </select>
      </FieldRow>
      {m.target.source === 'animation' && (
        <FieldRow label="Clip">
          {clips.length > 0
            ? <select className="field" aria-label="Clip" value={m.target.clip ?? ''} onChange={(e) => set('Target clip', { target: { ...m.target, clip: e.target.value } })}>
                {!clips.includes(m.target.clip ?? '') && <option value={m.target.clip}>{m.target.clip} (not in file)</option>}
                {clips.map((c) => <option key={c} value={c}>{c}</option>)}
              </select>
            : <span className="muted">{m.target.clip}</span>}
        </FieldRow>
      )}
      {m.target.source === 'controller' && !rig.controllers.some((c) => c.chain.includes(name)) && (
        <div className="hint motor-hint warn">No controller's chain holds this joint yet; it holds its rest pose until one does.</div>
      )}
      <FieldRow label="Presets">
        <span className="preset-row">
          {MOTOR_PRESETS.map((p) => (
            <button key={p} className="mini-button" title={`${p}${many}`} onClick={() => presetJoints(p)}>{p[0]!.toUpperCase() + p.slice(1)}</button>
          ))}
        </span>
      </FieldRow>
      <div className="hint motor-hint">Ctrl-click joints in the outliner to apply presets or paste to all of them{targets.length > 1 ? ` (${targets.length} selected)` : ''}. Mode {m.mode}, τmax {formatNumber(m.maxTorque, 1)}.</div>
    </Section>
  );
}
