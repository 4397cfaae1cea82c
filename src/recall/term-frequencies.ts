import type Database from 'better-sqlite3';
import { recallExpression } from './fts-query.js';

/** Below this many matching rows a term's document frequency is counted exactly, on every query. */
export const EXACT_COUNT_MAX = 2_000;
/** How long an estimated frequency is reused: a frequent word's share of the rows drifts slowly. */
const ESTIMATE_TTL_MS = 60_000;
const ESTIMATES_KEPT = 20_000;

/**
 * The document frequency of query terms in one FTS5 table, for gate_bm25 (the loadable
 * extension native/bm25-known-df.c), which takes them instead of walking every term's whole
 * doclist per query as FTS5's bm25() does.
 *
 * A term in fewer than EXACT_COUNT_MAX rows is counted exactly (the walk is short). A more
 * frequent one is estimated from how far back in rowid order its newest EXACT_COUNT_MAX
 * matches reach, rows being spread evenly enough over rowids (they are assigned in ingest
 * order) that the share of the rowid range read is the share of the rows read; the IDF takes
 * its logarithm, so a few per cent of error moves a score by less than that. Estimates are
 * kept for a minute.
 */
export class TermFrequencies {
  private readonly newest: Database.Statement;
  private readonly span: Database.Statement;
  private readonly estimates = new Map<string, { df: number; until: number }>();

  constructor(db: Database.Database, table: 'recall_fts' | 'held_fts') {
    // held_fts lives in held-index.db, attached as `held` (workers/held-writer/held-index-file.ts).
    const schema = table === 'held_fts' ? 'held' : 'main';
    this.newest = db.prepare(
      `SELECT count(*) AS n, min(rowid) AS low FROM
         (SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT ${EXACT_COUNT_MAX})`,
    );
    // The content table's rowid bounds: two b-tree seeks, where the FTS5 table would scan. Each in
    // its own subquery: SQLite seeks for a lone min() or max(), and scans for both in one SELECT.
    this.span = db.prepare(
      `SELECT (SELECT min(id) FROM ${schema}.${table}_content) AS low, (SELECT max(id) FROM ${schema}.${table}_content) AS high`,
    );
  }

  /** How many rows the table holds, estimated by its rowid span (rows are deleted rarely; an IDF takes its logarithm). */
  rows(): number {
    const span = this.span.get() as { low: number | null; high: number | null };
    return span.low === null || span.high === null ? 0 : span.high - span.low + 1;
  }

  /** One frequency per term, in order: the rows whose body holds it. */
  of(terms: readonly string[]): number[] {
    const now = performance.now();
    return terms.map((term) => {
      const kept = this.estimates.get(term);
      if (kept !== undefined && kept.until > now) return kept.df;
      const { n, low } = this.newest.get(recallExpression([term], 'AND')) as { n: number; low: number | null };
      if (n < EXACT_COUNT_MAX || low === null) return n;
      const span = this.span.get() as { low: number; high: number };
      const df = Math.round((n * (span.high - span.low + 1)) / (span.high - low + 1));
      if (this.estimates.size >= ESTIMATES_KEPT) this.estimates.delete(this.estimates.keys().next().value!);
      this.estimates.set(term, { df, until: now + ESTIMATE_TTL_MS });
      return df;
    });
  }
}
