/**
 * Every shipped and fixture rig through the articulated core (issue 12): the tree builds, and with its
 * motors and limits as drives 1 s of steps (no contacts yet: the creatures fall through the ground) stays finite.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRig } from '../../../../shared/rig';
import { articulatedFromRig, drivesFromRig, stepWithDrives } from '../../../../shared/physics/articulated';
import { shippedRigs } from '../../rig/corpus';

describe('shipped rigs in the articulated core', () => {
  for (const path of shippedRigs()) {
    const name = path.split('/').at(-1)!;
    it(name, () => {
      const rig = loadRig(JSON.parse(readFileSync(path, 'utf8')));
      // The rig format asks for a forest (schema: no cycles, one parent joint per body), so every rig builds.
      const a = articulatedFromRig(rig);
      const { drives, unsupported } = drivesFromRig(rig, a);
      expect(unsupported).toEqual([]);
      const h = rig.simulation.dt / rig.simulation.substeps;
      for (let s = 0; s < Math.round(1 / h); s++) stepWithDrives(a.model, drives, h);
      expect(Array.from(a.model.q).every(Number.isFinite)).toBe(true);
      expect(Array.from(a.model.qd).every(Number.isFinite)).toBe(true);
      console.log(`${name}: ${rig.bodies.length} bodies → ${a.model.bodies.length} links, nq ${a.model.nq}, nv ${a.model.nv}, ${drives.length} drives`);
    }, 60_000);
  }
});
