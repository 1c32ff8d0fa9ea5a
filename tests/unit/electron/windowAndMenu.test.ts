import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { CloseGuard } from '../../../electron/closeGuard';
import { buildMenuTemplate, exampleLabel, type MenuContext } from '../../../electron/menuTemplate';
import { listExamples } from '../../../electron/examples';
import { resolveAppFile, mimeTypeOf } from '../../../electron/appProtocol';
import { filesFromArgv, launchEntry } from '../../../electron/launchFiles';
import type { MenuCommand } from '../../../shared/platform';
import { documentWindowTitle } from '../../../shared/ipc';

describe('CloseGuard', () => {
  it('a clean document closes without a prompt', () => {
    const guard = new CloseGuard();
    guard.documentState(false);
    expect(guard.requestClose()).toBe('allow');
  });

  it("dirty → prompt; Cancel stays; Don't Save closes", () => {
    const guard = new CloseGuard();
    guard.documentState(true);
    expect(guard.requestClose()).toBe('prompt');
    expect(guard.answer('cancel')).toBe('stay');
    expect(guard.requestClose()).toBe('prompt');
    expect(guard.answer('discard')).toBe('close');
    expect(guard.requestClose()).toBe('allow');
  });

  it('Save closes once the save lands, but not when it is cancelled', () => {
    const guard = new CloseGuard();
    guard.documentState(true);
    expect(guard.answer('save')).toBe('save');
    expect(guard.saveFinished('cancelled')).toBeNull();
    expect(guard.documentState(false)).toBeNull(); // a later unrelated save must not close the window
    guard.documentState(true);
    expect(guard.answer('save')).toBe('save');
    expect(guard.saveFinished('saved')).toBe('close');
    expect(guard.requestClose()).toBe('allow');
  });

  it('Save also closes when the renderer reports the document clean', () => {
    const guard = new CloseGuard();
    guard.documentState(true);
    guard.answer('save');
    expect(guard.documentState(true)).toBeNull();
    expect(guard.documentState(false)).toBe('close');
  });

  it('window title: name — Marionette, bullet when dirty unless the platform marks it natively', () => {
    expect(documentWindowTitle('armed-mine', false, false)).toBe('armed-mine — Marionette');
    expect(documentWindowTitle('armed-mine', true, false)).toBe('• armed-mine — Marionette');
    expect(documentWindowTitle('armed-mine', true, true)).toBe('armed-mine — Marionette');
    expect(documentWindowTitle('  ', false, false)).toBe('Marionette');
  });
});

type Item = MenuItemConstructorOptions;
function allItems(items: Item[]): Item[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? allItems(item.submenu) : [])]);
}
function find(items: Item[], label: string): Item {
  const item = allItems(items).find((i) => i.label === label);
  if (!item) throw new Error(`no menu item "${label}"`);
  return item;
}

function context(overrides: Partial<MenuContext> = {}) {
  const sent: MenuCommand[] = [];
  const calls: string[] = [];
  const ctx: MenuContext = {
    appName: 'Marionette', platform: 'linux', isDev: false, recent: [], examples: [], hasDocumentation: true,
    send: (c) => void sent.push(c), showAbout: () => void calls.push('about'), openDocumentation: () => void calls.push('docs'), clearRecent: () => void calls.push('clear'),
    ...overrides,
  };
  return { ctx, sent, calls };
}

describe('menu template', () => {
  it('every item works: a click, a role, a submenu, a separator or the disabled empty-recent label', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const { ctx } = context({ platform, isDev: true, recent: [{ kind: 'project', path: '/p/a.marionette', name: 'a.marionette', openedAt: 1 }], examples: [{ name: 'double-pendulum', path: '/ex/double-pendulum.json' }] });
      for (const item of allItems(buildMenuTemplate(ctx))) {
        const works = item.click !== undefined || item.role !== undefined || item.submenu !== undefined || item.type === 'separator';
        expect(works || (item.enabled === false && item.label === 'No Recent Files'), `${platform}: ${item.label}`).toBe(true);
      }
    }
  });

  it('File items send the matching commands with the expected accelerators', () => {
    const { ctx, sent } = context();
    const menu = buildMenuTemplate(ctx);
    const expected: Array<[string, MenuCommand, string]> = [
      ['New', 'new', 'CmdOrCtrl+N'], ['Open Creature…', 'open-creature', 'CmdOrCtrl+O'], ['Open Project…', 'open-project', 'CmdOrCtrl+Shift+O'],
      ['Save', 'save', 'CmdOrCtrl+S'], ['Save As…', 'save-as', 'CmdOrCtrl+Shift+S'], ['Rig JSON…', 'export-rig', 'CmdOrCtrl+E'],
      ['Undo', 'undo', 'CmdOrCtrl+Z'], ['Redo', 'redo', 'Ctrl+Shift+Z'],
    ];
    for (const [label, command, accelerator] of expected) {
      const item = find(menu, label);
      expect(item.accelerator).toBe(accelerator);
      (item.click as () => void)();
      expect(sent.at(-1)).toEqual(command);
    }
    // File › Export › MJCF / glTF send the export command with the format (no accelerator).
    (find(menu, 'MJCF (MuJoCo)…').click as () => void)();
    expect(sent.at(-1)).toEqual({ kind: 'export', format: 'mjcf' });
    (find(menu, 'glTF + KHR Physics (Draft)…').click as () => void)();
    expect(sent.at(-1)).toEqual({ kind: 'export', format: 'gltf' });
    (find(menu, 'Frame Selection').click as () => void)();
    (find(menu, 'Toggle Skeleton').click as () => void)();
    expect(sent.slice(-2)).toEqual(['frame-selection', 'toggle-skeleton']);
    expect(find(menu, 'Frame Selection').registerAccelerator).toBe(false);
  });

  it('Open Recent lists entries (escaping &) and offers Clear; Examples only when there are examples', () => {
    const entry = { kind: 'creature' as const, path: '/c/R&D.glb', name: 'R&D.glb', openedAt: 3 };
    const { ctx, sent, calls } = context({ recent: [entry] });
    const menu = buildMenuTemplate(ctx);
    const item = find(menu, 'R&&D.glb  (creature)');
    (item.click as () => void)();
    expect(sent).toEqual([{ kind: 'open-recent', entry }]);
    (find(menu, 'Clear Recent').click as () => void)();
    expect(calls).toEqual(['clear']);
    expect(allItems(menu).some((i) => i.label === 'Examples')).toBe(false);
    const withExamples = buildMenuTemplate(context({ examples: [{ name: 'double-pendulum', path: '/ex/double-pendulum.json' }] }).ctx);
    expect((find(withExamples, 'Examples').submenu as Item[]).map((i) => i.label)).toEqual(['Double Pendulum']);
  });

  it('dev-only items and Documentation appear only when they can work', () => {
    const prod = allItems(buildMenuTemplate(context({ hasDocumentation: false }).ctx));
    expect(prod.some((i) => i.role === 'toggleDevTools' || i.role === 'reload')).toBe(false);
    expect(prod.some((i) => i.label === 'Documentation')).toBe(false);
    const devMenu = allItems(buildMenuTemplate(context({ isDev: true }).ctx));
    expect(devMenu.some((i) => i.role === 'toggleDevTools')).toBe(true);
    const { ctx, calls } = context();
    const menu = buildMenuTemplate(ctx);
    (find(menu, 'Documentation').click as () => void)();
    (find(menu, 'About Marionette').click as () => void)();
    expect(calls).toEqual(['docs', 'about']);
    // macOS: About lives in the app menu, Quit too; the File menu has no Quit.
    const mac = buildMenuTemplate(context({ platform: 'darwin' }).ctx);
    expect(mac[0]!.label).toBe('Marionette');
    expect((find(mac, '&File').submenu as Item[]).some((i) => i.role === 'quit')).toBe(false);
  });

  it('lists example files sorted, and none when the folder is missing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marionette-ex-'));
    try {
      for (const name of ['ragdoll.json', 'double-pendulum.marionette', 'notes.txt', '.hidden.json']) fs.writeFileSync(path.join(dir, name), '{}');
      expect(await listExamples(dir)).toEqual([
        { name: 'double-pendulum', path: path.join(dir, 'double-pendulum.marionette') },
        { name: 'ragdoll', path: path.join(dir, 'ragdoll.json') },
      ]);
      expect(await listExamples(path.join(dir, 'nope'))).toEqual([]);
      expect(exampleLabel('two_colliding-bones')).toBe('Two Colliding Bones');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('app:// protocol', () => {
  const root = path.resolve('/srv/dist-web');
  it('maps URLs into dist-web and refuses escapes and other hosts', () => {
    expect(resolveAppFile('app://marionette/', root, 'marionette')).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile('app://marionette/assets/index-abc.js?v=1', root, 'marionette')).toBe(path.join(root, 'assets', 'index-abc.js'));
    expect(resolveAppFile('app://marionette/a%20b.png', root, 'marionette')).toBe(path.join(root, 'a b.png'));
    // The URL parser already folds %2e%2e into '..' and clamps it at the root: the file stays inside dist-web.
    expect(resolveAppFile('app://marionette/%2e%2e/%2e%2e/etc/passwd', root, 'marionette')).toBe(path.join(root, 'etc', 'passwd'));
    // An encoded backslash survives URL parsing; on Windows it is a separator and must not lead out.
    const backslash = resolveAppFile('app://marionette/..%5c..%5cwindows', root, 'marionette');
    expect(backslash === null || backslash.startsWith(root + path.sep)).toBe(true);
    expect(resolveAppFile('app://marionette/a%00.js', root, 'marionette')).toBeNull();
    expect(resolveAppFile('app://other/index.html', root, 'marionette')).toBeNull();
    expect(resolveAppFile('app://marionette/%E0%A4%A', root, 'marionette')).toBeNull();
    expect(mimeTypeOf('x/physics.wasm')).toBe('application/wasm');
    expect(mimeTypeOf('x/index.JS')).toBe('text/javascript; charset=utf-8');
  });
});

describe('files from the OS', () => {
  it('picks openable files out of argv, resolved against the working directory', () => {
    const cwd = path.resolve('/home/u');
    expect(filesFromArgv(['--no-sandbox', 'robot.marionette', '/abs/mine.GLB', 'notes.txt', '--inspect=9229'], cwd))
      .toEqual([path.join(cwd, 'robot.marionette'), path.resolve('/abs/mine.GLB')]);
    expect(launchEntry('/p/robot.marionette', 7)).toEqual({ kind: 'project', path: '/p/robot.marionette', name: 'robot.marionette', openedAt: 7 });
    expect(launchEntry('/p/mine.gltf', 7).kind).toBe('creature');
  });
});
