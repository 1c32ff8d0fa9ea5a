/**
 * "Generate from skeleton": shape, minimum bone size, density and total mass, and a live preview of what
 * Generate will make — which bones get bodies, which merge into which and why (deforming / rigid mesh /
 * helper / twist / end bone / finger or toe / no geometry / too small / excluded), the total mass and how
 * it is set. While it is open the viewport colours every bone by the plan (a body, merged, excluded: see
 * skeletonOverlay.ts) and hovering a row emphasises that bone; its checkbox includes or excludes the bone
 * (a document edit, one undo step). Generating is one undo step.
 */
import { useEffect, useMemo, useState } from 'react';
import { generateRagdoll, type BonePlan, type BonePlanReason, type GeneratedRagdoll, type ShapeChoice } from '../../../shared/authoring';
import { editor, hover, told } from '../state/editor';
import { useEditor } from '../state/store';
import { setAuthoring, useAuthoring } from './authoringStore';
import { DEFAULT_GENERATE, currentAuthoringSkeleton, generateBodies, generateOptions, type GenerateSettings } from './actions';
import { NumberField } from './NumberField';
import './authoring.css';

/** Short labels for the plan's reasons (the row's title has the full note). */
const REASON: Record<BonePlanReason, string> = {
  deforming: 'deforming',
  'rigid-mesh': 'rigid mesh',
  excluded: 'excluded',
  helper: 'helper / IK / pole / control',
  twist: 'twist',
  end: 'end bone',
  digit: 'finger / toe',
  'no-geometry': 'no geometry',
  'too-small': 'too small',
};

/** What Generate would make with these settings on the open document, or why it cannot. */
function usePreviewGenerate(settings: GenerateSettings, open: boolean): { result: GeneratedRagdoll | null; error: string | null } {
  const creature = useEditor((s) => s.creature);
  const rig = useEditor((s) => s.document?.rig ?? null);
  return useMemo(() => {
    if (!open || !creature || !rig) return { result: null, error: null };
    try {
      const sk = currentAuthoringSkeleton();
      if (!sk) return { result: null, error: null };
      return { result: generateRagdoll(sk, generateOptions(settings, rig)), error: null };
    } catch (e) {
      return { result: null, error: e instanceof Error ? e.message : String(e) };
    }
  }, [open, creature, rig, settings]);
}

export function GenerateDialog() {
  const open = useAuthoring((s) => s.generateDialog);
  const hasBodies = useEditor((s) => (s.document?.rig.bodies.length ?? 0) > 0);
  const [settings, setSettings] = useState<GenerateSettings>(DEFAULT_GENERATE);
  const { result, error } = usePreviewGenerate(settings, open);
  // The plan, for the viewport to colour every bone by (cleared when the dialog closes).
  useEffect(() => {
    if (!open || !result) { setAuthoring({ planPreview: null }); return; }
    const plan = result.plan;
    setAuthoring({ planPreview: {
      bodies: plan.filter((p) => p.body).map((p) => p.bone),
      merged: plan.filter((p) => !p.body && p.reason !== 'excluded').map((p) => p.bone),
      excluded: plan.filter((p) => p.reason === 'excluded').map((p) => p.bone),
    } });
  }, [open, result]);
  useEffect(() => () => setAuthoring({ planPreview: null }), []);
  if (!open) return null;
  const close = () => { hover(null); setAuthoring({ generateDialog: false, planPreview: null }); };
  const positive = (key: 'density' | 'totalMass') => (v: number) => {
    if (!(v > 0) || !Number.isFinite(v)) return `must be > 0, got ${v}`;
    setSettings((s) => ({ ...s, [key]: v }));
    return null;
  };
  const minSize = (v: number) => {
    if (!(v >= 0) || !Number.isFinite(v)) return `must be ≥ 0, got ${v}`;
    setSettings((s) => ({ ...s, minBoneLength: v }));
    return null;
  };
  const auto = (key: 'minBoneLength' | 'totalMass') => (
    <button className="mini-button" type="button" title="Back to the automatic value" disabled={settings[key] === null} onClick={() => setSettings((s) => ({ ...s, [key]: null }))}>Auto</button>
  );
  const plan = result?.plan ?? [];
  const bodies = plan.filter((p) => p.body).length;
  const s = result?.summary;
  return (
    <div className="modal-backdrop generate-backdrop" onKeyDown={(e) => { if (e.key === 'Escape') close(); }}>
      <div className="modal generate-dialog" role="dialog" aria-modal aria-labelledby="generate-title" data-testid="generate-dialog">
        <div className="modal-title" id="generate-title">Generate bodies from the skeleton</div>
        <div className="modal-text">
          A body for each bone that deforms the mesh (or carries a rigid mesh), shaped to its own vertices and
          joined to its parent's body; helper, twist and end bones, fingers and toes merge into the body above
          them (unless kept below: then they get bodies when they own vertices). Untick a bone below to merge it too.{hasBodies && <strong> This replaces the rig's bodies and joints (undo brings them back).</strong>}
        </div>
        <div className="generate-fields">
          <label className="prop-row">
            <span className="prop-label">Shape</span>
            <select className="field" aria-label="Shape type" value={settings.shape} onChange={(e) => setSettings((x) => ({ ...x, shape: e.target.value as ShapeChoice }))}>
              <option value="auto">Auto (boxes for hands and feet)</option>
              <option value="capsule">Capsule</option>
              <option value="sphere">Sphere</option>
              <option value="box">Box</option>
            </select>
          </label>
          <div className="prop-row">
            <span className="prop-label">Min bone size</span>
            <span className="generate-field-auto">
              <NumberField label="Min bone size" value={settings.minBoneLength} unit="m" placeholder="auto: 3 % of height" onCommit={minSize} />{auto('minBoneLength')}
            </span>
          </div>
          <div className="prop-row"><span className="prop-label">Density</span><NumberField label="Density" value={settings.density} unit="kg/m³" digits={1} onCommit={positive('density')} /></div>
          <div className="prop-row">
            <span className="prop-label">Total mass</span>
            <span className="generate-field-auto">
              <NumberField label="Total mass" value={settings.totalMass} unit="kg" digits={2} placeholder="auto: 70 kg for a biped" onCommit={positive('totalMass')} />{auto('totalMass')}
            </span>
          </div>
          <div className="prop-row">
            <span className="prop-label">Keep</span>
            <span className="generate-keep">
              <label><input type="checkbox" aria-label="Keep helper bones" checked={settings.keepHelpers ?? false} onChange={(e) => setSettings((x) => ({ ...x, keepHelpers: e.target.checked }))} /> helper, IK, twist, end bones</label>
              <label><input type="checkbox" aria-label="Keep fingers and toes" checked={settings.keepDigits ?? false} onChange={(e) => setSettings((x) => ({ ...x, keepDigits: e.target.checked }))} /> fingers and toes</label>
            </span>
          </div>
        </div>
        {error && <div className="field-error" role="alert" data-testid="generate-error">{error}</div>}
        {s && (
          <div className="generate-summary" data-testid="generate-summary">
            <span className="num">{bodies}</span> bodies, <span className="num">{result.joints.length}</span> joints ·{' '}
            height <span className="num">{s.height.toFixed(2)}</span> m · total mass <span className="num" data-testid="generate-total-mass">{s.totalMass.toFixed(1)}</span> kg{' '}
            <span className="muted">({s.massSource === 'segments' ? 'biped segment fractions' : 'volume × density'})</span>
          </div>
        )}
        {plan.length > 0 && <PlanList plan={plan} />}
        <div className="modal-actions">
          <button className="button primary" autoFocus disabled={error !== null} onClick={() => { if (generateBodies(settings)) close(); }}>Generate</button>
          <button className="button" onClick={close}>Cancel</button>
        </div>
      </div>
    </div>
  );
}

/** Every bone in skeleton order: a body, or merged into whose body, and why. */
function PlanList({ plan }: { plan: BonePlan[] }) {
  const merged = plan.length - plan.filter((p) => p.body).length;
  return (
    <div className="generate-plan">
      <div className="generate-plan-title">Bones <span className="muted">({plan.length}: {plan.length - merged} bodies, {merged} merged)</span></div>
      <div className="generate-plan-list" role="list" aria-label="Bone plan" onMouseLeave={() => hover(null)}>
        {plan.map((p) => (
          <div
            key={p.bone}
            role="listitem"
            className={`generate-plan-row${p.body ? ' body' : ' merged'}`}
            data-plan-bone={p.bone}
            data-plan-body={p.body}
            data-plan-reason={p.reason}
            data-plan-merged-into={p.mergedInto ?? ''}
            title={`${p.bone}: ${p.note}${p.vertices ? ` (${p.vertices} vertices)` : ''}`}
            onMouseEnter={() => hover({ kind: 'bone', name: p.bone })}
          >
            <input
              type="checkbox"
              aria-label={`Include ${p.bone}`}
              checked={p.reason !== 'excluded'}
              onChange={(e) => told(editor.edits.setBoneIncluded(p.bone, e.target.checked))}
            />
            <span className="generate-plan-bone">{p.bone}</span>
            <span className="generate-plan-what">{p.body ? 'body' : p.mergedInto ? `→ ${p.mergedInto}` : 'no body'}</span>
            <span className="generate-plan-why">{REASON[p.reason]}</span>
          </div>
        ))}
      </div>
    </div>
  );
}
