import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { PeopleReads } from './people-reads.js';
import { defineView } from './define-view.js';

/** The people table (docs/protocol.md#spaces-work-areas-and-other-resources): each signed-in person's assigned role and demo flag. */
export function peopleTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.people (
      iss TEXT NOT NULL,
      sub TEXT NOT NULL,
      role TEXT NOT NULL,
      demo INTEGER NOT NULL,
      email TEXT,
      name TEXT,
      assigned_by TEXT NOT NULL,
      assigned_at INTEGER NOT NULL,
      event_id TEXT NOT NULL,
      PRIMARY KEY (iss, sub)
    ) WITHOUT ROWID;
  `;
}

export const peopleDigestQueries = (schema: string) => ({
  people: `SELECT * FROM ${schema}.people ORDER BY iss, sub`,
});

export class PeopleReducer {
  private readonly upsert: Database.Statement;
  private readonly remove: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.upsert = db.prepare(
      `INSERT INTO ${schema}.people (iss, sub, role, demo, email, name, assigned_by, assigned_at, event_id)
       VALUES (@iss, @sub, @role, @demo, @email, @name, @assigned_by, @assigned_at, @event_id)
       ON CONFLICT(iss, sub) DO UPDATE SET role = excluded.role, demo = excluded.demo, email = excluded.email,
         name = excluded.name, assigned_by = excluded.assigned_by, assigned_at = excluded.assigned_at, event_id = excluded.event_id`,
    );
    this.remove = db.prepare(`DELETE FROM ${schema}.people WHERE iss = ? AND sub = ?`);
  }

  apply(event: JournalEventOf<FoldedBy<'people'>>): void {
    if (event.type === 'person-removed') {
      this.remove.run(event.data.iss, event.data.sub);
      return;
    }
    this.upsert.run({
      iss: event.data.iss,
      sub: event.data.sub,
      role: event.data.role,
      demo: event.data.demo === true ? 1 : 0,
      email: event.data.email ?? null,
      name: event.data.name ?? null,
      assigned_by: event.by,
      assigned_at: event.ts,
      event_id: event.event_id,
    });
  }
}

/** The people view: roles assigned to signed-in people. */
export const peopleView = defineView({
  name: 'people',
  tables: peopleTables,
  digest: peopleDigestQueries,
  reducer: (db, schema) => new PeopleReducer(db, schema),
  reads: {
    /** Roles assigned to signed-in people. */
    people: ({ db }) => new PeopleReads(db),
  },
});
