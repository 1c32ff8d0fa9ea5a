/**
 * Runs the real bundled main process (out of esbuild, as shipped) under Node against a recording fake of
 * the 'electron' module: no Electron binary needed, yet the glue — window options, protocol, CSP header,
 * IPC registration with sender checks, close prompt — is exercised as it is wired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { EventEmitter } from 'node:events';
import { contentSecurityPolicy } from '../../../shared/ipc';

type Listener = (...args: unknown[]) => unknown;

class FakeWindow extends EventEmitter {
  static all: FakeWindow[] = [];
  title = '';
  url = '';
  closed = false;
  readonly webContents = Object.assign(new EventEmitter(), { sent: [] as unknown[][], send: (...args: unknown[]) => void this.webContents.sent.push(args) });
  constructor(readonly options: { webPreferences: Record<string, unknown> }) {
    super();
    FakeWindow.all.push(this);
  }
  loadURL(url: string) { this.url = url; return Promise.resolve(); }
  setTitle(title: string) { this.title = title; }
  setDocumentEdited() {}
  show() {}
  focus() {}
  isMinimized() { return false; }
  close() {
    let prevented = false;
    this.emit('close', { preventDefault: () => { prevented = true; } });
    if (!prevented) { this.closed = true; this.emit('closed'); }
  }
}

function fakeElectron(appPath: string, userData: string) {
  const handlers = new Map<string, Listener>();
  const listeners = new Map<string, Listener>();
  const protocols = new Map<string, Listener>();
  const dialogAnswers: number[] = [];
  const app = Object.assign(new EventEmitter(), {
    isPackaged: true,
    getAppPath: () => appPath,
    getPath: (name: string) => (name === 'userData' ? userData : os.tmpdir()),
    getVersion: () => '0.1.0',
    whenReady: () => Promise.resolve(),
    enableSandbox: () => undefined,
    requestSingleInstanceLock: () => true,
    addRecentDocument: () => undefined,
    quit: () => undefined,
  });
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: () => undefined },
    ipcMain: { handle: (ch: string, fn: Listener) => void handlers.set(ch, fn), on: (ch: string, fn: Listener) => void listeners.set(ch, fn), removeHandler: () => undefined },
    protocol: { registerSchemesAsPrivileged: () => undefined, handle: (scheme: string, fn: Listener) => void protocols.set(scheme, fn) },
    session: { defaultSession: { webRequest: { onHeadersReceived: () => undefined } } },
    shell: { openPath: async () => '' },
    dialog: {
      showMessageBox: async () => ({ response: dialogAnswers.shift() ?? 2 }),
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      showSaveDialog: async () => ({ canceled: true }),
    },
  };
  return { electron, handlers, listeners, protocols, dialogAnswers, app };
}

let tmp: string;
let fake: ReturnType<typeof fakeElectron>;
const appFrame = { senderFrame: { url: 'app://marionette/index.html', parent: null } };

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'marionette-main-'));
  const appPath = path.join(tmp, 'app');
  fs.mkdirSync(path.join(appPath, 'dist-web'), { recursive: true });
  fs.writeFileSync(path.join(appPath, 'dist-web', 'index.html'), '<!doctype html><title>Marionette</title>');
  const outfile = path.join(tmp, 'main.cjs');
  await build({ entryPoints: [path.resolve('electron/main.ts')], bundle: true, platform: 'node', format: 'cjs', external: ['electron'], outfile, logLevel: 'silent' });
  fake = fakeElectron(appPath, path.join(tmp, 'userData'));
  // Resolve require('electron') inside the bundle to the fake.
  const requireFromBundle = createRequire(outfile);
  const Module = requireFromBundle('node:module') as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = Module._load;
  Module._load = function (request: string, ...rest: unknown[]) {
    return request === 'electron' ? fake.electron : originalLoad.call(this, request, ...rest);
  };
  try {
    requireFromBundle(outfile);
  } finally {
    Module._load = originalLoad;
  }
  // Let whenReady's async setup finish (polled: a loaded machine can take longer than a fixed wait).
  for (let waited = 0; FakeWindow.all.length === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 50));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('main process glue (real bundle, fake Electron)', () => {
  it('opens one window with the secure webPreferences, loading the app:// entry with the sandboxed preload', () => {
    expect(FakeWindow.all).toHaveLength(1);
    const win = FakeWindow.all[0]!;
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, disableBlinkFeatures: 'Auxclick' });
    expect(win.options.webPreferences.preload).toBe(path.join(tmp, 'app', 'out', 'preload', 'preload.cjs'));
    expect(win.url).toBe('app://marionette/index.html');
  });

  it('serves dist-web over app:// with the CSP header, 404 outside it', async () => {
    const handle = fake.protocols.get('app')!;
    const ok = (await handle({ url: 'app://marionette/index.html' })) as Response;
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(ok.headers.get('content-security-policy')).toBe(contentSecurityPolicy()); // the same text the build writes into index.html
    expect(ok.headers.get('x-frame-options')).toBe('DENY');
    expect(await ok.text()).toContain('<title>Marionette</title>');
    expect(((await handle({ url: 'app://marionette/../../etc/passwd' })) as Response).status).toBe(404);
    expect(((await handle({ url: 'app://marionette/missing.js' })) as Response).status).toBe(404);
  });

  it('IPC: requests from the app page work, others are refused, bad payloads are rejected', async () => {
    const request = fake.handlers.get('marionette:request')!;
    expect(await request(appFrame, { type: 'write-autosave', text: '{"draft":1}' })).toEqual({ ok: true, value: undefined });
    expect(await request(appFrame, { type: 'read-autosave' })).toMatchObject({ ok: true, value: { text: '{"draft":1}' } });
    expect(await request({ senderFrame: { url: 'https://evil.example/', parent: null } }, { type: 'read-autosave' }))
      .toEqual({ ok: false, error: 'Refused platform request: https://evil.example/ is not a Marionette page.' });
    expect(await request(appFrame, { type: 'read-project', handle: 42 })).toMatchObject({ ok: false, error: expect.stringMatching(/^Rejected platform request: handle: /) });
    expect(await request(appFrame, { type: 'read-project', handle: path.join(tmp, 'nope.json') })).toMatchObject({ ok: false, error: expect.stringMatching(/must be a file handle issued by Marionette \(not a path\)/) });
    expect(await request(appFrame, { type: 'add-recent', handle: 'A'.repeat(24) })).toMatchObject({ ok: false, error: expect.stringMatching(/not a file this window was given/) });
  });

  it('title bar and unsaved-changes prompt: Cancel keeps the window, Don\'t Save closes it', async () => {
    const win = FakeWindow.all[0]!;
    const state = fake.listeners.get('marionette:document-state')!;
    state(appFrame, { title: 'armed-mine', dirty: true });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(win.title).toBe('• armed-mine — Marionette');
    fake.dialogAnswers.push(2); // Cancel
    win.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(win.closed).toBe(false);
    fake.dialogAnswers.push(0); // Save → the renderer is asked to save
    win.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(win.closed).toBe(false);
    win.emit('did-finish-load');
    win.webContents.emit('did-finish-load');
    expect(win.webContents.sent.at(-1)).toEqual(['marionette:menu-command', 'save']);
    fake.dialogAnswers.push(1); // ...the save was cancelled by the user; close again → Don't Save
    const request = fake.handlers.get('marionette:request')!;
    expect(await request(appFrame, { type: 'save-project', text: '{}', handle: null, suggestedName: 'armed-mine' })).toEqual({ ok: true, value: null });
    win.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(win.closed).toBe(true);
  });
});
