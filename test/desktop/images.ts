// Readers for the icon formats the packaging test checks: PNG (size from IHDR, pixels of the
// unfiltered 8-bit RGBA files scripts/icons.mjs writes), ICO directories and ICNS chunks.
import zlib from 'node:zlib';

const pngSignature = '89504e470d0a1a0a';

export function isPng(data: Buffer): boolean {
  return data.subarray(0, 8).toString('hex') === pngSignature && data.toString('latin1', 12, 16) === 'IHDR';
}

export function pngSize(data: Buffer): { width: number; height: number } {
  if (!isPng(data)) throw new Error('not a PNG');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** The raw scanlines (filter bytes included) of a PNG: what its pixels are, whatever deflate made of them. */
export function pngScanlines(data: Buffer): Buffer {
  const idat: Buffer[] = [];
  for (let offset = 8; offset < data.length; ) {
    const length = data.readUInt32BE(offset);
    if (data.toString('latin1', offset + 4, offset + 8) === 'IDAT') idat.push(data.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  return zlib.inflateSync(Buffer.concat(idat));
}

export interface IcoEntry {
  size: number;
  format: 'png' | 'dib';
  data: Buffer;
}

export function icoEntries(data: Buffer): IcoEntry[] {
  if (data.readUInt16LE(0) !== 0 || data.readUInt16LE(2) !== 1) throw new Error('not an ICO');
  return Array.from({ length: data.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + i * 16;
    const body = data.subarray(data.readUInt32LE(entry + 12), data.readUInt32LE(entry + 12) + data.readUInt32LE(entry + 8));
    const size = data[entry] || 256;
    if (isPng(body)) return { size, format: 'png' as const, data: body };
    // A DIB: BITMAPINFOHEADER with the height doubled (colour rows plus the AND mask).
    if (body.readUInt32LE(0) !== 40 || body.readInt32LE(4) !== size || body.readInt32LE(8) !== size * 2) throw new Error(`ICO entry ${i} is neither PNG nor a ${size}px DIB`);
    return { size, format: 'dib' as const, data: body };
  });
}

export function icnsChunks(data: Buffer): { type: string; data: Buffer }[] {
  if (data.toString('latin1', 0, 4) !== 'icns' || data.readUInt32BE(4) !== data.length) throw new Error('not an ICNS');
  const chunks: { type: string; data: Buffer }[] = [];
  for (let offset = 8; offset < data.length; ) {
    const length = data.readUInt32BE(offset + 4);
    chunks.push({ type: data.toString('latin1', offset, offset + 4), data: data.subarray(offset + 8, offset + length) });
    offset += length;
  }
  return chunks;
}

/** What an image file shows, comparable across zlib versions: PNG scanlines, and containers' images. */
export function imageContent(name: string, data: Buffer): unknown {
  if (name.endsWith('.png')) return { ...pngSize(data), scanlines: pngScanlines(data).toString('base64') };
  if (name.endsWith('.ico')) return icoEntries(data).map((entry) => ({ ...entry, data: entry.format === 'png' ? imageContent('.png', entry.data) : entry.data.toString('base64') }));
  if (name.endsWith('.icns')) return icnsChunks(data).map((chunk) => ({ type: chunk.type, image: imageContent('.png', chunk.data) }));
  return data.toString('utf8');
}
