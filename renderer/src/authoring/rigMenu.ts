/**
 * The Rig menu (native menu under Electron, the in-app menu bar in the web build): each item runs an
 * existing authoring action, with a message when it cannot apply yet (no creature, no bodies, nothing to
 * fix) instead of doing nothing silently.
 */
import type { MenuCommand } from '../../../shared/platform';
import { editor, notify } from '../state/editor';
import { useEditor } from '../state/store';
import { fixMassRatiosNow, mirrorLeftToRight, openGenerateDialog } from './actions';
import { fixRestOverlapsFromMenu } from './RigWarnings';
import { setLimp } from './previewControls';
import { creatureDrive } from './jointDrive';
import { useSolver } from '../preview/particleMode';

export type RigMenuCommand = Extract<MenuCommand, 'generate-bodies' | 'mirror-left-to-right' | 'fix-mass-ratios' | 'fix-rest-overlaps' | 'apply-rig-from' | 'go-limp-all' | 'power-on-all' | 'clear-inputs'>;

export const RIG_MENU_COMMANDS: readonly RigMenuCommand[] = ['generate-bodies', 'mirror-left-to-right', 'fix-mass-ratios', 'fix-rest-overlaps', 'apply-rig-from', 'go-limp-all', 'power-on-all', 'clear-inputs'];

export const isRigMenuCommand = (c: MenuCommand): c is RigMenuCommand => typeof c === 'string' && (RIG_MENU_COMMANDS as readonly string[]).includes(c);

/** Runs a Rig menu command; returns whether it changed something (or opened the dialog). */
export function runRigCommand(command: RigMenuCommand): boolean {
  const { creature, document } = useEditor.getState();
  if (command === 'go-limp-all' || command === 'power-on-all') {
    // Either solver: the rig's motors, or the particle pose drive (a particle example has no creature).
    const { solver, scene } = useSolver.getState();
    const drive = creatureDrive({ particlePreview: scene !== null || (solver === 'particle' && creature !== null), hasBodies: (document?.rig.bodies.length ?? 0) > 0 });
    const label = command === 'go-limp-all' ? 'Go Limp' : 'Power On';
    if (!creature && !scene) { notify('error', 'Rig menu: open a creature first.'); return false; }
    if (!drive.enabled) { notify('error', `${label}: ${drive.reason}.`); return false; }
    setLimp('all', command === 'go-limp-all');
    return true;
  }
  // Clear Preview Inputs: the editor says how many it took off (or why it cannot).
  if (command === 'clear-inputs') return editor.inputs.clear().ok;
  if (!creature || !document) { notify('error', 'Rig menu: open a creature first.'); return false; }
  switch (command) {
    case 'generate-bodies': openGenerateDialog(); return true;
    case 'mirror-left-to-right': return mirrorLeftToRight();
    // The editor's command says what it fixed, or why nothing (no bodies, every pair within 10×).
    case 'fix-mass-ratios': return fixMassRatiosNow();
    case 'fix-rest-overlaps': return fixRestOverlapsFromMenu();
    // Apply Rig From…: pick a rig JSON or project; the editor applies it by bone names (one undo step) and
    // lists every unmatched bone in a notice and a dialog.
    case 'apply-rig-from': void editor.tools.pickAndApplyRig(); return true;
  }
}
