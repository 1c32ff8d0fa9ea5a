/**
 * The preview client's edit path (issue 17, edit → playhead frame; renderer/src/preview/client.ts with the
 * host on this thread, as where workers are missing): a rig edit is posted in a microtask (not behind a
 * timer, which a software renderer's ~0.2 s draws delayed); the viewport holds its picture (holding())
 * from the send until the edit's frame under the playhead is in the mirror, never twice without a draw in
 * between, and a seek ends the hold; every hop of the edit is stamped in order (editTrace.ts), with the
 * frame the host re-simulated from.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { setControlPoint } from '../../../shared/authoring';
import { SNAPSHOT_EVERY } from '../../../shared/preview/engine';
import { PreviewClient } from '../../../renderer/src/preview/client';
import { editTraces } from '../../../renderer/src/preview/editTrace';
import { useEditor } from '../../../renderer/src/state/store';

const mine = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8')), { source: 'armed-mine.rig.json' });
const PLAYHEAD = 120;

const setRig = (rig: RigDocument) => useEditor.setState({ document: { ...(useEditor.getState().document ?? {}), rig } as never });
const until = async (done: () => boolean, what: string, ms = 60_000) => {
  const t0 = Date.now();
  while (!done()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
};
const pathEdit = (rig: RigDocument, dy: number): RigDocument => {
  const c = rig.controllers[0]!;
  const p = c.controlPoints[1]!;
  const r = setControlPoint(rig, c.name, 1, [p[0]!, p[1]! + dy, p[2]!]);
  if (!r.ok) throw new Error(`${r.field}: ${r.message}`);
  return r.rig;
};

describe('preview client: a rig edit on its way to the playhead', () => {
  const client = new PreviewClient();
  afterAll(() => client.dispose());

  it('sends the edit in a microtask, holds the picture until the frame under the playhead is in, and stamps every hop', async () => {
    client.setDuration(200);
    setRig(mine);
    await until(() => client.count >= 201 && client.current, 'the first fill');
    client.seek(PLAYHEAD);
    expect(client.holding()).toBe(false);

    // A controller parameter (a path point): frames from 1 on change; the host resumes from frame 0.
    const g0 = client.sentGeneration;
    let edited = pathEdit(mine, 0.01);
    setRig(edited);
    expect(client.sentGeneration).toBe(g0); // not yet: after the current script
    await Promise.resolve();
    expect(client.sentGeneration).toBe(g0 + 1); // a microtask later, before any timer
    expect(client.current).toBe(false);
    expect(client.holding()).toBe(true);

    await until(() => !client.holding(), 'the end of the hold');
    // Released because the frame arrived (the host on this thread runs 120 mine frames in far under 250 ms
    // of timers, but a loaded machine may not: then the deadline released it, and the frame comes after).
    await until(() => client.count > PLAYHEAD && client.layout?.generation === g0 + 1, 'the edit\'s frame under the playhead');
    const t = editTraces.get(g0 + 1)!;
    expect(t.playhead).toBe(PLAYHEAD);
    expect(t.from).toBe(0);
    const order = [t.edited, t.sent, t.received, t.validated, t.built, t.resumed, t.computed, t.posted, t.received2];
    for (const x of order) expect(Number.isFinite(x)).toBe(true);
    for (let i = 1; i < order.length; i++) expect(order[i]!).toBeGreaterThanOrEqual(order[i - 1]! - 1); // host and client clocks agree to ~1 ms
    expect(t.resetReceived).toBeGreaterThanOrEqual(t.resumed - 1);

    // Released without a draw since: the next edit does not hold (the previous one's frame is drawn first).
    await until(() => client.current, 'the edit answered');
    edited = pathEdit(edited, 0.01);
    setRig(edited);
    await Promise.resolve();
    expect(client.sentGeneration).toBe(g0 + 2);
    expect(client.holding()).toBe(false);
    await until(() => client.current && client.count > PLAYHEAD, 'the second edit');

    // After a draw the next edit holds again; moving the playhead ends the hold at once.
    client.noteDrawn();
    edited = pathEdit(edited, 0.01);
    setRig(edited);
    await Promise.resolve();
    expect(client.holding()).toBe(true);
    client.seek(PLAYHEAD - 30);
    expect(client.holding()).toBe(false);
    await until(() => client.current && client.count >= 201, 'the third edit');
  }, 120_000);

  it('a motor-gain edit with the motors limp until frame 90 resumes from the snapshot at frame 90 and keeps frames 0 … 90 in the mirror', async () => {
    const e0 = client.epoch;
    client.setInputs([{ kind: 'limp', frame: 0, joints: 'all', limp: true }, { kind: 'limp', frame: 90, joints: 'all', limp: false }]);
    await until(() => client.epoch > e0 && client.current && client.count >= 201, 'the limp run'); // epoch: the cut arrived
    client.seek(PLAYHEAD);
    const before = client.frames.slice(0, 91 * client.layout!.frameSize);
    const g = client.sentGeneration;
    const rig = structuredClone(useEditor.getState().document!.rig);
    const j = rig.joints.find((x) => x.name === 'elbow')!;
    if ('motor' in j) j.motor.errorReduction = 0.3;
    setRig(rig);
    await until(() => client.layout?.generation === g + 1, 'the reset');
    // The reset kept frames 0 … 90: the frame under the playhead (120) is not among them, so it is held.
    expect(client.count).toBe(91);
    expect(90 % SNAPSHOT_EVERY).toBe(0);
    await until(() => client.current && client.count > PLAYHEAD, 'the gain edit');
    expect(editTraces.get(g + 1)!.from).toBe(90);
    expect(client.frames.slice(0, 91 * client.layout!.frameSize)).toEqual(before);
  }, 120_000);
});
