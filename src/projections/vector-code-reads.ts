import type Database from 'better-sqlite3';

/**
 * Which rows the vector index holds a code for. The index keeps one code row per embedded
 * row (an empty vector included); VectorRecall offers no per-row read of that, so this is
 * the one read outside the index of its table. The index makes that table after the store
 * is built (src/recall/vector-index.ts), so the statement is prepared at its first use, once.
 */
export class VectorCodeReads {
  private embedded: Database.Statement | undefined;

  constructor(private readonly db: Database.Database) {}

  /** Of these rowids, those with a stored vector. */
  embeddedAmong(rowids: readonly number[]): number[] {
    this.embedded ??= this.db.prepare('SELECT rowid FROM main.vector_codes WHERE rowid IN (SELECT value FROM json_each(?))').pluck();
    return this.embedded.all(JSON.stringify(rowids)) as number[];
  }
}
