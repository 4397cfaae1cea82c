/**
 * Characters that do not show themselves: format and control characters (a text-direction
 * override, a zero-width space, a tag character), the Unicode line separators and the
 * Hangul fillers that render as blank. A person judging a text must see that they are there,
 * so the console and `gate sign` draw each as a visible token; tab and newline show
 * themselves and stay.
 */
const HIDDEN = /[\p{Cf}\p{Cc}\u2028\u2029\u115F\u1160\u3164\uFFA0]/gu;
const SHOWN = new Set(['\n', '\t']);

export interface HiddenCharacter {
  index: number;
  length: number;
  /** `U+202E`. */
  codePoint: string;
}

export function hiddenCharacters(text: string): HiddenCharacter[] {
  const found: HiddenCharacter[] = [];
  for (const m of text.matchAll(HIDDEN)) {
    if (SHOWN.has(m[0])) continue;
    found.push({ index: m.index, length: m[0].length, codePoint: `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` });
  }
  return found;
}

/** The token a hidden character is drawn as. */
export const hiddenToken = (codePoint: string): string => `⟨${codePoint}⟩`;

/** `text` with every hidden character replaced by its token (a terminal would act on them). */
export function withHiddenShown(text: string): string {
  let out = '';
  let at = 0;
  for (const h of hiddenCharacters(text)) {
    out += text.slice(at, h.index) + hiddenToken(h.codePoint);
    at = h.index + h.length;
  }
  return out + text.slice(at);
}
