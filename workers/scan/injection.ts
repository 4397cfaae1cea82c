/**
 * Prompt-injection findings: phrases and hidden markup, matched on the folded copy of the
 * text and judged in the original (quoted or discussed mentions rank lower, see
 * mention-context.ts).
 */
import { enclosedSpans } from './enclosed-spans.js';
import type { Finding, Severity } from './finding.js';
import { foldForMatching } from './fold-for-matching.js';
import { findHiddenText } from './hidden-markup.js';
import { PHRASE_RULES, PROMPT_LIKE, SYSTEM_CLOSE, SYSTEM_OPEN, SYSTEM_TAG_MAX, type PhraseRule } from './injection-phrases.js';
import { maskExcerpt } from './mask.js';
import { cueGate, cueList, cueStream, derivedStream, knownAscii, LiteralTrie } from './literal-cues.js';
import { mentionContext } from './mention-context.js';

const NON_ASCII = /[^\x00-\x7f]/;
const ANY_SCRIPT_RULES = PHRASE_RULES.filter((rule) => rule.anyScript === true);

const CUES = [...new Set(PHRASE_RULES.flatMap((rule) => rule.cues ?? []))].sort((a, b) => b.length - a.length);
/**
 * Every rule's cues found in one walk of a trie, read as one alternation of them all
 * (longest first) would read them: a cue found consumes its text, so it also counts the
 * shorter cues it contains ("overridden" holds "overrid"), and a cue that starts inside it
 * is not found. Rules were written and measured against that reading.
 */
const CUE_TRIE = new LiteralTrie(CUES);
/** The same cues found in the scan's one walk of the scanned text (literal-cues.ts), not a walk of their own. */
const SCANNED_CUES = cueList(CUES);
const CONTAINED = CUES.map((cue) => CUES.filter((other) => cue.includes(other)));

function cuesIn(units: Uint8Array, length: number): Set<string> {
  const found = new Set<string>();
  CUE_TRIE.leftmostLongest(units, length, (id) => {
    for (const cue of CONTAINED[id]!) found.add(cue);
  });
  return found;
}

function cuesInScanned(text: string): Set<string> {
  const found = new Set<string>();
  SCANNED_CUES.leftmostLongest(text, (id) => {
    for (const cue of CONTAINED[id]!) found.add(cue);
  });
  return found;
}

interface Hit {
  kind: string;
  severity: Severity;
  detail: string;
  start: number;
  end: number;
}

// A letter beside a digit or symbol standing for one, inside a word.
const LEET_CUE = /[a-z][013457@$!]|[013457@$!][a-z]/i;
/** The letter each digit or symbol stands for, by char code (0 for none). */
const LEET = new Uint16Array(128);
for (const [from, to] of Object.entries({ '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i' })) LEET[from.charCodeAt(0)] = to.charCodeAt(0);

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** A unit of a word as leetspeak spells it: an ASCII letter or digit, @, $ or !. */
const isLeetWordUnit = (c: number) => isAsciiLetter(c) || (c >= 48 && c <= 57) || c === 64 || c === 36 || c === 33;

/**
 * The text with the digits and symbols of words that also hold letters read as letters
 * ("pr3v10us" as "previous"); numbers and words without them stay. An identifier such as
 * sha256 changes too, harmlessly: only the phrase rules read this copy. One pass over the
 * units, copying only the words that change: a regex with a callback a word made a long
 * text of such words (`word1234 word5678 …`) cost a second per 4 MB.
 */
function unleet(text: string): string {
  // Written into one copy of the text's UTF-16 units, made at the first word that changes:
  // building the result by concatenation made a long text's worth of garbage.
  let units: Uint16Array | null = null;
  let i = 0;
  while (i < text.length) {
    if (!isLeetWordUnit(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let letters = 0;
    let leet = false;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (!isLeetWordUnit(c)) break;
      if (isAsciiLetter(c)) letters++;
      else if (LEET[c] !== 0) leet = true;
    }
    if (letters < 2 || !leet) continue;
    if (units === null) {
      const bytes = Buffer.from(text, 'utf16le');
      units = new Uint16Array(bytes.buffer, bytes.byteOffset, text.length);
    }
    for (let k = start; k < i; k++) {
      const c = units[k]!;
      if (c < 128 && LEET[c] !== 0) units[k] = LEET[c]!;
    }
  }
  return units === null ? text : Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le');
}

export const RESPELL_CUE = new RegExp(`${LEET_CUE.source}|[a-z]_[a-z]|\\\\n`, 'i');

// RESPELL_CUE read off an ASCII text's cue stream (literal-cues.ts), where letters are lower
// case and whitespace, which no pair holds, is one space: one pass over bytes, where the
// pattern tried four alternatives at every unit.
const LETTER = 1;
const LEET_UNIT = 2;
const RESPELL_UNIT = new Uint8Array(128);
for (let c = 97; c <= 122; c++) RESPELL_UNIT[c] = LETTER;
for (const ch of '013457@$!') RESPELL_UNIT[ch.charCodeAt(0)] = LEET_UNIT;

function mayBeRespelled(units: Uint8Array, length: number): boolean {
  for (let i = 1; i < length; i++) {
    const a = RESPELL_UNIT[units[i - 1]!]!;
    const b = RESPELL_UNIT[units[i]!]!;
    if ((a | b) === (LETTER | LEET_UNIT)) return true;
    if (units[i] === 110 && units[i - 1] === 92) return true;
    if (units[i] === 95 && a === LETTER && i + 1 < length && RESPELL_UNIT[units[i + 1]!] === LETTER) return true;
  }
  return false;
}

function respell(text: string): string {
  return unleet(text)
    .replace(/(?<=[a-z])_(?=[a-z])/gi, ' ')
    .replace(/\\n/g, '\n ');
}

/** Whether `found` holds one of `cues` (a loop: a closure a rule was most of a scan's garbage). */
function holdsAny(found: ReadonlySet<string>, cues: readonly string[]): boolean {
  for (const cue of cues) if (found.has(cue)) return true;
  return false;
}

/**
 * `asIs` says that `folded` is the scanned text itself and all ASCII: its cue stream is the
 * one every detector reads, and lower-casing it leaves nothing outside ASCII.
 */
function phraseHits(folded: string, rules: readonly PhraseRule[] = PHRASE_RULES, asIs = false): Hit[] {
  const hits: Hit[] = [];
  let nonAscii = false;
  let cues: Set<string>;
  if (asIs) {
    cues = cuesInScanned(folded);
  } else {
    // Whitespace is made single spaces so that a cue of two words meets them across a line break.
    const lower = folded.toLowerCase().replace(/\s+/g, ' ');
    nonAscii = NON_ASCII.test(lower);
    const stream = derivedStream(lower);
    cues = cuesIn(stream.units, stream.length);
  }
  for (const rule of rules) {
    if (rule.cues !== undefined && !(nonAscii && rule.anyScript === true) && !holdsAny(cues, rule.cues)) continue;
    for (const m of folded.matchAll(rule.pattern)) {
      if (m[0].length === 0) continue;
      hits.push({ kind: rule.kind, severity: rule.severity, detail: rule.detail, start: m.index, end: m.index + m[0].length });
    }
  }
  return hits;
}

/**
 * A word every match of SYSTEM_OPEN holds, `<\s*system` as the cue stream spells it (a run
 * of whitespace is one space): asked only where the folded text is the scanned text itself.
 */
const SYSTEM_TAG_GATE = cueGate(['<system', '< system'], [SYSTEM_OPEN]);

export function findInjections(text: string): Finding[] {
  const folded = foldForMatching(text);
  const stream = cueStream(text);
  const asIs = folded.text === text && stream.ascii;
  const hits: Hit[] = phraseHits(folded.text, PHRASE_RULES, asIs);
  // Respelled text is read again: leetspeak ("1gn0re @ll pr3v10us") with its digits and
  // symbols as the letters they stand for, snake_case words as words, and a written "\n" as
  // the line break it stands for. One unit for one, so offsets stay those of the folded text.
  if (asIs ? mayBeRespelled(stream.units, stream.length) : RESPELL_CUE.test(folded.text)) {
    // One at a time, here and below: spread, 100,000 hits or more would overflow the stack.
    for (const hit of phraseHits(respell(folded.text))) hits.push({ ...hit, detail: `${hit.detail} (read with its disguise undone: digits or symbols for letters, underscores for spaces, or a written \\n)` });
  }
  // A tag's text runs to its closing tag, or to the text's end.
  const tags = asIs && !SYSTEM_TAG_GATE.mayOccurIn(text) ? [] : enclosedSpans(folded.text, SYSTEM_OPEN, SYSTEM_CLOSE, { max: SYSTEM_TAG_MAX, endCloses: true });
  for (const tag of tags) {
    if (!PROMPT_LIKE.test(folded.text.slice(tag.inner, tag.innerEnd))) continue;
    hits.push({
      kind: 'injection.role-impersonation',
      severity: 'high',
      detail: 'A fake system tag wrapping text that reads as a system prompt.',
      start: tag.start,
      end: tag.inner,
    });
  }
  for (const hit of findHiddenText(folded.text)) hits.push(hit);
  // Folding turns Cyrillic and Greek look-alikes into Latin letters, which is what unmasks
  // a disguised English phrase and garbles a Russian one: the rules written in other
  // scripts also read the text as written. Their offsets are the original's already.
  const asWritten = !knownAscii(text) && NON_ASCII.test(text) ? phraseHits(text, ANY_SCRIPT_RULES) : [];
  if (hits.length === 0 && asWritten.length === 0) return [];

  const context = mentionContext(text);
  const placed = [
    ...hits.map((hit) => ({ ...hit, start: folded.startOf(hit.start), end: folded.endOf(hit.end) })),
    ...asWritten,
  ];
  return placed.map(({ start, end, ...hit }) => {
    return {
      kind: hit.kind,
      severity: context.severity(hit.severity, start, end),
      detail: hit.detail,
      start,
      end,
      excerpt: maskExcerpt(text.slice(start, end)),
    };
  });
}
