/**
 * Crash recovery through the real main process (two starts on one userData folder, real files): the
 * autosave of a document whose creature the user opened comes back after a "crash" with a handle that reads
 * the creature again; a creature the window was never given does not.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadMain } from './fakeMain';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'marionette-recover-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('autosave recovery across a crash', () => {
  it('restores the document and re-grants only the creature the user had opened', async () => {
    const userData = path.join(tmp, 'userData');
    const creature = path.join(tmp, 'models', 'mine.glb');
    const other = path.join(tmp, 'models', 'other.glb');
    fs.mkdirSync(path.dirname(creature), { recursive: true });
    fs.mkdirSync(userData, { recursive: true }); // Electron creates userData before the app runs
    fs.copyFileSync('assets/creatures/armed-mine.glb', creature);
    fs.copyFileSync('assets/creatures/armed-mine.glb', other);
    const first = await loadMain(path.join(tmp, 'run1'), [], userData);
    first.openAnswers.push(creature);
    const picked = await first.request({ type: 'pick-creature' });
    expect(picked.error).toBeUndefined();
    expect(picked).toMatchObject({ ok: true, value: { path: creature } });
    const text = JSON.stringify({ format: 'marionette-project', version: 1, creature: { name: 'mine.glb', path: creature }, rig: { name: 'draft' } });
    expect((await first.request({ type: 'write-autosave', text })).ok).toBe(true);
    // ...the process dies without a clean exit. The next start:
    const second = await loadMain(path.join(tmp, 'run2'), [], userData);
    const recovered = await second.request({ type: 'read-autosave' });
    expect(recovered).toMatchObject({ ok: true, value: { text, creature: { path: creature } } });
    const handle = (recovered.value as { creature: { handle: string } }).creature.handle;
    expect(await second.request({ type: 'read-creature', handle })).toMatchObject({ ok: true, value: { name: 'mine.glb' } });

    // An autosave naming a creature the window never had: the text comes back, the creature grant does not.
    const forged = JSON.stringify({ format: 'marionette-project', version: 1, creature: { name: 'other.glb', path: other }, rig: { name: 'draft' } });
    expect((await second.request({ type: 'write-autosave', text: forged })).ok).toBe(true);
    const third = await loadMain(path.join(tmp, 'run3'), [], userData);
    expect(await third.request({ type: 'read-autosave' })).toMatchObject({ ok: true, value: { text: forged, creature: null } });
  }, 60_000);
});
