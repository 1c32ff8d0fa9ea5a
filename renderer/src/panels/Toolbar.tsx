import type { ReactNode } from 'react';
import { useEditor } from '../state/store';
import { runCommand } from '../state/commands';
import { toggleMesh } from '../state/editor';
import { PreviewTools } from '../timeline/PreviewTools';
import { AuthoringToolbar } from '../authoring/AuthoringToolbar';
import { SolverSwitch } from '../preview/SolverSwitch';

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

function Tool({ label, icon, onClick, disabled, active, children }: { label: string; icon: string; onClick: () => void; disabled?: boolean; active?: boolean; children?: ReactNode }) {
  return (
    <button className={`tool${active ? ' active' : ''}`} title={label} aria-label={label} aria-pressed={active} disabled={disabled} onClick={onClick}>
      <Icon d={icon} />
      {children && <span className="tool-text">{children}</span>}
    </button>
  );
}

export function Toolbar() {
  const history = useEditor((s) => s.history);
  const session = useEditor((s) => s.session);
  return (
    <div className="toolbar" role="toolbar">
      <Tool label="Open creature (Ctrl+O)" icon={icons.open} onClick={() => runCommand('open-creature')}>Open</Tool>
      <Tool label="Save project (Ctrl+S)" icon={icons.save} onClick={() => runCommand('save')}>Save</Tool>
      <span className="tool-sep" />
      <Tool label={`Undo ${history.undoLabel ?? ''} (Ctrl+Z)`} icon={icons.undo} disabled={!history.canUndo} onClick={() => runCommand('undo')} />
      <Tool label={`Redo ${history.redoLabel ?? ''} (Ctrl+Shift+Z)`} icon={icons.redo} disabled={!history.canRedo} onClick={() => runCommand('redo')} />
      <span className="tool-sep" />
      <Tool label="Frame selection (F)" icon={icons.frame} onClick={() => runCommand('frame-selection')}>Frame</Tool>
      <Tool label="Show skeleton" icon={icons.bones} active={session.showSkeleton} onClick={() => runCommand('toggle-skeleton')}>Skeleton</Tool>
      <Tool label="Show mesh" icon={icons.mesh} active={session.showMesh} onClick={toggleMesh}>Mesh</Tool>
      <span className="tool-sep" />
      <SolverSwitch />
      <span className="tool-sep" />
      <PreviewTools />
      <AuthoringToolbar />
    </div>
  );
}
