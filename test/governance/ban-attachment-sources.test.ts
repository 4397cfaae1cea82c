import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { sha256Of, upload } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

/**
 * Issue 45 item 8: with a source banned, a write whose own source_uri is clean and whose
 * attachment's source_uri is under the ban was accepted. Every source a write names is
 * checked, at every door that takes attachments, through the real /rpc surface.
 */
const { gate, keys: { agent, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', reviewer: 'reviewer' } });

const uploaded = async (words = uniqueText('attached notes')) => {
  const bytes = Buffer.from(words);
  const done = await upload(gate, agent.key, bytes);
  expect(done.error, JSON.stringify(done.error)).toBeUndefined();
  return sha256Of(bytes);
};
const ingest = (attachments: Array<Record<string, unknown>>, sourceUri = 'https://docs.example/clean') =>
  gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('sourced claim'), workarea: 'tests/ban-attachments', kind: 'memory', source_uri: sourceUri, attachments });
const refusalsOf = async () => ((await gate.rpc(reviewer.key, 'gv.bans', {})).result.refused.find((r: { writer_identity: string }) => r.writer_identity === agent.identity)?.refused ?? 0) as number;

describe("a source ban refuses a write naming the banned source anywhere, the attachments' too", () => {
  it('gv.ingest: a clean source_uri with an attachment from a banned source is refused -32009, nothing stored', async () => {
    expect((await gate.socket('gv.ban', { kind: 'source', subject: 'https://evil.example/', reason: 'serves payloads' })).error).toBeUndefined();
    const payload = await uploaded(uniqueText('the payload'));
    const before = await refusalsOf();
    const refused = await ingest([{ sha256: payload, source_uri: 'https://evil.example/payload' }]);
    expect(refused.error).toMatchObject({ code: -32009, data: { kind: 'source', subject: 'https://evil.example' } });
    // The second attachment's source is checked as well as the first's.
    const fine = await uploaded();
    const second = await ingest([{ sha256: fine, source_uri: 'https://docs.example/notes' }, { sha256: payload, source_uri: 'HTTPS://EVIL.example:443/x/../payload' }]);
    expect(second.error).toMatchObject({ code: -32009, data: { kind: 'source', subject: 'https://evil.example' } });
    expect(await refusalsOf()).toBe(before + 2);
    const held = (await gate.rpc(reviewer.key, 'gv.inventory', { q: agent.identity, limit: 200 })).result;
    expect(JSON.stringify(held)).not.toContain(payload);

    // An attachment from an unbanned source, and one with no source, are taken.
    const taken = await ingest([{ sha256: fine, source_uri: 'https://docs.example/notes' }, { sha256: payload }]);
    expect(taken.error, JSON.stringify(taken.error)).toBeUndefined();
    expect(taken.result.state).toBe('L1_SCANNED');
  });

  it("an attachment's source naming a scheme that does not parse is refused by its field, as the row's own is", async () => {
    const bytes = await uploaded();
    const answer = await ingest([{ sha256: bytes, source_uri: 'https://[broken' }]);
    expect(answer.error).toMatchObject({ code: -32602, data: { field: 'attachments.0.source_uri', reason: 'source_uri_unparseable' } });
  });

  it('gv.add_evidence: evidence from a banned source is refused -32009, and the row waits for its evidence still', async () => {
    await gate.socket('gv.ban', { kind: 'source', subject: 'https://evil.example/', reason: 'serves payloads' });
    const row = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('needs a citation'), workarea: 'tests/ban-attachments', kind: 'memory', source_uri: 'test://evidence' })).result;
    expect((await gate.rpc(reviewer.key, 'gv.request_evidence', { artifact_id: row.artifact_id, reason: 'Cite the run.' })).error).toBeUndefined();
    const evidence = await uploaded(uniqueText('run log'));
    const refused = await gate.rpc(agent.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: evidence, source_uri: 'https://evil.example/run.log' }] });
    expect(refused.error).toMatchObject({ code: -32009, data: { kind: 'source', subject: 'https://evil.example' } });
    expect((await gate.rpc(agent.key, 'gv.status', { artifact_id: row.artifact_id })).result.state).toBe('NEEDS_EVIDENCE');
    const added = await gate.rpc(agent.key, 'gv.add_evidence', { artifact_id: row.artifact_id, attachments: [{ sha256: evidence, source_uri: 'https://docs.example/run.log' }] });
    expect(added.error, JSON.stringify(added.error)).toBeUndefined();
    expect(added.result.state).toBe('L1_SCANNED');
  });
});
