import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// semver ships with electron-builder and npm's own tree (no types of its own); only satisfies() is used.
const require = createRequire(import.meta.url);
const semver = require('semver') as { satisfies(version: string, range: string): boolean };

const root = fileURLToPath(new URL('../../../', import.meta.url));
interface Locked { version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean; optional?: boolean }
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts: Record<string, boolean>; scripts: Record<string, string> };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> };
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
const locked = Object.entries(lock.packages).filter(([key]) => key !== '').map(([key, entry]) => ({ key, name: nameOf(key), ...entry }));

/** Node releases x.y.0 for majors 18–26 and minors 0–30, plus the patch levels the ranges name. */
const NODE_VERSIONS = [
  ...Array.from({ length: 9 }, (_, i) => 18 + i).flatMap((major) => Array.from({ length: 31 }, (_, minor) => `${major}.${minor}.0`)),
  '20.20.2', '22.12.1', '22.13.1',
];

// electron-builder 26.17's native-dependency step: @electron/rebuild 4.2 and node-abi 4.40 declare Node ≥ 22.12,
// which package.json's engines do not require — that step was run on Node 20.20 and works (DEVELOPERS.md,
// "Packaging"), and `npm run package` says so before it starts (scripts/package-preflight.mjs).
const PACKAGING_TOOLCHAIN = ['@electron/rebuild', 'node-abi'];

describe('package.json allowScripts (npm 11.16+ advises, npm 12 blocks unlisted install scripts)', () => {
  it('allows electron (its postinstall downloads the binary npm start needs) and esbuild, and denies electron-winstaller', () => {
    expect(pkg.allowScripts).toMatchObject({ electron: true, esbuild: true, 'electron-winstaller': false });
    // Any other entry is a reviewed decision, true or false (the next test ties the list to the lockfile).
    for (const [name, allowed] of Object.entries(pkg.allowScripts)) expect(typeof allowed, name).toBe('boolean');
  });

  it('uses bare names: npm drops entries with semver ranges (^, ~, >=) with only a warning', () => {
    for (const key of Object.keys(pkg.allowScripts)) expect(key, key).toMatch(/^(@[a-z0-9-._]+\/)?[a-z0-9-._]+$/);
  });

  it('covers every locked package with an install script, and lists no package without one', () => {
    const withScripts = [...new Set(locked.filter((entry) => entry.hasInstallScript).map((entry) => entry.name))].sort();
    expect(withScripts.length).toBeGreaterThan(0);
    expect(Object.keys(pkg.allowScripts).sort()).toEqual(withScripts);
  });

  it("electron's postinstall exits 0 at once without network when ELECTRON_SKIP_BINARY_DOWNLOAD is set (CI installs that way)", () => {
    const installer = join(root, 'node_modules/electron/install.js');
    expect(readFileSync(installer, 'utf8')).toMatch(/if \(process\.env\.ELECTRON_SKIP_BINARY_DOWNLOAD\) \{\s*process\.exit\(0\);/);
    const empty = mkdtempSync(join(tmpdir(), 'marionette-electron-skip-'));
    try {
      // A mirror that cannot answer and an empty binary folder: only the skip can make this exit 0 quickly.
      const result = spawnSync(process.execPath, [installer], {
        cwd: join(root, 'node_modules/electron'), encoding: 'utf8', timeout: 30_000,
        env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ELECTRON_MIRROR: 'http://127.0.0.1:9/', ELECTRON_OVERRIDE_DIST_PATH: empty, electron_config_cache: empty },
      });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(0);
      expect(existsSync(join(empty, 'electron'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('package.json engines', () => {
  it('accepts the Node the project is developed and tested on (20.20) and refuses Node 20.0 and 18', () => {
    expect(semver.satisfies('20.20.2', pkg.engines.node)).toBe(true);
    expect(semver.satisfies('20.0.0', pkg.engines.node)).toBe(false);
    expect(semver.satisfies('18.20.0', pkg.engines.node)).toBe(false);
  });

  it("is within every installed package's declared Node range, except the packaging toolchain named above", () => {
    const ours = NODE_VERSIONS.filter((version) => semver.satisfies(version, pkg.engines.node));
    expect(ours.length).toBeGreaterThan(50);
    const narrower = new Map<string, string>();
    for (const entry of locked) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!range || (entry.optional && !existsSync(join(root, entry.key)))) continue; // other platforms' binaries
      const refused = ours.filter((version) => !semver.satisfies(version, range));
      if (refused.length > 0) narrower.set(entry.name, `${range} refuses ${refused.slice(0, 3).join(', ')}`);
    }
    expect([...narrower.keys()].sort(), JSON.stringify(Object.fromEntries(narrower), null, 1)).toEqual(PACKAGING_TOOLCHAIN);
  });

  it('npm run package starts with the preflight, which passes here and names the toolchain it checked', () => {
    expect(pkg.scripts.package).toMatch(/^node scripts\/package-preflight\.mjs && /);
    const result = spawnSync(process.execPath, ['scripts/package-preflight.mjs'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    expect(result.status, result.stderr).toBe(0);
    if (semver.satisfies(process.versions.node, '>=22.12.0')) {
      expect(result.stdout).toContain(`Node ${process.versions.node} satisfies electron-builder's toolchain`);
    } else {
      expect(result.stderr).toMatch(/note: Node .* is older than electron-builder's toolchain declares: @electron\/rebuild [\d.]+ wants node >=22\.12\.0, node-abi [\d.]+ wants node >=22\.12\.0/);
      expect(result.stderr).toContain('use Node ≥ 22.12.0');
    }
  });
});
