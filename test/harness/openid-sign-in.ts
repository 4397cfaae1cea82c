import * as client from 'openid-client';
import { randomBytes } from 'node:crypto';
import type { GateProcess } from './gate-process.js';
import { CLIENT_ID, form } from './sign-in.js';

/**
 * A person signed in at an issuer by a maintained relying party (openid-client 6), as an
 * organization's console would sign its people in: discovery, the authorization code flow
 * with PKCE, the ID token checked against jwks_uri. The test only plays the person at the
 * issuer's sign-in form. The issuer here is a gate that is its own sign-in provider
 * (startGateWithIssuer), standing for the provider an organization trusts.
 */
export interface IssuedPerson {
  accessToken: string;
  iss: string;
  sub: string;
  /** `iss|sub`: who the person is at any gate that trusts the issuer. */
  identity: string;
}

let people = 0;

/** The person's role at the issuer is reader: what they may do elsewhere is that gate's own people table's to say. */
export async function signInWithOpenidClient(issuer: Pick<GateProcess, 'url' | 'socket' | 'http'>): Promise<IssuedPerson> {
  people += 1;
  const email = `org-person${people}-${randomBytes(4).toString('hex')}@example.test`;
  const password = randomBytes(12).toString('base64url');
  const added = await issuer.socket('gv.person_add', { email, password, role: 'reader' });
  if (added.error) throw new Error(`gv.person_add failed: ${added.error.message}`);
  const config = await client.discovery(new URL(issuer.url), CLIENT_ID, undefined, client.None(), {
    execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorizeUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: `${issuer.url}/app`,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const page = await issuer.http('GET', `${authorizeUrl.pathname}${authorizeUrl.search}`);
  if (page.status !== 200) throw new Error(`GET /oauth/authorize answered ${page.status}`);
  const posted = await issuer.http('POST', '/oauth/authorize', form({ ...Object.fromEntries(authorizeUrl.searchParams), email, password }));
  if (posted.status !== 303) throw new Error(`POST /oauth/authorize answered ${posted.status}`);
  const tokens = await client.authorizationCodeGrant(config, new URL(posted.headers.get('location')!), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  const { iss, sub } = tokens.claims()!;
  return { accessToken: tokens.access_token, iss, sub, identity: `${iss}|${sub}` };
}
