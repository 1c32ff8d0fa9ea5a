/**
 * What kind of FBX a file is, read from its first bytes before three's FBXLoader sees it, so the user gets
 * a reason instead of a parser's stack trace: binary ("Kaydara FBX Binary  \0", 0x1A 0x00, then the
 * FileVersion as a little-endian uint32 at byte 23) or ASCII (a "FBXVersion: 7400" line in the
 * FBXHeaderExtension, or the "; FBX 7.4.0 project file" comment), and which version. FBX 6.x and older lay
 * out their objects differently (by name, not by id); three's reader and Marionette need 7.0 or later.
 */
export type FbxEncoding = 'binary' | 'ascii';

export interface FbxHeader {
  encoding: FbxEncoding;
  /** FileVersion, e.g. 7400 for FBX 7.4 (FBX 2014/2015). */
  version: number;
}

export const MIN_FBX_VERSION = 7000;

const BINARY_MAGIC = 'Kaydara FBX Binary  \0';
/** How far into an ASCII file the header may sit (its FBXHeaderExtension comes first). */
const ASCII_HEADER_SPAN = 64 * 1024;

export function readFbxHeader(bytes: Uint8Array, fileName: string): FbxHeader {
  if (bytes.byteLength === 0) throw new Error(`${fileName}: the file is empty`);
  const head = latin1(bytes.subarray(0, BINARY_MAGIC.length));
  let header: FbxHeader;
  if (head === BINARY_MAGIC) {
    if (bytes.byteLength < 27) throw new Error(`${fileName}: a binary FBX cut off inside its 27-byte header (${bytes.byteLength} bytes)`);
    header = { encoding: 'binary', version: new DataView(bytes.buffer, bytes.byteOffset + 23, 4).getUint32(0, true) };
  } else {
    const text = latin1(bytes.subarray(0, ASCII_HEADER_SPAN));
    const field = /^\s*FBXVersion:\s*(\d+)/m.exec(text);
    const comment = /^;\s*FBX\s+(\d+)\.(\d+)(?:\.\d+)?\s+project file/m.exec(text);
    if (field) header = { encoding: 'ascii', version: Number(field[1]) };
    else if (comment) header = { encoding: 'ascii', version: Number(comment[1]) * 1000 + Number(comment[2]) * 100 };
    else throw new Error(`${fileName}: not an FBX file (neither the binary header "Kaydara FBX Binary" nor an ASCII FBX header with FBXVersion)`);
  }
  if (header.version < MIN_FBX_VERSION) {
    throw new Error(`${fileName}: FBX ${versionName(header.version)} (FileVersion ${header.version}) is older than FBX 7.0, the oldest Marionette reads — re-export it as FBX 7.0 (FBX 2010) or later, e.g. FBX 7.4 (FBX 2014/2015)`);
  }
  return header;
}

/** 7400 → "7.4". */
export const versionName = (version: number): string => `${Math.floor(version / 1000)}.${Math.floor((version % 1000) / 100)}`;

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}
