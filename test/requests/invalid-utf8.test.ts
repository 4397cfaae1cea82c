import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { lines, postBytes, sha256Of, socketExchange } from '../harness/raw-requests.js';
import { useGate } from '../harness/use-gate.js';

// The bytes a writer sent are the bytes the journal hashes: a request that is not UTF-8 is
// refused -32700 before parsing, never stored with U+FFFD in place of what was sent; a valid
// multi-byte body is stored byte for byte.

const { gate, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: 'agent' } });

/** A gv.ingest whose content holds `inner` as raw bytes. */
const ingestWith = (inner: Buffer, id = 1) =>
  Buffer.concat([
    Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"gv.ingest","params":{"workarea":"tests/utf8","kind":"memory","source_uri":"s","content":"${uniqueText('utf8')} `),
    inner,
    Buffer.from('"}}'),
  ]);

const malformed: Array<[string, number[]]> = [
  ['the issue\'s bytes C3 28 FF FE ED A0 80', [0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]],
  ['a lead byte without its continuation', [0xc3, 0x28]],
  ['FF', [0xff]],
  ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
  ['an overlong slash', [0xc0, 0xaf]],
  ['a sequence cut short', [0xe2, 0x82]],
  ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
];

describe('POST /rpc refuses bytes that are not UTF-8: 400, -32700', () => {
  for (const [name, bytes] of malformed) {
    it(name, async () => {
      const res = await postBytes(gate, '/rpc', ingestWith(Buffer.from(bytes)), agent.key);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('UTF-8') } });
    });
  }
});

describe('POST /mcp refuses them before the tool runs', () => {
  it('remember with C3 28 FF FE ED A0 80 in its content', async () => {
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"gate.remember","arguments":{"workarea":"tests/utf8","content_type":"memory","source_uri":"s","content":"x '),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
      Buffer.from('"}}}'),
    ]);
    const res = await postBytes(gate, '/mcp', body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });
});

describe('the socket refuses them with a -32700 line, and the connection goes on', () => {
  it('C3 28 FF FE ED A0 80, then a ping', async () => {
    const answers = await socketExchange(gate, [lines(ingestWith(Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80])), '{"jsonrpc":"2.0","id":2,"method":"gv.ping"}')], 2);
    expect(answers[0]).toMatchObject({ id: null, error: { code: -32700, message: expect.stringContaining('UTF-8') } });
    expect(answers[1]).toMatchObject({ id: 2, result: { pong: true } });
  });
});

describe('valid multi-byte UTF-8 is stored byte for byte', () => {
  // Two-, three- and four-byte characters, and a decomposed é (e + U+0301) that must not be normalized.
  const text = 'λόγος 知识 🙂 cafe\u0301 naïve';

  const storedHash = async (artifactId: string) => {
    const node = await gate.rpc(agent.key, 'gv.node', { artifact_id: artifactId, body: true });
    return node.result.content_hash as string;
  };

  it('over /rpc', async () => {
    const content = `${uniqueText('exact')} ${text}`;
    const res = await postBytes(gate, '/rpc', Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'gv.ingest', params: { content, workarea: 'tests/utf8', kind: 'memory', source_uri: 's' } })), agent.key);
    expect(await storedHash(res.json.result.artifact_id)).toBe(sha256Of(Buffer.from(content)));
  });

  it('over /mcp', async () => {
    const content = `${uniqueText('exact')} ${text}`;
    const body = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'gate.remember', arguments: { content, content_type: 'memory', source_uri: 's', workarea: 'tests/utf8' } } };
    const res = await postBytes(gate, '/mcp', Buffer.from(JSON.stringify(body)), agent.key);
    expect(await storedHash(res.json.result.structuredContent.artifact_id)).toBe(sha256Of(Buffer.from(content)));
  });

  it('over the socket, with a four-byte character cut between two reads', async () => {
    const content = `${uniqueText('exact')} ${text}`;
    const line = lines(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'gv.ingest', params: { content, workarea: 'tests/utf8', kind: 'memory', source_uri: 's' } }));
    const emoji = line.indexOf(Buffer.from('🙂'));
    const [answer] = await socketExchange(gate, [line.subarray(0, emoji + 2), line.subarray(emoji + 2)], 1, 100);
    expect(answer.result.state).toBe('L1_SCANNED');
    const node = await gate.socket('gv.node', { artifact_id: answer.result.artifact_id, body: true });
    expect(node.result.content_hash).toBe(sha256Of(Buffer.from(content)));
    expect(node.result.body).toBe(content);
  });
});

describe('a lone surrogate spelled as an escape has no UTF-8 form either', () => {
  const ingestText = (escaped: string, id: number) =>
    `{"jsonrpc":"2.0","id":${id},"method":"gv.ingest","params":{"workarea":"tests/utf8","kind":"memory","source_uri":"s","content":"${uniqueText('escape')} ${escaped}"}}`;

  for (const escaped of ['\\ud800', 'x\\uDFFFy', '\\ude42\\ud83d']) {
    it(`"${escaped}" is refused -32700 on /rpc`, async () => {
      const res = await postBytes(gate, '/rpc', Buffer.from(ingestText(escaped, 6)), agent.key);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: -32700, message: expect.stringContaining('surrogate') });
    });
  }

  it('an escaped pair is one character, stored as its four UTF-8 bytes; an escaped backslash before "ud800" is text', async () => {
    const text = ingestText('\\ud83d\\ude42 \\\\ud800', 7);
    const res = await postBytes(gate, '/rpc', Buffer.from(text), agent.key);
    const content = (JSON.parse(text) as { params: { content: string } }).params.content;
    expect(content).toContain('🙂 \\ud800');
    const node = await gate.rpc(agent.key, 'gv.node', { artifact_id: res.json.result.artifact_id, body: true });
    expect(node.result.content_hash).toBe(sha256Of(Buffer.from(content)));
  });

  it('over the socket too', async () => {
    const [answer] = await socketExchange(gate, [lines(ingestText('\\ud800', 8))], 1);
    expect(answer).toMatchObject({ id: null, error: { code: -32700 } });
  });
});
