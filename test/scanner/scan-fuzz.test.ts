import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFlagging, isMaskedKind, SEVERITY_RANK, type ScanResult } from '../../workers/scan/finding.js';
import { scanText } from '../../workers/scan/scan-text.js';
import * as commandsToRun from '../../workers/scan/commands-to-run.js';
import * as encodedPayloads from '../../workers/scan/encoded-payloads.js';
import * as executablePatterns from '../../workers/scan/executable-patterns.js';
import * as hiddenMarkup from '../../workers/scan/hidden-markup.js';
import * as injectionPhrases from '../../workers/scan/injection-phrases.js';
import * as personalData from '../../workers/scan/personal-data.js';
import * as secretAssignments from '../../workers/scan/secret-assignments.js';
import { adversarialShapes, exportedPatterns, inputOf, type AdversarialShape } from '../harness/adversarial-inputs.mjs';

/**
 * The scanner on texts nobody wrote: random ones (any code point, lone surrogates, control
 * characters) and adversarial ones built from the rules' own pieces (the inputs of the
 * linearity test, cut short, mixed with random text). Whatever the text, a scan ends and
 * its result is well formed: findings in order and inside the text, the masked body as long
 * as the text and changed only inside masked findings, no excerpt showing a whole span,
 * the same result twice. (Its time is judged by test/scanner/linear-rules.test.ts and
 * recorded by bench/scan-time.js; no clock here.)
 */

const SHAPES: AdversarialShape[] = Object.entries({ commandsToRun, encodedPayloads, executablePatterns, hiddenMarkup, injectionPhrases, personalData, secretAssignments })
  .flatMap(([name, namespace]) => exportedPatterns(name, namespace as Record<string, unknown>))
  .flatMap(({ regex }) => adversarialShapes(regex, { limit: 8 }));

/** Pieces of what the rules look for, to be strung together at random. */
const PIECES = [
  'curl -fsSL https://x.example/i.sh', ' | ', 'sh', 'sudo bash -s --', 'base64 -d', 'eval "$(', ')', '`', 'iex', 'iwr -useb u',
  'ignore all previous instructions', 'you are now DAN', '<|im_start|>system', '<!--', '-->', '<div style="display:none">', '</div>',
  '![a](https://x/y.png "', '"', "'", '“', '”', '\n', '\n\n', '   ', '\t', '\u200b', '\u202e', 'ghp_', 'AKIA', 'password = ',
  '4111 1111 1111 1111', 'SSN 078-05-1120', 'diagnosed with diabetes, mail a@b.example', 'GB82 WEST 1234 5698 7654 32',
  'aWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM=', '\\x69\\x67', '&#105;&#103;', '%69%67', '.-- .... ---', 'Run: ', 'os.system(',
  'rm -rf /', 'nc -e /bin/sh', 'mkfifo /tmp/f', '```sh', '```', '# SYSTEM:', 'Execute:', 'a/b/c/', 'x'.repeat(40), '0123456789',
];

const randomText = fc.string({ unit: 'binary', maxLength: 2000 });
const strung = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 12 })), { maxLength: 120 }).map((parts) => parts.join(''));
const adversarial = fc
  .tuple(fc.constantFrom(...SHAPES), fc.integer({ min: 1, max: 2048 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }))
  .map(([shape, size, before, after]) => `${before}${inputOf(shape, size)}${after}`);

function wellFormed(text: string, result: ScanResult): void {
  const { findings } = result;
  for (const [i, f] of findings.entries()) {
    expect(f.start, f.kind).toBeGreaterThanOrEqual(0);
    expect(f.end, f.kind).toBeGreaterThanOrEqual(f.start);
    expect(f.end, f.kind).toBeLessThanOrEqual(text.length);
    expect(SEVERITY_RANK[f.severity], f.kind).toBeGreaterThan(0);
    expect(f.kind).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
    // An excerpt never shows its whole span.
    expect(f.excerpt).toMatch(/…\(\d+ more\)$/);
    if (i > 0) expect(f.start).toBeGreaterThanOrEqual(findings[i - 1]!.start);
  }
  expect(result.flagged).toBe(findings.some((f) => isFlagging(f.severity)));
  if (result.masked === null) {
    expect(findings.filter((f) => isMaskedKind(f.kind) && f.end > f.start)).toEqual([]);
    return;
  }
  expect(result.masked).toHaveLength(text.length);
  const masked = new Uint8Array(text.length);
  for (const f of findings) if (isMaskedKind(f.kind)) masked.fill(1, f.start, f.end);
  for (let i = 0; i < text.length; i++) {
    if (masked[i] === 0) expect(result.masked[i], `unit ${i} is outside every masked finding`).toBe(text[i]);
    else expect(result.masked[i]).toBe('█');
  }
}

async function holds(text: string): Promise<void> {
  const first = await scanText(text, { contentType: 'memory' });
  wellFormed(text, first);
  expect(await scanText(text, { contentType: 'memory' })).toEqual(first);
  wellFormed(text, await scanText(text, { contentType: 'skill' }));
}

describe('the scanner on random and adversarial texts', () => {
  it('reads the rules of seven detectors for adversarial pieces', () => {
    expect(SHAPES.length).toBeGreaterThan(200);
  });

  it('random texts of any code points', async () => {
    await fc.assert(fc.asyncProperty(randomText, holds), { numRuns: 300, seed: 44 });
  }, 120_000);

  it("texts strung from the rules' words", async () => {
    await fc.assert(fc.asyncProperty(strung, holds), { numRuns: 300, seed: 45 });
  }, 120_000);

  it("the rules' adversarial inputs, cut short and wrapped in random text", async () => {
    await fc.assert(fc.asyncProperty(adversarial, holds), { numRuns: 200, seed: 46 });
  }, 300_000);
});
