/**
 * The recent-files list: a JSON file in userData, newest first, one entry per path (reopening moves it
 * to the top), at most MAX_RECENT. Files that no longer exist are dropped when the list is read, so the
 * Open Recent menu never offers a dead entry. A corrupt list file is treated as empty and rewritten.
 */
import * as fsp from 'node:fs/promises';
import { z } from 'zod';
import type { RecentEntry } from '../shared/platform';
import { atomicWriteFile } from './atomicWrite';

export const MAX_RECENT = 10;

const listSchema = z.object({
  version: z.literal(1),
  entries: z.array(z.object({ kind: z.enum(['project', 'creature']), path: z.string().min(1), name: z.string(), openedAt: z.number() })),
});

async function fileExists(file: string): Promise<boolean> {
  try {
    return (await fsp.stat(file)).isFile();
  } catch {
    return false;
  }
}

export class RecentFiles {
  /** Serialise read-modify-write cycles: two quick addRecent calls must not lose one. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly listFile: string,
    private readonly exists: (file: string) => Promise<boolean> = fileExists,
    private readonly now: () => number = Date.now,
  ) {}

  private async load(): Promise<RecentEntry[]> {
    let text: string;
    try {
      text = await fsp.readFile(this.listFile, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed = listSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.entries : [];
    } catch {
      return [];
    }
  }

  private async store(entries: RecentEntry[]): Promise<void> {
    await atomicWriteFile(this.listFile, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The entries whose files still exist, newest first; the pruned list is written back. */
  list(): Promise<RecentEntry[]> {
    return this.serial(async () => {
      const entries = await this.load();
      const present: RecentEntry[] = [];
      for (const entry of entries) if (await this.exists(entry.path)) present.push(entry);
      if (present.length !== entries.length) await this.store(present);
      return present;
    });
  }

  add(entry: Omit<RecentEntry, 'openedAt'>): Promise<RecentEntry[]> {
    return this.serial(async () => {
      const others = (await this.load()).filter((e) => !samePath(e.path, entry.path));
      const entries = [{ ...entry, openedAt: this.now() }, ...others].slice(0, MAX_RECENT);
      await this.store(entries);
      return entries;
    });
  }

  clear(): Promise<void> {
    return this.serial(() => this.store([]));
  }
}

/** Windows and macOS file systems are case-insensitive by default: "A.glb" and "a.glb" are one file. */
function samePath(a: string, b: string): boolean {
  return process.platform === 'linux' ? a === b : a.toLowerCase() === b.toLowerCase();
}
