import type Database from 'better-sqlite3';
import type { Role } from '../domain/roles.js';

/** A person's entry in the people table as a credential check reads it. */
export interface PersonAssignment {
  role: Role;
  demo: number;
}

export interface AssignedPerson {
  iss: string;
  sub: string;
  role: string;
}

/** Prepared reads of the people view, made once by the store (`store.people`). */
export class PeopleReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      assignment: p('SELECT role, demo FROM people WHERE iss = ? AND sub = ?'),
      assigned: p('SELECT iss, sub, role FROM people ORDER BY iss, sub'),
    };
  }

  /** The role and demo flag assigned to a signed-in person, if the people table names them. */
  assignment(iss: string, sub: string): PersonAssignment | undefined {
    return this.s.assignment!.get(iss, sub) as PersonAssignment | undefined;
  }

  /** Every person with an assigned role, by iss then sub. */
  assigned(): AssignedPerson[] {
    return this.s.assigned!.all() as AssignedPerson[];
  }
}
