/**
 * The Electron bridge's path → handle table (bridge.ts). Pure, so it is tested without a window.
 */
import type { MenuCommand } from '../../../shared/platform';
import type { GrantedFile } from '../../../shared/ipc';

/**
 * The UI names files by path (it shows them and stores them relative in projects); main accepts only the
 * opaque handles it issued. This table maps each path main granted — returned from a dialog, the recent
 * list, a menu command, a drop, or as the creature of an opened project or autosave — to its handle. A path
 * main never granted has no handle and is refused here, before any request.
 */
export function createHandleTable() {
  const handles = new Map<string, string>();
  const keep = (file: { path: string; handle?: string } | GrantedFile | null | undefined): void => {
    if (file?.handle !== undefined) handles.set(file.path, file.handle);
  };
  return {
    keep,
    /** Record the handles a menu command carries (open-recent, open-example). */
    keepCommand(command: MenuCommand): void {
      if (typeof command !== 'object') return;
      if (command.kind === 'open-recent') keep(command.entry);
      else if (command.kind === 'open-example' && command.path !== undefined && command.handle !== undefined) keep({ path: command.path, handle: command.handle });
    },
    handleOf: (file: string): string | undefined => handles.get(file),
    /** The handle of `file`, or an Error that names it: the window was not given that file. */
    require(file: string): string {
      const handle = handles.get(file);
      if (handle === undefined) throw new Error(`${file}: this file was not opened in this session (open it with File ▸ Open… or Open Recent).`);
      return handle;
    },
  };
}

