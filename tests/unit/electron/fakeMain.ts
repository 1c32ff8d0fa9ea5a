/**
 * Loads the real bundled main process (esbuild, as shipped) under Node against a recording fake of the
 * 'electron' module, with scripted dialog answers: the IPC handlers it registers are the ones a renderer
 * talks to. Used by the compromised-renderer test; mainGlue.test.ts has its own copy for the window glue.
 */
import { build } from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { EventEmitter } from 'node:events';

type Listener = (...args: unknown[]) => unknown;

export interface FakeMain {
  /** The `marionette:request` handler as the page's top frame calls it. */
  request(payload: unknown): Promise<{ ok: boolean; value?: unknown; error?: string }>;
  /** Paths the next open / save dialogs answer (undefined → cancelled). */
  openAnswers: Array<string | undefined>;
  saveAnswers: Array<string | undefined>;
  /** Buttons the next message boxes answer (index; none left → the last button, Cancel). */
  messageAnswers: number[];
  /** Every message box main showed, in order. */
  messages: Array<{ message: string; detail?: string; buttons?: string[] }>;
  /** Menu commands main sent to the window. */
  sent: unknown[];
  /** Fire Electron's app 'open-file' (a file handed over by the OS). */
  openFile(file: string): void;
}

let loaded = 0;

/** `userData` defaults to tmp/userData; a second main on the same folder is "the next start". */
export async function loadMain(tmp: string, argv: string[] = [], userData: string = path.join(tmp, 'userData'), options: { packaged?: boolean; env?: Record<string, string> } = {}): Promise<FakeMain> {
  const appPath = path.join(tmp, 'app');
  fs.mkdirSync(path.join(appPath, 'dist-web'), { recursive: true });
  fs.mkdirSync(path.join(appPath, 'assets', 'examples'), { recursive: true });
  fs.writeFileSync(path.join(appPath, 'dist-web', 'index.html'), '<!doctype html><title>Marionette</title>');
  const outfile = path.join(tmp, `main-${++loaded}.cjs`); // a fresh module each time (require caches by path)
  await build({ entryPoints: [path.resolve('electron/main.ts')], bundle: true, platform: 'node', format: 'cjs', external: ['electron'], outfile, logLevel: 'silent' });

  const handlers = new Map<string, Listener>();
  const openAnswers: Array<string | undefined> = [];
  const saveAnswers: Array<string | undefined> = [];
  const messageAnswers: number[] = [];
  const messages: Array<{ message: string; detail?: string; buttons?: string[] }> = [];
  const sent: unknown[] = [];
  class FakeWindow extends EventEmitter {
    readonly webContents = Object.assign(new EventEmitter(), { send: (_channel: string, command: unknown) => void sent.push(command) });
    loadURL() { setTimeout(() => this.webContents.emit('did-finish-load'), 0); return Promise.resolve(); }
    setTitle() {}
    setDocumentEdited() {}
    show() {}
    focus() {}
    isMinimized() { return false; }
    close() {}
  }
  const app = Object.assign(new EventEmitter(), {
    isPackaged: options.packaged ?? true,
    getAppPath: () => appPath,
    getPath: (name: string) => (name === 'userData' ? userData : os.tmpdir()),
    setPath: (name: string, value: string) => {
      if (name === 'userData') userData = value;
    },
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
    ipcMain: { handle: (ch: string, fn: Listener) => void handlers.set(ch, fn), on: () => undefined, removeHandler: () => undefined },
    protocol: { registerSchemesAsPrivileged: () => undefined, handle: () => undefined },
    session: { defaultSession: { webRequest: { onHeadersReceived: () => undefined } } },
    shell: { openPath: async () => '' },
    dialog: {
      showMessageBox: async (...args: unknown[]) => {
        const options = args.at(-1) as { message: string; detail?: string; buttons?: string[] };
        messages.push({ message: options.message, detail: options.detail, buttons: options.buttons });
        return { response: messageAnswers.shift() ?? Math.max(0, (options.buttons?.length ?? 1) - 1) };
      },
      showOpenDialog: async () => {
        const file = openAnswers.shift();
        return file === undefined ? { canceled: true, filePaths: [] } : { canceled: false, filePaths: [file] };
      },
      showSaveDialog: async () => {
        const file = saveAnswers.shift();
        return file === undefined ? { canceled: true } : { canceled: false, filePath: file };
      },
    },
  };
  const requireFromBundle = createRequire(outfile);
  const Module = requireFromBundle('node:module') as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = Module._load;
  const originalArgv = process.argv;
  const originalEnv = { ...process.env };
  Object.assign(process.env, options.env ?? {});
  Module._load = function (request: string, ...rest: unknown[]) {
    return request === 'electron' ? electron : originalLoad.call(this, request, ...rest);
  };
  try {
    process.argv = [originalArgv[0]!, 'marionette', ...argv];
    requireFromBundle(outfile);
  } finally {
    Module._load = originalLoad;
    process.argv = originalArgv;
    for (const name of Object.keys(options.env ?? {})) {
      if (originalEnv[name] === undefined) delete process.env[name];
      else process.env[name] = originalEnv[name];
    }
  }
  // whenReady's async setup and the window's first load (polled: a loaded machine can be slow).
  for (let waited = 0; !handlers.has('marionette:request') && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const frame = { senderFrame: { url: 'app://marionette/index.html', parent: null } };
  return {
    request: async (payload) => (await handlers.get('marionette:request')!(frame, payload)) as { ok: boolean; value?: unknown; error?: string },
    openAnswers,
    saveAnswers,
    messageAnswers,
    messages,
    sent,
    openFile: (file) => app.emit('open-file', { preventDefault: () => undefined }, file),
  };
}
