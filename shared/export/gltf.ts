/**
 * glTF export: the creature's own skinned document (or a bare node per bone) plus KHR_physics_rigid_bodies
 * and KHR_implicit_shapes (both DRAFT Khronos extensions) — what Blender, Babylon and Godot importers of
 * the drafts read. Pure: takes and returns a @gltf-transform Document; `writeGlb` gives the bytes.
 *
 * Layout: a body's `motion` sits on its BONE's node (the engine then drives the skinned bone directly;
 * bones without a body follow as descendants). The body frame is bone · offset, so mass properties,
 * colliders and joint frames are written in the bone node's frame (offset applied). Each shape is a child
 * node `<body>:collider<i>` with an implicit shape (capsule and cylinder along the node's Y; the ellipsoid
 * as a convex-hull mesh on the node). A joint is a child node `<joint>:frameA` of bodyA's bone, connected
 * to `<joint>:frameB` under bodyB's bone, with a physicsJoint of limits and drives.
 *
 * What the drafts cannot say (motor mode and error reduction, the swing ellipse, body damping, mass vs
 * density, the body offset, controllers, solver settings) goes into `extras.marionette`, so Marionette's
 * own import gives the rig back; other tools ignore it. The losses are in the root's extras.
 */
import { Document, WebIO, type Node } from '@gltf-transform/core';
import { mat4FromTRS, mat4Invert, mat4Mul, mat4ToTRS } from '../math/mat4';
import { composeTransforms, type Transform } from '../math/transform';
import { quatMul, quatNormalize, quatRotate, type Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { bodyRestWorld, boneRestWorld } from '../rig/restPose';
import type { RigDocument, RigJoint, RigMotor, RigShape } from '../rig/schema';
import { principalAxes } from './eigen';
import {
  ImplicitShapesExtension, PhysicsRigidBodiesExtension, type CollisionFilter, type ImplicitShape, type JointDrive,
  type JointLimit, type PhysicsMaterial,
} from './gltfPhysics';
import type { ExportLosses } from './losses';
import { motorGains } from './mjcf';
import { bodyMassProperties } from './rig';

/** Rotation taking local +Y (the implicit capsule / cylinder axis) onto our shape axis. */
export const AXIS_FROM_Y: Record<'x' | 'y' | 'z', Quat> = {
  x: [0, 0, -Math.SQRT1_2, Math.SQRT1_2],
  y: [0, 0, 0, 1],
  z: [Math.SQRT1_2, 0, 0, Math.SQRT1_2],
};

export const GROUND_NODE = 'marionette:ground';

/** The creature's glTF is in other units than the rig (skeleton.scale ≠ 1): its nodes cannot take the physics. */
export class CreatureUnitsError extends Error {
  override name = 'CreatureUnitsError';
}
const GROUND_HALF_SIZE = 1000;

export const GLTF_LOSSES: ExportLosses = {
  exact: [
    'bodies: mass, centre of mass, inertia (principal moments + orientation) on the bone nodes (motion)',
    'shapes: sphere, box, capsule, cylinder as implicit shapes; the skinned mesh, skin and animations of the creature',
    'joints: anchors and axes (frame nodes), hinge / prismatic / twist limits, fixed and locked axes',
    'cylindrical and planar joints: their free axes (locked ones limited to 0), angle and slide limits, angular and linear drives',
    'pd motors: stiffness, damping and maxForce = τmax per axis (drives, mode "force")',
    'friction (stored as √μ with frictionCombine "multiply", which gives the geometric mean of a pair) and restitution (combine "maximum")',
    'collideConnected (enableCollision)',
  ],
  approximated: [
    'ellipsoid: a convex-hull mesh (16 × 8 UV sphere) on the collider node',
    'ball swing limit: the drafts\' 2-D cone has one half-angle, the larger of ours (the ellipse is in extras)',
    'motor mode position: drives with the PD it equals when converged (kv = I/Δt, kp = r·I/Δt²)',
    'motor mode velocity: a drive with velocityTarget and damping I/Δt',
    'collision group/mask: systems "bit0".."bit31"; the drafts test a subset where we test a shared bit (equal for one-bit groups)',
    'the ground plane: a 2 km static box whose top is at the ground height',
  ],
  lost: [
    'motor mode off with friction (no drive type for joint friction; kept in extras)',
    'body linear and angular damping, mass vs density, per-shape mass (kept in extras)',
    'controllers (gait, IK) and solver settings (gravity, dt, substeps, iterations: kept in extras)',
    'hollow spheres and cylinders (their inertia is in the motion; the shape flag is in extras)',
    'the screw joint\'s coupling: the drafts have no helical axis, so a screw is written as a cylindrical joint (rotation and slide along frame X free, the slide limited to pitch × the angle limit) — its pitch is in extras, our importer restores it',
  ],
};

const num = (x: number) => (Math.abs(x) < 1e-15 ? 0 : x);
const v3 = (v: readonly number[]): [number, number, number] => [num(v[0]!), num(v[1]!), num(v[2]!)];
const q4 = (q: readonly number[]): [number, number, number, number] => { const n = quatNormalize(q as Quat); return [num(n[0]), num(n[1]), num(n[2]), num(n[3])]; };

/** A node's local TRS from a local matrix; a scale within 1e-12 of 1 is left out. */
function setLocalMatrix(node: Node, m: readonly number[]): Node {
  const trs = mat4ToTRS(m);
  node.setTranslation(v3(trs.translation)).setRotation(q4(trs.rotation));
  if (trs.scale.some((x) => Math.abs(x - 1) > 1e-12)) node.setScale(v3(trs.scale));
  return node;
}

function implicitShape(s: RigShape): ImplicitShape | null {
  switch (s.type) {
    case 'sphere': return { type: 'sphere', sphere: { radius: s.radius } };
    case 'box': return { type: 'box', box: { size: [2 * s.halfExtents[0], 2 * s.halfExtents[1], 2 * s.halfExtents[2]] } };
    case 'capsule':
      if (s.halfHeight <= 0) return { type: 'sphere', sphere: { radius: s.radius } };
      return { type: 'capsule', capsule: { height: 2 * s.halfHeight, radiusTop: s.radius, radiusBottom: s.radius } };
    case 'cylinder': return { type: 'cylinder', cylinder: { height: 2 * s.halfHeight, radiusTop: s.radius, radiusBottom: s.radius } };
    case 'ellipsoid': return null;
  }
}

/** A closed UV sphere of radii r: 16 segments × 8 rings (vertices on ±x, ±y, ±z, so its bounds are the radii). */
export function ellipsoidMesh(r: readonly [number, number, number]): { positions: Float32Array; indices: Uint16Array } {
  const seg = 16, rings = 8, pos: number[] = [], idx: number[] = [];
  pos.push(0, r[1], 0);
  for (let i = 1; i < rings; i++) {
    const phi = (Math.PI * i) / rings;
    for (let j = 0; j < seg; j++) {
      const th = (2 * Math.PI * j) / seg;
      pos.push(r[0] * Math.sin(phi) * Math.cos(th), r[1] * Math.cos(phi), r[2] * Math.sin(phi) * Math.sin(th));
    }
  }
  pos.push(0, -r[1], 0);
  const ring = (i: number, j: number) => 1 + (i - 1) * seg + (j % seg);
  const last = 1 + (rings - 1) * seg;
  for (let j = 0; j < seg; j++) idx.push(0, ring(1, j + 1), ring(1, j));
  for (let i = 1; i < rings - 1; i++) {
    for (let j = 0; j < seg; j++) idx.push(ring(i, j), ring(i, j + 1), ring(i + 1, j), ring(i, j + 1), ring(i + 1, j + 1), ring(i + 1, j));
  }
  for (let j = 0; j < seg; j++) idx.push(last, ring(rings - 1, j), ring(rings - 1, j + 1));
  return { positions: new Float32Array(pos), indices: new Uint16Array(idx) };
}

function bits(x: number): string[] {
  const out: string[] = [];
  for (let b = 0; b < 32; b++) if (((x >>> b) & 1) === 1) out.push(`bit${b}`);
  return out;
}

function jointLimits(j: RigJoint): JointLimit[] {
  const lockLinear: JointLimit = { linearAxes: [0, 1, 2], min: 0, max: 0 };
  switch (j.type) {
    case 'fixed': return [lockLinear, { angularAxes: [0, 1, 2], min: 0, max: 0 }];
    case 'hinge': return [lockLinear, { angularAxes: [1, 2], min: 0, max: 0 }, ...(j.limit ? [{ angularAxes: [0], min: j.limit[0], max: j.limit[1] }] : [])];
    case 'prismatic': return [{ linearAxes: [1, 2], min: 0, max: 0 }, { angularAxes: [0, 1, 2], min: 0, max: 0 }, ...(j.limit ? [{ linearAxes: [0], min: j.limit[0], max: j.limit[1] }] : [])];
    case 'cylindrical': case 'screw': {
      // The screw's coupling has no counterpart (GLTF_LOSSES): the slide is bounded by pitch × the angle limit.
      const slide = j.type === 'cylindrical' ? j.slideLimit : j.limit && [Math.min(j.pitch * j.limit[0], j.pitch * j.limit[1]), Math.max(j.pitch * j.limit[0], j.pitch * j.limit[1])];
      return [
        { linearAxes: [1, 2], min: 0, max: 0 }, { angularAxes: [1, 2], min: 0, max: 0 },
        ...(j.limit ? [{ angularAxes: [0], min: j.limit[0], max: j.limit[1] }] : []),
        ...(slide ? [{ linearAxes: [0], min: slide[0], max: slide[1] }] : []),
      ];
    }
    case 'planar': return [
      { linearAxes: [0], min: 0, max: 0 }, { angularAxes: [1, 2], min: 0, max: 0 },
      ...(j.limit ? [{ angularAxes: [0], min: j.limit[0], max: j.limit[1] }] : []),
      ...(j.slideLimitY ? [{ linearAxes: [1], min: j.slideLimitY[0], max: j.slideLimitY[1] }] : []),
      ...(j.slideLimitZ ? [{ linearAxes: [2], min: j.slideLimitZ[0], max: j.slideLimitZ[1] }] : []),
    ];
    case 'ball': return [
      lockLinear,
      ...(j.twistLimit ? [{ angularAxes: [0], min: j.twistLimit[0], max: j.twistLimit[1] }] : []),
      ...(j.swingLimit ? [{ angularAxes: [1, 2], min: 0, max: Math.max(j.swingLimit[0], j.swingLimit[1]) }] : []),
    ];
  }
}

export interface GltfPhysicsOptions {
  /** The creature's own document (skin, mesh, animations); its nodes named as the rig's bones get the physics. Mutated. */
  creature?: Document;
}

/** The rig's physics added to the creature's document (or to a new one with a node per bone). */
export function buildGltfDocument(rig: RigDocument, options: GltfPhysicsOptions = {}): Document {
  const doc = options.creature ?? new Document();
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0] ?? doc.createScene(rig.name);
  if (!root.getDefaultScene()) root.setDefaultScene(scene);
  const buffer = () => root.listBuffers()[0] ?? doc.createBuffer('buffer');
  const physics = doc.createExtension(PhysicsRigidBodiesExtension);
  const shapesExt = doc.createExtension(ImplicitShapesExtension);

  // Bone nodes: the creature's, by name, or new ones from the skeleton's rest pose.
  const boneNodes = new Map<string, Node>();
  const creatureScale = rig.skeleton.scale ?? 1;
  if (options.creature && creatureScale !== 1) {
    throw new CreatureUnitsError(`the creature's file is not in metres (the rig's skeleton.scale is ${creatureScale} m per file unit): its nodes cannot carry physics in metres; export without the creature, or rescale the file`);
  }
  if (options.creature) {
    for (const n of root.listNodes()) if (!boneNodes.has(n.getName())) boneNodes.set(n.getName(), n);
    const missing = rig.bodies.map((b) => b.bone).filter((b) => !boneNodes.has(b));
    if (missing.length) throw new Error(`the creature has no node named ${missing.map((m) => `"${m}"`).join(', ')} (bones of the rig's bodies)`);
  } else {
    for (const b of rig.skeleton.bones) boneNodes.set(b.name, doc.createNode(b.name).setTranslation(v3(b.rest.translation)).setRotation(q4(b.rest.rotation)).setScale(v3(b.rest.scale)));
    for (const b of rig.skeleton.bones) {
      const n = boneNodes.get(b.name)!;
      if (b.parent === null) scene.addChild(n); else boneNodes.get(b.parent)!.addChild(n);
    }
  }

  const materialIndex = new Map<string, number>();
  const material = (friction: number, restitution: number, extras?: Record<string, unknown>) => {
    const key = `${friction}/${restitution}`;
    let i = materialIndex.get(key);
    if (i === undefined) {
      const m: PhysicsMaterial = { staticFriction: Math.sqrt(friction), dynamicFriction: Math.sqrt(friction), restitution, frictionCombine: 'multiply', restitutionCombine: 'maximum', ...(extras ? { extras } : {}) };
      i = physics.physicsMaterials.push(m) - 1;
      materialIndex.set(key, i);
    }
    return i;
  };
  const filterIndex = new Map<string, number>();
  const filter = (group: number, mask: number): number | undefined => {
    if (group === 1 && mask >>> 0 === 0xffffffff) return undefined; // the drafts' default: collide with everything
    const key = `${group}/${mask}`;
    let i = filterIndex.get(key);
    if (i === undefined) {
      const f: CollisionFilter = { collisionSystems: bits(group), collideWithSystems: bits(mask) };
      i = physics.collisionFilters.push(f) - 1;
      filterIndex.set(key, i);
    }
    return i;
  };

  const boneWorld = boneRestWorld(rig.skeleton.bones);
  const world = bodyRestWorld(rig.bodies, boneWorld);
  // Helper nodes and motion values are written in the bone NODE's local space, whatever the creature's
  // nodes above it do (a centimetre armature's scale, a Z-up root's rotation): local = W_node⁻¹ · world,
  // with the world pose from the rig (bone world, which matches the node's rigid world pose) in metres.
  const inverseNodeWorld = new Map<string, number[]>();
  const invWorldOf = (bone: string): number[] => {
    let m = inverseNodeWorld.get(bone);
    if (!m) {
      const inv = mat4Invert(boneNodes.get(bone)!.getWorldMatrix() as unknown as number[]);
      if (!inv) throw new Error(`bone node "${bone}" has a singular world matrix (a zero scale)`);
      inverseNodeWorld.set(bone, (m = inv));
    }
    return m;
  };
  /** Place `node` (a child of `bone`'s node) at `pose`, given in the bone's rigid frame in metres, world scale 1. */
  const place = (node: Node, bone: string, pose: Transform) => {
    const b = boneWorld.get(bone)!;
    const w = composeTransforms({ position: b.position, rotation: b.rotation }, pose);
    return setLocalMatrix(node, mat4Mul(invWorldOf(bone), mat4FromTRS({ translation: w.position, rotation: w.rotation, scale: [1, 1, 1] })));
  };
  const h = rig.simulation.dt / rig.simulation.substeps;
  const offsets = new Map<string, Transform>();
  for (const body of rig.bodies) {
    const node = boneNodes.get(body.bone)!;
    const offset: Transform = { position: [...body.offset.position] as Vec3, rotation: quatNormalize(body.offset.rotation) };
    offsets.set(body.name, offset);
    const mp = bodyMassProperties(body);
    const pa = principalAxes(mp.inertia);
    const p = physics.nodes.get(node) ?? {};
    if (body.type !== 'static') {
      p.motion = {
        ...(body.type === 'kinematic' ? { isKinematic: true } : {}),
        mass: mp.mass,
        ...(() => {
          const b = boneWorld.get(body.bone)!;
          const w = composeTransforms({ position: b.position, rotation: b.rotation }, composeTransforms(offset, { position: mp.centroid as Vec3, rotation: pa.orientation }));
          const local = mat4ToTRS(mat4Mul(invWorldOf(body.bone), mat4FromTRS({ translation: w.position, rotation: w.rotation, scale: [1, 1, 1] })));
          return { centerOfMass: v3(local.translation), inertiaDiagonal: v3(pa.diagonal), inertiaOrientation: q4(local.rotation) };
        })(),
      };
    }
    physics.nodes.set(node, p);
    node.setExtras({ ...node.getExtras(), marionette: {
      body: {
        name: body.name, type: body.type, offset: { position: v3(offset.position), rotation: q4(offset.rotation) },
        mass: body.mass, density: body.density, linearDamping: body.linearDamping, angularDamping: body.angularDamping,
        ...(body.extras ? { extras: body.extras } : {}),
      },
    } });
    const mat = material(body.material.friction, body.material.restitution);
    const flt = filter(body.collisionGroup, body.collisionMask);
    body.shapes.forEach((s, i) => {
      const c = doc.createNode(`${body.name}:collider${i}`);
      const axisRot = s.type === 'capsule' || s.type === 'cylinder' ? AXIS_FROM_Y[s.axis] : ([0, 0, 0, 1] as Quat);
      place(c, body.bone, composeTransforms(offset, { position: [...s.position] as Vec3, rotation: quatMul(quatNormalize(s.rotation), axisRot) }));
      const shapeExtras: Record<string, unknown> = { type: s.type };
      if (s.type === 'capsule' || s.type === 'cylinder') shapeExtras.axis = s.axis;
      if (s.type === 'sphere' || s.type === 'cylinder') shapeExtras.hollow = s.hollow;
      if (s.type === 'ellipsoid') shapeExtras.radii = [...s.radii];
      if (s.mass !== undefined) shapeExtras.mass = s.mass;
      if (s.density !== undefined) shapeExtras.density = s.density;
      c.setExtras({ marionette: { shape: shapeExtras } });
      const implicit = implicitShape(s);
      let geometry: { shape?: number; node?: Node; convexHull?: boolean };
      if (implicit) geometry = { shape: shapesExt.shapes.push(implicit) - 1 };
      else {
        const { positions, indices } = ellipsoidMesh((s as Extract<RigShape, { type: 'ellipsoid' }>).radii);
        const prim = doc.createPrimitive()
          .setAttribute('POSITION', doc.createAccessor(`${body.name}:collider${i}:positions`).setType('VEC3').setArray(positions).setBuffer(buffer()))
          .setIndices(doc.createAccessor(`${body.name}:collider${i}:indices`).setType('SCALAR').setArray(indices).setBuffer(buffer()));
        c.setMesh(doc.createMesh(`${body.name}:collider${i}:hull`).addPrimitive(prim));
        geometry = { node: c, convexHull: true };
      }
      physics.nodes.set(c, { collider: { geometry, physicsMaterial: mat, ...(flt !== undefined ? { collisionFilter: flt } : {}) } });
      node.addChild(c);
    });
  }

  for (const j of rig.joints) {
    const A = rig.bodies.find((b) => b.name === j.bodyA)!, B = rig.bodies.find((b) => b.name === j.bodyB)!;
    const na = doc.createNode(`${j.name}:frameA`), nb = doc.createNode(`${j.name}:frameB`);
    place(na, A.bone, composeTransforms(offsets.get(A.name)!, { position: [...j.frameA.position] as Vec3, rotation: quatNormalize(j.frameA.rotation) }));
    place(nb, B.bone, composeTransforms(offsets.get(B.name)!, { position: [...j.frameB.position] as Vec3, rotation: quatNormalize(j.frameB.rotation) }));
    boneNodes.get(A.bone)!.addChild(na);
    boneNodes.get(B.bone)!.addChild(nb);
    const drives: JointDrive[] = [];
    const tb = world.get(B.name)!;
    const addDrives = (motor: RigMotor, linear: boolean, axes: readonly number[], velocityTarget: boolean) => {
      if (motor.mode === 'off') return;
      // A slide motor's gains come from the child's mass (motorGains reads a prismatic joint as a slide).
      const asJoint = { ...j, type: linear ? 'prismatic' : j.type, motor } as RigJoint & { motor: RigMotor };
      for (const k of axes) {
        const e: Vec3 = [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0];
        const nWorld = quatRotate(tb.rotation, quatRotate(quatNormalize(j.frameB.rotation), e));
        const g = motorGains(rig, asJoint, nWorld, world, h);
        drives.push({
          type: linear ? 'linear' : 'angular', mode: 'force', axis: k, maxForce: motor.maxTorque,
          ...(g.kind === 'position' && motor.target.source === 'rest' ? { positionTarget: 0 } : {}),
          velocityTarget: g.kind === 'velocity' && velocityTarget ? (motor.target.velocity ?? 0) : 0,
          stiffness: g.kp, damping: g.kv,
        });
      }
    };
    if (j.type === 'ball') addDrives(j.motor, false, [0, 1, 2], false);
    else if (j.type !== 'fixed') addDrives(j.motor, j.type === 'prismatic', [0], true);
    if (j.type === 'cylindrical') addDrives(j.slideMotor, true, [0], true);
    if (j.type === 'planar') addDrives(j.slideMotor, true, [1, 2], false);
    const jointExtras: Record<string, unknown> = { name: j.name, type: j.type };
    if (j.type !== 'fixed') jointExtras.motor = j.motor;
    if (j.type === 'ball') { jointExtras.swingLimit = j.swingLimit; jointExtras.twistLimit = j.twistLimit; }
    if (j.type === 'screw') jointExtras.pitch = j.pitch;
    if (j.type === 'cylindrical' || j.type === 'planar') jointExtras.slideMotor = j.slideMotor;
    if (j.extras) jointExtras.extras = j.extras;
    const index = physics.physicsJoints.push({ limits: jointLimits(j), ...(drives.length ? { drives } : {}) }) - 1;
    physics.nodes.set(na, { joint: { connectedNode: nb, joint: index, enableCollision: j.collideConnected } });
    na.setExtras({ marionette: { joint: jointExtras } });
  }

  const ground = rig.simulation.ground;
  if (ground) {
    const g = doc.createNode(GROUND_NODE).setTranslation([0, ground.height - 0.5, 0]);
    const box = shapesExt.shapes.push({ type: 'box', box: { size: [2 * GROUND_HALF_SIZE, 1, 2 * GROUND_HALF_SIZE] } }) - 1;
    physics.nodes.set(g, { collider: { geometry: { shape: box }, physicsMaterial: material(ground.friction, ground.restitution) } });
    g.setExtras({ marionette: { ground: true } });
    scene.addChild(g);
  }

  const { bodies: _b, joints: _j, skeleton, ...rest } = rig;
  root.setExtras({
    ...root.getExtras(),
    marionette: {
      note: 'KHR_physics_rigid_bodies and KHR_implicit_shapes are Khronos DRAFT extensions; Marionette-only data is in extras.marionette',
      rig: { ...rest },
      bones: skeleton.bones.map((b) => b.name),
      // The rig's own rest pose (metres, scale as authored): a creature's nodes may differ (file units, an armature above).
      skeleton: skeleton.bones,
      ...(skeleton.scale !== undefined ? { skeletonScale: skeleton.scale } : {}),
      order: { bodies: rig.bodies.map((b) => b.name), joints: rig.joints.map((j) => j.name) },
      losses: GLTF_LOSSES,
    },
  });
  return doc;
}

export function gltfIO(): WebIO {
  return new WebIO().registerExtensions([PhysicsRigidBodiesExtension, ImplicitShapesExtension]);
}

/** GLB bytes of the rig's physics on the creature (or on bare bone nodes). */
export async function writeGlb(rig: RigDocument, options: GltfPhysicsOptions = {}): Promise<Uint8Array> {
  return gltfIO().writeBinary(buildGltfDocument(rig, options));
}
