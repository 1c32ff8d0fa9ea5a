/**
 * Clicks on rig bodies, decided before the viewport's own handlers (capture phase on the canvas' parent):
 * the bodies sit inside the creature's skin, so three's nearest-hit order would always give the mesh.
 *  - Select tool: a click on a body selects it (the shape under the cursor); elsewhere the click goes on
 *    to bone picking. A drag still orbits.
 *  - Poke tool (the preview's interaction): click = impulse at the hit point along the view ray, drag =
 *    grab with a spring, Shift-click = radial blast (previewInteraction.ts).
 * A gizmo handle or a limit handle under the cursor always wins.
 */
import { useEffect } from 'react';
import { useThree } from '@react-three/fiber';
import { Raycaster, Vector2, type Camera, type Intersection, type Object3D } from 'three';
import { select } from '../state/editor';
import { useAuthoring } from './authoringStore';
import { pokeHandlers } from './previewInteraction';

export const gizmoRegistry: { shape: { axis: string | null } | null; joint: { axis: string | null } | null } = { shape: null, joint: null };

const raycaster = new Raycaster();
const ndc = new Vector2();

const visible = (o: Object3D | null): boolean => {
  for (let p = o; p; p = p.parent) if (!p.visible) return false;
  return true;
};

export interface BodyHit { body: string; shape: number; point: [number, number, number]; ray: { origin: [number, number, number]; direction: [number, number, number] } }

/** The nearest body shape under a page point, or null (also null when a handle is in front). */
export function pickBody(scene: Object3D, camera: Camera, el: HTMLElement, clientX: number, clientY: number): BodyHit | null {
  const rect = el.getBoundingClientRect();
  ndc.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  const roots = ['bodies', 'limits'].map((n) => scene.getObjectByName(n)).filter((o): o is Object3D => !!o && visible(o));
  const hits: Intersection[] = raycaster.intersectObjects(roots, true).filter((h) => visible(h.object));
  const first = hits[0];
  if (!first || first.object.userData.limitHandle) return null;
  const hit = hits.find((h) => typeof h.object.userData.body === 'string');
  if (!hit) return null;
  const o = raycaster.ray.origin, d = raycaster.ray.direction;
  return {
    body: hit.object.userData.body as string,
    shape: hit.object.userData.shape as number,
    point: [hit.point.x, hit.point.y, hit.point.z],
    ray: { origin: [o.x, o.y, o.z], direction: [d.x, d.y, d.z] },
  };
}

const gizmoHot = () => (gizmoRegistry.shape?.axis ?? null) !== null || (gizmoRegistry.joint?.axis ?? null) !== null;

export function PickInterceptor() {
  const { gl, camera, scene } = useThree();
  useEffect(() => {
    const el = gl.domElement;
    const host = el.parentElement ?? el;
    const poke = pokeHandlers({ el, camera, scene });
    const hitAt = (e: MouseEvent) => (gizmoHot() ? null : pickBody(scene, camera, el, e.clientX, e.clientY));
    const stop = (e: Event) => { e.stopPropagation(); e.stopImmediatePropagation(); };
    let downAt: { x: number; y: number } | null = null;

    const onDown = (e: PointerEvent) => {
      if (e.button !== 0 || e.target !== el) return;
      downAt = { x: e.clientX, y: e.clientY };
      if (useAuthoring.getState().tool !== 'poke') return;
      const hit = hitAt(e);
      if (hit || e.shiftKey) {
        if (poke.down(e, hit)) stop(e);
      }
    };
    const onMove = (e: PointerEvent) => { if (poke.active()) { poke.move(e); stop(e); } };
    const onUp = (e: PointerEvent) => { if (poke.active()) { poke.up(e); stop(e); } };
    const onClick = (e: MouseEvent) => {
      if (e.target !== el) return;
      const moved = downAt ? Math.hypot(e.clientX - downAt.x, e.clientY - downAt.y) : 0;
      if (useAuthoring.getState().tool === 'poke') { if (poke.consumedClick()) stop(e); return; }
      if (moved > 4) return;
      const hit = hitAt(e);
      if (!hit) return;
      stop(e);
      select({ kind: 'shape', name: hit.body, index: hit.shape });
    };
    host.addEventListener('pointerdown', onDown, true);
    window.addEventListener('pointermove', onMove, true);
    window.addEventListener('pointerup', onUp, true);
    host.addEventListener('click', onClick, true);
    return () => {
      host.removeEventListener('pointerdown', onDown, true);
      window.removeEventListener('pointermove', onMove, true);
      window.removeEventListener('pointerup', onUp, true);
      host.removeEventListener('click', onClick, true);
    };
  }, [gl, camera, scene]);
  return null;
}
