import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { useGate } from '../harness/use-gate.js';

/** The eight small-order points of Ed25519 (orders 1, 2, 4 and 8), canonically encoded. */
const SMALL_ORDER = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
];
/** Non-canonical encodings: y = p, y = p + 1 (the identity again), x = 0 with the sign bit set, y = p - 1 with it set. */
const NON_CANONICAL = [
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0100000000000000000000000000000000000000000000000000000000000080',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
];
const WEAK = [...SMALL_ORDER, ...NON_CANONICAL];
const b64url = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');
const IDENTITY = b64url(SMALL_ORDER[0]!);
/** The signature R = identity, s = 0: it verifies over any message for the identity key, lax verifiers accept it. */
const FORGED_SIGNATURE = Buffer.concat([Buffer.from([1]), Buffer.alloc(63)]).toString('base64url');
const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const forge = (header: Record<string, unknown>, claims: Record<string, unknown>) => `${part(header)}.${part(claims)}.${FORGED_SIGNATURE}`;

const { gate: server } = useGate({ kind: 'in-process' });

let deploymentId: string;

beforeAll(async () => {
  deploymentId = (await server.socket('gv.ping')).result.deployment_id;
});

const agentKey = () => server.issueKey('agent');

describe('weak Ed25519 public keys are refused wherever the gate accepts one', () => {
  it.each(WEAK)('gv.assertion_key refuses %s', async (hex) => {
    const agent = await agentKey();
    const answer = await server.rpc(agent.key, 'gv.assertion_key', { public_key: b64url(hex) });
    expect(answer.error).toMatchObject({ code: -32602, data: { field: 'public_key', reason: 'weak_key' } });
    expect((await server.rpc(agent.key, 'gv.assertion_key', {})).result.public_key).toBeNull();
  });

  it('so no assertion can be forged with the constant signature 01 00...00 for the identity key', async () => {
    const agent = await agentKey();
    await server.rpc(agent.key, 'gv.assertion_key', { public_key: IDENTITY });
    const iat = Math.floor(server.clock.now() / 1000);
    const token = forge(
      { alg: 'EdDSA', typ: 'at+jwt', kid: agent.keyId },
      { iss: `key:${agent.keyId}`, sub: `key:${agent.keyId}`, aud: deploymentId, client_id: agent.keyId, iat, exp: iat + 300, jti: randomBytes(8).toString('hex') },
    );
    const res = await server.http('POST', '/rpc', { key: token, body: { jsonrpc: '2.0', id: 1, method: 'gv.describe' } });
    expect(res.status).toBe(401);
    expect(res.json.kind).toBe('signature');
  });

  it.each(WEAK)('auth.operator_keys and org.deployment_id refuse %s (gv.settings_validate)', async (hex) => {
    const answer = (await server.socket('gv.settings_validate', { changes: { 'auth.operator_keys': [hex], 'org.deployment_id': b64url(hex) } })).result;
    expect(answer.valid).toBe(false);
    expect(answer.refused.map((r: { key: string }) => r.key).sort()).toEqual(['auth.operator_keys', 'org.deployment_id']);
    for (const r of answer.refused) expect(r.reason).toContain('usable Ed25519 public key');
  });
});

describe("a trusted issuer's weak Ed25519 key", () => {
  let issuer: Server;
  let issuerUrl: string;

  beforeAll(async () => {
    // A real issuer on loopback whose published key is the identity point.
    issuer = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: issuerUrl, jwks_uri: `${issuerUrl}/jwks` }));
      else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: IDENTITY, kid: 'weak', alg: 'EdDSA', use: 'sig' }] }));
      else res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
    issuerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => issuer?.close(resolve));
  });
  const { gate } = useGate({ kind: 'in-process', settings: () => ({ 'auth.trusted_issuers': [issuerUrl] }) });

  it('cannot vouch for a token signed 01 00...00 without a private key', async () => {
    const now = Math.floor(gate.clock.now() / 1000);
    const token = forge({ alg: 'EdDSA', kid: 'weak' }, { iss: issuerUrl, sub: 'mallory', aud: 'gate-console', iat: now, exp: now + 300 });
    const res = await gate.http('POST', '/rpc', { key: token, body: { jsonrpc: '2.0', id: 1, method: 'gv.describe' } });
    expect(res.status).toBe(401);
    expect(res.json.kind).toBe('signature');
  });
});
