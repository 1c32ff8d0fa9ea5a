/**
 * The preview's UI state (zustand): transport, loop, overlays, the inputs on the timeline, the selected
 * path point. Per-frame values (the exact playhead, the frames themselves) live in the client's mutable
 * objects (client.ts) and are read in useFrame / requestAnimationFrame; `playhead` here is published at
 * most ~15 times a second for labels and re-rendered panels.
 */
import { create } from 'zustand';
import type { PreviewInput } from '../../../shared/preview/engine';
import type { PreviewOverlay } from '../../../shared/platform';

/** Which overlays are drawn: bodies, joints (axes and limits), torque (motor ramp), contacts, path. */
export type OverlayToggles = Record<PreviewOverlay, boolean>;

export interface PathPointRef { controller: string; index: number }

export interface PreviewState {
  playing: boolean;
  /** Playback rate relative to real time, 0.1 … 2. */
  speed: number;
  loop: { enabled: boolean; start: number; end: number };
  /** Timeline length (frames the host simulates ahead to). */
  duration: number;
  /** Frames recorded (0 until the first frames arrive). */
  recorded: number;
  /** Integer frame shown, published at UI rate. */
  playhead: number;
  dt: number;
  /** Why the preview cannot run (invalid rig, blow-up), or null. */
  problem: string | null;
  overlays: OverlayToggles;
  /** The orbit camera follows the creature's root body (on by default: a crawl never leaves the view). */
  follow: boolean;
  inputs: PreviewInput[];
  selectedPoint: PathPointRef | null;
  /** Host speed (steps per second) as last reported, and the median worker→main latency (ms). */
  stats: { stepsPerSecond: number; latencyMs: number; worker: boolean };
}

export const SPEED_MIN = 0.1;
export const SPEED_MAX = 2;
export const DEFAULT_DURATION_S = 20;

export const usePreview = create<PreviewState>()(() => ({
  playing: false,
  speed: 1,
  loop: { enabled: false, start: 0, end: 0 },
  duration: 0,
  recorded: 0,
  playhead: 0,
  dt: 1 / 60,
  problem: null,
  overlays: { bodies: false, joints: false, torque: true, contacts: true, path: true },
  follow: true,
  inputs: [],
  selectedPoint: null,
  stats: { stepsPerSecond: 0, latencyMs: 0, worker: true },
}));

export const toggleOverlay = (key: keyof OverlayToggles): void =>
  usePreview.setState((s) => ({ overlays: { ...s.overlays, [key]: !s.overlays[key] } }));

export const toggleFollow = (): void => usePreview.setState((s) => ({ follow: !s.follow }));

/** The View menu's preview toggles: an overlay, or the camera follow. */
export type PreviewViewToggle = keyof OverlayToggles | 'follow';
export const togglePreviewView = (key: PreviewViewToggle): void => (key === 'follow' ? toggleFollow() : toggleOverlay(key));

export const selectPathPoint = (p: PathPointRef | null): void => usePreview.setState({ selectedPoint: p });
