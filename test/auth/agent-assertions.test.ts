import { beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { AgentAssertions, GateClient, ToolClient, assertionKeyPair, mintAgentAssertion } from '@gate/client';
import { useGate } from '../harness/use-gate.js';

const { gate: server, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: { role: 'agent', label: 'asserting agent' } } });

let deploymentId: string;
let pair: { privateKey: KeyObject; publicKey: string };

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** A JWT put together by hand, so a test can send what no honest library would (a crit or jwk header, another alg). */
function handMade(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject = pair.privateKey): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
}
const nowS = () => Math.floor(server.clock.now() / 1000);
const claims = (extra: Record<string, unknown> = {}) => {
  const iat = nowS();
  return { iss: `key:${agent.keyId}`, sub: `key:${agent.keyId}`, aud: deploymentId, client_id: agent.keyId, iat, exp: iat + 300, jti: randomBytes(8).toString('hex'), ...extra };
};
const header = (extra: Record<string, unknown> = {}) => ({ alg: 'EdDSA', typ: 'at+jwt', kid: agent.keyId, ...extra });
const mint = (extra: Partial<Parameters<typeof mintAgentAssertion>[0]> = {}) =>
  mintAgentAssertion({ keyId: agent.keyId, privateKey: pair.privateKey, deploymentId, now: () => server.clock.now(), ...extra });

/** The 401 kind /rpc answers a bearer with, or 'accepted' with the identity it was taken as. */
async function rpcWith(token: string): Promise<string> {
  const res = await server.http('POST', '/rpc', { key: token, body: { jsonrpc: '2.0', id: 1, method: 'gv.describe' } });
  if (res.status === 401) {
    expect(res.json).toEqual({ error: expect.stringMatching(new RegExp(`^${res.json.kind}: `)), kind: res.json.kind });
    return res.json.kind;
  }
  expect(res.status).toBe(200);
  return `accepted as ${res.json.result.you.identity} (${res.json.result.you.role})`;
}
async function mcpWith(token: string): Promise<string> {
  const res = await server.http('POST', '/mcp', { key: token, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gate.pending', arguments: {} } } });
  if (res.status === 401) return res.json.kind;
  expect(res.status).toBe(200);
  expect(res.json.result.isError).toBe(false);
  return 'accepted';
}

beforeAll(async () => {
  deploymentId = (await server.socket('gv.ping')).result.deployment_id;
  pair = assertionKeyPair();
  const bound = await server.rpc(agent.key, 'gv.assertion_key', { public_key: pair.publicKey });
  expect(bound.result).toMatchObject({ key_id: agent.keyId, public_key: pair.publicKey, changed: true, assertion: { aud: deploymentId, max_lifetime_s: 300 } });
});

describe("an agent's own short-lived assertion (RFC 9068 at+jwt, EdDSA, at most 300 s)", () => {
  it('is accepted on /rpc and /mcp as the agent whose key it names', async () => {
    const token = await mint();
    expect(await rpcWith(token)).toBe(`accepted as key:${agent.keyId} (agent)`);
    expect(await mcpWith(token)).toBe('accepted');
    // What it writes is the agent's: its own key reads the row as self-authored.
    const res = await server.http('POST', '/mcp', {
      key: token,
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'gate.remember', arguments: { content: `asserted ${Date.now()}`, content_type: 'memory', source_uri: 'test://assert', workarea: 'assert' } } },
    });
    const id = res.json.result.structuredContent.artifact_id;
    expect((await server.rpc(agent.key, 'gv.node', { artifact_id: id })).result.self_authored).toBe(true);
  });

  it('lives at most 300 s, with 30 s of clock tolerance either side', async () => {
    expect(await rpcWith(handMade(header(), claims({ exp: nowS() + 301 })))).toBe('unsupported');
    const token = await mint();
    server.clock.advance(329_000);
    expect(await rpcWith(token)).toMatch(/^accepted/);
    server.clock.advance(2_000);
    expect(await rpcWith(token)).toBe('expired');
    expect(await rpcWith(handMade(header(), claims({ iat: nowS() + 29, exp: nowS() + 200 })))).toMatch(/^accepted/);
    expect(await rpcWith(handMade(header(), claims({ iat: nowS() + 45, exp: nowS() + 200 })))).toBe('expired');
  });

  it('refuses jku, x5u, crit and jwk headers, and anything but typ at+jwt signed EdDSA', async () => {
    for (const extra of [{ jku: 'https://evil.example/jwks' }, { x5u: 'https://evil.example/cert' }, { crit: ['exp'] }, { jwk: { kty: 'OKP', crv: 'Ed25519', x: pair.publicKey } }]) {
      expect(await rpcWith(handMade(header(extra), claims()))).toBe('unsupported');
    }
    expect(await rpcWith(handMade(header({ typ: 'JWT' }), claims()))).toBe('unsupported');
    const hs = `${b64({ alg: 'HS256', typ: 'at+jwt' })}.${b64(claims())}.${randomBytes(32).toString('base64url')}`;
    expect(await rpcWith(hs)).toBe('unsupported');
  });

  it('refuses another key, another audience, a wrong kid or client_id, and a key with nothing bound or revoked', async () => {
    expect(await rpcWith(handMade(header(), claims(), generateKeyPairSync('ed25519').privateKey))).toBe('signature');
    expect(await rpcWith(handMade(header(), claims({ aud: 'another-deployment' })))).toBe('audience');
    expect(await rpcWith(handMade(header({ kid: '0123456789ab' }), claims()))).toBe('malformed');
    expect(await rpcWith(handMade(header(), claims({ client_id: '0123456789ab' })))).toBe('malformed');
    expect(await rpcWith(handMade(header(), claims({ jti: undefined })))).toBe('malformed');

    const other = (await server.socket('gv.keys', { action: 'issue', role: 'agent' })).result;
    const unbound = await mintAgentAssertion({ keyId: other.key_id, privateKey: pair.privateKey, deploymentId, now: () => server.clock.now() });
    expect(await rpcWith(unbound)).toBe('signature');
    expect(await rpcWith(handMade(header({ kid: 'ffffffffffff' }), claims({ iss: 'key:ffffffffffff', sub: 'key:ffffffffffff', client_id: 'ffffffffffff' })))).toBe('signature');

    const otherPair = assertionKeyPair();
    await server.rpc(other.key, 'gv.assertion_key', { public_key: otherPair.publicKey });
    const token = await mintAgentAssertion({ keyId: other.key_id, privateKey: otherPair.privateKey, deploymentId, now: () => server.clock.now() });
    expect(await rpcWith(token)).toMatch(/^accepted/);
    await server.socket('gv.keys', { action: 'revoke', key_id: other.key_id, reason: 'test' });
    expect(await rpcWith(token)).toBe('signature');
    expect(await mcpWith(token)).toBe('signature');
  });

  it('a binding can be read, replaced and removed; the old key stops working from the next request', async () => {
    const extra = (await server.socket('gv.keys', { action: 'issue', role: 'agent' })).result;
    const first = assertionKeyPair();
    const second = assertionKeyPair();
    await server.rpc(extra.key, 'gv.assertion_key', { public_key: first.publicKey });
    const opts = { keyId: extra.key_id, deploymentId, now: () => server.clock.now() };
    const byFirst = await mintAgentAssertion({ ...opts, privateKey: first.privateKey });
    expect(await rpcWith(byFirst)).toMatch(/^accepted/);
    // Only the API key itself rebinds (test/auth/assertion-key-binding.test.ts); the same binding again changes nothing.
    expect((await server.rpc(extra.key, 'gv.assertion_key', { public_key: second.publicKey })).result).toMatchObject({ changed: true, public_key: second.publicKey });
    expect((await server.rpc(extra.key, 'gv.assertion_key', { public_key: second.publicKey })).result.changed).toBe(false);
    expect(await rpcWith(byFirst)).toBe('signature');
    expect(await rpcWith(await mintAgentAssertion({ ...opts, privateKey: second.privateKey }))).toMatch(/^accepted/);
    expect((await server.rpc(extra.key, 'gv.assertion_key', {})).result.public_key).toBe(second.publicKey);
    expect((await server.rpc(extra.key, 'gv.assertion_key', { remove: true })).result).toMatchObject({ public_key: null, changed: true });
    expect(await rpcWith(await mintAgentAssertion({ ...opts, privateKey: second.privateKey }))).toBe('signature');
  });

  it('gv.assertion_key is for an API key of role agent and up, with a real Ed25519 key', async () => {
    const socket = await server.socket('gv.assertion_key', { public_key: pair.publicKey });
    expect(socket.error).toMatchObject({ code: -32602, data: { reason: 'not_an_api_key' } });
    const reader = (await server.socket('gv.keys', { action: 'issue', role: 'reader' })).result.key;
    expect((await server.rpc(reader, 'gv.assertion_key', {})).error?.message).toContain('agent');
    expect((await server.rpc(agent.key, 'gv.assertion_key', { public_key: 'not a key' })).error?.data).toMatchObject({ field: 'public_key' });
    expect((await server.rpc(agent.key, 'gv.assertion_key', { public_key: pair.publicKey, remove: true })).error?.data).toMatchObject({ field: 'remove' });
  });

  it('the client library mints and renews assertions for GateClient (/rpc) and ToolClient (/mcp)', async () => {
    const assertions = new AgentAssertions({ keyId: agent.keyId, privateKey: pair.privateKey, deploymentId, now: () => server.clock.now() });
    const rpc = new GateClient({ transport: 'rpc', baseUrl: server.url, bearer: assertions.bearer, allowPlainHttpLoopback: true });
    const tools = new ToolClient({ baseUrl: server.url, bearer: assertions.bearer, allowPlainHttpLoopback: true });
    try {
      expect(((await rpc.call('gv.describe')) as { you: { identity: string } }).you.identity).toBe(`key:${agent.keyId}`);
      const before = await assertions.bearer();
      expect(await assertions.bearer()).toBe(before);
      // Past the first assertion's life the client mints the next one by itself.
      server.clock.advance(290_000);
      expect(await assertions.bearer()).not.toBe(before);
      expect(((await rpc.call('gv.describe')) as { you: { identity: string } }).you.identity).toBe(`key:${agent.keyId}`);
      expect(await tools.call('gate.pending')).toHaveProperty('pending');
      await expect(mint({ lifetimeS: 301 })).rejects.toMatchObject({ kind: 'invalid_params' });
    } finally {
      await rpc.close();
      await tools.close();
    }
  });
});
