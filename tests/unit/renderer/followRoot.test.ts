/**
 * What camera follow follows (renderer/src/preview/follow.ts followRootOffset): the first controller's
 * root body in a rigid recording, the root particle (the head of the scene's first bone) in a particle
 * recording — read at the offset it returns, the numbers are that body's or particle's position.
 */
import { describe, expect, it } from 'vitest';
import { followRootOffset, type FollowLayout } from '../../../renderer/src/preview/follow';
import { createParticleSimulation } from '../../../shared/physics/particles';
import { particleSceneFromSkeleton } from '../../../shared/runtime/particles';
import type { Bone } from '../../../shared/rig';

const bone = (name: string, parent: string | null, y: number): Bone =>
  ({ name, parent, rest: { translation: [0, y, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } });

describe('camera follow root', () => {
  it('rigid: the controller root body, else the first body; 13 numbers per body after the time', () => {
    const bodies = ['arm', 'trunk', 'leg'];
    const rigid = (controllers: { root?: string }[]): FollowLayout => ({ layout: { bodies }, rig: { controllers } });
    expect(followRootOffset(rigid([{ root: 'trunk' }]))).toBe(1 + 13);
    expect(followRootOffset(rigid([]))).toBe(1);
    expect(followRootOffset(rigid([{ root: 'gone' }]))).toBe(-1);
    expect(followRootOffset({ layout: { bodies: [] }, rig: { controllers: [] } })).toBe(-1);
    expect(followRootOffset(null)).toBe(-1);
  });

  it('particle: the root bone\'s head particle of a skeleton scene, where the frame holds its position', () => {
    // A chain pelvis → spine → head standing at 1 m; the scene lists the particles in its own order.
    const bones = [bone('spine', 'pelvis', 0.3), bone('pelvis', null, 1), bone('head', 'spine', 0.4)];
    const scene = particleSceneFromSkeleton(bones);
    const sim = createParticleSimulation(scene);
    const names = [...sim.particleNames];
    const positions = 7; // any offset of the positions block in a frame
    const frame = new Float64Array(positions + 3 * names.length);
    const x = scene.particles.map((p) => p.position);
    names.forEach((n, i) => frame.set(x[scene.particles.findIndex((p) => p.name === n)]!, positions + 3 * i));
    // Under the particle solver the layout has no bodies (the rigid fields are empty).
    const L: FollowLayout = { layout: { bodies: [] }, rig: { controllers: [] }, particles: { positions, particleNames: names, scene } };
    const o = followRootOffset(L);
    expect(o).toBeGreaterThanOrEqual(positions);
    // The pelvis head is the skeleton's root joint, at the root bone's rest translation.
    expect([frame[o], frame[o + 1], frame[o + 2]]).toEqual([0, 1, 0]);
    expect(names[(o - positions) / 3]).toBe('pelvis');
  });

  it('particle: a scene whose first bone head is unknown follows particle 0; no particles, nothing', () => {
    const scene = { bones: [{ head: 'missing' }] };
    expect(followRootOffset({ layout: { bodies: [] }, rig: { controllers: [] }, particles: { positions: 40, particleNames: ['a', 'b'], scene } })).toBe(40);
    expect(followRootOffset({ layout: { bodies: [] }, rig: { controllers: [] }, particles: { positions: 40, particleNames: [], scene } })).toBe(-1);
  });
});
