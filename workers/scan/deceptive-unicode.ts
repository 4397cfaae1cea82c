/**
 * Characters that change what a reader sees without showing themselves: bidi controls that
 * reorder text (Trojan Source), tag characters that spell invisible ASCII (a known way to
 * smuggle instructions past people to a model), and zero-width characters used to hide data
 * or split words past filters. Each has an honest use that must pass: natural right-to-left
 * text needs no override controls, flag emoji use tag characters in a fixed shape, emoji
 * and Indic or Arabic script join letters with single zero-width joiners.
 */
import type { Finding, Severity } from './finding.js';
import { knownAscii } from './literal-cues.js';
import { maskExcerpt } from './mask.js';

const hex = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The code points a run names, remembered for short runs: a text of a MiB of the same
 * invisible run repeated made a hundred thousand findings, each spelling the same names.
 */
const NAMED = new Map<string, string>();
const NAMED_MAX = 1024;
const NAMED_RUN_MAX = 64;

function codePointsOf(span: string): string {
  let named = NAMED.get(span);
  if (named === undefined) {
    const distinct = [...new Set(Array.from(span, (ch) => ch.codePointAt(0)!))];
    named = distinct.slice(0, 4).map(hex).join(', ') + (distinct.length > 4 ? ', …' : '');
    if (span.length <= NAMED_RUN_MAX) {
      if (NAMED.size >= NAMED_MAX) NAMED.clear();
      NAMED.set(span, named);
    }
  }
  return named;
}

function finding(kind: string, severity: Severity, detail: string, text: string, start: number, end: number): Finding {
  return { kind, severity, detail, start, end, excerpt: maskExcerpt(text.slice(start, end)) };
}

// --- bidi controls -------------------------------------------------------------------------

const BIDI_RUN = /[\u202A-\u202E\u2066-\u2069\u200E\u200F]+/g;
const BIDI_OVERRIDE = /[\u202D\u202E]/;
const BIDI_EMBED_OR_ISOLATE = /[\u202A-\u202C\u2066-\u2069]/;
const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;

function findBidiControls(text: string): Finding[] {
  const findings: Finding[] = [];
  const hasRtlText = RTL_LETTER.test(text);
  for (const m of text.matchAll(BIDI_RUN)) {
    const run = m[0];
    const start = m.index;
    const end = start + run.length;
    let severity: Severity;
    if (BIDI_OVERRIDE.test(run)) severity = 'high';
    else if (BIDI_EMBED_OR_ISOLATE.test(run)) severity = 'medium';
    // Left-to-right and right-to-left marks are how mixed-direction text is written by hand.
    else if (hasRtlText) continue;
    else severity = 'medium';
    findings.push(
      finding(
        'unicode.bidi-control',
        severity,
        `Bidirectional control characters (${codePointsOf(run)}) that can make text display in a different order than it reads.`,
        text,
        start,
        end,
      ),
    );
  }
  return findings;
}

// --- tag characters ------------------------------------------------------------------------

const TAG_RUN = /(?:\uDB40[\uDC00-\uDC7F])+/g;
// A subdivision flag: black flag, 2-6 tag letters or digits, then CANCEL TAG (U+E007F).
const FLAG_TAG_SEQUENCE = /^(?:\uDB40[\uDC30-\uDC39\uDC61-\uDC7A]){2,6}\uDB40\uDC7F$/;
const BLACK_FLAG = '\u{1F3F4}';

function findTagCharacters(text: string): Finding[] {
  if (!text.includes('\uDB40')) return [];
  const findings: Finding[] = [];
  for (const m of text.matchAll(TAG_RUN)) {
    const start = m.index;
    if (FLAG_TAG_SEQUENCE.test(m[0]) && text.slice(start - BLACK_FLAG.length, start) === BLACK_FLAG) continue;
    const count = m[0].length / 2;
    findings.push(
      finding(
        'unicode.tag-characters',
        'high',
        `${count} invisible Unicode tag character${count === 1 ? '' : 's'}, which can spell out hidden text for a machine reader.`,
        text,
        start,
        start + m[0].length,
      ),
    );
  }
  return findings;
}

// --- zero-width characters ------------------------------------------------------------------

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]+/g;
const LONG_RUN = 8;
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|[\uFE0F\u20E3]/u;
// Scripts whose spelling uses ZWJ/ZWNJ between letters (Persian, Urdu, Hindi, Sinhala, …).
const JOINING_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Mongolian}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Thai}\p{Script=Lao}\p{Script=Tibetan}\p{Script=Hebrew}]/u;
const LATIN_LETTER = /[A-Za-z\u00C0-\u024F]/;

function neighbour(text: string, index: number, before: boolean): string {
  if (before) {
    const lo = text.charCodeAt(index - 1);
    return lo >= 0xdc00 && lo <= 0xdfff ? text.slice(index - 2, index) : text.slice(index - 1, index);
  }
  const cp = text.codePointAt(index);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

function findZeroWidth(text: string): Finding[] {
  const findings: Finding[] = [];
  for (const m of text.matchAll(ZERO_WIDTH)) {
    let start = m.index;
    let run = m[0];
    // A byte-order mark opening the text is an encoding artefact, not content.
    if (start === 0 && run[0] === '\uFEFF') {
      start = 1;
      run = run.slice(1);
      if (run.length === 0) continue;
    }
    const end = start + run.length;
    if (run.length >= 2) {
      findings.push(
        finding(
          'unicode.zero-width-run',
          run.length >= LONG_RUN ? 'high' : 'medium',
          `A run of ${run.length} zero-width characters (${codePointsOf(run)}), invisible and able to encode hidden data.`,
          text,
          start,
          end,
        ),
      );
      continue;
    }
    const before = neighbour(text, start, true);
    const after = neighbour(text, end, false);
    if (EMOJI.test(before) || EMOJI.test(after) || JOINING_SCRIPT.test(before) || JOINING_SCRIPT.test(after)) continue;
    // One invisible character splitting a Latin word defeats keyword filters ("pass\u200Bword").
    if (LATIN_LETTER.test(before) && LATIN_LETTER.test(after)) {
      findings.push(
        finding(
          'unicode.zero-width-char',
          'low',
          `A zero-width character (${codePointsOf(run)}) splitting a word.`,
          text,
          start,
          end,
        ),
      );
    }
  }
  return findings;
}

// --- variation selectors ------------------------------------------------------------------

// One selector after a character picks its glyph (emoji vs text style); a run of them
// carries nothing visible and has been used to smuggle bytes into a single emoji.
const VARIATION_SELECTOR_RUN = /(?:[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF]){2,}/g;

function findVariationSelectorRuns(text: string): Finding[] {
  const findings: Finding[] = [];
  for (const m of text.matchAll(VARIATION_SELECTOR_RUN)) {
    findings.push(
      finding(
        'unicode.variation-selector-run',
        'high',
        'A run of invisible variation selectors, which can carry hidden bytes.',
        text,
        m.index,
        m.index + m[0].length,
      ),
    );
  }
  return findings;
}

const ANY_SUSPECT = /[\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF\uFE00-\uFE0F\uDB40]/;

export function findDeceptiveUnicode(text: string): Finding[] {
  if (knownAscii(text) || !ANY_SUSPECT.test(text)) return [];
  return [...findBidiControls(text), ...findTagCharacters(text), ...findZeroWidth(text), ...findVariationSelectorRuns(text)];
}
