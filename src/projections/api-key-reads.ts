import type Database from 'better-sqlite3';
import type { Role } from '../domain/roles.js';

/** What a credential check reads of a key: who it is, its role, whether it still holds, its scope. */
export interface ApiKeyCredential {
  key_id: string;
  role: Role;
  expires_at: number | null;
  revoked_at: number | null;
  scope: string | null;
}

/** A key's credential with the Ed25519 key bound for its agent's assertions (gv.assertion_key), if any. */
export interface ApiKeyAssertionRow extends ApiKeyCredential {
  assertion_key: string | null;
}

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

/** Prepared reads of the api_keys view, made once by the store (`store.apiKeys`). */
export class ApiKeyReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      credentialByHash: p('SELECT key_id, role, expires_at, revoked_at, scope FROM api_keys WHERE key_hash = ?'),
      assertionKeyOf: p('SELECT key_id, role, expires_at, revoked_at, scope, assertion_key FROM api_keys WHERE key_id = ?'),
      roleOf: p('SELECT role FROM api_keys WHERE key_id = ?').pluck(),
      labelOf: p('SELECT label FROM api_keys WHERE key_id = ?').pluck(),
      all: p('SELECT * FROM api_keys ORDER BY issued_at, key_id'),
      revokedAt: p('SELECT revoked_at FROM api_keys WHERE key_id = ?'),
      assertionBinding: p('SELECT assertion_key, assertion_key_at, assertion_key_event FROM api_keys WHERE key_id = ?'),
    };
  }

  /** The key a raw API key presents, found by its sha256 (only the hash is stored). */
  credentialByHash(keyHash: string): ApiKeyCredential | undefined {
    return this.s.credentialByHash!.get(keyHash) as ApiKeyCredential | undefined;
  }

  /** The key an agent's assertion names, with its bound assertion key. */
  assertionKeyOf(keyId: string): ApiKeyAssertionRow | undefined {
    return this.s.assertionKeyOf!.get(keyId) as ApiKeyAssertionRow | undefined;
  }

  /** The role a key was issued with, revoked or not; undefined for a key never issued. */
  roleOf(keyId: string): string | undefined {
    return this.s.roleOf!.get(keyId) as string | undefined;
  }

  /** The label a key was issued with; null for none, undefined for a key never issued. */
  labelOf(keyId: string): string | null | undefined {
    return this.s.labelOf!.get(keyId) as string | null | undefined;
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
