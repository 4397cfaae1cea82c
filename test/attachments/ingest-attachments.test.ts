import { beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { uniqueText } from '../harness/gate-process.js';
import { sha256Of, upload, opaqueBytes } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, other } } = useGate({ kind: 'unit', keys: { agent: 'agent', other: 'agent' } });

const hashes: string[] = [];

beforeAll(async () => {
  for (let i = 0; i < 5; i++) hashes.push((await upload(gate, agent.key, opaqueBytes(2000 + i))).result.sha256);
});

const claim = (extra: Record<string, unknown>, key = agent.key) =>
  gate.rpc(key, 'gv.ingest', { content: uniqueText(), workarea: 'tests/attach', source_uri: 'test://attach', kind: 'memory', ...extra });

describe('gv.ingest attachments', () => {
  it('a claim carries up to four completed uploads, written as envelope v2', async () => {
    const a = await claim({ attachments: hashes.slice(0, 4).map((sha256, i) => ({ sha256, name: `file-${i}.bin` })) });
    expect(a.result).toMatchObject({ state: 'L1_SCANNED', trust_class: 'T-1' });
    expect(a.result.attachments.map((x: { sha256: string }) => x.sha256)).toEqual(hashes.slice(0, 4));
    const db = new Database(join(gate.home, 'gate.db'), { readonly: true });
    const body = db.prepare(`SELECT body FROM journal WHERE artifact_id = ? AND type = 'ingest'`).pluck().get(a.result.artifact_id) as string;
    db.close();
    const data = JSON.parse(body).data;
    expect(data.envelope).toBe(2);
    expect(data.attachments[0]).toMatchObject({ sha256: hashes[0], name: 'file-0.bin', media_type: 'application/octet-stream', size_bytes: 2000 });
  });

  it('an attachment with a source_uri lifts the claim to T-4', async () => {
    const a = await claim({ attachments: [{ sha256: hashes[0], source_uri: 'https://example.org/report.pdf' }] });
    expect(a.result.trust_class).toBe('T-4');
  });

  it('the same words with other attachments are another row; with the same ones, a duplicate', async () => {
    const content = uniqueText('twin');
    const first = await claim({ content, attachments: [{ sha256: hashes[0] }] });
    const second = await claim({ content, attachments: [{ sha256: hashes[1] }] });
    const again = await claim({ content, attachments: [{ sha256: hashes[0] }] });
    expect(second.result.artifact_id).not.toBe(first.result.artifact_id);
    expect(again.result).toMatchObject({ artifact_id: first.result.artifact_id, duplicate: true });
  });

  const refusals: Array<[string, () => Record<string, unknown>, string, string?]> = [
    ['a fifth attachment', () => ({ attachments: hashes.map((sha256) => ({ sha256 })) }), 'attachments'],
    ['an attachment on steering', () => ({ kind: 'steering', attachments: [{ sha256: hashes[0] }] }), 'attachments'],
    ['an attachment on a skill', () => ({ kind: 'skill', attachments: [{ sha256: hashes[0] }] }), 'attachments'],
    ['an attachment on a prompt_template', () => ({ kind: 'prompt_template', attachments: [{ sha256: hashes[0] }] }), 'attachments'],
    ['an attachment on a recorded class', () => ({ kind: undefined, content_type: 'trace', attachments: [{ sha256: hashes[0] }] }), 'attachments'],
    ['the same attachment twice', () => ({ attachments: [{ sha256: hashes[0] }, { sha256: hashes[0] }] }), 'attachments.1.sha256'],
    ['a hash nobody uploaded', () => ({ attachments: [{ sha256: sha256Of(Buffer.from('never')) }] }), 'attachments.0.sha256'],
    ['an unlisted field in an attachment, by name', () => ({ attachments: [{ sha256: hashes[0], media_type: 'image/png' }] }), 'attachments.0.media_type'],
    ['a null name, by name', () => ({ attachments: [{ sha256: hashes[0], name: null }] }), 'attachments.0.name'],
  ];
  for (const [name, extra, field] of refusals) {
    it(`refuses ${name}`, async () => {
      const answer = await claim(extra());
      expect(answer.error?.code, JSON.stringify(answer)).toBe(-32602);
      expect(answer.error?.data?.field).toBe(field);
    });
  }

  it("refuses another writer's upload: an attachment is an upload by the caller", async () => {
    const answer = await claim({ attachments: [{ sha256: hashes[0] }] }, other.key);
    expect(answer.error).toMatchObject({ code: -32602, data: { field: 'attachments.0.sha256' } });
  });

  it('refuses an upload not yet complete', async () => {
    const bytes = opaqueBytes(4000);
    await gate.rpc(agent.key, 'gv.upload', { sha256: sha256Of(bytes), size_bytes: bytes.length, offset: 0, content: bytes.subarray(0, 10).toString('base64') });
    const answer = await claim({ attachments: [{ sha256: sha256Of(bytes) }] });
    expect(answer.error).toMatchObject({ code: -32602, data: { field: 'attachments.0.sha256' } });
  });
});
