/** UTF-8 and base64 decoding without TextDecoder/atob (shared/ has neither DOM nor Node types). Both
 *  return null on malformed input so the caller can name the file and the field. */

export function decodeUtf8(bytes: Uint8Array): string | null {
  let out = '';
  let i = 0;
  // Skip a byte-order mark: some exporters write one before the JSON.
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  const chunk: number[] = [];
  const flush = () => { out += String.fromCharCode(...chunk); chunk.length = 0; };
  while (i < bytes.length) {
    const b = bytes[i]!;
    let cp: number, extra: number;
    if (b < 0x80) { cp = b; extra = 0; } else if (b >= 0xc2 && b < 0xe0) { cp = b & 0x1f; extra = 1; } else if (b >= 0xe0 && b < 0xf0) { cp = b & 0x0f; extra = 2; } else if (b >= 0xf0 && b < 0xf5) { cp = b & 0x07; extra = 3; } else return null;
    for (let k = 1; k <= extra; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return null;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms and surrogates are invalid UTF-8.
    if ((extra === 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (extra === 3 && (cp < 0x10000 || cp > 0x10ffff))) return null;
    i += extra + 1;
    if (cp >= 0x10000) { cp -= 0x10000; chunk.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff)); } else chunk.push(cp);
    if (chunk.length > 8000) flush();
  }
  flush();
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i;
B64_INDEX['-'.charCodeAt(0)] = 62; // base64url
B64_INDEX['_'.charCodeAt(0)] = 63;

export function decodeBase64(text: string): Uint8Array | null {
  const s = text.replace(/[\s]/g, '').replace(/=+$/, '');
  if (s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let bits = 0, acc = 0, o = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? B64_INDEX[c]! : -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) { bits -= 8; out[o++] = (acc >> bits) & 0xff; }
  }
  return out;
}

/** Bytes of a data: URI (base64 or percent-encoded), or null when it is not one we can read. */
export function decodeDataUri(uri: string): Uint8Array | null {
  const comma = uri.indexOf(',');
  if (!uri.startsWith('data:') || comma < 0) return null;
  const meta = uri.slice(5, comma);
  const payload = uri.slice(comma + 1);
  if (/;base64$/i.test(meta)) return decodeBase64(payload);
  try {
    const text = decodeURIComponent(payload);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
    return out;
  } catch {
    return null;
  }
}
