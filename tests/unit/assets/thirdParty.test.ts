/** The real-creature corpus (assets/third-party/corpus.json, issue 10): every file exists and parses, every
 *  licence is redistributable, the rig features the issue lists are each covered by at least one creature,
 *  and each feature a creature claims is really in its file (checked on the glTF node tree, skins and
 *  weights with @gltf-transform, independently of Marionette's reader). The synthetic members are what
 *  assets/scripts/corpusCreatures.ts writes, byte for byte. Generate and physics on the corpus are tested
 *  elsewhere. */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { NodeIO, type Document, type Node } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { mat4Mul, mat4TransformPoint, type Vec3 } from '../../../shared/math';
import { parseCreature } from '../../../shared/skeleton';
import { corpusCreatureFiles } from '../../../assets/scripts/corpusCreatures';
import { loadFbx } from '../../../renderer/src/creature/fbx/loadFbx';

const root = join(__dirname, '../../..');
interface Entry {
  name: string; file: string; format: 'glb' | 'gltf' | 'fbx'; resources?: string[]; licence: string; author: string; source: string;
  features: string[]; standsOnLegs: boolean; kind: 'biped' | 'quadruped' | 'hexapod' | 'other'; legs?: number;
  heightMetres: number; fileHeight: number; unitsNote?: string;
}
const manifest = JSON.parse(readFileSync(join(root, 'assets/third-party/corpus.json'), 'utf8')) as { features: Record<string, string>; creatures: Entry[] };
const corpus = manifest.creatures;

/** Every rig feature issue 10 says real files have. */
const ISSUE_FEATURES = [
  'armature-transform', 'z-up-turn', 'armature-scale', 'non-uniform-scale', 'centimetre-units', 'helper-bones', 'end-bones',
  'rigid-parts', 'rest-differs-from-bind', 'multiple-skins', 'naming-mixamo', 'naming-unreal', 'naming-rigify', 'naming-arbitrary',
  'biped', 'quadruped', 'many-legged', 'fbx',
];
const LICENCES = new Set(['CC0-1.0', 'CC-BY-4.0', 'CC0-1.0 AND CC-BY-4.0', 'own']);

describe('assets/third-party/corpus.json', () => {
  it('lists at least 10 third-party creatures and names every feature of the issue', () => {
    expect(corpus.filter((c) => c.licence !== 'own').length).toBeGreaterThanOrEqual(10);
    expect(Object.keys(manifest.features).sort()).toEqual([...ISSUE_FEATURES].sort());
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length);
  });

  it('has, per creature, an existing file, a redistributable licence, a source, a plausible height and a kind', () => {
    for (const c of corpus) {
      const where = `${c.name} (${c.file})`;
      expect(existsSync(join(root, c.file)), where).toBe(true);
      for (const r of c.resources ?? []) expect(existsSync(join(root, dirname(c.file), r)), `${where}: resource ${r}`).toBe(true);
      expect(LICENCES.has(c.licence), `${where}: licence ${c.licence}`).toBe(true);
      expect(c.source.length, where).toBeGreaterThan(10);
      expect(c.author.length, where).toBeGreaterThan(2);
      expect(c.file.startsWith('assets/third-party/'), where).toBe(true);
      expect(c.format, where).toBe(c.file.endsWith('.fbx') ? 'fbx' : c.file.endsWith('.gltf') ? 'gltf' : 'glb');
      expect(['biped', 'quadruped', 'hexapod', 'other'], where).toContain(c.kind);
      expect(c.heightMetres, where).toBeGreaterThan(0.05);
      expect(c.heightMetres, where).toBeLessThan(20);
      expect(c.fileHeight, where).toBeGreaterThan(0);
      for (const f of c.features) expect(ISSUE_FEATURES, `${where}: unknown feature ${f}`).toContain(f);
      // The kind and the legs features agree.
      expect(c.features.includes('biped'), where).toBe(c.kind === 'biped');
      expect(c.features.includes('quadruped'), where).toBe(c.kind === 'quadruped');
      expect(c.features.includes('many-legged'), where).toBe(c.kind === 'hexapod');
      if (c.kind === 'hexapod') expect(c.legs ?? 0, where).toBeGreaterThanOrEqual(6);
    }
    // The README names every third-party file with its licence.
    const readme = readFileSync(join(root, 'assets/third-party/README.md'), 'utf8');
    for (const c of corpus.filter((e) => e.licence !== 'own')) expect(readme, c.name).toContain(basename(c.file));
  });

  it('covers every rig feature of the issue with at least one creature', () => {
    const missing = ISSUE_FEATURES.filter((f) => !corpus.some((c) => c.features.includes(f)));
    expect(missing).toEqual([]);
  });
});

describe.each(corpus.filter((c) => c.format !== 'fbx').map((c) => [c.name, c] as const))('corpus creature %s', (_name, c) => {
  const bytes = new Uint8Array(readFileSync(join(root, c.file)));
  const resources = Object.fromEntries((c.resources ?? []).map((r) => [r, new Uint8Array(readFileSync(join(root, dirname(c.file), r)))]));

  it('parses with the project reader: bones, at least one skin, skinned vertices', () => {
    const creature = parseCreature({ name: basename(c.file), bytes, resources });
    expect(creature.skeleton.bones.length).toBeGreaterThanOrEqual(2);
    expect(creature.skins.length).toBeGreaterThanOrEqual(1);
    expect(creature.mesh.skinnedVertexCount).toBeGreaterThan(90);
  });

  it('has each feature it claims, in the file itself', async () => {
    const doc = await readDoc(c, bytes, resources);
    const facts = rigFacts(doc);
    const claims: Record<string, boolean> = {
      'armature-transform': facts.aboveSkeleton.some((n) => !isIdentity(n)),
      'z-up-turn': facts.aboveSkeleton.some((n) => turnsZUp(n)),
      'armature-scale': facts.aboveSkeleton.some((n) => { const s = n.getScale(); return Math.abs(s[0] - s[1]) < 1e-6 && Math.abs(s[1] - s[2]) < 1e-6 && (s[0] <= 0.02 || s[0] >= 50); }),
      'non-uniform-scale': facts.nonJoints.some((n) => { const s = n.getScale(); return Math.abs(s[0] / s[1] - 1) > 0.01 || Math.abs(s[1] / s[2] - 1) > 0.01; }),
      // cm numbers in the file: a creature ~50-200x its metre height, or cm data under an Armature x0.01.
      'centimetre-units': facts.height / c.heightMetres > 50 || facts.aboveSkeleton.some((n) => Math.abs(n.getScale()[0] - 0.01) < 1e-6),
      'helper-bones': facts.unweightedJoints.some((n) => /ik|pole|root|mch-|org-|target|torso/i.test(n)),
      'end-bones': facts.endNodes.length > 0,
      'rigid-parts': facts.rigidMeshesUnderJoints > 0,
      'rest-differs-from-bind': facts.bindDeviation > 1e-3,
      'multiple-skins': doc.getRoot().listSkins().length >= 2,
      'naming-mixamo': facts.jointNames.some((n) => n.startsWith('mixamorig:')),
      'naming-unreal': ['pelvis', 'spine_01', 'thigh_l', 'calf_l', 'foot_l', 'ik_foot_root'].every((n) => facts.jointNames.includes(n)),
      'naming-rigify': facts.jointNames.some((n) => n.startsWith('DEF-')) && facts.jointNames.some((n) => /^(ORG|MCH)-/.test(n)),
      'naming-arbitrary': !facts.jointNames.some((n) => n.startsWith('mixamorig:') || n.startsWith('DEF-') || n === 'spine_01'),
    };
    for (const f of c.features) {
      if (f in claims) expect(claims[f], `${c.name} claims ${f}`).toBe(true);
    }
    // The recorded file height is the skinned rest mesh's, within 1 %.
    expect(Math.abs(facts.height / c.fileHeight - 1), `${c.name}: measured ${facts.height}`).toBeLessThan(0.01);
  });
});

describe('the FBX corpus creatures', () => {
  it('are FBX files with their unit scale', () => {
    for (const c of corpus.filter((e) => e.format === 'fbx')) {
      const bytes = readFileSync(join(root, c.file));
      const head = bytes.subarray(0, 32).toString('latin1');
      expect(head.startsWith('Kaydara FBX Binary') || head.startsWith('; FBX '), c.name).toBe(true);
      const text = bytes.toString('latin1');
      expect(/"UnitScaleFactor", "double", "Number", "",1\b/.test(text), `${c.name}: UnitScaleFactor 1 (cm)`).toBe(c.features.includes('centimetre-units'));
      if (c.features.includes('naming-mixamo')) expect(text).toContain('mixamorig:Hips');
    }
  });

  it("load with the editor's FBX reader, in metres, with the file's bone names", () => {
    for (const c of corpus.filter((e) => e.format === 'fbx')) {
      const loaded = loadFbx(basename(c.file), new Uint8Array(readFileSync(join(root, c.file))));
      const names = loaded.skeleton.bones.map((b) => b.name);
      expect(names.length, c.name).toBeGreaterThanOrEqual(2);
      if (c.features.includes('naming-mixamo')) expect(names, c.name).toContain('mixamorig:Hips');
      if (c.features.includes('centimetre-units')) expect(loaded.metresPerUnit, c.name).toBeCloseTo(0.01, 9);
      expect(c.fileHeight * loaded.metresPerUnit, c.name).toBeCloseTo(c.heightMetres, 6);
    }
  });
});

describe('assets/scripts/corpusCreatures.ts', () => {
  it('writes the committed synthetic corpus files byte for byte', async () => {
    const files = await corpusCreatureFiles();
    const listed = corpus.filter((c) => c.file.startsWith('assets/third-party/synthetic/')).map((c) => basename(c.file)).sort();
    expect(Object.keys(files).sort()).toEqual(listed);
    for (const [name, fresh] of Object.entries(files)) {
      const committed = readFileSync(join(root, 'assets/third-party/synthetic', name));
      expect(Buffer.compare(Buffer.from(fresh), committed), `${name} differs from the committed file: run npm run assets`).toBe(0);
    }
  });
});

// ---------------------------------------------------------------------------------------------------

async function readDoc(c: Entry, bytes: Uint8Array, resources: Record<string, Uint8Array>): Promise<Document> {
  const io = new NodeIO();
  if (c.format === 'glb') return io.readBinary(bytes);
  return io.readJSON({ json: JSON.parse(new TextDecoder().decode(bytes)) as never, resources: resources as Record<string, Uint8Array<ArrayBuffer>> });
}

const vec3 = (a: ArrayLike<number>): Vec3 => [a[0]!, a[1]!, a[2]!];

function isIdentity(n: Node): boolean {
  const m = n.getMatrix();
  return m.every((x, i) => Math.abs(x - (i % 5 === 0 ? 1 : 0)) < 1e-6);
}

/** The node's own matrix takes +Z onto +Y (a Z-up source turned to glTF's Y-up). */
function turnsZUp(n: Node): boolean {
  const m = n.getMatrix();
  const z = [m[8]!, m[9]!, m[10]!];
  const l = Math.hypot(z[0]!, z[1]!, z[2]!);
  return l > 0 && z[1]! / l > 0.999;
}

interface RigFacts {
  jointNames: string[];
  /** Non-joint ancestors of the joints and of the skinned mesh nodes. */
  aboveSkeleton: Node[];
  nonJoints: Node[];
  unweightedJoints: string[];
  endNodes: string[];
  rigidMeshesUnderJoints: number;
  /** Largest difference between jointWorld·inverseBind of any two joints of a skin (0 when the file's
   *  node rest is its bind pose); translations relative to the creature's height. */
  bindDeviation: number;
  /** Height (y extent) of the skinned rest mesh and unskinned meshes, file units. */
  height: number;
}

function rigFacts(doc: Document): RigFacts {
  const root = doc.getRoot();
  const skins = root.listSkins();
  const joints = new Set(skins.flatMap((s) => s.listJoints()));
  const parentOf = new Map<Node, Node>();
  for (const n of root.listNodes()) for (const ch of n.listChildren()) parentOf.set(ch, n);
  const ancestors = (n: Node): Node[] => { const out: Node[] = []; for (let p = parentOf.get(n); p; p = parentOf.get(p)) out.push(p); return out; };
  const skinned = root.listNodes().filter((n) => n.getMesh() && n.getSkin());
  const above = new Set<Node>();
  for (const n of [...joints, ...skinned]) for (const a of ancestors(n)) if (!joints.has(a)) above.add(a);

  // Weight per joint (summed over every skinned vertex) and the skinned rest mesh's extent.
  const weight = new Map<Node, number>();
  let lo = Infinity, hi = -Infinity;
  const see = (y: number) => { if (y < lo) lo = y; if (y > hi) hi = y; };
  const bindSets: number[][][] = [];
  for (const node of root.listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const skin = node.getSkin();
    if (!skin) { for (const prim of mesh.listPrimitives()) { const pos = prim.getAttribute('POSITION')!; for (let v = 0; v < pos.getCount(); v++) see(mat4TransformPoint(node.getWorldMatrix(), vec3(pos.getElement(v, [])))[1]); } continue; }
    const sj = skin.listJoints();
    const ibm = skin.getInverseBindMatrices();
    const jm = sj.map((j, i) => mat4Mul(j.getWorldMatrix(), ibm ? ibm.getElement(i, []) : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]));
    for (const prim of mesh.listPrimitives()) {
      const pos = prim.getAttribute('POSITION')!, J = prim.getAttribute('JOINTS_0')!, W = prim.getAttribute('WEIGHTS_0')!;
      for (let v = 0; v < pos.getCount(); v++) {
        const p = vec3(pos.getElement(v, [])), j = J.getElement(v, []), w = W.getElement(v, []);
        let y = 0;
        for (let k = 0; k < 4; k++) {
          if (!(w[k]! > 0)) continue;
          const joint = sj[j[k]!]!;
          weight.set(joint, (weight.get(joint) ?? 0) + w[k]!);
          y += w[k]! * mat4TransformPoint(jm[j[k]!]!, p)[1];
        }
        see(y);
      }
    }
    // Only joints that carry weight define the bind pose; helper joints may have any inverse bind.
    const weighted = sj.map((j, i) => [j, jm[i]!] as const).filter(([j]) => (weight.get(j) ?? 0) > 0).map(([, m]) => m);
    bindSets.push(weighted);
  }
  const height = hi - lo;
  // Translation columns scale with the creature: their deviation counts relative to its height.
  let bindDeviation = 0;
  for (const set of bindSets) {
    for (const m of set) {
      for (let k = 0; k < 16; k++) bindDeviation = Math.max(bindDeviation, Math.abs(m[k]! - set[0]![k]!) / (k >= 12 && k < 15 ? height : 1));
    }
  }

  const isEndName = (n: Node) => /_end$/i.test(n.getName());
  const endNodes = root.listNodes().filter((n) => isEndName(n) && (joints.has(n) ? (weight.get(n) ?? 0) === 0 : n.listChildren().length === 0 && !n.getMesh() && joints.has(parentOf.get(n)!)));
  return {
    jointNames: [...joints].map((j) => j.getName()),
    aboveSkeleton: [...above],
    nonJoints: root.listNodes().filter((n) => !joints.has(n)),
    unweightedJoints: [...joints].filter((j) => (weight.get(j) ?? 0) === 0).map((j) => j.getName()),
    endNodes: endNodes.map((n) => n.getName()),
    rigidMeshesUnderJoints: root.listNodes().filter((n) => n.getMesh() && !n.getSkin() && ancestors(n).some((a) => joints.has(a))).length,
    bindDeviation,
    height,
  };
}
