import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { creatureFormatOf, decodeUtf8, gltfJsonText, listGltfResources, uriScheme } from '../../../shared/project';

const enc = (s: string) => new TextEncoder().encode(s);

function glb(json: object, version = 2): Uint8Array {
  let text = JSON.stringify(json);
  while (text.length % 4 !== 0) text += ' ';
  const body = enc(text);
  const out = new Uint8Array(20 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, version, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, body.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(body, 20);
  return out;
}

describe('glTF resources', () => {
  it('lists external buffers and images of a .gltf, skipping data: URIs and bufferView images', () => {
    const gltf = enc(JSON.stringify({
      buffers: [{ uri: 'body.bin' }, { uri: 'data:application/octet-stream;base64,AA==' }],
      images: [{ uri: 'tex/a%20b.png' }, { bufferView: 3, mimeType: 'image/png' }],
    }));
    expect(listGltfResources(gltf, 'm.gltf')).toEqual([
      { kind: 'buffer', index: 0, uri: 'body.bin' },
      { kind: 'image', index: 0, uri: 'tex/a%20b.png' },
    ]);
  });

  it('reads the JSON chunk of a .glb', () => {
    expect(listGltfResources(glb({ buffers: [{ byteLength: 4 }], images: [{ uri: 'skin.png' }] }), 'm.glb')).toEqual([{ kind: 'image', index: 0, uri: 'skin.png' }]);
  });

  it('names the file and the problem for bad input', () => {
    expect(() => listGltfResources(glb({}, 1), 'old.glb')).toThrow('old.glb: GLB version 1 is not supported (glTF 2.0 only).');
    expect(() => listGltfResources(glb({}).slice(0, 16), 'cut.glb')).toThrow(/cut\.glb: truncated GLB \(16 bytes/);
    expect(() => listGltfResources(enc('{"buffers": {}}'), 'b.gltf')).toThrow('b.gltf: buffers must be an array.');
    expect(() => listGltfResources(enc('{"images": [{"uri": 4}]}'), 'i.gltf')).toThrow('i.gltf: images[0].uri must be a non-empty string.');
    expect(() => listGltfResources(enc('"text"'), 's.gltf')).toThrow('s.gltf: not a glTF file (the JSON is not an object).');
    expect(() => listGltfResources(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'png.gltf')).toThrow(/png\.gltf: not a glTF file \(its JSON does not parse/);
  });

  it('formats and schemes', () => {
    expect(creatureFormatOf('Mine.GLB')).toBe('glb');
    expect(creatureFormatOf('x.fbx')).toBe('fbx');
    expect(creatureFormatOf('x.obj')).toBeNull();
    expect(uriScheme('https://x')).toBe('https');
    expect(uriScheme('file:///x')).toBe('file');
    expect(uriScheme('body.bin')).toBeNull();
  });

  it('decodeUtf8 agrees with TextDecoder on valid and malformed input', () => {
    const samples = ['plain', 'ünïcödé — ✓ 🦾 end', ''];
    for (const s of samples) expect(decodeUtf8(enc(s))).toBe(s);
    const malformed = [new Uint8Array([0xc0, 0x80]), new Uint8Array([0xe2, 0x82]), new Uint8Array([0xed, 0xa0, 0x80]), new Uint8Array([0xff, 0x41]), new Uint8Array([0xf4, 0x90, 0x80, 0x80])];
    for (const bytes of malformed) expect(decodeUtf8(bytes)).toBe(new TextDecoder().decode(bytes));
    const long = 'é'.repeat(20000);
    expect(decodeUtf8(enc(long))).toBe(long);
    expect(gltfJsonText(enc('{"a":1}'), 'x.gltf')).toBe('{"a":1}');
  });

  it('decodeUtf8 equals TextDecoder on arbitrary bytes (property)', () => {
    // Bias toward the lead/continuation ranges where the edge cases are.
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0x80, max: 0xbf }), fc.constantFrom(0xc2, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5));
    fc.assert(fc.property(fc.array(byte, { maxLength: 24 }), (list) => {
      const bytes = new Uint8Array(list);
      expect(decodeUtf8(bytes)).toBe(new TextDecoder().decode(bytes));
    }), { numRuns: 2000 });
  });
});
