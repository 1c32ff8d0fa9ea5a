/**
 * The platform requests of shared/ipc.ts, carried out. Everything Electron-specific (dialogs, the close
 * guard, the menu) comes in through `PlatformServices`, so this dispatch and the IPC guard are tested
 * with plain objects.
 */
import type { z } from 'zod';
import type { RecentEntry, PickedFile } from '../shared/platform';
import type { IpcResult, PlatformRequest, PlatformResponses, TextFile, SavedFile } from '../shared/ipc';
import { parseMessage, platformRequestSchema } from './ipcSchemas';
import { checkSender, type AppOrigins, type IpcSender } from './security';

export interface PlatformServices {
  /** Native dialogs; null when the user cancels. */
  chooseCreature(missingPath: string | undefined): Promise<string | null>;
  chooseProject(): Promise<string | null>;
  chooseSaveProject(suggestedName: string): Promise<string | null>;
  chooseExportRig(suggestedName: string): Promise<string | null>;
  readCreature(path: string): Promise<PickedFile>;
  readProject(path: string): Promise<TextFile>;
  writeFile(path: string, text: string): Promise<void>;
  recentFiles(): Promise<RecentEntry[]>;
  addRecent(entry: Omit<RecentEntry, 'openedAt'>): Promise<void>;
  writeAutosave(text: string): Promise<void>;
  readAutosave(): Promise<{ text: string; savedAt: number } | null>;
  clearAutosave(): Promise<void>;
  /** A project save finished (closes the window when the user chose "Save" at the close prompt). */
  projectSaveFinished(outcome: 'saved' | 'cancelled' | 'failed'): void;
}

const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p;

export async function performRequest<R extends PlatformRequest>(request: R, services: PlatformServices): Promise<PlatformResponses[R['type']]> {
  type Out = PlatformResponses[R['type']];
  const r = request as PlatformRequest;
  switch (r.type) {
    case 'pick-creature': {
      const chosen = await services.chooseCreature(r.missingPath);
      if (chosen === null) return null as Out;
      const picked = await services.readCreature(chosen);
      await services.addRecent({ kind: 'creature', path: picked.path!, name: picked.name });
      return picked as Out;
    }
    case 'read-creature':
      return (await services.readCreature(r.path)) as Out;
    case 'pick-project': {
      const chosen = await services.chooseProject();
      if (chosen === null) return null as Out;
      const file = await services.readProject(chosen);
      await services.addRecent({ kind: 'project', path: file.path!, name: file.name });
      return file as Out;
    }
    case 'read-project':
      return (await services.readProject(r.path)) as Out;
    case 'save-project': {
      let target: string | null;
      try {
        target = r.path ?? (await services.chooseSaveProject(r.suggestedName));
        if (target === null) {
          services.projectSaveFinished('cancelled');
          return null as Out;
        }
        await services.writeFile(target, r.text);
      } catch (error) {
        services.projectSaveFinished('failed');
        throw error;
      }
      const saved: SavedFile = { path: target, name: baseName(target) };
      await services.clearAutosave();
      await services.addRecent({ kind: 'project', path: saved.path, name: saved.name });
      services.projectSaveFinished('saved');
      return saved as Out;
    }
    case 'export-rig': {
      const target = await services.chooseExportRig(r.suggestedName);
      if (target === null) return null as Out;
      await services.writeFile(target, r.text);
      return { path: target, name: baseName(target) } as Out;
    }
    case 'recent-files':
      return (await services.recentFiles()) as Out;
    case 'add-recent':
      return (await services.addRecent(r.entry)) as Out;
    case 'write-autosave':
      return (await services.writeAutosave(r.text)) as Out;
    case 'read-autosave':
      return (await services.readAutosave()) as Out;
    case 'clear-autosave':
      return (await services.clearAutosave()) as Out;
  }
}

/**
 * Wrap a handler with the two checks every IPC entry point makes: the sender is one of the app's pages,
 * and the payload matches its schema. Failures (and exceptions from the handler) come back as
 * `{ ok: false, error }` with a message the preload rethrows.
 */
export function guardHandler<S extends z.ZodType, T>(
  origins: AppOrigins,
  schema: S,
  what: string,
  handler: (payload: z.infer<S>) => Promise<T>,
  log: (message: string) => void = (m) => console.warn(m),
): (event: IpcSender, payload: unknown) => Promise<IpcResult<T>> {
  return async (event, payload) => {
    const sender = checkSender(event, origins);
    if (!sender.ok) {
      log(`Marionette refused ${what}: ${sender.reason}`);
      return { ok: false, error: `Refused ${what}: ${sender.reason}.` };
    }
    try {
      const valid = parseMessage(schema, payload, what);
      return { ok: true, value: await handler(valid) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  };
}

export function platformRequestHandler(origins: AppOrigins, services: PlatformServices) {
  return guardHandler(origins, platformRequestSchema, 'platform request', (request) => performRequest(request, services));
}
