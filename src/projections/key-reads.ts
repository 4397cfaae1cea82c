import type Database from 'better-sqlite3';
import type { Role } from '../domain/roles.js';

/** An API key as the api_keys view holds it (its hash and assertion key aside). */
export interface KeyRow {
  key_id: string;
  role: Role;
  label: string | null;
  issued_by: string;
  issued_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  revoke_reason: string | null;
  scope: string | null;
}

/** The assertion key bound to an API key and its last change. */
export interface AssertionBinding {
  assertion_key: string | null;
  assertion_key_at: number | null;
  assertion_key_event: string | null;
}

/** Prepared reads of the api_keys view. */
export class KeyReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      all: p('SELECT * FROM api_keys ORDER BY issued_at, key_id'),
      revokedAt: p('SELECT revoked_at FROM api_keys WHERE key_id = ?'),
      assertionBinding: p('SELECT assertion_key, assertion_key_at, assertion_key_event FROM api_keys WHERE key_id = ?'),
    };
  }

  /** Every key ever issued, oldest first. */
  all(): KeyRow[] {
    return this.s.all!.all() as KeyRow[];
  }

  /** Whether and when the key was revoked; undefined when no such key was issued. */
  revokedAt(keyId: string): { revoked_at: number | null } | undefined {
    return this.s.revokedAt!.get(keyId) as { revoked_at: number | null } | undefined;
  }

  assertionBinding(keyId: string): AssertionBinding | undefined {
    return this.s.assertionBinding!.get(keyId) as AssertionBinding | undefined;
  }
}
