/** "Generate from skeleton" options: shape type, minimum bone size, density. Generating is one undo step. */
import { useState } from 'react';
import type { ShapeKind } from '../../../shared/authoring';
import { useEditor } from '../state/store';
import { setAuthoring, useAuthoring } from './authoringStore';
import { DEFAULT_GENERATE, generateBodies, type GenerateSettings } from './actions';
import { NumberField } from './NumberField';
import './authoring.css';

export function GenerateDialog() {
  const open = useAuthoring((s) => s.generateDialog);
  const hasBodies = useEditor((s) => (s.document?.rig.bodies.length ?? 0) > 0);
  const [settings, setSettings] = useState<GenerateSettings>(DEFAULT_GENERATE);
  if (!open) return null;
  const close = () => setAuthoring({ generateDialog: false });
  const field = (key: 'minBoneLength' | 'density', min: number) => (v: number) => {
    if (!(v > min) && !(key === 'minBoneLength' && v === 0)) return `must be ${key === 'density' ? '> 0' : '≥ 0'}, got ${v}`;
    setSettings((s) => ({ ...s, [key]: v }));
    return null;
  };
  return (
    <div className="modal-backdrop" onKeyDown={(e) => { if (e.key === 'Escape') close(); }}>
      <div className="modal generate-dialog" role="dialog" aria-modal aria-labelledby="generate-title" data-testid="generate-dialog">
        <div className="modal-title" id="generate-title">Generate bodies from the skeleton</div>
        <div className="modal-text">
          One body per bone, sized from the bone's length and the skin it owns, joined to its parent's body
          (ball joints, hinges where the chain bends in one plane). Bones shorter than the minimum merge into
          their parent's body.{hasBodies && <strong> This replaces the rig's bodies and joints (undo brings them back).</strong>}
        </div>
        <div className="generate-fields">
          <label className="prop-row">
            <span className="prop-label">Shape</span>
            <select className="field" aria-label="Shape type" value={settings.shape} onChange={(e) => setSettings((s) => ({ ...s, shape: e.target.value as ShapeKind }))}>
              <option value="capsule">Capsule</option>
              <option value="sphere">Sphere</option>
              <option value="box">Box</option>
            </select>
          </label>
          <div className="prop-row"><span className="prop-label">Min bone size</span><NumberField label="Min bone size" value={settings.minBoneLength} unit="m" onCommit={field('minBoneLength', 0)} /></div>
          <div className="prop-row"><span className="prop-label">Density</span><NumberField label="Density" value={settings.density} unit="kg/m³" digits={1} onCommit={field('density', 0)} /></div>
        </div>
        <div className="modal-actions">
          <button className="button primary" autoFocus onClick={() => { if (generateBodies(settings)) close(); }}>Generate</button>
          <button className="button" onClick={close}>Cancel</button>
        </div>
      </div>
    </div>
  );
}
