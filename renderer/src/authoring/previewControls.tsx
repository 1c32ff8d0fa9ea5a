/**
 * Go limp / power on, per joint (joint inspector) and for the whole creature (toolbar), at the frame
 * shown: an input on the preview's timeline, applied without a frame's delay; rigid bodies keep the
 * velocity of their last two transforms (the preview engine's inheritVelocity). Under the particle solver
 * the same inputs switch the pose drive, and joints start limp (jointDrive.ts).
 */
import { useMemo } from 'react';
import { usePreview } from './preview';
import { editor } from '../state/editor';
import { useEditor } from '../state/store';
import { useSolver } from '../preview/particleMode';
import { Section } from './Section';
import { creatureDrive, isLimpAt, type CreatureDrive, type DriveSolver } from './jointDrive';

export { isLimpAt };

/** The solver the preview runs now: a particle example, or the creature under Rigid | Particle. */
export function useDriveSolver(): DriveSolver {
  return useSolver((s) => (s.scene !== null || s.solver === 'particle' ? 'particle' : 'rigid'));
}

/** Go limp / Power on for the whole creature: whether they can act, and their tooltips (either solver). */
export function useCreatureDrive(): CreatureDrive {
  const solver = useDriveSolver();
  const hasCreature = useEditor((s) => s.creature !== null);
  const hasBodies = useEditor((s) => (s.document?.rig.bodies.length ?? 0) > 0);
  const scene = useSolver((s) => s.scene !== null);
  return creatureDrive({ particlePreview: solver === 'particle' && (scene || hasCreature), hasBodies });
}

/** Go limp / power on from the frame shown (the editor's input command; a refusal is told as a toast). */
export function setLimp(joints: string[] | 'all', limp: boolean): void {
  editor.inputs.setLimp(joints, limp);
}

export function JointPreviewControls({ joint }: { joint: string }) {
  const inputs = usePreview((s) => s.inputs);
  const playhead = usePreview((s) => s.playhead);
  const solver = useDriveSolver();
  const limp = useMemo(() => isLimpAt(inputs, joint, Math.max(0, playhead), solver), [inputs, joint, playhead, solver]);
  const what = solver === 'particle' ? 'pose drive' : 'motor';
  return (
    <Section title="Preview">
      <div className="prop-row authoring-row">
        <span className="prop-label">{solver === 'particle' ? 'Drive' : 'Motor'}</span>
        <span className="prop-fields">
          <span className={`state-pill ${limp ? 'limp' : 'on'}`} data-testid="joint-drive-state">{limp ? 'limp' : 'powered'}</span>
          <button className="mini-button" disabled={limp} title={`From the frame shown, this joint's ${what} lets go`} onClick={() => setLimp([joint], true)}>Go limp</button>
          <button className="mini-button" disabled={!limp} title={`From the frame shown, this joint's ${what} drives ${solver === 'particle' ? 'it toward its rest pose' : 'again'}`} onClick={() => setLimp([joint], false)}>Power on</button>
        </span>
      </div>
      <div className="hint motor-hint">At frame {Math.max(0, playhead)}; the preview re-simulates from there.{solver === 'particle' ? ' Under the particle solver joints start limp.' : ''}</div>
    </Section>
  );
}
