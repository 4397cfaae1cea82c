import { STOPWORDS } from '../../workers/embed/stopwords.js';

const WORD = /[\p{L}\p{N}_]+/gu;
const MAX_TERMS = 16;

/**
 * The distinct words of a query, lower-cased, at most 16: the terms FTS5 is asked for.
 * Function words ("what", "did", "the") are left out, as the local embedding leaves them
 * out: an agent's question is mostly such words, and matching them ranks every row that
 * says "did" beside the one about the subject (on LoCoMo's dev half, dropping them took
 * lexical recall@10 from 0.615 to 0.643, stems kept: docs/recall.md). A query of nothing but function
 * words keeps them all, so it still finds the rows that say them.
 */
export function queryTerms(query: string): string[] {
  const words = [...new Set((query.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 0))];
  const content = words.filter((w) => !STOPWORDS.has(w));
  return (content.length > 0 ? content : words).slice(0, MAX_TERMS);
}

/** Each term quoted, so no query text is ever read as FTS5 syntax (NEAR, *, column filters). */
export function ftsExpression(terms: readonly string[], join: 'AND' | 'OR'): string {
  return terms.map(quoted).join(` ${join} `);
}

/**
 * The recall indexes' query: each term quoted and held to the body column, joined by AND or
 * OR; with a work area, its tokens (one per space searched, projections/area-tokens.ts)
 * ANDed last, so the phrases are the terms in order and then the area tokens.
 */
export function recallExpression(terms: readonly string[], join: 'AND' | 'OR', areaTokens: readonly string[] = []): string {
  const words = terms.map((t) => `body:${quoted(t)}`).join(` ${join} `);
  if (areaTokens.length === 0) return words;
  return `(${words}) AND (${areaExpression(areaTokens)})`;
}

/** The rows carrying any of these work-area tokens. */
export function areaExpression(areaTokens: readonly string[]): string {
  return areaTokens.map((t) => `areas:${quoted(t)}`).join(' OR ');
}

const quoted = (t: string) => `"${t.replaceAll('"', '""')}"`;
