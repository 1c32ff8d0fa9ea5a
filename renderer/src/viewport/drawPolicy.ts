/**
 * When the viewport draws the scene, and at which resolution (issue 17; Viewport.tsx RenderWhenChanged calls
 * it once per animation frame). Pure: the frame's facts in, the decision out, the memory of the last draw
 * updated by noteDraw.
 *
 *   - An interaction draws: R3F's invalidation (not the one its own pixel-ratio change causes), an input or
 *     store change within ACTIVE_MS, another frame under the playhead or a new recording epoch, playback, the
 *     camera moving. A new canvas size or pixel ratio draws (the canvas was cleared). An unchanged picture
 *     is drawn again every IDLE_REDRAW_MS.
 *   - While a rig edit's frame under the playhead is on its way (client.holding()) nothing is drawn but a
 *     cleared canvas: the next draw shows the edit.
 *   - A slow renderer (its last full-resolution draw held the thread past SLOW_DRAW_MS until the next
 *     animation frame: SwiftShader takes 150–300 ms) regresses the resolution (R3F's performance.regress,
 *     drei's AdaptiveDpr) for the draws of an interaction and through a hold; full resolution comes back
 *     REGRESS_MS after the last regression (Viewport.tsx).
 */

/** After any input or state change the scene is drawn every frame for this long (ms). */
export const ACTIVE_MS = 1000;
/** An unchanged scene is still drawn this often (ms): a safety net for a change nothing announced. */
export const IDLE_REDRAW_MS = 1000;
/** A full-resolution draw that holds the thread longer than this (ms, from the draw to the next animation
 *  frame) marks a slow renderer. */
export const SLOW_DRAW_MS = 60;

export interface DrawMemory {
  /** When the scene was last drawn (ms), the newest input or store change, the epoch and frame index drawn,
   *  the canvas size and pixel ratio drawn at. */
  at: number; active: number; epoch: number; index: number; w: number; h: number; dpr: number;
  /** The last draw was at full resolution (its time is measured at the next frame). */
  fullDraw: boolean;
  /** The renderer is slow (from the last full-resolution draw). */
  slow: boolean;
  /** Whether a slow renderer may regress the resolution. */
  adaptive: boolean;
}

export interface FrameFacts {
  now: number; epoch: number; index: number; w: number; h: number; dpr: number; initialDpr: number;
  /** R3F was invalidated since the last frame; the preview is playing; the camera moved; an edit is held. */
  invalidated: boolean; playing: boolean; cameraMoved: boolean; holding: boolean;
}

export const newDrawMemory = (adaptive: boolean): DrawMemory => ({ at: -Infinity, active: -Infinity, epoch: -1, index: -2, w: 0, h: 0, dpr: 0, fullDraw: false, slow: false, adaptive });

/** This frame: draw or not, and whether to regress the resolution first. Measures the last draw's time. */
export function decideDraw(m: DrawMemory, f: FrameFacts): { draw: boolean; regress: boolean } {
  if (m.fullDraw) { m.slow = f.now - m.at > SLOW_DRAW_MS; m.fullDraw = false; }
  const resized = f.w !== m.w || f.h !== m.h || f.dpr !== m.dpr;
  const interactive = (f.invalidated && !resized) || f.now - m.active < ACTIVE_MS || f.epoch !== m.epoch || f.index !== m.index
    || f.playing || f.cameraMoved;
  const regress = m.slow && m.adaptive;
  if (!resized && f.holding) return { draw: false, regress };
  if (!(interactive || resized || f.now - m.at >= IDLE_REDRAW_MS)) return { draw: false, regress: false };
  return { draw: true, regress: interactive && regress };
}

/** The scene was drawn this frame. */
export function noteDraw(m: DrawMemory, f: FrameFacts): void {
  m.fullDraw = f.dpr >= f.initialDpr;
  m.at = f.now; m.epoch = f.epoch; m.index = f.index; m.w = f.w; m.h = f.h; m.dpr = f.dpr;
}
