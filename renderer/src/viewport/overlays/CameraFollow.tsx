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
};

const delta: [number, number, number] = [0, 0, 0];

/** Where the followed position sits in a recorded frame: the root body, or under the particle solver the
 *  root particle (follow.ts followRootOffset); −1 when nothing can be followed. */
export const followedOffset = (): number => followRootOffset(previewClient().layout);

export function CameraFollow() {
  const controls = useThree((s) => s.controls) as unknown as { target: Vector3 } | null;
  const camera = useThree((s) => s.camera);
  useEffect(() => usePreview.subscribe((s, p) => {
    if (s.follow && !p.follow) { cameraFollow.recentre = true; cameraFollow.point.ready = false; }
  }), []);
  useFrame((_, h) => {
    const f = cameraFollow;
    const s = shown(previewClient());
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

export const cameraFollowSettled = (): boolean => !cameraFollow.active || followSettled(cameraFollow.point, cameraFollow.root);
