/**
 * One drag = one input (issue 15 item 4): a `grab` carrying its path and release (shared/preview/input.ts)
 * records exactly what the older grab / grabMove-per-frame / release sequence did, survives a JSON round
 * trip (it is saved with projects) bit for bit, re-simulates only from the snapshot before a key added at
 * the end of a growing drag, and moves as a whole when its frame moves on the timeline.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig } from '../../../shared/rig';
import { PreviewEngine, SNAPSHOT_EVERY, type PreviewInput } from '../../../shared/preview/engine';
import { expandInputs, extendGrab, releaseGrabAt, type GrabInput } from '../../../shared/preview/input';

const rig = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url), 'utf8')), { source: 'armed-mine.rig.json' });

/** A drag as the editor records it: grab at frame 40, the end moved up 2 cm a frame for 30 frames, released at 75. */
function drag(): GrabInput {
  let g: GrabInput = { kind: 'grab', frame: 40, body: 'body', point: [0, 0.3, 0], path: [] };
  for (let f = 40; f < 70; f++) g = extendGrab(g, f, [0.01 * (f - 40), 0.3 + 0.02 * (f - 40), 0]);
  return releaseGrabAt(g, 75);
}

function record(inputs: PreviewInput[], frames = 150): Float64Array {
  const e = new PreviewEngine(rig);
  e.setInputs(inputs);
  e.advance(frames);
  return e.slice(0, frames + 1).frames;
}

describe('grab drags as one input', () => {
  it('extendGrab keeps one key per frame (the last move wins), never runs back; releaseGrabAt ends it', () => {
    let g: GrabInput = { kind: 'grab', frame: 10, body: 'b', point: [0, 0, 0] };
    g = extendGrab(g, 10, [1, 0, 0]);
    g = extendGrab(g, 10, [2, 0, 0]);
    g = extendGrab(g, 12, [3, 0, 0]);
    g = extendGrab(g, 11, [4, 0, 0]); // a playhead that went back within the drag: held at the last key's frame
    expect(g.path).toEqual([[0, 2, 0, 0], [2, 4, 0, 0]]);
    expect(releaseGrabAt(g, 9).releaseAfter).toBe(2);
    expect(releaseGrabAt(g, 30).releaseAfter).toBe(20);
    expect(JSON.parse(JSON.stringify(releaseGrabAt(g, 30)))).toEqual(releaseGrabAt(g, 30));
  });

  it('expands to grab, a grabMove per key and release at absolute frames; older inputs pass unchanged', () => {
    const d = drag();
    const x = expandInputs([d, { kind: 'impulse', frame: 5, body: 'body', point: [0, 0, 0], impulse: [1, 0, 0] }]);
    expect(x.length).toBe(1 + 30 + 1 + 1);
    expect(x[0]).toEqual({ kind: 'grab', frame: 40, body: 'body', point: [0, 0.3, 0] });
    expect(x[1]).toEqual({ kind: 'grabMove', frame: 40, target: [0, 0.3, 0] });
    expect(x[30]).toEqual({ kind: 'grabMove', frame: 69, target: [0.29, 0.3 + 0.02 * 29, 0] });
    expect(x[31]).toEqual({ kind: 'release', frame: 75 });
    expect(x[32]!.kind).toBe('impulse');
    const legacy: PreviewInput = { kind: 'grab', frame: 3, body: 'body', point: [0, 0, 0] };
    expect(expandInputs([legacy])[0]).toBe(legacy);
  });

  it('records bit for bit what the older sequence of inputs did, and the same after a JSON round trip', () => {
    const one = record([drag()]);
    const legacy = record(expandInputs([drag()]));
    const saved = record(JSON.parse(JSON.stringify([drag()])) as PreviewInput[]);
    expect(Array.from(one)).toEqual(Array.from(legacy));
    expect(Array.from(saved)).toEqual(Array.from(one));
    // And the drag did something: the body is lifted by frame 75 compared with no input at all.
    const none = record([]);
    const e = new PreviewEngine(rig);
    const y = (fr: Float64Array, f: number) => fr[f * e.frameSize + 2]!; // body p.y (index 0 is t)
    expect(y(one, 75) - y(none, 75)).toBeGreaterThan(0.05);
    expect(y(one, 40)).toBe(y(none, 40));
  });

  it('a key added to a growing drag re-simulates only from the snapshot before that key', () => {
    const e = new PreviewEngine(rig);
    let g: GrabInput = { kind: 'grab', frame: 40, body: 'body', point: [0, 0.3, 0], path: [] };
    for (let f = 40; f < 70; f++) g = extendGrab(g, f, [0, 0.3 + 0.02 * (f - 40), 0]);
    e.setInputs([g]);
    e.advance(100);
    const grown = extendGrab(g, 71, [0, 1, 0]);
    const len = e.setInputs([grown]);
    expect(e.lastChange).toBe(71);
    expect(len).toBe(71 - (71 % SNAPSHOT_EVERY) + 1);
  });

  it('moving the input on the timeline moves the whole drag (its keys are relative to its frame)', () => {
    const moved = { ...drag(), frame: 60 };
    const x = expandInputs([moved]);
    expect(x[0]!.frame).toBe(60);
    expect(x[1]!.frame).toBe(60);
    expect(x.at(-1)).toEqual({ kind: 'release', frame: 95 });
  });
});

describe('a drag saved with a project', () => {
  it('keeps its path and release through serializeProject / parseProject; a bad key is refused naming the field', async () => {
    const { parseProject, serializeProject } = await import('../../../shared/project/projectFile');
    const creature = { name: 'armed-mine.glb', path: null, builtin: 'armed-mine' };
    const text = serializeProject({ creature, rig: {}, preview: { inputs: [drag()] } });
    expect(parseProject(text, 'p.marionette').preview!.inputs).toEqual([drag()]);
    const bad = JSON.parse(text);
    bad.preview.inputs[0].path[3][0] = -1;
    expect(() => parseProject(JSON.stringify(bad), 'p.marionette')).toThrow(/^p\.marionette: preview\.inputs\.0\.path\.3\.0: must be ≥ 0 frames after the grab/);
  });
});
