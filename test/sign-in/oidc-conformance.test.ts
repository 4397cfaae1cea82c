import { beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { form } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * The sign-in provider against a maintained relying-party library (openid-client 6 on
 * oauth4webapi), with its non-repudiation checks on: discovery, the PKCE code flow, the ID
 * token's signature checked against jwks_uri, two refreshes and a token exchange. None of
 * the client side is ours: the test only plays the person at the sign-in form.
 */
const ANSWER_ORIGIN = 'https://answers.example.test';
const email = 'oidc@example.test';
const password = 'openid-client signs in here';

let config: client.Configuration;
/** The browser's cookie jar for /oauth/token: the gate sends the refresh token only as a cookie. */
let refreshCookie: string | undefined;

const { gate } = useGate({ kind: 'in-process', env: { GATE_AUTH_ANSWER_ORIGIN: ANSWER_ORIGIN } });
beforeAll(async () => {
  expect((await gate.socket('gv.person_add', { email, password, role: 'reviewer', name: 'Oidc Person' })).error).toBeUndefined();
});

describe('openid-client 6 against the gate as its own OpenID provider', () => {
  it('discovers the provider (the issuer must match exactly); EdDSA for ID tokens comes from discovery alone', async () => {
    config = await client.discovery(new URL(gate.url), 'gate-console', undefined, client.None(), {
      execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
    });
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(gate.url);
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['EdDSA']);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['none']);
    expect(metadata.supportsPKCE()).toBe(true);
    config[client.customFetch] = async (url, options) => {
      const res = await fetch(url, options);
      for (const cookie of res.headers.getSetCookie()) {
        const m = /^gate_refresh=([^;]*)/.exec(cookie);
        if (m) refreshCookie = m[1] === '' ? undefined : m[1];
      }
      return res;
    };
  });

  let accessToken: string;
  let sub: string;

  it('completes the authorization code flow with PKCE; the ID token verifies against jwks_uri', async () => {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const authorizeUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: `${gate.url}/app`,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    // The person at the sign-in page.
    const page = await gate.http('GET', `${authorizeUrl.pathname}${authorizeUrl.search}`);
    expect(page.status).toBe(200);
    const posted = await gate.http('POST', '/oauth/authorize', form({ ...Object.fromEntries(authorizeUrl.searchParams), email, password }));
    expect(posted.status).toBe(303);
    const tokens = await client.authorizationCodeGrant(config, new URL(posted.headers.get('location')!), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(gate.url);
    expect(claims.aud).toBe('gate-console');
    expect(claims.email).toBe(email);
    expect(claims.name).toBe('Oidc Person');
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(refreshCookie).toMatch(/^grt_/);
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const verified = await jwtVerify(tokens.id_token!, jwks, { issuer: gate.url, audience: 'gate-console', algorithms: ['EdDSA'] });
    expect(verified.protectedHeader.kid).toBe(gate.deploymentId);
    accessToken = tokens.access_token;
    sub = claims.sub;
    expect((await gate.rpc(accessToken, 'gv.describe')).result.you).toMatchObject({ identity: `${gate.url}|${sub}`, role: 'reviewer', kind: 'person' });
  });

  it('refreshes twice, each time with a rotated refresh token and a valid ID token for the same subject', async () => {
    const seen = new Set<string>([refreshCookie!]);
    for (let i = 0; i < 2; i++) {
      const tokens = await client.refreshTokenGrant(config, refreshCookie!);
      expect(tokens.claims()!.sub).toBe(sub);
      expect(seen.has(refreshCookie!)).toBe(false);
      seen.add(refreshCookie!);
      expect((await gate.rpc(tokens.access_token, 'gv.ping')).result.pong).toBe(true);
      accessToken = tokens.access_token;
    }
  });

  it('exchanges the access token for an answer-origin ticket', async () => {
    const ticket = await client.genericGrantRequest(config, 'urn:ietf:params:oauth:grant-type:token-exchange', {
      subject_token: accessToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      resource: ANSWER_ORIGIN,
    });
    expect(ticket.issued_token_type).toBe('urn:ietf:params:oauth:token-type:access_token');
    expect(ticket.expires_in).toBe(300);
    const refused = await gate.http('POST', '/rpc', { key: ticket.access_token, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } });
    expect(refused.status).toBe(401);
    expect(refused.json.kind).toBe('audience');
  });
});
