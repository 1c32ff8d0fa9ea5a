/**
 * UTF-8 → string without TextDecoder (shared/ is typechecked against ES2023 only, where TextDecoder does
 * not exist). Malformed sequences become U+FFFD, as TextDecoder's default does.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  const codes: number[] = [];
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i]!;
    let code = 0xfffd;
    let length = 1;
    if (b0 < 0x80) code = b0;
    else if (b0 >= 0xc2 && b0 < 0xe0) length = 2;
    else if (b0 >= 0xe0 && b0 < 0xf0) length = 3;
    else if (b0 >= 0xf0 && b0 < 0xf5) length = 4;
    if (length > 1) {
      let value = b0 & (0xff >> (length + 1));
      let valid = i + length <= bytes.length;
      for (let k = 1; valid && k < length; k++) {
        const b = bytes[i + k]!;
        if ((b & 0xc0) !== 0x80) valid = false;
        else value = (value << 6) | (b & 0x3f);
      }
      // Overlong forms, surrogates and values past U+10FFFF are malformed too.
      const min = length === 2 ? 0x80 : length === 3 ? 0x800 : 0x10000;
      if (valid && value >= min && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff)) code = value;
      else length = 1;
    }
    codes.push(code);
    i += length;
    // Flush in chunks: String.fromCodePoint(...codes) has an argument-count limit.
    if (codes.length >= 8192) {
      out += String.fromCodePoint(...codes);
      codes.length = 0;
    }
  }
  return out + String.fromCodePoint(...codes);
}
