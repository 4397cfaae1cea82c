import type Database from 'better-sqlite3';

export interface SpaceRow {
  name: string;
  owner: string;
  policy: string;
}

/** Prepared reads of the spaces view. */
export class SpaceReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      all: p('SELECT name, owner, policy FROM spaces ORDER BY name'),
    };
  }

  /** Every space with its owner and review policy, by name. */
  all(): SpaceRow[] {
    return this.s.all!.all() as SpaceRow[];
  }
}
