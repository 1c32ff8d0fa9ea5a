/**
 * Where the preview has a body on the frame shown, for the rig overlays (null: draw the rest pose), and
 * whether the preview is showing a simulated frame (then the gizmos, which edit the rest pose, hide).
 */
import type { Transform } from '../../../shared/math/transform';
import { bodyPoseAt, previewShowing, shownFrame } from './preview';

export function previewBodyPose(body: string): Transform | null {
  return previewShowing() ? bodyPoseAt(body, shownFrame()) : null;
}

export const previewActive = (): boolean => previewShowing();
