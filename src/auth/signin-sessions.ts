import { createHash, randomBytes } from 'node:crypto';
import type { SessionRow } from '../projections/signin-session-reads.js';
import { REFRESH_TOKEN_MS } from './sign-in-lifetimes.js';
import type { Store } from '../store/store.js';
import type { Clock } from '../clock.js';

export type { SessionRow };

export type Rotation =
  | { ok: true; session: SessionRow; refreshToken: string }
  | { ok: false; why: string };

/** A refresh token is opaque: `grt_` and 32 random bytes; only its sha256 is kept. */
const mintRefreshToken = () => `grt_${randomBytes(32).toString('base64url')}`;
export const REFRESH_TOKEN_SHAPE = /^grt_[A-Za-z0-9_-]{43}$/;
const hashOf = (raw: string) => createHash('sha256').update(raw).digest('hex');

/**
 * Refresh-token families, journaled: `signin-started` at a code exchange, `signin-refreshed`
 * at each rotation, `signin-ended` at logout, at a person's removal and when a rotated token
 * comes back (RFC 9700: reuse of a rotated refresh token revokes the whole family). Every
 * decision runs inside the journal write, so two refreshes racing with one token cannot
 * both succeed: the second is the reuse.
 */
export class SigninSessions {
  constructor(private readonly house: { readonly store: Store; readonly clock: Clock }) {}

  session(family: string): SessionRow | undefined {
    return this.house.store.signinSessions.session(family);
  }

  async start(s: { iss: string; sub: string; clientId: string; scope: string; authTime: number }): Promise<{ family: string; refreshToken: string }> {
    const family = randomBytes(16).toString('base64url');
    const refreshToken = mintRefreshToken();
    const expiresAt = this.house.clock.now() + REFRESH_TOKEN_MS;
    await this.house.store.writer.write(() =>
      this.house.store.journal.append('signin-started', `${s.iss}|${s.sub}`, {
        family,
        iss: s.iss,
        sub: s.sub,
        client_id: s.clientId,
        scope: s.scope,
        auth_time: s.authTime,
        token_hash: hashOf(refreshToken),
        expires_at: expiresAt,
      }),
    );
    return { family, refreshToken };
  }

  rotate(presented: string, clientId: string | undefined): Promise<Rotation> {
    const presentedHash = hashOf(presented);
    const next = mintRefreshToken();
    const now = this.house.clock.now();
    return this.house.store.writer.write((): Rotation => {
      const known = this.house.store.signinSessions.familyOfToken(presentedHash);
      if (known === undefined) return { ok: false, why: 'the refresh token is unknown' };
      const session = this.session(known.family)!;
      const by = `${session.iss}|${session.sub}`;
      if (session.ended_at !== null) return { ok: false, why: 'the sign-in session has ended' };
      if (session.token_hash !== presentedHash) {
        this.house.store.journal.append('signin-ended', by, { family: session.family, reason: 'refresh_reuse', token_hash: presentedHash });
        return { ok: false, why: 'the refresh token was already used; the sign-in session is ended' };
      }
      if (session.token_expires_at <= now) return { ok: false, why: 'the refresh token has expired' };
      if (clientId !== undefined && clientId !== session.client_id) return { ok: false, why: 'the refresh token was issued to another client_id' };
      this.house.store.journal.append('signin-refreshed', by, { family: session.family, token_hash: hashOf(next), expires_at: now + REFRESH_TOKEN_MS });
      return { ok: true, session: this.session(session.family)!, refreshToken: next };
    });
  }

  /** Ends a family; answers whether it was open. */
  end(family: string, reason: string): Promise<boolean> {
    return this.house.store.writer.write(() => {
      const session = this.session(family);
      if (session === undefined || session.ended_at !== null) return false;
      this.house.store.journal.append('signin-ended', `${session.iss}|${session.sub}`, { family, reason });
      return true;
    });
  }

  /** Logout by refresh token: the token's family ends, whether the token is its current one or a rotated one. */
  async endByToken(presented: string, reason: string): Promise<boolean> {
    const known = this.house.store.signinSessions.familyOfToken(hashOf(presented));
    return known === undefined ? false : this.end(known.family, reason);
  }

  /** Inside a journal write: ends every open session of a person (removal, a new password), but `except` (the session changing it). */
  endAllOf(iss: string, sub: string, reason: string, except?: string): void {
    for (const { family } of this.house.store.signinSessions.openFamiliesOf(iss, sub)) {
      if (family === except) continue;
      this.house.store.journal.append('signin-ended', `${iss}|${sub}`, { family, reason });
    }
  }
}
