/**
 * Atomic file replacement: the file at `target` is either the old bytes or the new bytes, never a mix,
 * even if the process dies or the disk fills mid-write. Write a temp file in the SAME folder (rename is
 * only atomic within one file system), fsync it (so the rename cannot reach the disk before the data),
 * rename over the target, then fsync the folder so the rename itself is durable. On any failure the temp
 * file is removed and the old file is untouched.
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

export async function atomicWriteFile(target: string, data: string | Uint8Array, ops: AtomicWriteOps = nodeOps): Promise<void> {
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
    throw new Error(`Could not save ${path.basename(target)}: ${(error as Error).message}`, { cause: error });
  }
  await syncFolder(path.dirname(target));
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
