import type Database from 'better-sqlite3';

/** Prepared reads of the grants view: what capabilities a principal holds, space by space. */
export class GrantReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      grant: p('SELECT capabilities FROM grants WHERE principal = ? AND space = ?'),
      grantsOf: p('SELECT space, capabilities FROM grants WHERE principal = ? ORDER BY space'),
    };
  }

  /** The principal's grant in one space (capabilities comma-separated), if any. */
  grant(principal: string, space: string): { capabilities: string } | undefined {
    return this.s.grant!.get(principal, space) as { capabilities: string } | undefined;
  }

  /** Every grant the principal holds, by space. */
  grantsOf(principal: string): { space: string; capabilities: string }[] {
    return this.s.grantsOf!.all(principal) as { space: string; capabilities: string }[];
  }
}
