import type Database from 'better-sqlite3';

/** Prepared reads of the people view. */
export class PeopleReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      names: p(`SELECT email, name FROM people WHERE iss || '|' || sub = ?`),
    };
  }

  /** The email and name the people table holds for a person's identity (`iss|sub`). */
  namesOf(identity: string): { email: string | null; name: string | null } | undefined {
    return this.s.names!.get(identity) as { email: string | null; name: string | null } | undefined;
  }
}
