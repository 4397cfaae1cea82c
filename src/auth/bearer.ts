import type Database from 'better-sqlite3';
import type { Caller } from '../access/caller.js';
import type { Clock } from '../clock.js';
import type { Role } from '../domain/roles.js';
import { API_KEY_PATTERN, hashApiKey } from './api-keys.js';

export type CredentialKind = 'missing' | 'malformed' | 'expired' | 'issuer' | 'audience' | 'signature' | 'unavailable' | 'unsupported';

export class CredentialError extends Error {
  constructor(
    readonly kind: CredentialKind,
    readonly why: string,
  ) {
    super(`${kind}: ${why}`);
  }

  /** The 401 body of spec 1 Authentication 5. */
  body(): { error: string; kind: CredentialKind } {
    return { error: this.message, kind: this.kind };
  }
}

interface KeyRow {
  key_id: string;
  role: Role;
  expires_at: number | null;
  revoked_at: number | null;
  scope: string | null;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Derives the caller of an HTTP request from its Authorization header. API keys are
 * looked up by hash on every request, so a revocation takes effect on the next one.
 */
export class BearerAuth {
  private readonly byHash: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.byHash = db.prepare('SELECT key_id, role, expires_at, revoked_at, scope FROM api_keys WHERE key_hash = ?');
  }

  callerOf(header: string | undefined, surface: Caller['surface']): Caller {
    if (header === undefined || header === '') throw new CredentialError('missing', 'no Authorization header');
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (!match) throw new CredentialError('malformed', 'expected Authorization: Bearer <token>');
    const token = match[1]!;
    if (token.startsWith('gk_')) return this.apiKeyCaller(token, surface);
    if (JWT_SHAPE.test(token)) {
      throw new CredentialError('unsupported', 'sign-in tokens are accepted once a sign-in issuer is configured; this gate has none');
    }
    throw new CredentialError('malformed', 'the bearer is neither an API key nor a token');
  }

  private apiKeyCaller(raw: string, surface: Caller['surface']): Caller {
    if (!API_KEY_PATTERN.test(raw)) throw new CredentialError('malformed', 'an API key is gk_ followed by 43 base64url characters');
    const key = this.byHash.get(hashApiKey(raw)) as KeyRow | undefined;
    if (!key || key.revoked_at !== null) throw new CredentialError('signature', 'the key is not one this gate holds, or it was revoked');
    if (key.expires_at !== null && key.expires_at <= this.clock.now()) throw new CredentialError('expired', 'the key has expired');
    return {
      identity: `key:${key.key_id}`,
      role: key.role,
      kind: 'program',
      scope: key.scope === 'events' ? 'events' : null,
      demo: false,
      surface,
    };
  }
}
