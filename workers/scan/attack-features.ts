/**
 * The attack classifier's features: hashed character 3-5-grams and word 1-2-grams of a
 * normalised copy of the text. One function serves training (training/attack-model.js) and
 * scanning, so the weights always meet the features they were trained on.
 *
 * Normalising undoes what does not change what a reader understands: compatibility forms
 * (full-width letters), case, invisible format characters, and which digits a number has
 * (`whoami` twice is the same attack as once; 2024 and 1997 are both a year). Features are
 * counted once per text (presence, not frequency) and the text's vector has unit length, so
 * a long paragraph does not outvote a short one by repetition.
 *
 * Hashing (FNV-1a over UTF-16 units, folded to `bits` bits) keeps the model a fixed size
 * with no vocabulary to ship; collisions cost a little accuracy, measured in the bench.
 */

import { unitsOf } from './text-units.js';

const INVISIBLE = /[\p{Cf}\u{FE00}-\u{FE0F}]/gu;
const DIGIT = /\p{Nd}/gu;
const SPACE = /\s+/gu;
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const CHAR_SEED = 0x63;
const WORD_SEED = 0x77;
const PAIR_MIX = 0x2545f491;

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_DIGIT = /[0-9]/g;

export function normalizeForFeatures(text: string): string {
  // Most claims are ASCII: NFKC and the Unicode classes change nothing there but cost a pass each.
  const plain = NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase().replace(INVISIBLE, '').replace(DIGIT, '0') : text.toLowerCase().replace(ASCII_DIGIT, '0');
  return ` ${plain.replace(SPACE, ' ').trim()} `;
}

// ASCII units that belong to words once the text is lower-cased and its digits are 0.
const ASCII_WORD = new Uint8Array(128);
for (let c = 97; c <= 122; c++) ASCII_WORD[c] = 1;
ASCII_WORD[48] = 1;
ASCII_WORD[95] = 1;

function isWordUnit(code: number): boolean {
  if (code < 128) return ASCII_WORD[code] === 1;
  return WORD_CHAR.test(String.fromCharCode(code));
}

const isAsciiSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/**
 * text[start, end) normalised as normalizeForFeatures does it, written as UTF-16 units into
 * `out` (which has room for end - start + 2), its length returned, or -1 if the stretch holds
 * a unit outside ASCII: one pass (lower case, digits as 0, whitespace runs as one space, the
 * ends trimmed and padded) where the string functions took four passes and as many copies.
 */
function asciiNormalizedUnits(text: string, start: number, end: number, out: Uint16Array): number {
  let n = 0;
  out[n++] = 32;
  let space = false;
  let started = false;
  const units = unitsOf(text);
  for (let i = start; i < end; i++) {
    let c = units[i]!;
    if (c >= 128) return -1;
    if (isAsciiSpace(c)) {
      space = started;
      continue;
    }
    if (space) out[n++] = 32;
    space = false;
    started = true;
    if (c >= 65 && c <= 90) c += 32;
    else if (c >= 48 && c <= 57) c = 48;
    out[n++] = c;
  }
  out[n++] = 32;
  return n;
}

/**
 * Computes feature indices for texts, reusing its buffers: one extractor per thread. The
 * answer is a view into a buffer of the extractor's, valid until the next call.
 */
export class FeatureExtractor {
  readonly dimensions: number;
  private readonly mask: number;
  /**
   * One bit a feature, set while a text is read and cleared after: 8 KB at 16 bits, so the
   * check stays in the core's cache where a stamp per feature (256 KB) did not.
   */
  private readonly seen: Uint8Array;
  private found: Int32Array;
  private units = new Uint16Array(2048);

  constructor(readonly bits: number) {
    this.dimensions = 1 << bits;
    this.mask = this.dimensions - 1;
    this.seen = new Uint8Array(Math.max(1, this.dimensions >>> 3));
    this.found = new Int32Array(4096);
  }

  /** The distinct feature indices of text[start, end) (unordered). */
  features(text: string, start = 0, end = text.length): Int32Array {
    // Counted first: extracting may replace the buffer with a larger one.
    const count = this.extract(text, start, end);
    return this.found.subarray(0, count);
  }

  /**
   * How many distinct features text[start, end) has, their indices left in `indices` (valid
   * until the next call): the classifier reads them there, where a view a window was garbage.
   */
  get indices(): Int32Array {
    return this.found;
  }

  extract(text: string, start = 0, end = text.length): number {
    // ASCII in one pass; other scripts take the string functions (NFKC can lengthen a text).
    if (this.units.length < end - start + 2) this.units = new Uint16Array((end - start + 2) * 2);
    let length = asciiNormalizedUnits(text, start, end, this.units);
    const ascii = length !== -1;
    if (!ascii) {
      const normalized = normalizeForFeatures(start === 0 && end === text.length ? text : text.slice(start, end));
      length = normalized.length;
      if (this.units.length < length) this.units = new Uint16Array(length * 2);
      for (let i = 0; i < length; i++) this.units[i] = normalized.charCodeAt(i);
    }
    const u = this.units;
    // At most three character n-grams a position, two word features a word.
    if (this.found.length < length * 5) this.found = new Int32Array(length * 5);
    const found = this.found;
    const seen = this.seen;
    const mask = this.mask;
    let count = 0;
    let k = 0;
    let bit = 0;

    // Character 3-, 4- and 5-grams, unrolled: the length is mixed in so that a 3-gram and
    // the 4-gram it starts differ.
    const seed = Math.imul(FNV_OFFSET ^ CHAR_SEED, FNV_PRIME);
    const mix3 = Math.imul(2, 0x9e3779b1);
    const mix4 = Math.imul(3, 0x9e3779b1);
    const mix5 = Math.imul(4, 0x9e3779b1);
    for (let i = 0; i + 2 < length; i++) {
      let h = Math.imul(Math.imul(Math.imul(seed ^ u[i]!, FNV_PRIME) ^ u[i + 1]!, FNV_PRIME) ^ u[i + 2]!, FNV_PRIME);
      k = ((h ^ mix3) >>> 0) & mask;
      bit = 1 << (k & 7);
      if ((seen[k >>> 3]! & bit) === 0) {
        seen[k >>> 3]! |= bit;
        found[count++] = k;
      }
      if (i + 3 >= length) continue;
      h = Math.imul(h ^ u[i + 3]!, FNV_PRIME);
      k = ((h ^ mix4) >>> 0) & mask;
      bit = 1 << (k & 7);
      if ((seen[k >>> 3]! & bit) === 0) {
        seen[k >>> 3]! |= bit;
        found[count++] = k;
      }
      if (i + 4 >= length) continue;
      h = Math.imul(h ^ u[i + 4]!, FNV_PRIME);
      k = ((h ^ mix5) >>> 0) & mask;
      bit = 1 << (k & 7);
      if ((seen[k >>> 3]! & bit) === 0) {
        seen[k >>> 3]! |= bit;
        found[count++] = k;
      }
    }

    // Words are runs of letters, digits and marks; every other non-space unit is a word of
    // its own, so `os.system(` yields os . system ( and their pairs.
    let previous = 0;
    let i = 0;
    while (i < length) {
      const code = u[i]!;
      if (code === 32) {
        i++;
        continue;
      }
      let h = Math.imul((FNV_OFFSET ^ WORD_SEED) ^ code, FNV_PRIME);
      let j = i + 1;
      if (ascii) {
        // Every unit is ASCII: the table alone says which belong to words.
        if (ASCII_WORD[code] === 1) {
          while (j < length && ASCII_WORD[u[j]!] === 1) h = Math.imul(h ^ u[j++]!, FNV_PRIME);
        }
      } else if (isWordUnit(code)) {
        while (j < length && isWordUnit(u[j]!)) h = Math.imul(h ^ u[j++]!, FNV_PRIME);
      }
      k = (h >>> 0) & mask;
      bit = 1 << (k & 7);
      if ((seen[k >>> 3]! & bit) === 0) {
        seen[k >>> 3]! |= bit;
        found[count++] = k;
      }
      if (previous !== 0) {
        k = ((Math.imul(previous, PAIR_MIX) ^ h ^ 0x5bd1e995) >>> 0) & mask;
        bit = 1 << (k & 7);
        if ((seen[k >>> 3]! & bit) === 0) {
          seen[k >>> 3]! |= bit;
          found[count++] = k;
        }
      }
      previous = h | 1;
      i = j;
    }
    // A window sets a thousand bits or so: clearing the whole bitmap (8 KB at 16 bits, one
    // native fill) costs less than a scattered store for each of them, the loop's largest line.
    if (count > seen.length >>> 4) seen.fill(0);
    else for (let n = 0; n < count; n++) seen[found[n]! >>> 3] = 0;
    return count;
  }
}
