/**
 * Walks an image's container block by block (PNG chunks, JPEG segments, WebP RIFF chunks)
 * before any decoder sees it: every length must fit, every PNG CRC must match, and the
 * image must end where its format says it ends. The walk yields the declared size (for
 * the pixel limit) and every metadata block, by kind, so the served copy can say what was
 * stripped and a reviewer can see it. An image that cannot be walked is never decoded.
 */
import { crc32 } from 'node:zlib';

export type MetadataKind = 'exif' | 'xmp' | 'iptc' | 'icc' | 'comment' | 'thumbnail' | 'timestamp' | 'trailing_data' | 'other';

export interface MetadataBlock {
  kind: MetadataKind;
  /** Where the block came from: a PNG chunk type, a JPEG marker, a WebP FourCC. */
  source: string;
  data: Uint8Array;
}

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export type Walk =
  | { walkable: true; format: ImageFormat; width: number; height: number; blocks: MetadataBlock[] }
  | { walkable: false; why: string };

class Unwalkable extends Error {}

const ascii = (b: Uint8Array, start: number, end: number) => Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('latin1');
const startsWith = (b: Uint8Array, at: number, text: string) => at + text.length <= b.length && ascii(b, at, at + text.length) === text;

function need(condition: boolean, why: string): asserts condition {
  if (!condition) throw new Unwalkable(why);
}

/**
 * Most metadata blocks one image may carry. Each costs an object in the worker and a text
 * for the reviewer; a 64 MB PNG of empty text chunks would be five million of them.
 */
export const METADATA_BLOCKS_MAX = 4096;

function keep(blocks: MetadataBlock[], block: MetadataBlock): void {
  need(blocks.length < METADATA_BLOCKS_MAX, 'too_many_metadata_blocks');
  blocks.push(block);
}

// ------------------------------------------------------------------ PNG

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_TEXT = new Set(['tEXt', 'zTXt', 'iTXt']);
/** Ancillary chunks that carry how to show the pixels, not words about them. */
const PNG_RENDERING = new Set(['gAMA', 'cHRM', 'sRGB', 'sBIT', 'bKGD', 'tRNS', 'hIST', 'sPLT', 'pHYs', 'acTL', 'fcTL', 'fdAT', 'cICP', 'mDCV', 'cLLI']);

function pngKind(type: string, data: Uint8Array): MetadataKind | null {
  if (type === 'eXIf') return 'exif';
  if (type === 'iCCP') return 'icc';
  if (type === 'tIME') return 'timestamp';
  if (PNG_TEXT.has(type)) {
    const keyword = ascii(data, 0, Math.max(0, data.indexOf(0)));
    if (keyword === 'XML:com.adobe.xmp') return 'xmp';
    if (/^Raw profile type (exif|APP1)$/i.test(keyword)) return 'exif';
    if (/^Raw profile type (iptc|8bim)$/i.test(keyword)) return 'iptc';
    if (/^Raw profile type (icc|icm)$/i.test(keyword)) return 'icc';
    if (/^Raw profile type xmp$/i.test(keyword)) return 'xmp';
    return 'comment';
  }
  const ancillary = (type.charCodeAt(0) & 0x20) !== 0;
  if (!ancillary || PNG_RENDERING.has(type)) return null;
  return 'other';
}

function walkPng(b: Uint8Array): Walk {
  need(PNG_SIGNATURE.every((v, i) => b[i] === v), 'png_signature');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const blocks: MetadataBlock[] = [];
  let at = 8;
  let width = 0;
  let height = 0;
  let first = true;
  let sawData = false;
  for (;;) {
    need(at + 12 <= b.length, 'png_truncated');
    const length = view.getUint32(at);
    need(length <= 0x7fffffff && at + 12 + length <= b.length, 'png_chunk_length');
    const type = ascii(b, at + 4, at + 8);
    need(/^[A-Za-z]{4}$/.test(type), 'png_chunk_type');
    const body = b.subarray(at + 4, at + 8 + length);
    need(crc32(body) >>> 0 === view.getUint32(at + 8 + length), 'png_chunk_crc');
    const data = b.subarray(at + 8, at + 8 + length);
    if (first) {
      need(type === 'IHDR' && length === 13, 'png_ihdr');
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      first = false;
    }
    if (type === 'IDAT') sawData = true;
    const kind = pngKind(type, data);
    if (kind !== null) keep(blocks, { kind, source: type, data });
    at += 12 + length;
    if (type === 'IEND') break;
  }
  need(sawData, 'png_no_image_data');
  if (at < b.length) blocks.push({ kind: 'trailing_data', source: 'after IEND', data: b.subarray(at) });
  return { walkable: true, format: 'png', width, height, blocks };
}

// ------------------------------------------------------------------ JPEG

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegKind(marker: number, data: Uint8Array): MetadataKind | null {
  if (marker === 0xfe) return 'comment';
  if (marker < 0xe0 || marker > 0xef) return null;
  if (marker === 0xe0) return startsWith(data, 0, 'JFXX\0') ? 'thumbnail' : startsWith(data, 0, 'JFIF\0') ? null : 'other';
  if (marker === 0xe1) {
    if (startsWith(data, 0, 'Exif\0')) return 'exif';
    if (startsWith(data, 0, 'http://ns.adobe.com/')) return 'xmp';
    return 'other';
  }
  if (marker === 0xe2) {
    if (startsWith(data, 0, 'ICC_PROFILE\0')) return 'icc';
    if (startsWith(data, 0, 'MPF\0')) return 'thumbnail';
    return 'other';
  }
  if (marker === 0xed) return startsWith(data, 0, 'Photoshop 3.0\0') ? 'iptc' : 'other';
  // APP14 "Adobe" says how the colour channels were transformed: needed to decode, not metadata.
  if (marker === 0xee && startsWith(data, 0, 'Adobe')) return null;
  return 'other';
}

function walkJpeg(b: Uint8Array): Walk {
  need(b[0] === 0xff && b[1] === 0xd8, 'jpeg_soi');
  const blocks: MetadataBlock[] = [];
  let at = 2;
  let width = 0;
  let height = 0;
  let sawFrame = false;
  let sawScan = false;
  for (;;) {
    need(at + 2 <= b.length, 'jpeg_truncated');
    need(b[at] === 0xff, 'jpeg_marker');
    let marker = b[at + 1]!;
    // Fill bytes: any number of 0xff may precede a marker.
    while (marker === 0xff && at + 2 < b.length) {
      at++;
      marker = b[at + 1]!;
    }
    at += 2;
    if (marker === 0xd9) break;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    need(marker !== 0xd8 && marker !== 0x00, 'jpeg_marker');
    need(at + 2 <= b.length, 'jpeg_truncated');
    const length = (b[at]! << 8) | b[at + 1]!;
    need(length >= 2 && at + length <= b.length, 'jpeg_segment_length');
    const data = b.subarray(at + 2, at + length);
    if (SOF.has(marker)) {
      need(length >= 8, 'jpeg_frame');
      height = (data[1]! << 8) | data[2]!;
      width = (data[3]! << 8) | data[4]!;
      sawFrame = true;
    }
    const kind = jpegKind(marker, data);
    if (kind !== null) keep(blocks, { kind, source: `0xFF${marker.toString(16).toUpperCase()}`, data });
    at += length;
    if (marker === 0xda) {
      need(sawFrame, 'jpeg_scan_before_frame');
      sawScan = true;
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xff00 nor a restart.
      while (at + 1 < b.length && !(b[at] === 0xff && b[at + 1] !== 0x00 && !(b[at + 1]! >= 0xd0 && b[at + 1]! <= 0xd7))) at++;
      need(at + 1 < b.length, 'jpeg_truncated');
    }
  }
  need(sawFrame && sawScan, 'jpeg_no_image_data');
  if (at < b.length) blocks.push({ kind: 'trailing_data', source: 'after EOI', data: b.subarray(at) });
  return { walkable: true, format: 'jpeg', width, height, blocks };
}

// ------------------------------------------------------------------ WebP

const WEBP_METADATA: Record<string, MetadataKind> = { ICCP: 'icc', EXIF: 'exif', 'XMP ': 'xmp' };
const WEBP_IMAGE = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF']);

function walkWebp(b: Uint8Array): Walk {
  need(startsWith(b, 0, 'RIFF') && startsWith(b, 8, 'WEBP'), 'webp_header');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  need(riffEnd <= b.length && riffEnd >= 12, 'webp_riff_length');
  const blocks: MetadataBlock[] = [];
  let width = 0;
  let height = 0;
  let sawImage = false;
  let at = 12;
  while (at < riffEnd) {
    need(at + 8 <= riffEnd, 'webp_truncated');
    const fourcc = ascii(b, at, at + 4);
    const length = view.getUint32(at + 4, true);
    need(at + 8 + length <= riffEnd, 'webp_chunk_length');
    const data = b.subarray(at + 8, at + 8 + length);
    if (fourcc === 'VP8X') {
      need(length >= 10, 'webp_vp8x');
      width = 1 + (data[4]! | (data[5]! << 8) | (data[6]! << 16));
      height = 1 + (data[7]! | (data[8]! << 8) | (data[9]! << 16));
    } else if (fourcc === 'VP8 ' && width === 0) {
      need(length >= 10 && data[3] === 0x9d && data[4] === 0x01 && data[5] === 0x2a, 'webp_vp8');
      width = (data[6]! | (data[7]! << 8)) & 0x3fff;
      height = (data[8]! | (data[9]! << 8)) & 0x3fff;
    } else if (fourcc === 'VP8L' && width === 0) {
      need(length >= 5 && data[0] === 0x2f, 'webp_vp8l');
      const bits = data[1]! | (data[2]! << 8) | (data[3]! << 16) | (data[4]! << 24);
      width = (bits & 0x3fff) + 1;
      height = ((bits >>> 14) & 0x3fff) + 1;
    }
    if (fourcc === 'VP8 ' || fourcc === 'VP8L' || fourcc === 'ANMF') sawImage = true;
    const kind = WEBP_METADATA[fourcc] ?? (WEBP_IMAGE.has(fourcc) ? null : 'other');
    if (kind !== null) keep(blocks, { kind, source: fourcc.trim(), data });
    at += 8 + length + (length % 2);
  }
  need(sawImage, 'webp_no_image_data');
  if (riffEnd < b.length) blocks.push({ kind: 'trailing_data', source: 'after RIFF', data: b.subarray(riffEnd) });
  return { walkable: true, format: 'webp', width, height, blocks };
}

/** Walks `bytes` as the format its media type names; any other type is not walkable here. */
export function walkImage(bytes: Uint8Array, mediaType: string): Walk {
  try {
    if (mediaType === 'image/png') return walkPng(bytes);
    if (mediaType === 'image/jpeg') return walkJpeg(bytes);
    if (mediaType === 'image/webp') return walkWebp(bytes);
    return { walkable: false, why: 'format_not_walked' };
  } catch (error) {
    if (error instanceof Unwalkable) return { walkable: false, why: error.message };
    throw error;
  }
}
