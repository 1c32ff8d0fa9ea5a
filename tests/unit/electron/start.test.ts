import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('npm start without an Electron binary', () => {
  it('says what is missing, how to get it and how to run the web build, and exits 1 without building', () => {
    // Point electron's binary lookup at an empty folder, so this holds on machines that do have Electron.
    const empty = mkdtempSync(join(tmpdir(), 'marionette-no-electron-'));
    try {
      const result = spawnSync(process.execPath, ['scripts/start.mjs'], {
        cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
      });
      expect(result.signal).toBeNull(); // did not hang into the timeout
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/cannot launch the desktop app: the Electron binary is missing/);
      expect(result.stderr).toContain('node node_modules/electron/install.js');
      expect(result.stderr).toContain('npx electron --version');
      expect(result.stderr).toContain('npm run web');
      expect(result.stdout).not.toContain('building'); // it failed fast, before any build
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
