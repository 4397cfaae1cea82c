import type Database from 'better-sqlite3';

/** Prepared reads of the people view. */
export class PeopleReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      roleOf: p(`SELECT role FROM people WHERE iss || '|' || sub = ?`).pluck(),
    };
  }

  /** The role assigned to a person by identity (`iss|sub`); undefined when none was. */
  roleOf(identity: string): string | undefined {
    return this.s.roleOf!.get(identity) as string | undefined;
  }
}
