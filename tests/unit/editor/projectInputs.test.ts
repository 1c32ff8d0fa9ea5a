/**
 * Preview inputs saved with the project (issue 15 item 4): pokes, blasts, grabs and limp switches on the
 * timeline are written to the project file (version 2) and reopen with it; a version 1 project (no inputs)
 * still opens; inputs naming a body or joint the rig lacks are left out and said; Clear takes them all off;
 * go limp / power on say so in the status bar.
 */
import { describe, expect, it } from 'vitest';
import { PROJECT_VERSION, parseProject } from '../../../shared/project';
import type { PreviewInput } from '../../../shared/preview/input';
import { TestEditor, openedEditor } from './testEditor';

const inputs: PreviewInput[] = [
  { kind: 'impulse', frame: 12, body: 'forearm', point: [0.1, 0.5, 0], impulse: [0, 0, 8] },
  { kind: 'blast', frame: 30, center: [0.5, 0, 1], radius: 1.5, strength: 40 },
  { kind: 'grab', frame: 40, body: 'hand', point: [0.2, 0.6, 0.1] },
  { kind: 'grabMove', frame: 41, target: [0.3, 0.7, 0.1] },
  { kind: 'release', frame: 55 },
  { kind: 'limp', frame: 60, joints: ['elbow'], limp: true },
  { kind: 'limp', frame: 90, joints: 'all', limp: false },
];

describe('preview inputs in the project file', () => {
  it('a project saved with pokes, blasts, grabs and limp switches reopens with them, frame for frame', async () => {
    const e = await openedEditor();
    e.timeline = structuredClone(inputs);
    expect((await e.files.save(true)).ok).toBe(true);
    const path = e.getState().file.path!;
    const text = e.disk.get(path) as string;
    const saved = JSON.parse(text) as { version: number; preview: { inputs: PreviewInput[] } };
    expect(saved.version).toBe(2);
    expect(PROJECT_VERSION).toBe(2);
    expect(saved.preview.inputs).toEqual(inputs);

    const f = new TestEditor();
    f.disk.set(path, text);
    f.timeline = [{ kind: 'release', frame: 3 }]; // whatever the preview had is replaced
    expect((await f.files.openRecent({ kind: 'project', path, name: 'p.marionette' })).ok).toBe(true);
    expect(f.timeline).toEqual(inputs);
    expect(f.lastNotice).toBe(`Opened project ${path.replace(/^.*\//, '')} with 7 preview inputs (pokes, blasts, grabs, limp switches)`);
  });

  it('no inputs: none written; a version 1 project (before inputs were saved) still opens and clears the timeline', async () => {
    const e = await openedEditor();
    const text = e.files.projectText(null);
    expect(text.ok && 'preview' in JSON.parse(text.value)).toBe(false);
    const v1 = JSON.parse((text as { value: string }).value) as Record<string, unknown>;
    v1.version = 1;
    expect(parseProject(JSON.stringify(v1), 'old.marionette').version).toBe(2);
    const f = new TestEditor();
    f.disk.set('/projects/old.marionette', JSON.stringify(v1));
    f.timeline = [{ kind: 'release', frame: 3 }];
    expect((await f.files.openRecent({ kind: 'project', path: '/projects/old.marionette', name: 'old.marionette' })).ok).toBe(true);
    expect(f.timeline).toEqual([]);
    expect(f.lastNotice).toBe('Opened project old.marionette');
  });

  it('inputs naming a body or joint the rig lacks are left out and said; a grab takes its moves and release with it', async () => {
    const e = await openedEditor();
    e.timeline = [
      { kind: 'impulse', frame: 1, body: 'tail', point: [0, 0, 0], impulse: [0, 0, 1] },
      { kind: 'grab', frame: 2, body: 'wing', point: [0, 0, 0] },
      { kind: 'grabMove', frame: 3, target: [0, 1, 0] },
      { kind: 'release', frame: 4 },
      { kind: 'limp', frame: 5, joints: ['knee'], limp: true },
      { kind: 'blast', frame: 6, center: [0, 0, 0], radius: 1, strength: 5 },
    ];
    await e.files.save(true);
    const path = e.getState().file.path!;
    const f = new TestEditor();
    f.disk.set(path, e.disk.get(path) as string);
    await f.files.openRecent({ kind: 'project', path, name: 'x' });
    expect(f.timeline).toEqual([{ kind: 'blast', frame: 6, center: [0, 0, 0], radius: 1, strength: 5 }]);
    const warning = f.notices.find((n) => n.kind === 'error')!.text;
    expect(warning).toBe('3 saved preview inputs were left out: impulse at frame 1: the rig has no body "tail"; grab at frame 2: the rig has no body "wing"; limp at frame 5: the rig has no joint "knee"');
  });

  it('a bad input in the file is refused naming the field', async () => {
    const e = await openedEditor();
    e.timeline = [{ kind: 'impulse', frame: 1, body: 'hand', point: [0, 0, 0], impulse: [0, 0, 1] }];
    await e.files.save(true);
    const path = e.getState().file.path!;
    const json = JSON.parse(e.disk.get(path) as string) as { preview: { inputs: { frame: number }[] } };
    json.preview.inputs[0]!.frame = -3;
    expect(() => parseProject(JSON.stringify(json), 'bad.marionette')).toThrow('bad.marionette: preview.inputs.0.frame: must be a frame number ≥ 0 (got -3).');
  });

  it('Clear takes every input off the timeline and says how many; no preview is a refusal', async () => {
    const e = await openedEditor();
    e.timeline = structuredClone(inputs);
    expect(e.inputs.list()).toHaveLength(7);
    expect(e.inputs.clear()).toEqual({ ok: true, value: 7 });
    expect(e.timeline).toEqual([]);
    expect(e.lastNotice).toBe('Cleared 7 preview inputs from the timeline');
    const off = await openedEditor('armed-mine', { preview: false });
    expect(off.inputs.clear()).toEqual({ ok: false, error: { field: 'Clear inputs', message: 'the preview is not running' } });
    expect(off.inputs.list()).toEqual([]);
  });

  it('go limp / power on say so in the status bar', async () => {
    const e = await openedEditor();
    expect(e.inputs.setLimp('all', true).ok).toBe(true);
    expect(e.statuses.at(-1)).toBe('Go limp: all joints (motors off) from the frame shown');
    expect(e.inputs.setLimp(['elbow', 'wrist'], false).ok).toBe(true);
    expect(e.statuses.at(-1)).toBe('Power on: elbow, wrist (motors driving again) from the frame shown');
    expect(e.inputs.setLimp(['knee'], true).ok).toBe(false);
    expect(e.statuses).toHaveLength(2);
  });
});

describe('preview inputs are unsaved changes until saved', () => {
  it('a project file’s changed timeline marks it unsaved (title, close prompt, autosave); saving or reopening clears it', async () => {
    const e = await openedEditor();
    // Not a project file yet: pokes are trying things out, not a change to ask about.
    e.timeline = structuredClone(inputs.slice(0, 1));
    e.inputsChanged();
    expect(e.dirty).toBe(false);
    expect((await e.files.save(true)).ok).toBe(true);
    const name = e.getState().file.fileName!;
    e.timeline = structuredClone(inputs.slice(0, 2));
    e.inputsChanged();
    expect(e.dirty).toBe(true);
    expect(e.title).toEqual({ title: name, dirty: true });
    expect(e.getState().file.dirty).toBe(true);
    expect((await e.files.autosave()).ok).toBe(true);
    expect(JSON.parse(e.autosaved!).preview.inputs).toHaveLength(2);
    // New asks first (the inputs would be lost).
    e.answers.push('Cancel');
    expect((await e.files.newProject()).ok).toBe(false);
    expect(e.asked.at(-1)!.title).toBe('Unsaved changes');
    expect((await e.files.save(true)).ok).toBe(true);
    expect(e.dirty).toBe(false);
    // Back to what was saved: clean again without a save; a different list: unsaved.
    e.timeline = [];
    e.inputsChanged();
    expect(e.dirty).toBe(true);
    e.timeline = structuredClone(inputs.slice(0, 2));
    e.inputsChanged();
    expect(e.dirty).toBe(false);
    // What a file command says is saved now (here: nothing) is what the timeline is compared with.
    e.inputsSaved([]);
    e.inputsChanged();
    expect(e.dirty).toBe(true);
    // Reopened with its inputs: clean.
    const path = e.getState().file.path!;
    const f = new TestEditor();
    f.disk.set(path, e.disk.get(path) as string);
    await f.files.openRecent({ kind: 'project', path, name: 'p' });
    f.inputsChanged();
    expect(f.dirty).toBe(false);
    expect(f.title!.dirty).toBe(false);
  });
});
