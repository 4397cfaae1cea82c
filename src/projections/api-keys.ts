import type Database from 'better-sqlite3';
import { typesFoldedBy, type FoldedBy, type JournalEventOf } from '../journal/catalogue/catalogue.js';
import { ApiKeyReads } from './api-key-reads.js';
import { defineView } from './define-view.js';

export function apiKeyTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.api_keys (
      key_id TEXT PRIMARY KEY,
      key_hash TEXT NOT NULL UNIQUE,
      role TEXT NOT NULL,
      label TEXT,
      issued_by TEXT NOT NULL,
      issued_at INTEGER NOT NULL,
      expires_at INTEGER,
      revoked_at INTEGER,
      revoke_reason TEXT,
      scope TEXT,
      assertion_key TEXT,
      -- When the assertion key last changed and by which event, so the key's holder sees a replacement.
      assertion_key_at INTEGER,
      assertion_key_event TEXT
    ) WITHOUT ROWID;
  `;
}

export const apiKeyDigestQueries = (schema: string) => ({
  api_keys: `SELECT * FROM ${schema}.api_keys ORDER BY key_id`,
});

/** The events the api_keys view folds; a key read is kept until one of them is applied. */
export const API_KEY_EVENTS = typesFoldedBy('api-keys');

export class ApiKeyReducer {
  private readonly insert: Database.Statement;
  private readonly revoke: Database.Statement;
  private readonly bind: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.insert = db.prepare(
      `INSERT INTO ${schema}.api_keys (key_id, key_hash, role, label, issued_by, issued_at, expires_at, scope)
       VALUES (@key_id, @key_hash, @role, @label, @issued_by, @issued_at, @expires_at, @scope)`,
    );
    this.bind = db.prepare(`UPDATE ${schema}.api_keys SET assertion_key = ?, assertion_key_at = ?, assertion_key_event = ? WHERE key_id = ?`);
    this.revoke = db.prepare(
      `UPDATE ${schema}.api_keys SET revoked_at = ?, revoke_reason = ? WHERE key_id = ? AND revoked_at IS NULL`,
    );
  }

  apply(event: JournalEventOf<FoldedBy<'api-keys'>>): void {
    if (event.type === 'apikey-issued') {
      this.insert.run({
        key_id: event.data.key_id,
        key_hash: event.data.key_hash,
        role: event.data.role,
        label: event.data.label ?? null,
        issued_by: event.by,
        issued_at: event.ts,
        expires_at: event.data.expires_at ?? null,
        scope: event.data.scope ?? null,
      });
    } else if (event.type === 'apikey-assertion-key') {
      // The Ed25519 public key the key's holder signs its short-lived assertions with (null: none any more).
      this.bind.run(event.data.public_key ?? null, event.ts, event.event_id, event.data.key_id);
    } else {
      this.revoke.run(event.ts, event.data.reason ?? null, event.data.key_id);
    }
  }
}

/** The API keys view. */
export const apiKeyView = defineView({
  name: 'api-keys',
  tables: apiKeyTables,
  digest: apiKeyDigestQueries,
  reducer: (db, schema) => new ApiKeyReducer(db, schema),
  reads: {
    /** API keys: as credentials (by hash, by id for an agent's assertion) and as gv.keys lists them. */
    apiKeys: ({ db }) => new ApiKeyReads(db),
  },
});
