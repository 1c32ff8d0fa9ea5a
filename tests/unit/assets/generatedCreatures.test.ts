/** The shipped creatures are generated, not hand-made: regenerating them into a temporary folder must give
 *  byte-identical files, and every generated file must be committed. */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultOutDir, writeCreatureFiles } from '../../../assets/scripts/generate';
import { skeletonFromGltf } from '../../../shared/document/creatureSkeleton';

const tmp = mkdtempSync(join(tmpdir(), 'marionette-assets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('generated creatures', () => {
  it('regenerate byte for byte into a temp folder', async () => {
    const written = await writeCreatureFiles(tmp);
    expect(written.length).toBeGreaterThanOrEqual(3);
    for (const file of readdirSync(tmp)) {
      const fresh = readFileSync(join(tmp, file));
      const shipped = readFileSync(resolve(defaultOutDir, file));
      expect(fresh.length, `${file}: size`).toBe(shipped.length);
      expect(Buffer.compare(fresh, shipped), `${file}: bytes differ — run npm run assets and commit`).toBe(0);
    }
  });

  it('are small enough to ship (< 1 MB each) and rigged with the documented bones', () => {
    const mine = readFileSync(resolve(defaultOutDir, 'armed-mine.glb'));
    const human = readFileSync(resolve(defaultOutDir, 'humanoid.glb'));
    expect(mine.length).toBeLessThan(1_000_000);
    expect(human.length).toBeLessThan(1_000_000);
    const mineBones = skeletonFromGltf(new Uint8Array(mine), 'armed-mine.glb').bones.map((b) => b.name);
    expect(mineBones).toEqual(expect.arrayContaining(['body', 'upper_arm', 'forearm', 'hand']));
    const humanBones = skeletonFromGltf(new Uint8Array(human), 'humanoid.glb').bones.map((b) => b.name);
    for (const name of ['pelvis', 'spine', 'head', 'upper_arm_l', 'upper_arm_r', 'forearm_l', 'forearm_r',
      'thigh_l', 'thigh_r', 'shin_l', 'shin_r', 'foot_l', 'foot_r']) expect(humanBones).toContain(name);
  });
});
