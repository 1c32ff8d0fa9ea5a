import { useRef, type KeyboardEvent } from 'react';

/**
 * A drag handle between two panes, reporting the new size (px) of the pane on its `side`: 'left' / 'right'
 * for the side columns (a vertical bar), 'bottom' for the timeline + plots area under the viewport (a
 * horizontal bar; dragging up grows it). Keyboard (WAI-ARIA window splitter): it takes focus; the arrow
 * keys move it 16 px (Shift: 64), Page Up / Down 64 px, Home / End to the smallest / largest size; Enter
 * runs `onToggle` (collapse / restore) when given.
 */
export function Splitter({ width, onResize, side, min = 160, max = 560, label, onToggle, onEnd }: {
  width: number; onResize: (w: number) => void; side: 'left' | 'right' | 'bottom'; min?: number; max?: number;
  label?: string; onToggle?: () => void; onEnd?: () => void;
}) {
  const start = useRef<{ at: number; w: number } | null>(null);
  const horizontal = side === 'bottom';
  const clamp = (w: number) => Math.round(Math.min(max, Math.max(min, w)));
  // The pane grows when the bar moves away from it: right for the left column, left / up for the others.
  const sign = side === 'left' ? 1 : -1;
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? 64 : 16;
    const grow: Record<string, number> = horizontal ? { ArrowUp: step, ArrowDown: -step } : { ArrowRight: sign * step, ArrowLeft: -sign * step };
    const delta = grow[e.key] ?? (e.key === 'PageUp' ? 64 : e.key === 'PageDown' ? -64 : 0);
    if (delta !== 0) onResize(clamp(width + delta));
    else if (e.key === 'Home') onResize(min);
    else if (e.key === 'End') onResize(max);
    else if (e.key === 'Enter' && onToggle) onToggle();
    else return;
    e.preventDefault();
    onEnd?.();
  };
  return (
    <div
      className={`splitter${horizontal ? ' horizontal' : ''}`}
      role="separator"
      aria-orientation={horizontal ? 'horizontal' : 'vertical'}
      aria-label={label ?? `Resize the ${side} panel`}
      aria-valuenow={Math.round(width)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      tabIndex={0}
      data-testid={`splitter-${side}`}
      onKeyDown={onKeyDown}
      onPointerDown={(e) => { start.current = { at: horizontal ? e.clientY : e.clientX, w: width }; (e.target as HTMLElement).setPointerCapture(e.pointerId); }}
      onPointerMove={(e) => {
        if (!start.current) return;
        const d = (horizontal ? e.clientY : e.clientX) - start.current.at;
        onResize(clamp(start.current.w + sign * d));
      }}
      onPointerUp={() => { if (start.current) { start.current = null; onEnd?.(); } }}
      onPointerCancel={() => { start.current = null; }}
    />
  );
}
