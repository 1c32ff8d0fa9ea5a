/**
 * The main toolbar: groups of tools separated by thin rules — file, history, view, solver, playback,
 * overlays, rig, poke. It fits any window width (useToolbarFit): labels first, then icon-only buttons with
 * their tooltips, then the last groups move into an overflow "»" menu. Nothing is squeezed or clipped.
 */
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useEditor } from '../state/store';
import { runCommand } from '../state/commands';
import { toggleMesh } from '../state/editor';
import { OverlayTools, PlaybackTools, usePreviewShortcuts } from '../timeline/PreviewTools';
import { PokeTools, RigTools } from '../authoring/AuthoringToolbar';
import { SolverSwitch } from '../preview/SolverSwitch';
import { useToolbarFit } from './useToolbarFit';

const Icon = ({ d }: { d: string }) => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden><path d={d} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" /></svg>
);
const icons = {
  open: 'M2 4.5h4l1.5 1.5H14v6.5H2z',
  save: 'M3 2.5h8l2 2v9H3z M5.5 2.5v3h4v-3 M5 13.5v-4h6v4',
  undo: 'M5.5 3.5 2.5 6.5l3 3 M2.5 6.5h7a3.5 3.5 0 0 1 0 7H7',
  redo: 'M10.5 3.5l3 3-3 3 M13.5 6.5h-7a3.5 3.5 0 0 0 0 7H9',
  frame: 'M2.5 5.5v-3h3 M10.5 2.5h3v3 M13.5 10.5v3h-3 M5.5 13.5h-3v-3 M8 6.5v3 M6.5 8h3',
  bones: 'M4 12 12 4 M3 13a1.3 1.3 0 1 0 0.01 0 M13 3a1.3 1.3 0 1 0 0.01 0',
  mesh: 'M8 2 13.5 5v6L8 14 2.5 11V5z M8 2v12 M2.5 5 13.5 11 M13.5 5 2.5 11',
};

/** A toolbar button; `text` is its short label ("menuOnly": shown in the overflow menu, not in the bar). */
function Tool({ label, icon, onClick, disabled, active, text, menuOnly }: { label: string; icon: string; onClick: () => void; disabled?: boolean; active?: boolean; text: string; menuOnly?: boolean }) {
  return (
    <button className={`tool${active ? ' active' : ''}`} title={label} aria-label={label} aria-pressed={active} disabled={disabled} onClick={onClick}>
      <Icon d={icon} />
      <span className={`tool-text${menuOnly ? ' menu-only' : ''}`}>{text}</span>
    </button>
  );
}

function FileTools() {
  return (
    <>
      <Tool label="Open creature (Ctrl+O)" icon={icons.open} onClick={() => runCommand('open-creature')} text="Open" />
      <Tool label="Save project (Ctrl+S)" icon={icons.save} onClick={() => runCommand('save')} text="Save" />
    </>
  );
}

function HistoryTools() {
  const history = useEditor((s) => s.history);
  return (
    <>
      <Tool label={`Undo ${history.undoLabel ?? ''} (Ctrl+Z)`} icon={icons.undo} disabled={!history.canUndo} onClick={() => runCommand('undo')} text="Undo" menuOnly />
      <Tool label={`Redo ${history.redoLabel ?? ''} (Ctrl+Shift+Z)`} icon={icons.redo} disabled={!history.canRedo} onClick={() => runCommand('redo')} text="Redo" menuOnly />
    </>
  );
}

function ViewTools() {
  const session = useEditor((s) => s.session);
  return (
    <>
      <Tool label="Frame selection (F)" icon={icons.frame} onClick={() => runCommand('frame-selection')} text="Frame" />
      <Tool label="Show skeleton" icon={icons.bones} active={session.showSkeleton} onClick={() => runCommand('toggle-skeleton')} text="Skeleton" />
      <Tool label="Show mesh" icon={icons.mesh} active={session.showMesh} onClick={toggleMesh} text="Mesh" />
    </>
  );
}

/** In display order; the overflow menu takes them from the end. The first KEPT always stay in the bar. */
const GROUPS: { id: string; label: string; render: () => ReactNode }[] = [
  { id: 'file', label: 'File', render: () => <FileTools /> },
  { id: 'history', label: 'History', render: () => <HistoryTools /> },
  { id: 'view', label: 'View', render: () => <ViewTools /> },
  { id: 'solver', label: 'Preview solver', render: () => <SolverSwitch /> },
  { id: 'playback', label: 'Playback', render: () => <PlaybackTools /> },
  { id: 'overlays', label: 'Overlays', render: () => <OverlayTools /> },
  { id: 'rig', label: 'Rig', render: () => <RigTools /> },
  { id: 'poke', label: 'Poke', render: () => <PokeTools /> },
];
const KEPT = 3;
/** Which groups lose their labels first: the overlay toggles' icons are learnt quickly, Open and Play are not;
 *  the solver switch shortens its labels (Rig. | Art. | Part.). */
const COMPACT_ORDER = ['overlays', 'view', 'poke', 'rig', 'solver', 'file', 'playback'];

export function Toolbar() {
  usePreviewShortcuts();
  const fit = useToolbarFit(COMPACT_ORDER.length, GROUPS.length - KEPT);
  const shown = GROUPS.length - fit.overflowed;
  const compact = new Set(COMPACT_ORDER.slice(0, fit.compacted));
  return (
    <div className="toolbar" role="toolbar" aria-label="Tools" ref={fit.bar} data-fit={`${fit.compacted}/${fit.overflowed}`}>
      <div className="toolbar-row" ref={fit.row}>
        {GROUPS.slice(0, shown).map((g) => (
          <div key={g.id} className={`tool-group${compact.has(g.id) ? ' compact' : ''}`} role="group" aria-label={g.label} data-group={g.id}>{g.render()}</div>
        ))}
        {fit.overflowed > 0 && <OverflowMenu groups={GROUPS.slice(shown)} />}
      </div>
    </div>
  );
}

/**
 * The "»" button and its drop-down: the groups that do not fit, one row each, with their labels. Toggles
 * and the slider leave it open (several can be set in a row); a plain action closes it.
 */
function OverflowMenu({ groups }: { groups: typeof GROUPS }) {
  const [open, setOpen] = useState(false);
  const [at, setAt] = useState({ top: 0, right: 0 });
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!panel.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') { setOpen(false); button.current?.focus(); } };
    const onResize = () => setOpen(false);
    window.addEventListener('pointerdown', onDown, true);
    window.addEventListener('keydown', onKey);
    window.addEventListener('resize', onResize);
    return () => { window.removeEventListener('pointerdown', onDown, true); window.removeEventListener('keydown', onKey); window.removeEventListener('resize', onResize); };
  }, [open]);

  const toggle = () => {
    const r = button.current?.getBoundingClientRect();
    // Fixed, so the toolbar's overflow clipping does not cut it; right-aligned under the button.
    if (r) setAt({ top: r.bottom + 2, right: Math.max(4, window.innerWidth - r.right) });
    setOpen(!open);
  };
  const onClick = (e: MouseEvent) => {
    const b = (e.target as Element).closest('button');
    if (b && !b.hasAttribute('aria-pressed') && b.getAttribute('role') !== 'radio') setOpen(false);
  };

  return (
    <div className="tool-group toolbar-overflow">
      <button ref={button} className={`tool${open ? ' active' : ''}`} title={`More tools: ${groups.map((g) => g.label).join(', ')}`} aria-label="More tools" aria-haspopup="true" aria-expanded={open} onClick={toggle}>
        <span className="overflow-glyph" aria-hidden>»</span>
      </button>
      {open && (
        <div ref={panel} className="toolbar-overflow-menu" role="group" aria-label="More tools" style={{ top: at.top, right: at.right }} onClick={onClick}>
          {groups.map((g) => (
            <div key={g.id} className="overflow-group" role="group" aria-label={g.label} data-group={g.id}>
              <div className="overflow-group-title">{g.label}</div>
              <div className="overflow-group-tools">{g.render()}</div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
