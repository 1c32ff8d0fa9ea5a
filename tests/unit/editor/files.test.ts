/**
 * The editor's file commands (shared/editor/files.ts) on the in-memory platform: open a creature or a
 * project, the unsaved-changes prompt, a moved creature, save, export, autosave and its recovery, close.
 */
import { describe, expect, it } from 'vitest';
import { setMass } from '../../../shared/authoring';
import { validateRig } from '../../../shared/rig';
import { openedEditor, TestEditor } from './testEditor';

describe('Editor file commands', () => {
  it('opens a creature file: its skeleton, no bodies yet, clean, with a notice naming the bone count', async () => {
    const e = new TestEditor();
    const path = e.putAsset('humanoid.glb');
    e.picks.push(path);
    expect((await e.files.pickAndOpenCreature()).ok).toBe(true);
    const bones = e.creature!.skeleton.bones.length;
    expect(bones).toBeGreaterThan(10);
    expect(e.rig!.skeleton.bones.map((b) => b.name)).toEqual(e.creature!.skeleton.bones.map((b) => b.name));
    expect(e.rig!.bodies).toHaveLength(0);
    expect(e.document!.creature).toEqual({ name: 'humanoid.glb', path });
    expect(e.getState().file).toEqual({ path: null, fileName: null, dirty: false });
    expect(e.lastNotice).toBe(`Opened humanoid.glb: ${bones} bones`);
  });

  it('a built-in creature opens with the rig shipped next to it', async () => {
    const e = await openedEditor('armed-mine');
    expect(e.rig!.bodies.map((b) => b.name)).toEqual(['body', 'upper_arm', 'forearm', 'hand']);
    expect(e.rig!.joints.map((j) => j.type)).toEqual(['ball', 'hinge', 'hinge']);
    expect(e.document!.creature.builtin).toBe('armed-mine');
  });

  it('a file that is not a creature is refused with its name; the open document stays', async () => {
    const e = await openedEditor();
    const doc = e.document;
    e.disk.set('/creatures/broken.glb', new Uint8Array([1, 2, 3, 4]));
    const r = await e.files.openRecent({ kind: 'creature', path: '/creatures/broken.glb', name: 'broken.glb' });
    expect(r.ok).toBe(false);
    expect(e.lastNotice).toMatch(/^Could not open broken\.glb: /);
    expect(e.document).toBe(doc);
    expect(e.getState().loading).toBeNull();
    // A cancelled dialog is not an error and changes nothing.
    e.picks.push(null);
    expect(await e.files.pickAndOpenCreature()).toEqual({ ok: false, error: { field: '', message: 'cancelled' } });
    expect(e.document).toBe(doc);
  });

  it('asks before discarding unsaved changes: Cancel keeps them, Don\'t save opens the other creature', async () => {
    const e = await openedEditor();
    e.editRig('Mass', (r) => setMass(r, 'forearm', 2.5));
    e.answers.push('Cancel');
    expect((await e.files.openBuiltinCreature('humanoid')).ok).toBe(false);
    expect(e.asked.at(-1)).toMatchObject({ title: 'Unsaved changes', labels: ['Save', "Don't save", 'Cancel'] });
    expect(e.rig!.name).toBe('armed-mine');
    const old = e.creature!;
    e.answers.push("Don't save");
    expect((await e.files.openBuiltinCreature('humanoid')).ok).toBe(true);
    expect(e.rig!.name).toBe('humanoid');
    expect(old.disposed).toBe(true);
    expect(e.getState().history.depth).toBe(0);
  });

  it('saves a project and opens it again deep-equal, with the selected bone and the view restored', async () => {
    const e = await openedEditor();
    e.editRig('Mass', (r) => setMass(r, 'forearm', 2.5));
    e.select({ kind: 'bone', name: 'forearm' });
    e.view = { showSkeleton: false };
    const saved = await e.files.save(false);
    expect(saved).toEqual({ ok: true, value: { path: '/projects/armed-mine.marionette', name: 'armed-mine.marionette' } });
    expect(e.getState().file).toEqual({ path: '/projects/armed-mine.marionette', fileName: 'armed-mine.marionette', dirty: false });
    expect(e.recent).toEqual([{ kind: 'project', path: '/projects/armed-mine.marionette', name: 'armed-mine.marionette' }]);
    expect(e.title).toEqual({ title: 'armed-mine.marionette', dirty: false });
    const doc = structuredClone(e.document);

    const f = new TestEditor();
    for (const [k, v] of e.disk) f.disk.set(k, v);
    const seen: unknown[] = [];
    f.subscribe((ev) => { if (ev.type === 'change' && ev.opened) seen.push(ev.opened.session); });
    f.picks.push('/projects/armed-mine.marionette');
    expect((await f.files.pickAndOpenProject()).ok).toBe(true);
    expect(f.document).toEqual(doc);
    expect(f.selection).toEqual({ kind: 'bone', name: 'forearm' });
    expect(seen.at(-1)).toMatchObject({ selectedBone: 'forearm', showSkeleton: false });
    expect(f.lastNotice).toBe('Opened project armed-mine.marionette');
  });

  it('a project whose creature moved asks where it is and relinks it (then unsaved)', async () => {
    const e = new TestEditor();
    const path = e.putAsset('armed-mine.glb');
    expect((await e.files.openCreatureFile({ name: 'armed-mine.glb', path, bytes: e.disk.get(path) as Uint8Array, resources: {} })).ok).toBe(true);
    await e.files.save(false);
    const text = e.disk.get('/projects/armed-mine.marionette') as string;
    e.disk.delete(path);
    e.disk.set('/elsewhere/armed-mine.glb', (await import('./testEditor')).assetBytes('armed-mine.glb'));
    const f = new TestEditor();
    f.answers.push('Locate…');
    f.picks.push('/elsewhere/armed-mine.glb');
    f.disk.set('/elsewhere/armed-mine.glb', e.disk.get('/elsewhere/armed-mine.glb')!);
    expect((await f.files.openProjectText(text, 'armed-mine.marionette', '/projects/armed-mine.marionette')).ok).toBe(true);
    expect(f.asked[0]!.title).toBe('Creature file not found');
    expect(f.document!.creature.path).toBe('/elsewhere/armed-mine.glb');
    expect(f.dirty).toBe(true);
  });

  it('exports a valid rig JSON and MJCF; with nothing open it says so', async () => {
    const e = await openedEditor();
    const r = await e.files.exportRig('rig');
    expect(r).toEqual({ ok: true, value: { path: '/exports/armed-mine.rig.json', name: 'armed-mine.rig.json' } });
    const exported = validateRig(JSON.parse(e.disk.get('/exports/armed-mine.rig.json') as string));
    expect(exported.ok && exported.rig.bodies.length).toBe(4);
    expect(e.lastNotice).toBe('Exported armed-mine.rig.json');
    const m = await e.files.exportRig('mjcf');
    expect(m.ok).toBe(true);
    const xml = String(e.disk.get('/exports/armed-mine.xml'));
    expect(xml).toMatch(/<mujoco[ >]/);
    expect(xml.match(/<body /g)?.length).toBe(4);
    const empty = new TestEditor();
    expect(await empty.files.exportRig('rig')).toEqual({ ok: false, error: { field: 'Nothing to export', message: 'no creature is open.' } });
    expect(empty.lastNotice).toBe('Nothing to export: no creature is open.');
  });

  it('autosaves unsaved work and offers it back at the next start', async () => {
    const e = await openedEditor();
    expect((await e.files.autosave()).ok).toBe(true);
    expect(e.autosaved).toBeNull(); // clean: nothing written
    e.editRig('Mass', (r) => setMass(r, 'forearm', 2.5));
    await e.files.autosave();
    expect(e.autosaved).not.toBeNull();
    const f = new TestEditor();
    f.autosaved = e.autosaved;
    f.answers.push('Restore');
    expect((await f.files.startup()).ok).toBe(true);
    expect(f.asked[0]!.title).toBe('Restore unsaved work?');
    expect(f.document).toEqual(e.document);
    expect(f.dirty).toBe(true);
    expect(f.lastNotice).toBe('Restored the autosaved "armed-mine"');
    // Discard: the autosave is cleared and New opens the default creature.
    const g = new TestEditor();
    g.autosaved = e.autosaved;
    g.answers.push('Discard');
    await g.files.startup();
    expect(g.autosaved).toBeNull();
    expect(g.dirty).toBe(false);
    expect(g.rig!.name).toBe('armed-mine');
  });

  it('New opens the default creature; confirmDiscard asks only with unsaved changes, and Save saves first', async () => {
    const e = new TestEditor();
    expect((await e.files.newProject()).ok).toBe(true);
    expect(e.rig!.name).toBe('armed-mine');
    expect(await e.files.confirmDiscard()).toBe(true);
    expect(e.asked).toHaveLength(0);
    e.editRig('Mass', (r) => setMass(r, 'forearm', 2.5));
    e.answers.push('Save');
    expect(await e.files.confirmDiscard()).toBe(true);
    expect(e.asked).toHaveLength(1);
    expect(e.disk.has('/projects/armed-mine.marionette')).toBe(true);
    expect(e.dirty).toBe(false);
  });

  it('closes the document: nothing open, the creature disposed', async () => {
    const e = await openedEditor();
    const c = e.creature!;
    expect(await e.files.closeDocument()).toBe(true);
    expect(e.document).toBeNull();
    expect(e.creature).toBeNull();
    expect(c.disposed).toBe(true);
    expect(e.files.projectText().ok).toBe(false);
  });
});
