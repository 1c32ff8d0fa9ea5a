/** Installs the application menu and rebuilds it when the recent list changes. */
import { Menu } from 'electron';
import { buildMenuTemplate, type MenuContext } from './menuTemplate';
import type { RecentEntry } from '../shared/platform';

export class MenuManager {
  private recent: readonly RecentEntry[] = [];

  constructor(private readonly context: Omit<MenuContext, 'recent'>) {}

  initialize(recent: readonly RecentEntry[]): void {
    this.update(recent);
  }

  update(recent: readonly RecentEntry[]): void {
    this.recent = recent;
    Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate({ ...this.context, recent: this.recent })));
  }

  dispose(): void {
    Menu.setApplicationMenu(null);
  }
}
