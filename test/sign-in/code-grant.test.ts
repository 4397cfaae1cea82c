import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { CLIENT_ID, authorizeCode, authorizeFields, form, pkcePair, refreshCookieOf } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process' });

const email = 'code-grant@example.test';
const password = 'a password for the code tests';

beforeAll(async () => {
  expect((await server.socket('gv.person_add', { email, password, role: 'agent' })).error).toBeUndefined();
});

/** A fresh code with its verifier and the fields it was asked for. */
async function freshCode(extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkcePair();
  const fields = authorizeFields(server, challenge, extra);
  const code = await authorizeCode(server, fields, email, password);
  return { code, verifier, fields };
}

const exchange = (fields: Record<string, string>) => server.http('POST', '/oauth/token', form(fields));
const codeFields = (c: { code: string; verifier: string; fields: Record<string, string> }) => ({
  grant_type: 'authorization_code',
  code: c.code,
  code_verifier: c.verifier,
  client_id: CLIENT_ID,
  redirect_uri: c.fields['redirect_uri']!,
});

describe('POST /oauth/token, grant authorization_code', () => {
  it('answers {access_token, id_token, token_type Bearer, expires_in 3600} and the refresh token only in the cookie', async () => {
    const res = await exchange(codeFields(await freshCode()));
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['access_token', 'expires_in', 'id_token', 'token_type']);
    expect(res.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^gate_refresh=grt_[A-Za-z0-9_-]{43}; /);
    const attributes = cookie!.split('; ').slice(1);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/oauth/token', `Max-Age=${30 * 86400}`]));
    expect(attributes).not.toContain('Secure'); // an http issuer on loopback; an https issuer adds it
  });

  it('the access token is an EdDSA JWT by the deployment key: iss this issuer, aud the client id, one hour, typ at+jwt', async () => {
    const res = await exchange(codeFields(await freshCode()));
    const header = decodeProtectedHeader(res.json.access_token);
    expect(header).toEqual({ alg: 'EdDSA', typ: 'at+jwt', kid: server.gate.deployment.deploymentId });
    const claims = decodeJwt(res.json.access_token);
    expect(claims).toMatchObject({ iss: server.url, aud: CLIENT_ID, client_id: CLIENT_ID });
    expect(claims.exp! - claims.iat!).toBe(3600);
    const id = decodeJwt(res.json.id_token);
    expect(id).toMatchObject({ iss: server.url, aud: CLIENT_ID, sub: claims.sub, email });
  });

  it('a nonce given to authorize comes back in the ID token', async () => {
    const res = await exchange(codeFields(await freshCode({ nonce: 'n-0S6_WzA2Mj' })));
    expect(decodeJwt(res.json.id_token).nonce).toBe('n-0S6_WzA2Mj');
  });

  it('a code is single-use: the second exchange is invalid_grant and ends the session the first one started', async () => {
    const c = await freshCode();
    const first = await exchange(codeFields(c));
    expect(first.status).toBe(200);
    const again = await exchange(codeFields(c));
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ error: 'invalid_grant', error_description: 'the code was already used' });
    const refresh = await exchange({ grant_type: 'refresh_token', refresh_token: refreshCookieOf(first.headers)! });
    expect(refresh.json.error).toBe('invalid_grant');
    expect(server.journal('signin-ended').map((e) => e.data['reason'])).toContain('code_reuse');
  });

  it('a code lasts one minute (injected clock)', async () => {
    const c = await freshCode();
    server.clock.advance(60_001);
    const res = await exchange(codeFields(c));
    expect(res.json).toEqual({ error: 'invalid_grant', error_description: 'the code has expired (codes last one minute)' });
  });

  it('a code used just inside its minute works', async () => {
    const c = await freshCode();
    server.clock.advance(59_000);
    expect((await exchange(codeFields(c))).status).toBe(200);
  });

  it('PKCE: a verifier that does not hash to the challenge is invalid_grant, and spends the code', async () => {
    const c = await freshCode();
    const wrong = await exchange({ ...codeFields(c), code_verifier: pkcePair().verifier });
    expect(wrong.json).toEqual({ error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge' });
    expect((await exchange(codeFields(c))).json.error).toBe('invalid_grant');
  });

  it('the code is bound to the client id and the redirect_uri', async () => {
    const a = await freshCode();
    expect((await exchange({ ...codeFields(a), client_id: 'another-client' })).json.error_description).toBe('the code was issued to another client_id');
    const b = await freshCode();
    expect((await exchange({ ...codeFields(b), redirect_uri: `${server.url}/app/other` })).json.error_description).toBe(
      'redirect_uri differs from the one the code was issued for',
    );
  });

  it('missing fields, a malformed verifier, a body that is not a form: invalid_request', async () => {
    const c = await freshCode();
    for (const field of ['code', 'code_verifier', 'client_id', 'redirect_uri']) {
      const fields: Record<string, string> = codeFields(c);
      delete fields[field];
      expect((await exchange(fields)).json).toEqual({ error: 'invalid_request', error_description: `${field} is required` });
    }
    expect((await exchange({ ...codeFields(c), code_verifier: 'short' })).json.error).toBe('invalid_request');
    const json = await server.http('POST', '/oauth/token', { body: codeFields(c) });
    expect(json.status).toBe(400);
    expect(json.json.error).toBe('invalid_request');
    const twice = await server.http('POST', '/oauth/token', { raw: 'grant_type=authorization_code&grant_type=refresh_token', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(twice.json).toEqual({ error: 'invalid_request', error_description: 'a field is given more than once' });
  });

  it('no grant_type is invalid_request; an unknown one unsupported_grant_type', async () => {
    expect((await exchange({})).json).toEqual({ error: 'invalid_request', error_description: 'grant_type is required' });
    expect((await exchange({ grant_type: 'password', username: email, password })).json.error).toBe('unsupported_grant_type');
    expect((await exchange({ grant_type: 'client_credentials' })).json.error).toBe('unsupported_grant_type');
  });

  it('code exchanges are journaled as sign-in sessions by the person', async () => {
    const before = server.journal('signin-started').length;
    await exchange(codeFields(await freshCode()));
    const started = server.journal('signin-started');
    expect(started.length).toBe(before + 1);
    expect(started.at(-1)!.data).toMatchObject({ iss: server.url, client_id: CLIENT_ID, token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(started)).not.toMatch(/grt_/);
  });
});
