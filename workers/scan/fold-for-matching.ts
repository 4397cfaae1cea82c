/**
 * A copy of the text for phrase matching with the usual obfuscations undone: invisible
 * format characters dropped (so "ign\u200Bore" still reads "ignore"), full-width Latin and
 * Cyrillic/Greek look-alikes turned into plain Latin. Every unit of the copy remembers where
 * it came from, so a match maps back to offsets in the original.
 */
import { LATIN_LOOKALIKE } from './confusables.js';
import { knownAscii } from './literal-cues.js';

export interface FoldedText {
  text: string;
  /** Original start of a match that starts at folded offset `start`. */
  startOf(start: number): number;
  /** Original end (exclusive) of a match that ends at folded offset `end`. */
  endOf(end: number): number;
}

const DROPPED = /[\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/u;
const NEEDS_FOLDING = /[^\x00-\x7f]/;

const IDENTITY = (text: string): FoldedText => ({ text, startOf: (s) => s, endOf: (e) => e });

/**
 * What folding does to each UTF-16 unit read as a character of its own (a unit outside the
 * surrogates, or a lone surrogate): KEEP it, DROP it, or write FOLDED_TO's unit for it.
 * Filled in as met, so that a text costs a table read a unit: a loop over its characters
 * as strings, each tested by a pattern and written by concatenation, cost a tenth of a
 * second a MiB of text outside ASCII (docs/scanner.md, "Bounded scan time").
 */
const UNASKED = 0;
const KEEP = 1;
const DROP = 2;
const FOLD = 3;
const UNIT_FOLD = new Uint8Array(0x10000);
const FOLDED_TO = new Uint16Array(0x10000);

function unitFold(c: number): number {
  let how = UNIT_FOLD[c]!;
  if (how !== UNASKED) return how;
  const ch = String.fromCharCode(c);
  const lookalike = LATIN_LOOKALIKE.get(ch);
  if (DROPPED.test(ch)) how = DROP;
  // Full-width ASCII (U+FF01-FF5E) sits at a fixed distance from ASCII.
  else if (c >= 0xff01 && c <= 0xff5e) {
    how = FOLD;
    FOLDED_TO[c] = c - 0xfee0;
  } else if (lookalike !== undefined && lookalike.length === 1) {
    how = FOLD;
    FOLDED_TO[c] = lookalike.charCodeAt(0);
  } else if (lookalike !== undefined) {
    throw new Error(`a look-alike folds to one unit, not ${JSON.stringify(lookalike)}`);
  } else how = KEEP;
  UNIT_FOLD[c] = how;
  return how;
}

/** Whether a character outside the BMP is dropped (tags, variation selectors, other format characters), remembered as met. */
const ASTRAL_DROPPED = new Map<number, boolean>();
function astralDropped(cp: number): boolean {
  let dropped = ASTRAL_DROPPED.get(cp);
  if (dropped === undefined) {
    dropped = DROPPED.test(String.fromCodePoint(cp));
    if (ASTRAL_DROPPED.size < 4096) ASTRAL_DROPPED.set(cp, dropped);
  }
  return dropped;
}

export function foldForMatching(text: string): FoldedText {
  if (knownAscii(text) || !NEEDS_FOLDING.test(text)) return IDENTITY(text);
  const length = text.length;
  // Read with charCodeAt, not text-units.ts: the classifier folds each window it holds, and
  // its windows' slices would replace the scanned text's units, which the next window reads.
  const out = new Uint16Array(length);
  // Where each unit of the copy came from, and the text's length after the last.
  const origin = new Int32Array(length + 1);
  let n = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        // A character outside the BMP: dropped or kept whole, never folded.
        if (!astralDropped(((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000)) {
          out[n] = c;
          origin[n++] = i;
          out[n] = low;
          origin[n++] = i + 1;
        }
        i++;
        continue;
      }
    }
    if (c < 128) {
      out[n] = c;
      origin[n++] = i;
      continue;
    }
    const how = unitFold(c);
    if (how === DROP) continue;
    out[n] = how === FOLD ? FOLDED_TO[c]! : c;
    origin[n++] = i;
  }
  origin[n] = length;
  const folded = Buffer.from(out.buffer, 0, n * 2).toString('utf16le');
  return {
    text: folded,
    startOf: (s) => origin[s]!,
    // The unit before the end came from some original character; end just past all of it.
    endOf: (e) => {
      if (e === 0) return 0;
      const last = origin[e - 1]!;
      const cp = text.codePointAt(last)!;
      return last + (cp > 0xffff ? 2 : 1);
    },
  };
}
