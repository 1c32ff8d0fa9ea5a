/**
 * The authoring tools' one door to the preview (renderer/src/preview): read body poses on the frame shown,
 * and stamp user inputs (impulse, blast, grab, go limp / power on) at that frame. The preview re-simulates
 * from there, so an input is part of the recording that plays, scrubs and plots.
 */
import { hasPreviewClient, previewClient } from '../preview/client';
import { usePreview } from '../preview/previewStore';
import * as api from '../preview/previewApi';
import type { Transform } from '../../../shared/math/transform';

/** The frame the user is looking at (0 before anything is recorded). */
export function shownFrame(): number {
  return hasPreviewClient() ? Math.max(0, previewClient().frameIndex()) : 0;
}

/** Whether the viewport shows a simulated frame (past the rest pose at frame 0). */
export function previewShowing(): boolean {
  return hasPreviewClient() && previewClient().current && previewClient().frameIndex() > 0;
}

export function bodyPoseAt(body: string, frame: number): Transform | null {
  if (!hasPreviewClient()) return null;
  const c = previewClient();
  const f = c.frame(frame), o = c.bodyOffset(body);
  if (!f || o < 0) return null;
  return { position: [f[o]!, f[o + 1]!, f[o + 2]!], rotation: [f[o + 3]!, f[o + 4]!, f[o + 5]!, f[o + 6]!] };
}

/** Whether joint `name`'s motor is off (limp) on frame `frame` of the recording; false when unknown. */
export function jointLimpAt(name: string, frame: number): boolean {
  if (!hasPreviewClient()) return false;
  const c = previewClient(), L = c.layout, aux = c.auxOf(frame);
  const j = L ? L.layout.joints.indexOf(name) : -1;
  return !!L && !!aux && j >= 0 && aux[L.aux.motors + j] === 0;
}

export const { applyImpulseAt, blast, grab, moveGrab, releaseGrab, setLimp, seek, frames, onChange } = api;
export { usePreview };
