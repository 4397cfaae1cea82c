import type Database from 'better-sqlite3';
import type { OrderedRole } from '../domain/roles.js';

/** A role entry of the people view. */
export interface PersonRow {
  iss: string;
  sub: string;
  role: OrderedRole;
  demo: number;
  email: string | null;
  name: string | null;
  assigned_by: string;
  assigned_at: number;
  event_id: string;
}

/** Prepared reads of the people view (the roles assigned to signed-in people). */
export class PeopleReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      all: p('SELECT * FROM people ORDER BY iss, sub'),
      one: p('SELECT * FROM people WHERE iss = ? AND sub = ?'),
      names: p(`SELECT email, name FROM people WHERE iss || '|' || sub = ?`),
      roleOf: p(`SELECT role FROM people WHERE iss || '|' || sub = ?`).pluck(),
    };
  }

  all(): PersonRow[] {
    return this.s.all!.all() as PersonRow[];
  }

  one(iss: string, sub: string): PersonRow | undefined {
    return this.s.one!.get(iss, sub) as PersonRow | undefined;
  }

  /** The email and name the people table holds for a person's identity (`iss|sub`). */
  namesOf(identity: string): { email: string | null; name: string | null } | undefined {
    return this.s.names!.get(identity) as { email: string | null; name: string | null } | undefined;
  }

  /** The role assigned to a person by identity (`iss|sub`); undefined when none was. */
  roleOf(identity: string): string | undefined {
    return this.s.roleOf!.get(identity) as string | undefined;
  }
}
