import type Database from 'better-sqlite3';

/** A refresh-token family of this gate's own issuer, as the sign-in sessions read it. */
export interface SessionRow {
  family: string;
  iss: string;
  sub: string;
  client_id: string;
  scope: string;
  auth_time: number;
  token_hash: string;
  token_expires_at: number;
  ended_at: number | null;
}

/** Prepared reads of the sign-in session views, made once by the store (`store.signinSessions`). */
export class SigninSessionReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      session: p('SELECT * FROM signin_sessions WHERE family = ?'),
      familyOfToken: p('SELECT family FROM signin_refresh_tokens WHERE token_hash = ?'),
      openFamiliesOf: p('SELECT family FROM signin_sessions WHERE iss = ? AND sub = ? AND ended_at IS NULL'),
    };
  }

  session(family: string): SessionRow | undefined {
    return this.s.session!.get(family) as SessionRow | undefined;
  }

  /** The family a refresh token (by hash) was ever issued in, current or rotated: a rotated one coming back is reuse. */
  familyOfToken(tokenHash: string): { family: string } | undefined {
    return this.s.familyOfToken!.get(tokenHash) as { family: string } | undefined;
  }

  /** The person's sessions not yet ended. */
  openFamiliesOf(iss: string, sub: string): { family: string }[] {
    return this.s.openFamiliesOf!.all(iss, sub) as { family: string }[];
  }
}
