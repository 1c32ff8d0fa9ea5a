/**
 * Every edit returns a new document or a clear error naming the field, so the UI can show the message at
 * that field and keep the last valid value. An edit also may not introduce a problem the rig validator
 * finds (shared/rig validateRig): problems the document already had are tolerated (the editor can hold a
 * half-built rig), new ones refuse the edit.
 */
import { validateRig } from '../rig/validate';
import type { RigDocument } from '../rig/schema';

export type EditResult = { ok: true; rig: RigDocument } | { ok: false; field: string; message: string };

export const fail = (field: string, message: string): EditResult => ({ ok: false, field, message });

/** A number field: finite, within [min, max] (or > min when exclusiveMin). */
export function checkNumber(field: string, value: unknown, range: { min?: number; max?: number; exclusiveMin?: boolean; unit?: string } = {}): EditResult | null {
  const unit = range.unit ? ` ${range.unit}` : '';
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail(field, `must be a number${unit}, got ${JSON.stringify(value) ?? String(value)}`);
  if (range.min !== undefined && (range.exclusiveMin ? value <= range.min : value < range.min)) return fail(field, `must be ${range.exclusiveMin ? '>' : '≥'} ${range.min}${unit}, got ${value}`);
  if (range.max !== undefined && value > range.max) return fail(field, `must be ≤ ${range.max}${unit}, got ${value}`);
  return null;
}

/** Problems of a rig as "path: message" keys; an empty rig (no bodies yet) is only checked for that. */
function problemKeys(rig: RigDocument): Map<string, { path: string; message: string }> {
  const out = new Map<string, { path: string; message: string }>();
  // A rig being built may have no bodies yet; the schema's "at least one body" is for export, not editing.
  const probe = rig.bodies.length === 0 ? null : validateRig(rig);
  if (probe && !probe.ok) for (const p of probe.problems) out.set(`${p.path}\u0000${p.message}`, p);
  return out;
}

export function finishEdit(before: RigDocument, after: RigDocument): EditResult {
  const old = problemKeys(before);
  for (const [key, p] of problemKeys(after)) if (!old.has(key)) return fail(p.path, p.message);
  return { ok: true, rig: after };
}
