#!/usr/bin/env node
// Draws Warpscope's app icon (four lanes of a warp, shortening as a reduction halves them) as SVG
// and as the PNG sizes the web app manifest asks for, with no dependencies: the icon is rectangles
// only, so each pixel's coverage is computed exactly and written with Node's zlib.
//   node scripts/icons.mjs   writes public/icon.svg and public/icon-{192,512}.png, public/icon-maskable-512.png
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BG = [0x10, 0x18, 0x28];
const BAR = [0x7d, 0xd3, 0xfc];
/** Bars on a 32-unit grid, as in public/favicon.svg. */
const BARS = [
  { x: 5, y: 6, w: 4, h: 20 },
  { x: 11, y: 10, w: 4, h: 16 },
  { x: 17, y: 14, w: 4, h: 12 },
  { x: 23, y: 18, w: 4, h: 8 },
];

function svg() {
  const bars = BARS.map((b) => `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#101828"/><g fill="#7dd3fc">${bars}</g></svg>\n`;
}

/** Fraction of the pixel [px, px+1) × [py, py+1) that the rectangle covers. */
function coverage(px, py, r) {
  const w = Math.max(0, Math.min(px + 1, r.x + r.w) - Math.max(px, r.x));
  const h = Math.max(0, Math.min(py + 1, r.y + r.h) - Math.max(py, r.y));
  return w * h;
}

/** The icon at `size` px; `inset` shrinks the bars toward the centre (maskable icons keep a safe zone). */
function pixels(size, inset) {
  const scale = (size / 32) * (1 - 2 * inset);
  const offset = size * inset;
  const rects = BARS.map((b) => ({ x: offset + b.x * scale, y: offset + b.y * scale, w: b.w * scale, h: b.h * scale }));
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then RGB
    for (let x = 0; x < size; x++) {
      const a = Math.min(1, rects.reduce((s, r) => s + coverage(x, y, r), 0));
      for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = Math.round(BG[c] * (1 - a) + BAR[c] * a);
    }
    rows.push(row);
  }
  return Buffer.concat(rows);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, inset) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels(size, inset), { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const out = new URL('../public/', import.meta.url);
writeFileSync(new URL('icon.svg', out), svg());
writeFileSync(new URL('icon-192.png', out), png(192, 0));
writeFileSync(new URL('icon-512.png', out), png(512, 0));
writeFileSync(new URL('apple-touch-icon-180.png', out), png(180, 0));
// Maskable: the launcher may crop to a circle of 80 % of the width; keep the bars inside it.
writeFileSync(new URL('icon-maskable-512.png', out), png(512, 0.12));
console.log('icons written to public/');
