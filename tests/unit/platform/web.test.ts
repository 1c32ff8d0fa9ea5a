import { describe, expect, it } from 'vitest';
import { createWebPlatform, idbPath, type WebPlatformDeps } from '../../../renderer/src/platform/web';
import { createMemoryStore, type KeyValueStore } from '../../../renderer/src/platform/storage';
import { createMenuBus } from '../../../renderer/src/platform/menuBus';
import type { MenuCommand } from '../../../shared/platform';

const enc = (s: string) => new TextEncoder().encode(s);

function harness(store: KeyValueStore = createMemoryStore(), picks: File[][] = [], urls: Record<string, Uint8Array> = {}) {
  let clock = 1000;
  const downloads: Array<{ name: string; text: string }> = [];
  const state = { title: '', guard: false };
  const deps: WebPlatformDeps = {
    store,
    pickFiles: async () => picks.shift() ?? [],
    download: (name, data) => void downloads.push({ name, text: typeof data === 'string' ? data : `<${data.byteLength} bytes>` }),
    fetchBytes: async (url) => {
      const bytes = urls[url];
      if (!bytes) throw new Error(`${url} is not there (HTTP 404).`);
      return bytes;
    },
    setTitle: (t) => void (state.title = t),
    setLeaveGuard: (g) => void (state.guard = g),
    now: () => clock++,
  };
  return { platform: createWebPlatform(deps), downloads, state, store };
}

const gltfText = (buffers: string[], images: string[] = []) => JSON.stringify({ asset: { version: '2.0' }, buffers: buffers.map((uri) => ({ uri, byteLength: 4 })), images: images.map((uri) => ({ uri })) });

describe('web platform: creatures', () => {
  it('a .gltf picked with its buffer and texture comes back with resources keyed by URI, and survives a reload', async () => {
    const store = createMemoryStore();
    const files = [
      new File([gltfText(['mine%20body.bin'], ['tex/rust.png'])], 'mine.gltf'),
      new File([new Uint8Array([1, 2, 3, 4])], 'mine body.bin'),
      new File([new Uint8Array([7])], 'RUST.png'),
      new File(['unrelated'], 'notes.txt'),
    ];
    const first = harness(store, [files]);
    const picked = await first.platform.pickCreature();
    expect(picked!.path).toBe('idb:creature/mine.gltf');
    expect(Object.keys(picked!.resources).sort()).toEqual(['mine%20body.bin', 'tex/rust.png']);
    expect([...picked!.resources['mine%20body.bin']!]).toEqual([1, 2, 3, 4]);
    // "Reload": a new platform over the same storage reads the same creature back by its pseudo-path.
    const second = harness(store);
    const again = await second.platform.readCreature(picked!.path!);
    expect(again.bytes).toEqual(picked!.bytes);
    expect(again.resources).toEqual(picked!.resources);
    expect((await second.platform.recentFiles()).map((e) => e.path)).toEqual(['idb:creature/mine.gltf']);
  });

  it('names what is wrong with a pick or a drop', async () => {
    const { platform } = harness();
    await expect(platform.creatureFromFiles([new File(['x'], 'a.png')])).rejects.toThrow('None of a.png is a creature Marionette opens (.glb, .gltf or .fbx).');
    await expect(platform.creatureFromFiles([new File(['x'], 'a.glb'), new File(['y'], 'b.gltf')])).rejects.toThrow('Open one creature at a time (got a.glb, b.gltf).');
    await expect(platform.creatureFromFiles([new File([gltfText(['body.bin'])], 'm.gltf')])).rejects.toThrow(/m\.gltf: its buffer "body\.bin" was not picked/);
    await expect(platform.creatureFromFiles([new File(['{ broken'], 'm.gltf')])).rejects.toThrow(/m\.gltf: not a glTF file/);
    expect(await platform.pickCreature()).toBeNull(); // cancelled picker
  });

  it('reads built-in creatures by URL, refusing resources outside their folder and desktop paths', async () => {
    const urls = { 'creatures/mine.gltf': enc(gltfText(['mine.bin'])), 'creatures/mine.bin': new Uint8Array([5]), 'creatures/evil.gltf': enc(gltfText(['../secret.bin'])) };
    const { platform } = harness(undefined, [], urls);
    const mine = await platform.readCreature('creatures/mine.gltf');
    expect(mine).toMatchObject({ name: 'mine.gltf', path: 'creatures/mine.gltf' });
    expect([...mine.resources['mine.bin']!]).toEqual([5]);
    await expect(platform.readCreature('creatures/evil.gltf')).rejects.toThrow(/outside the creature's folder/);
    await expect(platform.readCreature('creatures/gone.glb')).rejects.toThrow('creatures/gone.glb is not there (HTTP 404).');
    await expect(platform.readCreature('/home/u/mine.glb')).rejects.toThrow(/file on a computer's disk/);
    await expect(platform.readCreature('idb:creature/never.glb')).rejects.toThrow(/never\.glb is no longer in this browser's storage/);
  });

  it('keeps only the 8 most recent creatures in storage', async () => {
    const { platform, store } = harness();
    for (let i = 0; i < 10; i++) await platform.creatureFromFiles([new File([new Uint8Array([i])], `c${i}.fbx`)]);
    expect((await store.keys('creatures')).sort()).toEqual(['c2.fbx', 'c3.fbx', 'c4.fbx', 'c5.fbx', 'c6.fbx', 'c7.fbx', 'c8.fbx', 'c9.fbx']);
  });
});

describe('web platform: projects, recent, autosave', () => {
  it('save → reload → same document; first save downloads, later saves update storage only', async () => {
    const store = createMemoryStore();
    const { platform, downloads } = harness(store);
    await platform.writeAutosave('{"draft":true}');
    const saved = await platform.saveProject('{"v":1}', null, 'Armed Mine');
    expect(saved).toEqual({ path: 'idb:project/Armed Mine.marionette', name: 'Armed Mine.marionette' });
    expect(downloads).toEqual([{ name: 'Armed Mine.marionette', text: '{"v":1}' }]);
    expect(await platform.readAutosave()).toBeNull(); // a clean save clears the autosave
    await platform.saveProject('{"v":2}', saved!.path, 'Armed Mine');
    expect(downloads).toHaveLength(1);
    const reloaded = harness(store).platform;
    expect(await reloaded.readProject(saved!.path)).toEqual({ name: 'Armed Mine.marionette', path: saved!.path, text: '{"v":2}' });
    expect((await reloaded.recentFiles())[0]).toMatchObject({ kind: 'project', path: saved!.path });
  });

  it('opens a picked project, reads examples by URL, exports by download', async () => {
    const { platform, downloads } = harness(undefined, [[new File(['{"p":1}'], 'robot.marionette')]], { 'examples/pendulum.json': enc('{"e":1}') });
    expect(await platform.pickProject()).toEqual({ name: 'robot.marionette', path: idbPath('project', 'robot.marionette'), text: '{"p":1}' });
    expect(await platform.readProject('examples/pendulum.json')).toEqual({ name: 'pendulum.json', path: 'examples/pendulum.json', text: '{"e":1}' });
    expect(await platform.pickProject()).toBeNull();
    expect(await platform.exportRig('{"rig":1}', 'armed-mine')).toEqual({ path: 'armed-mine.json', name: 'armed-mine.json' });
    expect(downloads).toEqual([{ name: 'armed-mine.json', text: '{"rig":1}' }]);
  });

  it('Apply Rig From… reads a picked rig for its rig only: not stored as a project, not a recent entry', async () => {
    const { platform } = harness(undefined, [[new File(['{"format":"marionette-rig"}'], 'other.rig.json')]]);
    expect(await platform.pickProject({ purpose: 'apply-rig' })).toEqual({ name: 'other.rig.json', path: null, text: '{"format":"marionette-rig"}' });
    expect(await platform.recentFiles()).toEqual([]);
    await expect(platform.readProject(idbPath('project', 'other.rig.json'))).rejects.toThrow();
  });

  it('recent: newest first, deduped, capped at 10, dropped when the stored file is gone', async () => {
    const { platform, store } = harness();
    for (let i = 0; i < 12; i++) await platform.addRecent({ kind: 'creature', path: `creatures/c${i}.glb`, name: `c${i}.glb` });
    await platform.addRecent({ kind: 'creature', path: 'creatures/c4.glb', name: 'c4.glb' });
    const list = await platform.recentFiles();
    expect(list.map((e) => e.name)).toEqual(['c4', 'c11', 'c10', 'c9', 'c8', 'c7', 'c6', 'c5', 'c3', 'c2'].map((n) => `${n}.glb`));
    await platform.saveProject('{}', null, 'gone');
    await store.delete('projects', 'gone.marionette');
    expect((await platform.recentFiles()).some((e) => e.path === 'idb:project/gone.marionette')).toBe(false);
  });

  it('autosave survives a reload until cleared', async () => {
    const store = createMemoryStore();
    await harness(store).platform.writeAutosave('{"unsaved":1}');
    const next = harness(store).platform;
    expect(await next.readAutosave()).toEqual({ text: '{"unsaved":1}', savedAt: 1000 });
    await next.clearAutosave();
    expect(await next.readAutosave()).toBeNull();
  });

  it('document state sets the title and the leave prompt', () => {
    const { platform, state } = harness();
    platform.setDocumentState('armed-mine', true);
    expect(state).toEqual({ title: '• armed-mine — Marionette', guard: true });
    platform.setDocumentState('armed-mine', false);
    expect(state).toEqual({ title: 'armed-mine — Marionette', guard: false });
  });
});

describe('menu commands', () => {
  it('dispatched commands reach listeners; early ones wait for the first listener; unsubscribe stops delivery', () => {
    const { platform } = harness();
    platform.dispatchMenuCommand('save');
    const got: MenuCommand[] = [];
    const stop = platform.onMenuCommand((c) => got.push(c));
    platform.dispatchMenuCommand({ kind: 'open-example', name: 'pendulum', path: 'examples/pendulum.json' });
    stop();
    platform.dispatchMenuCommand('undo');
    expect(got).toEqual(['save', { kind: 'open-example', name: 'pendulum', path: 'examples/pendulum.json' }]);
    const bus = createMenuBus();
    const a: MenuCommand[] = [];
    const b: MenuCommand[] = [];
    bus.subscribe((c) => a.push(c));
    bus.subscribe((c) => b.push(c));
    bus.dispatch('redo');
    expect([a, b]).toEqual([['redo'], ['redo']]);
  });
});
