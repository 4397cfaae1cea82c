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
      policy: p('SELECT policy FROM spaces WHERE name = ?').pluck(),
      names: p('SELECT name FROM spaces ORDER BY name').pluck(),
    };
  }

  /** Every space with its owner and review policy, by name. */
  all(): SpaceRow[] {
    return this.s.all!.all() as SpaceRow[];
  }

  /** A space's review policy (human, model, auto), or undefined when there is no such space. */
  policyOf(space: string): string | undefined {
    return this.s.policy!.get(space) as string | undefined;
  }

  /** Every space's name, sorted. */
  names(): string[] {
    return this.s.names!.all() as string[];
  }
}
