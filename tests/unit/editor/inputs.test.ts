/**
 * The editor's preview inputs (shared/editor/inputs.ts): poke, blast, grab and go limp / power on reach the
 * injected preview with their numbers; bad arguments and a preview refusal come back as results.
 */
import { describe, expect, it } from 'vitest';
import { BLAST_RADIUS } from '../../../shared/editor';
import { openedEditor } from './testEditor';

describe('Editor preview inputs', () => {
  it('poke: an impulse at a point of a body, as given', async () => {
    const e = await openedEditor();
    expect(e.inputs.poke('forearm', [0.1, 0.5, 0], [0, 0, 8]).ok).toBe(true);
    expect(e.previewCalls).toEqual([{ kind: 'applyImpulseAt', args: ['forearm', [0.1, 0.5, 0], [0, 0, 8]] }]);
    expect(e.inputs.poke('tail', [0, 0, 0], [0, 0, 1])).toEqual({ ok: false, error: { field: 'Impulse', message: 'there is no body named "tail"' } });
    expect(e.inputs.poke('hand', [0, Number.NaN, 0], [0, 0, 1]).ok).toBe(false);
    expect(e.lastNotice).toBe('Impulse: point must be three finite numbers, got [0,null,0]');
    expect(e.previewCalls).toHaveLength(1);
  });

  it('blast: strength and radius checked, the radius defaulting to BLAST_RADIUS = 1.5 m; said with its numbers', async () => {
    const e = await openedEditor();
    expect(e.inputs.blast([1, 0, 2], 30).ok).toBe(true);
    expect(e.previewCalls.at(-1)).toEqual({ kind: 'blast', args: [[1, 0, 2], BLAST_RADIUS, 30] });
    expect(BLAST_RADIUS).toBe(1.5);
    expect(e.lastNotice).toBe('Blast 30 N·s at 1.00, 0.00, 2.00');
    expect(e.inputs.blast([0, 0, 0], 0)).toEqual({ ok: false, error: { field: 'Blast', message: 'strength must be > 0 N·s, got 0' } });
    expect(e.inputs.blast([0, 0, 0], 5, -1).ok).toBe(false);
  });

  it('grab, move, release in order; go limp / power on for named joints or all', async () => {
    const e = await openedEditor();
    expect(e.inputs.grab('hand', [0, 1, 0]).ok).toBe(true);
    expect(e.inputs.moveGrab([0, 1.2, 0.1]).ok).toBe(true);
    expect(e.inputs.releaseGrab().ok).toBe(true);
    expect(e.inputs.setLimp(['elbow'], true).ok).toBe(true);
    expect(e.inputs.setLimp('all', false).ok).toBe(true);
    expect(e.previewCalls.map((c) => c.kind)).toEqual(['grab', 'moveGrab', 'releaseGrab', 'setLimp', 'setLimp']);
    expect(e.previewCalls[3]!.args).toEqual([['elbow'], true]);
    expect(e.inputs.setLimp(['knee'], true)).toEqual({ ok: false, error: { field: 'Go limp', message: 'there is no joint named "knee"' } });
  });

  it('a preview that refuses (or is not running) is a result and a notice, not a throw', async () => {
    const e = await openedEditor();
    e.platform.preview!.grab = () => { throw new Error('the preview runs an older rig'); };
    expect(e.inputs.grab('hand', [0, 1, 0])).toEqual({ ok: false, error: { field: 'Grab', message: 'the preview runs an older rig' } });
    expect(e.lastNotice).toBe('Grab: the preview runs an older rig');
    const off = await openedEditor('armed-mine', { preview: false });
    expect(off.inputs.releaseGrab()).toEqual({ ok: false, error: { field: 'Release', message: 'the preview is not running' } });
  });
});
