/**
 * File capabilities: the renderer never names a file to main by path. Main hands out an opaque, random
 * handle for each file the USER gave the app — a file picked in an open or save dialog, a recent-list entry,
 * a file on the command line or from the OS ("Open with"), a dropped file the user confirmed in main's
 * dialog, an example, the creature of a project the user opened when it lies in the project's folder (or
 * the user confirmed it: electron/requests.ts) — and the renderer can only ask main to read or write through
 * such a handle. A compromised page can invent paths and guess handles all day: neither reaches the disk.
 *
 * Each handle carries rights, and the rights follow the file's extension:
 *   read-creature  .glb .gltf .fbx .xml (and the .bin and image files beside a glTF or FBX that it names:
 *                  electron/files.ts)
 *   read-project   .marionette .json
 *   write-project  .marionette only — a project chosen in Save or opened by the user. A .json opened as a
 *                  project is read-only: Save on it asks where to save (a rig JSON is not overwritten with
 *                  a project).
 * Handles are 144 random bits (base64url), live for the process and are never derived from the path.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { creatureFormatOf } from '../shared/project';

export type FileRight = 'read-creature' | 'read-project' | 'write-project';

/** The form of every handle main issues: 24 base64url characters. */
export const HANDLE_PATTERN = /^[A-Za-z0-9_-]{24}$/;

const PROJECT_READ = /\.(marionette|json)$/i;
const PROJECT_WRITE = /\.marionette$/i;

/** Whether `right` makes sense for a file of this name (the extension check). */
export function rightFitsFile(right: FileRight, file: string): boolean {
  const name = path.basename(file);
  if (right === 'read-creature') return creatureFormatOf(name) !== null;
  if (right === 'read-project') return PROJECT_READ.test(name);
  return PROJECT_WRITE.test(name);
}

/** The rights a user-chosen file gets from its extension (an opened project is also saved back). */
export function rightsFor(file: string, options: { writable?: boolean } = {}): FileRight[] {
  const all: FileRight[] = ['read-creature', 'read-project', ...(options.writable === false ? [] : ['write-project' as const])];
  return all.filter((right) => rightFitsFile(right, file));
}

interface Grant { path: string; rights: Set<FileRight> }

export class FileGrants {
  private readonly byHandle = new Map<string, Grant>();
  private readonly byPath = new Map<string, string>();

  constructor(private readonly newHandle: () => string = () => randomBytes(18).toString('base64url')) {}

  /**
   * Grant `rights` on the absolute `file` (rights that do not fit its extension are dropped) and return its
   * handle, the same one for every grant on one path. null when no right fits (nothing is granted).
   */
  grant(file: string, rights: readonly FileRight[]): string | null {
    const absolute = path.resolve(file);
    const fitting = rights.filter((right) => rightFitsFile(right, absolute));
    if (fitting.length === 0) return null;
    let handle = this.byPath.get(absolute);
    if (handle === undefined) {
      do handle = this.newHandle(); while (this.byHandle.has(handle));
      this.byPath.set(absolute, handle);
      this.byHandle.set(handle, { path: absolute, rights: new Set() });
    }
    const grant = this.byHandle.get(handle)!;
    for (const right of fitting) grant.rights.add(right);
    return handle;
  }

  /** The path behind `handle` if it carries `right`; otherwise an Error saying why (never the path). */
  resolve(handle: string, right: FileRight): string {
    const grant = this.byHandle.get(handle);
    if (grant === undefined) {
      throw new Error(`Refused: ${describeHandle(handle)} is not a file this window was given (files are opened through File ▸ Open…, Open Recent, Examples or a drop).`);
    }
    if (!grant.rights.has(right)) {
      throw new Error(`Refused: ${path.basename(grant.path)} was not opened for ${RIGHT_TEXT[right]}.`);
    }
    return grant.path;
  }

  /** Whether `handle` exists and carries `right`. */
  allows(handle: string, right: FileRight): boolean {
    return this.byHandle.get(handle)?.rights.has(right) ?? false;
  }

  /** Whether the absolute `file` has been granted `right` (through any handle). */
  pathAllows(file: string, right: FileRight): boolean {
    const handle = this.byPath.get(path.resolve(file));
    return handle !== undefined && this.allows(handle, right);
  }
}

const RIGHT_TEXT: Record<FileRight, string> = {
  'read-creature': 'reading as a creature',
  'read-project': 'reading as a project',
  'write-project': 'saving a project over it',
};

function describeHandle(handle: string): string {
  return HANDLE_PATTERN.test(handle) ? 'this file handle' : `"${String(handle).slice(0, 40)}"`;
}
