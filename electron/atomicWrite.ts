/**
 * Atomic file replacement: the file at `target` is either the old bytes or the new bytes, never a mix,
 * even if the process dies or the disk fills mid-write. Write a temp file in the SAME folder (rename is
 * only atomic within one file system), fsync it (so the rename cannot reach the disk before the data),
 * rename over the target, then fsync the folder so the rename itself is durable. On any failure the temp
 * file is removed and the old file is untouched.
 *
 * A process killed mid-save cannot remove its temp file. Such leftovers (`.NAME.PID.HEX.tmp`) are swept
 * when the same file is saved next (removeStaleTemps) and, at start, beside every file on the recent list
 * and in the autosave folder (electron/main.ts): a temp whose process is gone, or that is over an hour old,
 * is stale; one of a live process (another Marionette saving the same file right now) is left alone.
 *
 * Saving through a symbolic link writes the file it points to (the temp sits beside the real file, so the
 * rename stays on one file system): the link stays a link and its target gets the new bytes.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** The file-system calls atomicWriteFile makes; tests swap one out to inject a failure. */
export interface AtomicWriteOps {
  open: typeof fsp.open;
  rename: typeof fsp.rename;
  unlink: typeof fsp.unlink;
  stat: typeof fsp.stat;
}

const nodeOps: AtomicWriteOps = { open: fsp.open, rename: fsp.rename, unlink: fsp.unlink, stat: fsp.stat };

export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** The temp files of saves of `name` (as tempPathFor names them), with the process id that wrote each. */
function tempsOf(entries: readonly string[], name: string | null): Array<{ entry: string; pid: number }> {
  const out: Array<{ entry: string; pid: number }> = [];
  for (const entry of entries) {
    const match = /^\.(.+)\.(\d{1,10})\.[0-9a-f]{8}\.tmp$/.exec(entry);
    if (match && (name === null || match[1] === name)) out.push({ entry, pid: Number(match[2]) });
  }
  return out;
}

/** Whether process `pid` is running (EPERM: it is, under another user). */
function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A temp file older than this is stale even if its process id is alive again (ids are reused). */
export const STALE_TEMP_AGE_MS = 60 * 60 * 1000;

/**
 * Remove the temp files an interrupted save left in `folder` — of `name` only, or of any file when name is
 * null. Returns how many were removed. Never throws (a folder that cannot be listed has nothing to sweep).
 */
export async function removeStaleTemps(folder: string, name: string | null = null, alive: (pid: number) => boolean = processAlive, now: number = Date.now()): Promise<number> {
  let entries: string[];
  try {
    entries = await fsp.readdir(folder);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const { entry, pid } of tempsOf(entries, name)) {
    const file = path.join(folder, entry);
    try {
      const stat = await fsp.lstat(file);
      if (!stat.isFile()) continue;
      if (alive(pid) && now - stat.mtimeMs < STALE_TEMP_AGE_MS) continue;
      await fsp.unlink(file);
      removed++;
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/** Where a save to `target` must go: the file a symbolic link points to (followed to the end; a dangling
 *  link's target is created), otherwise `target` itself. */
async function resolveSaveTarget(target: string): Promise<string> {
  let current = path.resolve(target);
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      if (!(await fsp.lstat(current)).isSymbolicLink()) return current;
      link = await fsp.readlink(current);
    } catch {
      return current; // not there yet: a new file
    }
    current = path.resolve(path.dirname(current), link);
  }
  throw new Error(`Could not save ${path.basename(target)}: too many levels of symbolic links.`);
}

export async function atomicWriteFile(requested: string, data: string | Uint8Array, ops: AtomicWriteOps = nodeOps): Promise<void> {
  const target = await resolveSaveTarget(requested);
  const temp = tempPathFor(target);
  // Keep the permissions of the file being replaced (a 0600 project stays 0600).
  let mode = 0o666;
  try {
    mode = (await ops.stat(target)).mode & 0o777;
  } catch {
    // no old file: default mode (the umask applies)
  }
  try {
    const handle = await ops.open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await ops.rename(temp, target);
  } catch (error) {
    await ops.unlink(temp).catch(() => undefined);
    throw new Error(`Could not save ${path.basename(requested)}: ${(error as Error).message}`, { cause: error });
  }
  await syncFolder(path.dirname(target));
  // The save went through: what earlier, interrupted saves of this file left behind can go.
  await removeStaleTemps(path.dirname(target), path.basename(target));
}

async function syncFolder(folder: string): Promise<void> {
  // Windows cannot open a directory for fsync; there the rename's durability is NTFS's business.
  if (process.platform === 'win32') return;
  try {
    const handle = await fsp.open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems (network mounts) refuse directory fsync; the file itself is already complete.
  }
}
