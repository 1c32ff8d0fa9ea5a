/**
 * The native menu, as data. Every item either sends a MenuCommand to the renderer, uses one of
 * Electron's built-in roles, or calls one of the actions main passes in — nothing is a placeholder.
 * Pure (only Electron's types), so the structure and every click are tested without Electron.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand, PreviewOverlay, RecentEntry } from '../shared/platform';

export interface ExampleFile { name: string; path: string }

export interface MenuContext {
  appName: string;
  platform: NodeJS.Platform;
  isDev: boolean;
  recent: readonly RecentEntry[];
  examples: readonly ExampleFile[];
  /** Whether a README (or other documentation) can be opened; the Documentation item is absent otherwise. */
  hasDocumentation: boolean;
  send(command: MenuCommand): void;
  showAbout(): void;
  openDocumentation(): void;
  clearRecent(): void;
}

/** View menu labels of the preview overlays, in toolbar order: the web View menu's "Show …" items
 *  (renderer/src/panels/viewToggles.ts) as plain toggles — main does not know their state to check them. */
export const PREVIEW_OVERLAYS: ReadonlyArray<readonly [string, PreviewOverlay]> = [
  ['Toggle Bodies', 'bodies'],
  ['Toggle Joints and Limits', 'joints'],
  ['Toggle Motor Torque', 'torque'],
  ['Toggle Contacts', 'contacts'],
  ['Toggle Gait Path', 'path'],
];

/** "double-pendulum-90" → "Double Pendulum 90". */
export function exampleLabel(name: string): string {
  return name.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

/** Escape '&' so Electron does not read it as a mnemonic marker in file names such as "R&D.glb". */
function label(text: string): string {
  return text.replace(/&/g, '&&');
}

export function buildMenuTemplate(ctx: MenuContext): MenuItemConstructorOptions[] {
  const isMac = ctx.platform === 'darwin';
  const command = (text: string, cmd: MenuCommand, accelerator?: string): MenuItemConstructorOptions =>
    ({ label: text, ...(accelerator ? { accelerator } : {}), click: () => ctx.send(cmd) });

  const recentItems: MenuItemConstructorOptions[] = ctx.recent.length === 0
    ? [{ label: 'No Recent Files', enabled: false }]
    : [
      ...ctx.recent.map((entry): MenuItemConstructorOptions => ({
        label: `${label(entry.name)}${entry.kind === 'creature' ? '  (creature)' : ''}`,
        toolTip: entry.path,
        click: () => ctx.send({ kind: 'open-recent', entry }),
      })),
      { type: 'separator' },
      { label: 'Clear Recent', click: () => ctx.clearRecent() },
    ];

  const file: MenuItemConstructorOptions[] = [
    command('New', 'new', 'CmdOrCtrl+N'),
    { type: 'separator' },
    command('Open Creature…', 'open-creature', 'CmdOrCtrl+O'),
    command('Open Project…', 'open-project', 'CmdOrCtrl+Shift+O'),
    { label: 'Open Recent', submenu: recentItems },
  ];
  if (ctx.examples.length > 0) {
    file.push({
      label: 'Examples',
      submenu: ctx.examples.map((ex) => ({ label: label(exampleLabel(ex.name)), click: () => ctx.send({ kind: 'open-example', name: ex.name, path: ex.path }) })),
    });
  }
  file.push(
    { type: 'separator' },
    command('Save', 'save', 'CmdOrCtrl+S'),
    command('Save As…', 'save-as', 'CmdOrCtrl+Shift+S'),
    { label: 'Export', submenu: [
      command('Rig JSON…', 'export-rig', 'CmdOrCtrl+E'),
      command('MJCF (MuJoCo)…', { kind: 'export', format: 'mjcf' }),
      command('glTF + KHR Physics (Draft)…', { kind: 'export', format: 'gltf' }),
    ] },
  );
  if (!isMac) file.push({ type: 'separator' }, { role: 'quit' });

  const edit: MenuItemConstructorOptions[] = [
    // Undo/redo act on the rig document (the renderer routes them to a focused text field itself).
    command('Undo', 'undo', 'CmdOrCtrl+Z'),
    command('Redo', 'redo', isMac ? 'Cmd+Shift+Z' : ctx.platform === 'win32' ? 'Ctrl+Y' : 'Ctrl+Shift+Z'),
    { type: 'separator' },
    // The clipboard roles make copy/paste work in the inspector's text fields (on macOS only through the menu).
    { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' },
  ];

  const view: MenuItemConstructorOptions[] = [
    // "F" is shown but not registered: a menu accelerator without a modifier would swallow the key while
    // the user types in a text field. The viewport handles F itself; the menu item is the discoverable path.
    { label: 'Frame Selection', accelerator: 'F', registerAccelerator: false, click: () => ctx.send('frame-selection') },
    command('Toggle Skeleton', 'toggle-skeleton', 'CmdOrCtrl+Shift+K'),
    { type: 'separator' },
    // The preview's overlays and camera follow: plain toggles (the renderer holds their state and shows it
    // in its toolbar), so the native menu never disagrees with what is on screen.
    ...PREVIEW_OVERLAYS.map(([text, overlay]) => command(text, { kind: 'toggle-overlay', overlay })),
    { label: 'Toggle Follow Creature', accelerator: 'C', registerAccelerator: false, click: () => ctx.send('toggle-follow') },
    { type: 'separator' },
    command('Preview with Rigid Solver', { kind: 'set-solver', solver: 'rigid' }),
    command('Preview with Articulated Solver', { kind: 'set-solver', solver: 'articulated' }),
    command('Preview with Particle Solver', { kind: 'set-solver', solver: 'particle' }),
    { type: 'separator' },
    { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (ctx.isDev) view.push({ type: 'separator' }, { role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' });

  // Authoring actions on the open creature; the renderer says why when one cannot apply yet (no creature,
  // no bodies), so the items stay enabled here (main does not track the document).
  const rig: MenuItemConstructorOptions[] = [
    command('Generate Bodies from Skeleton…', 'generate-bodies'),
    { type: 'separator' },
    command('Mirror Left → Right', 'mirror-left-to-right'),
    command('Fix Mass Ratios', 'fix-mass-ratios'),
    command('Fix Rest Overlaps', 'fix-rest-overlaps'),
    command('Apply Rig From…', 'apply-rig-from'),
    { type: 'separator' },
    command('Go Limp (All Joints)', 'go-limp-all'),
    command('Power On (All Joints)', 'power-on-all'),
    command('Clear Preview Inputs', 'clear-inputs'),
  ];

  const about: MenuItemConstructorOptions = { label: `About ${ctx.appName}`, click: () => ctx.showAbout() };
  const help: MenuItemConstructorOptions[] = [];
  if (ctx.hasDocumentation) help.push({ label: 'Documentation', click: () => ctx.openDocumentation() });
  if (!isMac) help.push(...(help.length > 0 ? [{ type: 'separator' } as const] : []), about);

  const template: MenuItemConstructorOptions[] = [];
  if (isMac) {
    template.push({
      label: ctx.appName,
      submenu: [about, { type: 'separator' }, { role: 'services' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }],
    });
  }
  template.push({ label: '&File', submenu: file }, { label: '&Edit', submenu: edit }, { label: '&View', submenu: view }, { label: '&Rig', submenu: rig });
  if (isMac) template.push({ role: 'windowMenu' });
  if (help.length > 0) template.push({ label: '&Help', role: 'help', submenu: help });
  return template;
}
