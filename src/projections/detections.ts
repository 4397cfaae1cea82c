import type Database from 'better-sqlite3';
import type { JournalEvent } from '../forms/event.js';

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
  readonly handles = ['detection'];

  constructor(db: Database.Database, schema: string) {
    this.s = {
      put: db.prepare(`INSERT INTO ${schema}.detections (artifact_id, detector, content_hash, verdict, label, score, threshold, seq, ts)
        VALUES (@artifact_id, @detector, @content_hash, @verdict, @label, @score, @threshold, @seq, @ts)
        ON CONFLICT(artifact_id, detector) DO UPDATE SET content_hash = excluded.content_hash, verdict = excluded.verdict,
          label = excluded.label, score = excluded.score, threshold = excluded.threshold, seq = excluded.seq, ts = excluded.ts`),
    };
  }

  apply(event: JournalEvent): void {
    const d = event.data;
    this.s.put!.run({
      artifact_id: d['artifact_id'],
      detector: d['detector'],
      content_hash: d['content_hash'],
      verdict: d['verdict'],
      label: typeof d['label'] === 'string' ? d['label'] : null,
      score: typeof d['score'] === 'number' ? d['score'] : null,
      threshold: d['threshold'],
      seq: event.seq,
      ts: event.ts,
    });
  }
}
