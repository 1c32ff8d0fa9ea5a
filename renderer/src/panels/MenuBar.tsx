/**
 * The in-app menu bar of the web build: the same menus as the native ones under Electron (File, Edit,
 * View, Rig, Help), each item running the same MenuCommand.
 */
import { useEffect, useRef, useState } from 'react';
import type { MenuCommand, RecentEntry } from '../../../shared/platform';
import { VIEW_TOGGLES } from './viewToggles';
import { useCreatureDrive } from '../authoring/previewControls';
import { dispatchMenuCommand, platform } from '../platform/bridge';
import { useEditor } from '../state/store';
import { builtinCreatures } from '../creature/builtins';
import { bundledExamples, exampleLabel } from '../preview/particleExamples';
import { useSolver } from '../preview/particleMode';
import { usePreview } from '../preview/previewStore';

const mod = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform) ? '⌘' : 'Ctrl+';


type Item = { label: string; command: MenuCommand; shortcut?: string; disabled?: boolean; checked?: boolean } | 'separator' | { label: string; submenu: Item[] };

export function MenuBar() {
  const [open, setOpen] = useState<string | null>(null);
  const [recent, setRecent] = useState<RecentEntry[]>([]);
  const history = useEditor((s) => s.history);
  const showSkeleton = useEditor((s) => s.session.showSkeleton);
  const overlays = usePreview((s) => s.overlays);
  const follow = usePreview((s) => s.follow);
  const hasInputs = usePreview((s) => s.inputs.length > 0);
  const hasCreature = useEditor((s) => s.creature !== null);
  const hasBodies = useEditor((s) => (s.document?.rig.bodies.length ?? 0) > 0);
  const ref = useRef<HTMLDivElement>(null);
  const solver = useSolver((s) => s.solver);
  const drive = useCreatureDrive();

  useEffect(() => {
    if (!open) return;
    if (open === 'File') void platform.recentFiles().then(setRecent, () => setRecent([]));
    const close = (e: MouseEvent) => { if (!ref.current?.contains(e.target as Node)) setOpen(null); };
    const esc = (e: KeyboardEvent) => { if (e.key === 'Escape') setOpen(null); };
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', esc);
    return () => { window.removeEventListener('mousedown', close); window.removeEventListener('keydown', esc); };
  }, [open]);

  const menus: Record<string, Item[]> = {
    File: [
      { label: 'New', command: 'new', shortcut: `${mod}N` },
      { label: 'Open Creature…', command: 'open-creature', shortcut: `${mod}O` },
      { label: 'Open Project…', command: 'open-project', shortcut: `${mod}Shift+O` },
      // Always present, as in the native menu: the list is read each time File opens, and an item that
      // appeared only once it arrived would push Save and Export down under the pointer.
      { label: 'Open Recent', submenu: recent.length > 0
        ? recent.map((r) => ({ label: r.name, command: { kind: 'open-recent', entry: r } as MenuCommand }))
        : [{ label: 'No Recent Files', command: 'open-creature', disabled: true }] },
      ...(builtinCreatures.length + bundledExamples.length > 0 ? [{ label: 'Examples', submenu: [
        ...builtinCreatures.map((c) => ({ label: c.name, command: { kind: 'open-example', name: c.name } as MenuCommand })),
        ...(builtinCreatures.length > 0 && bundledExamples.length > 0 ? ['separator' as const] : []),
        ...bundledExamples.map((e) => ({ label: exampleLabel(e.name), command: { kind: 'open-example', name: e.name } as MenuCommand })),
      ] }] : []),
      'separator',
      { label: 'Save', command: 'save', shortcut: `${mod}S` },
      { label: 'Save As…', command: 'save-as', shortcut: `${mod}Shift+S` },
      'separator',
      { label: 'Export', submenu: [
        { label: 'Rig JSON…', command: 'export-rig', shortcut: `${mod}E` },
        { label: 'MJCF (MuJoCo)…', command: { kind: 'export', format: 'mjcf' } as MenuCommand },
        { label: 'glTF + KHR Physics (Draft)…', command: { kind: 'export', format: 'gltf' } as MenuCommand },
      ] },
    ],
    Edit: [
      { label: history.undoLabel ? `Undo ${history.undoLabel}` : 'Undo', command: 'undo', shortcut: `${mod}Z`, disabled: !history.canUndo },
      { label: history.redoLabel ? `Redo ${history.redoLabel}` : 'Redo', command: 'redo', shortcut: `${mod}Shift+Z`, disabled: !history.canRedo },
    ],
    View: [
      { label: 'Frame Selection', command: 'frame-selection', shortcut: 'F' },
      { label: 'Show Skeleton', command: 'toggle-skeleton', checked: showSkeleton, shortcut: `${mod}Shift+K` },
      'separator',
      ...VIEW_TOGGLES.map((t) => ({ label: t.menu, command: { kind: 'toggle-overlay', overlay: t.key } as MenuCommand, checked: overlays[t.key] })),
      { label: 'Follow Creature', command: 'toggle-follow', checked: follow, shortcut: 'C' },
      'separator',
      { label: 'Rigid Solver', command: { kind: 'set-solver', solver: 'rigid' }, checked: solver === 'rigid' },
      { label: 'Articulated Solver', command: { kind: 'set-solver', solver: 'articulated' }, checked: solver === 'articulated' },
      { label: 'Particle Solver', command: { kind: 'set-solver', solver: 'particle' }, checked: solver === 'particle' },
    ],
    Rig: [
      { label: 'Generate Bodies from Skeleton…', command: 'generate-bodies', disabled: !hasCreature },
      'separator',
      { label: 'Mirror Left → Right', command: 'mirror-left-to-right', disabled: !hasBodies },
      { label: 'Fix Mass Ratios', command: 'fix-mass-ratios', disabled: !hasBodies },
      { label: 'Fix Rest Overlaps', command: 'fix-rest-overlaps', disabled: !hasBodies },
      { label: 'Apply Rig From…', command: 'apply-rig-from', disabled: !hasCreature },
      'separator',
      { label: 'Go Limp (All Joints)', command: 'go-limp-all', disabled: !drive.enabled },
      { label: 'Power On (All Joints)', command: 'power-on-all', disabled: !drive.enabled },
      { label: 'Clear Preview Inputs', command: 'clear-inputs', disabled: !hasInputs },
    ],
    Help: [{ label: 'About Marionette', command: 'about' }],
  };

  const run = (c: MenuCommand) => { setOpen(null); dispatchMenuCommand(c); };

  const renderItems = (items: Item[]) =>
    items.map((item, i) => {
      if (item === 'separator') return <div key={`sep${i}`} className="menu-separator" />;
      if ('submenu' in item) {
        return (
          <div key={item.label} className="menu-item has-submenu" role="menuitem" aria-haspopup="menu" aria-label={item.label} tabIndex={-1}>
            <span className="menu-check" />
            <span className="menu-label">{item.label}</span>
            <span className="menu-shortcut">▸</span>
            <div className="menu-dropdown submenu" role="menu">{renderItems(item.submenu)}</div>
          </div>
        );
      }
      return (
        <button key={item.label} className="menu-item" role={item.checked === undefined ? 'menuitem' : 'menuitemcheckbox'} aria-checked={item.checked} aria-label={item.label} aria-keyshortcuts={item.shortcut} disabled={item.disabled} onClick={() => run(item.command)}>
          <span className="menu-check">{item.checked ? '✓' : ''}</span>
          <span className="menu-label">{item.label}</span>
          <span className="menu-shortcut">{item.shortcut}</span>
        </button>
      );
    });

  return (
    <nav className="menubar" ref={ref} role="menubar">
      <span className="app-mark" aria-hidden>◆</span>
      {Object.entries(menus).map(([name, items]) => (
        <div key={name} className={`menu${open === name ? ' open' : ''}`}>
          <button
            className="menu-title"
            role="menuitem"
            aria-haspopup="menu"
            aria-expanded={open === name}
            onMouseDown={(e) => { e.preventDefault(); setOpen(open === name ? null : name); }}
            onMouseEnter={() => { if (open) setOpen(name); }}
          >
            {name}
          </button>
          {open === name && <div className="menu-dropdown" role="menu">{renderItems(items)}</div>}
        </div>
      ))}
    </nav>
  );
}
