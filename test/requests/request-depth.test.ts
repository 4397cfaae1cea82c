import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { lines, postBytes, socketExchange } from '../harness/raw-requests.js';
import { toolsOf } from '../../src/tools/tool-catalog.js';
import { useGate } from '../harness/use-gate.js';

// A request may nest 64 levels, the request object counting as 1 (docs/requests.md, "Requests: how every door reads one"). Deeper is
// refused -32602 naming the limit before anything walks it: 4,000 levels used to overflow the
// stack in the null check and answer -32603.

const { gate, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });

/** `levels` containers, alternating arrays and objects, the innermost empty. */
const nest = (levels: number): string => {
  let text = '';
  for (let i = 0; i < levels - 1; i++) text += i % 2 === 0 ? '[' : '{"a":';
  text += levels % 2 === 1 ? '[]' : '{}';
  for (let i = levels - 2; i >= 0; i--) text += i % 2 === 0 ? ']' : '}';
  return text;
};
/** A gv.ping whose whole text nests `depth` deep: the request (1), params (2), then x. */
const ping = (depth: number, id = 1) => `{"jsonrpc":"2.0","id":${id},"method":"gv.ping","params":{"x":${nest(depth - 2)}}}`;

const isDepthRefusal = (answer: any, id: unknown) => {
  expect(answer).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32602, data: { limit: 64 } } });
  expect(answer.error.message).toBe('the request nests deeper than the limit of 64 levels');
};

describe('POST /rpc', () => {
  it('64 levels pass the door (the verb then refuses the unlisted field by name)', async () => {
    const res = await postBytes(gate, '/rpc', Buffer.from(ping(64)), agent.key);
    expect(res.status).toBe(200);
    expect(res.json.error).toMatchObject({ code: -32602, message: 'unlisted field: x' });
  });

  for (const depth of [65, 4000]) {
    it(`${depth} levels are refused -32602 naming the limit, inside HTTP 200 like every refusal of params`, async () => {
      const text = ping(depth, depth);
      const res = await postBytes(gate, '/rpc', Buffer.from(text), agent.key);
      expect(res.status).toBe(200);
      isDepthRefusal(res.json, depth);
    });
  }

  it('brackets inside a string are text, not nesting', async () => {
    const content = `${uniqueText('brackets')} ${'['.repeat(4000)}${'{'.repeat(4000)}`;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'gv.ingest', params: { content, workarea: 'tests/depth', kind: 'memory', source_uri: 's' } });
    const res = await postBytes(gate, '/rpc', Buffer.from(body), agent.key);
    expect(res.json.result.state).toBe('L1_SCANNED');
  });

  it('a verb that takes free-form JSON (a bundle manifest) meets the same bound', async () => {
    const body = `{"jsonrpc":"2.0","id":6,"method":"gv.ingest_bundle","params":{"workarea":"tests/depth","source_uri":"s","content":"UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==","manifest":{"m":${nest(4000)}}}}`;
    isDepthRefusal((await postBytes(gate, '/rpc', Buffer.from(body), agent.key)).json, 6);
  });
});

describe('POST /mcp: every tool\'s arguments', () => {
  for (const tool of toolsOf('client').map((t) => t.name)) {
    it(`${tool}: 4,000 levels are -32602 naming the limit, not -32603`, async () => {
      const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${tool}","arguments":{"x":${nest(4000)}}}}`;
      const res = await postBytes(gate, '/mcp', Buffer.from(body));
      expect(res.status).toBe(200);
      isDepthRefusal(res.json, 7);
    });
  }

  it('arguments that bring the request to 64 levels reach the tool, which refuses the field itself', async () => {
    const body = `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"gate.status","arguments":{"x":${nest(61)}}}}`;
    const res = await postBytes(gate, '/mcp', Buffer.from(body));
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.json)).not.toContain('"limit":64');
    expect(JSON.stringify(res.json)).toContain('x');
  });
});

describe('the socket', () => {
  it('65 and 4,000 levels get a -32602 line each; 64 passes; the gate still answers after', async () => {
    const answers = await socketExchange(gate, [lines(ping(65, 65), ping(4000, 4000), ping(64, 64), '{"jsonrpc":"2.0","id":"after","method":"gv.ping"}')], 4);
    isDepthRefusal(answers[0], 65);
    isDepthRefusal(answers[1], 4000);
    expect(answers[2]).toMatchObject({ id: 64, error: { code: -32602, message: 'unlisted field: x' } });
    expect(answers[3]).toMatchObject({ id: 'after', result: { pong: true } });
  });
});
