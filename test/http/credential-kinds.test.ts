import { beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { form, signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const ANSWER_ORIGIN = 'https://answers.example.test';
const UNREACHABLE = 'http://127.0.0.1:1';

const { gate: server } = useGate({ kind: 'in-process', settings: { 'auth.answer_origin': ANSWER_ORIGIN, 'auth.trusted_issuers': [UNREACHABLE] } });

let person: SignedInPerson;

beforeAll(async () => {
  person = await signIn(server, { role: 'agent' });
});

async function kindOf(headers: Record<string, string>): Promise<{ status: number; body: any; challenge: string | null }> {
  const res = await server.http('POST', '/rpc', { headers, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } });
  return { status: res.status, body: res.json, challenge: res.headers.get('www-authenticate') };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const otherKey = () => generateKeyPairSync('ed25519').privateKey;
const jwt = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  new SignJWT({ sub: 'someone', ...claims })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', ...header })
    .setAudience('gate-console')
    .setIssuedAt(Math.floor(server.clock.now() / 1000))
    .setExpirationTime(Math.floor(server.clock.now() / 1000) + 300);

describe('every 401 kind on /rpc: {error: "<kind>: <why>", kind}', () => {
  const expectKind = (r: { status: number; body: any; challenge: string | null }, kind: string) => {
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: expect.stringMatching(new RegExp(`^${kind}: .+`)), kind });
    expect(r.challenge).toMatch(/^Bearer/);
  };

  it('missing: no Authorization header', async () => expectKind(await kindOf({}), 'missing'));

  it('malformed: not a bearer, neither key nor JWT, an undecodable JWT', async () => {
    expectKind(await kindOf({ authorization: 'Basic dXNlcjpwYXNz' }), 'malformed');
    expectKind(await kindOf(bearer('not-a-token')), 'malformed');
    expectKind(await kindOf(bearer('aaa.bbb.ccc')), 'malformed');
  });

  it('expired: a person token past its hour and the 60 s tolerance (injected clock)', async () => {
    const p = await signIn(server, { role: 'reader' });
    expect((await kindOf(bearer(p.accessToken))).status).toBe(200);
    server.clock.advance(3_600_000 + 30_000);
    expect((await kindOf(bearer(p.accessToken))).status).toBe(200);
    server.clock.advance(31_000);
    expectKind(await kindOf(bearer(p.accessToken)), 'expired');
  });

  it('issuer: a token from an issuer this gate neither is nor trusts', async () => {
    expectKind(await kindOf(bearer(await jwt({}).setIssuer('https://stranger.example').sign(otherKey()))), 'issuer');
  });

  it('audience: the answer ticket of token exchange', async () => {
    const fresh = await signIn(server, { role: 'reader' });
    const ticket = await server.http(
      'POST',
      '/oauth/token',
      form({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: fresh.accessToken,
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        resource: ANSWER_ORIGIN,
      }),
    );
    expectKind(await kindOf(bearer(ticket.json.access_token)), 'audience');
  });

  it('signature: a token of this issuer altered, or signed by another key; a key never issued', async () => {
    const fresh = await signIn(server, { role: 'reader' });
    const [h, p, s] = fresh.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, sub: person.sub })).toString('base64url');
    expectKind(await kindOf(bearer(`${h}.${altered}.${s}`)), 'signature');
    expectKind(await kindOf(bearer(await jwt({}).setIssuer(server.url).sign(otherKey()))), 'signature');
    expectKind(await kindOf(bearer(`gk_${'B'.repeat(43)}`)), 'signature');
  });

  it('unavailable: a trusted issuer whose keys cannot be read', async () => {
    expectKind(await kindOf(bearer(await jwt({}).setIssuer(UNREACHABLE).sign(otherKey()))), 'unavailable');
  });

  it('unsupported: a shared-secret algorithm, a token naming its own key, an ID token where an access token goes', async () => {
    const hs = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(server.url).setAudience('gate-console').setExpirationTime('5m').sign(new Uint8Array(32));
    expectKind(await kindOf(bearer(hs)), 'unsupported');
    const selfKeyed = await jwt({}, { jku: 'https://evil.example/jwks' }).setIssuer(server.url).sign(otherKey());
    expectKind(await kindOf(bearer(selfKeyed)), 'unsupported');
    const fresh = await signIn(server, { role: 'reader' });
    expectKind(await kindOf(bearer(fresh.idToken)), 'unsupported');
  });
});
