import type Database from 'better-sqlite3';
import type { ArtifactReads, ArtifactRow } from '../projections/artifact-reads.js';
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
  includeSuperseded: boolean;
  /** Only rows of this work area and the areas below it. */
  workarea?: string;
}

/**
 * bm25 ranks the newest RANK_WINDOW matching rows. A query of rare words matches fewer and
 * is ranked exactly; one of common words would otherwise score every match (hundreds of
 * thousands at a million rows), so its cost is bounded here, measured in bench/recall.js.
 */
export const RANK_WINDOW = 5_000;

/** A work area and everything below it: the area itself, or a path starting with it and a slash. */
const AREA_FILTER = ' AND (workarea = ? OR substr(workarea, 1, ?) = ?)';

/**
 * Lexical recall over FTS5 with bm25. The filters recall needs (space, provisional, the
 * writer of a held row) are UNINDEXED columns of the FTS tables themselves, so a query is
 * one FTS5 scan ordered by bm25 and never a join that could drive from the other side.
 * All terms must match first (the rarest posting list bounds the work); only when that
 * finds fewer than k rows does an any-term query fill the rest.
 */
export class LexicalRecall {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly holdsAny: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly artifacts: ArtifactReads,
  ) {
    this.holdsAny = db.prepare(
      `SELECT 1 FROM artifacts WHERE writer_identity = ? AND state = 'L1_SCANNED' LIMIT 1`,
    );
  }

  promoted(q: LexicalQuery): LexicalHit[] {
    const extra = (q.includeProvisional ? '' : ' AND provisional = 0') + (q.includeSuperseded ? '' : ' AND superseded = 0');
    return this.search('recall_fts', q, extra, []);
  }

  /** The caller's own scanned, unflagged held rows (only L1 rows are indexed there, never L0 or L1B). */
  ownHeld(q: LexicalQuery, writer: string): LexicalHit[] {
    // Most callers hold nothing; the held index keeps deleted entries a while, so skip it then.
    if (this.holdsAny.get(writer) === undefined) return [];
    return this.search('held_fts', q, ' AND writer = ?', [writer]);
  }

  private statement(table: string, spaces: number, extra: string): Database.Statement {
    const key = `${table}|${spaces}|${extra}`;
    let s = this.statements.get(key);
    if (!s) {
      s = this.db.prepare(
        `SELECT rowid, bm FROM (
           SELECT rowid, bm25(${table}) AS bm FROM ${table}
           WHERE ${table} MATCH ? AND space IN (${Array(spaces).fill('?').join(',')})${extra}
           ORDER BY rowid DESC LIMIT ${RANK_WINDOW})
         ORDER BY bm LIMIT ?`,
      );
      this.statements.set(key, s);
    }
    return s;
  }

  private search(table: string, q: LexicalQuery, extra: string, extraArgs: unknown[]): LexicalHit[] {
    const terms = queryTerms(q.query);
    if (terms.length === 0 || q.spaces.length === 0 || q.k <= 0) return [];
    const area = q.workarea === undefined ? [] : [q.workarea, `${q.workarea}/`.length, `${q.workarea}/`];
    const statement = this.statement(table, q.spaces.length, extra + (area.length ? AREA_FILTER : ''));
    const run = (expression: string, limit: number) =>
      statement.all(expression, ...q.spaces, ...extraArgs, ...area, limit) as Array<{ rowid: number; bm: number }>;
    const found = run(ftsExpression(terms, 'AND'), q.k);
    if (found.length < q.k && terms.length > 1) {
      const seen = new Set(found.map((r) => r.rowid));
      for (const r of run(ftsExpression(terms, 'OR'), q.k + found.length)) {
        if (found.length >= q.k) break;
        if (!seen.has(r.rowid)) found.push(r);
      }
    }
    return found.map((r, i) => ({ row: this.artifacts.byRowid(r.rowid)!, score: -r.bm, rank: i + 1 }));
  }
}
