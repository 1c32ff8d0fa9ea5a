/**
 * window.__marionetteAuthoring in the test build: read-only views of what the authoring layer draws, for
 * the end-to-end tests — the joint limits as drawn (angles read back from the geometry), where a body is
 * on screen, and the preview's recorded series. `seek` moves the playhead (what a timeline scrub does).
 */
import { Vector3, type Mesh, type Object3D } from 'three';
import { getViewportHandle } from '../viewport/viewportHandle';
import { bodyObjects, shapeObjects, shapeKey } from './shapeObjects';
import { drawnLimits, jointsGroup, slideHandles, type DrawnLimit } from './JointLimits';
import { frames, seek, shownFrame } from './preview';
import { gizmoRegistry } from './viewportPicking';
import { useAuthoring } from './authoringStore';

/** three-stdlib's TransformControls as the gizmo registry holds it: pick meshes by axis under gizmo.picker. */
type Gizmo = Object3D & { axis: string | null; object?: Object3D; gizmo?: { picker?: Record<string, Object3D> } };

export interface AuthoringTestHook {
  limits(): DrawnLimit[];
  /** Whether the joints (axes and limits) are drawn now — the Joints toggle — or null when there are none. */
  jointsShown(): boolean | null;
  /** Page coordinates (CSS px) of a body's first shape centre as drawn now, or null. */
  bodyScreenPosition(body: string): { x: number; y: number } | null;
  /** A recorded series (previewApi.frames().series) as a plain array. */
  series(name: string, quantity: string): number[];
  recorded(): number;
  shownFrame(): number;
  seek(frame: number): void;
  /** Page coordinates of the object the shape or joint gizmo drags (the gizmo's centre), or null. */
  gizmoCentre(which: 'shape' | 'joint'): { x: number; y: number } | null;
  /** Page coordinates of the shape or joint gizmo's pick zone for an axis ('X', 'Y', 'Z'), or null. */
  gizmoScreen(which: 'shape' | 'joint', axis: string): { x: number; y: number } | null;
  /** The axis of that gizmo under the pointer (what a press would drag), or null. */
  gizmoHovered(which: 'shape' | 'joint'): string | null;
  /** Whether a viewport drag is in progress (the orbit camera is off). */
  dragging(): boolean;
  /** Page coordinates of the selected joint's slide-end handle (kind 'slide' | 'slideY' | 'slideZ', end 0 = min, 1 = max), or null. */
  slideHandleScreen(joint: string, kind: string, end: 0 | 1): { x: number; y: number } | null;
  /** Whether the joint's move / rotate gizmo takes presses now (false while a limit handle is hovered or dragged). */
  jointGizmoEnabled(): boolean | null;
}

export function installAuthoringTestHook(): void {
  const hook: AuthoringTestHook = {
    limits: () => [...drawnLimits.values()].map((l) => ({ ...l })),
    jointsShown: () => (jointsGroup.current ? jointsGroup.current.visible : null),
    bodyScreenPosition(body) {
      const h = getViewportHandle();
      const o = shapeObjects.get(shapeKey(body, 0)) ?? bodyObjects.get(body);
      if (!h || !o) return null;
      o.updateWorldMatrix(true, false);
      const p = o.getWorldPosition(new Vector3()).project(h.camera);
      if (p.z > 1) return null;
      const rect = h.gl.domElement.getBoundingClientRect();
      return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
    },
    series: (name, quantity) => [...frames().series(name, quantity as Parameters<ReturnType<typeof frames>['series']>[1])],
    recorded: () => frames().t.length,
    shownFrame,
    seek,
    gizmoCentre(which) {
      const h = getViewportHandle();
      const o = (gizmoRegistry[which] as Gizmo | null)?.object;
      if (!h || !o) return null;
      const p = o.getWorldPosition(new Vector3()).project(h.camera);
      const rect = h.gl.domElement.getBoundingClientRect();
      return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
    },
    gizmoScreen(which, axis) {
      const h = getViewportHandle();
      const g = gizmoRegistry[which] as Gizmo | null;
      const pick = (g?.gizmo?.picker?.translate ?? g?.gizmo?.picker?.rotate)?.children.find((c) => c.name === axis) as Mesh | undefined;
      if (!h || !g || !pick || !g.visible) return null;
      pick.geometry.computeBoundingBox();
      const p = pick.geometry.boundingBox!.getCenter(new Vector3()).applyMatrix4(pick.matrixWorld).project(h.camera);
      const rect = h.gl.domElement.getBoundingClientRect();
      return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
    },
    gizmoHovered: (which) => { const g = gizmoRegistry[which] as Gizmo | null; return g?.visible ? g.axis : null; },
    dragging: () => useAuthoring.getState().dragging,
    slideHandleScreen(joint, kind, end) {
      const h = getViewportHandle();
      const o = slideHandles.get(`${joint}:${kind}:${end}`);
      if (!h || !o) return null;
      o.updateWorldMatrix(true, false);
      const p = o.getWorldPosition(new Vector3()).project(h.camera);
      if (p.z > 1) return null;
      const rect = h.gl.domElement.getBoundingClientRect();
      return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
    },
    jointGizmoEnabled: () => { const g = gizmoRegistry.joint; return g ? g.enabled !== false : null; },
  };
  (window as unknown as { __marionetteAuthoring: AuthoringTestHook }).__marionetteAuthoring = hook;
}
