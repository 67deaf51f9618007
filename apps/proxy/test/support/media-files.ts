import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let crc = index;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Deterministic noise (a linear congruential generator), which deflate cannot shrink. */
function noise(bytes: number, seed: number): Buffer {
  const data = Buffer.alloc(bytes);
  let state = seed >>> 0;
  for (let index = 0; index < bytes; index += 1) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    data[index] = state >>> 24;
  }
  return data;
}

/**
 * A valid PNG of `side` x `side` RGB noise pixels: 256 gives about 197 KB (noise does not
 * compress), the size of the image in the report this protects.
 */
export function noisePng(side: number, seed = 7): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const pixels = noise(side * side * 3, seed);
  const rows: Buffer[] = [];
  for (let row = 0; row < side; row += 1) {
    rows.push(Buffer.from([0]), pixels.subarray(row * side * 3, (row + 1) * side * 3));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A valid 16-bit mono PCM WAV of `samples` noise samples at 8 kHz. */
export function noiseWav(samples: number, seed = 11): Buffer {
  const data = noise(samples * 2, seed);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8_000, 24);
  header.writeUInt32LE(16_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A temporary folder with `image.png` (about 197 KB) and `sound.wav` (about 120 KB). */
export function createMediaFolder(): { dir: string; png: Buffer; wav: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-media-"));
  const png = noisePng(256);
  const wav = noiseWav(60_000);
  writeFileSync(join(dir, "image.png"), png);
  writeFileSync(join(dir, "sound.wav"), wav);
  return { dir, png, wav };
}
