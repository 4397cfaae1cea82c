import { beforeAll, describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });

let eventsKey: string;

beforeAll(async () => {
  eventsKey = (await gate.key('reviewer', { scope: 'events' })).key;
});

describe('a key with scope events reads gv.events and gv.ping (the paused and caps parts of status) only; everything else is 403', () => {
  it('gv.events answers', async () => {
    const res = await gate.http('POST', '/rpc', { key: eventsKey, body: { jsonrpc: '2.0', id: 1, method: 'gv.events', params: { limit: 5 } } });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({ events: expect.any(Array), caught_up: expect.any(Boolean) });
  });

  it("gv.ping answers, with whether review is paused or a cap is near (degraded_reasons)", async () => {
    expect((await gate.socket('gv.away', { note: 'monitor check' })).error).toBeUndefined();
    try {
      const res = await gate.http('POST', '/rpc', { key: eventsKey, body: { jsonrpc: '2.0', id: 2, method: 'gv.ping', params: {} } });
      expect(res.status).toBe(200);
      expect(res.json.result).toMatchObject({ pong: true, degraded: true, degraded_reasons: [expect.objectContaining({ reason: 'review_paused' })] });
    } finally {
      await gate.socket('gv.back', {});
    }
  });

  for (const method of ['gv.describe', 'gv.recall', 'gv.keys', 'gv.challenge']) {
    it(`${method} is 403 with the refusal in a JSON-RPC envelope`, async () => {
      const res = await gate.http('POST', '/rpc', { key: eventsKey, body: { jsonrpc: '2.0', id: 7, method, params: {} } });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602, data: { reason: 'scope', scope: 'events' } } });
    });
  }

  it('GET /openapi.json is 403', async () => {
    const res = await gate.http('GET', '/openapi.json', { key: eventsKey });
    expect(res.status).toBe(403);
    expect(res.json.kind).toBe('scope');
  });

  it('the same reviewer role without the scope is served', async () => {
    const plain = (await gate.key('reviewer')).key;
    expect((await gate.http('POST', '/rpc', { key: plain, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } })).status).toBe(200);
    expect((await gate.http('GET', '/openapi.json', { key: plain })).status).toBe(200);
  });
});
