/**
 * Go limp / power on under either solver (renderer/src/authoring/jointDrive.ts), checked against what the
 * preview engines do: the rigid engine starts every motor powered and records each joint's motor state in
 * its aux record; the particle engine starts limp (a limp input at frame 0 changes nothing, a power-on input
 * does). And the whole-creature buttons: enabled on a particle example (no rig, no bodies), named for the
 * solver they act under.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateRig, type RigDocument } from '../../../shared/rig';
import { PreviewEngine, type PreviewInput } from '../../../shared/preview/engine';
import { startParticleEngine } from '../../../shared/preview/particleEngine';
import { creatureDrive, isLimpAt, startsLimp } from '../../../renderer/src/authoring/jointDrive';
import { repo } from '../rig/corpus';

const humanoid = (): RigDocument => {
  const v = validateRig(readFileSync(`${repo}assets/creatures/humanoid.rig.json`, 'utf8'));
  if (!v.ok) throw new Error('humanoid rig invalid');
  return v.rig;
};

describe('joint drive state', () => {
  it('rigid: powered at first; each joint follows the last limp / power-on input naming it, as the engine records', () => {
    const rig = humanoid();
    const e = new PreviewEngine(rig);
    const inputs: PreviewInput[] = [
      { kind: 'limp', frame: 3, joints: ['shin_l'], limp: true },
      { kind: 'limp', frame: 6, joints: 'all', limp: true },
      { kind: 'limp', frame: 9, joints: ['head', 'shin_l'], limp: false },
    ];
    e.setInputs(inputs);
    e.advance(12);
    const names = e.recorder.layout.joints;
    let checked = 0;
    for (let f = 0; f < 12; f++) {
      // The aux record of frame f + 1 holds the motors after the inputs of frame f acted.
      const aux = e.slice(f + 1, f + 2).aux;
      for (const [j, name] of names.entries()) {
        expect(isLimpAt(inputs, name, f, 'rigid'), `${name} at frame ${f}`).toBe(aux[e.aux.motors + j] === 0);
        checked++;
      }
    }
    expect(checked).toBe(12 * names.length);
    expect(isLimpAt([], 'shin_l', 100, 'rigid')).toBe(false);
    expect(isLimpAt(inputs, 'shin_l', 4, 'rigid')).toBe(true);
    expect(isLimpAt(inputs, 'shin_r', 10, 'rigid')).toBe(true);
    expect(isLimpAt(inputs, 'head', 10, 'rigid')).toBe(false);
  });

  it('particle: a ragdoll starts limp — a limp input at frame 0 changes nothing, power on changes the fall', () => {
    expect(startsLimp('particle')).toBe(true);
    expect(startsLimp('rigid')).toBe(false);
    const rig = humanoid();
    const run = (inputs: PreviewInput[]) => {
      const r = startParticleEngine(rig, { scene: null, name: rig.name }, 128);
      if (!r.ok) throw new Error(r.message);
      r.engine.setInputs(inputs);
      r.engine.advance(60);
      return r.engine.positionsAt(60).slice();
    };
    const free = run([]);
    const limp = run([{ kind: 'limp', frame: 0, joints: 'all', limp: true }]);
    const powered = run([{ kind: 'limp', frame: 0, joints: 'all', limp: false }]);
    expect(Array.from(limp)).toEqual(Array.from(free));
    let d = 0;
    for (let i = 0; i < free.length; i++) d = Math.max(d, Math.abs(free[i]! - powered[i]!));
    expect(d).toBeGreaterThan(0.01);
    expect(isLimpAt([], 'shin_l', 0, 'particle')).toBe(true);
    expect(isLimpAt([{ kind: 'limp', frame: 0, joints: 'all', limp: false }], 'shin_l', 0, 'particle')).toBe(false);
  });

  it('the whole-creature buttons: enabled under particles without bodies, refused under rigid without them, titled per solver', () => {
    const particle = creatureDrive({ particlePreview: true, hasBodies: false });
    expect(particle.enabled).toBe(true);
    expect(particle.limpTitle).toMatch(/particle pose drive/);
    expect(particle.powerTitle).toMatch(/rest pose/);
    expect(`${particle.limpTitle} ${particle.powerTitle}`).not.toMatch(/motor/);
    const rigid = creatureDrive({ particlePreview: false, hasBodies: true });
    expect(rigid.enabled).toBe(true);
    expect(rigid.limpTitle).toMatch(/motor/);
    const empty = creatureDrive({ particlePreview: false, hasBodies: false });
    expect(empty.enabled).toBe(false);
    expect(empty.reason).toMatch(/no bodies/);
    expect(empty.powerTitle).toMatch(/^Power on: the rig has no bodies yet/);
  });
});
