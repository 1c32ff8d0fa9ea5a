/**
 * The JSON Schema (2020-12) of the rig format, generated from the zod schema. It is committed as
 * shared/rig/rig.schema.json and shipped in the package so game pipelines can validate with any JSON
 * Schema tool; a test regenerates it and compares. It covers structure, types and ranges; the cross-
 * references and cycle checks of semantics.ts need `marionette validate` (or validateRig).
 */
import { z } from 'zod';
import { RIG_VERSION, rigSchema } from './schema';

export const RIG_SCHEMA_ID = `https://marionette.dev/schema/rig-v${RIG_VERSION}.schema.json`;

export function rigJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(rigSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: RIG_SCHEMA_ID, title: `Marionette rig, format version ${RIG_VERSION}`, ...rest };
}

/** The schema file's exact text (what `marionette schema` prints and the committed file contains). */
export function rigJsonSchemaText(): string {
  return `${JSON.stringify(rigJsonSchema(), null, 2)}\n`;
}
