import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadRig, serializeRig, validateRig } from '../../../shared/rig';
import { createSimulation } from '../../../shared/runtime';
import { registerCyclicPathController } from '../../../shared/gait/register';
import { arbitraryRig } from './arbitrary';

registerCyclicPathController(); // some generated rigs carry a cyclic-path controller

describe('any rig the generator builds', () => {
  it('validates, round-trips through JSON text, and simulates 1 s without a non-finite number', () => {
    fc.assert(fc.property(arbitraryRig, (rig) => {
      const result = validateRig(rig);
      if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
      // Round trip: everything JSON can carry survives (JSON has no −0, so compare with the JSON image),
      // and saving the loaded rig reproduces the file byte for byte.
      const text = serializeRig(result.rig);
      expect(loadRig(text)).toEqual(JSON.parse(JSON.stringify(rig)));
      expect(serializeRig(loadRig(text))).toBe(text);
      const sim = createSimulation(result.rig);
      const steps = Math.round(1 / rig.simulation.dt);
      for (let i = 0; i < steps; i++) sim.step();
      const frame = sim.frame();
      const numbers = JSON.stringify(frame).match(/-?\d[\d.e+-]*|null|NaN|Infinity/g) ?? [];
      expect(numbers.every((n) => n !== 'null')).toBe(true); // NaN/Infinity serialise as null
      for (const b of Object.values(frame.bodies)) for (const x of [...b.p, ...b.q, ...b.v, ...b.w]) expect(Number.isFinite(x)).toBe(true);
      for (const pose of Object.values(sim.bonePoses())) for (const x of [...pose.position, ...pose.rotation]) expect(Number.isFinite(x)).toBe(true);
    }), { numRuns: 60 });
  });
});
