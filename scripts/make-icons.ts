/**
 * Draws the app icon and writes it at the sizes each platform needs (docs/packaging.md):
 *   build/icon.png (1024), build/icons/<n>x<n>.png (Linux), build/icon.icns (macOS),
 *   build/icon.ico (Windows: BMP entries up to 128 for NSIS, PNG at 256).
 * Deterministic: `npx tsx scripts/make-icons.ts` rewrites the same bytes; the files are committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build');

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512] as const;
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
/** ICNS entry types holding PNG data, by pixel size. */
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
] as const;

type Rgba = [number, number, number, number];
const BACKGROUND: Rgba = [23, 78, 96, 255];
const BAR: Rgba = [236, 244, 240, 255];
const ACCENT: Rgba = [246, 186, 72, 255];

/** What colour a point of the unit square has (x, y in 0..1), before anti-aliasing. */
function colourAt(x: number, y: number): Rgba | null {
  // A rounded square with a small margin, as macOS and most Linux themes expect.
  const m = 0.06;
  const r = 0.2;
  const cx = Math.min(Math.max(x, m + r), 1 - m - r);
  const cy = Math.min(Math.max(y, m + r), 1 - m - r);
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null;
  // Three rising bars: a portfolio rebalanced towards its target.
  const bars: [number, number][] = [
    [0.24, 0.58],
    [0.43, 0.46],
    [0.62, 0.32],
  ];
  for (const [left, top] of bars) {
    if (x >= left && x <= left + 0.14 && y >= top && y <= 0.78) return BAR;
  }
  // The target line above them.
  if (y >= 0.2 && y <= 0.25 && x >= 0.22 && x <= 0.78) return ACCENT;
  return BACKGROUND;
}

/** RGBA pixels of the icon at one size, 4×4 supersampled. */
export function drawIcon(size: number): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = colourAt((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          if (!c) continue;
          for (let i = 0; i < 3; i++) sum[i]! += c[i]! * c[3];
          sum[3]! += c[3];
        }
      }
      const o = (py * size + px) * 4;
      const alpha = sum[3]!;
      for (let i = 0; i < 3; i++) pixels[o + i] = alpha ? Math.round(sum[i]! / alpha) : 0;
      pixels[o + 3] = Math.round(alpha / (n * n));
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, k) => {
  let c = k;
  for (let i = 0; i < 8; i++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

export function encodePng(size: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 32-bit BMP (DIB) ICO entry: bottom-up BGRA, then the 1-bit AND mask. */
function encodeDib(size: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // colour plus mask
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const colour = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4;
      const to = ((size - 1 - y) * size + x) * 4;
      colour.set([rgba[from + 2]!, rgba[from + 1]!, rgba[from]!, rgba[from + 3]!], to);
    }
  }
  const maskRow = Math.ceil(size / 32) * 4;
  return Buffer.concat([header, colour, Buffer.alloc(maskRow * size)]);
}

export function encodeIco(images: { size: number; rgba: Buffer }[]): Buffer {
  const entries = images.map(({ size, rgba }) =>
    size >= 256 ? encodePng(size, rgba) : encodeDib(size, rgba),
  );
  const head = Buffer.alloc(6 + 16 * images.length);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(images.length, 4);
  let offset = head.length;
  images.forEach(({ size }, i) => {
    const at = 6 + 16 * i;
    head[at] = size >= 256 ? 0 : size;
    head[at + 1] = size >= 256 ? 0 : size;
    head.writeUInt16LE(1, at + 4);
    head.writeUInt16LE(32, at + 6);
    head.writeUInt32LE(entries[i]!.length, at + 8);
    head.writeUInt32LE(offset, at + 12);
    offset += entries[i]!.length;
  });
  return Buffer.concat([head, ...entries]);
}

export function encodeIcns(images: { type: string; png: Buffer }[]): Buffer {
  const parts = images.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

export function writeIcons(dir = out): string[] {
  const drawn = new Map<number, Buffer>();
  const at = (size: number) => {
    if (!drawn.has(size)) drawn.set(size, drawIcon(size));
    return drawn.get(size)!;
  };
  const written: string[] = [];
  const write = (path: string, data: Buffer) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
    written.push(path);
  };
  write(join(dir, 'icon.png'), encodePng(1024, at(1024)));
  for (const size of LINUX_SIZES) {
    write(join(dir, 'icons', `${size}x${size}.png`), encodePng(size, at(size)));
  }
  write(join(dir, 'icon.ico'), encodeIco(ICO_SIZES.map((size) => ({ size, rgba: at(size) }))));
  write(
    join(dir, 'icon.icns'),
    encodeIcns(ICNS_TYPES.map(([type, size]) => ({ type, png: encodePng(size, at(size)) }))),
  );
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of writeIcons()) console.log(`Wrote ${file}`);
}
