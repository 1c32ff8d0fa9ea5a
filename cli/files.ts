/** Reading rig files with size limits and messages that name the file. */
import { readFileSync, statSync } from 'node:fs';
import { DEFAULT_MAX_BYTES } from '../shared/rig';

export type ReadResult = { ok: true; text: string } | { ok: false; message: string };

/** Reads a text file; refuses one larger than maxBytes without reading it (a 50 MB file costs nothing). */
export function readTextFile(path: string, maxBytes = DEFAULT_MAX_BYTES): ReadResult {
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return { ok: false, message: 'is a directory, not a rig file' };
    size = st.size;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, message: code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? (e as Error).message})` };
  }
  if (size > maxBytes) {
    return { ok: false, message: `is ${(size / 2 ** 20).toFixed(1)} MB; rigs are limited to ${(maxBytes / 2 ** 20).toFixed(1)} MB (a 100-bone rig is about 0.2 MB), so it was not read (raise the limit with --max-size MB)` };
  }
  try {
    return { ok: true, text: readFileSync(path, 'utf8') };
  } catch (e) {
    return { ok: false, message: `cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
}
