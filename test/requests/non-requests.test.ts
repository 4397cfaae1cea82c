import { describe, expect, it } from 'vitest';
import { lines, postBytes, socketExchange } from '../harness/raw-requests.js';
import { useGate } from '../harness/use-gate.js';

// A notification is a valid request without an id, and only that is answered with silence
// (HTTP 204, no line). An object that is no request (none of jsonrpc, method, id; or a bad
// jsonrpc or method) is refused -32600, HTTP 400 on /rpc, even when it carries no id.

const { gate, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });

const noneOfThree = ['{"a":{"a":1}}', '{}', '{"params":{"content":"x"}}'];
const badEnvelopes: Array<[string, unknown]> = [
  ['{"jsonrpc":"2.0"}', null],
  ['{"jsonrpc":"2.0","method":5}', null],
  ['{"method":"gv.ping"}', null],
  ['{"jsonrpc":"1.0","id":3,"method":"gv.ping"}', 3],
];

describe('POST /rpc', () => {
  for (const text of noneOfThree) {
    it(`${text} is not a request: 400, -32600, id null`, async () => {
      const res = await postBytes(gate, '/rpc', Buffer.from(text), agent.key);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('none of jsonrpc, method and id') } });
    });
  }
  for (const [text, id] of badEnvelopes) {
    it(`${text} is an invalid request, not a notification: 400, -32600, id ${id}`, async () => {
      const res = await postBytes(gate, '/rpc', Buffer.from(text), agent.key);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
    });
  }
  it('a valid notification is still 204, whether its method exists or not', async () => {
    for (const method of ['gv.ping', 'gv.nope']) {
      const res = await postBytes(gate, '/rpc', Buffer.from(`{"jsonrpc":"2.0","method":"${method}"}`), agent.key);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    }
  });
});

describe('POST /mcp', () => {
  it('{"a":{"a":1}} is not a request: 400, -32600, id null', async () => {
    const res = await postBytes(gate, '/mcp', Buffer.from('{"a":{"a":1}}'));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });
});

describe('the socket', () => {
  it('answers a non-request with a -32600 line and a notification with none', async () => {
    const answers = await socketExchange(
      gate,
      [lines('{"a":{"a":1}}', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","method":"gv.ping"}', '{"jsonrpc":"2.0","id":"last","method":"gv.ping"}')],
      3,
    );
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('none of jsonrpc, method and id') } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'method must be a string' } },
      { jsonrpc: '2.0', id: 'last', result: expect.objectContaining({ pong: true }) },
    ]);
  });
});
