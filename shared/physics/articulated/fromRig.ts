/**
 * An articulated (reduced-coordinate) model of a rig whose joints form a tree:
 *  - static and kinematic bodies are the world (joints from them attach their children to the world);
 *  - a dynamic body without a parent joint is a root with a free 6-DOF joint;
 *  - hinge, prismatic and ball joints become joint coordinates measured from the REST pose (q = 0,
 *    identity quaternion at rest; the rig's own hinge angle = its rest angle + q), about / along the
 *    parent's joint frame X (frameA);
 *  - fixed joints merge the child into its parent (one link, inertias summed about the link frame);
 *  - a second parent joint, a cycle, or a dynamic parent of a static child is refused, naming the joint.
 * Mass properties come from shared/export/rig.ts `bodyMassProperties`, the same computeMassProperties
 * call the rigid World makes from a body's shapes and mass/density.
 * Not yet mapped (issue 12): joint limits, motors, body damping, contacts.
 */
import { bodyMassProperties } from '../../export/rig';
import type { Quat } from '../../math/quat';
import { composeTransforms, invertTransform, type Transform } from '../../math/transform';
import { bodyRestWorld, boneRestWorld } from '../../rig/restPose';
import type { RigDocument, RigJoint } from '../../rig/schema';
import { ArticulatedModel, type ArticulatedBodyDesc, type ArticulatedOptions } from './model';
import { inertiaToParent, pluckerFromPose, pluckerIdentity, spatialInertia } from './spatial';

export interface ArticulatedRig {
  model: ArticulatedModel;
  /** Each rig body: the model body (link) it moves with (−1: the world) and its pose in that link's frame. */
  bodies: Map<string, { link: number; offset: Transform }>;
  /** Each non-fixed joint between moving bodies: the model body it moves and its coordinate offsets. */
  joints: Map<string, { link: number; qi: number; vi: number; type: RigJoint['type'] }>;
}

export interface ArticulatedRigOptions extends ArticulatedOptions {
  /** Viscous damping on every hinge, prismatic and ball DOF (N·m·s/rad or N·s/m). Default 0. */
  jointDamping?: number;
  /** Where the rig's model origin stands in the world (the Simulation's placement; default identity). The
   *  free roots start there and static bodies are placed by it; joint coordinates are unchanged. */
  placement?: Transform;
}

export function articulatedFromRig(rig: RigDocument, options: ArticulatedRigOptions = {}): ArticulatedRig {
  const modelRest = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
  const place = (t: Transform): Transform => { const c = composeTransforms(options.placement!, t); return { position: c.position, rotation: normalized(c.rotation) }; };
  const rest = options.placement ? new Map([...modelRest].map(([k, t]) => [k, place(t)])) : modelRest;
  const byName = new Map(rig.bodies.map((b) => [b.name, b]));
  const parentJoint = new Map<string, RigJoint>();
  for (const j of rig.joints) {
    for (const end of [j.bodyA, j.bodyB]) if (!byName.has(end)) throw new Error(`joint "${j.name}": body "${end}" is not in the rig`);
    if (j.bodyA === j.bodyB) throw new Error(`joint "${j.name}": joins body "${j.bodyA}" to itself`);
    const prev = parentJoint.get(j.bodyB);
    if (prev) {
      throw new Error(`joint "${j.name}": body "${j.bodyB}" already has the parent joint "${prev.name}" — a loop (a second parent); the articulated solver needs the joints to form a tree`);
    }
    parentJoint.set(j.bodyB, j);
  }
  // Cycles (A → B → … → A) without a second parent.
  for (const b of rig.bodies) {
    const seen = new Set<string>([b.name]);
    for (let j = parentJoint.get(b.name); j; j = parentJoint.get(j.bodyA)) {
      if (seen.has(j.bodyA)) throw new Error(`joint "${j.name}": closes a loop through body "${j.bodyA}"; the articulated solver needs the joints to form a tree`);
      seen.add(j.bodyA);
    }
  }
  const moving = (name: string) => byName.get(name)!.type === 'dynamic';
  for (const j of rig.joints) {
    if (!moving(j.bodyB) && moving(j.bodyA)) {
      throw new Error(`joint "${j.name}": its child body "${j.bodyB}" is ${byName.get(j.bodyB)!.type} but its parent "${j.bodyA}" is dynamic; in the articulated solver static and kinematic bodies can only be parents (roots)`);
    }
  }
  const restOf = (name: string): Transform => {
    const t = rest.get(name);
    if (!t) throw new Error(`body "${name}": bone "${byName.get(name)!.bone}" is not in the skeleton`);
    return t;
  };

  // Owner link of each body: a fixed joint merges the child into its parent's owner; static bodies are the world.
  const ownerMemo = new Map<string, string | null>();
  const owner = (name: string): string | null => {
    if (ownerMemo.has(name)) return ownerMemo.get(name)!;
    let o: string | null;
    if (!moving(name)) o = null;
    else {
      const pj = parentJoint.get(name);
      o = pj && pj.type === 'fixed' ? owner(pj.bodyA) : name;
    }
    ownerMemo.set(name, o);
    return o;
  };

  // Links, parents first (breadth-first from the roots).
  const links: string[] = [];
  const childrenOf = new Map<string | null, string[]>();
  for (const b of rig.bodies) {
    if (owner(b.name) !== b.name) continue;
    const pj = parentJoint.get(b.name);
    const parent = pj ? owner(pj.bodyA) : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), b.name]);
  }
  // Each root's tree breadth-first, one tree after the other: a tree's links (and its DOFs) are contiguous,
  // so a row on one creature visits only its own tree (InverseMass ranges).
  for (const root of childrenOf.get(null) ?? []) {
    const queue = [root];
    for (let i = 0; i < queue.length; i++) { links.push(queue[i]!); queue.push(...(childrenOf.get(queue[i]!) ?? [])); }
  }
  const linkIndex = new Map(links.map((n, i) => [n, i]));

  const bodies: ArticulatedRig['bodies'] = new Map();
  const inertia = links.map(() => new Array<number>(36).fill(0));
  for (const b of rig.bodies) {
    const o = owner(b.name);
    const frame: Transform = o === null ? { position: [0, 0, 0], rotation: [0, 0, 0, 1] } : restOf(o);
    const offset = composeTransforms(invertTransform(frame), restOf(b.name));
    bodies.set(b.name, { link: o === null ? -1 : linkIndex.get(o)!, offset });
    if (o === null) continue;
    const mp = bodyMassProperties(b);
    const Ib = spatialInertia(mp.mass, mp.centroid, mp.inertia);
    const I = inertiaToParent(pluckerFromPose(offset.position, offset.rotation), Ib);
    const acc = inertia[linkIndex.get(o)!]!;
    for (let k = 0; k < 36; k++) acc[k] += I[k]!;
  }

  const joints: ArticulatedRig['joints'] = new Map();
  const descs: ArticulatedBodyDesc[] = links.map((name, i) => {
    const pj = parentJoint.get(name);
    if (!pj) {
      return { name, jointName: `${name} (free root)`, parent: -1, joint: 'free', Xtree: pluckerIdentity(), XB: pluckerIdentity(), inertia: inertia[i]! };
    }
    const pOwner = owner(pj.bodyA);
    const pFrame: Transform = pOwner === null ? { position: [0, 0, 0], rotation: [0, 0, 0, 1] } : restOf(pOwner);
    const fa: Transform = { position: [...pj.frameA.position] as Transform['position'], rotation: normalized(pj.frameA.rotation) };
    const jointWorld = composeTransforms(restOf(pj.bodyA), fa);
    const inParent = composeTransforms(invertTransform(pFrame), jointWorld);
    const inChild = composeTransforms(invertTransform(restOf(name)), jointWorld);
    const bodyInJoint = invertTransform(inChild);
    if (pj.type === 'fixed') throw new Error(`joint "${pj.name}": internal error, a fixed joint reached the link list`);
    return {
      name, jointName: pj.name, parent: pOwner === null ? -1 : linkIndex.get(pOwner)!, joint: pj.type,
      Xtree: pluckerFromPose(inParent.position, inParent.rotation),
      XB: pluckerFromPose(bodyInJoint.position, bodyInJoint.rotation),
      inertia: inertia[i]!, damping: options.jointDamping ?? 0, ...(pj.type === 'screw' ? { pitch: pj.pitch } : {}),
    };
  });
  const g = rig.simulation.gravity;
  const model = new ArticulatedModel(descs, { gravity: options.gravity ?? [g[0], g[1], g[2]], ...(options.integrator ? { integrator: options.integrator } : {}) });
  model.bodies.forEach((b, i) => {
    if (b.joint === 'free') {
      const t = restOf(links[i]!);
      model.q.set([...t.position, ...t.rotation], b.qi);
    } else {
      joints.set(b.jointName, { link: i, qi: b.qi, vi: b.vi, type: parentJoint.get(links[i]!)!.type });
    }
  });
  return { model, bodies, joints };
}

/** World pose of every rig body in the model's current state. */
export function articulatedBodyPoses(a: ArticulatedRig): Map<string, Transform> {
  const poses = a.model.poses();
  const out = new Map<string, Transform>();
  for (const [name, { link, offset }] of a.bodies) {
    if (link < 0) { out.set(name, offset); continue; }
    const p = poses[link]!;
    out.set(name, composeTransforms({ position: p.position, rotation: matToQuat(p.R) }, offset));
  }
  return out;
}

function normalized(q: readonly number[]): Quat {
  const l = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  return [q[0]! / l, q[1]! / l, q[2]! / l, q[3]! / l];
}

/** Unit quaternion [x,y,z,w] of a row-major rotation matrix (Shepperd's method). */
export function matToQuat(R: readonly number[]): Quat {
  const m00 = R[0]!, m11 = R[4]!, m22 = R[8]!, tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(R[7]! - R[5]!) / s, (R[2]! - R[6]!) / s, (R[3]! - R[1]!) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (R[1]! + R[3]!) / s, (R[2]! + R[6]!) / s, (R[7]! - R[5]!) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(R[1]! + R[3]!) / s, 0.25 * s, (R[5]! + R[7]!) / s, (R[2]! - R[6]!) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(R[2]! + R[6]!) / s, (R[5]! + R[7]!) / s, 0.25 * s, (R[3]! - R[1]!) / s];
  }
  return normalized(q);
}
