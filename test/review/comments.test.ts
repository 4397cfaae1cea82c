import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, other, reviewer, reader }, ingestId } = useGate({
  kind: 'unit',
  keys: { agent: 'agent', other: 'agent', reviewer: 'reviewer', reader: 'reader' },
});

const ingest = (key = agent.key) => ingestId(key, { content: uniqueText('commented'), workarea: 'tests/comments', source_uri: 's' });
const comment = (key: string, params: Record<string, unknown>) => gate.rpc(key, 'gv.comment', params);

describe('gv.comment', () => {
  it('records a note by default, with counts; replies must name a live comment on the same row', async () => {
    const id = await ingest();
    const note = await comment(reviewer.key, { artifact_id: id, body: 'where does this come from?', kind: 'question' });
    expect(note.result).toMatchObject({ artifact_id: id, comment: { kind: 'question', author: reviewer.identity, author_class: 'program', body: 'where does this come from?' } });
    expect(note.result.counts).toMatchObject({ total: 1, open_objections: 0 });
    const plain = await comment(agent.key, { artifact_id: id, body: 'from the build log', reply_to: note.result.event_id });
    expect(plain.result.comment).toMatchObject({ kind: 'note', reply_to: note.result.event_id });
    const elsewhere = await ingest();
    expect((await comment(agent.key, { artifact_id: elsewhere, body: 'x', reply_to: note.result.event_id })).error?.data?.field).toBe('reply_to');
    expect((await comment(agent.key, { artifact_id: id, body: 'done', kind: 'resolution' })).error?.data?.field).toBe('reply_to');
    expect((await comment(agent.key, { artifact_id: id, body: '   ' })).error?.data?.field).toBe('body');
    expect((await comment(agent.key, { artifact_id: id, body: 'x', kind: 'shout' })).error?.data?.field).toBe('kind');
    expect((await comment(agent.key, { artifact_id: id, body: 'x', findings: null })).error?.data?.field).toBe('findings');
  });

  it("another identity's held row is unknown to an agent (rule U); a promoted row's comments are read by its readers", async () => {
    const id = await ingest();
    expect((await comment(other.key, { artifact_id: id, body: 'peek' })).error?.message).toBe(`unknown artifact: ${id.slice(0, 16)}`);
    expect((await gate.rpc(other.key, 'gv.comments', { artifact_id: id })).error?.message).toBe(`unknown artifact: ${id.slice(0, 16)}`);
    await comment(reviewer.key, { artifact_id: id, body: 'checked against the log' });
    await gate.readBody(reviewer.key, id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    const read = await gate.rpc(reader.key, 'gv.comments', { artifact_id: id });
    expect(read.result.comments.map((c: any) => c.body)).toEqual(['checked against the log']);
    expect((await gate.rpc(reader.key, 'gv.node', { artifact_id: id })).result.comments).toHaveLength(1);
  });

  it('a comment needs contribute on the row\'s space', async () => {
    await gate.socket('gv.space_create', { name: 'closed-comments', policy: 'auto' });
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: agent.identity, space: 'closed-comments', capabilities: ['read', 'contribute'] }] });
    const id = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('closed'), workarea: 'tests/comments', kind: 'memory', source_uri: 's', space: 'closed-comments' })).result.artifact_id;
    await gate.readBody(reviewer.key, id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: other.identity, space: 'closed-comments', capabilities: ['read'] }] });
    expect((await comment(other.key, { artifact_id: id, body: 'hello' })).error?.data).toEqual({ reason: 'not_granted', space: 'closed-comments', capability: 'contribute' });
  });

  it('leaves the gate only through gv.comments: the served event carries the kind, never the body', async () => {
    const id = await ingest();
    const said = await comment(reviewer.key, { artifact_id: id, body: 'the secret sauce is paprika', kind: 'objection', findings: ['injection.role'] });
    const events = await gate.rpc(reviewer.key, 'gv.events', { types: ['comment'], limit: 1000 });
    const served = events.result.events.find((e: any) => e.event_id === said.result.event_id);
    expect(served).toMatchObject({ type: 'comment', kind: 'objection', artifact_id: id, enters: null });
    expect(JSON.stringify(served)).not.toMatch(/paprika|injection\.role/);
    expect(JSON.stringify((await gate.rpc(agent.key, 'gv.why', { artifact_id: id })).result)).not.toContain('paprika');
  });
});

describe('gv.comment_retract', () => {
  it('the author or the operator retracts; the comment stays as a tombstone and an objection stops being open', async () => {
    const id = await ingest();
    const objection = await comment(reviewer.key, { artifact_id: id, body: 'I object', kind: 'objection' });
    const note = await comment(agent.key, { artifact_id: id, body: 'a note' });
    expect((await gate.rpc(agent.key, 'gv.comments', { artifact_id: id })).result.counts.open_objections).toBe(1);
    const notMine = await gate.rpc(agent.key, 'gv.comment_retract', { artifact_id: id, event_id: objection.result.event_id });
    expect(notMine.error).toMatchObject({ code: -32602, data: { reason: 'not_the_author' } });
    const retracted = await gate.rpc(reviewer.key, 'gv.comment_retract', { artifact_id: id, event_id: objection.result.event_id, reason: 'resolved offline' });
    expect(retracted.result).toMatchObject({ artifact_id: id, event_id: objection.result.event_id });
    expect(retracted.result.retract_event_id).toMatch(/^[0-9a-f]{64}$/);
    const again = await gate.rpc(reviewer.key, 'gv.comment_retract', { artifact_id: id, event_id: objection.result.event_id });
    expect(again.error?.message).toContain('already retracted');
    expect((await gate.socket('gv.comment_retract', { artifact_id: id, event_id: note.result.event_id })).result.event_id).toBe(note.result.event_id);
    const live = await gate.rpc(agent.key, 'gv.comments', { artifact_id: id });
    expect(live.result.comments).toEqual([]);
    expect(live.result.counts).toMatchObject({ total: 0, open_objections: 0, last_ts: null });
    const all = await gate.rpc(agent.key, 'gv.comments', { artifact_id: id, include_retracted: true });
    expect(all.result.comments).toHaveLength(2);
    for (const c of all.result.comments) expect(c).toMatchObject({ retracted: true, body: null });
    const unknown = await gate.rpc(agent.key, 'gv.comment_retract', { artifact_id: id, event_id: 'f'.repeat(64) });
    expect(unknown.error?.data?.field).toBe('event_id');
  });
});
