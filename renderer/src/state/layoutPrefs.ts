/**
 * The dock's sizes that outlive a session: the height of the bottom area (timeline + plots) and whether the
 * plots are open. Kept in localStorage (the same in Electron's renderer and a browser tab; IndexedDB, the
 * web platform's project store, is asynchronous and the first layout must not wait for it). A stored value
 * that is not a sane number is ignored, never trusted.
 */

/** The timeline's fixed height (timeline.css) plus the plots header: the bottom area with plots collapsed. */
export const TIMELINE_HEIGHT = 104;
export const PLOTS_HEADER_HEIGHT = 24;
/** The bottom area with the plots open is at least the timeline, the plots header and a sliver of plots. */
export const MIN_BOTTOM = TIMELINE_HEIGHT + PLOTS_HEADER_HEIGHT + 48;
/** The viewport keeps at least this much of the centre column whatever the bottom area asks for (px). */
export const MIN_VIEWPORT = 160;
/** With no stored size, the bottom area is this fraction of the window's height: at 1280×720 that is 230 px,
 *  which leaves the viewport 720 − 82 (menu, toolbar, status) − 4 (splitter) − 230 = 404 px, 56 %. */
export const DEFAULT_BOTTOM_FRACTION = 0.32;

export const defaultBottomHeight = (windowHeight: number): number => Math.round(DEFAULT_BOTTOM_FRACTION * windowHeight);

/** The bottom area's height in a centre column `columnHeight` px high (splitter included). */
export function clampBottom(height: number, columnHeight: number, splitter = 4): number {
  const max = Math.max(MIN_BOTTOM, columnHeight - splitter - MIN_VIEWPORT);
  return Math.round(Math.min(max, Math.max(MIN_BOTTOM, height)));
}

export interface LayoutPrefs {
  /** px, or null: the default fraction of the window. */
  bottomHeight: number | null;
  plotsOpen: boolean;
}

export const DEFAULT_LAYOUT: LayoutPrefs = { bottomHeight: null, plotsOpen: true };
export const LAYOUT_KEY = 'marionette.layout';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

/** localStorage where there is one (not in Node tests, not when the browser refuses it). */
function defaultStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function loadLayoutPrefs(storage: Storage | null = defaultStorage()): LayoutPrefs {
  let raw: unknown;
  try {
    raw = JSON.parse(storage?.getItem(LAYOUT_KEY) ?? 'null');
  } catch {
    return { ...DEFAULT_LAYOUT };
  }
  if (typeof raw !== 'object' || raw === null) return { ...DEFAULT_LAYOUT };
  const r = raw as Record<string, unknown>;
  const h = r.bottomHeight;
  return {
    // Up to 4000 px: a taller stored value is damage, not a window.
    bottomHeight: typeof h === 'number' && Number.isFinite(h) && h >= MIN_BOTTOM && h <= 4000 ? Math.round(h) : null,
    plotsOpen: typeof r.plotsOpen === 'boolean' ? r.plotsOpen : DEFAULT_LAYOUT.plotsOpen,
  };
}

export function saveLayoutPrefs(prefs: LayoutPrefs, storage: Storage | null = defaultStorage()): void {
  try {
    storage?.setItem(LAYOUT_KEY, JSON.stringify(prefs));
  } catch {
    // Storage full or refused (private mode): the layout still works, it is just not remembered.
  }
}
