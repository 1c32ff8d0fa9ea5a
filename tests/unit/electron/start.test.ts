import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Run { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** `node scripts/start.mjs` with electron's binary lookup pointed at an empty folder (so this holds on
 * machines that do have Electron) and @electron/get's cache at another empty one. Asynchronous, so a local
 * mirror served by this process can answer while it runs. */
async function start(env: Record<string, string | undefined>): Promise<Run> {
  const empty = mkdtempSync(join(tmpdir(), 'marionette-no-electron-'));
  const cache = mkdtempSync(join(tmpdir(), 'marionette-electron-cache-'));
  try {
    const childEnv: Record<string, string | undefined> = {
      ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty, electron_config_cache: cache,
      ELECTRON_SKIP_BINARY_DOWNLOAD: undefined, ELECTRON_MIRROR: undefined, npm_config_electron_mirror: undefined, ...env,
    };
    for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
    return await new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: root, env: childEnv as NodeJS.ProcessEnv });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', reject);
      child.on('close', (status, signal) => { clearTimeout(timer); resolve({ status, signal, stdout, stderr }); });
    });
  } finally {
    rmSync(empty, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
}

function expectTodaysMessage(result: Run) {
  expect(result.signal).toBeNull(); // did not hang into the timeout
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/cannot launch the desktop app: the Electron binary is missing/);
  expect(result.stderr).toContain('node node_modules/electron/install.js');
  expect(result.stderr).toContain('npx electron --version');
  expect(result.stderr).toContain('npm run web');
  expect(result.stdout).not.toContain('building'); // it failed fast, before any build
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('npm start without an Electron binary', () => {
  it('with ELECTRON_SKIP_BINARY_DOWNLOAD set: does not download, says what is missing, how to get it and how to run the web build, exits 1 without building', async () => {
    const result = await start({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expectTodaysMessage(result);
    expect(result.stderr).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD is set');
    expect(result.stdout).not.toContain("running Electron's installer");
  }, 70_000);

  it('when the download host cannot be reached: names the host and the reason, does not run the installer, same message', async () => {
    const mirror = `http://127.0.0.1:${await closedPort()}/`;
    const result = await start({ ELECTRON_MIRROR: mirror });
    expectTodaysMessage(result);
    expect(result.stderr).toContain(`${mirror} cannot be reached`);
    expect(result.stderr).toMatch(/ECONNREFUSED/);
    expect(result.stdout).not.toContain("running Electron's installer");
  }, 70_000);

  it("when the host answers: runs Electron's own installer against it, and when that fails says so before today's message", async () => {
    const requests: string[] = [];
    const server = http.createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.statusCode = 404;
      response.end('not here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const mirror = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
      const result = await start({ ELECTRON_MIRROR: mirror });
      expectTodaysMessage(result);
      expect(result.stdout).toContain("running Electron's installer (node node_modules/electron/install.js)");
      expect(result.stderr).toMatch(/Electron's installer failed \(exit 1/);
      // The probe, then the installer's own request for this platform's zip of the installed version.
      const { version } = (await import('electron/package.json', { with: { type: 'json' } })).default as { version: string };
      expect(requests[0]).toBe('HEAD /');
      expect(requests.some((r) => r.startsWith('GET ') && r.includes(`electron-v${version}-${process.platform}-${process.arch}.zip`))).toBe(true);
    } finally {
      server.close();
    }
  }, 70_000);
});
