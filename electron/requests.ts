/**
 * The platform requests of shared/ipc.ts, carried out. Everything Electron-specific (dialogs, the close
 * guard, the menu) comes in through `PlatformServices`, so this dispatch and the IPC guard are tested
 * with plain objects.
 */
import type { z } from 'zod';
import * as path from 'node:path';
import type { ExportFileFormat, RecentEntry, PickedFile } from '../shared/platform';
import type { GrantedFile, IpcResult, NativePickedFile, NativeTextFile, PlatformRequest, PlatformResponses, TextFile } from '../shared/ipc';
import { creatureFormatOf, isAbsolutePath, resolveCreaturePath } from '../shared/project';
import { rightsFor, type FileGrants } from './capabilities';
import { isInsideFolder } from './files';
import { parseMessage, platformRequestSchema } from './ipcSchemas';
import { checkSender, type AppOrigins, type IpcSender } from './security';

/** File › Export: the extension each format is written with. */
const EXPORT_EXTENSIONS: Record<ExportFileFormat, RegExp> = { rig: /\.json$/i, mjcf: /\.xml$/i, gltf: /\.glb$/i };
const EXPORT_RULES: Record<ExportFileFormat, string> = { rig: 'a rig is exported as a .json file', mjcf: 'an MJCF export is a .xml file', gltf: 'a glTF export is a .glb file' };

export interface PlatformServices {
  /** The handles main issued this session (electron/capabilities.ts): the only way to name a file. */
  grants: FileGrants;
  /** Native dialogs; null when the user cancels. */
  chooseCreature(missingPath: string | undefined): Promise<string | null>;
  /** purpose 'apply-rig': titled for Rig › Apply Rig From…. */
  chooseProject(purpose?: 'apply-rig'): Promise<string | null>;
  chooseSaveProject(suggestedName: string): Promise<string | null>;
  chooseExportRig(suggestedName: string, format: ExportFileFormat): Promise<string | null>;
  /** Read a creature and its sibling files (.bin and images it names, beside it): electron/files.ts. */
  readCreature(path: string): Promise<PickedFile>;
  /** The page says the user dropped this creature file: ask the user (a main-process dialog naming it) whether
   *  to open it. The page's word proves nothing — a compromised page could name any file. */
  confirmDroppedCreature(path: string): Promise<boolean>;
  /** A project the user opened names its creature outside the project's folder: ask whether to open it. */
  confirmOutsideCreature(projectPath: string, creaturePath: string): Promise<boolean>;
  readProject(path: string): Promise<TextFile>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  recentFiles(): Promise<RecentEntry[]>;
  addRecent(entry: Omit<RecentEntry, 'openedAt'>): Promise<void>;
  /** `creaturePath`: the autosaved document's creature when it was granted for reading when written. */
  writeAutosave(text: string, creaturePath: string | null): Promise<void>;
  readAutosave(): Promise<{ text: string; savedAt: number; creaturePath?: string | null } | null>;
  clearAutosave(): Promise<void>;
  /** A project save finished (closes the window when the user chose "Save" at the close prompt). */
  projectSaveFinished(outcome: 'saved' | 'cancelled' | 'failed'): void;
}

const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p;

/** The creature path a project (or autosave) text names, resolved against the project's own path; null
 *  when the text is not JSON, names no creature file, or names a relative path with nothing to resolve it. */
export function projectCreaturePath(text: string, projectPath: string | null): string | null {
  let stored: unknown;
  try {
    stored = (JSON.parse(text) as { creature?: { path?: unknown } } | null)?.creature?.path;
  } catch {
    return null;
  }
  if (typeof stored !== 'string' || stored === '' || stored.length > 4096 || stored.includes('\0')) return null;
  const resolved = resolveCreaturePath(projectPath, stored);
  return isAbsolutePath(resolved) && creatureFormatOf(resolved) !== null ? resolved : null;
}

function grantCreature(grants: FileGrants, creaturePath: string | null): GrantedFile | null {
  if (creaturePath === null) return null;
  const handle = grants.grant(creaturePath, ['read-creature']);
  return handle === null ? null : { path: creaturePath, handle };
}

function withHandle(grants: FileGrants, picked: PickedFile, file: string): NativePickedFile {
  const handle = grants.grant(file, ['read-creature']);
  if (handle === null) throw new Error(`${path.basename(file)}: not a creature file Marionette opens (.glb, .gltf, .fbx or MuJoCo .xml).`);
  return { ...picked, path: path.resolve(file), handle };
}

/**
 * The creature a project the user opened may read. The project file is not the user's choice of creature —
 * a project from elsewhere could name `~/.ssh/id_rsa.glb` — so its creature is granted only when it lies
 * inside the project's own folder (or a subfolder, symlinks resolved), when the user already opened that
 * creature (this session or on the recent list), or when the user says so in main's dialog. Otherwise the
 * project is refused with a message naming it and the path.
 */
async function projectCreature(services: PlatformServices, projectPath: string, text: string): Promise<GrantedFile | null> {
  const { grants } = services;
  const creature = projectCreaturePath(text, projectPath);
  if (creature === null) return null;
  const folder = path.dirname(projectPath);
  const trusted = (await isInsideFolder(creature, folder))
    || grants.pathAllows(creature, 'read-creature')
    || (await services.recentFiles()).some((entry) => entry.kind === 'creature' && path.resolve(entry.path) === path.resolve(creature))
    || (await services.confirmOutsideCreature(projectPath, creature));
  if (!trusted) {
    throw new Error(`Refused: ${path.basename(projectPath)} names its creature ${creature}, outside the project's folder (${folder}); the project was not opened. Move the creature into the project's folder, or open it first with File ▸ Open Creature….`);
  }
  return grantCreature(grants, creature);
}

/** A project the user opened, with its handle (read, and save back for .marionette) and its creature's. */
async function projectWithHandles(services: PlatformServices, file: TextFile, absolute: string): Promise<NativeTextFile> {
  const creature = await projectCreature(services, absolute, file.text);
  const handle = services.grants.grant(absolute, rightsFor(absolute))!;
  return { ...file, path: absolute, handle, creature };
}

/** Any entry point may hand a file over from the OS (command line, "Open with", open-file): grant it. */
export function grantLaunchFile<E extends { path: string }>(grants: FileGrants, entry: E): E & { handle?: string } {
  const handle = grants.grant(entry.path, rightsFor(entry.path));
  return handle === null ? entry : { ...entry, handle };
}

export async function performRequest<R extends PlatformRequest>(request: R, services: PlatformServices): Promise<PlatformResponses[R['type']]> {
  type Out = PlatformResponses[R['type']];
  const r = request as PlatformRequest;
  const { grants } = services;
  switch (r.type) {
    case 'pick-creature': {
      const chosen = await services.chooseCreature(r.missingPath);
      if (chosen === null) return null as Out;
      const absolute = path.resolve(chosen);
      if (creatureFormatOf(absolute) === null) throw new Error(`${path.basename(absolute)}: not a creature file Marionette opens (.glb, .gltf, .fbx or MuJoCo .xml).`);
      const picked = withHandle(grants, await services.readCreature(absolute), absolute);
      await services.addRecent({ kind: 'creature', path: picked.path, name: picked.name });
      return picked as Out;
    }
    case 'read-creature': {
      const file = grants.resolve(r.handle, 'read-creature');
      return withHandle(grants, await services.readCreature(file), file) as Out;
    }
    case 'open-dropped-creature': {
      const absolute = path.resolve(r.path);
      // Nothing but a creature file is even asked about.
      if (!path.isAbsolute(r.path) || creatureFormatOf(absolute) === null) {
        throw new Error(`Refused: ${path.basename(absolute)} is not a creature file Marionette opens (.glb, .gltf, .fbx or MuJoCo .xml).`);
      }
      // The page's word that the user dropped it proves nothing: the user confirms in main's dialog, unless
      // the window already holds this file.
      if (!grants.pathAllows(absolute, 'read-creature') && !(await services.confirmDroppedCreature(absolute))) return null as Out;
      const picked = withHandle(grants, await services.readCreature(absolute), absolute);
      await services.addRecent({ kind: 'creature', path: picked.path, name: picked.name });
      return picked as Out;
    }
    case 'pick-project': {
      const chosen = await services.chooseProject(r.purpose);
      if (chosen === null) return null as Out;
      const absolute = path.resolve(chosen);
      if (r.purpose === 'apply-rig') {
        // Read for its rig only: no creature to grant (or ask about), not a recent project.
        const handle = grants.grant(absolute, ['read-project']);
        if (handle === null) throw new Error(`${path.basename(absolute)}: not a rig (.json) or Marionette project (.marionette) file.`);
        return { ...(await services.readProject(absolute)), path: absolute, handle, creature: null } as Out;
      }
      if (grants.grant(absolute, ['read-project']) === null) throw new Error(`${path.basename(absolute)}: not a Marionette project (.marionette) or rig (.json) file.`);
      const file = await projectWithHandles(services, await services.readProject(absolute), absolute);
      await services.addRecent({ kind: 'project', path: file.path, name: file.name });
      return file as Out;
    }
    case 'read-project': {
      const file = grants.resolve(r.handle, 'read-project');
      return (await projectWithHandles(services, await services.readProject(file), file)) as Out;
    }
    case 'save-project': {
      let target: string | null;
      try {
        // A handle that is not main's is refused outright; one without the right to save over it (an opened
        // .json, an example) asks, as Save As does.
        if (r.handle !== null) grants.resolve(r.handle, 'read-project');
        target = r.handle !== null && grants.allows(r.handle, 'write-project')
          ? grants.resolve(r.handle, 'write-project')
          : await services.chooseSaveProject(r.suggestedName);
        if (target === null) {
          services.projectSaveFinished('cancelled');
          return null as Out;
        }
        target = path.resolve(target);
        if (grants.grant(target, ['read-project', 'write-project']) === null || !grants.pathAllows(target, 'write-project')) {
          throw new Error(`${path.basename(target)}: projects are saved as .marionette files.`);
        }
        await services.writeFile(target, r.text);
      } catch (error) {
        services.projectSaveFinished('failed');
        throw error;
      }
      const saved = { path: target, name: baseName(target), handle: grants.grant(target, ['read-project', 'write-project'])! };
      await services.clearAutosave();
      await services.addRecent({ kind: 'project', path: saved.path, name: saved.name });
      services.projectSaveFinished('saved');
      return saved as Out;
    }
    case 'export-rig': {
      const format = r.format ?? 'rig';
      const target = await services.chooseExportRig(r.suggestedName, format);
      if (target === null) return null as Out;
      const ext = EXPORT_EXTENSIONS[format];
      if (!ext.test(target)) throw new Error(`${path.basename(target)}: ${EXPORT_RULES[format]}.`);
      if (format === 'gltf' && !r.bytes) throw new Error('a glTF export needs its bytes');
      await services.writeFile(target, format === 'gltf' ? r.bytes! : r.text);
      return { path: target, name: baseName(target) } as Out;
    }
    case 'recent-files': {
      const out = [];
      for (const entry of await services.recentFiles()) {
        const handle = grants.grant(entry.path, rightsFor(entry.path));
        if (handle !== null) out.push({ ...entry, handle });
      }
      return out as Out;
    }
    case 'add-recent': {
      const creature = grants.allows(r.handle, 'read-creature');
      const file = grants.resolve(r.handle, creature ? 'read-creature' : 'read-project');
      return (await services.addRecent({ kind: creature ? 'creature' : 'project', path: file, name: baseName(file) })) as Out;
    }
    case 'write-autosave': {
      // Only a creature this window may already read is remembered with the autosave (and granted again after
      // a crash): the text itself comes from the page and proves nothing.
      const creature = projectCreaturePath(r.text, null);
      return (await services.writeAutosave(r.text, creature !== null && grants.pathAllows(creature, 'read-creature') ? creature : null)) as Out;
    }
    case 'read-autosave': {
      const saved = await services.readAutosave();
      if (saved === null) return null as Out;
      return { text: saved.text, savedAt: saved.savedAt, creature: grantCreature(grants, saved.creaturePath ?? null) } as Out;
    }
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
