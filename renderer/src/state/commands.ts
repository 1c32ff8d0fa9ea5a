/** Menu commands (native menu under Electron, the in-app menu bar in the web build) → editor actions. */
import type { MenuCommand } from '../../../shared/platform';
import * as editor from './editor';
import { useEditor } from './store';
import { authoringShortcut } from '../authoring/shortcuts';
import { toggleFollow, toggleOverlay } from '../preview/previewStore';
import { setSolver } from '../preview/particleMode';
import { isExampleFile, openExampleFile } from '../preview/particleExamples';
import { pickInScene } from '../preview/sceneSelection';
import { isRigMenuCommand, runRigCommand } from '../authoring/rigMenu';
import { takesTyping } from './keyTarget';

export function runCommand(command: MenuCommand): void {
  if (typeof command === 'object') {
    if (command.kind === 'toggle-overlay') toggleOverlay(command.overlay);
    else if (command.kind === 'open-recent') void editor.openRecent(command.entry);
    else if (command.kind === 'set-solver') setSolver(command.solver);
    else if (command.kind === 'export') void editor.exportRig(command.format);
    // assets/examples/*.json: particle scenes (and any JSON project) open by their format.
    else if (isExampleFile(command.name, command.path)) void openExampleFile(command.name, command.path);
    else void editor.openBuiltinCreature(command.name, command.path);
    return;
  }
  if (isRigMenuCommand(command)) { runRigCommand(command); return; }
  switch (command) {
    case 'new': void editor.newProject(); break;
    case 'open-creature': void editor.pickAndOpenCreature(); break;
    case 'open-project': void editor.pickAndOpenProject(); break;
    case 'save': void editor.save(false); break;
    case 'save-as': void editor.save(true); break;
    case 'export-rig': void editor.exportRig(); break;
    // From the native menu while typing in a field, Undo/Redo mean the field's own text undo.
    case 'undo': if (isEditable(document.activeElement)) document.execCommand('undo'); else editor.undo(); break;
    case 'redo': if (isEditable(document.activeElement)) document.execCommand('redo'); else editor.redo(); break;
    case 'frame-selection': editor.frameSelection(); break;
    case 'toggle-skeleton': editor.toggleSkeleton(); break;
    case 'toggle-follow': toggleFollow(); break;
    case 'about': void editor.ask('About Marionette', ABOUT, ['OK']); break;
  }
}

const ABOUT = 'Marionette 0.1 — an editor for powered ragdolls: rigid bodies, limited joints and torque-limited motors driven by cyclic IK gaits. MIT licensed.';

const isEditable = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

/**
 * Keyboard shortcuts. Under Electron the native menu's accelerators deliver the menu commands itself, so
 * only the keys without a menu item are handled here there; in the browser every shortcut is ours.
 */
export function installShortcuts(nativeMenu: boolean): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (useEditor.getState().prompt) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    let command: MenuCommand | null = null;
    if (mod && key === 'z') command = e.shiftKey ? 'redo' : 'undo';
    else if (mod && key === 'y') command = 'redo';
    else if (mod && key === 's') command = e.shiftKey ? 'save-as' : 'save';
    else if (mod && key === 'o') command = e.shiftKey ? 'open-project' : 'open-creature';
    else if (mod && key === 'n') command = 'new';
    else if (mod && key === 'e') command = 'export-rig';
    else if (mod && e.shiftKey && key === 'k') command = 'toggle-skeleton';
    // Plain keys are shortcuts unless the focused control takes typing (keyTarget.ts); Space is bound once,
    // in the preview tools (timeline/PreviewTools.tsx).
    else if (!mod && !e.altKey && key === 'f' && !takesTyping(e.target)) command = 'frame-selection';
    else if (!mod && !e.altKey && key === 'escape' && !takesTyping(e.target)) { editor.select(null); pickInScene(null); e.preventDefault(); return; }
    else if (!mod && !e.altKey && !takesTyping(e.target) && authoringShortcut(key)) { e.preventDefault(); return; }
    if (!command) return;
    // Typing in a field keeps the field's own undo; saving works everywhere.
    if (isEditable(e.target) && (command === 'undo' || command === 'redo')) return;
    e.preventDefault();
    if (nativeMenu && command !== 'frame-selection') return;
    runCommand(command);
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
