import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulation, loadRig } from '../../../shared/index';
import { shippedRigs } from '../rig/corpus';

describe('every shipped rig, through the runtime entry (controllers registered by importing it)', () => {
  for (const path of shippedRigs()) {
    it(`${path.split('/').slice(-2).join('/')}: runs 2 s with finite state, deterministically, controllers phasing`, () => {
      const rig = loadRig(readFileSync(path, 'utf8'), { source: path });
      const run = () => {
        const sim = createSimulation(rig);
        const frames: string[] = [];
        for (let i = 0; i < Math.round(2 / rig.simulation.dt); i++) { sim.step(); frames.push(JSON.stringify(sim.frame())); }
        return { sim, frames };
      };
      const a = run(), b = run();
      expect(a.frames).toEqual(b.frames);
      expect(a.sim.blowUp).toBeNull();
      expect(a.frames.join('')).not.toMatch(/null/); // a NaN or Infinity would serialise as null
      expect(a.sim.controllerNames).toEqual(rig.controllers.map((c) => c.name));
      for (const c of rig.controllers) {
        // phase advances by rate·dt per step (mod 1) while the controller is enabled
        const expected = (((c.phaseOffset + c.rate * 2) % 1) + 1) % 1;
        expect(Math.abs(a.sim.frame().controllers[c.name]!.phase - expected)).toBeLessThan(1e-6);
      }
    });
  }
});
