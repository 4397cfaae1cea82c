import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { DetectionReads } from './detection-reads.js';
import { defineView } from './define-view.js';

/**
 * The injection detector's verdicts (internal `detection` events, src/review/detection.ts):
 * per row and detector, the newest verdict on the bytes it read. A row of an auto or model
 * space leaves quarantine only with one from the detector configured now.
 */
export function detectionTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.detections (
      artifact_id TEXT NOT NULL,
      detector TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      verdict TEXT NOT NULL,
      label TEXT,
      score REAL,
      threshold REAL NOT NULL,
      seq INTEGER NOT NULL,
      ts INTEGER NOT NULL,
      PRIMARY KEY (artifact_id, detector)
    ) WITHOUT ROWID;
  `;
}

export const detectionDigestQueries = (schema: string) => ({
  detections: `SELECT * FROM ${schema}.detections ORDER BY artifact_id, detector`,
});

export class DetectionReducer {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    this.s = {
      put: db.prepare(`INSERT INTO ${schema}.detections (artifact_id, detector, content_hash, verdict, label, score, threshold, seq, ts)
        VALUES (@artifact_id, @detector, @content_hash, @verdict, @label, @score, @threshold, @seq, @ts)
        ON CONFLICT(artifact_id, detector) DO UPDATE SET content_hash = excluded.content_hash, verdict = excluded.verdict,
          label = excluded.label, score = excluded.score, threshold = excluded.threshold, seq = excluded.seq, ts = excluded.ts`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'detections'>>): void {
    this.s.put!.run({
      artifact_id: event.data.artifact_id,
      detector: event.data.detector,
      content_hash: event.data.content_hash,
      verdict: event.data.verdict,
      label: typeof event.data.label === 'string' ? event.data.label : null,
      score: typeof event.data.score === 'number' ? event.data.score : null,
      threshold: event.data.threshold,
      seq: event.seq,
      ts: event.ts,
    });
  }
}

/** The detections view: the injection detector's verdicts. */
export const detectionView = defineView({
  name: 'detections',
  tables: detectionTables,
  digest: detectionDigestQueries,
  reducer: (db, schema) => new DetectionReducer(db, schema),
  reads: {
    /** The injection detector's verdicts, and the rows owed one. */
    detections: ({ db }) => new DetectionReads(db),
  },
});
