/**
 * The viewport's click priority, as a user of Unreal's Physics Asset Editor expects it: a skeleton gizmo
 * (drawn on top of everything) > a drawn body shape > the skinned mesh's dominant bone; a limit handle in
 * front of a body takes the click; the Poke tool hits bodies whether the bodies overlay is on or not.
 * Real three.js ray casts from a perspective camera through a page point, no mocks of the ray maths.
 */
import { describe, expect, it } from 'vitest';
import {
  Bone, BufferGeometry, Float32BufferAttribute, Group, Mesh, MeshBasicMaterial, PerspectiveCamera, Raycaster, Scene,
  Skeleton, SkinnedMesh, SphereGeometry, Uint16BufferAttribute, Vector2, type Object3D,
} from 'three';
import { pickBody, pickBodyOnRay } from '../../../renderer/src/authoring/bodyPicking';
import { SKELETON_GIZMOS, boneFromIntersections, boneGizmoHit } from '../../../renderer/src/viewport/picking';

/** A 100 × 100 px viewport at the page origin; the camera 5 m away on +z looks at the origin. */
const viewport = { getBoundingClientRect: () => ({ left: 0, top: 0, width: 100, height: 100 }) as DOMRect };
const CENTRE = [50, 50] as const;

function world() {
  const scene = new Scene();
  const camera = new PerspectiveCamera(40, 1, 0.1, 100);
  camera.position.set(0, 0, 5);
  camera.lookAt(0, 0, 0);
  const authoring = new Group();
  const bodies = new Group();
  bodies.name = 'bodies';
  // Body "forearm": one 0.5 m sphere at the origin, the shape the user sees around the bone.
  const body = new Group();
  body.userData = { body: 'forearm' };
  const shape = new Mesh(new SphereGeometry(0.5, 16, 12), new MeshBasicMaterial());
  shape.userData = { body: 'forearm', shape: 0 };
  body.add(shape);
  bodies.add(body);
  const limits = new Group();
  limits.name = 'limits';
  authoring.add(bodies, limits);
  // The skeleton overlay: the wrist joint sphere (2 cm) at the centre of the body, bone "hand".
  const skeleton = new Group();
  skeleton.name = SKELETON_GIZMOS;
  const joint = new Mesh(new SphereGeometry(0.02, 8, 6), new MeshBasicMaterial());
  joint.userData.bone = 'hand';
  skeleton.add(joint);
  scene.add(authoring, skeleton);
  scene.updateMatrixWorld(true);
  camera.updateMatrixWorld(true);
  return { scene, camera, bodies, limits, skeleton, joint };
}

/** Page x of the point (x, 0, z): half the 40° field of view spans 50 px at distance 5 − z. */
const pageX = (x: number, z: number) => 50 + (x / (Math.tan((20 * Math.PI) / 180) * (5 - z))) * 50;
/** On the body sphere, 0.3 m right of the joint in the z = 0 plane: well off the 2 cm gizmo. */
const OFF_JOINT_X = pageX(0.3, 0);

describe('pickBody (the rig layer decides before bone picking)', () => {
  it('Select tool: a skeleton gizmo under the cursor wins over the body around it; off the gizmo the body is hit', () => {
    const w = world();
    expect(pickBody(w.scene, w.camera, viewport, ...CENTRE, { bonesFirst: true })).toBeNull();
    const off = pickBody(w.scene, w.camera, viewport, OFF_JOINT_X, 50, { bonesFirst: true });
    expect(off).toMatchObject({ body: 'forearm', shape: 0 });
    // The hit is on the sphere's front surface (radius 0.5 m; the 16 × 12 tessellation cuts ≤ 2 cm in).
    const [x, y, z] = off!.point;
    expect(Math.hypot(x, y, z)).toBeGreaterThan(0.48);
    expect(Math.hypot(x, y, z)).toBeLessThan(0.5 + 1e-9);
    expect(z).toBeGreaterThan(0.3);
  });

  it('with the skeleton hidden the same centre click selects the body', () => {
    const w = world();
    w.skeleton.visible = false;
    expect(pickBody(w.scene, w.camera, viewport, ...CENTRE, { bonesFirst: true })).toMatchObject({ body: 'forearm' });
  });

  it('bodies overlay off: Select ignores them (the mesh decides), Poke still hits the body inside the creature', () => {
    const w = world();
    w.bodies.visible = false;
    expect(pickBody(w.scene, w.camera, viewport, OFF_JOINT_X, 50, { bonesFirst: true })).toBeNull();
    expect(pickBody(w.scene, w.camera, viewport, OFF_JOINT_X, 50, { hiddenBodies: true })).toMatchObject({ body: 'forearm' });
    // Poke does not defer to the skeleton: the user pokes the creature, the gizmo is drawn over it.
    expect(pickBody(w.scene, w.camera, viewport, ...CENTRE, { hiddenBodies: true })).toMatchObject({ body: 'forearm' });
    // A shape switched off itself stays unhittable even for Poke.
    w.bodies.children[0]!.children[0]!.visible = false;
    expect(pickBody(w.scene, w.camera, viewport, OFF_JOINT_X, 50, { hiddenBodies: true })).toBeNull();
  });

  it('along a pointer event\'s ray (hover) the answer is the same as from the page point', () => {
    const w = world();
    const r = new Raycaster();
    r.setFromCamera(new Vector2((OFF_JOINT_X - 50) / 50, 0), w.camera);
    const onRay = pickBodyOnRay(w.scene, w.camera, r.ray)!;
    const atPoint = pickBody(w.scene, w.camera, viewport, OFF_JOINT_X, 50)!;
    expect(onRay).toMatchObject({ body: 'forearm', shape: 0 });
    onRay.point.forEach((v, i) => expect(v).toBeCloseTo(atPoint.point[i]!, 9));
    r.setFromCamera(new Vector2(0, 0), w.camera);
    expect(pickBodyOnRay(w.scene, w.camera, r.ray, { bonesFirst: true })).toBeNull();
  });

  it('a limit handle in front of a body takes the click; the limit arc itself does not', () => {
    const w = world();
    const handle = new Mesh(new SphereGeometry(0.05, 8, 6), new MeshBasicMaterial());
    handle.userData.limitHandle = 'elbow:limit:max';
    handle.position.set(0.3, 0, 1);
    w.limits.add(handle);
    w.scene.updateMatrixWorld(true);
    expect(pickBody(w.scene, w.camera, viewport, pageX(0.3, 1), 50, { bonesFirst: true })).toBeNull();
    // The same mesh as part of the arc (no handle): the body behind it is hit.
    handle.userData = {};
    expect(pickBody(w.scene, w.camera, viewport, pageX(0.3, 1), 50, { bonesFirst: true })).toMatchObject({ body: 'forearm' });
  });
});

describe('boneFromIntersections (bone picking)', () => {
  /** One triangle skinned 0.7 / 0.3 to bones a / b (vertex weights summed per bone decide). */
  function skinnedTriangle() {
    const a = new Bone(), b = new Bone();
    a.add(b);
    const g = new BufferGeometry();
    g.setAttribute('position', new Float32BufferAttribute([-1, -1, 0, 1, -1, 0, 0, 1, 0], 3));
    g.setAttribute('skinIndex', new Uint16BufferAttribute([0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0], 4));
    g.setAttribute('skinWeight', new Float32BufferAttribute([0.7, 0.3, 0, 0, 0.7, 0.3, 0, 0, 0.6, 0.4, 0, 0], 4));
    const mesh = new SkinnedMesh(g, new MeshBasicMaterial());
    mesh.add(a);
    mesh.bind(new Skeleton([a, b]));
    return { mesh, bones: [a, b] as Object3D[] };
  }
  const hitsAt = (roots: Object3D[]) => {
    const camera = new PerspectiveCamera(40, 1, 0.1, 100);
    camera.position.set(0, 0, 5);
    camera.lookAt(0, 0, 0);
    camera.updateMatrixWorld(true);
    const r = new Raycaster();
    r.setFromCamera(new Vector2(0, 0), camera);
    return r.intersectObjects(roots, true);
  };

  it('the mesh picks the bone with the largest summed weight on the hit triangle (a: 2.0 vs b: 1.0)', () => {
    const { mesh, bones } = skinnedTriangle();
    mesh.updateMatrixWorld(true);
    expect(boneFromIntersections(hitsAt([mesh]), bones, ['a', 'b'])).toBe('a');
  });

  it('a drawn skeleton gizmo wins over the mesh even behind it; a hidden one does not', () => {
    const { mesh, bones } = skinnedTriangle();
    const gizmo = new Mesh(new SphereGeometry(0.05, 8, 6), new MeshBasicMaterial());
    gizmo.userData.bone = 'b';
    gizmo.position.z = -0.5;
    const scene = new Scene();
    scene.add(mesh, gizmo);
    scene.updateMatrixWorld(true);
    const hits = hitsAt([mesh, gizmo]);
    expect(hits[0]!.object).toBe(mesh);
    expect(boneGizmoHit(hits)).toBe('b');
    expect(boneFromIntersections(hits, bones, ['a', 'b'])).toBe('b');
    gizmo.visible = false;
    expect(boneFromIntersections(hits, bones, ['a', 'b'])).toBe('a');
  });
});
