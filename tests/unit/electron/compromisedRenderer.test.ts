/**
 * A compromised renderer against the real main process (bundled as shipped, fake Electron, real files in a
 * temporary home folder). The page's script calls every IPC request with crafted paths, forged and
 * misused handles and hostile creatures; every attempt is refused or ends in a (cancelled) dialog, no file
 * in the home folder changes, and no secret byte comes back. Then the same requests made the honest way —
 * through what the user chose — still work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { loadMain, type FakeMain } from './fakeMain';

const SECRET = 'TOP-SECRET-MARKER';
let tmp: string;
let home: string;
let main: FakeMain;

function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isSymbolicLink()) out.set(full, `link:${fs.readlinkSync(full)}`);
      else out.set(full, createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
    }
  };
  walk(root);
  return out;
}

/** Every string and byte array in a response, as text, to look for the secret in. */
function leaked(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(SECRET);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1').includes(SECRET);
  if (Array.isArray(value)) return value.some(leaked);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(leaked);
  return false;
}

const gltf = (uri: string): string => JSON.stringify({ asset: { version: '2.0' }, buffers: [{ uri, byteLength: 17 }] });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'marionette-attack-'));
  home = path.join(tmp, 'home');
  for (const dir of ['.ssh', 'models', 'projects', 'hostile']) fs.mkdirSync(path.join(home, dir), { recursive: true });
  fs.writeFileSync(path.join(home, '.bashrc'), 'export PATH=/usr/bin\n');
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), `${SECRET} ssh key\n`);
  fs.writeFileSync(path.join(home, 'secrets.json'), JSON.stringify({ token: SECRET }));
  fs.writeFileSync(path.join(home, 'notes.marionette'), JSON.stringify({ format: 'marionette-project', note: SECRET }));
  fs.copyFileSync(path.resolve('assets/creatures/armed-mine.glb'), path.join(home, 'models', 'victim.glb'));
  // A secret disguised with a creature extension: readable only once the user opens it.
  fs.writeFileSync(path.join(home, 'models', 'private.glb'), `${SECRET} private model`);
  fs.writeFileSync(path.join(home, 'projects', 'legit.marionette'), JSON.stringify({ format: 'marionette-project', version: 1, creature: { name: 'victim.glb', path: '../models/victim.glb' } }));
  fs.writeFileSync(path.join(home, 'projects', 'pointing.marionette'), JSON.stringify({ format: 'marionette-project', version: 1, creature: { name: 'id_rsa', path: '../.ssh/id_rsa' } }));
  // Hostile creatures the user might be tricked into opening: resources that lead to the secrets.
  fs.writeFileSync(path.join(home, 'hostile', 'key.txt'), `${SECRET} beside the creature`);
  fs.writeFileSync(path.join(home, 'hostile', 'sibling.gltf'), gltf('key.txt'));
  fs.writeFileSync(path.join(home, 'secret.bin'), `${SECRET} in a .bin`);
  fs.writeFileSync(path.join(home, 'hostile', 'up.gltf'), gltf('../secret.bin'));
  fs.writeFileSync(path.join(home, 'hostile', 'absolute.gltf'), gltf(`file://${path.join(home, 'secret.bin')}`));
  fs.symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(home, 'hostile', 'link.bin'));
  fs.writeFileSync(path.join(home, 'hostile', 'linked.gltf'), gltf('link.bin'));
  main = await loadMain(tmp);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const forged = 'A'.repeat(24);

describe('a compromised renderer cannot reach the disk', () => {
  it('every request with crafted paths or forged handles is refused; nothing is written or read', async () => {
    const before = snapshot(home);
    const bashrc = path.join(home, '.bashrc');
    const attacks: unknown[] = [
      // The old path-based requests.
      { type: 'save-project', text: 'rm -rf ~', path: bashrc, suggestedName: 'x' },
      { type: 'read-creature', path: path.join(home, 'models', 'victim.glb') },
      { type: 'read-project', path: path.join(home, 'secrets.json') },
      { type: 'add-recent', entry: { kind: 'project', path: path.join(home, 'secrets.json'), name: 'secrets.json' } },
      // Paths where handles go.
      { type: 'save-project', text: 'rm -rf ~', handle: bashrc, suggestedName: 'x' },
      { type: 'read-creature', handle: path.join(home, 'models', 'private.glb') },
      { type: 'read-project', handle: path.join(home, 'notes.marionette') },
      { type: 'add-recent', handle: path.join(home, 'secrets.json') },
      // Handles of the right form that main never issued.
      { type: 'save-project', text: 'rm -rf ~', handle: forged, suggestedName: 'x' },
      { type: 'read-creature', handle: forged },
      { type: 'read-project', handle: forged },
      { type: 'add-recent', handle: forged },
      // Drops: not a creature, a traversal, a relative path, a folder, a creature with the wrong digest.
      { type: 'read-dropped-creature', path: path.join(home, '.ssh', 'id_rsa'), sha256: '0'.repeat(64) },
      { type: 'read-dropped-creature', path: `${home}/models/../.ssh/id_rsa`, sha256: '0'.repeat(64) },
      { type: 'read-dropped-creature', path: 'models/private.glb', sha256: '0'.repeat(64) },
      { type: 'read-dropped-creature', path: path.join(home, 'models'), sha256: '0'.repeat(64) },
      { type: 'read-dropped-creature', path: path.join(home, 'models', 'private.glb'), sha256: '0'.repeat(64) },
      { type: 'read-dropped-creature', path: path.join(home, 'hostile', 'sibling.gltf'), sha256: 'f'.repeat(64) },
    ];
    for (const payload of attacks) {
      const result = await main.request(payload);
      expect(result.ok, JSON.stringify(payload)).toBe(false);
      expect(result.error, JSON.stringify(payload)).toMatch(/Refused|Rejected platform request/);
      expect(leaked(result)).toBe(false);
    }
    // Requests that open a dialog: the user cancels, nothing is written, nothing comes back.
    for (const payload of [
      { type: 'save-project', text: 'rm -rf ~', handle: null, suggestedName: '.bashrc' },
      { type: 'export-rig', text: 'rm -rf ~', suggestedName: '.bashrc' },
      { type: 'pick-creature', missingPath: path.join(home, '.ssh', 'id_rsa') },
      { type: 'pick-project' },
    ]) expect(await main.request(payload)).toEqual({ ok: true, value: null });
    // An autosave naming a creature the window was never given does not grant it after a "crash".
    expect((await main.request({ type: 'write-autosave', text: JSON.stringify({ creature: { path: path.join(home, 'models', 'private.glb') } }) })).ok).toBe(true);
    expect(await main.request({ type: 'read-autosave' })).toMatchObject({ ok: true, value: { creature: null } });
    // A file the OS hands over that is no creature or project gets no handle.
    main.openFile(path.join(home, '.ssh', 'id_rsa'));
    const handed = main.sent.at(-1) as { entry: { handle?: string } };
    expect(handed.entry.handle).toBeUndefined();
    expect((await main.request({ type: 'recent-files' })).value).toEqual([]);
    expect(snapshot(home)).toEqual(before);
  });

  it('handles the user granted cannot be turned to other uses', async () => {
    const before = snapshot(home);
    // The user opens a project: its handle reads and saves it, its creature's handle reads the creature.
    main.openAnswers.push(path.join(home, 'projects', 'legit.marionette'));
    const opened = (await main.request({ type: 'pick-project' })).value as { handle: string; creature: { path: string; handle: string } };
    expect(opened.creature.path).toBe(path.join(home, 'models', 'victim.glb'));
    const after = snapshot(home);
    // A project that names a secret as its creature grants nothing.
    main.openAnswers.push(path.join(home, 'projects', 'pointing.marionette'));
    expect(await main.request({ type: 'pick-project' })).toMatchObject({ ok: true, value: { creature: null } });

    for (const payload of [
      { type: 'save-project', text: 'x', handle: opened.creature.handle, suggestedName: 'x' }, // a creature is not a project
      { type: 'read-creature', handle: opened.handle }, // a project is not a creature
      { type: 'read-project', handle: opened.creature.handle },
      { type: 'read-creature', handle: opened.creature.handle.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) }, // a near miss
    ]) {
      const result = await main.request(payload);
      expect(result.ok, JSON.stringify(payload)).toBe(false);
      expect(result.error).toMatch(/^Refused/);
    }
    // The user opens hostile creatures: each is refused with the reason, no secret comes back.
    for (const [file, reason] of [
      ['sibling.gltf', /resource "key\.txt" is not a buffer or image file/],
      ['up.gltf', /points outside the creature's folder/],
      ['absolute.gltf', /points outside the creature's folder/],
      ['linked.gltf', /is a link to .*outside the creature's folder/],
    ] as const) {
      main.openAnswers.push(path.join(home, 'hostile', file));
      const result = await main.request({ type: 'pick-creature' });
      expect(result.ok, file).toBe(false);
      expect(result.error, file).toMatch(reason);
      expect(leaked(result)).toBe(false);
    }
    // Recent and pick requests added entries to userData only; the home folder is as it was, minus nothing.
    expect(snapshot(home)).toEqual(after);
    expect(after).toEqual(before);
  });

  it('the honest paths still work: the opened project saves in place, its creature and a real drop read', async () => {
    const legit = path.join(home, 'projects', 'legit.marionette');
    const recent = (await main.request({ type: 'recent-files' })).value as Array<{ path: string; handle: string }>;
    const entry = recent.find((e) => e.path === legit)!;
    expect(entry.handle).toMatch(/^[\w-]{24}$/);
    const read = (await main.request({ type: 'read-project', handle: entry.handle })).value as { text: string; creature: { handle: string } };
    expect(read.text).toContain('victim.glb');
    const creature = await main.request({ type: 'read-creature', handle: read.creature.handle });
    expect(creature).toMatchObject({ ok: true, value: { name: 'victim.glb' } });
    const saved = await main.request({ type: 'save-project', text: '{"saved":1}', handle: entry.handle, suggestedName: 'legit' });
    expect(saved).toMatchObject({ ok: true, value: { path: legit } });
    expect(fs.readFileSync(legit, 'utf8')).toBe('{"saved":1}');
    // A dropped file: the page proves it holds the bytes.
    const dropped = path.join(home, 'models', 'victim.glb');
    const sha256 = createHash('sha256').update(fs.readFileSync(dropped)).digest('hex');
    expect(await main.request({ type: 'read-dropped-creature', path: dropped, sha256 })).toMatchObject({ ok: true, value: { name: 'victim.glb', handle: expect.any(String) } });
    // Save As to a name the user typed without the extension: .marionette is added, the file is written.
    main.saveAnswers.push(path.join(home, 'projects', 'copy'));
    expect(await main.request({ type: 'save-project', text: '{}', handle: null, suggestedName: 'copy' })).toMatchObject({ ok: true, value: { path: path.join(home, 'projects', 'copy.marionette') } });
  });
});
