/**
 * One drag gesture for every viewport gizmo and handle (issue 14 item 4): the shape and joint gizmos, the
 * joint-limit arc and slide-end handles, the path points (plane drag and translate gizmo) and the steering target.
 *
 *  - press: an undo gesture opens (history mark: shared/document/history.ts), the orbit camera turns off
 *    (the r3f default controls, `enabled = false`), `dragging` is set in the authoring store, the pointer is
 *    captured (pointer-event drags) and the cursor shows "grabbing";
 *  - move: the caller edits the document as it likes — everything until release is one undo step;
 *  - release: the gesture closes as one undo step with the caller's label (none if nothing changed);
 *  - Escape during a drag: the document goes back to the mark (cancelGesture, no undo step), `onCancel`
 *    puts the caller's own objects back (a TransformControls' reset, a marker's drag position), and the
 *    drag ends — in the capture phase, so the editor's own Escape (clear the selection) does not also run;
 *    the orbit camera stays off until the button is released, so the rest of the motion does nothing;
 *  - the component unmounting mid-drag (selection changed, overlay off) still closes its undo step;
 *  - the click the release makes is not a pick (clickEndsDrag): a drag ending over a bone or empty space
 *    keeps the selection.
 *
 * Hover feedback is the same everywhere: "grab" over a handle, "grabbing" while dragging.
 * Pointer-event drags use `pointer(…)`, which returns the mesh's handlers; drei TransformControls drags
 * call `begin` / `end` from onMouseDown / onMouseUp and `active()` in onObjectChange.
 */
import { useEffect, useRef } from 'react';
import { useThree, type ThreeEvent } from '@react-three/fiber';
import { beginGesture, cancelGesture, endGesture } from '../state/editor';
import { setAuthoring } from '../authoring/authoringStore';

export const DRAG_CURSOR = { hover: 'grab', drag: 'grabbing' } as const;

// The click that ends (or follows a cancelled) drag is not a pick: from the drag's end until the next press.
let dragEndsClick = false;
/** True for the click that ends a drag (the viewport's pick and click-on-empty-space handlers skip it). */
export const clickEndsDrag = (): boolean => dragEndsClick;

export interface DragGestureOptions<S> {
  /** The undo step's label for the drag that ends. */
  label: (state: S) => string;
  /** On release, before the undo step closes (e.g. apply a scale, place the target): edits here join it. */
  onEnd?: (state: S) => void;
  /** After Escape put the document back: restore what the caller drew from the drag (no undo step). */
  onCancel?: (state: S) => void;
}

export interface PointerDrag<S> {
  /** Start on a left press, with the state the drag carries (null: not this press). */
  start: (e: ThreeEvent<PointerEvent>) => S | null;
  /** Each move while dragging (the pointer is captured): edit the document from the ray. */
  move: (e: ThreeEvent<PointerEvent>, state: S) => void;
}

export interface DragGesture<S> {
  /** Opens the gesture (undo mark, orbit off, dragging, cursor); `capture` takes the pointer. */
  begin(state: S, capture?: { target: Element; pointerId: number }): void;
  /** The drag in progress, or null. */
  active(): S | null;
  /** Closes the gesture as one undo step (after onEnd). */
  end(): void;
  /** Puts the document back to the press (no undo step), then onCancel. */
  cancel(): void;
  /** Handlers for a mesh dragged with pointer events (capture, hover cursor, Escape). */
  pointer(drag: PointerDrag<S>): {
    onPointerDown: (e: ThreeEvent<PointerEvent>) => void;
    onPointerMove: (e: ThreeEvent<PointerEvent>) => void;
    onPointerUp: (e: ThreeEvent<PointerEvent>) => void;
    onPointerOver: () => void;
    onPointerOut: () => void;
  };
}

interface Live<S> { state: S; mark: string; capture: { target: Element; pointerId: number } | null }

export function useDragGesture<S>(options: DragGestureOptions<S>): DragGesture<S> {
  const controls = useThree((s) => s.controls) as unknown as { enabled: boolean } | null;
  const live = useRef<Live<S> | null>(null);
  const opts = useRef(options);
  opts.current = options;
  const orbit = useRef(controls);
  orbit.current = controls;

  const finish = (l: Live<S>) => {
    live.current = null;
    dragEndsClick = true;
    window.addEventListener('pointerdown', () => { dragEndsClick = false; }, { once: true, capture: true });
    if (l.capture) { try { l.capture.target.releasePointerCapture(l.capture.pointerId); } catch { /* already released */ } }
    if (orbit.current) orbit.current.enabled = true;
    setAuthoring({ dragging: false });
    document.body.style.cursor = '';
  };

  const api = useRef<DragGesture<S> | null>(null);
  if (!api.current) {
    const g: DragGesture<S> = {
      begin(state, capture) {
        if (live.current) g.end();
        if (capture) { try { capture.target.setPointerCapture(capture.pointerId); } catch { /* a synthetic pointer */ } }
        live.current = { state, mark: beginGesture(), capture: capture ?? null };
        if (orbit.current) orbit.current.enabled = false;
        setAuthoring({ dragging: true });
        document.body.style.cursor = DRAG_CURSOR.drag;
      },
      active: () => live.current?.state ?? null,
      end() {
        const l = live.current;
        if (!l) return;
        opts.current.onEnd?.(l.state);
        finish(l);
        endGesture(l.mark, opts.current.label(l.state));
      },
      cancel() {
        const l = live.current;
        if (!l) return;
        finish(l);
        cancelGesture(l.mark);
        opts.current.onCancel?.(l.state);
        // The button is still down: the orbit camera saw the press too, so it stays off until the release
        // (else the rest of the cancelled drag would turn the camera).
        const o = orbit.current;
        if (o) {
          o.enabled = false;
          window.addEventListener('pointerup', () => { o.enabled = true; }, { once: true, capture: true });
        }
      },
      pointer: (drag) => ({
        onPointerDown: (e) => {
          if (e.button !== 0) return;
          const state = drag.start(e);
          if (state === null) return;
          e.stopPropagation();
          g.begin(state, { target: e.target as unknown as Element, pointerId: e.pointerId });
        },
        onPointerMove: (e) => {
          const l = live.current;
          if (!l) return;
          e.stopPropagation();
          drag.move(e, l.state);
        },
        onPointerUp: (e) => {
          if (!live.current) return;
          e.stopPropagation();
          g.end();
        },
        onPointerOver: () => { if (!live.current) document.body.style.cursor = DRAG_CURSOR.hover; },
        onPointerOut: () => { if (!live.current) document.body.style.cursor = ''; },
      }),
    };
    api.current = g;
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !live.current) return;
      e.preventDefault();
      e.stopPropagation();
      api.current!.cancel();
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      // Unmounted mid-drag: the edits so far stay, as one undo step.
      api.current!.end();
    };
  }, []);

  return api.current;
}
