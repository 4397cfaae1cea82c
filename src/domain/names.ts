/**
 * The space-name grammar (left open by the protocol; chosen here and documented in the README):
 * 1 to 64 characters of ASCII letters, digits, '.', '_' and '-', starting with a letter or
 * digit, never '.' or '..' and never ending in '.'. Work-area segments and producer names use
 * the same grammar (docs/protocol.md#spaces-work-areas-and-other-resources).
 */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isNameSegment(s: string): boolean {
  return SEGMENT.test(s) && !s.endsWith('.') && !s.includes('..');
}

export const isSpaceName = isNameSegment;

export const WORKAREA_MAX_SEGMENTS = 8;
export const WORKAREA_MAX_CHARS = 200;

/** A work area is 1 to 8 segments joined by '/', at most 200 characters. */
export function workareaProblem(path: string): string | null {
  if (path.length === 0) return 'a work area needs at least one segment';
  if (path.length > WORKAREA_MAX_CHARS) return `a work area is at most ${WORKAREA_MAX_CHARS} characters`;
  const segments = path.split('/');
  if (segments.length > WORKAREA_MAX_SEGMENTS) return `a work area has at most ${WORKAREA_MAX_SEGMENTS} segments`;
  const bad = segments.find((s) => !isNameSegment(s));
  if (bad !== undefined) return `work area segment ${JSON.stringify(bad)} is not in the name grammar`;
  return null;
}
