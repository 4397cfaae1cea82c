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

const INVISIBLE = /[\p{Cf}\u{FE00}-\u{FE0F}]/gu;
const DIGIT = /\p{Nd}/gu;
const SPACE = /\s+/gu;
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const CHAR_SEED = 0x63;
const WORD_SEED = 0x77;
const PAIR_MIX = 0x2545f491;

export const MIN_CHAR_GRAM = 3;
export const MAX_CHAR_GRAM = 5;

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_DIGIT = /[0-9]/g;

export function normalizeForFeatures(text: string): string {
  // Most claims are ASCII: NFKC and the Unicode classes change nothing there but cost a pass each.
  const plain = NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase().replace(INVISIBLE, '').replace(DIGIT, '0') : text.toLowerCase().replace(ASCII_DIGIT, '0');
  return ` ${plain.replace(SPACE, ' ').trim()} `;
}

function isWordUnit(code: number): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || (code >= 65 && code <= 90);
  return WORD_CHAR.test(String.fromCharCode(code));
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

  constructor(readonly bits: number) {
    this.dimensions = 1 << bits;
    this.mask = this.dimensions - 1;
    this.seen = new Uint8Array(Math.max(1, this.dimensions >>> 3));
    this.found = new Int32Array(4096);
  }

  /** The distinct feature indices of `text` (unordered). */
  features(text: string): Int32Array {
    const s = normalizeForFeatures(text);
    const length = s.length;
    // At most three character n-grams a position, two word features a word.
    if (this.found.length < length * 5) this.found = new Int32Array(length * 5);
    const found = this.found;
    const seen = this.seen;
    const mask = this.mask;
    let count = 0;
    let k = 0;
    let bit = 0;

    for (let i = 0; i < length; i++) {
      let h = Math.imul(FNV_OFFSET ^ CHAR_SEED, FNV_PRIME);
      const last = Math.min(MAX_CHAR_GRAM, length - i);
      for (let j = 0; j < last; j++) {
        h = Math.imul(h ^ s.charCodeAt(i + j), FNV_PRIME);
        if (j < MIN_CHAR_GRAM - 1) continue;
        // The length is mixed in so that a 3-gram and the 4-gram it starts differ.
        k = ((h ^ Math.imul(j, 0x9e3779b1)) >>> 0) & mask;
        bit = 1 << (k & 7);
        if ((seen[k >>> 3]! & bit) === 0) {
          seen[k >>> 3]! |= bit;
          found[count++] = k;
        }
      }
    }

    // Words are runs of letters, digits and marks; every other non-space unit is a word of
    // its own, so `os.system(` yields os . system ( and their pairs.
    let previous = 0;
    let i = 0;
    while (i < length) {
      const code = s.charCodeAt(i);
      if (code === 32) {
        i++;
        continue;
      }
      let j = i + 1;
      if (isWordUnit(code)) while (j < length && isWordUnit(s.charCodeAt(j))) j++;
      let h = FNV_OFFSET ^ WORD_SEED;
      for (let u = i; u < j; u++) h = Math.imul(h ^ s.charCodeAt(u), FNV_PRIME);
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
    for (let n = 0; n < count; n++) seen[found[n]! >>> 3] = 0;
    return found.subarray(0, count);
  }
}
