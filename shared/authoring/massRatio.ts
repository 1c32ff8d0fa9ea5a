/**
 * Mass-ratio check: jointed pairs whose masses, or inertias, differ by more than a limit (10× by default)
 * — the most reported cause of ragdoll explosions (a sequential-impulse solver converges slowly when a
 * light body sits between heavy ones). Inertia is compared by the largest principal moment about each
 * body's centre of mass. The fix rescales the lighter body's mass up to heavier / limit (its density or
 * mass field, whichever it uses). It fixes the mass ratio only: an inertia ratio that remains comes from
 * the shapes (a thin arm on a broad chest — inertia grows with size², so no sane mass fixes it) and is
 * left flagged for the artist (fatten the light shape, or accept it: the position-level joint correction
 * copes with inertia ratios far better than with mass ratios).
 */
import { computeMassProperties } from '../physics/massProperties';
import type { ShapeDesc } from '../physics/types';
import type { RigBody, RigDocument } from '../rig/schema';

export interface MassRatioIssue {
  joint: string;
  heavy: string;
  light: string;
  massRatio: number;
  inertiaRatio: number;
  /** What the fix sets the light body's mass to (kg). */
  suggestedMass: number;
}

const propsOf = (b: RigBody) => computeMassProperties(b.shapes as readonly ShapeDesc[], b.mass !== null ? { mass: b.mass } : { density: b.density ?? 1000 });
const maxMoment = (I: readonly number[]) => Math.max(I[0]!, I[4]!, I[8]!);

export function checkMassRatios(rig: RigDocument, limit = 10): MassRatioIssue[] {
  const props = new Map(rig.bodies.map((b) => [b.name, propsOf(b)]));
  const issues: MassRatioIssue[] = [];
  for (const j of rig.joints) {
    const a = props.get(j.bodyA), b = props.get(j.bodyB);
    if (!a || !b) continue;
    const [heavy, light, hp, lp] = a.mass >= b.mass ? [j.bodyA, j.bodyB, a, b] : [j.bodyB, j.bodyA, b, a];
    const massRatio = hp.mass / lp.mass;
    const ia = maxMoment(a.inertia), ib = maxMoment(b.inertia);
    const inertiaRatio = Math.max(ia, ib) / Math.min(ia, ib);
    if (massRatio > limit || inertiaRatio > limit) {
      issues.push({ joint: j.name, heavy, light, massRatio, inertiaRatio, suggestedMass: Math.max(lp.mass, hp.mass / limit) });
    }
  }
  return issues;
}

/** Applies every fix (one click): each light body gets the largest mass any of its issues asks for. */
export function fixMassRatios(rig: RigDocument, limit = 10): RigDocument {
  let doc = rig;
  // Fixing one pair can change another (a body between two others); a few passes settle a tree.
  for (let pass = 0; pass < 8; pass++) {
    const issues = checkMassRatios(doc, limit).filter((i) => i.massRatio > limit);
    if (issues.length === 0) break;
    const target = new Map<string, number>();
    for (const i of issues) target.set(i.light, Math.max(target.get(i.light) ?? 0, i.suggestedMass * (1 + 1e-9)));
    doc = { ...doc, bodies: doc.bodies.map((b) => {
      const m = target.get(b.name);
      if (m === undefined) return b;
      const current = propsOf(b).mass;
      const { computed: _drop, ...rest } = b;
      return b.mass !== null ? { ...rest, mass: m } : { ...rest, density: (b.density ?? 1000) * (m / current) };
    }) };
  }
  return doc;
}
