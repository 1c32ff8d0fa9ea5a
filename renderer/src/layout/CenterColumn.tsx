/**
 * The centre column: the viewport over the bottom area (timeline + plots), split by a draggable,
 * keyboard-operable bar. The bottom area's height is the session's bottomHeight (or the default fraction of
 * the window), clamped so the viewport keeps MIN_VIEWPORT px; it is remembered (layoutPrefs.ts) when a drag
 * or key press ends. With the plots collapsed the bar goes away and the area shrinks to the timeline and the
 * plots header, giving the height back to the viewport.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Splitter } from './Splitter';
import { setSession, useEditor } from '../state/store';
import { MIN_BOTTOM, MIN_VIEWPORT, clampBottom, defaultBottomHeight, saveLayoutPrefs } from '../state/layoutPrefs';

const SPLITTER = 4;

export function CenterColumn({ viewport, bottom }: { viewport: ReactNode; bottom: ReactNode }) {
  const column = useRef<HTMLDivElement>(null);
  const [columnHeight, setColumnHeight] = useState(0);
  const [windowHeight, setWindowHeight] = useState(() => (typeof window === 'undefined' ? 720 : window.innerHeight));
  const stored = useEditor((s) => s.session.bottomHeight);
  const plotsOpen = useEditor((s) => s.session.plotsOpen);

  useLayoutEffect(() => {
    const el = column.current;
    if (!el) return;
    const measure = () => { setColumnHeight(el.clientHeight); setWindowHeight(window.innerHeight); };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const height = clampBottom(stored ?? defaultBottomHeight(windowHeight), columnHeight || windowHeight, SPLITTER);
  const max = Math.max(MIN_BOTTOM, (columnHeight || windowHeight) - SPLITTER - MIN_VIEWPORT);
  const remember = () => {
    const s = useEditor.getState().session;
    saveLayoutPrefs({ bottomHeight: s.bottomHeight, plotsOpen: s.plotsOpen });
  };
  // Collapsing or opening the plots (their header button) is remembered too.
  useEffect(remember, [plotsOpen]);

  return (
    <div className="center-column" ref={column}>
      {viewport}
      {plotsOpen && (
        <Splitter
          side="bottom"
          label="Resize the timeline and plots"
          width={height}
          min={MIN_BOTTOM}
          max={max}
          onResize={(h) => setSession({ bottomHeight: h })}
          onToggle={() => setSession({ plotsOpen: false })}
          onEnd={remember}
        />
      )}
      <div className={`bottom-dock${plotsOpen ? '' : ' plots-collapsed'}`} data-testid="bottom-dock" style={plotsOpen ? { height } : undefined}>
        {bottom}
      </div>
    </div>
  );
}
