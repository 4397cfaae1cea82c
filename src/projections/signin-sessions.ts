import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { SigninSessionReads } from './signin-session-reads.js';
import { defineView } from './define-view.js';

/**
 * Sign-in sessions of this gate's own issuer: one family per code exchange, its current
 * refresh token (by hash; the raw token is never stored) and every token it ever had, so a
 * rotated token presented again is recognised as reuse (RFC 9700 4.14.2).
 */
export function signinSessionTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.signin_sessions (
      family TEXT PRIMARY KEY,
      iss TEXT NOT NULL,
      sub TEXT NOT NULL,
      client_id TEXT NOT NULL,
      scope TEXT NOT NULL,
      auth_time INTEGER NOT NULL,
      started_at INTEGER NOT NULL,
      token_hash TEXT NOT NULL,
      token_expires_at INTEGER NOT NULL,
      rotations INTEGER NOT NULL,
      ended_at INTEGER,
      end_reason TEXT
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.signin_sessions_subject ON signin_sessions (iss, sub);
    CREATE TABLE IF NOT EXISTS ${schema}.signin_refresh_tokens (
      token_hash TEXT PRIMARY KEY,
      family TEXT NOT NULL,
      issued_at INTEGER NOT NULL
    ) WITHOUT ROWID;
  `;
}

export const signinSessionDigestQueries = (schema: string) => ({
  signin_sessions: `SELECT * FROM ${schema}.signin_sessions ORDER BY family`,
  signin_refresh_tokens: `SELECT * FROM ${schema}.signin_refresh_tokens ORDER BY token_hash`,
});

export class SigninSessionReducer {
  private readonly start: Database.Statement;
  private readonly rotate: Database.Statement;
  private readonly end: Database.Statement;
  private readonly token: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.start = db.prepare(
      `INSERT INTO ${schema}.signin_sessions
         (family, iss, sub, client_id, scope, auth_time, started_at, token_hash, token_expires_at, rotations)
       VALUES (@family, @iss, @sub, @client_id, @scope, @auth_time, @started_at, @token_hash, @token_expires_at, 0)`,
    );
    this.rotate = db.prepare(
      `UPDATE ${schema}.signin_sessions SET token_hash = ?, token_expires_at = ?, rotations = rotations + 1 WHERE family = ?`,
    );
    this.end = db.prepare(
      `UPDATE ${schema}.signin_sessions SET ended_at = ?, end_reason = ? WHERE family = ? AND ended_at IS NULL`,
    );
    this.token = db.prepare(`INSERT INTO ${schema}.signin_refresh_tokens (token_hash, family, issued_at) VALUES (?, ?, ?)`);
  }

  apply(event: JournalEventOf<FoldedBy<'signin-sessions'>>): void {
    if (event.type === 'signin-started') {
      this.start.run({
        family: event.data.family,
        iss: event.data.iss,
        sub: event.data.sub,
        client_id: event.data.client_id,
        scope: event.data.scope,
        auth_time: event.data.auth_time,
        started_at: event.ts,
        token_hash: event.data.token_hash,
        token_expires_at: event.data.expires_at,
      });
      this.token.run(event.data.token_hash, event.data.family, event.ts);
    } else if (event.type === 'signin-refreshed') {
      this.rotate.run(event.data.token_hash, event.data.expires_at, event.data.family);
      this.token.run(event.data.token_hash, event.data.family, event.ts);
    } else {
      this.end.run(event.ts, event.data.reason, event.data.family);
    }
  }
}

/** The sign-in sessions view. */
export const signinSessionView = defineView({
  name: 'signin-sessions',
  tables: signinSessionTables,
  digest: signinSessionDigestQueries,
  reducer: (db, schema) => new SigninSessionReducer(db, schema),
  reads: {
    /** Refresh-token families of this gate's own sign-in issuer. */
    signinSessions: ({ db }) => new SigninSessionReads(db),
  },
});
