/**
 * The Poke tool on the preview: click a body → impulse at the hit point along the view ray (strength from
 * the slider, N·s); drag → grab the body at that point with a spring toward the cursor, moved in the plane
 * through the grab point facing the camera; Shift-click → radial blast centred at the point clicked (on a
 * body or the floor). Each is a command of the editor (shared/editor inputs.ts), stamped on the preview at
 * the frame shown.
 */
import { Plane, Raycaster, Vector2, Vector3, type Camera, type Object3D } from 'three';
import { BLAST_RADIUS } from '../../../shared/editor';
import { editor } from '../state/editor';
import { useAuthoring } from './authoringStore';
import type { BodyHit } from './bodyPicking';

export { BLAST_RADIUS };

/** A drag longer than this (px) grabs instead of poking. */
const DRAG_PX = 5;

const raycaster = new Raycaster();
const ndc = new Vector2();
const plane = new Plane();
const v = new Vector3();

export function pokeHandlers({ el, camera }: { el: HTMLElement; camera: Camera; scene: Object3D }) {
  let press: { x: number; y: number; hit: BodyHit; grabbing: boolean } | null = null;
  let consumed = false;

  const rayAt = (x: number, y: number) => {
    const r = el.getBoundingClientRect();
    ndc.set(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    return raycaster.ray;
  };

  return {
    active: () => press !== null,
    consumedClick: () => { const c = consumed; consumed = false; return c; },
    down(e: PointerEvent, hit: BodyHit | null): boolean {
      consumed = false;
      if (e.shiftKey) {
        // Blast centre: the body point, or where the ray meets the floor (y = 0).
        let c: [number, number, number] | null = hit?.point ?? null;
        if (!c) {
          const ray = rayAt(e.clientX, e.clientY);
          plane.set(new Vector3(0, 1, 0), 0);
          if (ray.intersectPlane(plane, v)) c = [v.x, v.y, v.z];
        }
        if (!c) return false;
        const strength = useAuthoring.getState().blastStrength;
        editor.inputs.blast(c, strength, BLAST_RADIUS);
        consumed = true;
        return true;
      }
      if (!hit) return false;
      press = { x: e.clientX, y: e.clientY, hit, grabbing: false };
      return true;
    },
    move(e: PointerEvent) {
      if (!press) return;
      if (!press.grabbing && Math.hypot(e.clientX - press.x, e.clientY - press.y) > DRAG_PX) {
        press.grabbing = true;
        const h = press.hit;
        editor.inputs.grab(h.body, h.point);
      }
      if (press.grabbing) {
        // Move in the plane through the grab point, facing the camera.
        const n = camera.getWorldDirection(new Vector3());
        plane.setFromNormalAndCoplanarPoint(n, new Vector3(...press.hit.point));
        if (rayAt(e.clientX, e.clientY).intersectPlane(plane, v)) editor.inputs.moveGrab([v.x, v.y, v.z]);
      }
    },
    up(_e: PointerEvent) {
      if (!press) return;
      const p = press;
      press = null;
      consumed = true;
      if (p.grabbing) { editor.inputs.releaseGrab(); return; }
      const s = useAuthoring.getState().impulseStrength;
      const d = p.hit.ray.direction;
      editor.inputs.poke(p.hit.body, p.hit.point, [d[0] * s, d[1] * s, d[2] * s]);
    },
  };
}
