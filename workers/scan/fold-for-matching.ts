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

export function foldForMatching(text: string): FoldedText {
  if (knownAscii(text) || !NEEDS_FOLDING.test(text)) return IDENTITY(text);
  let out = '';
  const origin: number[] = [];
  let i = 0;
  for (const ch of text) {
    const at = i;
    i += ch.length;
    if (DROPPED.test(ch)) continue;
    const code = ch.codePointAt(0)!;
    let folded = LATIN_LOOKALIKE.get(ch) ?? ch;
    // Full-width ASCII (U+FF01-FF5E) sits at a fixed distance from ASCII.
    if (code >= 0xff01 && code <= 0xff5e) folded = String.fromCharCode(code - 0xfee0);
    for (let k = 0; k < folded.length; k++) {
      out += folded[k];
      origin.push(at + Math.min(k, ch.length - 1));
    }
  }
  origin.push(text.length);
  return {
    text: out,
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
