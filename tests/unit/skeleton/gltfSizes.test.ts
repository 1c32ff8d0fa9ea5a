/**
 * Declared accessor sizes are checked against the bytes and a cap before anything is allocated: a small
 * .gltf that declares a huge count is refused with a message naming the file and the accessor, in
 * milliseconds, for the skeleton reader and for the preflight that runs before the display loader.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { skeletonFromGltf } from '../../../shared/document';
import { preflightGltf } from '../../../shared/skeleton/gltfPreflight';
import { MAX_ACCESSOR_VALUES } from '../../../shared/skeleton/gltfDocument';

const json = JSON.parse(readFileSync('assets/creatures/armed-mine.gltf', 'utf8')) as { accessors: Array<Record<string, unknown>> };
const bin = new Uint8Array(readFileSync('assets/creatures/armed-mine.bin'));
const resources = { 'armed-mine.bin': bin };

function variant(edit: (accessors: Array<Record<string, unknown>>) => void): Uint8Array {
  const copy = structuredClone(json);
  edit(copy.accessors);
  return new TextEncoder().encode(JSON.stringify(copy));
}

describe('glTF accessor sizes', () => {
  it('the shipped creature passes', () => {
    expect(() => preflightGltf(new TextEncoder().encode(JSON.stringify(json)), 'armed-mine.gltf', resources)).not.toThrow();
  });

  it.each([
    ['a count of 1e8 without a bufferView (12.8 GB as MAT4 doubles)', (a: Array<Record<string, unknown>>) => { a[0]!.count = 1e8; delete a[0]!.bufferView; }, /accessor 0.*count 100000000 × 16 components is more than the 33554432 numbers/],
    ['a count of 2^31', (a: Array<Record<string, unknown>>) => { a[0]!.count = 2 ** 31; }, /accessor 0.*count 2147483648 × 16/],
    ['a count the bufferView cannot hold', (a: Array<Record<string, unknown>>) => { a[0]!.count = 5000; }, /accessor 0.*needs \d+ bytes, bufferView 0 has 256/],
  ])('%s is refused by the skeleton reader and the preflight, naming the file', (_what, edit, message) => {
    const bytes = variant(edit);
    const started = performance.now();
    expect(() => skeletonFromGltf(bytes, 'hostile.gltf', resources)).toThrow(/^hostile\.gltf: /);
    expect(() => skeletonFromGltf(bytes, 'hostile.gltf', resources)).toThrow(message);
    expect(() => preflightGltf(bytes, 'hostile.gltf', resources)).toThrow(message);
    expect(performance.now() - started).toBeLessThan(2000); // nothing was allocated for the declared count
  });

  it('a negative byteOffset is refused by the preflight', () => {
    expect(() => preflightGltf(variant((a) => { a[1]!.byteOffset = -64; }), 'hostile.gltf', resources)).toThrow(/^hostile\.gltf: accessor 1: byteOffset -64 is invalid/);
  });

  it('a mesh accessor the skeleton never reads is still checked by the preflight', () => {
    const bytes = variant((a) => { a[1]!.count = 40_000_000; delete a[1]!.bufferView; });
    expect(40_000_000 * 3).toBeGreaterThan(MAX_ACCESSOR_VALUES);
    expect(() => preflightGltf(bytes, 'hostile.gltf', resources)).toThrow(/accessor 1: count 40000000 × 3 components/);
  });
});
