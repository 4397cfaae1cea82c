/**
 * Masking: findings travel into the journal and to reviewers, and the masked body is the
 * only form of a claim a grader prompt may see, so neither may carry what was matched.
 */
import { hiddenToken } from '../../src/domain/hidden-characters.js';
import { isMaskedKind, type Finding } from './finding.js';

const MASK_CHAR = '█';
const EXCERPT_KEEP = 4;

// Invisible and control characters are spelled as code points, in the token the console and
// the commands draw hidden characters with: an excerpt that carried a raw right-to-left
// override would garble whatever log or page displays it.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/u;

function visible(codePoint: string): string {
  if (!INVISIBLE.test(codePoint)) return codePoint;
  return hiddenToken(`U+${codePoint.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
}

/**
 * At most the first four code points of a span, then how many more there were. Short spans
 * keep at most half, so no span, however short, is ever shown whole. The span is walked
 * once without copying it: an attack repeated through a 1 MiB text gives tens of thousands of
 * findings, and one grown over the whole text, and an array of every code point for each
 * spent more of the scan than finding them (docs/scanner.md, "Bounded scan time").
 */
export function maskExcerpt(span: string): string {
  const codePoints = codePointCount(span);
  const keep = Math.min(EXCERPT_KEEP, Math.floor(codePoints / 2));
  let head = '';
  let taken = 0;
  for (const codePoint of span) {
    if (taken === keep) break;
    head += visible(codePoint);
    taken++;
  }
  return `${head}…(${codePoints - keep} more)`;
}

/** Code points as a string's iterator reads them: a surrogate pair is one, a lone surrogate one. */
function codePointCount(span: string): number {
  let count = span.length;
  for (let i = 1; i < span.length; i++) {
    const unit = span.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff) {
      const before = span.charCodeAt(i - 1);
      if (before >= 0xd800 && before <= 0xdbff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Replaces every span with '█' unit for unit, so offsets into the text stay valid. */
export function maskSpans(text: string, spans: ReadonlyArray<{ start: number; end: number }>): string {
  if (spans.length === 0) return text;
  const ordered = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const { start, end } of ordered) {
    const from = Math.max(start, cursor);
    if (end <= from) continue;
    out += text.slice(cursor, from) + MASK_CHAR.repeat(end - from);
    cursor = end;
  }
  return out + text.slice(cursor);
}

/** The text with the spans of the findings that are masked (isMaskedKind) replaced, or null when none is. */
export function maskedOrNull(text: string, findings: readonly Finding[]): string | null {
  const spans = findings.filter((f) => isMaskedKind(f.kind));
  return spans.length === 0 ? null : maskSpans(text, spans);
}
