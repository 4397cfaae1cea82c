/** A part of a text: UTF-16 offsets, end exclusive. */
export interface Segment {
  start: number;
  end: number;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const isBreak = (code: number) => code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;

/**
 * The parts a classifier is shown of a text: windows of at most `size` UTF-16 units, each
 * overlapping the one before by an eighth, so that an instruction written across a border
 * is read whole in one of them. A window ends at the last space or line break of its last
 * quarter when it has one (a word is not cut), and never between the halves of a surrogate
 * pair. Linear in the text: each window looks back over at most a quarter of itself. A blank
 * text has no part.
 */
export function segments(text: string, size: number): Segment[] {
  if (text.trim() === '') return [];
  if (text.length <= size) return [{ start: 0, end: text.length }];
  const overlap = Math.floor(size / 8);
  const out: Segment[] = [];
  let start = 0;
  for (;;) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const floor = start + Math.floor((size * 3) / 4);
      let cut = end;
      while (cut > floor && !isBreak(text.charCodeAt(cut - 1))) cut--;
      if (cut > floor) end = cut;
      if (isLowSurrogate(text.charCodeAt(end))) end--;
    }
    out.push({ start, end });
    if (end >= text.length) return out;
    let next = Math.max(end - overlap, start + 1);
    if (isLowSurrogate(text.charCodeAt(next))) next++;
    start = next;
  }
}
