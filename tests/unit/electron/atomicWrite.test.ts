import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { atomicWriteFile, type AtomicWriteOps } from '../../../electron/atomicWrite';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marionette-atomic-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const realOps: AtomicWriteOps = { open: fsp.open, rename: fsp.rename, unlink: fsp.unlink, stat: fsp.stat };

describe('atomicWriteFile', () => {
  it('creates a new file and replaces an existing one, leaving no temp files', async () => {
    const target = path.join(dir, 'robot.marionette');
    await atomicWriteFile(target, 'first');
    expect(fs.readFileSync(target, 'utf8')).toBe('first');
    const big = 'x'.repeat(3 * 1024 * 1024);
    await atomicWriteFile(target, big);
    expect(fs.readFileSync(target, 'utf8')).toBe(big);
    expect(fs.readdirSync(dir)).toEqual(['robot.marionette']);
  });

  it('keeps the permissions of the file it replaces', async () => {
    if (process.platform === 'win32') return;
    const target = path.join(dir, 'private.marionette');
    fs.writeFileSync(target, 'old');
    fs.chmodSync(target, 0o600);
    await atomicWriteFile(target, 'new');
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
  });

  it('leaves the old file intact and removes the temp file when the rename fails', async () => {
    const target = path.join(dir, 'robot.marionette');
    fs.writeFileSync(target, 'the old project');
    const ops: AtomicWriteOps = { ...realOps, rename: async () => { throw Object.assign(new Error('EXDEV: cross-device link'), { code: 'EXDEV' }); } };
    await expect(atomicWriteFile(target, 'the new project', ops)).rejects.toThrow(/Could not save robot\.marionette: EXDEV/);
    expect(fs.readFileSync(target, 'utf8')).toBe('the old project');
    expect(fs.readdirSync(dir)).toEqual(['robot.marionette']);
  });

  it('leaves the old file intact when the write fails half-way (disk full)', async () => {
    const target = path.join(dir, 'robot.marionette');
    fs.writeFileSync(target, 'the old project');
    let tempSeen = '';
    const ops: AtomicWriteOps = {
      ...realOps,
      open: (async (file: string, flags: string, mode: number) => {
        tempSeen = file;
        const handle = await fsp.open(file, flags, mode);
        // Write half, then fail as a full disk would.
        return Object.assign(Object.create(handle) as fsp.FileHandle, {
          writeFile: async (data: string) => {
            await handle.writeFile(data.slice(0, data.length / 2));
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          },
          sync: () => handle.sync(),
          close: () => handle.close(),
        });
      }) as unknown as typeof fsp.open,
    };
    await expect(atomicWriteFile(target, 'the new project, longer', ops)).rejects.toThrow(/ENOSPC/);
    expect(path.dirname(tempSeen)).toBe(dir); // same folder: rename stays on one file system
    expect(fs.readFileSync(target, 'utf8')).toBe('the old project');
    expect(fs.readdirSync(dir)).toEqual(['robot.marionette']);
  });

  it('fails cleanly when the target is a folder (real rename error, no injection)', async () => {
    const target = path.join(dir, 'taken');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'inside.txt'), 'keep');
    await expect(atomicWriteFile(target, 'data')).rejects.toThrow(/Could not save taken/);
    expect(fs.readFileSync(path.join(target, 'inside.txt'), 'utf8')).toBe('keep');
    expect(fs.readdirSync(dir)).toEqual(['taken']);
  });
});
