/**
 * What code outside the Canvas may ask of the 3D view (test hook, panels): project a bone to the screen,
 * the measured frame rate. Set by <ViewportProbe> inside the Canvas; module scope so reading it never
 * re-renders anything.
 */
import type { Camera, WebGLRenderer } from 'three';

export interface ViewportHandle {
  camera: Camera;
  gl: WebGLRenderer;
  /** Page coordinates (CSS px) of a bone's world position, or null when it is behind the camera. */
  boneScreenPosition(bone: string): { x: number; y: number } | null;
  /** Names of the bones the skeleton overlay currently draws in the selection colour. */
  highlightedBones(): string[];
  /** Where the orbit camera is and what it looks at (world, m). */
  cameraPose(): { position: [number, number, number]; target: [number, number, number] } | null;
}

/** frames: animation frames the viewport ran (useFrame); renders: of them, the ones that drew the scene. */
export const viewportStats = { fps: 0, frames: 0, renders: 0 };
let handle: ViewportHandle | null = null;
export const setViewportHandle = (h: ViewportHandle | null): void => { handle = h; };
export const getViewportHandle = (): ViewportHandle | null => handle;
