import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEME, MAX_CHARS, hashedNgrams, normalised, words, type HashedNgramsScheme } from '../../dist/workers/embed/hashed-ngrams.js';
import { STOPWORDS } from '../../dist/workers/embed/stopwords.js';

/**
 * The local embedding as its doc states it, written the plain way (a string per n-gram,
 * unsigned hashes, the remainder for the bucket). Stored vectors are tagged with the
 * scheme's label only, so the gate's faster form must give these exact floats: a change
 * would leave every stored vector meaning something else under the same label.
 */
function plainHashedNgrams(text: string, s: HashedNgramsScheme): Float32Array {
  const hash = (str: string, seed: number) => {
    let h = (0x811c9dc5 ^ seed) >>> 0;
    for (let i = 0; i < str.length; i++) {
      h ^= str.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  };
  const v = new Float32Array(s.dims);
  const add = (h: number, weight: number) => {
    v[(h & 0x7fffffff) % v.length]! += h & 0x80000000 ? -weight : weight;
  };
  const content = words(text.slice(0, MAX_CHARS)).filter((w) => !STOPWORDS.has(w));
  const counts = new Map<string, number>();
  for (const w of content) counts.set(w, (counts.get(w) ?? 0) + 1);
  for (const [w, tf] of counts) {
    const weight = 1 + Math.log(tf);
    if (s.word > 0) add(hash(w, 0x57), s.word * weight);
    if (s.chars > 0) {
      const marked = `<${w}>`;
      let grams = 0;
      for (let n = s.charMin; n <= s.charMax; n++) grams += Math.max(0, marked.length - n + 1);
      const each = grams === 0 ? 0 : (s.chars * weight) / Math.sqrt(grams);
      for (let n = s.charMin; n <= s.charMax; n++) {
        for (let i = 0; i + n <= marked.length; i++) add(hash(marked.slice(i, i + n), 0xc4 + n), each);
      }
    }
  }
  if (s.bigram > 0) {
    const pairs = new Map<string, number>();
    for (let i = 0; i + 1 < content.length; i++) {
      const pair = `${content[i]} ${content[i + 1]}`;
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    }
    for (const [pair, tf] of pairs) add(hash(pair, 0xb1), s.bigram * (1 + Math.log(tf)));
  }
  return normalised(v);
}

const TEXTS = [
  '',
  'a',
  'the and of',
  'Configure the gate; configured gates, configuration files. Configure again and again and again.',
  'Ünïcödé café naïve façade Straße ǅemal ﬁne 日本語のテキストを読む Ελληνικά κείμενα 😀 emoji 😀 twice',
  'x'.repeat(70_000),
  // NFKD makes this one word of 140,000 letters, longer than the MAX_CHARS read.
  '가'.repeat(70_000),
  `${'word '.repeat(500)}tail`,
  Array.from({ length: 300 }, (_, i) => `w${(i * 7919) % 1013} tok${i % 17}`).join(' '),
  'a-b c_d e.f 42 3.14 0xFF 2026-11-25T03:00Z user@example.com https://example.com/a/b?c=d',
];

const same = (a: Float32Array, b: Float32Array) => Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

describe('the local embedding', () => {
  it.each([
    ['the default scheme', DEFAULT_SCHEME],
    ['dimensions that are not a power of two, with bigrams', { ...DEFAULT_SCHEME, dims: 300, bigram: 0.5 }],
    ['words only', { ...DEFAULT_SCHEME, dims: 64, chars: 0 }],
    ['wide character n-grams', { ...DEFAULT_SCHEME, charMin: 1, charMax: 7 }],
  ])('gives exactly the plain form of its doc: %s', (_name, scheme) => {
    for (const text of TEXTS) {
      const fast = hashedNgrams(text, scheme);
      const plain = plainHashedNgrams(text, scheme);
      expect(fast.length).toBe(scheme.dims);
      expect(same(fast, plain), `differs on ${JSON.stringify(text.slice(0, 40))}`).toBe(true);
    }
    // Not vacuous: the texts with content words give vectors of unit length.
    const norm = Math.hypot(...hashedNgrams(TEXTS[3]!, scheme));
    expect(norm).toBeCloseTo(1, 5);
  });

  it('gives the same vector for a text however often it is embedded (no state kept between calls)', () => {
    const first = hashedNgrams(TEXTS[4]!);
    hashedNgrams('x'.repeat(70_000));
    hashedNgrams('short');
    expect(same(hashedNgrams(TEXTS[4]!), first)).toBe(true);
  });
});
