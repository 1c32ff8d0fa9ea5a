/**
 * Islands: the groups of dynamic bodies connected by joints or contacts this substep (union-find), with
 * each island's joints and contact manifolds listed in their global order.
 *
 * Why: the solver's Gauss-Seidel sweeps used to walk every joint and every manifold once per iteration. With
 * 128 ragdolls the joint records alone are 1.5 MB (1 280 × 150 doubles), so each of the 10 sweeps streamed
 * them through L2 and the cost per ragdoll grew by 1.5–2× from N = 16 to 128. Iterating one island at a time
 * keeps its few kilobytes in L1 for all its iterations.
 *
 * The result is bit-identical to the global sweeps: two islands share no dynamic body, and a static or
 * kinematic body's velocity is never changed by a row (its inverse mass and inertia are zero), so the
 * operations that touch an island's bodies happen in the same order either way (per iteration: its joints in
 * slot order, then its manifolds in manifold order).
 */
import { DYNAMIC, type BodyStore } from './bodies';
import { BODY_A, BODY_B, STRIDE } from './joints/jointLayout';
import type { JointStore } from './joints/jointStore';

/** What the island builder needs from the contact solver: the manifolds' two body slots. */
export interface ManifoldBodies {
  readonly count: number;
  bodyA(c: number): number;
  bodyB(c: number): number;
}

export class Islands {
  /** Number of islands (the last one may hold rows between two non-dynamic bodies, which move nothing). */
  count = 0;
  /** Joint slots grouped by island: island k owns jointOrder[jointStart[k] .. jointStart[k + 1]). */
  jointOrder = new Int32Array(64);
  jointStart = new Int32Array(65);
  /** Manifold indices grouped by island, the same way. */
  contactOrder = new Int32Array(64);
  contactStart = new Int32Array(65);
  private parent = new Int32Array(64);
  /** Island of each body slot after build() (−1: not a live dynamic body). Read by the warm start (warmStart.ts). */
  islandOf = new Int32Array(64);
  private jointIsland = new Int32Array(64);
  private contactIsland = new Int32Array(64);

  private find(i: number): number {
    const p = this.parent;
    while (p[i] !== i) { p[i] = p[p[i]!]!; i = p[i]!; }
    return i;
  }

  private union(a: number, b: number): void {
    const ra = this.find(a), rb = this.find(b);
    // The smaller slot becomes the root: the island order is then the order of each island's first body.
    if (ra < rb) this.parent[rb] = ra; else if (rb < ra) this.parent[ra] = rb;
  }

  build(bodies: BodyStore, joints: JointStore, contacts: ManifoldBodies): void {
    const nb = bodies.count, type = bodies.type, alive = bodies.alive, J = joints.data;
    if (this.parent.length < nb) { this.parent = new Int32Array(2 * nb); this.islandOf = new Int32Array(2 * nb); }
    for (let i = 0; i < nb; i++) this.parent[i] = i;
    for (let j = 0; j < joints.count; j++) {
      if (joints.alive[j] === 0) continue;
      const a = J[j * STRIDE + BODY_A]!, b = J[j * STRIDE + BODY_B]!;
      if (type[a] === DYNAMIC && type[b] === DYNAMIC) this.union(a, b);
    }
    const nc = contacts.count;
    for (let c = 0; c < nc; c++) {
      const a = contacts.bodyA(c), b = contacts.bodyB(c);
      if (type[a] === DYNAMIC && type[b] === DYNAMIC) this.union(a, b);
    }
    let islands = 0;
    for (let i = 1; i < nb; i++) {
      if (alive[i] === 0 || type[i] !== DYNAMIC) { this.islandOf[i] = -1; continue; }
      const r = this.find(i);
      this.islandOf[i] = r === i ? islands++ : this.islandOf[r]!;
    }
    const leftover = islands;
    this.count = islands + 1;
    // Joints: counting sort by island, stable (slot order within an island).
    if (this.jointIsland.length < joints.count) { this.jointIsland = new Int32Array(2 * joints.count); this.jointOrder = new Int32Array(2 * joints.count); }
    if (this.jointStart.length < this.count + 1) { this.jointStart = new Int32Array(2 * this.count + 1); this.contactStart = new Int32Array(2 * this.count + 1); }
    const js = this.jointStart;
    js.fill(0, 0, this.count + 1);
    for (let j = 0; j < joints.count; j++) {
      if (joints.alive[j] === 0) { this.jointIsland[j] = -1; continue; }
      const a = J[j * STRIDE + BODY_A]!, b = J[j * STRIDE + BODY_B]!;
      const k = type[a] === DYNAMIC ? this.islandOf[a]! : type[b] === DYNAMIC ? this.islandOf[b]! : leftover;
      this.jointIsland[j] = k; js[k + 1]!++;
    }
    for (let k = 0; k < this.count; k++) js[k + 1]! += js[k]!;
    const fillJ = this.scratch(this.count);
    for (let k = 0; k < this.count; k++) fillJ[k] = js[k]!;
    for (let j = 0; j < joints.count; j++) { const k = this.jointIsland[j]!; if (k >= 0) this.jointOrder[fillJ[k]!++] = j; }
    // Manifolds, the same way.
    if (this.contactIsland.length < nc) { this.contactIsland = new Int32Array(2 * nc); this.contactOrder = new Int32Array(2 * nc); }
    const cs = this.contactStart;
    cs.fill(0, 0, this.count + 1);
    for (let c = 0; c < nc; c++) {
      const a = contacts.bodyA(c), b = contacts.bodyB(c);
      const k = type[a] === DYNAMIC ? this.islandOf[a]! : type[b] === DYNAMIC ? this.islandOf[b]! : leftover;
      this.contactIsland[c] = k; cs[k + 1]!++;
    }
    for (let k = 0; k < this.count; k++) cs[k + 1]! += cs[k]!;
    for (let k = 0; k < this.count; k++) fillJ[k] = cs[k]!;
    for (let c = 0; c < nc; c++) { const k = this.contactIsland[c]!; this.contactOrder[fillJ[k]!++] = c; }
  }

  private fill = new Int32Array(64);
  private scratch(n: number): Int32Array {
    if (this.fill.length < n) this.fill = new Int32Array(2 * n);
    return this.fill;
  }
}
