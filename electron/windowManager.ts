/**
 * The editor window: secure webPreferences, the title bar, and the unsaved-changes prompt on close.
 */
import { BrowserWindow } from 'electron';
import { IPC_CHANNELS, documentWindowTitle } from '../shared/ipc';
import type { MenuCommand } from '../shared/platform';
import { CloseGuard } from './closeGuard';
import type { Dialogs } from './dialogs';

export interface WindowOptions {
  preloadPath: string;
  /** app://marionette/index.html in production, the Vite dev server URL in development. */
  url: string;
  dialogs: Dialogs;
  /** The window closed after the close guard allowed it: nothing of this document needs recovering. */
  onClosedCleanly(): void;
}

export class WindowManager {
  private window: BrowserWindow | null = null;
  private readonly guard = new CloseGuard();
  private documentName = '';
  /** Commands sent before the page finished loading; the preload queues them further until React listens. */
  private readonly beforeLoad: MenuCommand[] = [];
  private loaded = false;

  constructor(private readonly options: WindowOptions) {}

  get current(): BrowserWindow | null {
    return this.window;
  }

  initialize(): BrowserWindow {
    const win = new BrowserWindow({
      width: 1440,
      height: 900,
      minWidth: 960,
      minHeight: 600,
      show: false,
      backgroundColor: '#1b1d22',
      title: 'Marionette',
      webPreferences: {
        // The preload exposes one object (window.marionette: typed requests, no ipcRenderer, no channel names; docs/security.md).
        preload: this.options.preloadPath, // eng-disable PRELOAD_JS_CHECK reviewed in docs security
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        spellcheck: false,
        // A middle click on a link would open it through the auxclick event; nothing in the app needs it.
        disableBlinkFeatures: 'Auxclick',
      },
    });
    this.window = win;
    win.once('ready-to-show', () => win.show());
    win.webContents.on('did-finish-load', () => {
      this.loaded = true;
      for (const command of this.beforeLoad.splice(0)) win.webContents.send(IPC_CHANNELS.menuCommand, command);
    });
    win.on('close', (event) => {
      if (this.guard.requestClose() === 'allow') return;
      event.preventDefault();
      void this.options.dialogs.askSaveChanges(win, this.documentName).then((choice) => this.act(this.guard.answer(choice)));
    });
    win.on('closed', () => {
      this.window = null;
      this.loaded = false;
      this.options.onClosedCleanly();
    });
    void win.loadURL(this.options.url);
    return win;
  }

  private act(action: 'save' | 'close' | 'stay' | null): void {
    if (action === 'save') this.send('save');
    else if (action === 'close') this.window?.close();
  }

  send(command: MenuCommand): void {
    const win = this.window;
    if (win === null || !this.loaded) {
      this.beforeLoad.push(command);
      return;
    }
    win.webContents.send(IPC_CHANNELS.menuCommand, command);
  }

  setDocumentState(name: string, dirty: boolean): void {
    this.documentName = name;
    const win = this.window;
    if (win !== null) {
      const mac = process.platform === 'darwin';
      win.setTitle(documentWindowTitle(name, dirty, mac));
      if (mac) win.setDocumentEdited(dirty);
    }
    this.act(this.guard.documentState(dirty));
  }

  projectSaveFinished(outcome: 'saved' | 'cancelled' | 'failed'): void {
    this.act(this.guard.saveFinished(outcome));
  }

  focus(): void {
    const win = this.window;
    if (win === null) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  }

  dispose(): void {
    this.window?.destroy();
    this.window = null;
  }
}
