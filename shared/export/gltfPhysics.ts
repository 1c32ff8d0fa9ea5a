/**
 * The two draft Khronos extensions as @gltf-transform custom extensions: KHR_implicit_shapes (document
 * level `shapes`) and KHR_physics_rigid_bodies (document level materials, filters, joints; per node
 * motion, collider, joint). Both are DRAFTS (github.com/eoineoineoin/glTF_Physics); written as their
 * README and schemas describe them. Node references are kept as Node objects and turned into indices on
 * write (and back on read), so the document can be edited in between.
 */
import { Extension, type Node, type ReaderContext, type WriterContext } from '@gltf-transform/core';

export const KHR_PHYSICS = 'KHR_physics_rigid_bodies';
export const KHR_SHAPES = 'KHR_implicit_shapes';

export type ImplicitShape =
  | { type: 'sphere'; sphere: { radius: number } }
  | { type: 'box'; box: { size: [number, number, number] } }
  | { type: 'capsule'; capsule: { height: number; radiusTop: number; radiusBottom: number } }
  | { type: 'cylinder'; cylinder: { height: number; radiusTop: number; radiusBottom: number } };

export interface PhysicsMaterial {
  staticFriction: number; dynamicFriction: number; restitution: number;
  frictionCombine: 'average' | 'minimum' | 'maximum' | 'multiply';
  restitutionCombine: 'average' | 'minimum' | 'maximum' | 'multiply';
  extras?: Record<string, unknown>;
}
export interface CollisionFilter { collisionSystems?: string[]; collideWithSystems?: string[]; notCollideWithSystems?: string[]; extras?: Record<string, unknown> }
export interface JointLimit { linearAxes?: number[]; angularAxes?: number[]; min?: number; max?: number; stiffness?: number; damping?: number }
export interface JointDrive {
  type: 'linear' | 'angular'; mode: 'force' | 'acceleration'; axis: number;
  maxForce?: number; positionTarget?: number; velocityTarget?: number; stiffness?: number; damping?: number;
}
export interface PhysicsJoint { limits: JointLimit[]; drives?: JointDrive[]; extras?: Record<string, unknown> }
export interface Motion {
  isKinematic?: boolean; mass?: number; centerOfMass?: number[]; inertiaDiagonal?: number[]; inertiaOrientation?: number[];
  linearVelocity?: number[]; angularVelocity?: number[];
}
export interface NodePhysics {
  motion?: Motion;
  collider?: { geometry: { shape?: number; node?: Node; convexHull?: boolean }; physicsMaterial?: number; collisionFilter?: number };
  joint?: { connectedNode: Node; joint: number; enableCollision?: boolean };
}

export class ImplicitShapesExtension extends Extension {
  static override EXTENSION_NAME = KHR_SHAPES;
  override readonly extensionName = KHR_SHAPES;
  shapes: ImplicitShape[] = [];

  override read(context: ReaderContext): this {
    const ext = (context.jsonDoc.json.extensions as Record<string, { shapes?: ImplicitShape[] }> | undefined)?.[KHR_SHAPES];
    this.shapes = ext?.shapes ? [...ext.shapes] : [];
    return this;
  }

  override write(context: WriterContext): this {
    if (this.shapes.length === 0) return this;
    const json = context.jsonDoc.json;
    json.extensions = { ...(json.extensions ?? {}), [KHR_SHAPES]: { shapes: this.shapes } };
    return this;
  }
}

export class PhysicsRigidBodiesExtension extends Extension {
  static override EXTENSION_NAME = KHR_PHYSICS;
  override readonly extensionName = KHR_PHYSICS;
  physicsMaterials: PhysicsMaterial[] = [];
  collisionFilters: CollisionFilter[] = [];
  physicsJoints: PhysicsJoint[] = [];
  readonly nodes = new Map<Node, NodePhysics>();

  override read(context: ReaderContext): this {
    const json = context.jsonDoc.json;
    const root = (json.extensions as Record<string, Partial<PhysicsRigidBodiesExtension>> | undefined)?.[KHR_PHYSICS];
    this.physicsMaterials = [...(root?.physicsMaterials ?? [])];
    this.collisionFilters = [...(root?.collisionFilters ?? [])];
    this.physicsJoints = [...(root?.physicsJoints ?? [])];
    (json.nodes ?? []).forEach((n, i) => {
      const raw = (n.extensions as Record<string, RawNodePhysics> | undefined)?.[KHR_PHYSICS];
      if (!raw) return;
      const node = context.nodes[i]!;
      const p: NodePhysics = {};
      if (raw.motion) p.motion = raw.motion;
      if (raw.collider) {
        const g = raw.collider.geometry ?? {};
        p.collider = {
          geometry: { ...(g.shape !== undefined ? { shape: g.shape } : {}), ...(g.node !== undefined ? { node: context.nodes[g.node]! } : {}), ...(g.convexHull !== undefined ? { convexHull: g.convexHull } : {}) },
          ...(raw.collider.physicsMaterial !== undefined ? { physicsMaterial: raw.collider.physicsMaterial } : {}),
          ...(raw.collider.collisionFilter !== undefined ? { collisionFilter: raw.collider.collisionFilter } : {}),
        };
      }
      if (raw.joint) {
        const connected = context.nodes[raw.joint.connectedNode];
        if (!connected) throw new Error(`nodes[${i}].extensions.${KHR_PHYSICS}.joint.connectedNode: no node ${raw.joint.connectedNode}`);
        p.joint = { connectedNode: connected, joint: raw.joint.joint, ...(raw.joint.enableCollision !== undefined ? { enableCollision: raw.joint.enableCollision } : {}) };
      }
      this.nodes.set(node, p);
    });
    return this;
  }

  override write(context: WriterContext): this {
    const json = context.jsonDoc.json;
    const index = (n: Node) => {
      const i = context.nodeIndexMap.get(n);
      if (i === undefined) throw new Error(`${KHR_PHYSICS}: node "${n.getName()}" is not in the written document`);
      return i;
    };
    const root: Record<string, unknown> = {};
    if (this.physicsMaterials.length) root.physicsMaterials = this.physicsMaterials;
    if (this.collisionFilters.length) root.collisionFilters = this.collisionFilters;
    if (this.physicsJoints.length) root.physicsJoints = this.physicsJoints;
    json.extensions = { ...(json.extensions ?? {}), [KHR_PHYSICS]: root };
    for (const [node, p] of this.nodes) {
      const out: RawNodePhysics = {};
      if (p.motion) out.motion = p.motion;
      if (p.collider) {
        const g = p.collider.geometry;
        out.collider = {
          geometry: { ...(g.shape !== undefined ? { shape: g.shape } : {}), ...(g.node ? { node: index(g.node) } : {}), ...(g.convexHull !== undefined ? { convexHull: g.convexHull } : {}) },
          ...(p.collider.physicsMaterial !== undefined ? { physicsMaterial: p.collider.physicsMaterial } : {}),
          ...(p.collider.collisionFilter !== undefined ? { collisionFilter: p.collider.collisionFilter } : {}),
        };
      }
      if (p.joint) out.joint = { connectedNode: index(p.joint.connectedNode), joint: p.joint.joint, ...(p.joint.enableCollision !== undefined ? { enableCollision: p.joint.enableCollision } : {}) };
      const nodeJson = json.nodes![index(node)]!;
      nodeJson.extensions = { ...(nodeJson.extensions ?? {}), [KHR_PHYSICS]: out };
    }
    return this;
  }
}

interface RawNodePhysics {
  motion?: Motion;
  collider?: { geometry?: { shape?: number; node?: number; convexHull?: boolean }; physicsMaterial?: number; collisionFilter?: number };
  joint?: { connectedNode: number; joint: number; enableCollision?: boolean };
}
