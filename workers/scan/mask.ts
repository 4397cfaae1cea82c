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
 * keep at most half, so no span, however short, is ever shown whole.
 */
export function maskExcerpt(span: string): string {
  const codePoints = Array.from(span);
  const keep = Math.min(EXCERPT_KEEP, Math.floor(codePoints.length / 2));
  const head = codePoints.slice(0, keep).map(visible).join('');
  return `${head}…(${codePoints.length - keep} more)`;
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
