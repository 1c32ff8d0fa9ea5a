/**
 * The editor's Fix for rest overlaps: bodies that collide with each other and overlap at the rest pose
 * (shared/authoring checkRestOverlaps) stop colliding with each other, and with nothing else that they
 * collided with before. Pure; one undo step in the editor (RigWarnings.tsx).
 *
 * Two bodies collide iff (a.group & b.mask) ≠ 0 and (b.group & a.mask) ≠ 0. Overlapping bodies are joined
 * into clusters (connected through overlaps); each cluster gets a collision bit no body uses yet, which
 * becomes its members' only group bit and leaves their masks — so no two members collide. What members
 * collided with outside the cluster is kept: a body whose mask took any member's old group bits gets the
 * cluster's bit in its mask, and the members keep their masks' other bits (the outsiders' groups).
 * (Adding a shared bit to both sides, as a first version of shared fixRestOverlaps did, cannot separate a
 * pair that already collides through its other bits.)
 */
import { checkRestOverlaps } from '../../../shared/authoring';
import type { RigDocument } from '../../../shared/rig';

export function filterRestOverlaps(rig: RigDocument): RigDocument {
  const overlaps = checkRestOverlaps(rig);
  if (overlaps.length === 0) return rig;
  const parent = new Map<string, string>();
  const find = (x: string): string => { let r = x; while (parent.get(r) !== r) r = parent.get(r)!; return r; };
  for (const { a, b } of overlaps) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    parent.set(find(a), find(b));
  }
  const clusters = [...new Set([...parent.keys()].map(find))].sort();
  const used = rig.bodies.reduce((u, b) => (u | b.collisionGroup) >>> 0, 0);
  const free: number[] = [];
  for (let i = 0; i < 32 && free.length < clusters.length; i++) if (((used >>> i) & 1) === 0) free.push((1 << i) >>> 0);
  if (free.length < clusters.length) throw new Error(`${clusters.length} overlapping clusters need as many unused collision group bits; only ${free.length} are free`);
  const bitOf = new Map(clusters.map((c, i) => [c, free[i]!]));
  const clusterOf = (name: string): string | null => (parent.has(name) ? find(name) : null);
  // Per cluster, the union of its members' old group bits (whom they presented themselves as).
  const oldGroups = new Map<string, number>();
  for (const b of rig.bodies) {
    const c = clusterOf(b.name);
    if (c !== null) oldGroups.set(c, ((oldGroups.get(c) ?? 0) | b.collisionGroup) >>> 0);
  }
  return {
    ...rig,
    bodies: rig.bodies.map((b) => {
      const own = clusterOf(b.name);
      let mask = b.collisionMask;
      for (const [c, groups] of oldGroups) if (c !== own && (groups & b.collisionMask) !== 0) mask = (mask | bitOf.get(c)!) >>> 0;
      if (own === null) return mask === b.collisionMask ? b : { ...b, collisionMask: mask };
      const bit = bitOf.get(own)!;
      return { ...b, collisionGroup: bit, collisionMask: (mask & ~bit) >>> 0 };
    }),
  };
}
