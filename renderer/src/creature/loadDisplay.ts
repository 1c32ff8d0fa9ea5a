/**
 * three.js objects for drawing a creature, parsed from the file's bytes with GLTFLoader. Display only:
 * the skeleton data the editor works with comes from shared/skeleton. External buffers and images of a
 * .gltf are served from the bytes the user picked (blob URLs), never fetched from disk or network.
 */
import { Box3, Group, LoadingManager, Mesh, Object3D, SkinnedMesh, Vector3 } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { CreatureDisplay, SkeletonData } from './types';

const asArrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? bytes.buffer
    : (bytes.slice().buffer as ArrayBuffer);

export async function parseGltfDisplay(bytes: Uint8Array, fileName: string, resources: Record<string, Uint8Array>): Promise<GLTF> {
  const blobUrls = new Map<string, string>();
  for (const [uri, data] of Object.entries(resources)) {
    blobUrls.set(uri, URL.createObjectURL(new Blob([asArrayBuffer(data)])));
  }
  const manager = new LoadingManager();
  manager.setURLModifier((url) => {
    if (url.startsWith('data:') || url.startsWith('blob:')) return url;
    // GLTFLoader resolves relative URIs against the path given to parse(); '' keeps them as written.
    const key = decodeURIComponent(url.replace(/^\.\//, ''));
    return blobUrls.get(key) ?? blobUrls.get(url) ?? `missing-resource:${key}`;
  });
  const loader = new GLTFLoader(manager);
  try {
    return await new Promise<GLTF>((resolve, reject) => {
      loader.parse(asArrayBuffer(bytes), '', resolve, (err) => reject(err instanceof Error ? err : new Error(String(err))));
    });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const missing = /missing-resource:([^"'\s)]+)/.exec(msg);
    throw new Error(missing ? `${fileName}: referenced file "${missing[1]}" was not provided` : `${fileName}: ${msg}`);
  } finally {
    for (const url of blobUrls.values()) URL.revokeObjectURL(url);
  }
}

/** Display objects for the creature, with three's bone object matched to each skeleton bone by glTF node. */
export function buildDisplay(gltf: GLTF, skeleton: SkeletonData, fileName: string): CreatureDisplay {
  const root = new Group();
  root.name = fileName;
  root.add(gltf.scene);
  const byNode = new Map<number, Object3D>();
  gltf.scene.traverse((o) => {
    const nodes = gltf.parser.associations.get(o)?.nodes;
    if (nodes !== undefined) byNode.set(nodes, o);
  });
  const boneObjects = skeleton.bones.map((b) => {
    const o = byNode.get(b.node);
    if (!o) throw new Error(`${fileName}: bone "${b.name}" (node ${b.node}) is missing from the scene graph`);
    return o;
  });
  return { root, boneObjects, ...meshStats(root) };
}

/** The skinned meshes under `root` and the triangle and vertex counts of all its meshes; every mesh is
 *  set up for the viewport (shadows; never culled: skinned meshes move outside their bind-pose bounds). */
export function meshStats(root: Object3D): Pick<CreatureDisplay, 'skinnedMeshes' | 'triangles' | 'vertices'> {
  const skinnedMeshes: SkinnedMesh[] = [];
  let triangles = 0;
  let vertices = 0;
  root.traverse((o) => {
    if ((o as SkinnedMesh).isSkinnedMesh) skinnedMeshes.push(o as SkinnedMesh);
    if ((o as Mesh).isMesh) {
      const m = o as Mesh;
      m.castShadow = true;
      m.receiveShadow = true;
      const g = m.geometry;
      const count = g.attributes.position?.count ?? 0;
      vertices += count;
      triangles += (g.index ? g.index.count : count) / 3;
      m.frustumCulled = false;
    }
  });
  root.updateMatrixWorld(true);
  return { skinnedMeshes, triangles: Math.round(triangles), vertices };
}

/** World-space bounds of the creature at rest (mesh if any, else the bones), for framing the camera. */
export function creatureBounds(display: CreatureDisplay): Box3 {
  // Parents too: the viewport draws the creature under a group scaled by the rig's skeleton.scale.
  display.root.updateWorldMatrix(true, true);
  const box = new Box3();
  if (display.skinnedMeshes.length > 0 || hasMesh(display.root)) box.setFromObject(display.root, true);
  const p = new Vector3();
  for (const b of display.boneObjects) box.expandByPoint(b.getWorldPosition(p));
  return box;
}

const hasMesh = (o: Object3D): boolean => {
  let found = false;
  o.traverse((c) => { if ((c as Mesh).isMesh) found = true; });
  return found;
};
