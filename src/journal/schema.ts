import type Database from 'better-sqlite3';

/**
 * The journal and the content store are the gate's only truth; every other table is a
 * projection of them. Triggers make the journal append-only at the SQLite level, so a
 * bug elsewhere cannot rewrite history silently.
 */
/**
 * The events of a second authority (an org gate's outcomes and its pinned key): few, read on
 * every outcome pull. A query names this exact term so SQLite uses the partial index on it.
 */
export const AUTHORITY_EVENTS = "type IN ('countersign', 'refuse', 'org-pinned')";

/**
 * The events journal_artifact_later holds: an artifact's, but for its ingest and the scan
 * (or record) that took it out of L0_RAW. Those two are an ingest's, and each would put its
 * row's hash-keyed entry in a leaf of its own: one more page written to the WAL a claim
 * (~1.8 with the splits), ~15% of an ingest's pages; the artifacts view keeps their seqs
 * instead (ingest_seq, scan_seq), and a read of one artifact's events takes both
 * (projections/journal-reads.ts, artifactEventsSql). A query names these terms (given its
 * table's alias) so SQLite uses the partial index.
 */
export function laterArtifactEvent(alias = ''): string {
  const c = alias === '' ? '' : `${alias}.`;
  return `${c}artifact_id IS NOT NULL AND ${c}type != 'ingest' AND NOT (${c}type IN ('scan', 'record') AND json_extract(${c}body, '$.data.leaves') = 'L0_RAW')`;
}

export function createJournalSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS journal (
      seq INTEGER PRIMARY KEY,
      event_id TEXT NOT NULL,
      prev TEXT,
      ts INTEGER NOT NULL,
      type TEXT NOT NULL,
      by TEXT,
      artifact_id TEXT,
      space TEXT,
      workarea TEXT,
      body TEXT NOT NULL,
      sig TEXT NOT NULL
    );
    DROP INDEX IF EXISTS journal_artifact;
    CREATE INDEX IF NOT EXISTS journal_artifact_later ON journal(artifact_id) WHERE ${laterArtifactEvent()};
    CREATE INDEX IF NOT EXISTS journal_authority ON journal(type, artifact_id) WHERE ${AUTHORITY_EVENTS};
    CREATE TRIGGER IF NOT EXISTS journal_no_update BEFORE UPDATE ON journal
      BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
    CREATE TRIGGER IF NOT EXISTS journal_no_delete BEFORE DELETE ON journal
      BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
    -- A rowid table, not WITHOUT ROWID: a ~1 KB body overflows a WITHOUT ROWID page and
    -- wastes most of a second one (measured: 3.4 times the size at 10k claims).
    CREATE TABLE IF NOT EXISTS blobs (
      hash TEXT NOT NULL UNIQUE,
      bytes BLOB NOT NULL
    );
  `);
  const uniqueIdIndex = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal' AND name LIKE 'sqlite_autoindex_journal_%'`)
    .get();
  if (uniqueIdIndex === undefined) db.exec('CREATE INDEX IF NOT EXISTS journal_event_prefix ON journal(substr(event_id, 1, 8))');
}
