/**
 * zod schemas for every message the renderer sends main (shared/ipc.ts lists the types). Main runs each
 * payload through these before acting; the compile-time checks at the bottom keep schema and type equal.
 */
import { z } from 'zod';
import { MAX_TEXT_LENGTH, type DocumentState, type PlatformRequest } from '../shared/ipc';
import { HANDLE_PATTERN } from './capabilities';

const MAX_PATH_LENGTH = 4096;
const MAX_NAME_LENGTH = 255;

const path = z.string().min(1, 'must be a non-empty path').max(MAX_PATH_LENGTH, `must be at most ${MAX_PATH_LENGTH} characters`)
  .refine((p) => !p.includes('\0'), 'must not contain a NUL character');
const fileName = z.string().min(1, 'must be a non-empty file name').max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .refine((n) => !/[\\/\0]/.test(n), 'must be a bare file name (no slashes)');
/** An opaque file handle main issued (electron/capabilities.ts); its form only, the grant is checked after. */
const handle = z.string().regex(HANDLE_PATTERN, 'must be a file handle issued by Marionette (not a path)');
const text = z.string().max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`);

export const platformRequestSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('pick-creature'), missingPath: path.optional() }),
  z.strictObject({ type: z.literal('read-creature'), handle }),
  z.strictObject({ type: z.literal('open-dropped-creature'), path }),
  z.strictObject({ type: z.literal('pick-project'), purpose: z.literal('apply-rig').optional() }),
  z.strictObject({ type: z.literal('read-project'), handle }),
  z.strictObject({ type: z.literal('save-project'), text, handle: handle.nullable(), suggestedName: fileName }),
  z.strictObject({
    type: z.literal('export-rig'), text, suggestedName: fileName, format: z.enum(['rig', 'mjcf', 'gltf']).optional(),
    bytes: z.instanceof(Uint8Array).refine((b) => b.byteLength <= MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} bytes`).optional(),
  }),
  z.strictObject({ type: z.literal('recent-files') }),
  z.strictObject({ type: z.literal('add-recent'), handle }),
  z.strictObject({ type: z.literal('write-autosave'), text }),
  z.strictObject({ type: z.literal('read-autosave') }),
  z.strictObject({ type: z.literal('clear-autosave') }),
], { error: (issue) => (issue.code === 'invalid_union' ? `must be one of the platform requests (got type ${JSON.stringify((issue.input as { type?: unknown } | undefined)?.type)})` : undefined) });

export const documentStateSchema = z.strictObject({
  title: z.string().max(MAX_NAME_LENGTH * 2, `must be at most ${MAX_NAME_LENGTH * 2} characters`),
  dirty: z.boolean(),
});

/** Validate a message against a schema; on failure an Error whose message names each bad field. */
export function parseMessage<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(message)';
    return `${field}: ${issue.message}`;
  });
  throw new Error(`Rejected ${what}: ${problems.join('; ')}`);
}

// Schema and shared type must describe the same messages, both ways.
type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const requestMatches: Equal<z.infer<typeof platformRequestSchema>, PlatformRequest> = true;
const stateMatches: Equal<z.infer<typeof documentStateSchema>, DocumentState> = true;
void requestMatches;
void stateMatches;
