const WORD = /[\p{L}\p{N}_]+/gu;
const MAX_TERMS = 16;

/** The distinct words of a query, lower-cased, at most 16: the terms FTS5 is asked for. */
export function queryTerms(query: string): string[] {
  const words = (query.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 0);
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/** Each term quoted, so no query text is ever read as FTS5 syntax (NEAR, *, column filters). */
export function ftsExpression(terms: readonly string[], join: 'AND' | 'OR'): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(` ${join} `);
}
