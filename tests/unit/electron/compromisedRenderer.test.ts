/**
 * A compromised renderer against the real main process (bundled as shipped, fake Electron, real files in a
 * temporary home folder). The page's script calls every IPC request with crafted paths, forged and
 * misused handles and hostile creatures; every attempt is refused or ends in a (cancelled) dialog, no file
 * in the home folder changes, and no secret byte comes back. There is no route to a file by its path or its
 * bytes: a "drop" the page claims is only opened when the user confirms it in main's dialog, and a project
 * the user opens may name a creature only inside its own folder (otherwise main asks, and refuses on Cancel).
 * Hostile creatures the user opens bring along only .bin and image files beside them (glTF buffers and
 * images, FBX textures). Then the same requests made the honest way — through what the user chose — work.
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
  for (const dir of ['.ssh', 'models', 'projects/creature', 'hostile']) fs.mkdirSync(path.join(home, dir), { recursive: true });
  fs.writeFileSync(path.join(home, '.bashrc'), 'export PATH=/usr/bin\n');
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), `${SECRET} ssh key\n`);
  fs.writeFileSync(path.join(home, 'secrets.json'), JSON.stringify({ token: SECRET }));
  fs.writeFileSync(path.join(home, 'notes.marionette'), JSON.stringify({ format: 'marionette-project', note: SECRET }));
  fs.copyFileSync(path.resolve('assets/creatures/armed-mine.glb'), path.join(home, 'models', 'victim.glb'));
  // A secret disguised with a creature extension: readable only once the user opens it.
  fs.writeFileSync(path.join(home, 'models', 'private.glb'), `${SECRET} private model`);
  fs.copyFileSync(path.resolve('assets/creatures/armed-mine.glb'), path.join(home, 'projects', 'creature', 'victim.glb'));
  const project = (creature: string): string => JSON.stringify({ format: 'marionette-project', version: 1, creature: { name: path.basename(creature), path: creature } });
  // A project whose creature sits in a subfolder of its own: granted with it.
  fs.writeFileSync(path.join(home, 'projects', 'legit.marionette'), project('creature/victim.glb'));
  fs.writeFileSync(path.join(home, 'projects', 'pointing.marionette'), project('../.ssh/id_rsa'));
  // Projects naming a creature-extension file outside their folder: by '..', by absolute path, by a link.
  fs.writeFileSync(path.join(home, 'projects', 'outside.marionette'), project('../models/private.glb'));
  fs.writeFileSync(path.join(home, 'projects', 'absolute.marionette'), project(path.join(home, 'models', 'private.glb')));
  fs.symlinkSync(path.join(home, 'models', 'private.glb'), path.join(home, 'projects', 'link.glb'));
  fs.writeFileSync(path.join(home, 'projects', 'linked.marionette'), project('link.glb'));
  fs.writeFileSync(path.join(home, 'projects', 'trusted.marionette'), project('../models/victim.glb'));
  // Hostile creatures the user might be tricked into opening: resources that lead to the secrets.
  fs.writeFileSync(path.join(home, 'hostile', 'key.txt'), `${SECRET} beside the creature`);
  fs.writeFileSync(path.join(home, 'hostile', 'sibling.gltf'), gltf('key.txt'));
  fs.writeFileSync(path.join(home, 'secret.bin'), `${SECRET} in a .bin`);
  fs.writeFileSync(path.join(home, 'hostile', 'up.gltf'), gltf('../secret.bin'));
  fs.writeFileSync(path.join(home, 'hostile', 'absolute.gltf'), gltf(`file://${path.join(home, 'secret.bin')}`));
  fs.symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(home, 'hostile', 'link.bin'));
  fs.writeFileSync(path.join(home, 'hostile', 'linked.gltf'), gltf('link.bin'));
  // A hostile FBX naming textures: beside it (read), up a folder, by absolute path, a link out, not an image.
  fs.writeFileSync(path.join(home, 'secret.png'), `${SECRET} image outside`);
  fs.writeFileSync(path.join(home, 'hostile', 'skin.png'), 'PNG beside the fbx');
  fs.symlinkSync(path.join(home, 'secret.png'), path.join(home, 'hostile', 'evil.png'));
  fs.symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(home, 'hostile', 'key.png'));
  fs.writeFileSync(path.join(home, 'hostile', 'model.fbx'), `Kaydara FBX Binary  \0 RelativeFilename ../secret.png FileName ${path.join(home, 'secret.png')} skin.png evil.png key.png key.txt`);
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
      // The old bytes-based drop (the page "proves" it holds the file by its digest): gone.
      { type: 'read-dropped-creature', path: path.join(home, 'models', 'victim.glb'), sha256: createHash('sha256').update(fs.readFileSync(path.join(home, 'models', 'victim.glb'))).digest('hex') },
      { type: 'open-dropped-creature', path: path.join(home, 'models', 'victim.glb'), sha256: '0'.repeat(64) },
      // Drops: not a creature, a traversal to one, a relative path, a folder.
      { type: 'open-dropped-creature', path: path.join(home, '.ssh', 'id_rsa') },
      { type: 'open-dropped-creature', path: `${home}/models/../.ssh/id_rsa` },
      { type: 'open-dropped-creature', path: 'models/private.glb' },
      { type: 'open-dropped-creature', path: path.join(home, 'models') },
    ];
    for (const payload of attacks) {
      const result = await main.request(payload);
      expect(result.ok, JSON.stringify(payload)).toBe(false);
      expect(result.error, JSON.stringify(payload)).toMatch(/Refused|Rejected platform request/);
      expect(leaked(result)).toBe(false);
    }
    expect(main.messages).toEqual([]); // none of them even reached the user
    // Requests that open a dialog: the user cancels, nothing is written, nothing comes back.
    for (const payload of [
      { type: 'save-project', text: 'rm -rf ~', handle: null, suggestedName: '.bashrc' },
      { type: 'export-rig', text: 'rm -rf ~', suggestedName: '.bashrc' },
      { type: 'pick-creature', missingPath: path.join(home, '.ssh', 'id_rsa') },
      { type: 'pick-project' },
      // A "drop" of a creature-extension file the user never dropped: main asks, naming it; the user cancels.
      { type: 'open-dropped-creature', path: path.join(home, 'models', 'private.glb') },
      { type: 'open-dropped-creature', path: path.join(home, 'hostile', 'sibling.gltf') },
    ]) expect(await main.request(payload), JSON.stringify(payload)).toEqual({ ok: true, value: null });
    expect(main.messages.map((m) => m.message)).toEqual(['Open the dropped creature private.glb?', 'Open the dropped creature sibling.gltf?']);
    expect(main.messages[0]!.detail).toContain(path.join(home, 'models', 'private.glb'));
    // The cancelled drops granted nothing: asked again, refused again, never read.
    expect(await main.request({ type: 'open-dropped-creature', path: path.join(home, 'models', 'private.glb') })).toEqual({ ok: true, value: null });
    expect(main.messages).toHaveLength(3);
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

  it('a project the user opens may name a creature only inside its folder; otherwise main asks, and Cancel refuses it', async () => {
    const before = snapshot(home);
    const projects = path.join(home, 'projects');
    const privateGlb = path.join(home, 'models', 'private.glb');
    main.messages.length = 0;
    for (const [file, named] of [
      ['outside.marionette', privateGlb], // ../models/private.glb
      ['absolute.marionette', privateGlb],
      ['linked.marionette', path.join(projects, 'link.glb')], // inside by name, a link out of the folder
    ] as const) {
      main.openAnswers.push(path.join(projects, file));
      const result = await main.request({ type: 'pick-project' });
      expect(result.ok, file).toBe(false);
      expect(result.error, file).toBe(`Refused: ${file} names its creature ${named}, outside the project's folder (${projects}); the project was not opened. Move the creature into the project's folder, or open it first with File ▸ Open Creature….`);
      expect(leaked(result)).toBe(false);
      // The user was asked, with the project and the creature named.
      expect(main.messages.at(-1)!.message).toBe(`${file} uses a creature outside its folder. Open it?`);
      expect(main.messages.at(-1)!.detail).toContain(`Creature: ${named}`);
    }
    expect(main.messages).toHaveLength(3);
    // A project naming a file that is no creature grants nothing and asks nothing.
    main.openAnswers.push(path.join(projects, 'pointing.marionette'));
    expect(await main.request({ type: 'pick-project' })).toMatchObject({ ok: true, value: { creature: null } });
    expect(main.messages).toHaveLength(3);
    // When the user says yes, the creature outside is granted and reads.
    main.openAnswers.push(path.join(projects, 'trusted.marionette'));
    main.messageAnswers.push(0);
    const trusted = await main.request({ type: 'pick-project' });
    expect(trusted).toMatchObject({ ok: true, value: { creature: { path: path.join(home, 'models', 'victim.glb') } } });
    const creature = (trusted.value as { creature: { handle: string } }).creature;
    expect(await main.request({ type: 'read-creature', handle: creature.handle })).toMatchObject({ ok: true, value: { name: 'victim.glb' } });
    expect(main.messages).toHaveLength(4);
    expect(snapshot(home)).toEqual(before);
  });

  it('handles the user granted cannot be turned to other uses', async () => {
    const before = snapshot(home);
    // The user opens a project: its handle reads and saves it, its creature's handle reads the creature.
    main.openAnswers.push(path.join(home, 'projects', 'legit.marionette'));
    const asked = main.messages.length;
    const opened = (await main.request({ type: 'pick-project' })).value as { handle: string; creature: { path: string; handle: string } };
    expect(opened.creature.path).toBe(path.join(home, 'projects', 'creature', 'victim.glb'));
    expect(main.messages).toHaveLength(asked); // inside the project's folder: no question
    const after = snapshot(home);

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
    // A hostile FBX naming textures up a folder, by absolute path, through a link out and a non-image: only
    // the image beside it comes along.
    main.openAnswers.push(path.join(home, 'hostile', 'model.fbx'));
    const fbx = await main.request({ type: 'pick-creature' });
    expect(fbx.ok).toBe(true);
    expect(Object.keys((fbx.value as { resources: Record<string, Uint8Array> }).resources)).toEqual(['skin.png']);
    expect(leaked(fbx.value)).toBe(false);
    // Recent and pick requests added entries to userData only; the home folder is as it was, minus nothing.
    expect(snapshot(home)).toEqual(after);
    expect(after).toEqual(before);
  });

  it('the honest paths still work: the opened project saves in place, its creature and a confirmed drop read', async () => {
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
    // A dropped file: the user confirms the drop in main's dialog; the same file dropped again is not asked about.
    const dropped = path.join(home, 'models', 'dropped.glb');
    fs.copyFileSync(path.join(home, 'models', 'victim.glb'), dropped);
    const asked = main.messages.length;
    main.messageAnswers.push(0);
    expect(await main.request({ type: 'open-dropped-creature', path: dropped })).toMatchObject({ ok: true, value: { name: 'dropped.glb', handle: expect.any(String) } });
    expect(await main.request({ type: 'open-dropped-creature', path: dropped })).toMatchObject({ ok: true, value: { name: 'dropped.glb' } });
    expect(main.messages.slice(asked).map((m) => m.message)).toEqual(['Open the dropped creature dropped.glb?']);
    // Save As to a name the user typed without the extension: .marionette is added, the file is written.
    main.saveAnswers.push(path.join(home, 'projects', 'copy'));
    expect(await main.request({ type: 'save-project', text: '{}', handle: null, suggestedName: 'copy' })).toMatchObject({ ok: true, value: { path: path.join(home, 'projects', 'copy.marionette') } });
  });
});
