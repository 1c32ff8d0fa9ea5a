/**
 * Where the preview has a body on the frame shown, for the rig overlays (null: draw the rest pose), and
 * whether the preview is showing a simulated frame (then the gizmos, which edit the rest pose, hide).
 */
import type { Transform } from '../../../shared/math/transform';
import { bodyPoseAt, jointLimpAt, previewShowing, shownFrame } from './preview';

export function previewBodyPose(body: string): Transform | null {
  return previewShowing() ? bodyPoseAt(body, shownFrame()) : null;
}

/** Whether every one of `joints` (the joints that drive a body) is limp on the frame shown. */
export function previewJointsLimp(joints: readonly string[]): boolean {
  if (joints.length === 0 || !previewShowing()) return false;
  const f = shownFrame();
  return joints.every((j) => jointLimpAt(j, f));
}

export const previewActive = (): boolean => previewShowing();
