/**
 * The passes over every unit written without branches on the text (the cue stream, the
 * encoded runs) hold to what the patterns they stand for find, on random and real texts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodedRuns } from '../../workers/scan/encoded-payloads.js';
import { derivedStream } from '../../workers/scan/literal-cues.js';

const fixtureDir = new URL('../../fixtures/scan/', import.meta.url);
const fixtures = readdirSync(fixtureDir)
  .filter((name) => name !== 'expected.json')
  .map((name) => readFileSync(new URL(name, fixtureDir), 'utf8'));

let seed = 11;
const next = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return (seed >>> 8) % n;
};
const PIECES = ['a', 'deadbeef', 'QUJD', '==', '+/', '-_', ' ', '  ', ':', '\n', '\t\t', '\u00a0', '\u3000', 'é', 'xyz', '0123456789abcdef', 'Zz9', '.', 'g', '😀'];
const random = Array.from({ length: 600 }, () => Array.from({ length: 1 + next(200) }, () => PIECES[next(PIECES.length)]).join(''));
const texts = [...fixtures, ...random, '', 'a', 'QUJDREVGR0hJSktMTU5PUFFS', 'de ad be ef de ad be ef de ad', `x${'A'.repeat(15)}`, 'A'.repeat(16)];

function runsOf(text: string, pattern: RegExp): Array<[number, number]> {
  return [...text.matchAll(pattern)].filter((m) => m[0].length >= 16).map((m) => [m.index, m.index + m[0].length]);
}

describe('branchless passes', () => {
  it('find the runs of base64 and of hex that the character classes find', () => {
    for (const text of texts) {
      expect(encodedRuns(text)).toEqual({ base64: runsOf(text, /[A-Za-z0-9+/_=-]+/g), hex: runsOf(text, /[0-9a-fA-F :]+/g) });
    }
  });

  it('write the cue stream as the rule says: lower-cased ASCII, whitespace runs as one space, other units as 0', () => {
    for (const text of texts) {
      const { units, length } = derivedStream(text);
      const expected = text.replace(/\s+/g, ' ').replace(/[^\x00-\x7f]/g, '\0').toLowerCase().replace(/[\x00]/g, '\0');
      expect(Buffer.from(units.subarray(0, length)).toString('latin1')).toBe(expected);
    }
  });
});
