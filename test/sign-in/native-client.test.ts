import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { CLIENT_ID, authorizeCode, authorizeFields, form, pkcePair } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * The command line's client `gate-cli` (RFC 8252 7.3): loopback IP literal redirects at any
 * port to /callback, nothing else; the console's client never gets one; the code stays
 * bound to the client; the tokens /rpc accepts.
 */
const { gate: server } = useGate({ kind: 'in-process' });

const email = 'native-client@example.test';
const password = 'a password for the native client';
const NATIVE = 'gate-cli';

beforeAll(async () => {
  expect((await server.socket('gv.person_add', { email, password, role: 'reviewer' })).error).toBeUndefined();
});

const nativeFields = (challenge: string, redirect: string) => authorizeFields(server, challenge, { client_id: NATIVE, redirect_uri: redirect });
const page = (fields: Record<string, string>) => server.http('GET', `/oauth/authorize?${new URLSearchParams(fields)}`);

describe('gate-cli redirects', () => {
  it('takes http://127.0.0.1:<any port>/callback and http://[::1]:<any port>/callback', async () => {
    const { challenge } = pkcePair();
    for (const redirect of ['http://127.0.0.1:1/callback', 'http://127.0.0.1:54321/callback', 'http://127.0.0.1:65535/callback', 'http://[::1]:8080/callback']) {
      const res = await page(nativeFields(challenge, redirect));
      expect(res.status, redirect).toBe(200);
      // The browser may follow the form's redirect there: the page's form-action names that origin.
      expect(res.headers.get('content-security-policy')).toContain(new URL(redirect).origin);
    }
  });

  it('refuses every other spelling, on the page and never redirected', async () => {
    const { challenge } = pkcePair();
    for (const redirect of [
      'http://localhost:54321/callback',
      'http://127.1:54321/callback',
      'http://127.0.0.2:54321/callback',
      'http://127.0.0.1/callback',
      'http://127.0.0.1:0/callback',
      'http://127.0.0.1:65536/callback',
      'http://127.0.0.1:054321/callback',
      'https://127.0.0.1:54321/callback',
      'http://127.0.0.1:54321/callback/',
      'http://127.0.0.1:54321/other',
      'http://127.0.0.1:54321/callback?next=x',
      'http://127.0.0.1:54321/callback#x',
      'http://user@127.0.0.1:54321/callback',
      'http://127.0.0.1.:54321/callback',
      'http://127.0.0.1:54321/%63allback',
      `${server.url}/app`,
    ]) {
      const res = await page(nativeFields(challenge, redirect));
      expect(res.status, redirect).toBe(400);
      expect(res.text).toContain('redirect_uri is not allowed');
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it("the console's client never gets a loopback redirect; an unknown client is refused", async () => {
    const { challenge } = pkcePair();
    const consoleLoopback = await page(authorizeFields(server, challenge, { redirect_uri: 'http://127.0.0.1:54321/callback' }));
    expect(consoleLoopback.status).toBe(400);
    const unknown = await page(authorizeFields(server, challenge, { client_id: 'gate-cli2', redirect_uri: 'http://127.0.0.1:54321/callback' }));
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('is not a client of this gate');
  });
});

describe('gate-cli codes and tokens', () => {
  const redirect = 'http://127.0.0.1:40404/callback';

  it('a code issued to gate-cli is redeemed by gate-cli with its verifier; the token serves /rpc as the person', async () => {
    const { verifier, challenge } = pkcePair();
    const fields = nativeFields(challenge, redirect);
    const code = await authorizeCode(server, fields, email, password);
    const res = await server.http('POST', '/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: NATIVE, redirect_uri: redirect }));
    expect(res.status).toBe(200);
    const access = decodeJwt(res.json.access_token);
    expect(access.aud).toBe(CLIENT_ID);
    expect(access['client_id']).toBe(NATIVE);
    const id = decodeJwt(res.json.id_token);
    expect(id.aud).toBe(NATIVE);
    expect(id['azp']).toBe(NATIVE);
    const described = await server.rpc(res.json.access_token, 'gv.describe');
    expect(described.result.you).toMatchObject({ kind: 'person', role: 'reviewer' });
  });

  it("a gate-cli code is not the console's, and a code is not redeemed without its verifier", async () => {
    const first = pkcePair();
    const code = await authorizeCode(server, nativeFields(first.challenge, redirect), email, password);
    const asConsole = await server.http('POST', '/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: first.verifier, client_id: CLIENT_ID, redirect_uri: redirect }));
    expect(asConsole.status).toBe(400);
    expect(asConsole.json.error_description).toContain('another client_id');
    const second = pkcePair();
    const code2 = await authorizeCode(server, nativeFields(second.challenge, redirect), email, password);
    const wrongVerifier = await server.http('POST', '/oauth/token', form({ grant_type: 'authorization_code', code: code2, code_verifier: first.verifier, client_id: NATIVE, redirect_uri: redirect }));
    expect(wrongVerifier.status).toBe(400);
    expect(wrongVerifier.json.error_description).toContain('code_verifier');
  });
});
