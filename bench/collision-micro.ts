/** Micro-benchmark of the collision module (not a test): ns per narrow-phase call for the main pairs, and
 *  the broad phase on 128 ragdolls' worth of capsules. Run: npx tsx bench/collision-micro.ts */
import { ContactManifold, SweepAndPrune, collide, collideGround, createWorldShape, updateWorldShape, type WorldShape } from '../shared/physics/collision';
import type { ShapeDesc } from '../shared/physics/types';
import { quatFromAxisAngle } from '../shared/math';

function place(d: ShapeDesc, p: [number, number, number], angle = 0.1): WorldShape {
  const s = createWorldShape(d, { aabbMargin: 0.02 });
  updateWorldShape(s, p, 0, quatFromAxisAngle([0.3, 1, 0.2], angle), 0);
  return s;
}
const m = new ContactManifold();
function time(label: string, fn: () => number, n = 200_000): void {
  let sink = 0;
  for (let i = 0; i < n / 10; i++) sink += fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) sink += fn();
  const ns = ((performance.now() - t0) * 1e6) / n;
  console.log(`${label.padEnd(34)} ${ns.toFixed(0).padStart(6)} ns/pair  (points ${m.count}, sink ${sink})`);
}
const cap = (ax: 'x' | 'y' | 'z' = 'y'): ShapeDesc => ({ type: 'capsule', radius: 0.08, halfHeight: 0.2, axis: ax });
const box: ShapeDesc = { type: 'box', halfExtents: [0.5, 0.5, 0.5] };
const cyl: ShapeDesc = { type: 'cylinder', radius: 0.3, halfHeight: 0.4 };
const M = 0.02;
const sa = place({ type: 'sphere', radius: 0.3 }, [0, 0, 0]), sb = place({ type: 'sphere', radius: 0.3 }, [0.5, 0.1, 0]);
time('sphere–sphere', () => collide(sa, sb, M, m));
const c1 = place(cap('x'), [0, 0, 0]), c2 = place(cap('x'), [0.1, 0.15, 0.02]), c3 = place(cap('z'), [0.1, 0.15, 0.02]);
time('capsule–capsule (parallel)', () => collide(c1, c2, M, m));
time('capsule–capsule (crossing)', () => collide(c1, c3, M, m));
const s1 = place({ type: 'sphere', radius: 0.2 }, [0.3, 0.65, 0]);
const b1 = place(box, [0, 0, 0], 0), b2 = place(box, [0.3, 0.99, 0.2], 0), b3 = place(box, [0.3, 1.3, 0.2], 0.9);
time('sphere–box', () => collide(s1, b1, M, m));
time('box–box resting (face)', () => collide(b1, b2, M, m));
time('box–box separated on an axis', () => collide(b1, b3, M, m));
const cb = place(cap('x'), [0.1, 0.57, 0], 0.02);
time('capsule–box (GJK + clipping)', () => collide(cb, b1, M, m));
const cy = place(cyl, [0.1, 0.89, 0], 0.01);
time('cylinder–box (EPA + clipping)', () => collide(cy, b1, M, m));
const cg = place(cap('x'), [0, 0.07, 0], 0.01);
time('capsule–ground', () => collideGround(cg, 0, M, m));
time('box–ground', () => collideGround(b2, 0.5, M, m));
time('cylinder–ground', () => collideGround(cy, 0.5, M, m));

// Broad phase: 128 ragdolls × 11 capsules on a 12 × 11 grid 5 m apart, plus per-step update of the poses.
const shapes: WorldShape[] = [];
for (let r = 0; r < 128; r++) {
  const ox = (r % 12) * 5, oz = Math.floor(r / 12) * 5;
  for (let k = 0; k < 11; k++) {
    const s = createWorldShape(cap(k % 3 === 0 ? 'y' : 'x'), { body: r * 11 + k, aabbMargin: 0.02 });
    updateWorldShape(s, [ox + 0.1 * (k % 4), 0.2 + 0.15 * k, oz + 0.05 * (k % 2)], 0, [0, 0, 0, 1], 0);
    shapes.push(s);
  }
}
const sap = new SweepAndPrune();
const pos = new Float64Array(3 * shapes.length), rot = new Float64Array(4 * shapes.length);
for (let i = 0; i < shapes.length; i++) { pos.set(shapes[i]!.position, 3 * i); rot[4 * i + 3] = 1; }
sap.update(shapes, shapes.length);
const steps = 600;
let t0 = performance.now();
for (let s = 0; s < steps; s++) {
  for (let i = 0; i < shapes.length; i++) { pos[3 * i + 1] += 1e-4 * Math.sin(s + i); updateWorldShape(shapes[i]!, pos, 3 * i, rot, 4 * i); }
}
const tUpdate = (performance.now() - t0) / steps;
t0 = performance.now();
for (let s = 0; s < steps; s++) sap.update(shapes, shapes.length);
const tSap = (performance.now() - t0) / steps;
t0 = performance.now();
let contacts = 0;
for (let s = 0; s < steps; s++) {
  for (let k = 0; k < sap.pairCount; k++) contacts += collide(shapes[sap.pairs[2 * k]!]!, shapes[sap.pairs[2 * k + 1]!]!, M, m);
  for (let i = 0; i < shapes.length; i++) contacts += collideGround(shapes[i]!, 0, M, m);
}
const tNarrow = (performance.now() - t0) / steps;
console.log(`\n128 ragdolls × 11 capsules (${shapes.length} shapes), sweep axis ${sap.sweepAxis}, ${sap.pairCount} AABB pairs (same-body pairs excluded only by body index here):`);
console.log(`  pose + AABB update ${(tUpdate * 1000).toFixed(0)} µs/step, broad phase ${(tSap * 1000).toFixed(0)} µs/step, narrow phase (pairs + ground) ${(tNarrow * 1000).toFixed(0)} µs/step, contacts/step ${(contacts / steps).toFixed(0)}`);
