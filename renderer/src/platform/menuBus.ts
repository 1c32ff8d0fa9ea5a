/**
 * Menu commands inside the renderer: from the native menu (Electron), the in-app menu bar (web build),
 * toolbar buttons or keyboard shortcuts — all reach the same onMenuCommand listeners. Commands that arrive
 * before anyone listens (a file opened from the OS while React is still mounting) wait for the first one.
 */
import type { MenuCommand } from '../../../shared/platform';

export interface MenuBus {
  dispatch(command: MenuCommand): void;
  subscribe(listener: (command: MenuCommand) => void): () => void;
}

export function createMenuBus(): MenuBus {
  const listeners = new Set<(command: MenuCommand) => void>();
  const pending: MenuCommand[] = [];
  return {
    dispatch(command) {
      if (listeners.size === 0) pending.push(command);
      else for (const listener of [...listeners]) listener(command);
    },
    subscribe(listener) {
      listeners.add(listener);
      for (const command of pending.splice(0)) listener(command);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
