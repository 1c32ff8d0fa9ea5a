/**
 * Hands the loaded creature's animation clips (LoadedCreature.clips, read from the file as data) to the
 * preview whenever the creature changes, so motors whose target source is "animation" follow them. The
 * preview's host keeps the clips across rig edits; a creature without clips clears them.
 */
import { useEditor } from '../state/store';
import { setAnimationClips } from '../preview/previewApi';

let installed = false;

export function installClipFeed(): void {
  if (installed) return;
  installed = true;
  const send = (creature: ReturnType<typeof useEditor.getState>['creature']) => setAnimationClips(creature?.clips ?? []);
  if (useEditor.getState().creature) send(useEditor.getState().creature);
  useEditor.subscribe((s, p) => { if (s.creature !== p.creature) send(s.creature); });
}
