import { randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { jose } from '../credentials/sign-in-support.js';
import type { Clock } from '../clock.js';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import { ACCESS_TOKEN_SECONDS, ANSWER_TICKET_SECONDS } from './sign-in-lifetimes.js';

export interface TokenSubject {
  sub: string;
  /** The sign-in session (refresh family) the token came from; logout by access token ends it. */
  sid: string;
  scope: string;
  /** The client the person signed in through (the console's, or the command line's): the ID token's audience. */
  clientId: string;
  email?: string;
  name?: string;
}

/**
 * The sign-in provider's JWTs, EdDSA-signed with the deployment key through jose; the kid is
 * the deployment id, so a relying party finds the key in /oauth/jwks.
 */
export class TokenMinter {
  constructor(
    private readonly key: DeploymentKey,
    readonly issuer: string,
    readonly clientId: string,
    private readonly clock: Clock,
  ) {}

  private sign(typ: string, payload: JWTPayload, audience: string, lifetimeS: number): Promise<string> {
    const now = Math.floor(this.clock.now() / 1000);
    return new (jose().SignJWT)(payload)
      .setProtectedHeader({ alg: 'EdDSA', typ, kid: this.key.deploymentId })
      .setIssuer(this.issuer)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + lifetimeS)
      .sign(this.key.privateKeyObject());
  }

  /**
   * RFC 9068 access token for /rpc, one hour: aud is the console's client id, the audience
   * /rpc accepts whichever client signed the person in; client_id names that client.
   */
  accessToken(s: TokenSubject): Promise<string> {
    return this.sign(
      'at+jwt',
      { sub: s.sub, client_id: s.clientId, scope: s.scope, sid: s.sid, jti: randomBytes(16).toString('base64url') },
      this.clientId,
      ACCESS_TOKEN_SECONDS,
    );
  }

  /** The OpenID Connect ID token; email and name only when the scope asked for them. */
  idToken(s: TokenSubject, authTimeMs: number, nonce: string | undefined): Promise<string> {
    const scopes = new Set(s.scope.split(' '));
    const claims: JWTPayload = { sub: s.sub, auth_time: Math.floor(authTimeMs / 1000), sid: s.sid, azp: s.clientId };
    if (nonce !== undefined) claims['nonce'] = nonce;
    if (scopes.has('email') && s.email !== undefined) Object.assign(claims, { email: s.email, email_verified: false });
    if (scopes.has('profile') && s.name !== undefined) claims['name'] = s.name;
    return this.sign('JWT', claims, s.clientId, ACCESS_TOKEN_SECONDS);
  }

  /** A token-exchange ticket for the answer origin: five minutes, and /rpc refuses it (its audience is not the client). */
  answerTicket(s: TokenSubject, audience: string): Promise<string> {
    return this.sign(
      'at+jwt',
      { sub: s.sub, client_id: s.clientId, scope: s.scope, jti: randomBytes(16).toString('base64url') },
      audience,
      ANSWER_TICKET_SECONDS,
    );
  }
}
