import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { readAttachment, sha256Of, upload, opaqueBytes } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reader, otherAgent, reviewer } } = useGate({
  kind: 'unit',
  keys: { agent: 'agent', reader: 'reader', otherAgent: 'agent', reviewer: 'reviewer' },
});

const bytes = opaqueBytes(1_200_000);
const hash = sha256Of(bytes);
let held: string;

beforeAll(async () => {
  expect((await upload(gate, agent.key, bytes, 700_000)).result.complete).toBe(true);
  held = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(), workarea: 'tests/pages', source_uri: 's', kind: 'memory', attachments: [{ sha256: hash, name: 'Q3-payroll-Jane-Doe.xlsx' }] })).result.artifact_id;
});

describe('gv.attachment', () => {
  it('serves pages of 524,288 bytes in base64, with next_offset, and the served facts on the last page', async () => {
    const { pages, bytes: got } = await readAttachment(gate, agent.key, held, hash);
    expect(pages.map((p) => p.offset)).toEqual([0, 524_288, 1_048_576]);
    expect(pages.map((p) => p.next_offset)).toEqual([524_288, 1_048_576, null]);
    expect(Buffer.from(pages[0].content, 'base64').length).toBe(524_288);
    expect(got.equals(bytes)).toBe(true);
    expect(pages[0]).not.toHaveProperty('served_hash');
    expect(pages[2]).toMatchObject({ copy: 'served', size: 1_200_000, media_type: 'application/octet-stream', served_hash: hash, stripped: [] });
  });

  it('masks the name it serves', async () => {
    const page = await gate.rpc(agent.key, 'gv.attachment', { artifact_id: held, content_hash: hash });
    expect(page.result.name).toBe('Q3-p…(15 more).xlsx');
    // Everything but the bytes: base64 of random bytes spells 'Jane' now and then.
    const { content: _bytes, ...described } = page.result;
    expect(JSON.stringify(described)).not.toContain('Jane');
  });

  it('an offset past the end is -32602', async () => {
    const answer = await gate.rpc(agent.key, 'gv.attachment', { artifact_id: held, content_hash: hash, offset: 1_200_000 });
    expect(answer.error).toMatchObject({ code: -32602, data: { field: 'offset' } });
  });

  it("a held row's attachment is, for another identity below reviewer, an unknown id (rule U)", async () => {
    for (const key of [otherAgent.key, reader.key]) {
      const answer = await gate.rpc(key, 'gv.attachment', { artifact_id: held, content_hash: hash });
      expect(answer.error).toEqual({ code: -32602, message: `unknown artifact: ${held.slice(0, 16)}` });
    }
  });

  it('a hash the envelope does not name is an unknown id, exactly like a missing row', async () => {
    const answer = await gate.rpc(agent.key, 'gv.attachment', { artifact_id: held, content_hash: sha256Of(Buffer.from('x')) });
    const missing = await gate.rpc(agent.key, 'gv.attachment', { artifact_id: sha256Of(Buffer.from('no row')), content_hash: hash });
    expect(answer.error).toEqual({ code: -32602, message: `unknown artifact: ${held.slice(0, 16)}` });
    expect(missing.error?.message).toMatch(/^unknown artifact: sha256:/);
  });

  it('the original goes to the writer and reviewers only; anyone else gets an unknown id even on a promoted row', async () => {
    expect((await readAttachment(gate, reviewer.key, held, hash)).last.next_offset).toBeNull();
    await gate.readBody(reviewer.key, held);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: held })).result.state).toBe('ACTIVE');
    expect((await readAttachment(gate, agent.key, held, hash, true)).bytes.equals(bytes)).toBe(true);
    expect((await readAttachment(gate, reviewer.key, held, hash, true)).last.copy).toBe('original');
    for (const key of [otherAgent.key, reader.key]) {
      expect((await readAttachment(gate, key, held, hash)).bytes.equals(bytes)).toBe(true);
      const original = await gate.rpc(key, 'gv.attachment', { artifact_id: held, content_hash: hash, original: true });
      expect(original.error).toEqual({ code: -32602, message: `unknown artifact: ${held.slice(0, 16)}` });
    }
  });

  it('refuses unlisted and null fields by name', async () => {
    const unlisted = await gate.rpc(agent.key, 'gv.attachment', { artifact_id: held, content_hash: hash, page: 2 });
    expect(unlisted.error).toMatchObject({ code: -32602, data: { field: 'page' } });
    const nulled = await gate.rpc(agent.key, 'gv.attachment', { artifact_id: held, content_hash: hash, offset: null });
    expect(nulled.error).toMatchObject({ code: -32602, data: { field: 'offset' } });
  });
});
