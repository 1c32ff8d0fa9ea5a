/**
 * The editor's FBX path (renderer/src/creature/fbx): the header check, the refusals (each naming the file
 * and the reason), and the unit and up-axis conversions, on variants of the generated humanoid.fbx.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadFbx } from '../../../renderer/src/creature/fbx/loadFbx';
import { readFbxHeader } from '../../../renderer/src/creature/fbx/fbxHeader';
import { loadCreature } from '../../../renderer/src/creature/loadCreature';
import type { SkeletonData } from '../../../shared/document';
import { mat4FromTRS, mat4Mul, type Mat4 } from '../../../shared/math';

const humanoid = readFileSync(fileURLToPath(new URL('../../../assets/creatures/humanoid.fbx', import.meta.url)), 'utf8');
const bytes = (s: string) => new TextEncoder().encode(s);
const binary = (version: number, body: Buffer) => {
  const v = Buffer.alloc(4);
  v.writeUInt32LE(version);
  return new Uint8Array(Buffer.concat([Buffer.from('Kaydara FBX Binary  \0\x1a\0', 'latin1'), v, body]));
};
const setting = (text: string, name: string, value: number) => {
  const re = new RegExp(`(P: "${name}", "(?:int|double)", "(?:Integer|Number)", "",)[^\\n]+`);
  expect(re.test(text)).toBe(true);
  return text.replace(re, `$1${value}`);
};

function worldPositions(s: SkeletonData): number[][] {
  const out: Mat4[] = [];
  return s.bones.map((b, i) => {
    const local = mat4FromTRS({ translation: b.translation, rotation: b.rotation, scale: b.scale });
    out[i] = b.parent < 0 ? local : mat4Mul(out[b.parent]!, local);
    return [out[i]![12]!, out[i]![13]!, out[i]![14]!];
  });
}

describe('FBX header', () => {
  it('reads binary and ASCII versions', () => {
    expect(readFbxHeader(binary(7500, Buffer.alloc(8)), 'a.fbx')).toEqual({ encoding: 'binary', version: 7500 });
    expect(readFbxHeader(bytes(humanoid), 'h.fbx')).toEqual({ encoding: 'ascii', version: 7400 });
    expect(readFbxHeader(bytes('; FBX 7.3.0 project file\nObjects:  {\n}\n'), 'c.fbx')).toEqual({ encoding: 'ascii', version: 7300 });
  });

  it('refuses FBX older than 7.0, binary or ASCII, naming the file and the version', () => {
    expect(() => readFbxHeader(binary(6100, Buffer.alloc(200)), 'old.fbx')).toThrow(/^old\.fbx: FBX 6\.1 \(FileVersion 6100\) is older than FBX 7\.0/);
    const ascii = '; FBX 6.1.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 6100\n}\n';
    expect(() => loadFbx('old-ascii.fbx', bytes(ascii))).toThrow(/^old-ascii\.fbx: FBX 6\.1 \(FileVersion 6100\) is older than FBX 7\.0/);
  });

  it('refuses what is not FBX at all, an empty file and a cut-off binary header', () => {
    expect(() => loadFbx('notes.fbx', bytes('just some text\n'))).toThrow(/^notes\.fbx: not an FBX file/);
    expect(() => loadFbx('empty.fbx', new Uint8Array(0))).toThrow(/^empty\.fbx: the file is empty/);
    expect(() => loadFbx('cut.fbx', new Uint8Array(Buffer.from('Kaydara FBX Binary  \0\x1a', 'latin1')))).toThrow(/^cut\.fbx: a binary FBX cut off inside its 27-byte header/);
  });
});

describe('loadFbx refusals', () => {
  it('a corrupt binary FBX: the file, "cannot be read", the encoding and version', () => {
    expect(() => loadFbx('broken.fbx', binary(7400, Buffer.alloc(200, 0x7f)))).toThrow(/^broken\.fbx: cannot be read as binary FBX 7\.4 \(.+\)$/);
  });

  it('an ASCII FBX cut off half-way is refused with the file name', () => {
    expect(() => loadFbx('half.fbx', bytes(humanoid.slice(0, humanoid.length / 2)))).toThrow(/^half\.fbx: cannot be read as ascii FBX 7\.4 \(.+\)$/);
  });

  it('an FBX whose mesh is not skinned: "no skinned mesh"', () => {
    // No Skin deformer and no Clusters (objects and their connections gone): a static mesh next to a
    // LimbNode hierarchy that drives nothing.
    const unskinned = humanoid
      .replace(/^\tDeformer: [^\n]*\{\n(?:\t\t[^\n]*\n)*\t\}\n/gm, '')
      .replace(/^\t;[^\n]*Deformer::[^\n]*\n\tC: [^\n]*\n/gm, '');
    expect(unskinned).not.toMatch(/\tDeformer: |Deformer::/);
    expect(unskinned).not.toBe(humanoid);
    expect(() => loadFbx('static.fbx', bytes(unskinned))).toThrow(/^static\.fbx: no skinned mesh \(no Skin deformer\)/);
  });

  it('loadCreature refuses a bad .fbx with the same message, as a rejected promise', async () => {
    await expect(loadCreature('broken.fbx', binary(7400, Buffer.alloc(64, 1)), {})).rejects.toThrow(/^broken\.fbx: cannot be read as binary FBX 7\.4/);
    await expect(loadCreature('creature.obj', bytes('v 0 0 0'), {})).rejects.toThrow(/^creature\.obj: unsupported file type/);
  });
});

describe('loadFbx conversions', () => {
  const cm = loadFbx('humanoid.fbx', bytes(humanoid));
  const cmWorld = worldPositions(cm.skeleton);

  it('UnitScaleFactor: inches (2.54 cm per unit) give every bone 2.54× the cm positions, the same rotations', () => {
    const inches = loadFbx('inches.fbx', bytes(setting(humanoid, 'UnitScaleFactor', 2.54)));
    expect(inches.metresPerUnit).toBeCloseTo(0.0254, 12);
    worldPositions(inches.skeleton).forEach((p, i) => {
      for (let c = 0; c < 3; c++) expect(p[c]!).toBeCloseTo(cmWorld[i]![c]! * 2.54, 9);
    });
    inches.skeleton.bones.forEach((b, i) => expect(b.rotation.map((x) => +x.toFixed(9))).toEqual(cm.skeleton.bones[i]!.rotation.map((x) => +x.toFixed(9))));
    // The mesh scales with it: the creature is 2.54 × 1.8 m tall.
    expect(cm.display.root.scale.x).toBe(0.01);
    expect(inches.display.root.scale.x).toBeCloseTo(0.0254, 12);
  });

  it('UpAxis = 2 (Z up): the file is turned −90° about X, so its +Z comes out as +Y in the skeleton', () => {
    const zUp = loadFbx('zup.fbx', bytes(setting(humanoid, 'UpAxis', 2)));
    // Rx(−90°): (x, y, z) → (x, z, −y).
    worldPositions(zUp.skeleton).forEach((p, i) => {
      const q = cmWorld[i]!;
      expect(p[0]!).toBeCloseTo(q[0]!, 9);
      expect(p[1]!).toBeCloseTo(q[2]!, 9);
      expect(p[2]!).toBeCloseTo(-q[1]!, 9);
    });
  });

  it('a bad UnitScaleFactor is refused naming the setting', () => {
    expect(() => loadFbx('zero.fbx', bytes(setting(humanoid, 'UnitScaleFactor', 0)))).toThrow(/^zero\.fbx: GlobalSettings UnitScaleFactor is 0/);
  });
});
