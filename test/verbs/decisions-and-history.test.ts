import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reviewer, reviewer2 }, ingestAnswer } = useGate({ kind: 'unit', keys: { agent: 'agent', reviewer: 'reviewer', reviewer2: 'reviewer' } });

const make = async (key = agent.key, extra: Record<string, unknown> = {}) =>
  (await ingestAnswer(key, { content: uniqueText(), workarea: 'tests/decide', source_uri: 'test://d', ...extra })).result;

describe('promote, reject, demote', () => {
  it('a reviewer promotes a held row to ACTIVE, provisional on a solo gate', async () => {
    const row = await make();
    await gate.readBody(reviewer.key, row.artifact_id);
    const p = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id });
    expect(p.result).toMatchObject({ artifact_id: row.artifact_id, state: 'ACTIVE', provisional: true });
    await gate.readBody(reviewer.key, row.artifact_id);
    const again = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id });
    expect(again.error?.code).toBe(-32010);
  });

  it('a reviewer never decides a row it wrote', async () => {
    const own = await make(reviewer.key);
    for (const method of ['gv.promote', 'gv.reject']) {
      const a = await gate.rpc(reviewer.key, method, { artifact_id: own.artifact_id });
      expect(a.error?.code).toBe(-32010);
      expect(a.error?.data).toEqual({ reason: 'self_authored' });
    }
    await gate.readBody(reviewer2.key, own.artifact_id);
    expect((await gate.rpc(reviewer2.key, 'gv.promote', { artifact_id: own.artifact_id })).result.state).toBe('ACTIVE');
    const selfDemote = await gate.rpc(reviewer.key, 'gv.demote', { artifact_id: own.artifact_id });
    expect(selfDemote.error?.data).toEqual({ reason: 'self_authored' });
  });

  it('a flagged row is not promoted; a recorded row is never promoted', async () => {
    const flagged = await make(agent.key, { content: `key: AKIA${'Q7ZR'.repeat(4)} ${Date.now()}` });
    expect(flagged.state).toBe('L1B_FLAGGED');
    await gate.readBody(reviewer.key, flagged.artifact_id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: flagged.artifact_id })).error?.code).toBe(-32010);
    const recorded = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(), workarea: 'tests/decide', content_type: 'trace', source_uri: 's' })).result;
    await gate.readBody(reviewer.key, recorded.artifact_id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: recorded.artifact_id })).error?.code).toBe(-32010);
  });

  it('reject takes a quarantined row to REJECTED with reason and in_favour_of; an ACTIVE row is not in quarantine', async () => {
    const keep = await make();
    await gate.readBody(reviewer.key, keep.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: keep.artifact_id });
    const drop = await make();
    const r = await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: drop.artifact_id, reason: 'duplicate', in_favour_of: keep.artifact_id });
    expect(r.result.state).toBe('REJECTED');
    expect((await gate.rpc(agent.key, 'gv.status', { artifact_id: drop.artifact_id })).result).toMatchObject({ state: 'REJECTED', reason: 'duplicate' });
    expect((await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: keep.artifact_id })).error?.code).toBe(-32010);
  });

  it('demote withdraws an ACTIVE row from readers and keeps its content for the writer', async () => {
    const row = await make();
    await gate.readBody(reviewer.key, row.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id });
    const reader = await gate.key('reader');
    expect((await gate.rpc(reader.key, 'gv.status', { artifact_id: row.artifact_id })).result.state).toBe('ACTIVE');
    expect((await gate.rpc(reviewer.key, 'gv.demote', { artifact_id: row.artifact_id, reason: 'outdated' })).result.state).toBe('DEMOTED');
    expect((await gate.rpc(reader.key, 'gv.status', { artifact_id: row.artifact_id })).error?.message).toContain('unknown artifact');
    expect((await gate.rpc(agent.key, 'gv.node', { artifact_id: row.artifact_id, body: true })).result.body).toBeTruthy();
  });
});

describe('a refusal inside a group commit rolls back only itself', () => {
  it('racing promotes of one row: exactly one lands; writes batched beside them all land; rebuild equals live', async () => {
    const row = await make();
    await gate.readBody(reviewer.key, row.artifact_id);
    await gate.readBody(reviewer2.key, row.artifact_id);
    const writes = [
      ...Array.from({ length: 10 }, () => gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id })),
      ...Array.from({ length: 10 }, () => gate.rpc(reviewer2.key, 'gv.promote', { artifact_id: row.artifact_id })),
      ...Array.from({ length: 20 }, (_, i) =>
        gate.rpc(agent.key, 'gv.ingest', { content: `${uniqueText()} beside ${i}`, workarea: 'tests/race', kind: 'memory', source_uri: 's' }),
      ),
    ];
    const answers = await Promise.all(writes);
    const promotes = answers.slice(0, 20);
    expect(promotes.filter((a) => a.result?.state === 'ACTIVE')).toHaveLength(1);
    for (const refused of promotes.filter((a) => a.error)) expect(refused.error?.code).toBe(-32010);
    for (const ingested of answers.slice(20)) expect(ingested.result?.state).toBe('L1_SCANNED');
    const why = await gate.rpc(agent.key, 'gv.why', { artifact_id: row.artifact_id });
    expect(why.result.events.filter((e: { type: string }) => e.type === 'promote')).toHaveLength(1);
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
    expect((await gate.socket('gv.audit_chain')).result.ok).toBe(true);
  });
});

describe('status, why, audit and node', () => {
  it('why lists every event that moved the row, in order, each with a verified signature', async () => {
    const row = await make();
    await gate.readBody(reviewer.key, row.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id });
    const why = await gate.rpc(agent.key, 'gv.why', { artifact_id: row.artifact_id });
    expect(why.result.events.map((e: { type: string }) => e.type)).toEqual(['ingest', 'scan', 'promote']);
    expect(why.result.events.map((e: { enters: string }) => e.enters)).toEqual(['L0_RAW', 'L1_SCANNED', 'ACTIVE']);
    for (const e of why.result.events) {
      expect(e.verified).toBe(true);
      expect(e.sig).toMatch(/^[A-Za-z0-9_-]{86}$/);
    }
    expect(why.result.events[2].by).toBe(reviewer.identity);
    expect(why.result.events[1].prev).toBe(why.result.events[0].event_id);
  });

  it('audit hides a readable-only parent list below reviewer and nulls unreadable payload ids', async () => {
    const other = await gate.key('agent');
    const hidden = await make(other.key);
    const seen = await make(other.key);
    await gate.readBody(reviewer.key, seen.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: seen.artifact_id });
    // The agent may only cite what it can read; a reviewer writes the child citing both.
    const child = await make(reviewer.key, { derives_from: [hidden.artifact_id, seen.artifact_id] });
    await gate.readBody(reviewer2.key, child.artifact_id);
    await gate.rpc(reviewer2.key, 'gv.promote', { artifact_id: child.artifact_id });
    const asAgent = await gate.rpc(agent.key, 'gv.audit', { artifact_id: child.artifact_id });
    expect(asAgent.result.envelope.derives_from).toEqual([seen.artifact_id]);
    expect(asAgent.result.envelope.derives_from_withheld).toBe(1);
    const asReviewer = await gate.rpc(reviewer.key, 'gv.audit', { artifact_id: child.artifact_id });
    expect(asReviewer.result.envelope.derives_from).toEqual([hidden.artifact_id, seen.artifact_id]);
    for (const d of asReviewer.result.decisions) expect(d.verified).toBe(true);

    const loser = await make();
    await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: loser.artifact_id, in_favour_of: hidden.artifact_id });
    const loserAudit = await gate.rpc(agent.key, 'gv.audit', { artifact_id: loser.artifact_id });
    const reject = loserAudit.result.decisions.find((d: { type: string }) => d.type === 'reject');
    expect(reject.in_favour_of).toBeNull();
  });

  it("node serves a bounded masked preview; body only for a promoted row or the caller's own, a reviewer the masked body", async () => {
    const secretish = `preview ${'word '.repeat(100)} token ghp_${'Ab9'.repeat(12)}`;
    const row = await make(agent.key, { content: secretish });
    const forReviewer = await gate.rpc(reviewer.key, 'gv.node', { artifact_id: row.artifact_id });
    expect(forReviewer.result.preview.length).toBeLessThanOrEqual(280);
    expect(forReviewer.result.preview_chars).toBe(secretish.length);
    expect(forReviewer.result.self_authored).toBe(false);
    expect(forReviewer.result.revision).toMatch(/^[0-9a-f]{64}$/);
    // A reviewer of another's held row reads the masked body whole (what they sign), never the body itself.
    const bodyForReviewer = await gate.rpc(reviewer.key, 'gv.node', { artifact_id: row.artifact_id, body: true });
    expect(bodyForReviewer.result.body).toBeUndefined();
    expect(bodyForReviewer.result.masked_body).toHaveLength(secretish.length);
    expect(bodyForReviewer.result.masked_body).not.toContain(`ghp_${'Ab9'.repeat(12)}`);
    expect(bodyForReviewer.result.masked_next_offset).toBeNull();
    const own = await gate.rpc(agent.key, 'gv.node', { artifact_id: row.artifact_id, body: true });
    expect(own.result.body).toBe(secretish);
    expect(own.result.self_authored).toBe(true);
    const nonBoolean = await gate.rpc(agent.key, 'gv.node', { artifact_id: row.artifact_id, body: 'yes' });
    expect(nonBoolean.error?.message).toContain('body');
  });
});
