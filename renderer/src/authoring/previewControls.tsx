/**
 * Go limp / power on, per joint (joint inspector) and for the whole creature (toolbar), at the frame
 * shown: an input on the preview's timeline, applied without a frame's delay; bodies keep the velocity of
 * their last two transforms (the preview engine's inheritVelocity).
 */
import { useMemo } from 'react';
import { setLimp as previewSetLimp, usePreview } from './preview';
import { notify } from '../state/editor';
import { Section } from './BodyInspector';

/** Whether `joint` is limp after the inputs up to `frame` (the last limp / power-on input that names it). */
export function isLimpAt(inputs: readonly { kind: string; frame: number; joints?: string[] | 'all'; limp?: boolean }[], joint: string, frame: number): boolean {
  let limp = false;
  for (const i of inputs) {
    if (i.kind !== 'limp' || i.frame > frame) continue;
    if (i.joints === 'all' || i.joints?.includes(joint)) limp = !!i.limp;
  }
  return limp;
}

export function setLimp(joints: string[] | 'all', limp: boolean): void {
  try {
    previewSetLimp(joints, limp);
  } catch (e) {
    notify('error', `${limp ? 'Go limp' : 'Power on'}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export function JointPreviewControls({ joint }: { joint: string }) {
  const inputs = usePreview((s) => s.inputs);
  const playhead = usePreview((s) => s.playhead);
  const limp = useMemo(() => isLimpAt(inputs, joint, Math.max(0, playhead)), [inputs, joint, playhead]);
  return (
    <Section title="Preview">
      <div className="prop-row authoring-row">
        <span className="prop-label">Motor</span>
        <span className="prop-fields">
          <span className={`state-pill ${limp ? 'limp' : 'on'}`}>{limp ? 'limp' : 'powered'}</span>
          <button className="mini-button" disabled={limp} title="From the frame shown, this joint's motor lets go" onClick={() => setLimp([joint], true)}>Go limp</button>
          <button className="mini-button" disabled={!limp} title="From the frame shown, this joint's motor drives again" onClick={() => setLimp([joint], false)}>Power on</button>
        </span>
      </div>
      <div className="hint motor-hint">At frame {Math.max(0, playhead)}; the preview re-simulates from there.</div>
    </Section>
  );
}
