import { REFRESH_TOKEN_SHAPE } from './signin-sessions.js';
import { SIGN_IN_SUPPORT_MISSING, installedJose } from '../credentials/sign-in-support.js';
import { ACCESS_TOKEN_SECONDS, ANSWER_TICKET_SECONDS, REFRESH_TOKEN_MS } from './sign-in-lifetimes.js';
import { VERIFIER_SHAPE } from './authorization-codes.js';
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT, type SignInProvider } from './sign-in-provider.js';
import type { TokenSubject } from './token-minting.js';

export const REFRESH_COOKIE = 'gate_refresh';

export type TokenError = 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_target';

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  /** Set-Cookie values: the rotated refresh token, or its clearing. */
  cookies: string[];
}

const refused = (error: TokenError, description: string, cookies: string[] = []): TokenAnswer => ({
  status: 400,
  body: { error, error_description: description },
  cookies,
});

/** `gate_refresh`: HttpOnly, SameSite=Lax, Path=/oauth/token (docs/protocol.md#the-sign-in-provider), Secure when the issuer is https. */
function refreshCookie(provider: SignInProvider, value: string | null): string {
  const secure = provider.issuer.startsWith('https:') ? '; Secure' : '';
  const life = value === null ? 0 : Math.floor(REFRESH_TOKEN_MS / 1000);
  return `${REFRESH_COOKIE}=${value ?? ''}; HttpOnly; SameSite=Lax; Path=/oauth/token; Max-Age=${life}${secure}`;
}

export const clearRefreshCookie = (provider: SignInProvider) => refreshCookie(provider, null);

/**
 * POST /oauth/token with the three grants of docs/protocol.md#the-sign-in-provider. Errors are RFC 6749 5.2 bodies
 * {error, error_description} with 400; the refresh token travels in the cookie only.
 */
export async function tokenGrant(provider: SignInProvider, fields: Map<string, string>, cookie: string | undefined): Promise<TokenAnswer> {
  // docs/protocol.md#the-sign-in-provider: without its sign-in support the gate mints nothing.
  if (installedJose === null) return { status: 503, body: { error: 'server_error', error_description: SIGN_IN_SUPPORT_MISSING }, cookies: [] };
  const grant = fields.get('grant_type');
  if (grant === undefined) return refused('invalid_request', 'grant_type is required');
  if (grant === 'authorization_code') return codeGrant(provider, fields);
  if (grant === 'refresh_token') return refreshGrant(provider, fields, cookie);
  if (grant === TOKEN_EXCHANGE_GRANT) {
    if (provider.answerOrigin === null) return refused('unsupported_grant_type', 'token exchange is off: no answer origin is configured');
    return exchangeGrant(provider, fields, provider.answerOrigin);
  }
  return refused('unsupported_grant_type', `grant_type ${grant} is not served`);
}

function subjectOf(provider: SignInProvider, sub: string, sid: string, scope: string, clientId: string): TokenSubject | undefined {
  const person = provider.house.auth.people.localBySubject(sub);
  if (person === undefined) return undefined;
  return { sub, sid, scope, clientId, email: person.email, ...(person.name === undefined ? {} : { name: person.name }) };
}

async function tokenSet(provider: SignInProvider, subject: TokenSubject, authTime: number, nonce: string | undefined, refreshToken: string): Promise<TokenAnswer> {
  return {
    status: 200,
    body: {
      access_token: await provider.minter.accessToken(subject),
      id_token: await provider.minter.idToken(subject, authTime, nonce),
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
    },
    cookies: [refreshCookie(provider, refreshToken)],
  };
}

async function codeGrant(provider: SignInProvider, fields: Map<string, string>): Promise<TokenAnswer> {
  for (const name of ['code', 'code_verifier', 'client_id', 'redirect_uri']) {
    if (!fields.get(name)) return refused('invalid_request', `${name} is required`);
  }
  const verifier = fields.get('code_verifier')!;
  if (!VERIFIER_SHAPE.test(verifier)) return refused('invalid_request', 'code_verifier must be 43-128 characters of A-Z a-z 0-9 - . _ ~');
  const code = fields.get('code')!;
  const redeemed = provider.codes.redeem(code, { verifier, clientId: fields.get('client_id')!, redirectUri: fields.get('redirect_uri')! });
  if (!redeemed.ok) {
    // A code presented twice may be in a thief's hands: the session it started ends (RFC 6749 4.1.2).
    if (redeemed.family !== undefined) await provider.house.auth.signinSessions.end(redeemed.family, 'code_reuse');
    return refused('invalid_grant', redeemed.why);
  }
  const g = redeemed.grant;
  const person = provider.house.auth.people.localBySubject(g.sub);
  if (person === undefined) return refused('invalid_grant', 'the person was removed');
  // The session is the person's under the identity they keep, whatever the issuer's URL is now.
  const session = await provider.house.auth.signinSessions.start({ iss: person.iss, sub: g.sub, clientId: g.clientId, scope: g.scope, authTime: g.authTime });
  provider.codes.started(code, session.family);
  return tokenSet(provider, subjectOf(provider, g.sub, session.family, g.scope, g.clientId)!, g.authTime, g.nonce, session.refreshToken);
}

async function refreshGrant(provider: SignInProvider, fields: Map<string, string>, cookie: string | undefined): Promise<TokenAnswer> {
  const presented = fields.get('refresh_token') || cookie || undefined;
  if (presented === undefined) return { status: 200, body: { session: false }, cookies: [] };
  const fromCookie = fields.get('refresh_token') === undefined;
  const clear = fromCookie ? [clearRefreshCookie(provider)] : [];
  if (!REFRESH_TOKEN_SHAPE.test(presented)) return refused('invalid_grant', 'the refresh token is not one this gate issued', clear);
  const rotation = await provider.house.auth.signinSessions.rotate(presented, fields.get('client_id'));
  if (!rotation.ok) return refused('invalid_grant', rotation.why, clear);
  const s = rotation.session;
  const subject = subjectOf(provider, s.sub, s.family, s.scope, s.client_id);
  if (subject === undefined) {
    await provider.house.auth.signinSessions.end(s.family, 'person_removed');
    return refused('invalid_grant', 'the person was removed', clear);
  }
  return tokenSet(provider, subject, s.auth_time, undefined, rotation.refreshToken);
}

async function exchangeGrant(provider: SignInProvider, fields: Map<string, string>, answerOrigin: string): Promise<TokenAnswer> {
  if (fields.has('audience')) return refused('invalid_target', 'audience is not accepted; name the answer origin as resource');
  if (fields.has('actor_token') || fields.has('actor_token_type')) return refused('invalid_request', 'actor_token is not accepted: no delegation');
  const subjectToken = fields.get('subject_token');
  if (!subjectToken) return refused('invalid_request', 'subject_token is required');
  if (fields.get('subject_token_type') !== ACCESS_TOKEN_TYPE) return refused('invalid_request', `subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
  const requested = fields.get('requested_token_type');
  if (requested !== undefined && requested !== ACCESS_TOKEN_TYPE) return refused('invalid_request', `requested_token_type must be ${ACCESS_TOKEN_TYPE}`);
  const resource = fields.get('resource');
  if (resource === undefined) return refused('invalid_target', 'resource is required: the configured answer origin');
  if (resource !== answerOrigin) return refused('invalid_target', 'resource is not the configured answer origin');
  if (subjectToken.startsWith('gk_')) return refused('invalid_grant', 'an API key is not accepted as subject token');
  let sub: string;
  let scope: string;
  let clientId: string;
  try {
    const verified = await provider.ownTokens.verify(subjectToken);
    sub = verified.sub;
    scope = typeof verified.claims['scope'] === 'string' ? verified.claims['scope'] : 'openid';
    clientId = typeof verified.claims['client_id'] === 'string' ? verified.claims['client_id'] : provider.clientId;
  } catch (error) {
    return refused('invalid_grant', `subject_token is not this console's unexpired access token (${error instanceof Error ? error.message : 'unusable'})`);
  }
  const subject = subjectOf(provider, sub, '', scope, clientId);
  if (subject === undefined) return refused('invalid_grant', 'the person was removed');
  return {
    status: 200,
    body: {
      access_token: await provider.minter.answerTicket(subject, answerOrigin),
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: 'Bearer',
      expires_in: ANSWER_TICKET_SECONDS,
    },
    cookies: [],
  };
}
