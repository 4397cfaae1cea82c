/**
 * What each stripped metadata block said, as text a reviewer can read: EXIF as tag lines
 * (GPS included), XMP and comments as their text, IPTC as its dataset strings, and the
 * rest as what they were and how large. The main thread masks these with the claim
 * scanner before anyone sees them. An EXIF block that claims more than its bytes hold
 * throws `MetadataInvalid` (see read-exif.ts); every other text is bounded by its block.
 */
import { inflateSync } from 'node:zlib';
import { readExif } from './read-exif.js';
import type { MetadataBlock, MetadataKind } from './walk-image.js';

export interface MetadataText {
  kind: MetadataKind | 'gps';
  text: string;
}

/** No block's text grows past this before masking; the answer's whole bound is the gate's. */
const TEXT_MAX = 16 * 1024;
/** Compressed text chunks inflate at most this far: metadata is no place for a bomb either. */
const INFLATE_MAX = 64 * 1024;
/**
 * Characters of all blocks' texts together (four times the reviewer's 65,536-byte bound, so
 * cutting the longest first still leaves each kind its share). A file of thousands of small
 * blocks would otherwise cost the main thread's scanner a pass over each.
 */
const TEXTS_MAX = 256 * 1024;

const clip = (text: string) => (text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX)}…(${text.length - TEXT_MAX} more characters)` : text);
const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
const utf8 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

function inflateBounded(b: Uint8Array): string {
  try {
    return utf8(inflateSync(b, { maxOutputLength: INFLATE_MAX }));
  } catch {
    return `<${b.length} compressed bytes that do not inflate within ${INFLATE_MAX} bytes>`;
  }
}

/** PNG text chunks: keyword, then plain (tEXt), deflated (zTXt) or international (iTXt) text. */
function pngText(source: string, data: Uint8Array): string {
  const nul = data.indexOf(0);
  const keyword = latin1(data.subarray(0, Math.max(0, nul)));
  const rest = data.subarray(nul + 1);
  if (source === 'tEXt') return `${keyword}: ${latin1(rest)}`;
  if (source === 'zTXt') return `${keyword}: ${inflateBounded(rest.subarray(1))}`;
  // iTXt: compression flag, method, language tag NUL, translated keyword NUL, text.
  const compressed = rest[0] === 1;
  const languageEnd = rest.indexOf(0, 2);
  const translatedEnd = rest.indexOf(0, languageEnd + 1);
  const text = rest.subarray(translatedEnd + 1);
  return `${keyword}: ${compressed ? inflateBounded(text) : utf8(text)}`;
}

/** IPTC IIM datasets (0x1C, record, dataset, length, value) inside a Photoshop resource block. */
function iptcText(data: Uint8Array): string {
  const lines: string[] = [];
  for (let at = 0; at + 5 <= data.length; ) {
    if (data[at] !== 0x1c) {
      at++;
      continue;
    }
    const record = data[at + 1]!;
    const dataset = data[at + 2]!;
    const length = (data[at + 3]! << 8) | data[at + 4]!;
    if (length > 0x7fff || at + 5 + length > data.length) break;
    lines.push(`${record}:${dataset}: ${utf8(data.subarray(at + 5, at + 5 + length))}`);
    at += 5 + length;
  }
  return lines.length > 0 ? lines.join('\n') : `<${data.length} bytes of Photoshop resources>`;
}

function xmpText(block: MetadataBlock): string {
  if (block.source === 'iTXt' || block.source === 'zTXt' || block.source === 'tEXt') return pngText(block.source, block.data);
  const data = block.data;
  // A JPEG XMP segment starts with its namespace and a NUL.
  const start = block.source.startsWith('0xFF') ? data.indexOf(0) + 1 : 0;
  return utf8(data.subarray(start));
}

/** The reviewer's text of each block, and the kinds found inside EXIF (GPS, a thumbnail). */
export function metadataTexts(blocks: readonly MetadataBlock[]): { texts: MetadataText[]; innerKinds: Array<'gps' | 'thumbnail'> } {
  const texts: MetadataText[] = [];
  const inner = new Set<'gps' | 'thumbnail'>();
  let total = 0;
  for (const [index, block] of blocks.entries()) {
    if (total >= TEXTS_MAX) {
      texts.push({ kind: 'other', text: `…(${blocks.length - index} more metadata blocks not shown)` });
      break;
    }
    let text: string;
    switch (block.kind) {
      case 'exif': {
        const data = block.source === 'tEXt' || block.source === 'zTXt' || block.source === 'iTXt' ? null : block.data;
        if (data === null) {
          text = pngText(block.source, block.data);
          break;
        }
        const exif = readExif(data);
        text = exif.lines.join('\n');
        if (exif.gps.length > 0) {
          inner.add('gps');
          const gps = clip(exif.gps.join('\n'));
          total += gps.length;
          texts.push({ kind: 'gps', text: gps });
        }
        if (exif.thumbnail) inner.add('thumbnail');
        break;
      }
      case 'xmp':
        text = xmpText(block);
        break;
      case 'comment':
        text = block.source.startsWith('0xFF') ? utf8(block.data) : pngText(block.source, block.data);
        break;
      case 'iptc':
        text = block.source.startsWith('0xFF') ? iptcText(block.data) : pngText(block.source, block.data);
        break;
      case 'timestamp':
        text = `time chunk (${block.data.length} bytes)`;
        break;
      default:
        text = `${block.kind} block ${block.source} (${block.data.length} bytes)`;
    }
    const clipped = clip(text);
    total += clipped.length;
    texts.push({ kind: block.kind, text: clipped });
  }
  return { texts, innerKinds: [...inner] };
}
