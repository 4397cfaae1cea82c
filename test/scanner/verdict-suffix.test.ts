import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../workers/scan/scan-text.js';
import { contentLength } from '../../workers/scan/trailing-noise.js';

// Whitespace and a citation mark appended to a text say nothing: the verdict must not change
// with them. Over every text the repository holds (the public sets are read by the
// test:data twin of this test, verdict-suffix-public.data.test.ts).
const lines = (file: string) =>
  readFileSync(new URL(file, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l).text as string);
const fixtureDir = new URL('../../fixtures/scan/', import.meta.url);
const claims = JSON.parse(readFileSync(new URL('../../fixtures/recall-quality/claims.json', import.meta.url), 'utf8'));
const TEXTS = [
  ...lines('../../fixtures/scan-training/red-team.jsonl'),
  ...lines('../../fixtures/scan-training/benign-notes.jsonl'),
  ...readdirSync(fixtureDir).filter((n) => n !== 'expected.json').map((n) => readFileSync(new URL(n, fixtureDir), 'utf8')),
  ...(Array.isArray(claims) ? claims : claims.claims).map((c: { text: string }) => c.text),
];
const SUFFIXES = ['  \n\t ', ' [3]', ' (12)', '\n[7]\n', ' [1] [2]'];

describe('a verdict and what is appended to its text', () => {
  it('does not change with trailing whitespace or bracketed numbers', async () => {
    const changed: string[] = [];
    for (const text of TEXTS) {
      const base = (await scanText(text, { contentType: 'memory' })).flagged;
      for (const suffix of SUFFIXES) if ((await scanText(text + suffix, { contentType: 'memory' })).flagged !== base) changed.push(JSON.stringify(text.slice(0, 80) + suffix));
    }
    expect(changed).toEqual([]);
    expect(TEXTS.length).toBeGreaterThan(1500);
  }, 120_000);

  it('ends content before trailing whitespace and bracketed numbers only', () => {
    expect(contentLength('claim text [3]  ')).toBe('claim text'.length);
    expect(contentLength('see (12) (3)\n')).toBe('see'.length);
    expect(contentLength('array[3]')).toBe('array'.length);
    expect(contentLength('keep [x] and (a1)')).toBe('keep [x] and (a1)'.length);
    expect(contentLength('   ')).toBe(0);
    expect(contentLength(' '.repeat(200_000) + 'x')).toBe(200_001);
  });
});
