import type Database from 'better-sqlite3';
import { typesFoldedBy, type FoldedBy, type JournalEventOf } from '../journal/catalogue/catalogue.js';
import { SpaceReads } from './space-reads.js';
import { defineView } from './define-view.js';

export function spaceTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.spaces (
      name TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      policy TEXT NOT NULL,
      created_seq INTEGER NOT NULL,
      created_ts INTEGER NOT NULL
    ) WITHOUT ROWID;
  `;
}

export const spaceDigestQueries = (schema: string) => ({
  spaces: `SELECT * FROM ${schema}.spaces ORDER BY name`,
});

/** The events the spaces view folds. */
export const SPACE_EVENTS = typesFoldedBy('spaces');

export class SpaceReducer {
  private readonly insert: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.insert = db.prepare(
      `INSERT INTO ${schema}.spaces (name, owner, policy, created_seq, created_ts) VALUES (?, ?, ?, ?, ?)`,
    );
  }

  apply(event: JournalEventOf<FoldedBy<'spaces'>>): void {
    this.insert.run(event.data.space, event.data.owner, event.data.policy, event.seq, event.ts);
  }
}

/** The spaces view: each space, its owner and policy. */
export const spaceView = defineView({
  name: 'spaces',
  tables: spaceTables,
  digest: spaceDigestQueries,
  reducer: (db, schema) => new SpaceReducer(db, schema),
  reads: {
    spaces: ({ db }) => new SpaceReads(db),
  },
});
