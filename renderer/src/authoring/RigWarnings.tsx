/**
 * The outliner's rig checks beside the mass-ratio list (OutlinerRig): what shared/authoring's
 * checkRigPlausibility warns about a real rig — a body far from its bone, a degenerate shape, bodies that
 * overlap at rest and collide with each other (Fix: filter each overlapping cluster from itself, one undo
 * step), a creature size outside the plausible range, a slide with no limit that nothing brings back. Mass ratios have their own list above.
 * Checked a moment after the rig stops changing (the rest-overlap check steps a world once), not per drag.
 */
import { useEffect, useState } from 'react';
import { checkRestOverlaps, checkRigPlausibility, fixRestOverlaps, type RigWarning } from '../../../shared/authoring';
import type { RigDocument } from '../../../shared/rig';
import { frameSelection, notify, select } from '../state/editor';
import { useEditor } from '../state/store';
import { rigEdit } from './rigEdit';

const SETTLE_MS = 250;

/** The rig's warnings (mass ratios left out), recomputed SETTLE_MS after the last change. */
export function useRigWarnings(rig: RigDocument | null): RigWarning[] {
  const [warnings, setWarnings] = useState<RigWarning[]>([]);
  useEffect(() => {
    if (!rig || rig.bodies.length === 0) { setWarnings([]); return; }
    const t = setTimeout(() => {
      try {
        setWarnings(checkRigPlausibility(rig).filter((w) => w.kind !== 'mass-ratio'));
      } catch {
        setWarnings([]); // an incomplete rig: validation says why elsewhere
      }
    }, SETTLE_MS);
    return () => clearTimeout(t);
  }, [rig]);
  return warnings;
}

/** Fix rest overlaps: every overlapping cluster filtered from itself (shared fixRestOverlaps, as the CLI), one undo step. */
export function fixRestOverlapsNow(): boolean {
  const err = rigEdit('Fix rest overlaps', (r) => {
    try {
      return { ok: true, rig: fixRestOverlaps(r) };
    } catch (e) {
      return { ok: false, field: 'bodies', message: e instanceof Error ? e.message : String(e) };
    }
  });
  if (err) notify('error', `Fix rest overlaps: ${err.message}`);
  return err === null;
}

/** Rig › Fix Rest Overlaps: the same fix, saying what it did or why nothing (no bodies, no overlap at rest). */
export function fixRestOverlapsFromMenu(): boolean {
  const rig = useEditor.getState().document?.rig;
  if (!rig || rig.bodies.length === 0) { notify('error', 'Fix Rest Overlaps: the rig has no bodies yet.'); return false; }
  const pairs = checkRestOverlaps(rig).length;
  if (pairs === 0) { notify('info', 'Rest overlaps: no two bodies that are not jointed overlap at rest; nothing to fix.'); return false; }
  const ok = fixRestOverlapsNow();
  if (ok) notify('info', `Filtered ${pairs} pair${pairs === 1 ? '' : 's'} of bodies that overlap at rest from each other (one undo step)`);
  return ok;
}

const TITLE: Record<RigWarning['kind'], string> = {
  'far-from-bone': 'far from its bone',
  'degenerate-shape': 'degenerate shape',
  'rest-overlap': 'overlap at rest',
  'mass-ratio': 'mass ratio',
  scale: 'creature scale',
  'unbounded-slide': 'unbounded slide',
};

/** The joint a warning's path names (joints[i]), if any. */
function jointOf(rig: RigDocument, path: string): string | null {
  const m = /^joints\[(\d+)\]/.exec(path);
  return m ? rig.joints[Number(m[1])]?.name ?? null : null;
}

/** The body a warning's path names (bodies[i]…), if any. */
function bodyOf(rig: RigDocument, path: string): string | null {
  const m = /^bodies\[(\d+)\]/.exec(path);
  return m ? rig.bodies[Number(m[1])]?.name ?? null : null;
}

export function RigWarnings() {
  const rig = useEditor((s) => s.document?.rig ?? null);
  const warnings = useRigWarnings(rig);
  if (!rig || warnings.length === 0) return null;
  const overlaps = warnings.filter((w) => w.kind === 'rest-overlap').length;
  return (
    <div className="stability rig-warnings" data-testid="rig-warnings">
      <div className="stability-title">
        <span className="warn-icon">▲</span> {warnings.length} rig warning{warnings.length > 1 ? 's' : ''}
        {overlaps > 0 && (
          <button className="mini-button" onClick={() => fixRestOverlapsNow()} title="Stop the bodies that overlap at rest from colliding with each other (one undo step)">Fix overlaps</button>
        )}
      </div>
      {warnings.map((w, i) => {
        const body = bodyOf(rig, w.path), joint = jointOf(rig, w.path);
        return (
          <div
            key={`${w.kind}:${w.path}:${i}`}
            className="stability-item"
            data-warning={w.kind}
            title={w.message}
            onClick={() => {
              if (body) { select({ kind: 'body', name: body }); frameSelection(); } else if (joint) { select({ kind: 'joint', name: joint }); frameSelection(); }
            }}
          >
            <span className="bad">{TITLE[w.kind]}</span> {w.message}
          </div>
        );
      })}
    </div>
  );
}
