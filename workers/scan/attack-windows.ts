/**
 * The stretches of a text the attack classifier reads one at a time. The model was trained
 * on prompts and paragraphs of at most a few hundred characters; an instruction buried in a
 * long benign document would be outvoted by the document if the whole were read as one.
 * So a long text is cut at line and sentence ends into windows of at most WINDOW_MAX
 * characters, and each window is judged alone; a finding then also says where it is.
 */

import { isSpaceUnit, knownAscii } from './literal-cues.js';
import { unitsOf } from './text-units.js';

export const WINDOW_MAX = 480;

export type Window = readonly [start: number, end: number];

// A sentence ends at . ! ? (and their full-width forms) followed by a space, or at a line end:
// the boundaries `/(?<=[.!?。！？])\s+|\n+/g` finds, found here in one pass over the units,
// where V8 tried the lookbehind at every unit.
const isSentenceEnd = (c: number): boolean => c === 46 || c === 33 || c === 63 || c === 0x3002 || c === 0xff01 || c === 0xff1f;

/** The sentences and lines of `text`, blank runs between them left out. */
export function segments(text: string): Window[] {
  const out: Window[] = [];
  eachSegment(text, (start, end) => out.push([start, end]));
  return out;
}

/**
 * Calls `visit` with the bounds of each of `text`'s sentences and lines, in order, allocating
 * nothing, and with what asciiEnoughToRead counts in it (its ASCII letters, runs of them, and
 * runs of at least CONTENT_LETTERS): the counts of a window are the sums of its segments',
 * since the blanks between segments hold no letters, so an ASCII text's windows are judged
 * without a second pass over their units.
 */
function eachSegment(text: string, visit: (start: number, end: number, letters: number, words: number, contentWords: number) => void): void {
  const units = unitsOf(text);
  const tally = new WordTally();
  let start = 0;
  let i = 0;
  let run = 0;
  while (i < text.length) {
    const c = units[i]!;
    if (isAsciiLetter(c)) {
      run++;
      i++;
      continue;
    }
    if (isAsciiDigit(c)) {
      i++;
      continue;
    }
    tally.endRun(run);
    run = 0;
    let end = i + 1;
    if (i > 0 && isSpaceUnit(c) && isSentenceEnd(units[i - 1]!)) {
      while (end < text.length && isSpaceUnit(units[end]!)) end++;
    } else if (c === 10) {
      while (end < text.length && units[end] === 10) end++;
    } else {
      i++;
      continue;
    }
    if (i > start) visit(start, i, tally.letters, tally.words, tally.contentWords);
    tally.reset();
    start = end;
    i = end;
  }
  tally.endRun(run);
  if (start < text.length) visit(start, text.length, tally.letters, tally.words, tally.contentWords);
}

/**
 * What asciiEnoughToRead counts in a stretch, one word at a time: its letters, its words and
 * its content words (words of at least CONTENT_LETTERS letters). A word is a run of letters
 * and digits holding a letter: digits inside a token do not make it several words, or an
 * identifier such as `EfuHy2yhTX5d` would pass for a sentence of three and be read as one.
 */
class WordTally {
  letters = 0;
  words = 0;
  contentWords = 0;

  /** Counts a run of `run` letters that just ended (nothing for 0). */
  endRun(run: number): void {
    if (run === 0) return;
    this.letters += run;
    this.words++;
    if (run >= CONTENT_LETTERS) this.contentWords++;
  }

  reset(): void {
    this.letters = 0;
    this.words = 0;
    this.contentWords = 0;
  }
}

const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const MIN_LETTERS = 10;
const MIN_WORDS = 3;
/** Words of at least CONTENT_LETTERS letters: "the and of it" has four words and nothing to say. */
const MIN_CONTENT_WORDS = 2;
const CONTENT_LETTERS = 4;

/**
 * Whether a window holds enough words for the model to read: greeting-sized text ("Go 🏴!",
 * "hello world") or function words alone ("the and of it") give it a handful of features
 * and its bias, no evidence. Scripts written without spaces count their letters instead.
 */
export function enoughToRead(text: string, start = 0, end = text.length): boolean {
  const ascii = asciiEnoughToRead(text, start, end);
  if (ascii !== null) return ascii;
  return enoughToReadAnyScript(text, start, end);
}

const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * enoughToRead for an ASCII stretch of `text`, counted in one pass with no copies (in ASCII
 * a \p{L} is a Latin letter and no unit is of an unspaced script); null where the stretch
 * holds a unit outside ASCII.
 */
function asciiEnoughToRead(text: string, start: number, end: number): boolean | null {
  const tally = new WordTally();
  let run = 0;
  const units = unitsOf(text);
  for (let i = start; i < end; i++) {
    const c = units[i]!;
    if (c >= 128) return null;
    if (isAsciiLetter(c)) {
      run++;
      continue;
    }
    if (isAsciiDigit(c)) continue;
    tally.endRun(run);
    run = 0;
  }
  tally.endRun(run);
  return enoughCounted(tally.letters, tally.words, tally.contentWords);
}

/** enoughToRead from an ASCII stretch's counts. */
function enoughCounted(letters: number, words: number, contentWords: number): boolean {
  if (words === 0 || letters < MIN_LETTERS) return false;
  return words >= MIN_WORDS && contentWords >= MIN_CONTENT_WORDS;
}

/**
 * What enoughToReadAnyScript asks of a character: whether it is a letter or number
 * (`[\p{L}\p{N}]`), a number (`\p{N}`), of an unspaced script (UNSPACED_SCRIPT). Per unit of
 * the BMP, filled in as met (KNOWN set once asked); outside it, remembered by code point.
 */
const LETTER_OR_NUMBER = 1;
const NUMBER = 2;
const UNSPACED = 4;
const KNOWN = 8;
const BMP_CLASS = new Uint8Array(0x10000);
const ASTRAL_CLASS = new Map<number, number>();
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const NUMBER_CHAR = /^\p{N}$/u;

function classOf(ch: string): number {
  return KNOWN | (WORD_CHAR.test(ch) ? LETTER_OR_NUMBER : 0) | (NUMBER_CHAR.test(ch) ? NUMBER : 0) | (UNSPACED_SCRIPT.test(ch) ? UNSPACED : 0);
}

/**
 * Whether text[start, end) holds enough words for the model, in any script: a word is a run
 * of letters and numbers holding a letter, and counts its units that are no number; scripts
 * written without spaces count their letters alone. Counted in one pass over the units,
 * where a slice was matched, mapped and filtered: on a MiB of text outside ASCII that took a
 * tenth of a second a scan (docs/scanner.md, "Bounded scan time").
 */
function enoughToReadAnyScript(text: string, start: number, end: number): boolean {
  let letters = 0;
  let words = 0;
  let contentWords = 0;
  let unspaced = false;
  let run = 0;
  let inRun = false;
  const endRun = (): void => {
    if (inRun && run > 0) {
      letters += run;
      words++;
      if (run >= CONTENT_LETTERS) contentWords++;
    }
    run = 0;
    inRun = false;
  };
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    let cls: number;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < end && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      // A pair split by the window's edge is two lone surrogates there: neither letter nor number.
      const cp = ((c - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000;
      cls = ASTRAL_CLASS.get(cp) ?? 0;
      if (cls === 0) {
        cls = classOf(String.fromCodePoint(cp));
        if (ASTRAL_CLASS.size < 4096) ASTRAL_CLASS.set(cp, cls);
      }
      width = 2;
      i++;
    } else {
      cls = BMP_CLASS[c]!;
      if (cls === 0) {
        cls = classOf(String.fromCharCode(c));
        BMP_CLASS[c] = cls;
      }
    }
    if ((cls & UNSPACED) !== 0) unspaced = true;
    if ((cls & LETTER_OR_NUMBER) === 0) {
      endRun();
      continue;
    }
    inRun = true;
    if ((cls & NUMBER) === 0) run += width;
  }
  endRun();
  if (letters < MIN_LETTERS) return false;
  if (unspaced) return true;
  return words >= MIN_WORDS && contentWords >= MIN_CONTENT_WORDS;
}

/** Windows covering every non-blank part of `text`, each at most WINDOW_MAX long, with enough words to read. */
export function attackWindows(text: string): Window[] {
  const bounds = windowBounds(text);
  const out: Window[] = [];
  for (let w = 0; w < bounds.length; w += 2) out.push([bounds[w]!, bounds[w + 1]!]);
  return out;
}

/**
 * attackWindows as one flat list of bounds (start, end, start, end, …): the classifier reads
 * every claim's windows, and a pair a segment and a pair a window, filtered into a third
 * list, were most of what a scan left for the collector.
 */
export function windowBounds(text: string): number[] {
  const bounds: number[] = [];
  const keep = (start: number, end: number): void => {
    if (enoughToRead(text, start, end)) bounds.push(start, end);
  };
  if (text.length <= WINDOW_MAX) {
    if (text.trim() !== '') keep(0, text.length);
    return bounds;
  }
  // The segments' counts stand for the windows' only where every unit is ASCII.
  const counted = knownAscii(text);
  let openStart = -1;
  let openEnd = -1;
  let letters = 0;
  let words = 0;
  let contentWords = 0;
  const close = (): void => {
    if (!counted) keep(openStart, openEnd);
    else if (enoughCounted(letters, words, contentWords)) bounds.push(openStart, openEnd);
  };
  eachSegment(text, (s, e, l, w, c) => {
    if (e - s > WINDOW_MAX) {
      if (openStart !== -1) close();
      openStart = -1;
      // An overlong segment (minified code, a base64 line) is read in overlapping halves.
      for (let at = s; at < e; at += WINDOW_MAX / 2) {
        keep(at, Math.min(e, at + WINDOW_MAX));
        if (at + WINDOW_MAX >= e) break;
      }
      return;
    }
    if (openStart !== -1 && e - openStart <= WINDOW_MAX) {
      openEnd = e;
      letters += l;
      words += w;
      contentWords += c;
    } else {
      if (openStart !== -1) close();
      openStart = s;
      openEnd = e;
      letters = l;
      words = w;
      contentWords = c;
    }
  });
  if (openStart !== -1) close();
  return bounds;
}
