import type Database from 'better-sqlite3';
import type { JournalEvent } from '../forms/event.js';

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
  readonly handles = ['signin-started', 'signin-refreshed', 'signin-ended'];

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

  apply(event: JournalEvent): void {
    const d = event.data;
    if (event.type === 'signin-started') {
      this.start.run({
        family: d['family'],
        iss: d['iss'],
        sub: d['sub'],
        client_id: d['client_id'],
        scope: d['scope'],
        auth_time: d['auth_time'],
        started_at: event.ts,
        token_hash: d['token_hash'],
        token_expires_at: d['expires_at'],
      });
      this.token.run(d['token_hash'], d['family'], event.ts);
    } else if (event.type === 'signin-refreshed') {
      this.rotate.run(d['token_hash'], d['expires_at'], d['family']);
      this.token.run(d['token_hash'], d['family'], event.ts);
    } else {
      this.end.run(event.ts, d['reason'], d['family']);
    }
  }
}
