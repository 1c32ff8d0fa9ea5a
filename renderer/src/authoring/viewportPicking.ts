/**
 * Clicks on rig bodies, decided before the viewport's own handlers (capture phase on the canvas' parent):
 * the bodies sit inside the creature's skin, so three's nearest-hit order would always give the mesh.
 *  - Select tool: a click on a skeleton gizmo goes on to bone picking (the skeleton is drawn on top); a
 *    click on a drawn body selects it (the shape under the cursor); elsewhere the click goes on to bone
 *    picking, where the skinned mesh picks its dominant bone. A drag still orbits.
 *  - Poke tool (the preview's interaction): click = impulse at the hit point along the view ray, drag =
 *    grab with a spring, Shift-click = radial blast (previewInteraction.ts); bodies are hit whether the
 *    bodies overlay is on or not, since the user pokes the creature they see.
 * A gizmo handle or a limit handle under the cursor always wins.
 */
import { useEffect } from 'react';
import { clickEndsDrag } from '../viewport/useDragGesture';
import { useThree } from '@react-three/fiber';
import { select } from '../state/editor';
import { useAuthoring } from './authoringStore';
import { pokeHandlers } from './previewInteraction';
import { pickBody } from './bodyPicking';

export type { BodyHit } from './bodyPicking';

export const gizmoRegistry: { shape: { axis: string | null } | null; joint: { axis: string | null; enabled?: boolean } | null } = { shape: null, joint: null };

const gizmoHot = () => (gizmoRegistry.shape?.axis ?? null) !== null || (gizmoRegistry.joint?.axis ?? null) !== null;

export function PickInterceptor() {
  const { gl, camera, scene } = useThree();
  useEffect(() => {
    const el = gl.domElement;
    const host = el.parentElement ?? el;
    const poke = pokeHandlers({ el, camera, scene });
    // Poke pokes the creature on screen, bodies drawn or not; Select leaves a click on a bone gizmo to the bone.
    const hitAt = (e: MouseEvent) => {
      if (gizmoHot()) return null;
      const poking = useAuthoring.getState().tool === 'poke';
      return pickBody(scene, camera, el, e.clientX, e.clientY, poking ? { hiddenBodies: true } : { bonesFirst: true });
    };
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
      if (moved > 4 || clickEndsDrag()) return;
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
