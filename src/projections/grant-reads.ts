import type Database from 'better-sqlite3';

export interface GrantRow {
  principal: string;
  space: string;
  capabilities: string;
  issued_ts: number;
}

/** The listing's SQL for a filter on principal, space, both or neither (the text gv.grants always ran). */
const listSql = (byPrincipal: boolean, bySpace: boolean) => {
  const where: string[] = [];
  if (byPrincipal) where.push('principal = ?');
  if (bySpace) where.push('space = ?');
  return `SELECT * FROM grants ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY principal, space`;
};

/** Prepared reads of the grants view (per-space capabilities of a principal). */
export class GrantReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      capabilities: p('SELECT capabilities FROM grants WHERE principal = ? AND space = ?'),
      spacesOf: p('SELECT space FROM grants WHERE principal = ?').pluck(),
      list: p(listSql(false, false)),
      listOfPrincipal: p(listSql(true, false)),
      listOfSpace: p(listSql(false, true)),
      listOfBoth: p(listSql(true, true)),
      grantsOf: p('SELECT space, capabilities FROM grants WHERE principal = ? ORDER BY space'),
    };
  }

  /** The capabilities held on a space, comma-separated as stored, if any grant stands. */
  capabilities(principal: string, space: string): { capabilities: string } | undefined {
    return this.s.capabilities!.get(principal, space) as { capabilities: string } | undefined;
  }

  /** The spaces a principal holds a grant on. */
  spacesOf(principal: string): string[] {
    return this.s.spacesOf!.all(principal) as string[];
  }

  /** The grants standing, of one principal and/or on one space when given, by principal then space. */
  list(principal: string | undefined, space: string | undefined): GrantRow[] {
    const args = [principal, space].filter((a): a is string => a !== undefined);
    const statement =
      principal === undefined
        ? space === undefined ? this.s.list! : this.s.listOfSpace!
        : space === undefined ? this.s.listOfPrincipal! : this.s.listOfBoth!;
    return statement.all(...args) as GrantRow[];
  }

  /** Every grant the principal holds, by space. */
  grantsOf(principal: string): { space: string; capabilities: string }[] {
    return this.s.grantsOf!.all(principal) as { space: string; capabilities: string }[];
  }
}
