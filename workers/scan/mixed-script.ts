/**
 * Homoglyph spoofing: one word written in two scripts so that it reads as another word,
 * like "pаypal" with a Cyrillic а. A whole Russian or Greek sentence is one script per word
 * and passes; so does a word whose foreign letters visibly differ (the Greek μ in "μs"),
 * because a reader can see the mix. Only a word whose minority letters all pass for the
 * majority script is reported.
 */
import type { Finding } from './finding.js';
import { LATIN_LOOKALIKE, PASSES_FOR } from './confusables.js';
import { knownAscii } from './literal-cues.js';
import { maskExcerpt } from './mask.js';

// Two-letter words are too short to spoof anything and include plurals like "ιs" (iotas).
const WORD = /[\p{L}\p{M}]{3,}/gu;
const NON_LATIN_OF_INTEREST = /[\u0370-\u03FF\u0400-\u052F\u1F00-\u1FFF]/;
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;

type Script = 'Latin' | 'Cyrillic' | 'Greek';

function scriptOf(ch: string): Script | null {
  if (LATIN.test(ch)) return 'Latin';
  if (CYRILLIC.test(ch)) return 'Cyrillic';
  if (GREEK.test(ch)) return 'Greek';
  return null;
}

function isDeceptive(word: string): { scripts: Script[] } | null {
  const letters = new Map<Script, string[]>();
  for (const ch of word) {
    const script = scriptOf(ch);
    if (!script) continue;
    const seen = letters.get(script);
    if (seen) seen.push(ch);
    else letters.set(script, [ch]);
  }
  if (!letters.has('Latin') || letters.size < 2) return null;
  const scripts = [...letters.keys()];
  if (letters.size > 2) return { scripts };
  const other = scripts.find((s) => s !== 'Latin') as 'Cyrillic' | 'Greek';
  const latin = letters.get('Latin')!;
  const foreign = letters.get(other)!;
  const disguised =
    latin.length >= foreign.length
      ? foreign.every((ch) => LATIN_LOOKALIKE.has(ch))
      : latin.every((ch) => PASSES_FOR[other].has(ch));
  return disguised ? { scripts } : null;
}

export function findMixedScriptWords(text: string): Finding[] {
  if (knownAscii(text) || !NON_LATIN_OF_INTEREST.test(text)) return [];
  const findings: Finding[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (!NON_LATIN_OF_INTEREST.test(word)) continue;
    const verdict = isDeceptive(word);
    if (!verdict) continue;
    findings.push({
      kind: 'unicode.mixed-script-word',
      severity: 'medium',
      detail: `A word mixing ${verdict.scripts.join(' and ')} letters that look alike, so it reads as a different word.`,
      start: m.index,
      end: m.index + word.length,
      excerpt: maskExcerpt(word),
    });
  }
  return findings;
}
