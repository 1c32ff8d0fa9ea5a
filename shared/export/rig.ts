/**
 * Format `rig`: the rig JSON a game loads with loadRig(), with every body's `computed` block (mass, centre
 * of mass, inertia) recomputed from its shapes — docs/rig-format.md promises it in every exported file, so
 * the CLI and the editor both come through here.
 */
import { computeMassProperties } from '../physics/massProperties';
import type { MassProperties, ShapeDesc } from '../physics/types';
import { serializeRig } from '../rig/load';
import type { RigBody, RigDocument } from '../rig/schema';

export function bodyMassProperties(b: RigBody): MassProperties {
  return computeMassProperties(b.shapes as readonly ShapeDesc[], b.mass !== null ? { mass: b.mass } : { density: b.density ?? 1000 });
}

/** The export form of a rig: every body's `computed` block recomputed from its shapes. */
export function withComputedMass(rig: RigDocument): RigDocument {
  return { ...rig, bodies: rig.bodies.map((b) => ({ ...b, computed: bodyMassProperties(b) })) };
}

/** A project's rig may carry stale `computed` blocks (they are an export product): drop them before validating. */
export function stripComputed(rig: unknown): unknown {
  if (!rig || typeof rig !== 'object' || !Array.isArray((rig as { bodies?: unknown }).bodies)) return rig;
  const r = rig as { bodies: unknown[] };
  return { ...r, bodies: r.bodies.map((b) => (b && typeof b === 'object' && !Array.isArray(b) ? (({ computed: _c, ...rest }) => rest)(b as Record<string, unknown>) : b)) };
}

export function writeRigJson(rig: RigDocument): string {
  return serializeRig(withComputedMass(rig));
}
