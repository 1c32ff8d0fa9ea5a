/**
 * window.__marionetteAuthoring in the test build: read-only views of what the authoring layer draws, for
 * the end-to-end tests — the joint limits as drawn (angles read back from the geometry), where a body is
 * on screen, and the preview's recorded series. `seek` moves the playhead (what a timeline scrub does).
 */
import { Vector3 } from 'three';
import { getViewportHandle } from '../viewport/viewportHandle';
import { bodyObjects, shapeObjects, shapeKey } from './shapeObjects';
import { drawnLimits, jointsGroup, type DrawnLimit } from './JointLimits';
import { frames, seek, shownFrame } from './preview';

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
  };
  (window as unknown as { __marionetteAuthoring: AuthoringTestHook }).__marionetteAuthoring = hook;
}
