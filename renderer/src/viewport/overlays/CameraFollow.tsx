/**
 * Camera follow (View › Follow Creature, key C): the orbit camera's target and eye are carried by a point
 * that chases the root body (under the particle solver: the root particle) of the shown frame as a critically damped spring (preview/follow.ts), so the
 * user's orbit offset and aim are kept and the crawling creature stays in view. Off: the camera stays.
 * Runs after the playhead has advanced (default priority, after PreviewLayer's −1) and mutates the
 * camera and controls in place — no React render per frame.
 */
import { useEffect } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import type { Vector3 } from 'three';
import { previewClient } from '../../preview/client';
import { usePreview } from '../../preview/previewStore';
import { useSolver } from '../../preview/solverState';
import { useEditor } from '../../state/store';
import type { HostLayout } from '../../../../shared/preview/protocol';
import { createFollowPoint, followRootOffset, followSettled, resetFollowPoint, stepFollowPoint } from '../../preview/follow';
import { shown } from './frameData';

/** The followed point, module scope so the test hook can ask whether the camera has caught up. */
export const cameraFollow = {
  point: createFollowPoint(),
  root: [0, 0, 0] as [number, number, number],
  active: false,
  /** Set when the user switches follow on: the camera glides to aim at the root (otherwise following
   *  starts where the camera aims, e.g. after F framed a bone, and keeps that aim relative to the root). */
  recentre: false,
  /** After a creature (or particle scene) opens: the recording of what was open before, still shown until
   *  the worker's first frames of the new one arrive. Nothing is followed while it is on screen, and the
   *  point starts afresh on the new root — the new creature was just framed, and carrying the camera by
   *  the old root's jump back (a crawl of metres) would leave it looking at empty floor. undefined: none. */
  staleLayout: undefined as HostLayout | null | undefined,
};

/** A different creature or scene opens: forget the followed point until its own frames arrive. */
function restartFollow(): void {
  cameraFollow.point.ready = false;
  cameraFollow.recentre = false;
  cameraFollow.staleLayout = previewClient().layout;
}

const delta: [number, number, number] = [0, 0, 0];

/** Where the followed position sits in a recorded frame: the root body, or under the particle solver the
 *  root particle (follow.ts followRootOffset); −1 when nothing can be followed. */
export const followedOffset = (): number => followRootOffset(previewClient().layout);

export function CameraFollow() {
  const controls = useThree((s) => s.controls) as unknown as { target: Vector3 } | null;
  const camera = useThree((s) => s.camera);
  useEffect(() => {
    // Mounted with a creature that just opened (after none, or after a particle scene, while this was not
    // mounted to hear of it): what is shown until its frames arrive is not its recording.
    restartFollow();
    const offs = [
      usePreview.subscribe((s, p) => {
        if (s.follow && !p.follow) { cameraFollow.recentre = true; cameraFollow.point.ready = false; }
      }),
      useEditor.subscribe((s, p) => { if (s.creature !== p.creature) restartFollow(); }),
      useSolver.subscribe((s, p) => { if (s.scene !== p.scene) restartFollow(); }),
    ];
    return () => offs.forEach((off) => off());
  }, []);
  useFrame((_, h) => {
    const f = cameraFollow;
    const client = previewClient();
    if (f.staleLayout !== undefined) {
      if (client.layout === f.staleLayout) { f.active = false; f.point.ready = false; return; }
      f.staleLayout = undefined;
    }
    const s = shown(client);
    const o = followedOffset();
    f.active = usePreview.getState().follow && !!s && o >= 0 && !!controls?.target;
    if (!f.active || !s) { f.point.ready = false; return; }
    f.root[0] = s.frame[o]!; f.root[1] = s.frame[o + 1]!; f.root[2] = s.frame[o + 2]!;
    if (!f.point.ready && f.recentre) resetFollowPoint(f.point, controls!.target.toArray());
    f.recentre = false;
    stepFollowPoint(f.point, f.root, Math.min(h, 0.25), delta);
    if (delta[0] === 0 && delta[1] === 0 && delta[2] === 0) return;
    controls!.target.x += delta[0]; controls!.target.y += delta[1]; controls!.target.z += delta[2];
    camera.position.x += delta[0]; camera.position.y += delta[1]; camera.position.z += delta[2];
  });
  return null;
}

/** The camera has caught up with the followed root of the frame shown now (not only of the last frame the
 *  frame loop saw: right after a seek the loop may not have run yet, and the old root is settled). */
export function cameraFollowSettled(): boolean {
  const f = cameraFollow;
  if (!f.active) return true;
  const s = shown(previewClient()), o = followedOffset();
  if (s && o >= 0 && (s.frame[o] !== f.root[0] || s.frame[o + 1] !== f.root[1] || s.frame[o + 2] !== f.root[2])) return false;
  return followSettled(f.point, f.root);
}
