/** Run the CLI in-process (fast, per file) or as the real `bin/marionette.mjs` process (batch). */
import { spawnSync } from 'node:child_process';
import { main } from '../../../cli/main';
import type { CliIO } from '../../../cli/io';
import { repo } from '../rig/corpus';

export async function runInProcess(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = '';
  const io: CliIO = { out: (t) => { out += t; }, err: (t) => { err += t; }, interactive: false, cwd: repo };
  const code = await main(argv, io);
  return { code, out, err };
}

export function runProcess(argv: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [`${repo}bin/marionette.mjs`, ...argv], { cwd: repo, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}
