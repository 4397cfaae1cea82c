import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { RelationReads } from './relation-reads.js';
import { defineView } from './define-view.js';

/**
 * The relation graph between rows: declared relations (gv.relate and replacement groups),
 * the derives_from edges every ingest declares, tip pins and hides. The state change a
 * `supersedes` relation makes (the parent enters SUPERSEDED) is the artifacts view's.
 */
export function relationTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.relations (
      child TEXT NOT NULL,
      parent TEXT NOT NULL,
      kind TEXT NOT NULL,
      space TEXT NOT NULL,
      by TEXT,
      seq INTEGER NOT NULL,
      ts INTEGER NOT NULL,
      event_id TEXT NOT NULL,
      group_id TEXT,
      PRIMARY KEY (child, parent, kind)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.relations_parent ON relations(parent, kind);
    CREATE TABLE IF NOT EXISTS ${schema}.derivations (
      parent TEXT NOT NULL,
      child TEXT NOT NULL,
      PRIMARY KEY (parent, child)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${schema}.tip_pins (
      artifact_id TEXT PRIMARY KEY,
      by TEXT,
      seq INTEGER NOT NULL,
      ts INTEGER NOT NULL,
      event_id TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${schema}.hides (
      artifact_id TEXT NOT NULL,
      audience TEXT NOT NULL,
      by TEXT,
      lowered INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      ts INTEGER NOT NULL,
      event_id TEXT NOT NULL,
      PRIMARY KEY (artifact_id, audience)
    ) WITHOUT ROWID;
  `;
}

export const relationDigestQueries = (schema: string) => ({
  relations: `SELECT * FROM ${schema}.relations ORDER BY child, parent, kind`,
  derivations: `SELECT * FROM ${schema}.derivations ORDER BY parent, child`,
  tip_pins: `SELECT * FROM ${schema}.tip_pins ORDER BY artifact_id`,
  hides: `SELECT * FROM ${schema}.hides ORDER BY artifact_id, audience`,
});

type Data = Record<string, unknown>;

export class RelationReducer {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      relate: p(`INSERT INTO ${schema}.relations (child, parent, kind, space, by, seq, ts, event_id, group_id)
        VALUES (@child, @parent, @kind, @space, @by, @seq, @ts, @event_id, @group_id)`),
      derive: p(`INSERT OR IGNORE INTO ${schema}.derivations (parent, child) VALUES (?, ?)`),
      pin: p(`INSERT INTO ${schema}.tip_pins (artifact_id, by, seq, ts, event_id) VALUES (?, ?, ?, ?, ?)`),
      unpin: p(`DELETE FROM ${schema}.tip_pins WHERE artifact_id = ?`),
      hide: p(`INSERT INTO ${schema}.hides (artifact_id, audience, by, lowered, seq, ts, event_id)
        VALUES (@artifact_id, @audience, @by, @lowered, @seq, @ts, @event_id)`),
      lift: p(`DELETE FROM ${schema}.hides WHERE artifact_id = ? AND audience = ?`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'relations'>>): void {
    switch (event.type) {
      case 'ingest':
        for (const parent of event.data.derives_from ?? []) this.s.derive!.run(parent, event.data.artifact_id);
        return;
      case 'relation':
        this.s.relate!.run({
          child: event.data.child,
          parent: event.data.parent,
          kind: event.data.kind,
          space: event.data.space,
          by: event.by,
          seq: event.seq,
          ts: event.ts,
          event_id: event.event_id,
          group_id: typeof event.data.group_id === 'string' ? event.data.group_id : null,
        });
        return;
      case 'tip-override':
        if (typeof event.data.unpins === 'string') this.s.unpin!.run(event.data.unpins);
        if (event.data.pinned === true) this.s.pin!.run(event.data.artifact_id, event.by, event.seq, event.ts, event.event_id);
        else this.s.unpin!.run(event.data.artifact_id);
        return;
      case 'hide':
        if (event.data.lift === true) this.s.lift!.run(event.data.artifact_id, event.data.audience);
        else {
          this.s.hide!.run({
            artifact_id: event.data.artifact_id,
            audience: event.data.audience,
            by: event.by,
            lowered: event.data.lowered === true ? 1 : 0,
            seq: event.seq,
            ts: event.ts,
            event_id: event.event_id,
          });
        }
        return;
    }
  }
}

/** The relations view: relations between rows, derivations, tip pins and hides. */
export const relationView = defineView({
  name: 'relations',
  tables: relationTables,
  digest: relationDigestQueries,
  reducer: (db, schema) => new RelationReducer(db, schema),
  reads: {
    relations: ({ db }) => new RelationReads(db),
  },
});
