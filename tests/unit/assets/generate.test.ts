import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultOutDir, writeCreatureFiles } from '../../../assets/scripts/generate';

describe('assets/scripts/generate.ts', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'marionette-assets-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  let written: string[] = [];

  it('regenerates byte-identical copies of the committed creature files', async () => {
    written = await writeCreatureFiles(tmp);
    expect(written.map((f) => basename(f)).sort()).toEqual(['armed-mine.bin', 'armed-mine.glb', 'armed-mine.gltf', 'hexapod.glb', 'humanoid.glb']);
    for (const f of written) {
      const committed = readFileSync(join(defaultOutDir, basename(f)));
      const fresh = readFileSync(f);
      expect(fresh.length, basename(f)).toBe(committed.length);
      expect(Buffer.compare(fresh, committed), `${basename(f)} differs from the committed file: run npm run assets`).toBe(0);
    }
    // Every committed creature file comes from the generator (no hand-made leftovers).
    const shipped = readdirSync(defaultOutDir).filter((f) => /\.(glb|gltf|bin)$/.test(f)).sort();
    expect(shipped).toEqual(written.map((f) => basename(f)).sort());
  });

  it('keeps each file well under 1 MB, with a few thousand vertices and weights that sum to 1', async () => {
    for (const name of ['armed-mine.glb', 'humanoid.glb', 'hexapod.glb']) {
      const bytes = readFileSync(join(tmp, name));
      expect(bytes.length).toBeLessThan(400_000);
      const doc = await new NodeIO().readBinary(new Uint8Array(bytes));
      let vertices = 0;
      for (const prim of doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives())) {
        const w = prim.getAttribute('WEIGHTS_0')!.getArray()!;
        const n = prim.getAttribute('NORMAL')!.getArray()!;
        vertices += w.length / 4;
        for (let v = 0; v < w.length / 4; v++) {
          expect(Math.abs(w[v * 4]! + w[v * 4 + 1]! + w[v * 4 + 2]! + w[v * 4 + 3]! - 1)).toBeLessThan(1e-6);
          expect(Math.abs(Math.hypot(n[v * 3]!, n[v * 3 + 1]!, n[v * 3 + 2]!) - 1)).toBeLessThan(1e-5);
        }
        expect(prim.getMaterial()).not.toBeNull();
      }
      expect(vertices).toBeGreaterThan(1000);
      expect(vertices).toBeLessThan(8000);
      // Creatures rest on the floor: the lowest vertex is at y = 0.
      const minY = Math.min(...doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives()).map((p) => p.getAttribute('POSITION')!.getMin([0, 0, 0])[1]!));
      expect(Math.abs(minY)).toBeLessThan(1e-4);
    }
  });
});
