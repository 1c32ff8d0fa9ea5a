/** CreatureSpec → ASCII FBX 7.4 text: the same bones, skinned mesh and clips toGltf.ts writes, in FBX's
 *  own terms, so the editor's FBX path (renderer/src/creature/fbx) is tested on a real file.
 *
 *  Units and axes: +Y up, +Z front, +X the character's left (right-handed, as glTF), and lengths in
 *  centimetres with GlobalSettings UnitScaleFactor = 1 (1 file unit = 1 cm) — what Maya, Max and
 *  Unity/Unreal exports usually are, so the reader's cm → m conversion is exercised.
 *
 *  What is written (the parts an FBX reader needs for a skinned creature):
 *   - Geometry "Mesh": Vertices (cm), PolygonVertexIndex (triangles; the last index of each polygon is
 *     stored as −(i+1)), LayerElementNormal ByVertice/Direct, LayerElementMaterial ByPolygon.
 *   - Model "Mesh" at the origin, and per bone a Model "LimbNode" with Lcl Translation (cm) and Lcl Rotation
 *     (degrees, RotationOrder 0 = eEulerXYZ: R = Rz·Ry·Rx, X applied first) plus a NodeAttribute
 *     "LimbNode".
 *   - Deformer "Skin" with one "Cluster" per bone: Indexes/Weights of the vertices it moves, Transform =
 *     the mesh's global matrix at bind time (identity), TransformLink = the bone's global rest matrix (cm).
 *   - Pose "BindPose": the global matrix of the mesh and of every bone.
 *   - Materials (Phong: diffuse colour in sRGB; shininess n = 2/r² − 2 from the glTF roughness r, the inverse of
 *     the reader's r = √(2/(n+2))), one AnimationStack + AnimationLayer per clip with curve nodes
 *     T/R on the animated bones (Euler degrees per key, times in FBX ticks: 46186158000 per second).
 *   - Connections (OO parent links, OP property links).
 *  Matrices are 16 numbers, column-major with the translation in elements 12–14 (FBX's layout).
 *  Deterministic: ids are counters, numbers are rounded before printing, so the text depends only on the
 *  spec. */
import { quatRotate, type ReadonlyQuat, type ReadonlyVec3, type Vec3 } from '../../shared/math';
import { keyRotation, restLocals, type CreatureSpec } from './creatureSpec';

const CM_PER_M = 100;
/** FBX time unit: 1 s = 46186158000 ticks. */
export const FBX_TICKS_PER_SECOND = 46186158000;

/** Euler angles (degrees) of `q` for FBX's eEulerXYZ order: R = Rz(z)·Ry(y)·Rx(x). */
export function eulerXYZDegrees(q: ReadonlyQuat): Vec3 {
  const [x, y, z, w] = q;
  // Rotation matrix entries (row, column) of the unit quaternion.
  const m00 = 1 - 2 * (y * y + z * z), m10 = 2 * (x * y + z * w), m20 = 2 * (x * z - y * w);
  const m21 = 2 * (y * z + x * w), m22 = 1 - 2 * (x * x + y * y);
  const m01 = 2 * (x * y - z * w), m11 = 1 - 2 * (x * x + z * z);
  // For Rz·Ry·Rx: m20 = −sin(ry), m21 = cos(ry)·sin(rx), m22 = cos(ry)·cos(rx), m10 = cos(ry)·sin(rz),
  // m00 = cos(ry)·cos(rz); at gimbal lock (|m20| = 1) rx is folded into rz.
  const ry = Math.asin(Math.max(-1, Math.min(1, -m20)));
  const locked = Math.abs(m20) > 0.9999999;
  const rx = locked ? 0 : Math.atan2(m21, m22);
  const rz = locked ? Math.atan2(-m01, m11) : Math.atan2(m10, m00);
  const deg = 180 / Math.PI;
  return [rx * deg, ry * deg, rz * deg];
}

/** Column-major 4×4 of rotation q then translation t. */
function matrix(t: ReadonlyVec3, q: ReadonlyQuat): number[] {
  const c0 = quatRotate(q, [1, 0, 0]), c1 = quatRotate(q, [0, 1, 0]), c2 = quatRotate(q, [0, 0, 1]);
  return [...c0, 0, ...c1, 0, ...c2, 0, t[0], t[1], t[2], 1];
}

/** Shortest decimal of x rounded to `digits` decimals (no exponent form, no "-0"). */
function num(x: number, digits = 6): string {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) || r === 0 ? '0' : String(r);
}

const linearToSrgb = (c: number): number => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
const cm = (v: ReadonlyVec3): Vec3 => [v[0] * CM_PER_M, v[1] * CM_PER_M, v[2] * CM_PER_M];
const list = (xs: readonly string[]): string => xs.join(',');

/** Writes one FBX node tree as tab-indented ASCII (the layout FBX SDK writes and three's reader expects). */
class Writer {
  private readonly lines: string[] = [];
  private depth = 0;
  line(text: string): void { this.lines.push('\t'.repeat(this.depth) + text); }
  open(head: string): void { this.line(`${head} {`); this.depth++; }
  close(): void { this.depth--; this.line('}'); }
  array(name: string, values: readonly string[]): void {
    this.open(`${name}: *${values.length}`);
    this.line(`a: ${list(values)}`);
    this.close();
  }
  properties(props: readonly string[]): void {
    this.open('Properties70: ');
    for (const p of props) this.line(`P: ${p}`);
    this.close();
  }
  text(): string { return this.lines.join('\n') + '\n'; }
}

export function toFbx(spec: CreatureSpec, creator: string): string {
  const locals = restLocals(spec.bones);
  let nextId = 1000000;
  const id = (): number => nextId++;
  const meshModelId = id(), geometryId = id(), skinId = id(), poseId = id();
  const boneIds = spec.bones.map(() => ({ model: id(), attribute: id(), cluster: id() }));
  const materialNames = spec.parts.map((p) => p.material).filter((m, i, all) => all.indexOf(m) === i);
  const materialIds = materialNames.map(() => id());

  // One geometry for all parts: vertices appended part after part, polygon material = the part's.
  const positions: string[] = [], normals: string[] = [], polygons: string[] = [], polygonMaterial: string[] = [];
  const influences = spec.bones.map(() => ({ indexes: [] as string[], weights: [] as string[] }));
  let base = 0;
  for (const part of spec.parts) {
    const n = part.vertexCount;
    for (let v = 0; v < n; v++) {
      for (let c = 0; c < 3; c++) positions.push(num(part.positions[3 * v + c]! * CM_PER_M, 5));
      for (let c = 0; c < 3; c++) normals.push(num(part.normals[3 * v + c]!, 6));
      for (let k = 0; k < 4; k++) {
        const w = part.weights[4 * v + k]!;
        if (w <= 0) continue;
        const inf = influences[part.joints[4 * v + k]!]!;
        inf.indexes.push(String(base + v));
        inf.weights.push(num(w, 6));
      }
    }
    const material = String(materialNames.indexOf(part.material));
    for (let t = 0; t < part.indices.length; t += 3) {
      polygons.push(String(base + part.indices[t]!), String(base + part.indices[t + 1]!), String(-(base + part.indices[t + 2]!) - 1));
      polygonMaterial.push(material);
    }
    base += n;
  }

  const w = new Writer();
  w.line('; FBX 7.4.0 project file');
  w.line(`; Generated by ${creator}: do not edit, regenerate.`);
  w.line('; ----------------------------------------------------');
  w.line('');
  w.open('FBXHeaderExtension: ');
  w.line('FBXHeaderVersion: 1003');
  w.line('FBXVersion: 7400');
  w.line(`Creator: "${creator}"`);
  w.close();
  w.open('GlobalSettings: ');
  w.line('Version: 1000');
  const clipEnd = Math.max(0, ...spec.clips.map((c) => c.times[c.times.length - 1] ?? 0));
  w.properties([
    '"UpAxis", "int", "Integer", "",1',
    '"UpAxisSign", "int", "Integer", "",1',
    '"FrontAxis", "int", "Integer", "",2',
    '"FrontAxisSign", "int", "Integer", "",1',
    '"CoordAxis", "int", "Integer", "",0',
    '"CoordAxisSign", "int", "Integer", "",1',
    '"OriginalUpAxis", "int", "Integer", "",1',
    '"OriginalUpAxisSign", "int", "Integer", "",1',
    '"UnitScaleFactor", "double", "Number", "",1',
    '"OriginalUnitScaleFactor", "double", "Number", "",1',
    '"TimeMode", "enum", "", "",6',
    '"TimeSpanStart", "KTime", "Time", "",0',
    `"TimeSpanStop", "KTime", "Time", "",${Math.round(clipEnd * FBX_TICKS_PER_SECOND)}`,
  ]);
  w.close();
  w.line('');

  const animated = spec.clips.map((clip) => ({
    clip,
    stack: id(), layer: id(),
    nodes: [
      ...Object.keys(clip.translations ?? {}).map((bone) => ({ bone, kind: 'T' as const, node: id(), curves: [id(), id(), id()] })),
      ...Object.keys(clip.rotations).map((bone) => ({ bone, kind: 'R' as const, node: id(), curves: [id(), id(), id()] })),
    ],
  }));
  const curveNodeCount = animated.reduce((s, a) => s + a.nodes.length, 0);
  w.open('Definitions: ');
  w.line('Version: 100');
  const definitions: Array<[string, number]> = [
    ['GlobalSettings', 1], ['Model', spec.bones.length + 1], ['NodeAttribute', spec.bones.length], ['Geometry', 1],
    ['Material', materialNames.length], ['Deformer', spec.bones.length + 1], ['Pose', 1],
    ['AnimationStack', spec.clips.length], ['AnimationLayer', spec.clips.length],
    ['AnimationCurveNode', curveNodeCount], ['AnimationCurve', curveNodeCount * 3],
  ];
  w.line(`Count: ${definitions.reduce((s, [, n]) => s + n, 0)}`);
  for (const [type, count] of definitions) {
    if (count === 0) continue;
    w.open(`ObjectType: "${type}"`);
    w.line(`Count: ${count}`);
    w.close();
  }
  w.close();
  w.line('');

  w.open('Objects: ');
  // --- the mesh
  w.open(`Geometry: ${geometryId}, "Geometry::${spec.name}-mesh", "Mesh"`);
  w.array('Vertices', positions);
  w.array('PolygonVertexIndex', polygons);
  w.line('GeometryVersion: 124');
  w.open('LayerElementNormal: 0');
  w.line('Version: 101');
  w.line('Name: ""');
  w.line('MappingInformationType: "ByVertice"');
  w.line('ReferenceInformationType: "Direct"');
  w.array('Normals', normals);
  w.close();
  w.open('LayerElementMaterial: 0');
  w.line('Version: 101');
  w.line('Name: ""');
  w.line('MappingInformationType: "ByPolygon"');
  w.line('ReferenceInformationType: "IndexToDirect"');
  w.array('Materials', polygonMaterial);
  w.close();
  w.open('Layer: 0');
  w.line('Version: 100');
  for (const type of ['LayerElementNormal', 'LayerElementMaterial']) {
    w.open('LayerElement: ');
    w.line(`Type: "${type}"`);
    w.line('TypedIndex: 0');
    w.close();
  }
  w.close();
  w.close();
  model(meshModelId, `${spec.name}-mesh`, 'Mesh', [0, 0, 0], [0, 0, 0]);

  // --- the skeleton
  spec.bones.forEach((b, i) => {
    const ids = boneIds[i]!;
    w.open(`NodeAttribute: ${ids.attribute}, "NodeAttribute::${b.name}", "LimbNode"`);
    w.line('TypeFlags: "Skeleton"');
    w.close();
    const l = locals[i]!;
    model(ids.model, b.name, 'LimbNode', cm(l.translation), eulerXYZDegrees(l.rotation));
  });

  // --- materials
  materialNames.forEach((name, i) => {
    const m = spec.materials[name];
    if (!m) throw new Error(`material ${name} not defined`);
    w.open(`Material: ${materialIds[i]}, "Material::${name}", ""`);
    w.line('Version: 102');
    w.line('ShadingModel: "phong"');
    w.line('MultiLayer: 0');
    // FBX colours are sRGB (three's reader decodes them so); the spec's, like glTF's, are linear.
    const rgb = m.color.map((c) => num(linearToSrgb(c), 6)).join(',');
    w.properties([`"DiffuseColor", "Color", "", "A",${rgb}`, '"DiffuseFactor", "Number", "", "A",1', `"Shininess", "double", "Number", "",${num(2 / m.roughness ** 2 - 2, 4)}`]);
    w.close();
  });

  // --- skin: one cluster per bone
  w.open(`Deformer: ${skinId}, "Deformer::${spec.name}-skin", "Skin"`);
  w.line('Version: 101');
  w.line('Link_DeformAcuracy: 50');
  w.close();
  const identity = matrix([0, 0, 0], [0, 0, 0, 1]);
  const boneGlobal = spec.bones.map((b) => matrix(cm(b.head), b.rotation));
  spec.bones.forEach((b, i) => {
    w.open(`Deformer: ${boneIds[i]!.cluster}, "SubDeformer::${b.name}", "Cluster"`);
    w.line('Version: 100');
    w.line('UserData: "", ""');
    w.array('Indexes', influences[i]!.indexes);
    w.array('Weights', influences[i]!.weights);
    w.array('Transform', identity.map((x) => num(x, 9)));
    w.array('TransformLink', boneGlobal[i]!.map((x) => num(x, 9)));
    w.close();
  });

  // --- bind pose: global matrices at bind time
  w.open(`Pose: ${poseId}, "Pose::BIND_POSES", "BindPose"`);
  w.line('Type: "BindPose"');
  w.line('Version: 100');
  w.line(`NbPoseNodes: ${spec.bones.length + 1}`);
  const poseNode = (node: number, m: readonly number[]) => {
    w.open('PoseNode: ');
    w.line(`Node: ${node}`);
    w.array('Matrix', m.map((x) => num(x, 9)));
    w.close();
  };
  poseNode(meshModelId, identity);
  spec.bones.forEach((_, i) => poseNode(boneIds[i]!.model, boneGlobal[i]!));
  w.close();

  // --- clips: per key the full local transform (rest · key), as the glTF clips hold it
  const boneIndex = (name: string): number => {
    const i = spec.bones.findIndex((b) => b.name === name);
    if (i < 0) throw new Error(`clip: no bone ${name}`);
    return i;
  };
  const ticks = (t: number): string => String(Math.round(t * FBX_TICKS_PER_SECOND));
  for (const { clip, stack, layer, nodes } of animated) {
    const stop = ticks(clip.times[clip.times.length - 1] ?? 0);
    w.open(`AnimationStack: ${stack}, "AnimStack::${clip.name}", ""`);
    w.properties([`"LocalStop", "KTime", "Time", "",${stop}`, `"ReferenceStop", "KTime", "Time", "",${stop}`]);
    w.close();
    w.open(`AnimationLayer: ${layer}, "AnimLayer::BaseLayer", ""`);
    w.close();
    for (const n of nodes) {
      const i = boneIndex(n.bone);
      const rest = locals[i]!;
      const values: Vec3[] = n.kind === 'T'
        ? clip.translations![n.bone]!.map((k) => cm([rest.translation[0] + k[0], rest.translation[1] + k[1], rest.translation[2] + k[2]]))
        : unwrapDegrees(clip.rotations[n.bone]!.map((k) => eulerXYZDegrees(keyRotation(rest.rotation, k))));
      if (values.length !== clip.times.length) throw new Error(`clip ${clip.name}/${n.bone}: ${values.length} keys for ${clip.times.length} times`);
      w.open(`AnimationCurveNode: ${n.node}, "AnimCurveNode::${n.kind}", ""`);
      w.properties(['X', 'Y', 'Z'].map((axis, c) => `"d|${axis}", "Number", "", "A",${num(values[0]![c]!, 6)}`));
      w.close();
      n.curves.forEach((curve, c) => {
        w.open(`AnimationCurve: ${curve}, "AnimCurve::", ""`);
        w.line(`Default: ${num(values[0]![c]!, 6)}`);
        w.line('KeyVer: 4009');
        w.array('KeyTime', clip.times.map(ticks));
        w.array('KeyValueFloat', values.map((v) => num(v[c]!, 6)));
        // One attribute set for all keys: linear interpolation (eInterpolationLinear = 0x4, plus
        // tangent flags FBX SDK writes with it).
        w.array('KeyAttrFlags', ['24836']);
        w.array('KeyAttrDataFloat', ['0', '0', '255790911', '0']);
        w.array('KeyAttrRefCount', [String(clip.times.length)]);
        w.close();
      });
    }
  }
  w.close();
  w.line('');

  w.open('Connections: ');
  const oo = (child: number, parent: number, comment: string) => { w.line(`;${comment}`); w.line(`C: "OO",${child},${parent}`); };
  const op = (child: number, parent: number, property: string, comment: string) => { w.line(`;${comment}`); w.line(`C: "OP",${child},${parent}, "${property}"`); };
  oo(meshModelId, 0, `Model::${spec.name}-mesh, Model::RootNode`);
  spec.bones.forEach((b, i) => {
    const parent = b.parent === null ? 0 : boneIds[boneIndex(b.parent)]!.model;
    oo(boneIds[i]!.model, parent, `Model::${b.name}, Model::${b.parent ?? 'RootNode'}`);
    oo(boneIds[i]!.attribute, boneIds[i]!.model, `NodeAttribute::${b.name}, Model::${b.name}`);
  });
  oo(geometryId, meshModelId, `Geometry::${spec.name}-mesh, Model::${spec.name}-mesh`);
  materialNames.forEach((name, i) => oo(materialIds[i]!, meshModelId, `Material::${name}, Model::${spec.name}-mesh`));
  oo(skinId, geometryId, `Deformer::${spec.name}-skin, Geometry::${spec.name}-mesh`);
  spec.bones.forEach((b, i) => {
    oo(boneIds[i]!.cluster, skinId, `SubDeformer::${b.name}, Deformer::${spec.name}-skin`);
    oo(boneIds[i]!.model, boneIds[i]!.cluster, `Model::${b.name}, SubDeformer::${b.name}`);
  });
  for (const { clip, stack, layer, nodes } of animated) {
    oo(layer, stack, `AnimLayer::BaseLayer, AnimStack::${clip.name}`);
    for (const n of nodes) {
      oo(n.node, layer, `AnimCurveNode::${n.kind}, AnimLayer::BaseLayer`);
      op(n.node, boneIds[boneIndex(n.bone)]!.model, n.kind === 'T' ? 'Lcl Translation' : 'Lcl Rotation', `AnimCurveNode::${n.kind}, Model::${n.bone}`);
      n.curves.forEach((curve, c) => op(curve, n.node, `d|${'XYZ'[c]}`, `AnimCurve::, AnimCurveNode::${n.kind}`));
    }
  }
  w.close();
  return w.text();

  function model(modelId: number, name: string, type: string, translation: ReadonlyVec3, rotationDegrees: ReadonlyVec3): void {
    w.open(`Model: ${modelId}, "Model::${name}", "${type}"`);
    w.line('Version: 232');
    w.properties([
      '"RotationOrder", "enum", "", "",0',
      '"InheritType", "enum", "", "",1',
      `"Lcl Translation", "Lcl Translation", "", "A",${translation.map((x) => num(x, 6)).join(',')}`,
      `"Lcl Rotation", "Lcl Rotation", "", "A",${rotationDegrees.map((x) => num(x, 9)).join(',')}`,
      '"Lcl Scaling", "Lcl Scaling", "", "A",1,1,1',
    ]);
    w.line('Shading: T');
    w.line('Culling: "CullingOff"');
    w.close();
  }
}

/** Consecutive Euler keys made continuous (each angle within 180° of the previous key's), so an
 *  interpolating reader never turns the long way round. The rotations they stand for are unchanged. */
function unwrapDegrees(keys: Vec3[]): Vec3[] {
  for (let k = 1; k < keys.length; k++) {
    for (let c = 0; c < 3; c++) {
      const prev = keys[k - 1]![c]!;
      let v = keys[k]![c]!;
      while (v - prev > 180) v -= 360;
      while (v - prev < -180) v += 360;
      keys[k]![c] = v;
    }
  }
  return keys;
}

