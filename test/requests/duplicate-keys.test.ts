import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { lines, postBytes, socketExchange } from '../harness/raw-requests.js';
import { useGate } from '../harness/use-gate.js';

// A repeated key makes a request mean two things (JSON.parse keeps the last value, another
// reader the first); clients refuse the same in replies (docs/protocol.md#client-transport-rules). Every door refuses
// it -32600 naming the key, before dispatch.

const { gate, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });

const ingestText = (params: string) => `{"jsonrpc":"2.0","id":9,"method":"gv.ingest","params":{${params}}}`;
const claim = () => `"workarea":"tests/dup","kind":"memory","source_uri":"test://dup","content":${JSON.stringify(uniqueText('dup'))}`;

const refusedCases: Array<[string, string, string, string]> = [
  ['method twice at the top level', '{"jsonrpc":"2.0","id":9,"method":"gv.ping","method":"gv.describe"}', 'method', 'method'],
  ['a param twice', ingestText(`${claim()},"kind":"steering"`), 'kind', 'params.kind'],
  ['a key twice deep inside params', ingestText(`${claim()},"producer":{"name":"a","kind":"agent","name":"b"}`), 'name', 'params.producer.name'],
  ['a key twice in an object inside an array', ingestText(`${claim()},"x":[1,{"k":1},{"k":1,"k":2}]`), 'k', 'params.x.2.k'],
  ['the same key in another spelling', ingestText(`${claim()},"\\u006bind":"steering"`), 'kind', 'params.kind'],
];

describe('POST /rpc refuses a repeated key at any depth: 400, -32600 naming it', () => {
  for (const [name, text, key, field] of refusedCases) {
    it(name, async () => {
      const res = await postBytes(gate, '/rpc', Buffer.from(text), agent.key);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32600, data: { key, field } } });
      expect(res.json.error.message).toContain(`"${key}"`);
    });
  }

  it('an id given twice is answered with id null: which was meant cannot be told', async () => {
    const res = await postBytes(gate, '/rpc', Buffer.from('{"jsonrpc":"2.0","id":1,"method":"gv.ping","id":2}'), agent.key);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ id: null, error: { code: -32600, data: { key: 'id' } } });
  });

  it('the same key in different objects, and key-like text inside strings, are no repeat', async () => {
    const content = `${uniqueText('lookalike')} {"kind":"memory","kind":"steering"} \\"kind\\": \\\\`;
    const text = `{"jsonrpc":"2.0","id":3,"method":"gv.ingest","params":{"workarea":"tests/dup","kind":"memory","source_uri":"s","content":${JSON.stringify(content)},"producer":{"name":"p","kind":"agent"}}}`;
    const res = await postBytes(gate, '/rpc', Buffer.from(text), agent.key);
    expect(res.status).toBe(200);
    expect(res.json.result.state).toBe('L1_SCANNED');
  });
});

describe('POST /mcp refuses a repeated key before the tool runs', () => {
  it('in a tool call\'s arguments', async () => {
    const text = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"gate.remember","arguments":{"content":"a","content":"b","content_type":"memory","source_uri":"s","workarea":"tests/dup"}}}`;
    const res = await postBytes(gate, '/mcp', Buffer.from(text));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 4, error: { code: -32600, data: { key: 'content', field: 'params.arguments.content' } } });
  });

  it('in the envelope, where the SDK would have parsed the body itself', async () => {
    const res = await postBytes(gate, '/mcp', Buffer.from('{"jsonrpc":"2.0","id":5,"method":"tools/list","method":"tools/call"}'));
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: -32600, data: { key: 'method' } });
  });
});

describe('the socket refuses a repeated key with one -32600 line, and the connection goes on', () => {
  it('a param twice, then a ping on the same connection', async () => {
    const [refused, pong] = await socketExchange(gate, [lines(ingestText(`${claim()},"workarea":"tests/other"`), '{"jsonrpc":"2.0","id":10,"method":"gv.ping"}')], 2);
    expect(refused).toMatchObject({ id: 9, error: { code: -32600, data: { key: 'workarea', field: 'params.workarea' } } });
    expect(pong).toMatchObject({ id: 10, result: { pong: true } });
  });
});
