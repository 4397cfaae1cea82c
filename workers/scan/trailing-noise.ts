/**
 * Where a text's content ends: before trailing whitespace and bracketed numbers ("[3]",
 * "(12)"), the citation marks and padding a copied text carries. They say nothing, so a
 * verdict must not change with them; the scanner reads the text up to this point (offsets
 * stay those of the whole text, since the rest only follows it). Walked backwards, one pass:
 * a pattern anchored at the end retried from every space of a long run of them.
 */
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0x3000 || c === 0xfeff;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const OPENS: Record<number, number> = { 93: 91, 41: 40 };

/** The length of `text` without its trailing whitespace and bracketed numbers. */
export function contentLength(text: string): number {
  let end = text.length;
  for (;;) {
    while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
    const open = OPENS[text.charCodeAt(end - 1)];
    if (open === undefined) return end;
    let i = end - 2;
    while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
    const digitsEnd = i;
    while (i >= 0 && isDigit(text.charCodeAt(i)) && digitsEnd - i < 6) i--;
    if (i === digitsEnd) return end;
    while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
    if (i < 0 || text.charCodeAt(i) !== open) return end;
    end = i;
  }
}
