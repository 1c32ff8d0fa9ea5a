/**
 * Reading the shown frame for the overlays: body poses from the flat frame, the aux record, the colour
 * ramp for motor torque. Allocation-free helpers (overlays call them in useFrame).
 */
import { Color, Matrix4, Quaternion, Vector3 } from 'three';
import type { PreviewClient } from '../../preview/client';

export const OVERLAY_COLORS = {
  body: '#5fb3ff',
  bodyLimp: '#8a8f98',
  axisX: '#e5484d',
  axisY: '#46a758',
  axisZ: '#3e8ed0',
  contact: '#ff5bd6',
  path: '#7cd992',
  pathLocal: '#6b7a8f',
  handle: '#ffffff',
  handleSelected: '#ff8c00',
  phase: '#ffd23f',
  target: '#ff6b3d',
  ik: '#b794f6',
};

const IDLE = new Color('#3f7fbf');
const MID = new Color('#f2c94c');
const HOT = new Color('#ff3b30');

/** Torque ratio |τ|/τmax ∈ [0, 1] → colour: blue (idle) → yellow (half) → red (at the limit / saturated). */
export function torqueColor(ratio: number, saturated: boolean, out: Color): Color {
  if (saturated) return out.copy(HOT);
  const r = Math.min(1, Math.max(0, ratio));
  return r < 0.5 ? out.copy(IDLE).lerp(MID, r / 0.5) : out.copy(MID).lerp(HOT, (r - 0.5) / 0.5);
}

/** Body i's world pose in frame `f` (p, q) into three objects; false when the frame is missing. */
export function bodyPose(frame: Float64Array, bodyIndex: number, p: Vector3, q: Quaternion): void {
  const o = 1 + bodyIndex * 13;
  p.set(frame[o]!, frame[o + 1]!, frame[o + 2]!);
  q.set(frame[o + 3]!, frame[o + 4]!, frame[o + 5]!, frame[o + 6]!);
}

export function poseMatrix(p: readonly number[] | Vector3, q: readonly number[] | Quaternion, out: Matrix4): Matrix4 {
  const pv = p instanceof Vector3 ? p : new Vector3(p[0], p[1], p[2]);
  const qv = q instanceof Quaternion ? q : new Quaternion(q[0], q[1], q[2], q[3]);
  return out.compose(pv, qv, ONE);
}

const ONE = new Vector3(1, 1, 1);

/** The frame on screen and its data, or null. */
export function shown(client: PreviewClient): { index: number; frame: Float64Array; aux: Float64Array } | null {
  const index = client.frameIndex();
  const frame = client.frame(index), aux = client.auxOf(index);
  return frame && aux ? { index, frame, aux } : null;
}
