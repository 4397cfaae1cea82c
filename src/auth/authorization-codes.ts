import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import { CODE_LIFETIME_MS } from './sign-in-lifetimes.js';

export interface CodeGrant {
  clientId: string;
  redirectUri: string;
  /** base64url SHA-256 of the verifier (S256). */
  challenge: string;
  sub: string;
  scope: string;
  nonce?: string;
  authTime: number;
}

type Redemption =
  | { ok: true; grant: CodeGrant }
  | { ok: false; why: string; /** the session a reused code already started, to be ended */ family?: string };

/** RFC 7636 S256: BASE64URL(SHA256(ASCII(verifier))) must equal the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** A code verifier is 43-128 characters of [A-Za-z0-9-._~] (RFC 7636 4.1). */
export const VERIFIER_SHAPE = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the 43-character base64url of a SHA-256. */
export const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const MAX_OUTSTANDING = 10_000;

/**
 * Sign-in codes: single use, one minute, bound to the challenge, the client id and the
 * redirect_uri (docs/protocol.md#the-sign-in-provider). They live in memory only: a code outliving a restart is not worth
 * keeping. A redeemed code is remembered until it would have expired, so presenting it again
 * is recognised and the session it started can be ended (RFC 6749 4.1.2).
 */
export class AuthorizationCodes {
  private readonly live = new Map<string, CodeGrant & { expiresAt: number }>();
  private readonly redeemed = new Map<string, { family: string | null; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  private prune(now: number): void {
    for (const [code, c] of this.live) if (c.expiresAt <= now) this.live.delete(code);
    for (const [code, r] of this.redeemed) if (r.expiresAt <= now) this.redeemed.delete(code);
  }

  issue(grant: CodeGrant): string {
    const now = this.clock.now();
    if (this.live.size >= MAX_OUTSTANDING) this.prune(now);
    if (this.live.size >= MAX_OUTSTANDING) throw new Error('too many sign-in codes outstanding');
    const code = randomBytes(32).toString('base64url');
    this.live.set(code, { ...grant, expiresAt: now + CODE_LIFETIME_MS });
    return code;
  }

  /**
   * Takes the code out whatever happens next: a wrong verifier, client or redirect_uri
   * spends it too, so a stolen code cannot be tried twice.
   */
  redeem(code: string, binding: { verifier: string; clientId: string; redirectUri: string }): Redemption {
    const now = this.clock.now();
    const used = this.redeemed.get(code);
    if (used !== undefined && used.expiresAt > now) {
      return { ok: false, why: 'the code was already used', ...(used.family === null ? {} : { family: used.family }) };
    }
    const grant = this.live.get(code);
    if (grant === undefined) return { ok: false, why: 'the code is unknown or expired' };
    this.live.delete(code);
    this.redeemed.set(code, { family: null, expiresAt: grant.expiresAt });
    if (grant.expiresAt <= now) return { ok: false, why: 'the code has expired (codes last one minute)' };
    if (grant.clientId !== binding.clientId) return { ok: false, why: 'the code was issued to another client_id' };
    if (grant.redirectUri !== binding.redirectUri) return { ok: false, why: 'redirect_uri differs from the one the code was issued for' };
    if (!pkceMatches(binding.verifier, grant.challenge)) return { ok: false, why: 'code_verifier does not match the code_challenge' };
    const { expiresAt: _expiresAt, ...rest } = grant;
    return { ok: true, grant: rest };
  }

  /** Notes the session a redeemed code started, so a replay of the code can end it. */
  started(code: string, family: string): void {
    const used = this.redeemed.get(code);
    if (used !== undefined) used.family = family;
  }
}
