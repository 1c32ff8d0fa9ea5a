/**
 * Per-shape mass in the rig format (ballast): optional `mass` / `density` on a shape, accepted by the zod
 * schema and by the generated JSON Schema, combined with the body mass as the physics does, and refused
 * with a path and a reason when it cannot be.
 */
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { loadRig, rigJsonSchema, validateRig, type RigDocument } from '../../../shared/rig';
import { computeMassProperties } from '../../../shared/physics/massProperties';
import type { ShapeDesc } from '../../../shared/physics/types';
import { createSimulation } from '../../../shared/runtime/simulation';
import { fixture, readJson } from './corpus';

/** The pendulum fixture with link1 given a 4 kg lead weight at its far end and a 5 kg total mass. */
function ballasted(): RigDocument {
  const rig = structuredClone(readJson(fixture('rigs/pendulum.rig.json'))) as RigDocument;
  const body = rig.bodies.find((b) => b.name === 'link1')!;
  body.shapes.push({ type: 'sphere', position: [0, 0, 0.15], rotation: [0, 0, 0, 1], radius: 0.03, hollow: false, mass: 4 });
  body.mass = 5; body.density = null;
  body.computed = computeMassProperties(body.shapes as readonly ShapeDesc[], { mass: 5 });
  return rig;
}

describe('rig format: per-shape mass', () => {
  it('a body with a ballast shape validates, loads, and the World gets its centre of mass from it', () => {
    const rig = loadRig(ballasted());
    const body = rig.bodies.find((b) => b.name === 'link1')!;
    // The capsule carries 1 kg at z = 0, the lead 4 kg at z = 0.15 m: centroid 4·0.15/5 = 0.12 m.
    expect(body.computed!.centroid[2]).toBeCloseTo(0.12, 12);
    const sim = createSimulation(rig);
    const mp = sim.world.getMassProperties(sim.bodyHandle('link1'));
    expect(mp.mass).toBeCloseTo(5, 12);
    expect(mp.centroid[2]).toBeCloseTo(0.12, 12);
  });

  it('the generated JSON Schema accepts a shape mass and rejects a negative one', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(rigJsonSchema());
    const rig = ballasted();
    expect(validate(rig), ajv.errorsText(validate.errors)).toBe(true);
    (rig.bodies[1]!.shapes[1] as { mass?: number }).mass = -4;
    expect(validate(rig)).toBe(false);
  });

  it('refuses both mass and density on a shape, and a ballast heavier than its body, naming the field', () => {
    const both = ballasted();
    (both.bodies[1]!.shapes[1] as { density?: number }).density = 11340;
    delete both.bodies[1]!.computed;
    const r1 = validateRig(both);
    expect(r1.ok).toBe(false);
    if (!r1.ok) expect(r1.problems).toContainEqual({ path: 'bodies[1].shapes[1]', message: expect.stringContaining('gives both mass and density') });

    const heavy = ballasted();
    heavy.bodies[1]!.mass = 3;
    delete heavy.bodies[1]!.computed;
    const r2 = validateRig(heavy);
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.problems).toContainEqual({ path: 'bodies[1].shapes', message: expect.stringContaining('already weigh 4 kg, not less than the body mass 3 kg') });
  });

  it('a stale `computed` (exported before the ballast was added) is reported', () => {
    const rig = ballasted();
    rig.bodies[1]!.computed = computeMassProperties([rig.bodies[1]!.shapes[0]] as readonly ShapeDesc[], { mass: 5 });
    const r = validateRig(rig);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.path)).toContain('bodies[1].computed.centroid');
  });
});
