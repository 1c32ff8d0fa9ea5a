/**
 * Crash recovery. While the document has unsaved changes the renderer hands its text over every few
 * seconds; it is written atomically to userData/autosave/. A clean exit (or a clean save/close) clears it
 * and records the time. At the next start an autosave is offered back only if it is newer than the last
 * clean exit — i.e. the app went away without getting to clear it: a crash, a kill, a power cut.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from './atomicWrite';

const autosaveSchema = z.object({ version: z.literal(1), savedAt: z.number(), text: z.string(), creature: z.string().nullable().optional() });
const sessionSchema = z.object({ version: z.literal(1), cleanExitAt: z.number() });

/** `creaturePath`: the document's creature file, recorded by main only when the window had been granted it
 *  (electron/requests.ts), so the recovered document may read it again. */
export interface RecoveredDocument { text: string; savedAt: number; creaturePath: string | null }

export class AutosaveStore {
  private readonly documentFile: string;
  private readonly sessionFile: string;

  constructor(folder: string, private readonly now: () => number = Date.now) {
    this.documentFile = path.join(folder, 'document.json');
    this.sessionFile = path.join(folder, 'session.json');
  }

  async write(text: string, creaturePath: string | null = null): Promise<void> {
    await fsp.mkdir(path.dirname(this.documentFile), { recursive: true });
    await atomicWriteFile(this.documentFile, JSON.stringify({ version: 1, savedAt: this.now(), text, creature: creaturePath }));
  }

  /** The autosave left by a session that did not end cleanly, or null. */
  async read(): Promise<RecoveredDocument | null> {
    const saved = await readJson(this.documentFile, autosaveSchema);
    if (saved === null) return null;
    const session = await readJson(this.sessionFile, sessionSchema);
    if (session !== null && session.cleanExitAt >= saved.savedAt) return null;
    return { text: saved.text, savedAt: saved.savedAt, creaturePath: saved.creature ?? null };
  }

  async clear(): Promise<void> {
    await fsp.rm(this.documentFile, { force: true });
  }

  /** Called when the app quits normally: nothing to recover from this session. */
  async markCleanExit(): Promise<void> {
    await this.clear();
    await fsp.mkdir(path.dirname(this.sessionFile), { recursive: true });
    await atomicWriteFile(this.sessionFile, JSON.stringify({ version: 1, cleanExitAt: this.now() }));
  }
}

async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T | null> {
  try {
    const parsed = schema.safeParse(JSON.parse(await fsp.readFile(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
