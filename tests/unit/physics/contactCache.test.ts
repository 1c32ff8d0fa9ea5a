/**
 * The contact pair cache (WorldSettings.contactCache, contactSolver.ts collidePair; Jolt's body pair cache):
 * a shape pair whose relative pose has moved less than PAIR_CACHE_DISTANCE and turned less than
 * PAIR_CACHE_ANGLE since the narrow phase last ran reuses that geometry, its points carried as material
 * points of the two bodies and each depth measured again. These tests hold it to the narrow phase it
 * replaces: the same contacts within a fraction of the tolerance on a prescribed path, a resting pile that
 * settles where the uncached world settles it, every moving pair tested afresh, and snapshots that include it.
 */
import { describe, expect, it } from 'vitest';
import { loadRagdollFile } from '../../../bench/runBenchmark';
import { createMarionetteWorld } from '../../../bench/marionetteEngine';
import { buildBoxPile } from '../../../bench/scene';
import { quatFromAxisAngle, quatMul } from '../../../shared/math/quat';
import { PAIR_CACHE_ANGLE, PAIR_CACHE_DISTANCE } from '../../../shared/physics/contacts/contactSolver';
import type { BodyHandle, WorldSettings } from '../../../shared/physics/types';
import { World } from '../../../shared/physics/world';
import { hashState } from './helpers';

/** A 0.4 m box on a static 1 m slab, gravity off, its pose set each step along `path(step)`. */
function prescribed(settings: Partial<WorldSettings>) {
  const w = new World({ gravity: [0, 0, 0], ...settings });
  w.addBody({ type: 'static', position: [0, -0.5, 0], shapes: [{ type: 'box', halfExtents: [1, 0.5, 1] }] });
  const box = w.addBody({ type: 'dynamic', position: [0, 0.2, 0], shapes: [{ type: 'box', halfExtents: [0.2, 0.2, 0.2] }] });
  return { w, box };
}

describe('contact pair cache', () => {
  it('on a prescribed slow path (0.3 mm and 0.1° a step) it gives the narrow phase\'s depths within 0.05 mm and points within half the tolerance\'s sweep, reusing most steps', () => {
    const cached = prescribed({}), fresh = prescribed({ contactCache: false });
    let hits = 0, worstDepth = 0, worstPoint = 0, steps = 0;
    for (let s = 0; s < 240; s++) {
      // Slides 0.3 mm a step, tilts about x by up to 2° and turns about y, 0.1° a step at most; 1 mm deep.
      const pos: [number, number, number] = [0.0003 * s, 0.199, 0.0001 * s];
      const tilt = (2 * Math.PI / 180) * Math.sin(s / 30), yaw = (0.1 * Math.PI / 180) * s;
      const rot = quatMul(quatFromAxisAngle([0, 1, 0], yaw), quatFromAxisAngle([1, 0, 0], tilt));
      for (const { w, box } of [cached, fresh]) { w.setPose(box, pos, rot); w.setVelocity(box, [0, 0, 0], [0, 0, 0]); w.step(1 / 60); }
      const a = cached.w.getContacts(), b = fresh.w.getContacts();
      expect(a.length, `step ${s}: contact count`).toBe(b.length);
      expect(a.length).toBeGreaterThanOrEqual(2);
      // Match points by position (the order is the narrow phase's, the same in both).
      for (let k = 0; k < a.length; k++) {
        worstDepth = Math.max(worstDepth, Math.abs(a[k]!.depth - b[k]!.depth));
        worstPoint = Math.max(worstPoint, Math.hypot(a[k]!.point[0] - b[k]!.point[0], a[k]!.point[1] - b[k]!.point[1], a[k]!.point[2] - b[k]!.point[2]));
        expect(Math.hypot(a[k]!.normal[0] - b[k]!.normal[0], a[k]!.normal[1] - b[k]!.normal[1], a[k]!.normal[2] - b[k]!.normal[2])).toBeLessThan(Math.sin(PAIR_CACHE_ANGLE));
      }
      hits += cached.w.getStats().cachedPairs ?? 0;
      expect(fresh.w.getStats().cachedPairs).toBe(0);
      steps++;
    }
    console.log(`pair cache on a prescribed path: ${hits} of ${steps} steps reused, depth within ${(worstDepth * 1000).toFixed(4)} mm, points within ${(worstPoint * 1000).toFixed(3)} mm`);
    expect(hits / steps).toBeGreaterThan(0.5);
    expect(worstDepth).toBeLessThan(5e-5);
    // A point is the midpoint of a material point of each body: off by at most half their relative drift,
    // ≤ (PAIR_CACHE_DISTANCE + r·PAIR_CACHE_ANGLE)/2 with r the box corner's distance from its centre.
    expect(worstPoint).toBeLessThan(0.5 * (PAIR_CACHE_DISTANCE + 0.2 * Math.sqrt(3) * PAIR_CACHE_ANGLE));
  });

  it('a pair moving more than the tolerance (2 mm a step) runs the narrow phase every step', () => {
    const { w, box } = prescribed({});
    for (let s = 0; s < 60; s++) {
      w.setPose(box, [0.002 * s, 0.199, 0], [0, 0, 0, 1]);
      w.setVelocity(box, [0, 0, 0], [0, 0, 0]);
      w.step(1 / 60);
      expect(w.getStats().cachedPairs, `step ${s}`).toBe(0);
      expect(w.getContacts().length).toBe(4);
    }
    // And one turning 1.5° a step in place.
    for (let s = 0; s < 60; s++) {
      w.setPose(box, [0, 0.199, 0], quatFromAxisAngle([0, 1, 0], (1.5 * Math.PI / 180) * s));
      w.setVelocity(box, [0, 0, 0], [0, 0, 0]);
      w.step(1 / 60);
      if (s > 0) expect(w.getStats().cachedPairs, `turning step ${s}`).toBe(0);
    }
  });

  it('a 5 × 5 × 3 box pile settles where the uncached world settles it (heights within 1 mm, 5 mm sideways), reusing ≥ 90 % of its pairs', () => {
    const file = loadRagdollFile();
    const scene = buildBoxPile(file, { nx: 5, nz: 5, layers: 3 });
    const worlds: World[] = [];
    const runs = [{}, { contactCache: false }].map((extra) => createMarionetteWorld((s) => { const w = new World({ ...s, ...extra }); worlds.push(w); return w; }, scene));
    for (let s = 0; s < 240; s++) for (const r of runs) r.step();
    const [cached, fresh] = worlds as [World, World];
    const stats = cached.getStats();
    const boxPairs = stats.contacts; // points; the pairs are about a quarter of them
    let worstY = 0, worstXZ = 0, fastest = 0;
    for (let i = 0; i < scene.bodies.length; i++) {
      const h = (i + 2) as BodyHandle; // slots 2.. after the ground (slot 1)
      const pa = cached.getPosition(h), pb = fresh.getPosition(h);
      worstY = Math.max(worstY, Math.abs(pa[1] - pb[1]));
      worstXZ = Math.max(worstXZ, Math.hypot(pa[0] - pb[0], pa[2] - pb[2]));
      fastest = Math.max(fastest, Math.hypot(...cached.getLinearVelocity(h)));
    }
    // Manifolds: each pair has 4 points in a pile of face-on-face boxes.
    const manifolds = cached.getContacts().reduce((set, c) => set.add(`${c.bodyA}:${c.bodyB}`), new Set<string>()).size;
    console.log(`5×5×3 pile after 4 s: ${stats.cachedPairs} of ${manifolds} pairs reused (${boxPairs} points), largest offset from the uncached world ${(worstY * 1000).toFixed(3)} mm in height, ${(worstXZ * 1000).toFixed(3)} mm sideways, fastest box ${fastest.toExponential(2)} m/s`);
    expect(stats.cachedPairs! / manifolds).toBeGreaterThanOrEqual(0.9);
    // Heights are set by the contacts' depths (the slop), sideways drift by the solve order (the cache's
    // pairs come in their canonical order, the uncached grid's in bucket order) while the boxes land.
    expect(worstY).toBeLessThan(0.001);
    expect(worstXZ).toBeLessThan(0.005);
    expect(fastest).toBeLessThan(0.01);
  });

  it('snapshots include the cached geometry: snapshot → step → restore → step is bit-identical on a resting stack', () => {
    const w = new World({ groundHeight: 0 });
    for (let i = 0; i < 5; i++) w.addBody({ type: 'dynamic', position: [0.01 * i, 0.2 + 0.41 * i, 0], shapes: [{ type: 'box', halfExtents: [0.3, 0.2, 0.3] }] });
    for (let i = 0; i < 120; i++) w.step(1 / 60);
    expect(w.getStats().cachedPairs).toBeGreaterThanOrEqual(3);
    const snap = w.snapshot();
    const frames: string[] = [];
    for (let i = 0; i < 60; i++) { w.step(1 / 60); frames.push(hashState(w)); }
    w.restore(snap);
    for (let i = 0; i < 60; i++) { w.step(1 / 60); expect(hashState(w), `step ${i} after the restore`).toBe(frames[i]); }
  });

  it('the setting is validated', () => {
    expect(() => new World({ contactCache: 'yes' as unknown as boolean })).toThrow(/contactCache must be true or false/);
  });
});
