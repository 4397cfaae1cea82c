import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { readAttachment, upload, opaqueBytes } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

// Keys stand in for readers here: this gate holds them to the read too (review.read_before_signing = everyone; people always are).
const { gate, keys: { agent, reviewer, second } } = useGate({ kind: 'unit', keys: { agent: 'agent', reviewer: 'reviewer', second: 'reviewer' }, env: { GATE_REVIEW_READ_BEFORE_SIGNING: 'everyone' } });

async function rowWithTwoAttachments() {
  const a = (await upload(gate, agent.key, opaqueBytes(600_000))).result.sha256 as string;
  const b = (await upload(gate, agent.key, opaqueBytes(1000))).result.sha256 as string;
  const row = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(), workarea: 'tests/read', source_uri: 's', kind: 'memory', attachments: [{ sha256: a }, { sha256: b }] });
  return { id: row.result.artifact_id as string, a, b };
}

const promote = async (key: string, id: string) => {
  await gate.readBody(key, id);
  return gate.rpc(key, 'gv.promote', { artifact_id: id });
};

describe('a promoting signature counts only from an identity served every attachment to its end', () => {
  it('gv.promote is refused attachments_unread, naming what is unread, until every attachment was served whole and in order', async () => {
    const { id, a, b } = await rowWithTwoAttachments();
    expect((await promote(reviewer.key, id)).error).toMatchObject({ code: -32010, data: { reason: 'attachments_unread', unread: [a, b] } });
    // The last page alone is not a read in order: it does not count.
    await gate.rpc(reviewer.key, 'gv.attachment', { artifact_id: id, content_hash: a, offset: 524_288 });
    await readAttachment(gate, reviewer.key, id, b);
    expect((await promote(reviewer.key, id)).error).toMatchObject({ data: { reason: 'attachments_unread', unread: [a] } });
    // Only the first page: still not to its end.
    await gate.rpc(reviewer.key, 'gv.attachment', { artifact_id: id, content_hash: a, offset: 0 });
    expect((await promote(reviewer.key, id)).error?.data?.unread).toEqual([a]);
    // Continuing where the in-order read stands reaches the end.
    await gate.rpc(reviewer.key, 'gv.attachment', { artifact_id: id, content_hash: a, offset: 524_288 });
    const promoted = await promote(reviewer.key, id);
    expect(promoted.result?.state, JSON.stringify(promoted.error)).toBe('ACTIVE');
    // Who read the attachments is an internal fact: never among a row's served events.
    const why = await gate.rpc(agent.key, 'gv.why', { artifact_id: id });
    expect(why.result.events.map((e: { type: string }) => e.type)).toEqual(['ingest', 'scan', 'promote']);
    const node = await gate.rpc(reviewer.key, 'gv.node', { artifact_id: id });
    expect(node.result.approval).toMatchObject({ k_have: 1, signers: [{ identity: reviewer.identity, decision: 'promote', counts: true }] });
  });

  it("one identity's reads do not count for another; the original copy counts like the served one", async () => {
    const { id, a, b } = await rowWithTwoAttachments();
    await readAttachment(gate, reviewer.key, id, a);
    await readAttachment(gate, reviewer.key, id, b);
    expect((await promote(second.key, id)).error?.data?.unread).toEqual([a, b]);
    await readAttachment(gate, second.key, id, a, true);
    await readAttachment(gate, second.key, id, b, true);
    expect((await promote(second.key, id)).result?.state).toBe('ACTIVE');
  });

  it('the reads are journal facts: they survive a restart and gv.rebuild folds them to the same table', async () => {
    const { id, a, b } = await rowWithTwoAttachments();
    await readAttachment(gate, reviewer.key, id, a);
    await readAttachment(gate, reviewer.key, id, b);
    await gate.stop();
    await gate.restart();
    const rebuilt = await gate.socket('gv.rebuild');
    expect(rebuilt.result.tables.attachment_reads.equal).toBe(true);
    expect((await promote(reviewer.key, id)).result?.state).toBe('ACTIVE');
  });

  it('a row without attachments is promoted as before', async () => {
    const row = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(), workarea: 'tests/read', source_uri: 's', kind: 'memory' });
    expect((await promote(reviewer.key, row.result.artifact_id)).result?.state).toBe('ACTIVE');
  });

  it("a model's verdict on a row with attachments never counts toward k: graders are served none of them", async () => {
    const { id } = await rowWithTwoAttachments();
    const plain = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(), workarea: 'tests/read', source_uri: 's', kind: 'memory' })).result.artifact_id;
    for (const row of [id, plain]) expect((await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: row })).error).toBeUndefined();
    const models = async (row: string) =>
      (await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: row })).result.signers.filter((s: { class: string }) => s.class === 'model');
    const withAttachments = await models(id);
    expect(withAttachments.length).toBeGreaterThan(0);
    for (const s of withAttachments) expect(s).toMatchObject({ counts: false });
    // The same grading of a row without attachments counts (main is auto-reviewed in test gates).
    expect((await models(plain)).some((s: { counts: boolean }) => s.counts)).toBe(true);
  });
});
