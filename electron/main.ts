/**
 * Marionette's main process: glue between Electron and the small managers beside this file. All file
 * logic lives in plain modules (files.ts, atomicWrite.ts, recentFiles.ts, autosave.ts) tested without
 * Electron; this file only wires them to app events, IPC and the window.
 */
import { app, dialog, ipcMain, protocol, session, shell } from 'electron';
import * as fsp from 'node:fs/promises';
import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { IPC_CHANNELS, contentSecurityPolicy } from '../shared/ipc';
import { documentStateSchema } from './ipcSchemas';
import { resolveAppFile, mimeTypeOf } from './appProtocol';
import { atomicWriteFile, removeStaleTemps } from './atomicWrite';
import { AutosaveStore } from './autosave';
import { Dialogs } from './dialogs';
import { listExamples } from './examples';
import { readCreatureFile, readProjectFile } from './files';
import { filesFromArgv, launchEntry } from './launchFiles';
import { MenuManager } from './menu';
import { RecentFiles } from './recentFiles';
import { guardHandler, grantLaunchFile, platformRequestHandler, type PlatformServices } from './requests';
import { FileGrants } from './capabilities';
import type { MenuCommand } from '../shared/platform';
import { APP_ENTRY_URL, APP_HOST, APP_SCHEME, hardenWebContents, type AppOrigins } from './security';
import { WindowManager } from './windowManager';

const devServerUrl = !app.isPackaged ? (process.env.VITE_DEV_SERVER_URL ?? null) : null;
const origins: AppOrigins = { devServerUrl };
const appRoot = app.getAppPath();
const webRoot = path.join(appRoot, 'dist-web');
// README.md is unpacked from the asar archive (electron-builder.yml asarUnpack) so an external viewer can open it.
const examplesFolder = path.join(appRoot, 'assets', 'examples');
const readmePath = path.join(appRoot.replace(/app\.asar$/, 'app.asar.unpacked'), 'README.md');

// The end-to-end harness (tests/e2e/harness/app.ts) gives each run its own userData (recent list, autosave,
// the single-instance lock). Only an unpackaged app honours it; the shipped one always uses the OS location.
const testUserData = !app.isPackaged ? process.env.MARIONETTE_USER_DATA : undefined;
if (testUserData) {
  mkdirSync(path.resolve(testUserData), { recursive: true }); // setPath throws on a folder that does not exist
  app.setPath('userData', path.resolve(testUserData));
}

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true } },
]);
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  start();
}

function start(): void {
  let windows: WindowManager | null = null;
  // Every file the renderer may read or write, by handle (electron/capabilities.ts).
  const grants = new FileGrants();
  // A command naming a file carries its handle: the file came from main (recent list, examples, the OS).
  const withHandles = (command: MenuCommand): MenuCommand => {
    if (typeof command !== 'object') return command;
    if (command.kind === 'open-recent') return { ...command, entry: grantLaunchFile(grants, command.entry) };
    if (command.kind === 'open-example' && command.path !== undefined) {
      const handle = grants.grant(command.path, ['read-creature', 'read-project']);
      return handle === null ? command : { ...command, handle };
    }
    return command;
  };
  const sendCommand = (command: MenuCommand): void => windows?.send(withHandles(command));
  const openOnStart: string[] = filesFromArgv(process.argv.slice(app.isPackaged ? 1 : 2), process.cwd());
  const openFile = (file: string): void => {
    if (windows === null) openOnStart.push(file);
    else {
      sendCommand({ kind: 'open-recent', entry: launchEntry(file, Date.now()) });
      windows.focus();
    }
  };
  app.on('open-file', (event, file) => {
    event.preventDefault();
    openFile(file);
  });
  app.on('second-instance', (_event, argv, cwd) => {
    for (const file of filesFromArgv(argv.slice(1), cwd)) openFile(file);
    windows?.focus();
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, origins));

  void app.whenReady().then(async () => {
    const userData = app.getPath('userData');
    const recent = new RecentFiles(path.join(userData, 'recent-files.json'));
    const autosave = new AutosaveStore(path.join(userData, 'autosave'));
    const header = contentSecurityPolicy({ dev: devServerUrl !== null });
    // Temp files of saves a crash or kill interrupted: in userData, and beside the files on the recent list.
    // In the background: the window does not wait for it.
    void (async () => {
      await removeStaleTemps(userData);
      await removeStaleTemps(path.join(userData, 'autosave'));
      for (const entry of await recent.list()) await removeStaleTemps(path.dirname(entry.path), path.basename(entry.path));
    })().catch(() => undefined);

    protocol.handle(APP_SCHEME, async (request) => {
      const file = resolveAppFile(request.url, webRoot, APP_HOST);
      if (file === null) return new Response('Not found', { status: 404 });
      try {
        const data = await fsp.readFile(file);
        return new Response(data, { headers: { 'content-type': mimeTypeOf(file), 'content-security-policy': header, 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' } });
      } catch {
        return new Response('Not found', { status: 404 });
      }
    });
    if (devServerUrl !== null) {
      // The dev server's pages get the (dev) policy as a header too.
      session.defaultSession.webRequest.onHeadersReceived({ urls: [`${new URL(devServerUrl).origin}/*`] }, (details, callback) => {
        callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [header] } });
      });
    }

    const dialogs = new Dialogs(() => windows?.current ?? null, app.getPath('documents'));
    const refreshMenu = async (): Promise<void> => menu.update(await recent.list());
    const menu = new MenuManager({
      appName: 'Marionette',
      platform: process.platform,
      isDev: !app.isPackaged,
      examples: await listExamples(examplesFolder),
      hasDocumentation: existsSync(readmePath),
      send: sendCommand,
      showAbout: () => void showAbout(windows?.current ?? null),
      openDocumentation: () => void shell.openPath(readmePath),
      clearRecent: () => void recent.clear().then(refreshMenu),
    });
    menu.initialize(await recent.list());

    const services: PlatformServices = {
      grants,
      chooseCreature: (missing) => dialogs.chooseCreature(missing),
      chooseProject: (purpose) => dialogs.chooseProject(purpose),
      chooseSaveProject: (name) => dialogs.chooseSaveProject(name),
      chooseExportRig: (name) => dialogs.chooseExportRig(name),
      readCreature: (file) => readCreatureFile(file),
      confirmDroppedCreature: (file) => dialogs.confirmDroppedCreature(file),
      confirmOutsideCreature: (project, creature) => dialogs.confirmOutsideCreature(project, creature),
      readProject: (file) => readProjectFile(file),
      writeFile: (file, text) => atomicWriteFile(file, text),
      recentFiles: () => recent.list(),
      addRecent: async (entry) => {
        menu.update(await recent.add(entry));
        app.addRecentDocument(entry.path);
      },
      writeAutosave: (text, creature) => autosave.write(text, creature),
      readAutosave: () => autosave.read(),
      clearAutosave: () => autosave.clear(),
      projectSaveFinished: (outcome) => windows?.projectSaveFinished(outcome),
    };
    ipcMain.handle(IPC_CHANNELS.request, platformRequestHandler(origins, services));
    const documentState = guardHandler(origins, documentStateSchema, 'document state', async (state) => windows?.setDocumentState(state.title, state.dirty));
    ipcMain.on(IPC_CHANNELS.documentState, (event, payload) => {
      void documentState(event, payload).then((result) => {
        if (!result.ok) console.warn(result.error);
      });
    });

    const openWindow = (): void => {
      windows = new WindowManager({
        preloadPath: path.join(appRoot, 'out', 'preload', 'preload.cjs'),
        url: devServerUrl ?? APP_ENTRY_URL,
        dialogs,
        onClosedCleanly: () => void autosave.clear(),
      });
      windows.initialize();
      for (const file of openOnStart.splice(0)) sendCommand({ kind: 'open-recent', entry: launchEntry(file, Date.now()) });
    };
    openWindow();
    app.on('activate', () => {
      if (windows?.current == null) openWindow();
    });

    let exitRecorded = false;
    app.on('will-quit', (event) => {
      if (exitRecorded) return;
      // Record the clean exit before letting go, so the next start does not offer a stale autosave.
      event.preventDefault();
      exitRecorded = true;
      void autosave.markCleanExit().finally(() => {
        ipcMain.removeHandler(IPC_CHANNELS.request);
        menu.dispose();
        app.quit();
      });
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

async function showAbout(parent: Electron.BrowserWindow | null): Promise<void> {
  const options: Electron.MessageBoxOptions = {
    type: 'info',
    title: 'About Marionette',
    message: `Marionette ${app.getVersion()}`,
    detail: [
      'A desktop editor for powered ragdolls: rigid bodies, limited joints and torque-limited motors driven by cyclic IK gaits.',
      '',
      `Electron ${process.versions.electron} · Chromium ${process.versions.chrome} · Node ${process.versions.node}`,
      'MIT License',
    ].join('\n'),
    buttons: ['OK'],
    noLink: true,
  };
  if (parent) await dialog.showMessageBox(parent, options);
  else await dialog.showMessageBox(options);
}
