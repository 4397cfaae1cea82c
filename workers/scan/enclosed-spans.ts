/**
 * Elements found by an opening and the next closing within a bound (`<script>…</script>`,
 * `<system>…</system>`), in time linear in the text. A lazy `open([\s\S]{0,max}?)close` read
 * up to `max` characters again from each opening of a run of them; here the next closing is
 * found once and kept while later openings come before it. Otherwise it reads as that
 * pattern's global matches did: an opening inside an element already found is passed, and
 * an opening with no closing within `max` characters is no element.
 */

export interface EnclosedSpan {
  /** The opening's match (its groups included). */
  opening: RegExpMatchArray;
  start: number;
  /** Where the opening ends and the enclosed text starts. */
  inner: number;
  /** Where the enclosed text ends (the closing's start, or the text's end). */
  innerEnd: number;
  end: number;
}

export interface EnclosedOptions {
  /** Characters the enclosed text may run to its closing. */
  max: number;
  /** The text's end closes an element too (a tag left open at the end of a note). */
  endCloses?: boolean;
  /** An opening that is an element by itself, no closing looked for (a script tag with a src). */
  standsAlone?: (opening: RegExpMatchArray) => boolean;
}

/** `open` and `close` are global patterns; `close`'s lastIndex is set here. */
export function enclosedSpans(text: string, open: RegExp, close: RegExp, options: EnclosedOptions): EnclosedSpan[] {
  const out: EnclosedSpan[] = [];
  const noClosing = options.endCloses === true ? { start: text.length, end: text.length } : { start: Infinity, end: Infinity };
  let closing: { start: number; end: number } | null = null;
  let after = 0;
  for (const opening of text.matchAll(open)) {
    if (opening.index < after) continue;
    const inner = opening.index + opening[0].length;
    if (options.standsAlone?.(opening) === true) {
      out.push({ opening, start: opening.index, inner, innerEnd: inner, end: inner });
      continue;
    }
    if (closing === null || closing.start < inner) {
      close.lastIndex = inner;
      const found = close.exec(text);
      closing = found === null ? noClosing : { start: found.index, end: found.index + found[0].length };
    }
    if (closing.start - inner > options.max) continue;
    out.push({ opening, start: opening.index, inner, innerEnd: closing.start, end: closing.end });
    after = closing.end;
  }
  return out;
}
