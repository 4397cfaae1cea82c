import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { UnitGate } from '../harness/unit-gate.js';
import { verifyEventSignature } from '../../src/forms/portable-verify.js';
import { useGate } from '../harness/use-gate.js';

// gv.why hands a caller the exact bytes the deployment signed for each event of a row, so
// the caller checks the signature itself, but only where the caller may already read every
// value those bytes hold; otherwise `signed` is null and `withheld` names what keeps it back.

const { gate, keys: { agent, reader, reviewer, reviewer2 } } = useGate({
  kind: 'unit',
  keys: { agent: 'agent', reader: 'reader', reviewer: 'reviewer', reviewer2: 'reviewer' },
});

const ok = async (key: string, method: string, params: Record<string, unknown>) => {
  const a = await gate.rpc(key, method, params);
  expect(a.error, `${method}: ${JSON.stringify(a.error)}`).toBeUndefined();
  return a.result;
};
const write = (extra: Record<string, unknown> = {}, key = agent.key) =>
  ok(key, 'gv.ingest', { content: uniqueText('why'), workarea: 'tests/why', kind: 'memory', source_uri: 'test://why', ...extra });
const promote = async (id: string) => {
  await gate.readBody(reviewer.key, id);
  await ok(reviewer.key, 'gv.promote', { artifact_id: id });
};
const why = async (key: string, id: string) => (await ok(key, 'gv.why', { artifact_id: id })).events as Record<string, any>[];
const ofType = (events: Record<string, any>[], type: string) => events.find((e) => e.type === type)!;

/** What a browser does with an event: the bytes hash to its id, say what the event says, and carry the deployment's signature. */
async function checksOut(e: Record<string, any>, deploymentId = gate.deploymentId): Promise<boolean> {
  const signed = JSON.parse(e.signed);
  return (
    createHash('sha256').update(e.signed).digest('hex') === e.event_id &&
    signed.seq === e.seq &&
    signed.type === e.type &&
    signed.prev === e.prev &&
    signed.by === e.by &&
    signed.ts === e.ts &&
    signed.data.artifact_id === e.artifact_id &&
    (await verifyEventSignature(deploymentId, e.signed, e.sig))
  );
}

describe('gv.why serves the signed bytes a caller may read whole', () => {
  it('a reader of a promoted row is handed every event it may read whole, and each verifies outside the gate', async () => {
    const row = await write();
    await promote(row.artifact_id);
    await ok(agent.key, 'gv.rank', { artifact_id: row.artifact_id, weight: 2 });
    const events = await why(reader.key, row.artifact_id);
    expect(events.map((e) => e.type)).toEqual(['ingest', 'scan', 'promote', 'rank']);
    for (const e of events) {
      expect(e.withheld, e.type).toEqual([]);
      expect(await checksOut(e), e.type).toBe(true);
    }
    // Another deployment's id does not verify them: the check is against this gate's key.
    const other = await UnitGate.open();
    try {
      expect(await checksOut(events[0]!, other.deploymentId)).toBe(false);
    } finally {
      await other.stop();
    }
  });

  it("a comment's words leave through gv.comments alone: its signed bytes are handed to nobody, not even its author", async () => {
    const row = await write();
    await promote(row.artifact_id);
    const c = await ok(agent.key, 'gv.comment', { artifact_id: row.artifact_id, body: 'a remark about the ledger', findings: ['typo'] });
    await ok(agent.key, 'gv.comment_retract', { artifact_id: row.artifact_id, event_id: c.event_id });
    for (const key of [reader.key, agent.key, reviewer.key]) {
      const events = await why(key, row.artifact_id);
      expect(ofType(events, 'comment')).toMatchObject({ signed: null, withheld: ['body', 'findings', 'scan'], kind: 'note', verified: true });
      expect(JSON.stringify(events)).not.toContain('a remark about the ledger');
      expect(await checksOut(ofType(events, 'comment-retract'))).toBe(true);
    }
  });

  it("a scan's findings (the matched text) are handed to nobody; the masked body's hash only to reviewers", async () => {
    const secret = `AKIA${'Q7ZR'.repeat(4)}`;
    const row = await write({ content: `deploy key: ${secret} ${Date.now()}` });
    expect(row.state).toBe('L1B_FLAGGED');
    const byReviewer = await why(reviewer.key, row.artifact_id);
    expect(ofType(byReviewer, 'scan')).toMatchObject({ signed: null, withheld: ['findings'], findings_count: expect.any(Number), verified: true });
    expect(await checksOut(ofType(byReviewer, 'ingest'))).toBe(true);
    const byWriter = await why(agent.key, row.artifact_id);
    expect(ofType(byWriter, 'scan')).toMatchObject({ signed: null, withheld: ['findings', 'masked_hash'] });
    expect(await checksOut(ofType(byWriter, 'ingest'))).toBe(true);
    expect(JSON.stringify([byReviewer, byWriter])).not.toContain(secret.slice(4));
  });

  it('a parent the caller may not read keeps the ingest back; the writer and reviewers are handed it', async () => {
    const parent = await write();
    const child = await write({ derives_from: [parent.artifact_id] });
    await promote(child.artifact_id);
    expect(ofType(await why(reader.key, child.artifact_id), 'ingest')).toMatchObject({ signed: null, withheld: ['derives_from'] });
    expect(await checksOut(ofType(await why(agent.key, child.artifact_id), 'ingest'))).toBe(true);
    expect(await checksOut(ofType(await why(reviewer.key, child.artifact_id), 'ingest'))).toBe(true);
    await promote(parent.artifact_id);
    expect(await checksOut(ofType(await why(reader.key, child.artifact_id), 'ingest'))).toBe(true);
  });

  it("a person's words in a decision stay in the journal, even from their author; a category alone is a closed word", async () => {
    const worded = await write();
    await ok(reviewer.key, 'gv.reject', { artifact_id: worded.artifact_id, reason: 'the ledger named here was closed in May' });
    for (const key of [reviewer.key, reviewer2.key, agent.key]) {
      const events = await why(key, worded.artifact_id);
      expect(ofType(events, 'reject')).toMatchObject({ signed: null, withheld: ['words'], verified: true });
      expect(JSON.stringify(events)).not.toContain('closed in May');
    }
    const categorized = await write();
    await ok(reviewer.key, 'gv.reject', { artifact_id: categorized.artifact_id, category: 'duplicate' });
    expect(await checksOut(ofType(await why(agent.key, categorized.artifact_id), 'reject'))).toBe(true);
  });
});
