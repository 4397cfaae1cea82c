import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { WorkareaReads } from './workarea-reads.js';
import { defineView } from './define-view.js';

/**
 * The work-area view. An area exists once some identity wrote into it, so "the areas of a
 * space" are the distinct (space, workarea) pairs of `workarea_parts`; each pair of area and
 * identity is one part, open until that identity's part is completed. Declared relations
 * are kept one per declarer, so whose declaration an edge is stays a fact of its own.
 * Row counts are not kept here: they depend on who asks (C6), so reads count `artifacts`
 * through the index below.
 */
export function workareaTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.workarea_parts (
      space TEXT NOT NULL,
      workarea TEXT NOT NULL,
      identity TEXT NOT NULL,
      first_seq INTEGER NOT NULL,
      first_ts INTEGER NOT NULL,
      completed_seq INTEGER,
      completed_ts INTEGER,
      completed_by TEXT,
      PRIMARY KEY (space, workarea, identity)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${schema}.workarea_relations (
      space TEXT NOT NULL,
      workarea TEXT NOT NULL,
      kind TEXT NOT NULL,
      target TEXT NOT NULL,
      by TEXT NOT NULL,
      producer_name TEXT,
      producer_kind TEXT,
      seq INTEGER NOT NULL,
      ts INTEGER NOT NULL,
      PRIMARY KEY (space, workarea, kind, target, by)
    ) WITHOUT ROWID;
    -- Lineage, gv.workarea and the event filter count an area's rows per writer at read time;
    -- the index lives with this view because only work-area reads need it (artifacts is created first).
    CREATE INDEX IF NOT EXISTS ${schema}.artifacts_space_workarea ON artifacts(space, workarea, writer_identity, state);
  `;
}

export const workareaDigestQueries = (schema: string) => ({
  workarea_parts: `SELECT * FROM ${schema}.workarea_parts ORDER BY space, workarea, identity`,
  workarea_relations: `SELECT * FROM ${schema}.workarea_relations ORDER BY space, workarea, kind, target, by`,
});

type Data = Record<string, unknown>;
const str = (d: Data, k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);

/** The one event that completes a part: nothing else sets completed_seq, and nothing clears it. */
export const PART_COMPLETING_EVENTS = ['workarea-completed'] as const satisfies readonly FoldedBy<'workareas'>[];

/** Folds ingests (a part comes into being), completions and declared relations. */
export class WorkareaReducer {
  private readonly s: Record<'part' | 'complete' | 'relate', Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    this.s = {
      part: db.prepare(`INSERT OR IGNORE INTO ${schema}.workarea_parts (space, workarea, identity, first_seq, first_ts)
        VALUES (?, ?, ?, ?, ?)`),
      complete: db.prepare(`UPDATE ${schema}.workarea_parts SET completed_seq = ?, completed_ts = ?, completed_by = ?
        WHERE space = ? AND workarea = ? AND identity = ? AND completed_seq IS NULL`),
      relate: db.prepare(`INSERT INTO ${schema}.workarea_relations
        (space, workarea, kind, target, by, producer_name, producer_kind, seq, ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'workareas'>>): void {
    const d = event.data;
    const space = str(d, 'space');
    const workarea = str(d, 'workarea');
    if (space === null || workarea === null) {
      // Rows written before work areas existed carry none; the two workarea events always do.
      if (event.type === 'ingest') return;
      throw new Error(`event ${event.seq} (${event.type}) names no space or work area`);
    }
    if (event.type === 'ingest') {
      if (event.by === null) throw new Error(`ingest ${event.seq} has no writer`);
      this.s.part.run(space, workarea, event.by, event.seq, event.ts);
    } else if (event.type === 'workarea-completed') {
      const changed = this.s.complete.run(event.seq, event.ts, event.by, space, workarea, str(d, 'identity')).changes;
      if (changed !== 1) throw new Error(`event ${event.seq} completes a part the view does not hold open`);
    } else {
      const producer = event.data.producer;
      this.s.relate.run(space, workarea, str(d, 'kind'), str(d, 'target'), event.by, producer?.name ?? null,
        producer?.kind ?? null, event.seq, event.ts);
    }
  }
}

/** The work areas view: parts, completions and declared relations. */
export const workareaView = defineView({
  name: 'workareas',
  tables: workareaTables,
  digest: workareaDigestQueries,
  reducer: (db, schema) => new WorkareaReducer(db, schema),
  reads: {
    workareas: ({ db }) => new WorkareaReads(db),
  },
});
