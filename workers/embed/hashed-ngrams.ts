/**
 * The embedded default embedding: signed feature hashing of word unigrams, word bigrams
 * and character n-grams of each word into a fixed number of buckets, L2-normalised. It
 * needs no weights and no network, and the same text always gives the same vector, so
 * the label below fully names a stored vector's meaning. Character n-grams carry word
 * forms (configure, configured, configuration) that exact words miss; bigrams carry a
 * little word order. The choice of settings is recorded in bench/results/recall-quality.json.
 */
import { STOPWORDS } from './stopwords.js';

export interface HashedNgramsScheme {
  dims: number;
  /** Weight of each distinct content word (stopwords are skipped). */
  word: number;
  /** Weight of each distinct adjacent pair of content words; 0 leaves bigrams out. */
  bigram: number;
  /** Total weight of one word's character n-grams, spread over them; 0 leaves them out. */
  chars: number;
  /** Smallest and largest n of the character n-grams, counted over `<word>` with its boundary marks. */
  charMin: number;
  charMax: number;
}

/** Chosen on the labelled set (bench/recall-quality.js): character n-grams weighted over words, no bigrams, 512 buckets. */
export const DEFAULT_SCHEME: HashedNgramsScheme = { dims: 512, word: 1, bigram: 0, chars: 2, charMin: 3, charMax: 5 };

/** At most this much of a text is read: enough for any claim's vocabulary, and bounded for a 4 MB one. */
export const MAX_CHARS = 65536;

/** The label a stored vector is tagged with: scheme version, dimension and every weight. */
export function schemeLabel(s: HashedNgramsScheme): string {
  return `local-hashed-ngrams/1 d${s.dims} w${s.word} b${s.bigram} c${s.chars}:${s.charMin}-${s.charMax} max${MAX_CHARS}`;
}

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

/** Lower-cased words with diacritics removed, as the FTS5 tokenizer (unicode61 remove_diacritics 2) sees them. */
export function words(text: string): string[] {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().match(WORD) ?? [];
}

/** FNV-1a over UTF-16 code units of s[start, end), then murmur3's finaliser so low bits mix well. */
function hash(s: string, start: number, end: number, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = start; i < end; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const SEED_WORD = 0x57;
const SEED_BIGRAM = 0xb1;
const SEED_CHAR = 0xc4;

/** Adds `weight` to the feature's bucket with the feature's sign (the top bit), so collisions cancel on average. */
function add(v: Float32Array, h: number, weight: number): void {
  const bucket = (h & 0x7fffffff) % v.length;
  v[bucket]! += h & 0x80000000 ? -weight : weight;
}

export function hashedNgrams(text: string, s: HashedNgramsScheme = DEFAULT_SCHEME): Float32Array {
  const v = new Float32Array(s.dims);
  const content = words(text.slice(0, MAX_CHARS)).filter((w) => !STOPWORDS.has(w));
  // Repeats count sublinearly (1 + ln tf), so one word said ten times does not drown the rest.
  const counts = new Map<string, number>();
  for (const w of content) counts.set(w, (counts.get(w) ?? 0) + 1);
  for (const [w, tf] of counts) {
    const weight = 1 + Math.log(tf);
    if (s.word > 0) add(v, hash(w, 0, w.length, SEED_WORD), s.word * weight);
    if (s.chars > 0) {
      const marked = `<${w}>`;
      let grams = 0;
      for (let n = s.charMin; n <= s.charMax; n++) grams += Math.max(0, marked.length - n + 1);
      const each = grams === 0 ? 0 : (s.chars * weight) / Math.sqrt(grams);
      for (let n = s.charMin; n <= s.charMax; n++) {
        for (let i = 0; i + n <= marked.length; i++) add(v, hash(marked, i, i + n, SEED_CHAR + n), each);
      }
    }
  }
  if (s.bigram > 0) {
    const pairs = new Map<string, number>();
    for (let i = 0; i + 1 < content.length; i++) {
      const pair = `${content[i]} ${content[i + 1]}`;
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    }
    for (const [pair, tf] of pairs) add(v, hash(pair, 0, pair.length, SEED_BIGRAM), s.bigram * (1 + Math.log(tf)));
  }
  return normalised(v);
}

/** Scales v to unit length in place; a text with no content word stays the zero vector. */
export function normalised(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum === 0) return v;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i]! *= scale;
  return v;
}
