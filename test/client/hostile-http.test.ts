import { afterEach, describe, expect, it } from 'vitest';
import { GateClient, GateClientError, ToolClient } from '@gate/client';
import { HostileHttp, idOf } from '../harness/hostile-server.js';

let server: HostileHttp | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const rpc = (url: string, extra: Record<string, unknown> = {}) =>
  new GateClient({ transport: 'rpc', baseUrl: url, allowPlainHttpLoopback: true, scope: 'knowledge', deadlineMs: 500, ...extra } as any);

async function failure(p: Promise<unknown>): Promise<GateClientError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(GateClientError);
  return e as GateClientError;
}

const json = (res: any, status: number, text: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
};

describe('the HTTP transports against hostile loopback servers', () => {
  it('a server that never answers: one deadline, timeout, outcome_unknown on a write only', async () => {
    server = await HostileHttp.start(() => undefined);
    const read = await failure(rpc(server.url).call('gv.ping'));
    expect(read.kind).toBe('timeout');
    expect(read.outcome_unknown).toBe(false);
    const write = await failure(rpc(server.url).call('gv.ingest', { content: 'x', kind: 'memory', source_uri: 's', workarea: 'w' }));
    expect(write.kind).toBe('timeout');
    expect(write.outcome_unknown).toBe(true);
    expect(server.hits).toHaveLength(2);
  });

  it('a server that drips its body past the deadline times out too', async () => {
    server = await HostileHttp.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0",');
    });
    expect((await failure(rpc(server.url).call('gv.ping'))).kind).toBe('timeout');
  });

  it('an oversized reply (declared or streamed) is invalid, never read whole', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { pad: 'x'.repeat(1024 * 1024) } });
    server = await HostileHttp.start((_req, res) => json(res, 200, big));
    const e = await failure(rpc(server.url).call('gv.ping'));
    expect(e.kind).toBe('invalid_response');
    expect(e.message).toContain('1048576');
    await server.stop();
    server = await HostileHttp.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(big);
    });
    expect((await failure(rpc(server.url).call('gv.ping'))).kind).toBe('invalid_response');
  });

  it('a request over 1 MiB is refused before any I/O', async () => {
    server = await HostileHttp.start((_req, res, body) => json(res, 200, JSON.stringify({ jsonrpc: '2.0', id: idOf(body), result: {} })));
    const e = await failure(rpc(server.url).call('gv.ingest', { content: 'x'.repeat(1024 * 1024), kind: 'memory', source_uri: 's', workarea: 'w' }));
    expect(e.kind).toBe('request_too_large');
    expect(server.hits).toHaveLength(0);
  });

  it('duplicate keys at any depth are rejected', async () => {
    for (const text of ['{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":2}}', '{"jsonrpc":"2.0","id":1,"id":1,"result":{}}', '{"jsonrpc":"2.0","id":1,"result":{"x":[{"k":1,"k":1}]}}']) {
      server = await HostileHttp.start((_req, res) => json(res, 200, text));
      const e = await failure(rpc(server.url).call('gv.ping'));
      expect(e.kind).toBe('invalid_response');
      expect(e.message).toContain('duplicate key');
      await server.stop();
      server = undefined;
    }
  });

  it('a redirect is never followed', async () => {
    let followed = false;
    server = await HostileHttp.start((req, res) => {
      if (req.url === '/elsewhere') followed = true;
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    const e = await failure(rpc(server.url).call('gv.ping'));
    expect(e.kind).toBe('invalid_response');
    expect(e.status).toBe(307);
    expect(followed).toBe(false);
    expect(server.hits).toEqual(['POST /rpc']);
  });

  it('an HTML answer (even with status 200) is invalid', async () => {
    server = await HostileHttp.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>{"jsonrpc":"2.0","id":1,"result":{}}</body></html>');
    });
    const e = await failure(rpc(server.url).call('gv.ping'));
    expect(e.kind).toBe('invalid_response');
    expect(e.message).toContain('text/html');
  });

  it('a different id, a non-object result or a missing jsonrpc is invalid', async () => {
    for (const text of ['{"jsonrpc":"2.0","id":99,"result":{}}', '{"jsonrpc":"2.0","id":1,"result":[1]}', '{"id":1,"result":{}}']) {
      server = await HostileHttp.start((_req, res) => json(res, 200, text));
      expect((await failure(rpc(server.url).call('gv.ping'))).kind).toBe('invalid_response');
      await server.stop();
      server = undefined;
    }
  });

  it('never retries: a 503 is one request, busy with retry_after_ms from Retry-After', async () => {
    server = await HostileHttp.start((_req, res) => json(res, 503, '{"error":"busy"}', { 'retry-after': '7' }));
    const e = await failure(rpc(server.url).call('gv.ping'));
    expect(e).toMatchObject({ kind: 'busy', status: 503, retry_after_ms: 7000 });
    expect(server.hits).toHaveLength(1);
  });

  it('a connection refused is transport, and a write that never left is not outcome_unknown', async () => {
    server = await HostileHttp.start(() => undefined);
    const url = server.url;
    await server.stop();
    server = undefined;
    const e = await failure(rpc(url).call('gv.ingest', { content: 'x', kind: 'memory', source_uri: 's', workarea: 'w' }));
    expect(e.kind).toBe('transport');
    expect(e.outcome_unknown).toBe(false);
  });

  it('a write whose connection drops after sending is outcome_unknown', async () => {
    server = await HostileHttp.start((req) => req.socket.destroy());
    const e = await failure(rpc(server.url).call('gv.ingest', { content: 'x', kind: 'memory', source_uri: 's', workarea: 'w' }));
    expect(e.kind).toBe('transport');
    expect(e.outcome_unknown).toBe(true);
  });

  it('plain http only to loopback, and only when explicitly enabled', () => {
    expect(() => new GateClient({ transport: 'rpc', baseUrl: 'http://127.0.0.1:1' })).toThrow(/allowPlainHttpLoopback/);
    expect(() => new GateClient({ transport: 'rpc', baseUrl: 'http://gate.example', allowPlainHttpLoopback: true })).toThrow(/loopback only/);
    expect(() => new ToolClient({ baseUrl: 'ftp://127.0.0.1' })).toThrow(/scheme/);
    expect(() => new GateClient({ transport: 'rpc', baseUrl: 'https://gate.example' })).not.toThrow();
  });

  it('the tool transport refuses the same hostile answers', async () => {
    server = await HostileHttp.start((_req, res) => json(res, 200, '{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"a":1,"a":1}}}'));
    const tools = new ToolClient({ baseUrl: server.url, allowPlainHttpLoopback: true, deadlineMs: 500 });
    expect((await failure(tools.status(`sha256:${'a'.repeat(64)}`))).kind).toBe('invalid_response');
  });
});
