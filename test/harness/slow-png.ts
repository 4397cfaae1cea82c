import { createDeflate } from 'node:zlib';
import { pngChunk } from '../../fixtures/hostile-exif.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * An honest PNG that is slow to prepare and cheap to make: `side` x `side` pixels of one
 * colour, one bit each through a one-entry palette, so sharp decodes and encodes anew three
 * bytes a pixel (50,000 x 50,000: 300 KB that keep an image worker busy some 15 s, made
 * here in under a second of CPU). Written by hand: zlib on rows of zeros is all it costs,
 * where having sharp draw and compress it costs the test more than the worker.
 */
export async function slowPng(side: number): Promise<Buffer> {
  const rowBytes = 1 + Math.ceil(side / 8); // the filter byte (0, none) and the row's bits
  const deflate = createDeflate();
  const idat: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => idat.push(chunk));
  const ended = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const zeros = Buffer.alloc(1 << 22);
  for (let left = rowBytes * side; left > 0; left -= zeros.length) {
    if (!deflate.write(zeros.subarray(0, Math.min(left, zeros.length)))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([1, 3, 0, 0, 0], 8); // bit depth 1, colour type 3 (palette), deflate, no filter method, no interlace
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('PLTE', Buffer.from([10, 200, 30])),
    pngChunk('IDAT', Buffer.concat(idat)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
