// Signing in: the authorization code flow with PKCE (S256) against this gate. The access
// token lives in this module's memory only; the refresh token is an HttpOnly cookie the
// script never sees, so a reload resumes through /oauth/token and nothing is stored.
// (sessionStorage keeps only the PKCE verifier and state across the provider's page.)

export interface Identity {
  deployment_id: string;
  auth: { issuer: string | null; client_id: string };
}

export interface Tokens {
  access_token: string;
  id_token?: string;
}

/**
 * Where the person signs in: this gate's own provider, on the page's origin, by default. The
 * organization's console signs its people in at an issuer of another origin (signInAt): its
 * token endpoint is called cross-origin with no cookie, so no refresh token is kept for the
 * page and a reload means signing in again.
 */
interface Provider {
  authorize: string;
  token: string;
  credentials: RequestCredentials;
  resumesFromCookie: boolean;
}

let provider: Provider = { authorize: '/oauth/authorize', token: '/oauth/token', credentials: 'same-origin', resumesFromCookie: true };
let accessToken: string | null = null;
let clientId = '';
const redirectUri = () => `${location.origin}/app`;

/** Sign in at another issuer (its discovery's endpoints) as `client`: the organization's console. */
export function signInAt(endpoints: { authorization_endpoint: string; token_endpoint: string }, client: string): void {
  provider = { authorize: endpoints.authorization_endpoint, token: endpoints.token_endpoint, credentials: 'omit', resumesFromCookie: false };
  clientId = client;
}

export const bearer = () => accessToken;

const base64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const randomText = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

/** The token endpoint's refusal (RFC 6749 5.2), kept with its error code. */
class TokenRefusal extends Error {
  constructor(
    message: string,
    readonly error: string | undefined,
  ) {
    super(message);
  }
}

async function token(fields: Record<string, string>): Promise<Tokens & { session?: false }> {
  const res = await fetch(provider.token, {
    method: 'POST',
    credentials: provider.credentials,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, ...fields }),
  });
  const body = await res.json();
  if (!res.ok) throw new TokenRefusal(body.error_description ?? body.error ?? `the token endpoint answered ${res.status}`, body.error);
  return body;
}

export async function loadIdentity(): Promise<Identity> {
  const identity = (await (await fetch('/identity')).json()) as Identity;
  clientId = identity.auth.client_id;
  return identity;
}

export async function signIn(): Promise<void> {
  const verifier = randomText();
  const state = randomText();
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem('gate.pkce', JSON.stringify({ verifier, state, back: location.hash }));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri(),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'openid email profile',
  });
  location.assign(`${provider.authorize}?${query}`);
}

export async function signOut(): Promise<void> {
  await fetch('/oauth/logout', { method: 'POST', credentials: 'same-origin', headers: { authorization: `Bearer ${accessToken}` } });
  accessToken = null;
}

/** Forgets the token (a 401): the next screen is the sign-in. */
export function dropSession(): void {
  accessToken = null;
}

/** Back from the provider with ?code&state: exchange the code; else resume from the cookie. Null: nobody signed in. */
export async function resume(): Promise<Tokens | null> {
  const query = new URLSearchParams(location.search);
  let tokens: (Tokens & { session?: false }) | null;
  if (query.has('code')) {
    const saved = JSON.parse(sessionStorage.getItem('gate.pkce') ?? 'null') as { verifier: string; state: string; back?: string } | null;
    sessionStorage.removeItem('gate.pkce');
    history.replaceState(null, '', `/app${saved?.back ?? ''}`);
    if (saved === null || saved.state !== query.get('state')) throw new Error('the sign-in answer does not match a sign-in this page started');
    tokens = await token({ grant_type: 'authorization_code', code: query.get('code')!, code_verifier: saved.verifier, redirect_uri: redirectUri() });
  } else {
    tokens = provider.resumesFromCookie ? await refreshed() : null;
  }
  accessToken = tokens?.access_token ?? null;
  return tokens;
}

/**
 * The session the gate_refresh cookie resumes, or null. A cookie the gate refuses (a session
 * ended elsewhere, or a value it never issued) is no session: the gate clears it, and the
 * person is shown the sign-in rather than a dead end.
 */
async function refreshed(): Promise<Tokens | null> {
  try {
    const resumed = await token({ grant_type: 'refresh_token' });
    return resumed.session === false ? null : resumed;
  } catch (e) {
    if (e instanceof TokenRefusal && e.error === 'invalid_grant') return null;
    throw e;
  }
}

/** The ID token's claims, for saying who this is; it came straight from the token endpoint. */
export function claimsOf(idToken: string | undefined): { email?: string; name?: string } {
  if (idToken === undefined) return {};
  const payload = idToken.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0))));
}
