/**
 * Over the viewport while the open creature's size is implausible (creatureScale.ts): what is wrong, and
 * one action — rescale it to the height typed here (suggested from the usual authoring units), one undo
 * step. Gone once the creature is in range; back after an undo.
 */
import { useMemo, useState } from 'react';
import { useEditor } from '../state/store';
import { creatureScaleProblem, rescaleCreatureTo } from './creatureScale';
import { parseNumber } from './parseNumber';
import './authoring.css';

export function ScaleBanner() {
  const creature = useEditor((s) => s.creature);
  const scale = useEditor((s) => s.document?.rig.skeleton.scale ?? 1);
  // Recomputed when the creature or the rig's scale changes (not on every edit).
  const problem = useMemo(() => creatureScaleProblem(), [creature, scale]);
  const suggested = problem && problem.height > 0 ? Number((problem.height * problem.suggestedScale).toPrecision(3)) : 1.7;
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!problem) return null;
  const shown = text ?? String(suggested);
  const apply = () => {
    const h = parseNumber(shown);
    if (h === null || !(h > 0)) { setError(`Height: must be a positive number of metres, got “${shown}”`); return; }
    setError(null);
    if (rescaleCreatureTo(h)) setText(null);
  };
  return (
    <div className="scale-banner" role="alert" data-testid="scale-banner">
      <span className="warn-icon">▲</span>
      <span className="scale-banner-text">{problem.message}</span>
      <span className="scale-banner-action">
        <label>
          Height{' '}
          <input
            className="field num"
            aria-label="Rescale to height"
            inputMode="decimal"
            value={shown}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => { e.stopPropagation(); if (e.key === 'Enter') apply(); }}
          />{' '}m
        </label>
        <button className="button primary" onClick={apply}>Rescale</button>
      </span>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}
