import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { Ajv } from 'ajv';

// js-yaml ships with electron-builder (no types of its own); only load() is used.
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

const root = new URL('../../../', import.meta.url);
const config = yaml.load(readFileSync(new URL('electron-builder.yml', root), 'utf8')) as Record<string, unknown>;
const schema = JSON.parse(readFileSync(new URL('node_modules/app-builder-lib/scheme.json', root), 'utf8')) as object;

function validator() {
  // strict: false — the schema uses keywords (e.g. "deprecated") that ajv does not know; they carry no rules.
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(schema);
}

describe('electron-builder.yml', () => {
  it("validates against electron-builder's own JSON schema", () => {
    const validate = validator();
    const ok = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema check is not vacuous: a misspelt key and a wrong type are rejected', () => {
    const validate = validator();
    expect(validate({ ...config, appid: 'x' })).toBe(false);
    expect(validate({ ...config, fileAssociations: [{ ext: 5 }] })).toBe(false);
  });

  it('targets Linux AppImage + deb, Windows nsis, macOS dmg, with app id, icon and .marionette association', () => {
    expect(config.appId).toBe('dev.marionette.editor');
    expect(config.productName).toBe('Marionette');
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
    expect((config.linux as { category: string; maintainer: string }).category).toBe('Graphics');
    expect((config.linux as { maintainer: string }).maintainer).toMatch(/<.+@.+>/);
    expect((config.win as { target: string[] }).target).toEqual(['nsis']);
    expect((config.mac as { target: string[] }).target).toEqual(['dmg']);
    expect(config.fileAssociations).toEqual([expect.objectContaining({ ext: 'marionette', role: 'Editor', name: 'Marionette Project', description: expect.any(String) })]);
    const files = config.files as string[];
    for (const needed of ['out/**', 'dist-web/**', 'assets/creatures/**', 'assets/examples/**']) expect(files).toContain(needed);
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { main: string };
    expect(pkg.main.startsWith('out/')).toBe(true); // the packaged entry point is inside the shipped files
  });

  it('flips the Electron fuses: no run-as-node, NODE_OPTIONS or --inspect; asar only, integrity-checked', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      enableCookieEncryption: true,
    });
    // onlyLoadAppFromAsar needs the app packed into an asar (electron-builder's default).
    expect(config.asar ?? true).toBe(true);
    const validate = validator();
    expect(validate({ ...config, electronFuses: { ...(config.electronFuses as object), runAsNod: false } })).toBe(false);
  });

  it('the icon is a 512×512 RGBA PNG, byte-identical to what build/make-icon.mjs draws', async () => {
    const png = readFileSync(new URL('build/icon.png', root));
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([512, 512, 8, 6]);
    // The image is not blank: the centre pixel (inside the mine body) is opaque orange, the corner transparent.
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('ascii', 37, 41)).toBe('IDAT');
    const rows = inflateSync(png.subarray(41, 41 + idatLength));
    const pixel = (x: number, y: number) => [...rows.subarray(y * 2049 + 1 + x * 4, y * 2049 + 5 + x * 4)];
    const [r, g, b, a] = pixel(220, 300);
    expect(a).toBe(255);
    expect(r).toBeGreaterThan(g! + 40);
    expect(g).toBeGreaterThan(b!);
    expect(pixel(0, 0)[3]).toBe(0);
    // @ts-expect-error -- a plain .mjs script without types
    const { drawIcon } = (await import('../../../build/make-icon.mjs')) as { drawIcon(): Buffer };
    expect(Buffer.compare(drawIcon(), png)).toBe(0);
  });
});
