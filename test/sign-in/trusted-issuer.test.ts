import { beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/** Nothing listens on port 1: an issuer there cannot be reached. */
const UNREACHABLE = 'http://127.0.0.1:1';

// A second gate on loopback plays the external issuer; its people sign in there.
const { gate: external } = useGate({ kind: 'in-process' });
const { gate: untrusted } = useGate({ kind: 'in-process' });
let admin: SignedInPerson;
let plain: SignedInPerson;

beforeAll(async () => {
  admin = await signIn(external, { role: 'reader' });
  plain = await signIn(external, { role: 'admin' });
});
const { gate } = useGate({
  kind: 'in-process',
  // No issuer of its own: it trusts the external one only.
  settings: { 'auth.issuer': '' },
  env: () => ({
    GATE_AUTH_TRUSTED_ISSUERS: JSON.stringify([external.url, UNREACHABLE]),
    GATE_AUTH_ADMINS: `${external.url}|${admin.sub}`,
  }),
});

const status = async (token: string) => {
  const res = await gate.http('POST', '/rpc', { key: token, body: { jsonrpc: '2.0', id: 1, method: 'gv.describe' } });
  return { status: res.status, body: res.json };
};

describe('tokens of a trusted external issuer, verified against its published keys', () => {
  it('are accepted and mapped by iss and sub: [auth].admins makes one admin, the other is reader whatever it is at home', async () => {
    const a = await status(admin.accessToken);
    expect(a.status).toBe(200);
    expect(a.body.result.you).toEqual({ identity: `${external.url}|${admin.sub}`, role: 'admin', kind: 'person', demo: false });
    const p = await status(plain.accessToken);
    expect(p.body.result.you).toMatchObject({ identity: `${external.url}|${plain.sub}`, role: 'reader', kind: 'person' });
  });

  it('take the role and demo flag the people table gives them by iss and sub', async () => {
    const assigned = await gate.socket('gv.people', { action: 'assign', iss: external.url, sub: plain.sub, role: 'agent', demo: true });
    expect(assigned.error).toBeUndefined();
    expect((await status(plain.accessToken)).body.result.you).toMatchObject({ role: 'agent', demo: true });
  });

  it('a gate with no issuer of its own answers the provider routes 404 with the error body', async () => {
    for (const [method, path] of [['GET', '/.well-known/openid-configuration'], ['GET', '/oauth/jwks'], ['GET', '/oauth/authorize'], ['POST', '/oauth/authorize'], ['POST', '/oauth/token'], ['POST', '/oauth/logout']] as const) {
      const res = await gate.http(method, path);
      expect(res.status, path).toBe(404);
      expect(res.json.error, path).toMatch(/not a sign-in provider/);
    }
  });

  it('a token from an issuer not listed is 401 issuer', async () => {
    const stranger = await signIn(untrusted, { role: 'admin' });
    const res = await status(stranger.accessToken);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.stringMatching(/^issuer: /), kind: 'issuer' });
  });

  it("a listed issuer whose keys cannot be read is 401 unavailable", async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const token = await new SignJWT({ sub: 'someone' })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
      .setIssuer(UNREACHABLE)
      .setAudience('gate-console')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const res = await status(token);
    expect(res.status).toBe(401);
    expect(res.body.kind).toBe('unavailable');
  });

  it('a token signed by another key under the trusted issuer name is 401 signature', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = await new SignJWT({ sub: admin.sub })
      .setProtectedHeader({ alg: 'EdDSA', kid: external.deploymentId, typ: 'at+jwt' })
      .setIssuer(external.url)
      .setAudience('gate-console')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const res = await status(forged);
    expect(res.status).toBe(401);
    expect(res.body.kind).toBe('signature');
  });

  it('keys once read keep verifying while the issuer is down (cached)', async () => {
    await external.stop();
    const res = await status(admin.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.result.you.role).toBe('admin');
  });
});
