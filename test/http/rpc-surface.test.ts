import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { reader } } = useGate({ kind: 'in-process', settings: { 'auth.issuer': '' }, env: { GATE_MCP_MAX_REQUEST_BYTES: '65536' }, keys: { reader: 'reader' } });

describe('POST /rpc credentials: 401 with {error: "<kind>: <why>", kind}', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['no header', {}, 'missing'],
    ['not a bearer', { authorization: 'Basic dXNlcjpwYXNz' }, 'malformed'],
    ['a gk_ key of the wrong shape', { authorization: 'Bearer gk_short' }, 'malformed'],
    ['a well-formed key this gate never issued', { authorization: `Bearer gk_${'A'.repeat(43)}` }, 'signature'],
    ['a JWT while no issuer is configured', { authorization: 'Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln' }, 'unsupported'],
  ];
  for (const [name, headers, kind] of cases) {
    it(name, async () => {
      const res = await gate.http('POST', '/rpc', { headers, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } });
      expect(res.status).toBe(401);
      expect(res.json.kind).toBe(kind);
      expect(res.json.error).toMatch(new RegExp(`^${kind}: .+`));
    });
  }

  it('a revoked key is refused on the very next request (expiry is covered with an injected clock in test/auth)', async () => {
    const k = await gate.key('agent');
    expect((await gate.rpc(k.key, 'gv.ping')).result.pong).toBe(true);
    const revoked = await gate.socket('gv.keys', { action: 'revoke', key_id: k.keyId, reason: 'test' });
    expect(revoked.result.revoked).toBe(true);
    const after = await gate.http('POST', '/rpc', { key: k.key, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } });
    expect(after.status).toBe(401);
    expect(after.json.kind).toBe('signature');
  });
});

describe('POST /rpc framing', () => {
  it('an unparsable body is 400 with -32700 in a JSON-RPC envelope', async () => {
    const res = await gate.http('POST', '/rpc', { key: reader.key, raw: '{"jsonrpc": "2.0", ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  for (const raw of ['[1,2]', '42', '"text"', 'null']) {
    it(`non-object JSON ${raw} is 400 with -32600`, async () => {
      const res = await gate.http('POST', '/rpc', { key: reader.key, raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    });
  }

  it('a refusal by role is a JSON-RPC error inside HTTP 200', async () => {
    const res = await gate.http('POST', '/rpc', { key: reader.key, body: { jsonrpc: '2.0', id: 'r', method: 'gv.promote', params: { artifact_id: 'a'.repeat(64) } } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 'r', error: { code: -32602 } });
  });

  it('a request over the limit is refused 413 from its Content-Length, before the body is read', async () => {
    const url = new URL(gate.url);
    const outcome = await new Promise<{ status?: number; reset?: boolean }>((resolve) => {
      const req = request(
        { host: url.hostname, port: url.port, path: '/rpc', method: 'POST', headers: { 'content-length': String(10 * 1024 * 1024), authorization: `Bearer ${reader.key}` } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode });
        },
      );
      req.on('error', () => resolve({ reset: true }));
      // Send only the headers and a little of the body: the gate must answer without waiting for the rest.
      req.write('x'.repeat(1024));
    });
    expect(outcome.status === 413 || outcome.reset === true).toBe(true);
  });

  it('a chunked body that grows past the limit is refused too', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.ping', params: { pad: 'x'.repeat(70_000) } });
    const res = await fetch(`${gate.url}/rpc`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader.key}` },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(big));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit).catch(() => null);
    if (res !== null) expect(res.status).toBe(413);
  });
});

describe('plain routes', () => {
  it('GET / redirects to /app with no body and no query forwarded', async () => {
    const res = await gate.http('GET', '/?next=/rpc');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/app');
    expect(res.text).toBe('');
  });

  it('GET /identity is public and names the deployment; gates is empty', async () => {
    const res = await gate.http('GET', '/identity');
    expect(res.status).toBe(200);
    expect(res.json.deployment_id).toBe(gate.deploymentId);
    expect(res.json.gates).toEqual([]);
    expect(res.json.auth).toHaveProperty('issuer');
  });

  it('no /api/* path exists', async () => {
    for (const path of ['/api', '/api/ingest', '/api/v1/recall']) {
      expect((await gate.http('GET', path, { key: reader.key })).status).toBe(404);
      expect((await gate.http('POST', path, { key: reader.key, body: {} })).status).toBe(404);
    }
  });

  it('GET /rpc is not a route for reading verbs', async () => {
    expect((await gate.http('GET', '/rpc', { key: reader.key })).status).toBe(405);
  });

  it('the HTTP surface listens on loopback only', () => {
    expect(new URL(gate.url).hostname).toBe('127.0.0.1');
  });
});
