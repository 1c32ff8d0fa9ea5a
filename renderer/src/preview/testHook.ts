/**
 * window.__marionettePreview in the test build: read-only views of the preview for the end-to-end test
 * and the latency benchmark (tests act through the UI; this only reads).
 */
import { Vector3 } from 'three';
import { useEditor } from '../state/store';
import { getViewportHandle } from '../viewport/viewportHandle';
import { pathHandles } from '../viewport/overlays/PathOverlay';
import { previewClient } from './client';
import { usePreview } from './previewStore';
import { shownPose } from './shownPose';

type Poses = Record<string, { p: number[]; q: number[] }>;

function posesOf(frame: Float64Array | null): Poses | null {
  const L = previewClient().layout;
  if (!frame || !L) return null;
  const out: Poses = {};
  L.layout.bodies.forEach((name, i) => {
    const o = 1 + i * 13;
    out[name] = { p: Array.from(frame.subarray(o, o + 3)), q: Array.from(frame.subarray(o + 3, o + 7)) };
  });
  return out;
}

export interface PreviewTestHook {
  recorded(): number;
  playhead(): number;
  playing(): boolean;
  /** The frames shown belong to the current document (no edit still being re-simulated). */
  current(): boolean;
  problem(): string | null;
  shown(): { index: number; bodies: Poses | null };
  recordedBodies(frame: number): Poses | null;
  pathHandleScreen(controller: string, index: number): { x: number; y: number } | null;
  controlPoints(): number[][] | null;
  latencies(): number[];
  stepsPerSecond(): number;
}

export function installPreviewTestHook(): void {
  const hook: PreviewTestHook = {
    recorded: () => previewClient().count,
    playhead: () => previewClient().frameIndex(),
    playing: () => usePreview.getState().playing,
    current: () => previewClient().current,
    problem: () => usePreview.getState().problem,
    shown: () => ({ index: shownPose.index, bodies: posesOf(shownPose.frame) }),
    recordedBodies: (f) => posesOf(previewClient().frame(f)),
    pathHandleScreen(controller, index) {
      const h = pathHandles.get(controller)?.[index], vp = getViewportHandle();
      if (!h || !vp) return null;
      const p = h.getWorldPosition(new Vector3()).project(vp.camera);
      const r = vp.gl.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    },
    controlPoints: () => {
      const c = useEditor.getState().document?.rig.controllers.find((x) => x.type === 'cyclicPath');
      return c && c.type === 'cyclicPath' ? c.controlPoints.map((p) => [...p]) : null;
    },
    latencies: () => [...previewClient().latencies],
    stepsPerSecond: () => usePreview.getState().stats.stepsPerSecond,
  };
  (window as unknown as { __marionettePreview: PreviewTestHook }).__marionettePreview = hook;
}
