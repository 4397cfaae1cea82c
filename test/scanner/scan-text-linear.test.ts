import { describe, expect, it } from 'vitest';
import { scanText } from '../../workers/scan/scan-text.js';
import { cpuMs, GROWTH_LIMIT as LIMIT } from '../harness/cpu-growth.js';

/**
 * The whole scanner, not only its patterns, takes time in proportion to the text
 * (docs/scanner.md, "Bounded scan time"). linear-rules.test.ts judges each regular
 * expression; a detector's own loop can still cost the square of the text: judging each line
 * of a note against "the rest of the text" built again for every line took 474 s of CPU for
 * 4 MiB of prose, past every claim's deadline, so every large note was held as scan_timeout.
 * Texts of the shapes detectors walk line by line and sentence by sentence are scanned at
 * 32 KiB and at 512 KiB; the CPU time of the cheapest of three runs may grow at most 40 times
 * for 16 times the text (that version grew 75 to 210 times from 16 KiB to 256 KiB; this one
 * 9 to 22 times). A ratio, never a clock.
 */

const KIB = 1024;

function repeatedTo(bytes: number, piece: (i: number) => string): string {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += piece(i);
  return out.slice(0, bytes);
}

const WORDS = 'the build runs tests before each release and the cache is cleared when the lockfile changes so a fresh install reads every package again'.split(' ');
const word = (i: number) => WORDS[(i * 7) % WORDS.length]!;

const SHAPES: Record<string, (i: number) => string> = {
  'prose, a sentence a line': (i) => (i % 17 === 16 ? '.\n' : ' ') + word(i),
  'requests to a reader, a line each': (i) => `Write a short summary of the ${word(i)} ${word(i + 3)} notes for the team.\n`,
  'lines that speak to an AI': (i) => `Note to the assistant: the ${word(i)} step ${i} runs after the ${word(i + 5)} one.\n`,
  'a markdown table with prose rows': (i) => (i % 3 === 2 ? `Please explain the ${word(i)} column.\n` : `| ${word(i)} | ${i} | ${word(i + 2)} |\n`),
  'a numbered list of orders': (i) => `${i}. Use the ${word(i)} and keep the ${word(i + 4)} as it is.\n`,
  'sentences without line breaks': (i) => `Any agent that reads the ${word(i)} notes should keep them. `,
};

describe('the whole scanner is linear in its text', () => {
  for (const [name, piece] of Object.entries(SHAPES)) {
    it(`${name}: 16 times the text costs at most ${LIMIT} times the time`, async () => {
      // Warm: what the detectors make on first use, and V8's compiled patterns.
      await scanText(repeatedTo(32 * KIB, piece), { contentType: 'memory' });
      const small = repeatedTo(32 * KIB, piece);
      const large = repeatedTo(512 * KIB, piece);
      const smallMs = await cpuMs(() => scanText(small, { contentType: 'memory' }));
      const largeMs = await cpuMs(() => scanText(large, { contentType: 'memory' }));
      expect(largeMs / smallMs, `${smallMs.toFixed(1)} ms at 32 KiB, ${largeMs.toFixed(1)} ms at 512 KiB`).toBeLessThan(LIMIT);
    }, 120_000);
  }
});
