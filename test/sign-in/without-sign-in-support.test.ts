import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../harness/gate-process.js';
import { CLIENT_ID, authorizeCode, authorizeFields, form, pkcePair, signIn } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/** `node --import` of a hook that resolves no `jose`: the gate runs as an install without its sign-in support would. */
const WITHOUT_JOSE = { NODE_OPTIONS: `--import ${pathToFileURL(join(ROOT, 'test', 'harness', 'without-jose.mjs')).href}` };

const { gate: bare } = useGate({ ownIssuer: true, env: WITHOUT_JOSE });
const { gate: whole } = useGate({ ownIssuer: true });

describe('a gate installed without its sign-in support', () => {
  it('starts, says so in its log, and serves API keys and the socket', async () => {
    expect((await bare.socket('gv.ping')).result.pong).toBe(true);
    const agent = await bare.key('agent');
    expect((await bare.rpc(agent.key, 'gv.describe')).result.you.identity).toBe(agent.identity);
    // The log reaches stderr through an asynchronous destination; the start is told on stdout, which may come first.
    await expect.poll(() => bare.stderr.join('\n'), { timeout: 30_000, interval: 20 }).toContain('installed without its sign-in support');
    expect(whole.stderr.join('\n')).not.toContain('installed without its sign-in support');
  });

  it('answers token minting 503 server_error, for every grant, after a sign-in that worked', async () => {
    const email = `nojose-${randomBytes(4).toString('hex')}@example.test`;
    const password = randomBytes(12).toString('base64url');
    expect((await bare.socket('gv.person_add', { email, password, role: 'reviewer' })).error).toBeUndefined();
    const { verifier, challenge } = pkcePair();
    const fields = authorizeFields(bare, challenge);
    // The password check and the code need no token library; only minting does.
    const code = await authorizeCode(bare, fields, email, password);
    const grants = [
      { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: CLIENT_ID, redirect_uri: fields['redirect_uri']! },
      { grant_type: 'refresh_token', refresh_token: `grt_${randomBytes(32).toString('base64url')}` },
      { grant_type: 'refresh_token' },
    ];
    for (const grant of grants) {
      const res = await bare.http('POST', '/oauth/token', form(grant));
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ error: 'server_error', error_description: expect.stringContaining('without its sign-in support') });
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it("refuses a JWT bearer (a person's token, an agent's assertion) 401 unsupported, where a whole gate takes it", async () => {
    const person = await signIn(whole, { role: 'reader' });
    expect((await whole.rpc(person.accessToken, 'gv.describe')).result.you.identity).toBe(person.identity);
    const res = await bare.http('POST', '/rpc', { key: person.accessToken, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: expect.stringMatching(/^unsupported: .*sign-in support/), kind: 'unsupported' });
  });
});
