/**
 * A project file's text ↔ EditorDocument. The file is JSON: `{ format, version, document }`. Reading
 * checks every field it relies on and names the first bad one, so a hand-edited or foreign file gives a
 * message the user can act on instead of a broken editor.
 */
import type { BoneSettings, CreatureRef, EditorDocument } from './editorDocument';

export const PROJECT_FORMAT = 'marionette-project';
export const PROJECT_VERSION = 1;
export const PROJECT_EXTENSION = '.marionette.json';

export function serializeProject(doc: EditorDocument): string {
  return JSON.stringify({ format: PROJECT_FORMAT, version: PROJECT_VERSION, document: doc }, null, 2) + '\n';
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseProject(text: string, fileName: string): EditorDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${fileName}: not a Marionette project (invalid JSON: ${e instanceof Error ? e.message : String(e)})`);
  }
  const fail = (field: string, why: string): never => { throw new Error(`${fileName}: ${field} ${why}`); };
  if (!isObj(raw)) return fail('file', 'must be a JSON object');
  if (raw.format !== PROJECT_FORMAT) return fail('"format"', `must be "${PROJECT_FORMAT}" (got ${JSON.stringify(raw.format)})`);
  if (raw.version !== PROJECT_VERSION) return fail('"version"', `${JSON.stringify(raw.version)} is not supported (this Marionette reads version ${PROJECT_VERSION})`);
  const d = raw.document;
  if (!isObj(d)) return fail('"document"', 'must be an object');
  if (typeof d.name !== 'string' || d.name.trim() === '') return fail('document.name', 'must be a non-empty string');
  let creature: CreatureRef | null = null;
  if (d.creature !== null) {
    const c = d.creature;
    if (!isObj(c)) return fail('document.creature', 'must be an object or null');
    if (typeof c.fileName !== 'string' || c.fileName === '') return fail('document.creature.fileName', 'must be a non-empty string');
    if (c.path !== null && typeof c.path !== 'string') return fail('document.creature.path', 'must be a string or null');
    if (c.builtin !== null && typeof c.builtin !== 'string') return fail('document.creature.builtin', 'must be a string or null');
    creature = { fileName: c.fileName, path: c.path as string | null, builtin: c.builtin as string | null };
  }
  const rig = d.rig;
  if (!isObj(rig)) return fail('document.rig', 'must be an object');
  if (!Array.isArray(rig.bones)) return fail('document.rig.bones', 'must be an array');
  const bones: BoneSettings[] = rig.bones.map((b: unknown, i: number) => {
    if (!isObj(b)) return fail(`document.rig.bones[${i}]`, 'must be an object');
    if (typeof b.bone !== 'string' || b.bone === '') return fail(`document.rig.bones[${i}].bone`, 'must be a non-empty string');
    if (typeof b.includeInRagdoll !== 'boolean') return fail(`document.rig.bones[${i}].includeInRagdoll`, 'must be true or false');
    if (typeof b.note !== 'string') return fail(`document.rig.bones[${i}].note`, 'must be a string');
    return { bone: b.bone, includeInRagdoll: b.includeInRagdoll, note: b.note };
  });
  const list = (key: 'bodies' | 'joints'): unknown[] => {
    const v = rig[key];
    if (v === undefined) return [];
    return Array.isArray(v) ? v : fail(`document.rig.${key}`, 'must be an array');
  };
  return { name: d.name, creature, rig: { bones, bodies: list('bodies'), joints: list('joints') } };
}
