import { useRef } from 'react';

/** A vertical drag handle between two columns; reports the new width of the column on its `side`. */
export function Splitter({ width, onResize, side, min = 160, max = 560 }: { width: number; onResize: (w: number) => void; side: 'left' | 'right'; min?: number; max?: number }) {
  const start = useRef<{ x: number; w: number } | null>(null);
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      onPointerDown={(e) => { start.current = { x: e.clientX, w: width }; (e.target as HTMLElement).setPointerCapture(e.pointerId); }}
      onPointerMove={(e) => {
        if (!start.current) return;
        const dx = e.clientX - start.current.x;
        onResize(Math.min(max, Math.max(min, start.current.w + (side === 'left' ? dx : -dx))));
      }}
      onPointerUp={() => { start.current = null; }}
    />
  );
}
