/**
 * The editor window: menu bar (web build only — Electron has native menus), toolbar, and the dock:
 * outliner | viewport | inspector, status bar underneath. The timeline and plots dock under the viewport in
 * the centre column, behind a resizable split (layout/CenterColumn.tsx).
 */
import { useEffect } from 'react';
import { MenuBar } from './panels/MenuBar';
import { Toolbar } from './panels/Toolbar';
import { Outliner } from './panels/Outliner';
import { Inspector } from './panels/Inspector';
import { StatusBar } from './panels/StatusBar';
import { PromptDialog, Toasts } from './panels/Notices';
import { Viewport } from './viewport/Viewport';
import { Timeline } from './timeline/Timeline';
import { Splitter } from './layout/Splitter';
import { CenterColumn } from './layout/CenterColumn';
import { PlotsPanel } from './plots/PlotsPanel';
import { GenerateDialog } from './authoring/GenerateDialog';
import { platform } from './platform/bridge';
import { runCommand, installShortcuts } from './state/commands';
import { startAutosave, startup } from './state/editor';
import { setSession, useEditor } from './state/store';

let started = false;

export function App() {
  const left = useEditor((s) => s.session.leftWidth);
  const right = useEditor((s) => s.session.rightWidth);
  const nativeMenu = platform.kind === 'electron';

  useEffect(() => {
    const offMenu = platform.onMenuCommand(runCommand);
    const offKeys = installShortcuts(nativeMenu);
    const stopAutosave = startAutosave();
    // StrictMode mounts twice in development; the document must open once.
    if (!started) { started = true; void startup(); }
    return () => { offMenu(); offKeys(); stopAutosave(); };
  }, [nativeMenu]);

  return (
    <div className={`app${nativeMenu ? ' native-menu' : ''}`}>
      {!nativeMenu && <MenuBar />}
      <Toolbar />
      <main className="dock" style={{ gridTemplateColumns: `${left}px 4px minmax(200px, 1fr) 4px ${right}px` }}>
        <Outliner />
        <Splitter side="left" width={left} onResize={(w) => setSession({ leftWidth: w })} />
        <CenterColumn viewport={<Viewport />} bottom={<><Timeline /><PlotsPanel /></>} />
        <Splitter side="right" width={right} onResize={(w) => setSession({ rightWidth: w })} />
        <Inspector />
      </main>
      <StatusBar />
      <Toasts />
      <PromptDialog />
      <GenerateDialog />
    </div>
  );
}
