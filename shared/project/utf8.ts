/**
 * UTF-8 → string without TextDecoder (shared/ is typechecked against ES2023 only, where TextDecoder does
 * not exist). This is the WHATWG Encoding Standard's UTF-8 decoder, so malformed input turns into U+FFFD
 * exactly as TextDecoder's default does (one per maximal invalid subpart).
 */
export function decodeUtf8(bytes: Uint8Array): string {
  let out = '';
  const codes: number[] = [];
  let codePoint = 0;
  let needed = 0;
  let seen = 0;
  let lower = 0x80;
  let upper = 0xbf;
  const emit = (code: number): void => {
    codes.push(code);
    // String.fromCodePoint(...codes) has an argument-count limit: flush in chunks.
    if (codes.length >= 8192) {
      out += String.fromCodePoint(...codes);
      codes.length = 0;
    }
  };
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (needed === 0) {
      if (byte <= 0x7f) emit(byte);
      else if (byte >= 0xc2 && byte <= 0xdf) { needed = 1; codePoint = byte & 0x1f; }
      else if (byte >= 0xe0 && byte <= 0xef) {
        // E0 excludes overlong forms, ED excludes UTF-16 surrogates.
        if (byte === 0xe0) lower = 0xa0;
        if (byte === 0xed) upper = 0x9f;
        needed = 2; codePoint = byte & 0xf;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        // F0 excludes overlong forms, F4 caps at U+10FFFF.
        if (byte === 0xf0) lower = 0x90;
        if (byte === 0xf4) upper = 0x8f;
        needed = 3; codePoint = byte & 0x7;
      } else emit(0xfffd);
      continue;
    }
    if (byte < lower || byte > upper) {
      // The sequence so far is one error; the offending byte is looked at again as a fresh start.
      codePoint = needed = seen = 0;
      lower = 0x80; upper = 0xbf;
      emit(0xfffd);
      i--;
      continue;
    }
    lower = 0x80; upper = 0xbf;
    codePoint = (codePoint << 6) | (byte & 0x3f);
    if (++seen === needed) {
      emit(codePoint);
      codePoint = needed = seen = 0;
    }
  }
  if (needed !== 0) emit(0xfffd);
  return out + String.fromCodePoint(...codes);
}
