/**
 * window.__marionettePreview in the test build: read-only views of the preview for the end-to-end test
 * and the latency benchmark (tests act through the UI; this only reads).
 */
import { Vector3, type Mesh } from 'three';
import { useEditor } from '../state/store';
import { getViewportHandle } from '../viewport/viewportHandle';
import { pathGizmo, pathHandles } from '../viewport/overlays/PathOverlay';
import { cameraFollowSettled, followedOffset } from '../viewport/overlays/CameraFollow';
import { previewClient } from './client';
import { usePreview } from './previewStore';
import { shownPose } from './shownPose';
import { editTraces, type EditTrace } from './editTrace';

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
  /** The timeline's length (frames) and the recording's step (s). */
  duration(): { frames: number; dt: number };
  playhead(): number;
  playing(): boolean;
  /** The frames shown belong to the current document (no edit still being re-simulated). */
  current(): boolean;
  problem(): string | null;
  shown(): { index: number; bodies: Poses | null };
  /** For the latency benchmark: the frame and rig generation the viewport last drew, the newest generation
   *  sent to the worker and the frame under the playhead it waits for. */
  shownEdit(): { index: number; generation: number; sent: number; playhead: number; current: boolean };
  recordedBodies(frame: number): Poses | null;
  pathHandleScreen(controller: string, index: number): { x: number; y: number } | null;
  controlPoints(): number[][] | null;
  latencies(): number[];
  /** Per rig generation sent, the stamps of its way to the viewport (editTrace.ts). */
  editTraces(): EditTrace[];
  /** Worker compute → first viewport frame that could draw it (ms), per batch. */
  displayLatencies(): number[];
  stepsPerSecond(): number;
  follow(): boolean;
  cameraPose(): { position: [number, number, number]; target: [number, number, number] } | null;
  /** The camera has caught up with the root (or is not following). */
  cameraSettled(): boolean;
  /** Where the followed root (body, or root particle) of the shown frame is on the viewport: 0…1 across and down. */
  rootInViewport(): { u: number; v: number } | null;
  selectedPoint(): { controller: string; index: number } | null;
  /** Page position of the path gizmo's X / Y / Z arrow (its pick zone's centre), or null. */
  pathGizmoScreen(axis: 'X' | 'Y' | 'Z'): { x: number; y: number } | null;
  /** The gizmo axis under the pointer (what a press would drag), or null. */
  pathGizmoHovered(): string | null;
}

function toPage(world: Vector3): { x: number; y: number } | null {
  const vp = getViewportHandle();
  if (!vp) return null;
  const p = world.clone().project(vp.camera);
  const r = vp.gl.domElement.getBoundingClientRect();
  return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
}

export function installPreviewTestHook(): void {
  const hook: PreviewTestHook = {
    recorded: () => previewClient().count,
    duration: () => ({ frames: usePreview.getState().duration, dt: usePreview.getState().dt }),
    playhead: () => previewClient().frameIndex(),
    playing: () => usePreview.getState().playing,
    current: () => previewClient().current,
    problem: () => usePreview.getState().problem,
    shown: () => ({ index: shownPose.index, bodies: posesOf(shownPose.frame) }),
    shownEdit: () => {
      const c = previewClient();
      return { index: shownPose.index, generation: shownPose.generation, sent: c.sentGeneration, playhead: Math.floor(c.playhead), current: c.current };
    },
    recordedBodies: (f) => posesOf(previewClient().frame(f)),
    pathHandleScreen(controller, index) {
      const h = pathHandles.get(controller)?.[index];
      return h ? toPage(h.getWorldPosition(new Vector3())) : null;
    },
    controlPoints: () => {
      const c = useEditor.getState().document?.rig.controllers.find((x) => x.type === 'cyclicPath');
      return c && c.type === 'cyclicPath' ? c.controlPoints.map((p) => [...p]) : null;
    },
    latencies: () => [...previewClient().latencies],
    displayLatencies: () => [...previewClient().displayLatencies],
    editTraces: () => [...editTraces.values()].map((t) => ({ ...t })),
    stepsPerSecond: () => usePreview.getState().stats.stepsPerSecond,
    follow: () => usePreview.getState().follow,
    cameraPose: () => getViewportHandle()?.cameraPose() ?? null,
    cameraSettled: cameraFollowSettled,
    rootInViewport() {
      const o = followedOffset(), f = shownPose.frame, vp = getViewportHandle();
      if (o < 0 || !f || !vp) return null;
      const p = new Vector3(f[o], f[o + 1], f[o + 2]).project(vp.camera);
      return { u: (p.x + 1) / 2, v: (1 - p.y) / 2 };
    },
    selectedPoint: () => usePreview.getState().selectedPoint,
    pathGizmoScreen(axis) {
      // three-stdlib's gizmo: pick meshes named by axis under gizmo.picker.translate, their offset baked
      // into the geometry and placed (scaled with distance, flipped toward the viewer) on every render; the
      // centre of the pick zone's bounds is a safe place to press.
      const pick = pathGizmo.current?.gizmo?.picker?.translate?.children.find((c) => c.name === axis) as Mesh | undefined;
      if (!pick || !pathGizmo.current?.visible) return null;
      pick.geometry.computeBoundingBox();
      return toPage(pick.geometry.boundingBox!.getCenter(new Vector3()).applyMatrix4(pick.matrixWorld));
    },
    pathGizmoHovered: () => (pathGizmo.current?.visible ? pathGizmo.current.axis : null),
  };
  (window as unknown as { __marionettePreview: PreviewTestHook }).__marionettePreview = hook;
}
