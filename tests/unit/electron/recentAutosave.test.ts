import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_RECENT, RecentFiles } from '../../../electron/recentFiles';
import { AutosaveStore } from '../../../electron/autosave';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marionette-user-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function touch(name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, 'x');
  return file;
}

describe('RecentFiles', () => {
  it('keeps newest first, dedupes by path, caps at 10 and persists across instances', async () => {
    let clock = 1000;
    const listFile = path.join(dir, 'recent-files.json');
    const recent = new RecentFiles(listFile, undefined, () => clock++);
    const files = Array.from({ length: 12 }, (_, i) => touch(`p${i}.marionette`));
    for (const file of files) await recent.add({ kind: 'project', path: file, name: path.basename(file) });
    await recent.add({ kind: 'project', path: files[5]!, name: 'p5.marionette' });
    const reopened = await new RecentFiles(listFile).list();
    expect(reopened).toHaveLength(MAX_RECENT);
    expect(reopened.map((e) => e.name)).toEqual(['p5', 'p11', 'p10', 'p9', 'p8', 'p7', 'p6', 'p4', 'p3', 'p2'].map((n) => `${n}.marionette`));
    expect(reopened[0]!.openedAt).toBe(1012);
  });

  it('prunes files that no longer exist, and rewrites the list', async () => {
    const listFile = path.join(dir, 'recent-files.json');
    const recent = new RecentFiles(listFile);
    const kept = touch('kept.glb');
    const gone = touch('gone.glb');
    await recent.add({ kind: 'creature', path: kept, name: 'kept.glb' });
    await recent.add({ kind: 'creature', path: gone, name: 'gone.glb' });
    fs.rmSync(gone);
    expect((await recent.list()).map((e) => e.path)).toEqual([kept]);
    expect(JSON.parse(fs.readFileSync(listFile, 'utf8')).entries).toHaveLength(1);
  });

  it('treats a corrupt list as empty and serialises concurrent adds', async () => {
    const listFile = path.join(dir, 'recent-files.json');
    fs.writeFileSync(listFile, '{ not json');
    const recent = new RecentFiles(listFile);
    expect(await recent.list()).toEqual([]);
    const a = touch('a.glb');
    const b = touch('b.glb');
    await Promise.all([recent.add({ kind: 'creature', path: a, name: 'a.glb' }), recent.add({ kind: 'creature', path: b, name: 'b.glb' })]);
    expect((await recent.list()).map((e) => e.name).sort()).toEqual(['a.glb', 'b.glb']);
  });
});

describe('AutosaveStore', () => {
  it('offers the autosave back after a crash (no clean exit since it was written)', async () => {
    let clock = 5000;
    const folder = path.join(dir, 'autosave');
    const session1 = new AutosaveStore(folder, () => clock);
    await session1.markCleanExit(); // an earlier, clean session
    clock = 6000;
    await session1.write('{"unsaved":1}');
    clock = 7000;
    await session1.write('{"unsaved":2}', '/m/mine.glb'); // main recorded its granted creature
    // ...the process dies here. A new start reads the same folder:
    const session2 = new AutosaveStore(folder, () => 9000);
    expect(await session2.read()).toEqual({ text: '{"unsaved":2}', savedAt: 7000, creaturePath: '/m/mine.glb' });
  });

  it('offers nothing after a clean exit, and nothing after clear()', async () => {
    let clock = 100;
    const folder = path.join(dir, 'autosave');
    const store = new AutosaveStore(folder, () => clock);
    await store.write('doc');
    clock = 200;
    await store.markCleanExit();
    expect(await new AutosaveStore(folder).read()).toBeNull();
    clock = 300;
    await store.write('doc 2');
    expect(await store.read()).toEqual({ text: 'doc 2', savedAt: 300, creaturePath: null });
    await store.clear();
    expect(await store.read()).toBeNull();
  });

  it('an autosave older than the last clean exit is stale (clean exit could not delete it)', async () => {
    const folder = path.join(dir, 'autosave');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'document.json'), JSON.stringify({ version: 1, savedAt: 50, text: 'old' }));
    fs.writeFileSync(path.join(folder, 'session.json'), JSON.stringify({ version: 1, cleanExitAt: 60 }));
    expect(await new AutosaveStore(folder).read()).toBeNull();
    fs.writeFileSync(path.join(folder, 'session.json'), JSON.stringify({ version: 1, cleanExitAt: 40 }));
    expect(await new AutosaveStore(folder).read()).toEqual({ text: 'old', savedAt: 50, creaturePath: null });
  });
});
