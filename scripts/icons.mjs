// Draws Steward's icons from one source, the logo's geometry below: the app icon as PNGs
// (16…1024), icon.icns and icon.ico, its SVG, and tray icons (macOS template, and one for light and
// one for dark trays) at 1× and 2×. Shapes are rendered from signed distance fields, so each size
// is drawn sharp at its own resolution instead of scaled down from a big one; no dependencies.
//   node scripts/icons.mjs [output folder, default resources]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

// ---- The logo: a ring (the schedule) around a play triangle (a run), on an indigo tile. ----
// Coordinates are fractions of the icon's side, y pointing down.
const logo = {
  tile: { inset: 0.08, radius: 0.2, top: [99, 102, 241], bottom: [67, 56, 202] },
  ring: { cx: 0.5, cy: 0.5, r: 0.27, width: 0.07 },
  // Nudged right of centre: a triangle's visual centre is its centroid, not its box's centre.
  play: { points: [[0.435, 0.37], [0.435, 0.63], [0.645, 0.5]], round: 0.02 },
};
// The tray glyph: the same ring and triangle, bolder, with no tile (trays draw their own background).
const glyph = {
  ring: { cx: 0.5, cy: 0.5, r: 0.39, width: 0.12 },
  play: { points: [[0.4, 0.29], [0.4, 0.71], [0.73, 0.5]], round: 0.03 },
};

export const appIconSizes = [16, 22, 24, 32, 48, 64, 128, 256, 512, 1024];
export const icoSizes = [16, 24, 32, 48, 64, 128, 256];
/** ICNS chunk types holding PNG data, by pixel size (Apple's iconset names: 16, 16@2x, …, 512@2x). */
export const icnsChunks = [['icp4', 16], ['icp5', 32], ['ic11', 32], ['ic12', 64], ['ic07', 128], ['ic13', 256], ['ic08', 256], ['ic14', 512], ['ic09', 512], ['ic10', 1024]];

// ---- Signed distances (negative inside), in icon-side units. ----
const length = (x, y) => Math.hypot(x, y);

function roundedBox(px, py, { inset, radius }) {
  const half = 0.5 - inset;
  const qx = Math.abs(px - 0.5) - (half - radius);
  const qy = Math.abs(py - 0.5) - (half - radius);
  return length(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

const ring = (px, py, { cx, cy, r, width }) => Math.abs(length(px - cx, py - cy) - r) - width / 2;

// Inigo Quilez's exact triangle distance, shrunk and re-grown by `round` for soft corners.
function triangle(px, py, { points, round }) {
  const [[x0, y0], [x1, y1], [x2, y2]] = points;
  const edges = [[x1 - x0, y1 - y0, px - x0, py - y0], [x2 - x1, y2 - y1, px - x1, py - y1], [x0 - x2, y0 - y2, px - x2, py - y2]];
  const sign = Math.sign((x1 - x0) * (y0 - y2) - (y1 - y0) * (x0 - x2)); // the winding
  let best = Infinity;
  let inside = Infinity;
  for (const [ex, ey, vx, vy] of edges) {
    const t = Math.min(Math.max((vx * ex + vy * ey) / (ex * ex + ey * ey), 0), 1);
    best = Math.min(best, (vx - ex * t) ** 2 + (vy - ey * t) ** 2);
    inside = Math.min(inside, sign * (vx * ey - vy * ex));
  }
  return -Math.sqrt(best) * Math.sign(inside) - round;
}

// Rounding grows the triangle by `round` on every side; shrink it about its incentre by as much,
// so the rounded triangle keeps the size the points give.
function shrunk(play) {
  const [a, b, c] = play.points;
  const sides = [length(b[0] - c[0], b[1] - c[1]), length(c[0] - a[0], c[1] - a[1]), length(a[0] - b[0], a[1] - b[1])];
  const perimeter = sides[0] + sides[1] + sides[2];
  const centre = [0, 1].map((i) => (sides[0] * a[i] + sides[1] * b[i] + sides[2] * c[i]) / perimeter);
  const area = Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
  const k = 1 - play.round / ((2 * area) / perimeter);
  return { ...play, points: play.points.map(([x, y]) => [centre[0] + (x - centre[0]) * k, centre[1] + (y - centre[1]) * k]) };
}

// Coverage of a pixel by a shape: its distance in pixels through a one-pixel ramp.
const coverage = (distance, size) => Math.min(Math.max(0.5 - distance * size, 0), 1);

/** RGBA pixels (straight alpha) of `draw(x, y) → [r, g, b, a]` sampled at pixel centres. */
function raster(size, draw) {
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = draw((x + 0.5) / size, (y + 0.5) / size);
      pixels.set([Math.round(r), Math.round(g), Math.round(b), Math.round(a * 255)], (y * size + x) * 4);
    }
  }
  return pixels;
}

function appIcon(size) {
  const play = shrunk(logo.play);
  return raster(size, (x, y) => {
    const tile = coverage(roundedBox(x, y, logo.tile), size);
    const mark = Math.max(coverage(ring(x, y, logo.ring), size), coverage(triangle(x, y, play), size));
    const t = Math.min(Math.max((y - logo.tile.inset) / (1 - 2 * logo.tile.inset), 0), 1);
    const [r, g, b] = logo.tile.top.map((top, i) => top + (logo.tile.bottom[i] - top) * t);
    // White mark over the tile: the mark lies inside the tile, so the tile's alpha is the pixel's.
    return [r + (255 - r) * mark, g + (255 - g) * mark, b + (255 - b) * mark, Math.max(tile, mark)];
  });
}

function trayGlyph(size, [r, g, b]) {
  const play = shrunk(glyph.play);
  return raster(size, (x, y) => [r, g, b, Math.max(coverage(ring(x, y, glyph.ring), size), coverage(triangle(x, y, play), size))]);
}

// ---- Containers. ----
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGBA PNG, each row filtered with "none", deflated at level 9. */
export function encodePng(size, pixels) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filtering, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

// Small entries are classic 32-bit DIBs, which every reader of .ico understands; the big ones are
// PNG (as Windows Vista and later read them), where a DIB would weigh 64 KiB and more.
function dib(size, pixels) {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // colour rows plus the AND mask's rows
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const colour = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4;
      const to = ((size - 1 - y) * size + x) * 4; // bottom-up, BGRA
      colour.set([pixels[from + 2], pixels[from + 1], pixels[from], pixels[from + 3]], to);
    }
  }
  const mask = Buffer.alloc(Math.ceil(size / 32) * 4 * size); // all zero: the alpha channel decides
  return Buffer.concat([header, colour, mask]);
}

export function encodeIco(images) {
  const header = Buffer.alloc(6 + images.length * 16);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  const bodies = images.map(({ size, pixels, png }) => (size >= 128 ? png : dib(size, pixels)));
  let offset = header.length;
  images.forEach(({ size }, i) => {
    const entry = 6 + i * 16;
    header.writeUInt8(size >= 256 ? 0 : size, entry); // 0 means 256
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(bodies[i].length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += bodies[i].length;
  });
  return Buffer.concat([header, ...bodies]);
}

export function encodeIcns(entries) {
  const chunks = entries.map(([type, png]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + chunks.reduce((sum, c) => sum + c.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

function svg() {
  const { tile, ring: r, play } = logo;
  const s = (v) => +(v * 1024).toFixed(1);
  const rgb = (c) => `rgb(${c.join(',')})`;
  const points = play.points.map(([x, y]) => `${s(x)},${s(y)}`).join(' ');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">
  <defs><linearGradient id="tile" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${rgb(tile.top)}"/><stop offset="1" stop-color="${rgb(tile.bottom)}"/></linearGradient></defs>
  <rect x="${s(tile.inset)}" y="${s(tile.inset)}" width="${s(1 - 2 * tile.inset)}" height="${s(1 - 2 * tile.inset)}" rx="${s(tile.radius)}" fill="url(#tile)"/>
  <circle cx="${s(r.cx)}" cy="${s(r.cy)}" r="${s(r.r)}" fill="none" stroke="#fff" stroke-width="${s(r.width)}"/>
  <polygon points="${points}" fill="#fff" stroke="#fff" stroke-width="${s(play.round * 2)}" stroke-linejoin="round"/>
</svg>
`;
}

export function generate(outDir) {
  const icons = path.join(outDir, 'icons');
  const tray = path.join(outDir, 'tray');
  fs.mkdirSync(path.join(icons, 'png'), { recursive: true });
  fs.mkdirSync(tray, { recursive: true });
  const drawn = new Map(appIconSizes.map((size) => {
    const pixels = appIcon(size);
    return [size, { size, pixels, png: encodePng(size, pixels) }];
  }));
  const written = [];
  const write = (file, data) => {
    fs.writeFileSync(file, data);
    written.push(path.relative(outDir, file));
  };
  for (const { size, png } of drawn.values()) write(path.join(icons, 'png', `${size}x${size}.png`), png);
  write(path.join(icons, 'icon.ico'), encodeIco(icoSizes.map((size) => drawn.get(size))));
  write(path.join(icons, 'icon.icns'), encodeIcns(icnsChunks.map(([type, size]) => [type, drawn.get(size).png])));
  write(path.join(icons, 'icon.svg'), svg());
  // macOS tints a template (black plus alpha) for the menu bar; elsewhere the tray's own colour
  // picks the glyph: a dark one on light trays, a light one on dark trays.
  const variants = { trayTemplate: [0, 0, 0], 'tray-light': [32, 33, 36], 'tray-dark': [242, 242, 245] };
  for (const [name, colour] of Object.entries(variants)) {
    for (const [suffix, size] of [['', 16], ['@2x', 32]]) write(path.join(tray, `${name}${suffix}.png`), encodePng(size, trayGlyph(size, colour)));
  }
  return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'resources'));
  for (const file of generate(outDir)) console.log(`${path.join(outDir, file)}  ${fs.statSync(path.join(outDir, file)).size} bytes`);
}
