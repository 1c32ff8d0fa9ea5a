/**
 * The Marionette project file (`*.marionette`, JSON): which creature, and the rig document built for it.
 *
 *   { "format": "marionette-project", "version": 2,
 *     "creature": { "name": "armed-mine.glb", "path": "../creatures/armed-mine.glb", "builtin": "armed-mine" },
 *     "rig": { ...RigDocument, opaque here: shared/rig validates it },
 *     "session": { "camera": {...}, "selectedBone": "forearm", "showSkeleton": true },
 *     "preview": { "inputs": [ { "kind": "impulse", "frame": 30, "body": "hand", ... }, ... ] } }
 *
 * Versions: 1 had no `preview`; it opens as a version 2 project without inputs. Version 2 added the
 * preview inputs (pokes, blasts, grabs, go limp / power on, steering targets: shared/preview/input.ts) on
 * the timeline — the experiment the user wants to repeat — written only when there are any.
 * creature.path is relative to the project file ('/'-separated) when possible, else absolute (see
 * paths.ts); null for a creature shipped with the app, which `builtin` then names. `session` is view state
 * worth restoring on open (camera, selection); it is never part of undo.
 */
import { z } from 'zod';
import type { PreviewInput } from '../preview/input';

export const PROJECT_FORMAT = 'marionette-project';
export const PROJECT_VERSION = 2;
/** The versions this Marionette opens (older ones are read as the current one). */
export const PROJECT_VERSIONS = [1, 2] as const;
/** At most this many preview inputs are read from a project (a long grab drag records one per frame). */
export const MAX_PROJECT_INPUTS = 100_000;
export const PROJECT_EXTENSION = 'marionette';

const vec3 = z.tuple([z.number(), z.number(), z.number()]);

const creatureSchema = z.object({
  name: z.string().min(1, 'must be a non-empty file name'),
  path: z.string().min(1, 'must be a non-empty path, or null for a built-in creature').nullable(),
  builtin: z.string().min(1).optional(),
}).refine((c) => c.path !== null || c.builtin !== undefined, { message: 'needs a path, or a builtin creature name when path is null', path: ['path'] });

const sessionSchema = z.looseObject({
  camera: z.object({ position: vec3, target: vec3 }).optional(),
  selectedBone: z.string().nullable().optional(),
  showSkeleton: z.boolean().optional(),
});

const frame = z.number().int('must be a whole frame number').min(0, 'must be a frame number ≥ 0');
const name = z.string().min(1, 'must be a non-empty name');
const previewInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('impulse'), frame, body: name, point: vec3, impulse: vec3 }),
  z.object({ kind: z.literal('blast'), frame, center: vec3, radius: z.number().positive('must be > 0 m'), strength: z.number() }),
  // A drag of the grab tool is one input: its path (keys [frames after `frame`, x, y, z]) and release (shared/preview/input.ts).
  z.object({
    kind: z.literal('grab'), frame, body: name, point: vec3,
    path: z.array(z.tuple([z.number().int('must be a whole number of frames').min(0, 'must be ≥ 0 frames after the grab'), z.number(), z.number(), z.number()])).optional(),
    releaseAfter: z.number().int('must be a whole number of frames').min(0, 'must be ≥ 0 frames after the grab').optional(),
  }),
  z.object({ kind: z.literal('grabMove'), frame, target: vec3 }),
  z.object({ kind: z.literal('release'), frame }),
  z.object({ kind: z.literal('limp'), frame, joints: z.union([z.literal('all'), z.array(name)]), limp: z.boolean() }),
  z.object({ kind: z.literal('target'), frame, target: vec3.nullable() }),
]);

const previewSchema = z.object({
  inputs: z.array(previewInputSchema).max(MAX_PROJECT_INPUTS, `must have at most ${MAX_PROJECT_INPUTS} inputs`),
});

const projectSchema = z.object({
  format: z.literal(PROJECT_FORMAT),
  version: z.union([z.literal(PROJECT_VERSIONS[0]), z.literal(PROJECT_VERSIONS[1])]),
  creature: creatureSchema,
  rig: z.unknown().refine((r) => typeof r === 'object' && r !== null && !Array.isArray(r), 'must be an object (the rig document)'),
  session: sessionSchema.optional(),
  preview: previewSchema.optional(),
});

export type ProjectCreature = z.infer<typeof creatureSchema>;
export type ProjectSession = z.infer<typeof sessionSchema>;
/** What the preview's timeline held when the project was saved (version 2). */
export interface ProjectPreview { inputs: PreviewInput[] }
export interface MarionetteProject {
  format: typeof PROJECT_FORMAT;
  version: typeof PROJECT_VERSION;
  creature: ProjectCreature;
  /** The RigDocument as JSON; shared/rig owns its schema. */
  rig: unknown;
  session?: ProjectSession;
  preview?: ProjectPreview;
}

export class ProjectFileError extends Error {
  constructor(readonly file: string, readonly field: string | null, reason: string) {
    super(field === null ? `${file}: ${reason}` : `${file}: ${field}: ${reason}`);
    this.name = 'ProjectFileError';
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 37)}...` : json;
}

/** Parse project text; `fileName` names the file in every error. */
export function parseProject(text: string, fileName: string): MarionetteProject {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProjectFileError(fileName, null, `not valid JSON (${(error as Error).message}).`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ProjectFileError(fileName, null, 'not a Marionette project (expected a JSON object).');
  const raw = json as Record<string, unknown>;
  if (raw.format !== PROJECT_FORMAT) throw new ProjectFileError(fileName, 'format', `expected "${PROJECT_FORMAT}", got ${describe(raw.format)}; this is not a Marionette project.`);
  if (typeof raw.version === 'number' && raw.version > PROJECT_VERSION) {
    throw new ProjectFileError(fileName, 'version', `${raw.version} is newer than this Marionette understands (${PROJECT_VERSION}); update Marionette to open it.`);
  }
  const result = projectSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.path.map(String).join('.') || null;
    let got: unknown = raw;
    for (const key of issue.path) got = typeof got === 'object' && got !== null ? (got as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined;
    throw new ProjectFileError(fileName, field, `${issue.message} (got ${describe(got)}).`);
  }
  // An older version is read as the current one: version 1 simply has no preview inputs.
  return { ...result.data, version: PROJECT_VERSION } as MarionetteProject;
}

/** Project → file text: 2-space JSON with a final newline (diff-friendly under version control). */
export function serializeProject(project: Omit<MarionetteProject, 'format' | 'version'>): string {
  const out: MarionetteProject = { format: PROJECT_FORMAT, version: PROJECT_VERSION, creature: project.creature, rig: project.rig };
  if (project.session !== undefined) out.session = project.session;
  if (project.preview !== undefined && project.preview.inputs.length > 0) out.preview = project.preview;
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** "robot" → "robot.marionette"; a name that already ends so is kept. */
export function projectFileName(name: string): string {
  const base = name.trim().replace(/[\\/:*?"<>|]+/g, '-') || 'Untitled';
  return base.toLowerCase().endsWith(`.${PROJECT_EXTENSION}`) ? base : `${base}.${PROJECT_EXTENSION}`;
}
