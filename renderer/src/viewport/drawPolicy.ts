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
 *     animation frame: SwiftShader takes 150–300 ms) draws at REGRESSED_SCALE of the canvas's pixel ratio
 *     for an interaction, from the input on (regressOnInput) and through a hold; full resolution comes back
 *     REGRESS_MS after the last such frame. A change of scale clears the canvas, so that frame draws.
 *     (The renderer's pixel ratio is set directly — WebGLRenderer.setPixelRatio — not through R3F's dpr, which
 *     its Canvas puts back to the prop whenever the component renders.)
 */

/** After any input or state change the scene is drawn every frame for this long (ms). */
export const ACTIVE_MS = 1000;
/** An unchanged scene is still drawn this often (ms): a safety net for a change nothing announced. */
export const IDLE_REDRAW_MS = 1000;
/** A full-resolution draw that holds the thread longer than this (ms, from the draw to the next animation
 *  frame) marks a slow renderer. */
export const SLOW_DRAW_MS = 60;
/** The fraction of the canvas's pixel ratio a slow renderer draws interactions at (about a third of the
 *  time per frame with SwiftShader), and how long after the last such frame full resolution comes back (ms). */
export const REGRESSED_SCALE = 0.5;
export const REGRESS_MS = 300;

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
  /** Draw at REGRESSED_SCALE until this time (ms). */
  regressUntil: number;
}

export interface FrameFacts {
  now: number; epoch: number; index: number; w: number; h: number;
  /** The renderer's pixel ratio now and the canvas's own (R3F's, from the Canvas's dpr). */
  dpr: number; initialDpr: number;
  /** R3F was invalidated since the last frame; the preview is playing; the camera moved; an edit is held. */
  invalidated: boolean; playing: boolean; cameraMoved: boolean; holding: boolean;
}

export const newDrawMemory = (adaptive: boolean): DrawMemory => ({ at: -Infinity, active: -Infinity, epoch: -1, index: -2, w: 0, h: 0, dpr: 0, fullDraw: false, slow: false, adaptive, regressUntil: -Infinity });

/** An input at `now` (pointer, key, a store change): a slow renderer's next frames are drawn regressed. */
export function regressOnInput(m: DrawMemory, now: number): void {
  m.active = now;
  if (m.slow && m.adaptive) m.regressUntil = now + REGRESS_MS;
}

/** This frame: draw or not, and the pixel ratio to draw at (set it before drawing when it differs from
 *  f.dpr). Measures the last full-resolution draw's time. */
export function decideDraw(m: DrawMemory, f: FrameFacts): { draw: boolean; dpr: number } {
  if (m.fullDraw) { m.slow = f.now - m.at > SLOW_DRAW_MS; m.fullDraw = false; }
  // (R3F invalidates on a pixel-ratio change of its own: not an interaction.)
  const interactive = (f.invalidated && f.dpr === m.dpr) || f.now - m.active < ACTIVE_MS || f.epoch !== m.epoch || f.index !== m.index
    || f.playing || f.cameraMoved;
  if ((interactive || f.holding) && m.slow && m.adaptive) m.regressUntil = f.now + REGRESS_MS;
  const dpr = f.initialDpr * (m.adaptive && f.now < m.regressUntil ? REGRESSED_SCALE : 1);
  // A new size or pixel ratio clears the canvas: drawn at once, even while holding.
  const resized = f.w !== m.w || f.h !== m.h || dpr !== m.dpr || f.dpr !== m.dpr;
  if (!resized && f.holding) return { draw: false, dpr };
  return { draw: interactive || resized || f.now - m.at >= IDLE_REDRAW_MS, dpr };
}

/** The scene was drawn this frame at pixel ratio `dpr`. */
export function noteDraw(m: DrawMemory, f: FrameFacts, dpr: number): void {
  m.fullDraw = dpr >= f.initialDpr;
  m.at = f.now; m.epoch = f.epoch; m.index = f.index; m.w = f.w; m.h = f.h; m.dpr = dpr;
}
