/**
 * Fitting the toolbar into the window's width, by measuring rather than by fixed breakpoints (the
 * buttons' widths depend on the font, the labels — Play / Pause — and which groups exist):
 *   step 0      every label shown;
 *   step k ≤ C  the first k groups of the compaction order show icon-only buttons (labels stay in the
 *               tooltips): the least needed labels go first;
 *   step C + k  all C icon-only, and the last k groups moved into the overflow "»" menu.
 * After every render the row is measured; while it sticks out of the bar the step goes up by one (React
 * re-renders synchronously inside layout effects, so the steps in between are never painted). When the
 * bar gets wider the fit starts again from step 0.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Sub-pixel slack (px): rounding of fractional widths must not count as overflow. */
const SLACK_PX = 0.5;

export interface ToolbarFit {
  bar: RefObject<HTMLDivElement | null>;
  row: RefObject<HTMLDivElement | null>;
  /** How many groups of the compaction order show icon-only buttons. */
  compacted: number;
  /** How many groups, counted from the end, are in the overflow menu. */
  overflowed: number;
}

/** Whether `row` reaches past the inner right edge of `bar`. */
export function overflows(bar: HTMLElement, row: HTMLElement): boolean {
  const padRight = parseFloat(getComputedStyle(bar).paddingRight) || 0;
  return row.getBoundingClientRect().right > bar.getBoundingClientRect().right - padRight + SLACK_PX;
}

export function useToolbarFit(compactableGroups: number, movableGroups: number): ToolbarFit {
  const bar = useRef<HTMLDivElement>(null);
  const row = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState(0);
  const maxStep = compactableGroups + movableGroups;

  // Runs after every render of the toolbar: one step further while the row does not fit.
  useLayoutEffect(() => {
    if (bar.current && row.current && step < maxStep && overflows(bar.current, row.current)) setStep(step + 1);
  });

  useLayoutEffect(() => {
    const b = bar.current, r = row.current;
    if (!b || !r || typeof ResizeObserver === 'undefined') return;
    let width = b.clientWidth;
    // The bar's width changes with the window; the row's with its contents (Play → Pause, a group's
    // buttons enabled or not): wider bar → refit from full labels, anything else → step on if it overflows.
    const observer = new ResizeObserver(() => {
      const w = b.clientWidth;
      if (w > width + SLACK_PX) setStep(0);
      else if (overflows(b, r)) setStep((s) => Math.min(s + 1, maxStep));
      width = w;
    });
    observer.observe(b);
    observer.observe(r);
    return () => observer.disconnect();
  }, [maxStep]);

  const at = Math.min(step, maxStep);
  return { bar, row, compacted: Math.min(at, compactableGroups), overflowed: Math.max(0, at - compactableGroups) };
}
