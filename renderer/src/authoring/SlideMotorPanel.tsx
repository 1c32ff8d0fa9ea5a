/**
 * The slide motor of a cylindrical joint (along frame X) or a planar joint (two rows, along frame Y and Z):
 * mode, force limit (N), error reduction, PD gains (N/m, N·s/m), target velocity (cylindrical; a planar
 * slide's is 0, a damper), friction (N). The angle's motor is the joint's Motor panel.
 */
import { setMotor } from '../../../shared/authoring';
import type { RigJoint, RigMotor } from '../../../shared/rig';
import { DEFAULT_MAX_DRIVE_SPEED } from '../../../shared/physics/joints/motor';
import { Section } from './Section';
import { FieldRow, NumberField } from './NumberField';
import { rigEdit } from './rigEdit';

const MODES: { value: RigMotor['mode']; label: string }[] = [
  { value: 'position', label: 'Position (clamped velocity)' },
  { value: 'pd', label: 'PD (spring–damper)' },
  { value: 'velocity', label: 'Velocity' },
  { value: 'off', label: 'Off (friction only)' },
];

export function SlideMotorPanel({ joint }: { joint: Extract<RigJoint, { type: 'cylindrical' | 'planar' }> }) {
  const m = joint.slideMotor, name = joint.name;
  const set = (label: string, patch: Partial<RigMotor>) => rigEdit(`${label} (${name})`, (r) => setMotor(r, name, patch, 'slideMotor'));
  return (
    <Section title={joint.type === 'planar' ? 'Slide motor (Y, Z)' : 'Slide motor'}>
      <div data-testid="slide-motor">
        <FieldRow label="Mode">
          <select className="field" aria-label="Slide motor mode" value={m.mode} onChange={(e) => set('Slide motor mode', { mode: e.target.value as RigMotor['mode'], ...(e.target.value === 'pd' && !(m.stiffness > 0 || m.damping > 0) ? { stiffness: 400, damping: 40 } : {}) })}>
            {MODES.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
        </FieldRow>
        <FieldRow label="Fmax"><NumberField label="Max force" name="slide-maxTorque" value={m.maxTorque} unit="N" digits={2} onCommit={(v) => set('Slide max force', { maxTorque: v })} /></FieldRow>
        {joint.type === 'planar' && (
          <FieldRow label="Budget" hint="per axis: each row up to Fmax; magnitude: the force in the plane up to Fmax">
            <select className="field" aria-label="Slide force limit" value={m.torqueLimit ?? 'perAxis'} onChange={(e) => set('Slide force limit', { torqueLimit: e.target.value as NonNullable<RigMotor['torqueLimit']> })}>
              <option value="perAxis">Fmax per axis</option>
              <option value="magnitude">‖F‖ ≤ Fmax</option>
            </select>
          </FieldRow>
        )}
        {m.mode === 'position' && (
          <FieldRow label="r"><NumberField label="Slide error reduction" name="slide-errorReduction" value={m.errorReduction} onCommit={(v) => set('Slide error reduction', { errorReduction: v })} /></FieldRow>
        )}
        {m.mode === 'pd' && (
          <>
            <FieldRow label="kp"><NumberField label="Slide stiffness kp" name="slide-stiffness" value={m.stiffness} unit="N/m" digits={2} onCommit={(v) => set('Slide stiffness', { stiffness: v })} /></FieldRow>
            <FieldRow label="kv"><NumberField label="Slide damping kv" name="slide-damping" value={m.damping} unit="N·s/m" digits={3} onCommit={(v) => set('Slide damping', { damping: v })} /></FieldRow>
          </>
        )}
        {m.mode === 'velocity' && joint.type === 'cylindrical' && (
          <FieldRow label="Velocity"><NumberField label="Slide target velocity" name="slide-targetVelocity" value={m.target.velocity ?? 0} unit="m/s" onCommit={(v) => set('Slide target velocity', { target: { ...m.target, velocity: v } })} /></FieldRow>
        )}
        {m.mode === 'velocity' && joint.type === 'planar' && <div className="hint motor-hint">A planar slide's velocity target is 0: it damps motion in the plane.</div>}
        {m.mode !== 'off' && (
          <FieldRow label="Max speed" hint={`the fastest the drive asks each slide to move; ${DEFAULT_MAX_DRIVE_SPEED} unless set`}>
            <NumberField label="Slide max speed" name="slide-maxSpeed" value={m.maxSpeed ?? DEFAULT_MAX_DRIVE_SPEED} unit="m/s" digits={1} onCommit={(v) => set('Slide max speed', { maxSpeed: v })} />
          </FieldRow>
        )}
        {m.mode === 'off' && (
          <FieldRow label="Friction"><NumberField label="Slide friction" name="slide-frictionTorque" value={m.frictionTorque} unit="N" digits={2} onCommit={(v) => set('Slide friction', { frictionTorque: v })} /></FieldRow>
        )}
      </div>
    </Section>
  );
}
