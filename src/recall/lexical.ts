import type Database from 'better-sqlite3';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import { ftsExpression, queryTerms } from './fts-query.js';

export interface LexicalHit {
  row: ArtifactRow;
  /** bm25 negated, so larger is better. */
  score: number;
  rank: number;
}

export interface LexicalQuery {
  query: string;
  spaces: readonly string[];
  k: number;
  includeProvisional: boolean;
}

/**
 * Lexical recall over FTS5 with bm25. All terms must match first (cheap: the rarest
 * posting list bounds the work); only when that finds fewer than k rows does an any-term
 * query fill the rest, so common-word queries pay the OR cost only when AND falls short.
 */
export class LexicalRecall {
  constructor(private readonly db: Database.Database) {}

  promoted(q: LexicalQuery): LexicalHit[] {
    return this.search('recall_fts', q, "a.state = 'ACTIVE'", [], q.includeProvisional ? '' : ' AND a.provisional = 0');
  }

  /** The caller's own scanned, unflagged held rows (never L0 or L1B: only L1 rows are indexed there). */
  ownHeld(q: LexicalQuery, writer: string): LexicalHit[] {
    return this.search('held_fts', q, "a.state = 'L1_SCANNED' AND a.writer_identity = ?", [writer], '');
  }

  private search(table: string, q: LexicalQuery, filter: string, filterArgs: unknown[], extra: string): LexicalHit[] {
    const terms = queryTerms(q.query);
    if (terms.length === 0 || q.spaces.length === 0 || q.k <= 0) return [];
    const sql = `SELECT a.*, bm25(${table}) AS bm FROM ${table} JOIN artifacts a ON a.rowid = ${table}.rowid
      WHERE ${table} MATCH ? AND ${filter} AND a.space IN (${q.spaces.map(() => '?').join(',')})${extra}
      ORDER BY bm LIMIT ?`;
    const statement = this.db.prepare(sql);
    const run = (expression: string, limit: number) =>
      statement.all(expression, ...filterArgs, ...q.spaces, limit) as Array<ArtifactRow & { bm: number }>;
    const rows = run(ftsExpression(terms, 'AND'), q.k);
    if (rows.length < q.k && terms.length > 1) {
      const seen = new Set(rows.map((r) => r.rowid));
      for (const r of run(ftsExpression(terms, 'OR'), q.k + rows.length)) {
        if (rows.length >= q.k) break;
        if (!seen.has(r.rowid)) rows.push(r);
      }
    }
    return rows.map(({ bm, ...row }, i) => ({ row: row as ArtifactRow, score: -bm, rank: i + 1 }));
  }
}
