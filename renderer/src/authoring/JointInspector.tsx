/**
 * A joint's properties: type, the bodies it joins, anchor and axes (numbers here, gizmos in the viewport),
 * limits in degrees and metres (drawn in the viewport: hinge arc, swing cone, twist fan, slide range, with
 * draggable arc and slide ends),
 * the motor panel, and per-joint go limp / power on in the preview.
 */
import { setJointLimits, setJointPitch, setJointType, jointWorldFrame } from '../../../shared/authoring';
import type { RigJoint } from '../../../shared/rig';
import { SlideMotorPanel } from './SlideMotorPanel';
import { select } from '../state/editor';
import { useEditor } from '../state/store';
import { deleteSelection } from './actions';
import { setAuthoring, useAuthoring } from './authoringStore';
import { Section } from './Section';
import { MotorPanel } from './MotorPanel';
import { FieldRow, NumberField, formatNumber } from './NumberField';
import { rigEdit } from './rigEdit';
import { JointPreviewControls } from './previewControls';
import './authoring.css';

const DEG = 180 / Math.PI;
const TYPES: RigJoint['type'][] = ['ball', 'hinge', 'fixed', 'prismatic', 'screw', 'cylindrical', 'planar'];
type Range = readonly [number, number] | null;

/** Min / max fields of a slide limit (m); `field` is the setJointLimits key. */
function SlideRange({ label, name, value, field, limits }: {
  label: string; name: string; value: Range; field: 'slideLimit' | 'slideLimitY' | 'slideLimitZ';
  limits: (label: string, patch: Parameters<typeof setJointLimits>[2]) => ReturnType<typeof rigEdit>;
}) {
  return (
    <>
      <FieldRow label={`${label} min`}><NumberField label={`${label} min`} name={`${name}-min`} value={value?.[0] ?? null} placeholder="free" unit="m" onCommit={(v) => limits(`${label} limit`, { [field]: [v, value?.[1] ?? 1] })} /></FieldRow>
      <FieldRow label={`${label} max`}><NumberField label={`${label} max`} name={`${name}-max`} value={value?.[1] ?? null} placeholder="free" unit="m" onCommit={(v) => limits(`${label} limit`, { [field]: [value?.[0] ?? -1, v] })} /></FieldRow>
    </>
  );
}

export function JointInspector({ name }: { name: string }) {
  const joint = useEditor((s) => s.document?.rig.joints.find((j) => j.name === name) ?? null);
  const rig = useEditor((s) => s.document?.rig ?? null);
  const gizmoMode = useAuthoring((s) => s.gizmoMode);
  const extra = useAuthoring((s) => s.extraJoints);
  if (!joint || !rig) return <div className="inspector-empty">Joint “{name}” is not in the rig.</div>;
  const world = jointWorldFrame(rig, name);
  const limits = (label: string, patch: Parameters<typeof setJointLimits>[2]) => rigEdit(`${label} (${name})`, (r) => setJointLimits(r, name, patch));
  const link = (n: string) => <button className="link" onClick={() => select({ kind: 'body', name: n })}>{n}</button>;

  return (
    <div data-testid="joint-inspector">
      <div className="inspector-heading">
        <span className="badge joint">Joint</span><span className="inspector-name">{joint.name}</span>
        {extra.length > 0 && <span className="muted">+{extra.filter((j) => j !== name).length} selected</span>}
        <span className="heading-tools"><button className="mini-button danger" title="Remove this joint (Delete)" onClick={deleteSelection}>Remove</button></span>
      </div>
      <Section title="Joint">
        <FieldRow label="Type">
          <select className="field" aria-label="Joint type" value={joint.type} onChange={(e) => rigEdit(`Joint type ${e.target.value} (${name})`, (r) => setJointType(r, name, e.target.value as RigJoint['type']))}>
            {TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </FieldRow>
        <FieldRow label="Parent (A)">{link(joint.bodyA)}</FieldRow>
        <FieldRow label="Child (B)">{link(joint.bodyB)}</FieldRow>
        <FieldRow label="Anchor">
          <span className="vec">{(world?.position ?? [0, 0, 0]).map((v, i) => <span key={i} className={`num axis-${'xyz'[i]}`}>{formatNumber(v, 3)}</span>)}</span>
          <span className="unit">m</span>
        </FieldRow>
        <div className="gizmo-modes" role="group" aria-label="Joint gizmo">
          <button className={`mini-button${gizmoMode === 'translate' ? ' on' : ''}`} aria-pressed={gizmoMode === 'translate'} onClick={() => setAuthoring({ gizmoMode: 'translate' })}>Move anchor <kbd>W</kbd></button>
          <button className={`mini-button${gizmoMode === 'rotate' ? ' on' : ''}`} aria-pressed={gizmoMode === 'rotate'} onClick={() => setAuthoring({ gizmoMode: 'rotate' })}>Rotate axes <kbd>E</kbd></button>
        </div>
      </Section>

      {joint.type !== 'fixed' && (
        <Section title="Limits" tools={<span className="hint">drag the arc and slide ends in the viewport</span>}>
          {joint.type === 'hinge' && (
            <>
              <FieldRow label="Min"><NumberField label="Hinge min" name="limit-min" value={joint.limit?.[0] ?? null} placeholder="free" scale={DEG} digits={1} unit="°" onCommit={(v) => limits('Hinge limit', { limit: [v, joint.limit?.[1] ?? Math.PI] })} /></FieldRow>
              <FieldRow label="Max"><NumberField label="Hinge max" name="limit-max" value={joint.limit?.[1] ?? null} placeholder="free" scale={DEG} digits={1} unit="°" onCommit={(v) => limits('Hinge limit', { limit: [joint.limit?.[0] ?? -Math.PI + 1e-9, v] })} /></FieldRow>
            </>
          )}
          {joint.type === 'ball' && (
            <>
              <FieldRow label="Twist min"><NumberField label="Twist min" name="twist-min" value={joint.twistLimit?.[0] ?? null} placeholder="free" scale={DEG} digits={1} unit="°" onCommit={(v) => limits('Twist limit', { twistLimit: [v, joint.twistLimit?.[1] ?? Math.PI] })} /></FieldRow>
              <FieldRow label="Twist max"><NumberField label="Twist max" name="twist-max" value={joint.twistLimit?.[1] ?? null} placeholder="free" scale={DEG} digits={1} unit="°" onCommit={(v) => limits('Twist limit', { twistLimit: [joint.twistLimit?.[0] ?? -Math.PI + 1e-9, v] })} /></FieldRow>
              <FieldRow label="Swing Y"><NumberField label="Swing about Y" name="swing-y" value={joint.swingLimit?.[0] ?? null} placeholder="free" scale={DEG} digits={1} unit="°" onCommit={(v) => limits('Swing limit', { swingLimit: [v, joint.swingLimit?.[1] ?? Math.PI] })} /></FieldRow>
              <FieldRow label="Swing Z"><NumberField label="Swing about Z" name="swing-z" value={joint.swingLimit?.[1] ?? null} placeholder="free" scale={DEG} digits={1} unit="°" onCommit={(v) => limits('Swing limit', { swingLimit: [joint.swingLimit?.[0] ?? Math.PI, v] })} /></FieldRow>
            </>
          )}
          {(joint.type === 'screw' || joint.type === 'cylindrical' || joint.type === 'planar') && (
            <>
              {joint.type === 'screw' && (
                <FieldRow label="Pitch"><NumberField label="Screw pitch" name="pitch" value={joint.pitch} digits={4} unit="m/rad" onCommit={(v) => rigEdit(`Screw pitch (${name})`, (r) => setJointPitch(r, name, v))} /></FieldRow>
              )}
              <FieldRow label="Angle min"><NumberField label="Angle min" name="limit-min" value={joint.limit?.[0] ?? null} placeholder="free" scale={DEG} digits={1} unit="°" onCommit={(v) => limits('Angle limit', { limit: [v, joint.limit?.[1] ?? Math.PI] })} /></FieldRow>
              <FieldRow label="Angle max"><NumberField label="Angle max" name="limit-max" value={joint.limit?.[1] ?? null} placeholder="free" scale={DEG} digits={1} unit="°" onCommit={(v) => limits('Angle limit', { limit: [joint.limit?.[0] ?? -Math.PI + 1e-9, v] })} /></FieldRow>
              {joint.type === 'screw' && joint.limit && (
                <FieldRow label="Travel"><span className="num">{formatNumber(joint.pitch * joint.limit[0], 4)} … {formatNumber(joint.pitch * joint.limit[1], 4)}</span><span className="unit">m</span></FieldRow>
              )}
              {joint.type === 'cylindrical' && <SlideRange label="Slide" name="slide" value={joint.slideLimit} field="slideLimit" limits={limits} />}
              {joint.type === 'planar' && <SlideRange label="Slide Y" name="slide-y" value={joint.slideLimitY} field="slideLimitY" limits={limits} />}
              {joint.type === 'planar' && <SlideRange label="Slide Z" name="slide-z" value={joint.slideLimitZ} field="slideLimitZ" limits={limits} />}
            </>
          )}
          {joint.type === 'prismatic' && (
            <>
              <FieldRow label="Min"><NumberField label="Slide min" name="limit-min" value={joint.limit?.[0] ?? null} placeholder="free" unit="m" onCommit={(v) => limits('Slide limit', { limit: [v, joint.limit?.[1] ?? 1] })} /></FieldRow>
              <FieldRow label="Max"><NumberField label="Slide max" name="limit-max" value={joint.limit?.[1] ?? null} placeholder="free" unit="m" onCommit={(v) => limits('Slide limit', { limit: [joint.limit?.[0] ?? -1, v] })} /></FieldRow>
            </>
          )}
          <FieldRow label="">
            <button className="mini-button" onClick={() => limits('Free limits', joint.type === 'ball' ? { twistLimit: null, swingLimit: null }
              : joint.type === 'cylindrical' ? { limit: null, slideLimit: null } : joint.type === 'planar' ? { limit: null, slideLimitY: null, slideLimitZ: null } : { limit: null })}>Remove limits</button>
          </FieldRow>
        </Section>
      )}

      {joint.type !== 'fixed' && <MotorPanel joint={joint} rig={rig} />}
      {(joint.type === 'cylindrical' || joint.type === 'planar') && <SlideMotorPanel joint={joint} />}
      <JointPreviewControls joint={joint.name} />
    </div>
  );
}
