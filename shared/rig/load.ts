/** Loading and saving rig files: the two calls a game or tool needs. */
import { RigError, validateRig, type ValidateOptions } from './validate';
import type { RigDocument } from './schema';

/**
 * A validated, migrated RigDocument from JSON text or an already-parsed value. Throws RigError listing every
 * problem (path + sentence); a newer format version than this code knows is refused, never half-read.
 * `source` (a file name) prefixes the error message.
 */
export function loadRig(input: unknown, options: ValidateOptions & { source?: string } = {}): RigDocument {
  const result = validateRig(input, options);
  if (!result.ok) throw new RigError(result.problems, options.source);
  return result.rig;
}

/**
 * The rig as JSON text, the way the editor's export writes it: 2-space indented, arrays of plain values
 * (vectors, quaternions, inertia) on one line so a diff shows which number changed, trailing newline.
 * JSON.parse(serializeRig(rig)) deep-equals rig.
 */
export function serializeRig(rig: RigDocument): string {
  return `${pretty(rig, '')}\n`;
}

function pretty(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) return `[${value.map((v) => JSON.stringify(v) ?? 'null').join(', ')}]`;
    return `[\n${value.map((v) => inner + pretty(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pretty(v, inner)}`).join(',\n')}\n${indent}}`;
}
