import { useEffect, useState } from 'react';
import { useEditor } from '../state/store';
import { viewportStats } from '../viewport/viewportHandle';

/** The frame rate, refreshed twice a second (the only periodic render in the UI). */
function Fps() {
  const [fps, setFps] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setFps(viewportStats.fps), 500);
    return () => clearInterval(t);
  }, []);
  return <span className="status-item num" data-testid="fps">{fps.toFixed(0)} fps</span>;
}

export function StatusBar() {
  const file = useEditor((s) => s.file);
  const name = useEditor((s) => s.document?.rig.name ?? 'No creature');
  const creature = useEditor((s) => s.creature);
  const status = useEditor((s) => s.status);
  const selection = useEditor((s) => s.session.selection);
  return (
    <footer className="statusbar" data-testid="statusbar">
      <span className="status-item strong">{file.fileName ?? name}{file.dirty ? ' ●' : ''}</span>
      {creature && <span className="status-item">{creature.fileName}</span>}
      {creature && (
        <span className="status-item num">
          {creature.skeleton.bones.length} bones · {creature.display.skinnedMeshes.length} meshes · {creature.display.triangles.toLocaleString('en-US')} tris
        </span>
      )}
      {/* The kind too: a body and a joint are often named like the bone they belong to. */}
      {selection && <span className="status-item">Selected: {selection.kind === 'shape' ? `body ${selection.name}, shape ${selection.index + 1}` : `${selection.kind} ${selection.name}`}</span>}
      <span className="status-message" data-testid="status-message" title={status}>{status}</span>
      <Fps />
    </footer>
  );
}
