import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isInsideFolder, readCreatureFile, readProjectFile, resolveGltfResource, withExtension } from '../../../electron/files';

let root: string;
let creatures: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'marionette-files-'));
  creatures = path.join(root, 'creatures');
  fs.mkdirSync(path.join(creatures, 'textures'), { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function writeGltf(name: string, buffers: string[], images: string[] = []): string {
  const file = path.join(creatures, name);
  fs.writeFileSync(file, JSON.stringify({
    asset: { version: '2.0' },
    buffers: buffers.map((uri, i) => ({ uri, byteLength: i + 1 })),
    images: images.map((uri) => ({ uri })),
  }));
  return file;
}

/** A minimal GLB: header + JSON chunk (+ BIN chunk) — enough for the resource scan. */
function glb(json: object): Uint8Array {
  let text = JSON.stringify(json);
  while (text.length % 4 !== 0) text += ' ';
  const jsonBytes = Buffer.from(text, 'utf8');
  const out = Buffer.alloc(12 + 8 + jsonBytes.length);
  out.writeUInt32LE(0x46546c67, 0);
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(out.length, 8);
  out.writeUInt32LE(jsonBytes.length, 12);
  out.writeUInt32LE(0x4e4f534a, 16);
  jsonBytes.copy(out, 20);
  return new Uint8Array(out);
}

describe('readCreatureFile', () => {
  it('reads a .gltf with its external buffer and image, keyed by the URI as written', async () => {
    fs.writeFileSync(path.join(creatures, 'mine body.bin'), Buffer.from([1, 2, 3, 4]));
    fs.writeFileSync(path.join(creatures, 'textures', 'rust.png'), Buffer.from([9, 8]));
    const file = writeGltf('mine.gltf', ['mine%20body.bin', 'data:application/octet-stream;base64,AAAA'], ['textures/rust.png']);
    const picked = await readCreatureFile(file);
    expect(picked.name).toBe('mine.gltf');
    expect(picked.path).toBe(file);
    expect(Object.keys(picked.resources).sort()).toEqual(['mine%20body.bin', 'textures/rust.png']);
    expect([...picked.resources['mine%20body.bin']!]).toEqual([1, 2, 3, 4]);
    expect([...picked.resources['textures/rust.png']!]).toEqual([9, 8]);
  });

  it('reads an .fbx with the images beside it that the file names (base name only), not the others', async () => {
    fs.writeFileSync(path.join(creatures, 'Skin_Diffuse.png'), Buffer.from([7, 7, 7]));
    fs.writeFileSync(path.join(creatures, 'unrelated.png'), Buffer.from([1]));
    const file = path.join(creatures, 'crab.fbx');
    fs.writeFileSync(file, '; FBX 7.4.0 project file\nTexture: 1, "Texture::skin", "" { RelativeFilename: "C:\\\\art\\\\skin_diffuse.PNG" }\n');
    const picked = await readCreatureFile(file);
    expect(Object.keys(picked.resources)).toEqual(['Skin_Diffuse.png']);
    expect([...picked.resources['Skin_Diffuse.png']!]).toEqual([7, 7, 7]);
  });

  it('an .fbx brings along only images in its own folder: no path in the file is followed, no link out, no non-image', async () => {
    fs.writeFileSync(path.join(root, 'outside.png'), 'SECRET image');
    fs.writeFileSync(path.join(creatures, 'textures', 'deep.png'), 'in a subfolder');
    fs.writeFileSync(path.join(creatures, 'skin.png'), Buffer.from([5]));
    fs.writeFileSync(path.join(creatures, 'notes.txt'), 'SECRET notes');
    fs.symlinkSync(path.join(root, 'outside.png'), path.join(creatures, 'linked.png'));
    fs.symlinkSync(path.join(creatures, 'skin.png'), path.join(creatures, 'alias.png')); // a link that stays inside
    const file = path.join(creatures, 'crab.fbx');
    const named = ['../outside.png', path.join(root, 'outside.png'), 'textures/deep.png', 'skin.png', 'notes.txt', 'linked.png', 'alias.png'];
    fs.writeFileSync(file, `Kaydara FBX Binary  \0${named.map((n) => `\u0008RelativeFilename\u0000${n}`).join('')}`);
    const picked = await readCreatureFile(file);
    expect(Object.keys(picked.resources).sort()).toEqual(['alias.png', 'skin.png']);
    expect(Object.values(picked.resources).some((d) => Buffer.from(d).toString().includes('SECRET'))).toBe(false);
  });

  it('a .gltf names only .bin buffers and images: other buffer extensions are refused', async () => {
    fs.writeFileSync(path.join(creatures, 'mine.glbin'), Buffer.from([1]));
    await expect(readCreatureFile(writeGltf('mine.gltf', ['mine.glbin']))).rejects.toThrow('mine.gltf: resource "mine.glbin" is not a buffer or image file (.bin .png .jpg .jpeg .webp .ktx2 .gif .bmp)');
  });

  it('isInsideFolder: by name and by real location; the folder itself, prefixes and links out are outside', async () => {
    fs.writeFileSync(path.join(creatures, 'robot.glb'), 'x');
    fs.writeFileSync(path.join(root, 'private.glb'), 'x');
    fs.symlinkSync(path.join(root, 'private.glb'), path.join(creatures, 'link.glb'));
    fs.mkdirSync(path.join(root, 'creatures-2'));
    expect(await isInsideFolder(path.join(creatures, 'robot.glb'), creatures)).toBe(true);
    expect(await isInsideFolder(path.join(creatures, 'textures', 'later.glb'), creatures)).toBe(true); // not there yet: by name
    expect(await isInsideFolder(path.join(creatures, '..', 'private.glb'), creatures)).toBe(false);
    expect(await isInsideFolder(path.join(root, 'creatures-2', 'robot.glb'), creatures)).toBe(false);
    expect(await isInsideFolder(creatures, creatures)).toBe(false);
    expect(await isInsideFolder(path.join(creatures, 'link.glb'), creatures)).toBe(false);
  });

  it('reads a self-contained .glb with no resources', async () => {
    const file = path.join(creatures, 'mine.glb');
    const bytes = glb({ asset: { version: '2.0' }, buffers: [{ byteLength: 4 }] });
    fs.writeFileSync(file, bytes);
    const picked = await readCreatureFile(file);
    expect(picked.bytes.byteLength).toBe(bytes.byteLength);
    expect(picked.resources).toEqual({});
  });

  it('refuses a ..-escape and names the file and the URI', async () => {
    fs.writeFileSync(path.join(root, 'secret.bin'), 'secret');
    const file = writeGltf('evil.gltf', ['../secret.bin']);
    await expect(readCreatureFile(file)).rejects.toThrow(/evil\.gltf: resource "\.\.\/secret\.bin" points outside the creature's folder/);
  });

  it('refuses an encoded ..-escape (%2e%2e%2f)', async () => {
    fs.writeFileSync(path.join(root, 'secret.bin'), 'secret');
    const file = writeGltf('evil.gltf', ['%2e%2e%2fsecret.bin']);
    await expect(readCreatureFile(file)).rejects.toThrow(/points outside the creature's folder/);
  });

  it('refuses absolute paths and file: URIs outside the folder, accepts them inside', async () => {
    fs.writeFileSync(path.join(root, 'secret.bin'), 'secret');
    fs.writeFileSync(path.join(creatures, 'ok.bin'), 'ok');
    await expect(readCreatureFile(writeGltf('a.gltf', [path.join(root, 'secret.bin')]))).rejects.toThrow(/outside the creature's folder/);
    await expect(readCreatureFile(writeGltf('b.gltf', [pathToFileURL(path.join(root, 'secret.bin')).href]))).rejects.toThrow(/outside the creature's folder/);
    const inside = await readCreatureFile(writeGltf('c.gltf', [pathToFileURL(path.join(creatures, 'ok.bin')).href]));
    expect(Buffer.from(Object.values(inside.resources)[0]!).toString()).toBe('ok');
  });

  it('refuses a symlink that leads out of the folder', async () => {
    if (process.platform === 'win32') return;
    fs.writeFileSync(path.join(root, 'secret.bin'), 'secret');
    fs.symlinkSync(path.join(root, 'secret.bin'), path.join(creatures, 'link.bin'));
    await expect(readCreatureFile(writeGltf('d.gltf', ['link.bin']))).rejects.toThrow(/is a link to .*outside the creature's folder/);
  });

  it('refuses remote URIs without fetching', async () => {
    await expect(readCreatureFile(writeGltf('e.gltf', ['https://example.com/x.bin']))).rejects.toThrow(/e\.gltf: resource "https:\/\/example\.com\/x\.bin" is a https: URI/);
  });

  it('names a missing resource and where it looked', async () => {
    const file = writeGltf('f.gltf', ['gone.bin']);
    await expect(readCreatureFile(file)).rejects.toThrow(`f.gltf: resource "gone.bin" is missing (looked for ${path.join(creatures, 'gone.bin')})`);
  });

  it('names a missing creature, a wrong extension and a malformed glTF', async () => {
    await expect(readCreatureFile(path.join(creatures, 'nope.glb'))).rejects.toThrow(/nope\.glb is not there any more/);
    fs.writeFileSync(path.join(creatures, 'notes.txt'), 'hi');
    await expect(readCreatureFile(path.join(creatures, 'notes.txt'))).rejects.toThrow(/notes\.txt: not a creature file Marionette opens/);
    fs.writeFileSync(path.join(creatures, 'broken.gltf'), '{ "asset": ');
    await expect(readCreatureFile(path.join(creatures, 'broken.gltf'))).rejects.toThrow(/broken\.gltf: not a glTF file \(its JSON does not parse/);
    const truncated = glb({ asset: { version: '2.0' } }).slice(0, 30);
    fs.writeFileSync(path.join(creatures, 'cut.glb'), truncated);
    await expect(readCreatureFile(path.join(creatures, 'cut.glb'))).rejects.toThrow(/cut\.glb: truncated GLB/);
  });

  it('resolveGltfResource returns the real path of a resource in a subfolder', async () => {
    fs.writeFileSync(path.join(creatures, 'textures', 't.png'), 'png');
    const gltf = path.join(creatures, 'x.gltf');
    expect(await resolveGltfResource(gltf, 'textures/./t.png')).toBe(fs.realpathSync(path.join(creatures, 'textures', 't.png')));
    await expect(resolveGltfResource(gltf, 'textures/../../x.bin')).rejects.toThrow(/outside/);
  });
});

describe('readProjectFile', () => {
  it('reads UTF-8 text (dropping a BOM) and refuses non-project extensions and non-UTF-8', async () => {
    const file = path.join(root, 'mine.marionette');
    fs.writeFileSync(file, '\ufeff{"format":"marionette-project"} — ünïcode');
    const read = await readProjectFile(file);
    expect(read).toEqual({ name: 'mine.marionette', path: file, text: '{"format":"marionette-project"} — ünïcode' });
    fs.writeFileSync(path.join(root, 'x.exe'), 'MZ');
    await expect(readProjectFile(path.join(root, 'x.exe'))).rejects.toThrow(/x\.exe: not a Marionette project/);
    fs.writeFileSync(path.join(root, 'bad.json'), Buffer.from([0xff, 0xfe, 0x00, 0xd8]));
    await expect(readProjectFile(path.join(root, 'bad.json'))).rejects.toThrow(/bad\.json: not UTF-8 text/);
  });

  it('reads a .json only when the policy allows it (chosen in a dialog, recent, examples)', async () => {
    const file = path.join(root, 'rig.json');
    fs.writeFileSync(file, '{"rig":1}');
    const asked: string[] = [];
    await expect(readProjectFile(file, (p) => { asked.push(p); return false; })).rejects.toThrow('rig.json: rig JSON files open through File ▸ Open Project… (or the Examples menu).');
    expect(asked).toEqual([file]);
    expect((await readProjectFile(file, async () => true)).text).toBe('{"rig":1}');
    const project = path.join(root, 'p.marionette');
    fs.writeFileSync(project, '{}');
    expect((await readProjectFile(project, () => false)).text).toBe('{}'); // projects need no permission
  });

  it('withExtension appends only when missing (case-insensitive)', () => {
    expect(withExtension('/a/robot', 'marionette')).toBe('/a/robot.marionette');
    expect(withExtension('/a/robot.MARIONETTE', 'marionette')).toBe('/a/robot.MARIONETTE');
  });
});
