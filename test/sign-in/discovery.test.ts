import { describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { signIn } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });

describe('discovery and the key set', () => {
  it('the discovery document names the issuer, the endpoints and what a relying party needs', async () => {
    const res = await gate.http('GET', '/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      issuer: gate.url,
      authorization_endpoint: `${gate.url}/oauth/authorize`,
      token_endpoint: `${gate.url}/oauth/token`,
      revocation_endpoint: `${gate.url}/oauth/logout`,
      end_session_endpoint: `${gate.url}/oauth/logout`,
      jwks_uri: `${gate.url}/oauth/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['EdDSA'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
  });

  it('/oauth/jwks is one OKP Ed25519 key whose kid is the deployment id, and it verifies the tokens', async () => {
    const jwks = (await gate.http('GET', '/oauth/jwks')).json;
    expect(jwks.keys).toEqual([{ kty: 'OKP', crv: 'Ed25519', x: gate.deploymentId, kid: gate.deploymentId, alg: 'EdDSA', use: 'sig' }]);
    const person = await signIn(gate, { role: 'reader' });
    const keys = createLocalJWKSet(jwks);
    const access = await jwtVerify(person.accessToken, keys, { issuer: gate.url, audience: 'gate-console', typ: 'at+jwt' });
    expect(access.payload.sub).toBe(person.sub);
    const id = await jwtVerify(person.idToken, keys, { issuer: gate.url, audience: 'gate-console' });
    expect(id.payload.sub).toBe(person.sub);
  });

  it('/identity names this gate as issuer and its client id', async () => {
    const identity = (await gate.http('GET', '/identity')).json;
    expect(identity.auth).toMatchObject({ issuer: gate.url, client_id: 'gate-console', trusted_issuers: [], admins: [] });
  });
});
