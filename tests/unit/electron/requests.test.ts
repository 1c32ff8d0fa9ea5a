import { describe, expect, it } from 'vitest';
import { documentStateSchema, parseMessage, platformRequestSchema } from '../../../electron/ipcSchemas';
import { guardHandler, performRequest, platformRequestHandler, type PlatformServices } from '../../../electron/requests';
import { checkSender, isAppUrl, type AppOrigins } from '../../../electron/security';
import { FileGrants } from '../../../electron/capabilities';
import type { RecentEntry } from '../../../shared/platform';

const prod: AppOrigins = { devServerUrl: null };
const dev: AppOrigins = { devServerUrl: 'http://localhost:5173/' };
const appFrame = { senderFrame: { url: 'app://marionette/index.html', parent: null } };

describe('IPC payload validation', () => {
  it('accepts each well-formed request', () => {
    expect(parseMessage(platformRequestSchema, { type: 'save-project', text: '{}', handle: null, suggestedName: 'robot.marionette' }, 'request'))
      .toEqual({ type: 'save-project', text: '{}', handle: null, suggestedName: 'robot.marionette' });
    expect(parseMessage(platformRequestSchema, { type: 'read-creature', handle: 'AAAAAAAAAAAAAAAAAAAAAAAA' }, 'request').type).toBe('read-creature');
    expect(parseMessage(platformRequestSchema, { type: 'pick-creature', missingPath: '/x/mine.glb' }, 'request').type).toBe('pick-creature');
  });

  it.each([
    [{ type: 'delete-everything' }, /must be one of the platform requests \(got type "delete-everything"\)/],
    [{ type: 'read-project' }, /handle: .*expected string/i],
    [{ type: 'read-project', handle: '' }, /handle: must be a file handle issued by Marionette/],
    [{ type: 'read-project', handle: '/home/u/robot.marionette' }, /handle: must be a file handle issued by Marionette \(not a path\)/],
    [{ type: 'open-dropped-creature', path: '/etc/passwd\0.glb' }, /path: must not contain a NUL character/],
    [{ type: 'open-dropped-creature', path: '/a.glb', sha256: '0'.repeat(64) }, /Unrecognized key.*sha256/i],
    [{ type: 'read-dropped-creature', path: '/a.glb', sha256: '0'.repeat(64) }, /must be one of the platform requests \(got type "read-dropped-creature"\)/],
    [{ type: 'save-project', text: 5, handle: null, suggestedName: 'a' }, /text: .*expected string/i],
    [{ type: 'save-project', text: '', handle: null, suggestedName: '../../evil' }, /suggestedName: must be a bare file name/],
    [{ type: 'save-project', text: '', path: '/home/u/.bashrc', handle: null, suggestedName: 'a' }, /Unrecognized key.*path/i],
    [{ type: 'read-creature', handle: 'AAAAAAAAAAAAAAAAAAAAAAAA', extra: true }, /Unrecognized key.*extra/i],
    [{ type: 'add-recent', entry: { kind: 'project', path: '/a', name: 'a' } }, /handle|entry/],
    ['just a string', /\(message\)/],
  ])('rejects %j with a message naming the field', (payload, message) => {
    expect(() => parseMessage(platformRequestSchema, payload, 'platform request')).toThrow(/^Rejected platform request: /);
    expect(() => parseMessage(platformRequestSchema, payload, 'platform request')).toThrow(message);
  });

  it('rejects a bad document state', () => {
    expect(() => parseMessage(documentStateSchema, { title: 'x', dirty: 'yes' }, 'document state')).toThrow(/Rejected document state: dirty: /);
    expect(() => parseMessage(documentStateSchema, { title: 'x'.repeat(600), dirty: true }, 'document state')).toThrow(/title: must be at most 510/);
  });
});

describe('sender check', () => {
  it('trusts only the top frame of the app page (or the dev server in development)', () => {
    expect(checkSender(appFrame, prod)).toEqual({ ok: true });
    expect(checkSender({ senderFrame: { url: 'http://localhost:5173/index.html', parent: null } }, dev)).toEqual({ ok: true });
    expect(checkSender({ senderFrame: { url: 'http://localhost:5173/index.html', parent: null } }, prod).ok).toBe(false);
    expect(checkSender({ senderFrame: { url: 'http://localhost:5174/', parent: null } }, dev).ok).toBe(false);
    expect(checkSender({ senderFrame: { url: 'https://evil.example/', parent: null } }, dev)).toEqual({ ok: false, reason: 'https://evil.example/ is not a Marionette page' });
    expect(checkSender({ senderFrame: { url: 'app://marionette/index.html', parent: {} } }, prod).ok).toBe(false);
    expect(checkSender({ senderFrame: null }, prod)).toEqual({ ok: false, reason: 'the sending frame is gone' });
    expect(checkSender({ senderFrame: { url: 'file:///work/dist-web/index.html', parent: null } }, prod).ok).toBe(false);
    expect(isAppUrl('app://other/index.html', prod)).toBe(false);
    expect(isAppUrl('not a url', prod)).toBe(false);
  });

  it('a guarded handler refuses untrusted senders and bad payloads without calling the handler', async () => {
    let calls = 0;
    const handler = guardHandler(prod, documentStateSchema, 'document state', async () => ++calls, () => undefined);
    expect(await handler({ senderFrame: { url: 'https://evil.example/', parent: null } }, { title: 'a', dirty: true }))
      .toEqual({ ok: false, error: 'Refused document state: https://evil.example/ is not a Marionette page.' });
    const bad = await handler(appFrame, { title: 'a' });
    expect(bad.ok).toBe(false);
    expect(calls).toBe(0);
    expect(await handler(appFrame, { title: 'a', dirty: false })).toEqual({ ok: true, value: 1 });
  });
});

function fakeServices(overrides: Partial<PlatformServices> = {}) {
  const log: string[] = [];
  const recent: Omit<RecentEntry, 'openedAt'>[] = [];
  const files = new Map<string, string>();
  const services: PlatformServices = {
    grants: new FileGrants(),
    chooseCreature: async () => '/c/mine.glb',
    chooseProject: async () => '/p/robot.marionette',
    chooseSaveProject: async (name) => `/p/${name}`,
    chooseExportRig: async (name) => `/e/${name}`,
    readCreature: async (p) => ({ name: 'mine.glb', path: p, bytes: new Uint8Array([1]), resources: {} }),
    confirmDroppedCreature: async () => false,
    confirmOutsideCreature: async () => false,
    readProject: async (p) => ({ name: 'robot.marionette', path: p, text: files.get(p) ?? '{}' }),
    writeFile: async (p, t) => void files.set(p, typeof t === 'string' ? t : `<${t.byteLength} bytes>`),
    recentFiles: async () => [],
    addRecent: async (e) => void recent.push(e),
    writeAutosave: async () => void log.push('autosave'),
    readAutosave: async () => null,
    clearAutosave: async () => void log.push('clear-autosave'),
    projectSaveFinished: (outcome) => void log.push(`save:${outcome}`),
    ...overrides,
  };
  return { services, log, recent, files };
}

describe('performRequest', () => {
  it('Save As asks for a path, writes, clears the autosave, adds to recent and reports the save', async () => {
    const { services, log, recent, files } = fakeServices();
    const saved = await performRequest({ type: 'save-project', text: 'TEXT', handle: null, suggestedName: 'robot.marionette' }, services);
    expect(saved).toMatchObject({ path: '/p/robot.marionette', name: 'robot.marionette', handle: expect.stringMatching(/^[\w-]{24}$/) });
    // The handle saves there again without a dialog.
    const again = await performRequest({ type: 'save-project', text: 'TEXT 2', handle: saved!.handle, suggestedName: 'x' }, { ...services, chooseSaveProject: async () => { throw new Error('no dialog expected'); } });
    expect(again?.path).toBe('/p/robot.marionette');
    expect(files.get('/p/robot.marionette')).toBe('TEXT 2');
    expect(log).toEqual(['clear-autosave', 'save:saved', 'clear-autosave', 'save:saved']);
    expect(recent[0]).toEqual({ kind: 'project', path: '/p/robot.marionette', name: 'robot.marionette' });
  });

  it('Apply Rig From… picks a rig or project for its rig only: its own dialog, readable, not a recent project, its creature neither granted nor asked about', async () => {
    const asked: (string | undefined)[] = [];
    let outsideAsked = 0;
    const { services, recent, files } = fakeServices({
      chooseProject: async (purpose) => { asked.push(purpose); return purpose === 'apply-rig' ? '/r/other.marionette' : '/p/robot.marionette'; },
      confirmOutsideCreature: async () => { outsideAsked++; return true; },
    });
    files.set('/r/other.marionette', JSON.stringify({ format: 'marionette-project', version: 2, creature: { name: 'x.glb', path: '/elsewhere/x.glb' }, rig: {} }));
    const file = await performRequest({ type: 'pick-project', purpose: 'apply-rig' }, services);
    expect(asked).toEqual(['apply-rig']);
    expect(file).toMatchObject({ path: '/r/other.marionette', creature: null, handle: expect.stringMatching(/^[\w-]{24}$/) });
    expect(recent).toEqual([]);
    expect(outsideAsked).toBe(0);
    expect(services.grants.pathAllows('/elsewhere/x.glb', 'read-creature')).toBe(false);
    // The same file read again by its handle works (what Open Recent would do) …
    expect((await performRequest({ type: 'read-project', handle: file!.handle }, services)).path).toBe('/r/other.marionette');
    // … and a file that is neither a rig nor a project is refused.
    const wrong = fakeServices({ chooseProject: async () => '/r/picture.png' });
    await expect(performRequest({ type: 'pick-project', purpose: 'apply-rig' }, wrong.services)).rejects.toThrow('picture.png: not a rig (.json) or Marionette project (.marionette) file.');
    expect(platformRequestSchema.safeParse({ type: 'pick-project', purpose: 'steal' }).success).toBe(false);
    expect(platformRequestSchema.safeParse({ type: 'pick-project', purpose: 'apply-rig' }).success).toBe(true);
  });

  it('a cancelled or failed save is reported so a pending close is abandoned', async () => {
    const cancelled = fakeServices({ chooseSaveProject: async () => null });
    expect(await performRequest({ type: 'save-project', text: 'T', handle: null, suggestedName: 'a' }, cancelled.services)).toBeNull();
    expect(cancelled.log).toEqual(['save:cancelled']);
    const failed = fakeServices({ writeFile: async () => { throw new Error('Could not save a.marionette: EACCES'); } });
    await expect(performRequest({ type: 'save-project', text: 'T', handle: null, suggestedName: 'a.marionette' }, failed.services)).rejects.toThrow(/EACCES/);
    expect(failed.log).toEqual(['save:failed']);
  });

  it('File › Export writes rig JSON and MJCF text and glTF bytes, each only under its own extension', async () => {
    const chosen: string[] = [];
    const { services, files } = fakeServices({ chooseExportRig: async (name, format) => { chosen.push(format); return `/e/${name}`; } });
    expect(await performRequest({ type: 'export-rig', text: '{}', suggestedName: 'mine.rig.json' }, services)).toEqual({ path: '/e/mine.rig.json', name: 'mine.rig.json' });
    expect(await performRequest({ type: 'export-rig', text: '<mujoco/>', suggestedName: 'mine.xml', format: 'mjcf' }, services)).toMatchObject({ name: 'mine.xml' });
    expect(await performRequest({ type: 'export-rig', text: '', suggestedName: 'mine.glb', format: 'gltf', bytes: new Uint8Array(12) }, services)).toMatchObject({ name: 'mine.glb' });
    expect(chosen).toEqual(['rig', 'mjcf', 'gltf']);
    expect([files.get('/e/mine.rig.json'), files.get('/e/mine.xml'), files.get('/e/mine.glb')]).toEqual(['{}', '<mujoco/>', '<12 bytes>']);
    await expect(performRequest({ type: 'export-rig', text: 'x', suggestedName: 'mine.json', format: 'mjcf' }, services)).rejects.toThrow('mine.json: an MJCF export is a .xml file.');
    await expect(performRequest({ type: 'export-rig', text: '', suggestedName: 'mine.glb', format: 'gltf' }, services)).rejects.toThrow('a glTF export needs its bytes');
  });

  it('picking a creature reads it and adds it to recent; cancelling returns null', async () => {
    const { services, recent } = fakeServices();
    const picked = await performRequest({ type: 'pick-creature' }, services);
    expect(picked?.path).toBe('/c/mine.glb');
    expect(recent).toEqual([{ kind: 'creature', path: '/c/mine.glb', name: 'mine.glb' }]);
    expect(await performRequest({ type: 'pick-creature' }, fakeServices({ chooseCreature: async () => null }).services)).toBeNull();
  });

  it('the full handler turns a service error into { ok: false, error } with the message intact', async () => {
    const { services } = fakeServices({ readCreature: async () => { throw new Error('/c/gone.glb is not there any more (was it moved or deleted?)'); } });
    const handle = platformRequestHandler(prod, services);
    const granted = services.grants.grant('/c/gone.glb', ['read-creature'])!;
    expect(await handle(appFrame, { type: 'read-creature', handle: granted }))
      .toEqual({ ok: false, error: '/c/gone.glb is not there any more (was it moved or deleted?)' });
  });

  it('a drop opens only after the user confirms it in main (the page proves nothing); cancelled: null, no handle', async () => {
    const asked: string[] = [];
    const declined = fakeServices({ confirmDroppedCreature: async (p) => { asked.push(p); return false; } });
    expect(await performRequest({ type: 'open-dropped-creature', path: '/home/u/models/private.glb' }, declined.services)).toBeNull();
    expect(asked).toEqual(['/home/u/models/private.glb']);
    expect(declined.services.grants.pathAllows('/home/u/models/private.glb', 'read-creature')).toBe(false);
    expect(declined.recent).toEqual([]);
    // Not a creature file, or not an absolute path: refused before anyone is asked.
    await expect(performRequest({ type: 'open-dropped-creature', path: '/home/u/.ssh/id_rsa' }, declined.services)).rejects.toThrow(/^Refused: id_rsa is not a creature file/);
    await expect(performRequest({ type: 'open-dropped-creature', path: 'models/private.glb' }, declined.services)).rejects.toThrow(/^Refused/);
    expect(asked).toHaveLength(1);
    // Confirmed: read with a handle, on the recent list; the same file dropped again is not asked about twice.
    const confirmed = fakeServices({ confirmDroppedCreature: async (p) => { asked.push(p); return true; } });
    const picked = await performRequest({ type: 'open-dropped-creature', path: '/m/robot.glb' }, confirmed.services);
    expect(picked).toMatchObject({ path: '/m/robot.glb', handle: expect.stringMatching(/^[\w-]{24}$/) });
    expect(await performRequest({ type: 'open-dropped-creature', path: '/m/robot.glb' }, confirmed.services)).toMatchObject({ handle: picked!.handle });
    expect(asked).toEqual(['/home/u/models/private.glb', '/m/robot.glb']);
    expect(confirmed.recent).toContainEqual(expect.objectContaining({ kind: 'creature', path: '/m/robot.glb' }));
  });

  it("a project's creature is granted inside its folder; outside it, only if the user opened it before or confirms", async () => {
    const project = (creature: string) => JSON.stringify({ format: 'marionette-project', version: 1, creature: { name: 'x', path: creature } });
    const texts = new Map<string, string>([
      ['/p/inside.marionette', project('models/robot.glb')],
      ['/p/absolute-inside.marionette', project('/p/deep/er/robot.gltf')],
      ['/p/outside.marionette', project('../home/u/private.glb')],
      ['/p/absolute-outside.marionette', project('/home/u/private.fbx')],
      ['/p/prefix.marionette', project('/p2/robot.glb')],
    ]);
    const asked: Array<[string, string]> = [];
    const make = (answer: boolean, overrides: Partial<PlatformServices> = {}) => fakeServices({
      readProject: async (p) => ({ name: p.split('/').pop()!, path: p, text: texts.get(p)! }),
      confirmOutsideCreature: async (p, c) => { asked.push([p, c]); return answer; },
      ...overrides,
    }).services;
    const open = async (services: PlatformServices, file: string) => {
      const handle = services.grants.grant(file, ['read-project'])!;
      return performRequest({ type: 'read-project', handle }, services);
    };
    const no = make(false);
    expect((await open(no, '/p/inside.marionette')).creature?.path).toBe('/p/models/robot.glb');
    expect((await open(no, '/p/absolute-inside.marionette')).creature?.path).toBe('/p/deep/er/robot.gltf');
    expect(asked).toEqual([]);
    // Outside (relative with .., absolute, or a folder whose name merely starts the same): asked, refused.
    await expect(open(no, '/p/outside.marionette')).rejects.toThrow("Refused: outside.marionette names its creature /home/u/private.glb, outside the project's folder (/p); the project was not opened.");
    await expect(open(no, '/p/absolute-outside.marionette')).rejects.toThrow(/absolute-outside\.marionette names its creature \/home\/u\/private\.fbx, outside/);
    await expect(open(no, '/p/prefix.marionette')).rejects.toThrow(/names its creature \/p2\/robot\.glb, outside the project's folder \(\/p\)/);
    expect(asked).toEqual([['/p/outside.marionette', '/home/u/private.glb'], ['/p/absolute-outside.marionette', '/home/u/private.fbx'], ['/p/prefix.marionette', '/p2/robot.glb']]);
    expect(no.grants.pathAllows('/home/u/private.glb', 'read-creature')).toBe(false);
    // The user confirms: granted.
    const yes = make(true);
    expect((await open(yes, '/p/outside.marionette')).creature).toMatchObject({ path: '/home/u/private.glb', handle: expect.any(String) });
    // Opened before (this session, or on the recent list): no question.
    asked.length = 0;
    const session = make(false);
    session.grants.grant('/home/u/private.glb', ['read-creature']);
    expect((await open(session, '/p/outside.marionette')).creature?.path).toBe('/home/u/private.glb');
    const recent = make(false, { recentFiles: async () => [{ kind: 'creature', path: '/home/u/private.fbx', name: 'private.fbx', openedAt: 1 }] });
    expect((await open(recent, '/p/absolute-outside.marionette')).creature?.path).toBe('/home/u/private.fbx');
    expect(asked).toEqual([]);
  });
});
