import type Database from 'better-sqlite3';

/** A row of the artifacts view as verbs read it. */
export interface ArtifactRow {
  rowid: number;
  artifact_id: string;
  state: string;
  space: string;
  workarea: string | null;
  producer_name: string | null;
  producer_kind: string | null;
  kind: string | null;
  content_type: string;
  trust_class: string;
  writer_identity: string;
  writer_kind: string;
  source_uri: string;
  content_hash: string;
  size_bytes: number;
  derives_from: string;
  addressed_to: string | null;
  findings_count: number;
  masked_hash: string | null;
  ts: number;
  ingest_seq: number;
  state_ts: number;
  state_seq: number;
  promoted_seq: number | null;
  promoted_ts: number | null;
  provisional: number;
  reason: string | null;
}

export const producerOf = (row: ArtifactRow) =>
  row.producer_name === null ? null : { name: row.producer_name, kind: row.producer_kind };

export const derivesFromOf = (row: ArtifactRow): string[] => JSON.parse(row.derives_from) as string[];

/** Prepared reads of the live artifacts view and the content store. */
export class ArtifactReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      byId: p('SELECT * FROM artifacts WHERE artifact_id = ?'),
      byRowid: p('SELECT * FROM artifacts WHERE rowid = ?'),
      promotedCopy: p(
        `SELECT * FROM artifacts WHERE content_hash = ? AND space = ? AND state IN ('ACTIVE', 'SUPERSEDED') ORDER BY rowid LIMIT 1`,
      ),
      blob: p('SELECT bytes FROM blobs WHERE hash = ?'),
      stateCount: p('SELECT n FROM state_counts WHERE state = ?'),
      eventsOf: p('SELECT * FROM journal WHERE artifact_id = ? ORDER BY seq'),
      questionsInArea: p(
        `SELECT count(*) AS n FROM artifacts WHERE writer_identity = ? AND space = ? AND workarea = ? AND kind = 'question'`,
      ),
    };
  }

  byId(id: string): ArtifactRow | undefined {
    return this.s.byId!.get(id) as ArtifactRow | undefined;
  }

  byRowid(rowid: number): ArtifactRow | undefined {
    return this.s.byRowid!.get(rowid) as ArtifactRow | undefined;
  }

  promotedCopy(contentHash: string, space: string): ArtifactRow | undefined {
    return this.s.promotedCopy!.get(contentHash, space) as ArtifactRow | undefined;
  }

  body(contentHash: string): string | null {
    const row = this.s.blob!.get(contentHash) as { bytes: Buffer } | undefined;
    return row ? row.bytes.toString('utf8') : null;
  }

  countInState(state: string): number {
    return (this.s.stateCount!.get(state) as { n: number } | undefined)?.n ?? 0;
  }

  questionsBy(writer: string, space: string, workarea: string): number {
    return (this.s.questionsInArea!.get(writer, space, workarea) as { n: number }).n;
  }
}
