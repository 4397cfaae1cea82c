import type Database from 'better-sqlite3';

/** Prepared reads of the api_keys view. */
export class ApiKeyReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      roleOf: p('SELECT role FROM api_keys WHERE key_id = ?').pluck(),
    };
  }

  /** The role a key was issued with, revoked or not; undefined for a key never issued. */
  roleOf(keyId: string): string | undefined {
    return this.s.roleOf!.get(keyId) as string | undefined;
  }
}
