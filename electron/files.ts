/**
 * Reading what the user opens: creatures with the files they refer to, and project text. Plain Node,
 * no Electron, so it is tested on real temporary folders.
 *
 * A creature's sibling files — a .gltf's buffers and images, an .fbx's textures — are read only when the
 * creature itself is read (through a handle the user gave: electron/capabilities.ts), only if the creature
 * names them, only if they are buffer (.bin) or image files, and only from the creature's own folder (after
 * `..` and symlinks are resolved): a crafted file cannot make us read `../../.ssh/id_rsa` or `/etc/passwd`
 * and hand it to the renderer.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PickedFile } from '../shared/platform';
import type { TextFile } from '../shared/ipc';
import { creatureFormatOf, decodeResourceUri, isGltfFormat, listGltfResources, uriScheme } from '../shared/project';

/** Creature files are meshes, not arbitrary data: refuse anything past 512 MiB before reading it. */
export const MAX_CREATURE_BYTES = 512 * 1024 * 1024;
/** Projects and rig JSON are text of kilobytes; 64 MiB is far past any real one. */
export const MAX_PROJECT_BYTES = 64 * 1024 * 1024;

export const PROJECT_EXTENSIONS: readonly string[] = ['.marionette', '.json'];

function describeFsError(error: unknown, file: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${file} is not there any more (was it moved or deleted?)`;
  if (code === 'EACCES' || code === 'EPERM') return `${file} cannot be read (permission denied)`;
  if (code === 'EISDIR') return `${file} is a folder, not a file`;
  return `${file} cannot be read: ${(error as Error).message}`;
}

async function readBounded(file: string, limit: number, label: string): Promise<Uint8Array> {
  let size: number;
  try {
    const stat = await fsp.stat(file);
    if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    size = stat.size;
  } catch (error) {
    throw new Error(describeFsError(error, file), { cause: error });
  }
  if (size > limit) throw new Error(`${label}: ${(size / 1048576).toFixed(1)} MiB is larger than the ${limit / 1048576} MiB Marionette reads.`);
  try {
    return new Uint8Array(await fsp.readFile(file));
  } catch (error) {
    throw new Error(describeFsError(error, file), { cause: error });
  }
}

/** What a glTF may name as an external resource: binary buffers (.bin) and the image formats glTF and its
 *  common extensions use. Anything else (a key, a config, a shell script) is refused before it is read. */
export const GLTF_RESOURCE_EXTENSIONS: readonly string[] = ['.bin', '.png', '.jpg', '.jpeg', '.webp', '.ktx2', '.gif', '.bmp'];
/** The textures an .fbx may bring along: images only (TGA is common in FBX exports). */
export const FBX_TEXTURE_EXTENSIONS: readonly string[] = ['.png', '.jpg', '.jpeg', '.tga', '.bmp', '.gif', '.webp'];

/** Whether `file` lies in `folder` or below it, by name (after `..` is resolved). */
function insideByName(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * Whether `file` lies inside `folder` (or a subfolder), by name AND by real location: a symbolic link
 * inside the folder that leads out of it is outside. A file that does not exist is judged by name (reading
 * it fails anyway).
 */
export async function isInsideFolder(file: string, folder: string): Promise<boolean> {
  const absolute = path.resolve(file);
  const root = path.resolve(folder);
  if (!insideByName(absolute, root)) return false;
  let real: string;
  try {
    real = await fsp.realpath(absolute);
  } catch {
    return true;
  }
  try {
    return insideByName(real, await fsp.realpath(root));
  } catch {
    return false;
  }
}

/**
 * The absolute file a resource URI of `gltfPath` names, or an Error explaining why it is refused:
 * remote schemes, and anything (after `..` and symlinks) outside the .gltf's folder.
 */
export async function resolveGltfResource(gltfPath: string, uri: string): Promise<string> {
  const name = path.basename(gltfPath);
  const folder = path.dirname(path.resolve(gltfPath));
  const scheme = uriScheme(uri);
  let candidate: string;
  if (scheme === 'file') {
    try {
      candidate = fileURLToPath(uri);
    } catch {
      throw new Error(`${name}: resource "${uri}" is not a valid file: URI.`);
    }
  } else if (scheme !== null && !/^[A-Za-z]:[\\/]/.test(uri)) {
    throw new Error(`${name}: resource "${uri}" is a ${scheme}: URI; Marionette loads only files beside the creature (no network).`);
  } else {
    candidate = path.resolve(folder, decodeResourceUri(uri, name));
  }
  const inside = insideByName;
  const extension = path.extname(candidate).toLowerCase();
  if (!GLTF_RESOURCE_EXTENSIONS.includes(extension)) {
    throw new Error(`${name}: resource "${uri}" is not a buffer or image file (${GLTF_RESOURCE_EXTENSIONS.join(' ')}); Marionette reads nothing else beside a creature.`);
  }
  if (!inside(candidate, folder)) {
    throw new Error(`${name}: resource "${uri}" points outside the creature's folder (${folder}); glTF resources must sit beside the file or below it.`);
  }
  // A symlink inside the folder may still lead out of it; compare the real locations too.
  let real: string;
  try {
    real = await fsp.realpath(candidate);
  } catch (error) {
    throw new Error(`${name}: resource "${uri}" is missing (looked for ${candidate}).`, { cause: error });
  }
  const realFolder = await fsp.realpath(folder);
  if (!inside(real, realFolder)) throw new Error(`${name}: resource "${uri}" is a link to ${real}, outside the creature's folder.`);
  if (!GLTF_RESOURCE_EXTENSIONS.includes(path.extname(real).toLowerCase())) {
    throw new Error(`${name}: resource "${uri}" is a link to ${path.basename(real)}, not a buffer or image file.`);
  }
  return real;
}

/**
 * Read a creature and its sibling files: for glTF every external buffer and image it refers to, for FBX the
 * images beside it that it names. Call it only for a file the user gave (a handle main issued).
 */
export async function readCreatureFile(file: string): Promise<PickedFile> {
  const absolute = path.resolve(file);
  const name = path.basename(absolute);
  const format = creatureFormatOf(name);
  if (format === null) throw new Error(`${name}: not a creature file Marionette opens (.glb, .gltf, .fbx or MuJoCo .xml).`);
  const bytes = await readBounded(absolute, MAX_CREATURE_BYTES, name);
  const resources: Record<string, Uint8Array> = {};
  if (isGltfFormat(format)) {
    let total = bytes.byteLength;
    for (const ref of listGltfResources(bytes, name)) {
      if (ref.uri in resources) continue;
      const resourcePath = await resolveGltfResource(absolute, ref.uri);
      const data = await readBounded(resourcePath, MAX_CREATURE_BYTES, `${name}: ${ref.kind} ${ref.index} "${ref.uri}"`);
      total += data.byteLength;
      if (total > MAX_CREATURE_BYTES) throw new Error(`${name}: the creature and its resources exceed ${MAX_CREATURE_BYTES / 1048576} MiB.`);
      resources[ref.uri] = data;
    }
  } else if (format === 'fbx') {
    Object.assign(resources, await fbxTextures(absolute, bytes));
  }
  return { name, path: absolute, bytes, resources };
}

/**
 * The images beside an .fbx that the file names. FBX stores texture paths as strings, often absolute paths
 * from the artist's machine, so only base names are matched, and only against the files in the creature's
 * own folder: a path in the file (`../x.png`, `/home/u/x.png`) is never followed. The same rule as glTF
 * resources then applies to each match — an image extension, a regular file, and (after symlinks) still in
 * the folder — so an image-named link beside the .fbx that leads out of the folder is not read. Missing,
 * refused or oversized ones are left out: the loader draws those materials untextured and says so.
 */
export async function fbxTextures(absolute: string, bytes: Uint8Array): Promise<Record<string, Uint8Array>> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1').toLowerCase();
  const folder = path.dirname(absolute);
  const out: Record<string, Uint8Array> = {};
  let total = bytes.byteLength;
  let entries: string[];
  let realFolder: string;
  try {
    entries = await fsp.readdir(folder);
    realFolder = await fsp.realpath(folder);
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!FBX_TEXTURE_EXTENSIONS.includes(path.extname(entry).toLowerCase()) || !text.includes(entry.toLowerCase())) continue;
    try {
      const real = await fsp.realpath(path.join(folder, entry));
      if (!insideByName(real, realFolder) || !FBX_TEXTURE_EXTENSIONS.includes(path.extname(real).toLowerCase())) continue;
      const data = await readBounded(real, MAX_CREATURE_BYTES, entry);
      if (total + data.byteLength > MAX_CREATURE_BYTES) continue;
      total += data.byteLength;
      out[entry] = data;
    } catch {
      // unreadable: the loader reports the texture as missing
    }
  }
  return out;
}

/**
 * Read a project (or rig JSON) as UTF-8 text. `.marionette` files are always readable; a `.json` only when
 * `allowJson` says the user chose it (dialog, recent list, examples) — otherwise a compromised page could
 * ask for any JSON on the disk (tokens, configs) by path.
 */
export async function readProjectFile(file: string, allowJson: (absolutePath: string) => boolean | Promise<boolean> = () => true): Promise<TextFile> {
  const absolute = path.resolve(file);
  const name = path.basename(absolute);
  const extension = path.extname(name).toLowerCase();
  if (!PROJECT_EXTENSIONS.includes(extension)) {
    throw new Error(`${name}: not a Marionette project (.marionette) or rig (.json) file.`);
  }
  if (extension === '.json' && !(await allowJson(absolute))) {
    throw new Error(`${name}: rig JSON files open through File ▸ Open Project… (or the Examples menu).`);
  }
  const bytes = await readBounded(absolute, MAX_PROJECT_BYTES, name);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${name}: not UTF-8 text; a project file is JSON.`);
  }
  return { name, path: absolute, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}

/** `name` with `extension` appended unless it already ends with it (save dialogs on Linux do not add it). */
export function withExtension(file: string, extension: string): string {
  return file.toLowerCase().endsWith(`.${extension.toLowerCase()}`) ? file : `${file}.${extension}`;
}
