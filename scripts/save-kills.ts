/**
 * Kill saves mid-write, many times, and count what is left: the check behind "a killed save leaves no torn
 * file and no temp file after the next start" (docs/security.md § Saves).
 *
 * A child process (electron/atomicWrite.ts, bundled as main bundles it) saves one project file over and over,
 * alternating two contents of BYTES bytes ('A'… and 'B'…); it is SIGKILLed at a random moment (seeded), and
 * the file is checked: it must be whole — exactly BYTES bytes, all 'A' or all 'B'. The temp files each kill
 * leaves are counted (the next saver's first save sweeps them, as the next save of a file does in the app).
 * After the last kill the real main process starts (the bundled electron/main.ts against a fake Electron,
 * tests/unit/electron/fakeMain.ts) with the project on its recent list, and the temp files still beside the
 * project are counted once its start sweep has run.
 *
 *   npx tsx scripts/save-kills.ts [--kills 200] [--mib 16] [--seed 20261126] [--max-delay-ms 400] [--parallel 2]
 *
 * Prints the figures and exits 1 on any torn file or any temp file left after the start.
 * tests/unit/electron/interruptedSaves.test.ts runs the same function with 200 kills of smaller saves.
 */
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface SaveKillOptions {
  kills: number;
  /** Size of each save. */
  bytes: number;
  /** Work folder (created; left for the caller to remove). */
  folder: string;
  seed?: number;
  /** Each kill lands 5 ms … maxDelayMs after the saver reports it is running. */
  maxDelayMs?: number;
  /** Savers killed at the same time, each on its own project file (all on the recent list). */
  parallel?: number;
  /** Run main's start sweep (the real bundle) at the end; false: only count. */
  startMain?: boolean;
  progress?: (done: number) => void;
}

export interface SaveKillReport {
  kills: number;
  bytes: number;
  /** Checks of a project file after a kill that found it not whole (wrong length or mixed bytes). */
  torn: number;
  tornDetails: string[];
  /** Kills after which at least one temp file was left (the kill landed mid-save). */
  killsLeavingTemp: number;
  /** Most temp files seen at once beside the projects. */
  maxTemps: number;
  /** Temp files beside the projects after the last kill, before the next start. */
  tempsBeforeStart: number;
  /** … and after main's start sweep (must be 0). */
  tempsAfterStart: number;
  /** Saves the savers completed in all (each prints a line per finished save). */
  completedSaves: number;
  wallMs: number;
}

const temps = (folder: string): string[] => fs.readdirSync(folder).filter((n) => n.endsWith('.tmp'));

function whole(file: string, bytes: number): string | null {
  const data = fs.readFileSync(file);
  if (data.length !== bytes) return `${path.basename(file)}: ${data.length} bytes, expected ${bytes}`;
  const first = data[0]!;
  if (first !== 0x41 && first !== 0x42) return `${path.basename(file)}: starts with byte ${first}`;
  const other = data.findIndex((b) => b !== first);
  return other < 0 ? null : `${path.basename(file)}: mixed contents ('${String.fromCharCode(first)}' then byte ${data[other]} at ${other})`;
}

async function buildSaver(folder: string): Promise<string> {
  const source = path.join(folder, 'saver.ts');
  const outfile = path.join(folder, 'saver.cjs');
  fs.writeFileSync(source, `
    import { atomicWriteFile } from ${JSON.stringify(path.join(root, 'electron', 'atomicWrite.ts'))};
    const target = process.argv[2]!;
    const size = Number(process.argv[3]);
    const contents = [Buffer.alloc(size, 'A'), Buffer.alloc(size, 'B')];
    (async () => {
      process.stdout.write('ready\\n');
      for (let i = 0; ; i++) {
        await atomicWriteFile(target, contents[i % 2]!);
        process.stdout.write('s');
      }
    })();
  `);
  await build({ entryPoints: [source], bundle: true, platform: 'node', format: 'cjs', outfile, logLevel: 'silent' });
  return outfile;
}

/** Start a saver on `target`, SIGKILL it `delayMs` after it is running; resolves with the saves it finished. */
function killDuring(saver: string, target: string, bytes: number, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [saver, target, String(bytes)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let saves = -1;
    proc.stdout.on('data', (chunk: Buffer) => {
      if (saves < 0) {
        saves = 0;
        setTimeout(() => proc.kill('SIGKILL'), delayMs);
      }
      saves += chunk.toString('latin1').split('s').length - 1;
    });
    proc.once('exit', () => resolve(Math.max(saves, 0)));
    proc.once('error', reject);
  });
}

export async function runSaveKills(options: SaveKillOptions): Promise<SaveKillReport> {
  const { kills, bytes, folder } = options;
  const parallel = Math.max(1, options.parallel ?? 1);
  const maxDelayMs = options.maxDelayMs ?? 150;
  let seed = options.seed ?? 12345;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const projects = path.join(folder, 'projects');
  fs.mkdirSync(projects, { recursive: true });
  const saver = await buildSaver(folder);
  const targets = Array.from({ length: parallel }, (_, i) => path.join(projects, `robot-${i}.marionette`));
  for (const target of targets) fs.writeFileSync(target, Buffer.alloc(bytes, 'A'));

  const started = performance.now();
  const report: SaveKillReport = { kills, bytes, torn: 0, tornDetails: [], killsLeavingTemp: 0, maxTemps: 0, tempsBeforeStart: 0, tempsAfterStart: 0, completedSaves: 0, wallMs: 0 };
  let done = 0;
  while (done < kills) {
    const batch = targets.slice(0, Math.min(parallel, kills - done));
    const before = new Set(temps(projects));
    const saves = await Promise.all(batch.map((target) => killDuring(saver, target, bytes, 5 + Math.floor(random() * maxDelayMs))));
    report.completedSaves += saves.reduce((a, b) => a + b, 0);
    for (const target of batch) {
      const problem = whole(target, bytes);
      if (problem !== null) {
        report.torn++;
        if (report.tornDetails.length < 10) report.tornDetails.push(`kill ${done + 1}: ${problem}`);
      }
    }
    const now = temps(projects);
    report.maxTemps = Math.max(report.maxTemps, now.length);
    // A kill that left its own temp: one this batch's savers wrote (names carry the process id).
    const fresh = now.filter((n) => !before.has(n)).length;
    report.killsLeavingTemp += Math.min(fresh, batch.length);
    done += batch.length;
    options.progress?.(done);
  }
  report.tempsBeforeStart = temps(projects).length;

  if (options.startMain ?? true) {
    // The next start: the real main bundle with these projects on its recent list.
    const userData = path.join(folder, 'userData');
    fs.mkdirSync(userData, { recursive: true });
    fs.writeFileSync(path.join(userData, 'recent-files.json'), JSON.stringify({
      version: 1,
      entries: targets.map((target, i) => ({ kind: 'project', path: target, name: path.basename(target), openedAt: i + 1 })),
    }));
    const { loadMain } = await import('../tests/unit/electron/fakeMain');
    await loadMain(folder, [], userData);
    // The sweep runs beside the window's start-up: wait for it (at most 10 s).
    for (let waited = 0; temps(projects).length > 0 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  report.tempsAfterStart = temps(projects).length;
  report.wallMs = performance.now() - started;
  return report;
}

export function describeReport(r: SaveKillReport): string {
  return [
    `save-kills: ${r.kills} kills during ${(r.bytes / 1048576).toFixed(r.bytes % 1048576 === 0 ? 0 : 2)} MiB saves in ${(r.wallMs / 1000).toFixed(1)} s`,
    `  torn files: ${r.torn}${r.tornDetails.length > 0 ? ` (${r.tornDetails.join('; ')})` : ''}`,
    `  kills that landed mid-save (left a temp file): ${r.killsLeavingTemp}; saves completed between kills: ${r.completedSaves}`,
    `  temp files: at most ${r.maxTemps} at once; ${r.tempsBeforeStart} after the last kill; ${r.tempsAfterStart} after the next start`,
  ].join('\n');
}

async function main(): Promise<void> {
  const arg = (name: string, fallback: number): number => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'marionette-save-kills-'));
  try {
    const kills = arg('kills', 200);
    const report = await runSaveKills({
      kills,
      bytes: Math.round(arg('mib', 16) * 1048576),
      folder,
      seed: arg('seed', 20261126),
      maxDelayMs: arg('max-delay-ms', 400),
      parallel: arg('parallel', 2),
      progress: (done) => { if (done % 20 === 0 || done === kills) process.stderr.write(`  ${done}/${kills}\n`); },
    });
    console.log(describeReport(report));
    process.exitCode = report.torn === 0 && report.tempsAfterStart === 0 ? 0 : 1;
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main().then(() => process.exit());
}
