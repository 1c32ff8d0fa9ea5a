#!/usr/bin/env node
// Draws the app icon, build/icon.png (512×512 RGBA), from signed distance functions: the Armed Mine — a
// riveted, spiked orange sphere reaching out with a two-segment steel arm and a three-fingered hand — on a
// rounded dark tile. Deterministic (no randomness, no fonts, no system libraries): the same bytes on every
// machine, which a unit test checks against the committed file. Each pixel is the average of 4×4 samples.
//
//   node build/make-icon.mjs            write build/icon.png
//   node build/make-icon.mjs --check    exit 1 if build/icon.png differs from what would be drawn
import { deflateSync } from 'node:zlib';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SIZE = 512;
const SUB = 4;

// --- signed distances (pixels; negative inside) ---
const len = (x, y) => Math.hypot(x, y);
const circle = (px, py, cx, cy, r) => len(px - cx, py - cy) - r;
function capsule(px, py, ax, ay, bx, by, r) {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return len(px - ax - t * dx, py - ay - t * dy) - r;
}
function roundedSquare(px, py, half, radius) {
  const qx = Math.abs(px - SIZE / 2) - (half - radius), qy = Math.abs(py - SIZE / 2) - (half - radius);
  return len(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}
function triangle(px, py, [ax, ay], [bx, by], [cx, cy]) {
  // Inside when on the same side of all three edges; distance is only used for its sign here.
  const e = (x0, y0, x1, y1) => (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0);
  const s1 = e(ax, ay, bx, by), s2 = e(bx, by, cx, cy), s3 = e(cx, cy, ax, ay);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0) ? -1 : 1;
}

const BODY = { x: 220, y: 300, r: 118 };
const SHOULDER = [318, 232], ELBOW = [376, 130], WRIST = [432, 182];
const spikes = Array.from({ length: 10 }, (_, i) => {
  const a = (i / 10) * Math.PI * 2 + 0.2;
  const dir = [Math.cos(a), Math.sin(a)], side = [-Math.sin(a), Math.cos(a)];
  const base = BODY.r - 6, tip = BODY.r + 34, w = 17;
  return [
    [BODY.x + dir[0] * tip, BODY.y + dir[1] * tip],
    [BODY.x + dir[0] * base + side[0] * w, BODY.y + dir[1] * base + side[1] * w],
    [BODY.x + dir[0] * base - side[0] * w, BODY.y + dir[1] * base - side[1] * w],
  ];
});
const rivets = Array.from({ length: 8 }, (_, i) => {
  const a = (i / 8) * Math.PI * 2 + 0.55;
  return [BODY.x + Math.cos(a) * 84, BODY.y + Math.sin(a) * 84];
});
const fingers = [-0.55, 0, 0.55].map((spread) => {
  const a = Math.atan2(WRIST[1] - ELBOW[1], WRIST[0] - ELBOW[0]) + spread;
  return [WRIST[0] + Math.cos(a) * 34, WRIST[1] + Math.sin(a) * 34];
});

const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);
const shade = (color, k) => color.map((v) => Math.min(255, v * k));

/** Colour [r,g,b,a] at a sample point, back to front. */
function sample(px, py) {
  if (roundedSquare(px, py, 240, 84) > 0) return [0, 0, 0, 0];
  let c = mix([44, 52, 70], [24, 28, 38], py / SIZE);
  // floor shadow under the mine
  const shadow = len((px - BODY.x) / 1.6, (py - 452) / 0.35) - 70;
  if (shadow < 0) c = mix(c, [10, 12, 16], 0.5);
  for (const s of spikes) if (triangle(px, py, ...s) < 0) c = [150, 158, 170];
  const dBody = circle(px, py, BODY.x, BODY.y, BODY.r);
  if (dBody < 0) {
    // Lambert shading of a sphere lit from the upper left: n = (dx, dy, dz)/r.
    const nx = (px - BODY.x) / BODY.r, ny = (py - BODY.y) / BODY.r, nz = Math.sqrt(Math.max(0, 1 - nx * nx - ny * ny));
    const light = Math.max(0, -0.45 * nx - 0.55 * ny + 0.7 * nz);
    c = shade([232, 118, 42], 0.45 + 0.75 * light);
    const band = Math.abs(py - BODY.y - nx * 12) < 7; // equator seam
    if (band) c = shade(c, 0.7);
    for (const [rx, ry] of rivets) if (circle(px, py, rx, ry, 8) < 0) c = shade([235, 225, 205], 0.6 + 0.5 * light);
  }
  const steel = [168, 178, 192];
  if (capsule(px, py, ...SHOULDER, ...ELBOW, 17) < 0) c = steel;
  if (capsule(px, py, ...ELBOW, ...WRIST, 14) < 0) c = shade(steel, 1.08);
  for (const tip of fingers) if (capsule(px, py, ...WRIST, ...tip, 7) < 0) c = shade(steel, 1.15);
  for (const [jx, jy, r] of [[...SHOULDER, 24], [...ELBOW, 19], [...WRIST, 15]]) {
    const d = circle(px, py, jx, jy, r);
    if (d < 0) c = d > -5 ? [60, 66, 78] : [96, 104, 118];
  }
  return [...c, 255];
}

export function drawIcon() {
  const rows = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) {
    rows[y * (SIZE * 4 + 1)] = 0; // PNG filter: none
    for (let x = 0; x < SIZE; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < SUB; sy++) {
        for (let sx = 0; sx < SUB; sx++) {
          const s = sample(x + (sx + 0.5) / SUB, y + (sy + 0.5) / SUB);
          // Premultiply so edge samples against transparency do not darken.
          r += s[0] * s[3]; g += s[1] * s[3]; b += s[2] * s[3]; a += s[3];
        }
      }
      const o = y * (SIZE * 4 + 1) + 1 + x * 4;
      rows[o] = a ? Math.round(r / a) : 0;
      rows[o + 1] = a ? Math.round(g / a) : 0;
      rows[o + 2] = a ? Math.round(b / a) : 0;
      rows[o + 3] = Math.round(a / (SUB * SUB));
    }
  }
  return encodePng(SIZE, SIZE, rows);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
/** PNG: signature, IHDR (8-bit RGBA, no interlace), one zlib IDAT of the filtered rows, IEND. */
export function encodePng(width, height, filteredRows) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(filteredRows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = fileURLToPath(new URL('./icon.png', import.meta.url));
  const png = drawIcon();
  if (process.argv.includes('--check')) {
    const same = Buffer.compare(readFileSync(target), png) === 0;
    console.log(same ? 'build/icon.png is up to date' : 'build/icon.png differs from build/make-icon.mjs; run node build/make-icon.mjs');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(target, png);
  console.log(`build/icon.png: ${SIZE}×${SIZE}, ${png.length} bytes`);
}
