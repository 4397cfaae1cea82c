import { createHash } from 'node:crypto';

/**
 * The token that stands, in the recall indexes' `areas` column, for one work area of one
 * space: `w` and 24 hex characters of sha256(space NUL area), letters and digits only so
 * FTS5's tokenizer keeps it whole. A row carries the token of its work area and of each
 * area above it, so "this area and everything below" is one phrase whose doclist is
 * exactly those rows: FTS5 intersects it with the query's words instead of reading every
 * matching row's stored columns to test its area (which, for a small area of a large
 * space, read nearly every match of a common word).
 */
export function areaToken(space: string, area: string): string {
  return `w${createHash('sha256').update(`${space}\0${area}`).digest('hex').slice(0, 24)}`;
}

/** The `areas` column of a row: its area and every area above it, or nothing for a row with no area. */
export function areaTokens(space: string, workarea: string | null): string {
  if (workarea === null) return '';
  const segments = workarea.split('/');
  return segments.map((_, i) => areaToken(space, segments.slice(0, i + 1).join('/'))).join(' ');
}
