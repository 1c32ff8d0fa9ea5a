/**
 * The "app" fixture the end-to-end tests run against: the production web build in Chromium, or the real
 * Electron app. Both expose the same page and the same user-level actions, so one suite covers both.
 * scripts/e2e.mjs chooses the target and passes it in the environment:
 *   MARIONETTE_E2E_TARGET = web | electron
 *   MARIONETTE_E2E_URL    = the served test build (web)
 *   MARIONETTE_BROWSER    = Chromium/Chrome executable (web)
 *   MARIONETTE_ELECTRON   = Electron executable, MARIONETTE_MAIN = the built main script (electron)
 */
import { chromium, _electron, type Browser, type ElectronApplication, type Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MenuCommand } from '../../../shared/platform';

export type MenuPath = { menu: 'File' | 'Edit' | 'View' | 'Rig' | 'Help'; item: string; command: MenuCommand };

export const MENU = {
  openCreature: { menu: 'File', item: 'Open Creature…', command: 'open-creature' },
  openProject: { menu: 'File', item: 'Open Project…', command: 'open-project' },
  save: { menu: 'File', item: 'Save', command: 'save' },
  saveAs: { menu: 'File', item: 'Save As…', command: 'save-as' },
} satisfies Record<string, MenuPath>;

export interface App {
  target: 'web' | 'electron';
  page: Page;
  /** A scratch folder, removed on close. */
  tmp: string;
  /** Uncaught errors in the page ("pageerror") since launch, in order; a test may clear it and assert it
   *  stays empty across a sequence. Each is also printed to the test's stderr. */
  pageErrors: string[];
  /** Run a menu command as the user would (in-app menu bar in the browser, the native menu under Electron). */
  menu(entry: MenuPath): Promise<void>;
  /** Run `entry` (which opens a file picker) and answer the picker with these files. */
  pickFiles(entry: MenuPath, files: string[]): Promise<void>;
  /** Run `entry` (Save / Save As) and return where the project file ended up on disk. */
  saveTo(entry: MenuPath, file: string): Promise<string>;
  /** Electron only: click an item of the native application menu by its labels (File › Examples › X), so
   *  main sends the command itself — with the file handle a command naming a file needs (shared/ipc.ts). */
  clickNativeMenu?(labels: string[]): Promise<void>;
  /** Reload the editor, as after closing and reopening it; resolves when it is ready again. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the end-to-end tests with \`npm run test:e2e\` (scripts/e2e.mjs), which builds, serves and sets it.`);
  return v;
};

/** File › Examples › LABEL as the user picks it. Under Electron the native menu sends the same command
 *  (with the file's path for assets/examples files; built-in creatures by name). */
export async function openExample(app: App, label: string, name: string, file?: string): Promise<void> {
  if (app.target === 'electron') {
    // A file example is granted by main when its own menu item sends it; a built-in creature goes by name.
    if (file !== undefined) await app.clickNativeMenu!(['File', 'Examples', label]);
    else await app.menu({ menu: 'File', item: 'Examples', command: { kind: 'open-example', name } });
    return;
  }
  const page = app.page;
  await page.getByRole('menubar').getByRole('menuitem', { name: 'File', exact: true }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Examples', exact: true }).hover();
  await page.getByRole('menu').getByRole('menuitem', { name: label, exact: true }).click();
}

export async function waitReady(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __marionette?: { ready(): boolean } }).__marionette?.ready() === true, null, { timeout: 60_000 });
}

/** Records every uncaught page error (with the first lines of its stack: which module threw). */
function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => {
    const where = (e.stack ?? '').split('\n').slice(1, 4).map((l) => l.trim()).join(' ← ');
    errors.push(where ? `${e.message} (${where})` : e.message);
    console.error(`[page error] ${e.message}${e.stack ? `\n${e.stack}` : ''}`);
  });
  return errors;
}

export async function launchApp(): Promise<App> {
  const target = (process.env.MARIONETTE_E2E_TARGET ?? 'web') as 'web' | 'electron';
  const tmp = mkdtempSync(path.join(tmpdir(), 'marionette-e2e-'));
  const app = target === 'electron' ? await launchElectron(tmp) : await launchWeb(tmp);
  await waitReady(app.page);
  return app;
}

async function launchWeb(tmp: string): Promise<App> {
  const browser: Browser = await chromium.launch({ executablePath: env('MARIONETTE_BROWSER'), args: ['--ignore-gpu-blocklist'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const pageErrors = collectPageErrors(page);
  // Content-Security-Policy violations, for tests/e2e/csp.test.ts (window.__marionetteCspViolations).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __marionetteCspViolations: string[] }).__marionetteCspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI || '(inline)'} ${e.sourceFile}:${e.lineNumber}`));
  });
  await page.goto(env('MARIONETTE_E2E_URL'));
  const menu = async (entry: MenuPath) => {
    await page.getByRole('menubar').getByRole('menuitem', { name: entry.menu, exact: true }).click();
    // Plain items are `menuitem`; the View menu's toggles are `menuitemcheckbox` (MenuBar.tsx).
    const items = page.getByRole('menu');
    await items.getByRole('menuitem', { name: entry.item, exact: true })
      .or(items.getByRole('menuitemcheckbox', { name: entry.item, exact: true }))
      .click();
  };
  return {
    target: 'web',
    page,
    tmp,
    pageErrors,
    menu,
    async pickFiles(entry, files) {
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), menu(entry)]);
      await chooser.setFiles(files);
    },
    async saveTo(entry, file) {
      const [download] = await Promise.all([page.waitForEvent('download'), menu(entry)]);
      await download.saveAs(file);
      return file;
    },
    async reload() {
      await page.reload();
      await waitReady(page);
    },
    async close() {
      await browser.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

async function launchElectron(tmp: string): Promise<App> {
  const electronApp: ElectronApplication = await _electron.launch({
    executablePath: env('MARIONETTE_ELECTRON'),
    args: [env('MARIONETTE_MAIN'), '--no-sandbox', `--user-data-dir=${path.join(tmp, 'user-data')}`],
    env: { ...process.env, MARIONETTE_USER_DATA: path.join(tmp, 'user-data') },
  });
  const page = await electronApp.firstWindow();
  const pageErrors = collectPageErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 }).catch(() => undefined);
  const menu = async (entry: MenuPath) => {
    await electronApp.evaluate(({ BrowserWindow }, command) => {
      BrowserWindow.getAllWindows()[0]!.webContents.send('marionette:menu-command', command);
    }, entry.command);
  };
  return {
    target: 'electron',
    page,
    tmp,
    pageErrors,
    menu,
    async clickNativeMenu(labels) {
      await electronApp.evaluate(({ Menu }, wanted) => {
        let items = Menu.getApplicationMenu()?.items ?? [];
        let item: Electron.MenuItem | undefined;
        for (const text of wanted) {
          item = items.find((i) => i.label === text);
          if (item === undefined) throw new Error(`${wanted.join(' › ')} is not in the native menu`);
          items = item.submenu?.items ?? [];
        }
        item!.click();
      }, labels);
    },
    async pickFiles(entry, files) {
      await electronApp.evaluate(({ dialog }, filePaths) => {
        dialog.showOpenDialog = (async () => ({ canceled: false, filePaths })) as unknown as typeof dialog.showOpenDialog;
      }, files);
      await menu(entry);
    },
    async saveTo(entry, file) {
      await electronApp.evaluate(({ dialog }, filePath) => {
        dialog.showSaveDialog = (async () => ({ canceled: false, filePath })) as unknown as typeof dialog.showSaveDialog;
      }, file);
      await menu(entry);
      await page.waitForFunction(() => (window as unknown as { __marionette: { dirty(): boolean } }).__marionette.dirty() === false);
      return file;
    },
    async reload() {
      await page.reload();
      await waitReady(page);
    },
    async close() {
      await electronApp.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
