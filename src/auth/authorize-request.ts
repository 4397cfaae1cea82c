import { CHALLENGE_SHAPE } from './authorization-codes.js';
import { SCOPES, type SignInProvider } from './sign-in-provider.js';
import { NATIVE_REDIRECT_PATH } from './native-client.js';

export interface AuthorizeRequest {
  response_type: 'code';
  client_id: string;
  redirect_uri: string;
  state: string;
  code_challenge: string;
  code_challenge_method: 'S256';
  scope: string;
  nonce?: string;
}

/** The fields of an authorize request, carried as hidden fields of the sign-in form. */
export const AUTHORIZE_FIELDS = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'scope', 'nonce'] as const;

const PRINTABLE = /^[\x20-\x7e]{1,512}$/;

/**
 * Checks an authorize request (query of GET, form of POST). A malformed one is said on the
 * page with 400 and never redirected: a redirect_uri is trusted only once it is known good.
 */
export function parseAuthorizeRequest(
  get: (name: string) => string | undefined,
  repeated: (name: string) => boolean,
  provider: SignInProvider,
): { ok: true; request: AuthorizeRequest } | { ok: false; why: string } {
  for (const name of AUTHORIZE_FIELDS) if (repeated(name)) return { ok: false, why: `${name} is given more than once` };
  for (const name of ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method'] as const) {
    if (get(name) === undefined || get(name) === '') return { ok: false, why: `${name} is required` };
  }
  const clientId = get('client_id')!;
  if (!provider.knowsClient(clientId)) return { ok: false, why: `client_id ${clientId} is not a client of this gate` };
  const redirectUri = get('redirect_uri')!;
  if (!provider.redirectAllowed(clientId, redirectUri)) {
    return {
      ok: false,
      why:
        clientId === provider.clientId
          ? "redirect_uri is not allowed: it must be this service's /app or a listed console origin's /app"
          : `redirect_uri is not allowed: the command line's is http://127.0.0.1:<port>${NATIVE_REDIRECT_PATH} or http://[::1]:<port>${NATIVE_REDIRECT_PATH}`,
    };
  }
  if (get('response_type') !== 'code') return { ok: false, why: 'response_type must be code' };
  if (get('code_challenge_method') !== 'S256') return { ok: false, why: 'code_challenge_method must be S256' };
  if (!CHALLENGE_SHAPE.test(get('code_challenge')!)) {
    return { ok: false, why: 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)' };
  }
  const state = get('state')!;
  if (!PRINTABLE.test(state)) return { ok: false, why: 'state must be 1-512 printable characters' };
  const nonce = get('nonce');
  if (nonce !== undefined && !PRINTABLE.test(nonce)) return { ok: false, why: 'nonce must be 1-512 printable characters' };
  const scopes = (get('scope') ?? 'openid').split(' ').filter((s) => s !== '');
  const unknown = scopes.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) return { ok: false, why: `scope ${unknown} is not offered (openid, email, profile)` };
  const scope = [...new Set(['openid', ...scopes])].join(' ');
  return {
    ok: true,
    request: {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      state,
      code_challenge: get('code_challenge')!,
      code_challenge_method: 'S256',
      scope,
      ...(nonce === undefined ? {} : { nonce }),
    },
  };
}
