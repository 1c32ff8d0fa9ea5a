/**
 * Reading rigid preview frames on the main thread (the recording of engine.ts, mirrored by the client): a
 * second, never-stepped Simulation of the same rig whose bodies are placed where a recorded frame has them,
 * so the runtime's own bone read-out (writeBonePoses: bone world = body world · offset⁻¹; bones without a
 * body keep their rest placement under their parent) gives the skinning transforms, and its world's ray
 * cast picks a body. The particle counterpart is particlePose.ts.
 */
import { createSimulation, type Simulation } from '../runtime';
import { BODY_STRIDE, type FrameLayout } from '../runtime/trace';
import type { RigDocument } from '../rig';
import type { ReadonlyVec3 } from '../math/vec3';

export class RigPoser {
  private readonly sim: Simulation;
  private readonly bodies: ReadonlySet<string>;

  /** Throws what createSimulation throws for a rig it cannot build. */
  constructor(rig: RigDocument) {
    this.sim = createSimulation(rig, { missingControllers: 'skip' });
    this.bodies = new Set(this.sim.bodyNames);
  }

  /** Bones parents first: the order of writeBoneWorld. */
  get boneNames(): readonly string[] { return this.sim.boneNames; }

  /** Place the bodies where the flat frame `frame` (laid out by `layout`) has them; bodies of the layout
   *  this rig does not have are skipped. */
  pose(layout: FrameLayout, frame: Float64Array): void {
    layout.bodies.forEach((name, i) => {
      if (!this.bodies.has(name)) return;
      const o = 1 + i * BODY_STRIDE;
      this.sim.setBodyPose(name, [frame[o]!, frame[o + 1]!, frame[o + 2]!], [frame[o + 3]!, frame[o + 4]!, frame[o + 5]!, frame[o + 6]!]);
    });
  }

  /** Bone world poses of a flat frame into out: 7 numbers (px py pz qx qy qz qw) per bone, boneNames order. */
  writeBoneWorld(layout: FrameLayout, frame: Float64Array, out: Float64Array): void {
    this.pose(layout, frame);
    this.sim.writeBonePoses(out, 'world');
  }

  /** The body a world ray (origin, unit direction) hits first, with the bodies where the last pose() put them. */
  pick(origin: ReadonlyVec3, direction: ReadonlyVec3, maxDistance: number): { body: string; point: [number, number, number]; distance: number } | null {
    const hit = this.sim.world.raycast(origin, direction, maxDistance);
    const body = hit ? this.sim.bodyName(hit.body) : null;
    return hit && body !== null ? { body, point: [hit.point[0], hit.point[1], hit.point[2]], distance: hit.distance } : null;
  }

  /** Mass (kg), inertia about the centroid in body axes (row-major 3×3) and centroid of a body, or null. */
  massOf(body: string): { mass: number; inertia: readonly number[]; centroid: readonly number[] } | null {
    if (!this.bodies.has(body)) return null;
    const m = this.sim.world.getMassProperties(this.sim.bodyHandle(body));
    return { mass: m.mass, inertia: m.inertia as readonly number[], centroid: m.centroid };
  }
}
