/** CreatureSpec → glTF 2.0 document (@gltf-transform/core): one node per bone, one skinned mesh (a
 *  primitive per material), one skin, the clips. Node and accessor order follow the spec's order, so
 *  the bytes depend only on the spec. */
import { Document, Format, NodeIO, type Node } from '@gltf-transform/core';
import { mat4FromTRS, mat4Invert } from '../../shared/math';
import { keyRotation, restLocals, type CreatureSpec } from './creatureSpec';

export function creatureDocument(spec: CreatureSpec): Document {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'Marionette assets/scripts/generate.ts';
  const buffer = doc.createBuffer('buffer');
  const scene = doc.createScene(spec.name);
  doc.getRoot().setDefaultScene(scene);

  const locals = restLocals(spec.bones);
  const nodes = new Map<string, Node>();
  spec.bones.forEach((b, i) => {
    const l = locals[i]!;
    const node = doc.createNode(b.name).setTranslation(l.translation).setRotation(l.rotation);
    nodes.set(b.name, node);
    if (b.parent === null) scene.addChild(node);
    else nodes.get(b.parent)!.addChild(node);
  });

  // Inverse bind matrices: inverse of each bone's world rest matrix (the mesh is authored in world).
  const ibm: number[] = [];
  for (const b of spec.bones) {
    const inv = mat4Invert(mat4FromTRS({ translation: b.head, rotation: b.rotation, scale: [1, 1, 1] }));
    if (!inv) throw new Error(`bone ${b.name}: singular rest matrix`);
    ibm.push(...inv);
  }
  const skin = doc.createSkin(`${spec.name}-skin`)
    .setSkeleton(nodes.get(spec.bones[0]!.name)!)
    .setInverseBindMatrices(doc.createAccessor('inverseBindMatrices').setType('MAT4').setArray(new Float32Array(ibm)).setBuffer(buffer));
  for (const b of spec.bones) skin.addJoint(nodes.get(b.name)!);

  const mesh = doc.createMesh(`${spec.name}-mesh`);
  for (const part of spec.parts) {
    const m = spec.materials[part.material];
    if (!m) throw new Error(`material ${part.material} not defined`);
    const material = doc.createMaterial(part.material)
      .setBaseColorFactor([m.color[0], m.color[1], m.color[2], 1])
      .setMetallicFactor(m.metallic)
      .setRoughnessFactor(m.roughness);
    const acc = (name: string, type: 'VEC3' | 'VEC4' | 'SCALAR', array: Float32Array | Uint8Array | Uint16Array) =>
      doc.createAccessor(`${part.material}-${name}`).setType(type).setArray(array).setBuffer(buffer);
    const prim = doc.createPrimitive()
      .setMaterial(material)
      .setAttribute('POSITION', acc('position', 'VEC3', new Float32Array(part.positions)))
      .setAttribute('NORMAL', acc('normal', 'VEC3', new Float32Array(part.normals)))
      .setAttribute('JOINTS_0', acc('joints', 'VEC4', new Uint8Array(part.joints)))
      .setAttribute('WEIGHTS_0', acc('weights', 'VEC4', new Float32Array(part.weights)))
      .setIndices(acc('indices', 'SCALAR', new Uint16Array(part.indices)));
    mesh.addPrimitive(prim);
  }
  scene.addChild(doc.createNode(`${spec.name}-mesh`).setMesh(mesh).setSkin(skin));

  for (const clip of spec.clips) {
    const anim = doc.createAnimation(clip.name);
    const input = doc.createAccessor(`${clip.name}-times`).setType('SCALAR').setArray(new Float32Array(clip.times)).setBuffer(buffer);
    const boneIndex = (name: string) => {
      const i = spec.bones.findIndex((b) => b.name === name);
      if (i < 0) throw new Error(`clip ${clip.name}: no bone ${name}`);
      return i;
    };
    for (const [bone, keys] of Object.entries(clip.rotations)) {
      const rest = locals[boneIndex(bone)]!.rotation;
      if (keys.length !== clip.times.length) throw new Error(`clip ${clip.name}/${bone}: ${keys.length} keys for ${clip.times.length} times`);
      const values = keys.flatMap((k) => keyRotation(rest, k));
      addChannel(anim, nodes.get(bone)!, 'rotation', input, doc.createAccessor(`${clip.name}-${bone}-rotation`).setType('VEC4').setArray(new Float32Array(values)).setBuffer(buffer));
    }
    for (const [bone, keys] of Object.entries(clip.translations ?? {})) {
      const rest = locals[boneIndex(bone)]!.translation;
      const values = keys.flatMap((k) => [rest[0] + k[0], rest[1] + k[1], rest[2] + k[2]]);
      addChannel(anim, nodes.get(bone)!, 'translation', input, doc.createAccessor(`${clip.name}-${bone}-translation`).setType('VEC3').setArray(new Float32Array(values)).setBuffer(buffer));
    }
  }
  return doc;

  function addChannel(anim: ReturnType<Document['createAnimation']>, node: Node, path: 'rotation' | 'translation',
    input: ReturnType<Document['createAccessor']>, output: ReturnType<Document['createAccessor']>): void {
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation('LINEAR');
    anim.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
  }
}

export async function toGlb(spec: CreatureSpec): Promise<Uint8Array> {
  return new NodeIO().writeBinary(creatureDocument(spec));
}

/** The same document as `<basename>.gltf` JSON plus an external `<basename>.bin`. */
export async function toGltfWithBin(spec: CreatureSpec, basename: string): Promise<Record<string, Uint8Array>> {
  const { json, resources } = await new NodeIO().writeJSON(creatureDocument(spec), { format: Format.GLTF, basename });
  const files: Record<string, Uint8Array> = { [`${basename}.gltf`]: new TextEncoder().encode(JSON.stringify(json, null, 2) + '\n') };
  for (const [uri, bytes] of Object.entries(resources)) files[uri] = bytes;
  return files;
}
