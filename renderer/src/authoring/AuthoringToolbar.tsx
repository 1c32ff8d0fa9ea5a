/**
 * The toolbar's authoring groups: Generate from skeleton, and the viewport tool (Select / Poke), poke and
 * blast strength, go limp / power on for the whole creature. Whether bodies and joints (axes and limits)
 * are drawn is the Overlays group's Bodies and Joints toggles — one switch each for editing and preview.
 */
import { useEditor } from '../state/store';
import { openGenerateDialog } from './actions';
import { setAuthoring, useAuthoring } from './authoringStore';
import { setLimp, useCreatureDrive } from './previewControls';
import './authoring.css';

const Icon = ({ d }: { d: string }) => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden><path d={d} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" /></svg>
);
const icons = {
  generate: 'M5.5 1.5h5v4h-5z M3 9.5h4v5H3z M9 9.5h4v5H9z M8 5.5v2 M5 9.5v-2h6v2',
  select: 'M3 2.5l9 5-4 1-2 4z',
  poke: 'M2.5 13.5l6-6 M8.5 7.5l1.5-4 1 3 3 1-4 1.5 M6 12l1.5 1.5',
  // A chain hanging slack between two pins; a power switch.
  limp: 'M2.5 4.5c1.5 8 9.5 8 11 0 M2.5 3v3 M13.5 3v3',
  power: 'M8 2.5v5 M5 4.5a4.5 4.5 0 1 0 6 0',
};

/** Generate from the skeleton. */
export function RigTools() {
  const hasCreature = useEditor((s) => s.creature !== null);
  return (
    <button className="tool" title="Generate bodies and joints from the skeleton (Rig menu)" aria-label="Generate from skeleton" disabled={!hasCreature} onClick={openGenerateDialog}>
      <Icon d={icons.generate} /><span className="tool-text">Generate</span>
    </button>
  );
}

/** The viewport tool (Select / Poke), the poke strength, and go limp / power on for the whole creature. */
export function PokeTools() {
  const hasBodies = useEditor((s) => (s.document?.rig.bodies.length ?? 0) > 0);
  const drive = useCreatureDrive();
  const tool = useAuthoring((s) => s.tool);
  const strength = useAuthoring((s) => s.impulseStrength);
  return (
    <>
      <button className={`tool${tool === 'select' ? ' active' : ''}`} title="Select tool: click bodies to select them" aria-label="Select tool" aria-pressed={tool === 'select'} onClick={() => setAuthoring({ tool: 'select' })}>
        <Icon d={icons.select} /><span className="tool-text menu-only">Select</span>
      </button>
      <button className={`tool${tool === 'poke' ? ' active' : ''}`} title="Poke tool: click a body = impulse, drag = grab, Shift-click = blast" aria-label="Poke tool" aria-pressed={tool === 'poke'} disabled={!hasBodies} onClick={() => setAuthoring({ tool: 'poke' })}>
        <Icon d={icons.poke} /><span className="tool-text">Poke</span>
      </button>
      <label className="tool-slider" title="Impulse of a click (N·s)">
        <input type="range" min={0.5} max={60} step={0.5} value={strength} aria-label="Impulse strength" onChange={(e) => setAuthoring({ impulseStrength: Number(e.target.value), blastStrength: Number(e.target.value) * 4 })} />
        <span className="num">{strength.toFixed(1)} N·s</span>
      </label>
      <button className="tool" disabled={!drive.enabled} title={drive.limpTitle} aria-label="Go limp" onClick={() => setLimp('all', true)}>
        <Icon d={icons.limp} /><span className="tool-text">Go limp</span>
      </button>
      <button className="tool" disabled={!drive.enabled} title={drive.powerTitle} aria-label="Power on" onClick={() => setLimp('all', false)}>
        <Icon d={icons.power} /><span className="tool-text">Power on</span>
      </button>
    </>
  );
}
