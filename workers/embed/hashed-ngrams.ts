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

/** murmur3's finaliser, so the low bits of an FNV-1a hash mix well. */
function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of s, then the finaliser; a signed 32-bit int (its sign is the feature's). */
function hash(s: string, seed: number): number {
  let h = FNV_OFFSET ^ seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return finish(h);
}

const SEED_WORD = 0x57;
const SEED_BIGRAM = 0xb1;
const SEED_CHAR = 0xc4;

/**
 * Adds `weight` to the feature's bucket with the feature's sign (the top bit), so collisions
 * cancel on average. `mask` is dims - 1 when dims is a power of two (the same bucket as the
 * remainder, without a division), else -1.
 */
function add(v: Float32Array, h: number, weight: number, mask: number): void {
  const bucket = mask >= 0 ? h & mask : (h & 0x7fffffff) % v.length;
  v[bucket]! += h < 0 ? -weight : weight;
}

/**
 * A word's code units between its boundary marks < and >, reused from word to word and grown
 * for a longer one (NFKD can make a word longer than the MAX_CHARS read: a Hangul syllable
 * becomes two or three letters).
 */
let marked = new Uint16Array(256);
const OPEN_MARK = 0x3c;
const CLOSE_MARK = 0x3e;

/**
 * A weight for some of a text's words, multiplying all of each one's features: a query's
 * words weighed by how rare they are in the store (src/recall/query-weights.ts), which a
 * stored vector cannot hold (it depends on its own text alone). Words not named weigh 1.
 */
export type WordWeights = ReadonlyMap<string, number>;

/**
 * The vector of `text`. Every feature is added in a fixed order (words in order of first
 * appearance; for each, the word, then its character n-grams by n and position), so the
 * float sums, and the vector, are the same on every run and machine.
 */
export function hashedNgrams(text: string, s: HashedNgramsScheme = DEFAULT_SCHEME, weightOf?: WordWeights): Float32Array {
  const v = new Float32Array(s.dims);
  const mask = (s.dims & (s.dims - 1)) === 0 ? s.dims - 1 : -1;
  const all = words(text.slice(0, MAX_CHARS));
  // Repeats count sublinearly (1 + ln tf), so one word said ten times does not drown the rest.
  const counts = new Map<string, number>();
  for (const w of all) if (!STOPWORDS.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  for (const [w, tf] of counts) {
    const weight = (1 + Math.log(tf)) * (weightOf?.get(w) ?? 1);
    if (s.word > 0) add(v, hash(w, SEED_WORD), s.word * weight, mask);
    if (s.chars > 0) addCharGrams(v, w, weight, s, mask);
  }
  if (s.bigram > 0) {
    const content = all.filter((w) => !STOPWORDS.has(w));
    const pairs = new Map<string, number>();
    for (let i = 0; i + 1 < content.length; i++) {
      const pair = `${content[i]} ${content[i + 1]}`;
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    }
    for (const [pair, tf] of pairs) add(v, hash(pair, SEED_BIGRAM), s.bigram * (1 + Math.log(tf)), mask);
  }
  return normalised(v);
}

/**
 * Adds one word's character n-grams, by n and position, each hashed over the marked word's
 * code units in place (no string per n-gram). The embed worker spends most of its time here
 * (~1,650 n-grams for a 1 KB claim), so finish() and add() are written out inline: the
 * same operations in the same order. Called, they measured ~15% slower (56 µs a claim
 * against 48 on bench/ingest.js's claims); the form test holds the two to the same floats.
 */
function addCharGrams(v: Float32Array, w: string, weight: number, s: HashedNgramsScheme, mask: number): void {
  const length = w.length + 2;
  if (length > marked.length) marked = new Uint16Array(2 * length);
  const m = marked;
  m[0] = OPEN_MARK;
  for (let i = 0; i < w.length; i++) m[i + 1] = w.charCodeAt(i);
  m[length - 1] = CLOSE_MARK;
  let grams = 0;
  for (let n = s.charMin; n <= s.charMax; n++) grams += Math.max(0, length - n + 1);
  const each = grams === 0 ? 0 : (s.chars * weight) / Math.sqrt(grams);
  const dims = v.length;
  for (let n = s.charMin; n <= s.charMax; n++) {
    const start = FNV_OFFSET ^ (SEED_CHAR + n);
    for (let i = 0; i + n <= length; i++) {
      let h = start;
      for (let k = i; k < i + n; k++) h = Math.imul(h ^ m[k]!, FNV_PRIME);
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
      v[mask >= 0 ? h & mask : (h & 0x7fffffff) % dims]! += h < 0 ? -each : each;
    }
  }
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
