import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { InProcessServer } from '../harness/in-process-server.js';
import { form, signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const ANSWER_ORIGIN = 'https://answers.example.test';
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS = 'urn:ietf:params:oauth:token-type:access_token';

const { gate: server } = useGate({ kind: 'in-process', settings: { 'auth.answer_origin': ANSWER_ORIGIN } });

let person: SignedInPerson;

beforeAll(async () => {
  person = await signIn(server, { role: 'agent' });
});

const exchange = (extra: Record<string, string> = {}) =>
  server.http(
    'POST',
    '/oauth/token',
    form({ grant_type: EXCHANGE, subject_token: person.accessToken, subject_token_type: ACCESS, requested_token_type: ACCESS, resource: ANSWER_ORIGIN, ...extra }),
  );

describe('token exchange: a five-minute ticket for the configured answer origin', () => {
  it('answers {access_token, issued_token_type, token_type Bearer, expires_in 300}; the ticket is for the answer origin', async () => {
    const res = await exchange();
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ access_token: expect.any(String), issued_token_type: ACCESS, token_type: 'Bearer', expires_in: 300 });
    const claims = decodeJwt(res.json.access_token);
    expect(claims).toMatchObject({ iss: server.url, sub: person.sub, aud: ANSWER_ORIGIN });
    expect(claims.exp! - claims.iat!).toBe(300);
  });

  it('/rpc refuses the ticket: 401 audience', async () => {
    const ticket = (await exchange()).json.access_token;
    const res = await server.http('POST', '/rpc', { key: ticket, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } });
    expect(res.status).toBe(401);
    expect(res.json.kind).toBe('audience');
  });

  it('an audience field is invalid_target; an actor_token invalid_request', async () => {
    expect((await exchange({ audience: ANSWER_ORIGIN })).json.error).toBe('invalid_target');
    expect((await exchange({ actor_token: person.accessToken, actor_token_type: ACCESS })).json.error).toBe('invalid_request');
  });

  it('resource must be exactly the answer origin', async () => {
    expect((await exchange({ resource: 'https://elsewhere.example.test' })).json.error).toBe('invalid_target');
    expect((await exchange({ resource: `${ANSWER_ORIGIN}/` })).json.error).toBe('invalid_target');
    const fields = { grant_type: EXCHANGE, subject_token: person.accessToken, subject_token_type: ACCESS };
    expect((await server.http('POST', '/oauth/token', form(fields))).json.error).toBe('invalid_target');
  });

  it('the subject token must be the console access token: an API key, a ticket or a wrong type are refused', async () => {
    const key = await server.socket('gv.keys', { action: 'issue', role: 'agent' });
    expect((await exchange({ subject_token: key.result.key })).json).toEqual({ error: 'invalid_grant', error_description: 'an API key is not accepted as subject token' });
    const ticket = (await exchange()).json.access_token;
    expect((await exchange({ subject_token: ticket })).json.error).toBe('invalid_grant');
    expect((await exchange({ subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' })).json.error).toBe('invalid_request');
    expect((await exchange({ requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' })).json.error).toBe('invalid_request');
  });

  it('an expired subject token is refused (injected clock)', async () => {
    const p = await signIn(server, { role: 'reader' });
    server.clock.advance(3_600_000 + 61_000);
    const res = await server.http('POST', '/oauth/token', form({ grant_type: EXCHANGE, subject_token: p.accessToken, subject_token_type: ACCESS, resource: ANSWER_ORIGIN }));
    expect(res.json.error).toBe('invalid_grant');
    expect(res.json.error_description).toMatch(/expired/);
  });
});

describe('token exchange without an answer origin', () => {
  it('is unsupported_grant_type', async () => {
    const plain = await InProcessServer.start();
    try {
      const p = await signIn(plain, { role: 'reader' });
      const res = await plain.http('POST', '/oauth/token', form({ grant_type: EXCHANGE, subject_token: p.accessToken, subject_token_type: ACCESS, resource: ANSWER_ORIGIN }));
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('unsupported_grant_type');
      expect((await plain.http('GET', '/.well-known/openid-configuration')).json.grant_types_supported).not.toContain(EXCHANGE);
    } finally {
      await plain.stop();
    }
  });
});
