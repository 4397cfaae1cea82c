import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { InProcessGate } from '../harness/in-process-gate.js';
import { HandClock } from '../harness/hand-clock.js';
import { expireOverdue } from '../../dist/src/review/expiry.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let clock: HandClock;
let g: InProcessGate;

beforeAll(() => {
  clock = new HandClock();
  g = InProcessGate.open({ 'review.human_ttl_hours': 1 }, clock);
});
afterAll(async () => {
  await g?.close();
});

let n = 0;
const ingest = async () => {
  n += 1;
  return (await g.ingest(`Ledger note ${n} for the expiry test: the west dock reopens on day ${n}.`, g.agent, { workarea: 'tests/expiry' })).artifact_id;
};
const stateOf = (id: string) => g.gate.store.artifacts.byId(id)!.state;
const itemOf = async (id: string) => (await g.call(g.reviewer, 'gv.review', { cap: 500 })).items.find((i: any) => i.artifact_id === id);

describe('the human-review time-to-live', () => {
  it('expires a waiting row to REJECTED once it ends, the deployment signing', async () => {
    const id = await ingest();
    clock.advance(59 * MINUTE);
    expect(await expireOverdue(g.gate)).toBe(0);
    expect((await itemOf(id)).expires_in_s).toBe(60);
    clock.advance(2 * MINUTE);
    expect(await expireOverdue(g.gate)).toBe(1);
    expect(stateOf(id)).toBe('REJECTED');
    const approval = await g.call(g.reviewer, 'gv.approval', { artifact_id: id });
    expect(approval).toMatchObject({ status: 'rejected', reason: 'expired' });
    const why = await g.call(g.agent, 'gv.why', { artifact_id: id });
    expect(why.events.at(-1)).toMatchObject({ type: 'expire', by: null, leaves: 'L1_SCANNED', enters: 'REJECTED' });
  });

  it('stops while the operator is away and restarts with the time away subtracted; nothing is promoted meanwhile', async () => {
    const id = await ingest();
    const other = await ingest();
    clock.advance(50 * MINUTE);
    const away = await g.call(g.admin, 'gv.away', { note: 'holiday' });
    expect(away).toMatchObject({ away: true, declared: true, days: 0, note: 'holiday' });
    clock.advance(3 * HOUR);
    expect(await expireOverdue(g.gate)).toBe(0);
    expect(await itemOf(id)).toMatchObject({ expires_in_s: 600, waits_for: { blocker: 'human_directive', code: 'away' } });
    await expect(g.promote(other)).rejects.toMatchObject({ code: -32010, data: { reason: 'away' } });
    const back = await g.call(g.admin, 'gv.back', {});
    expect(back).toEqual({ away: false, held_d: 0.13, declared: true });
    clock.advance(9 * MINUTE);
    expect(await expireOverdue(g.gate)).toBe(0);
    expect(stateOf(id)).toBe('L1_SCANNED');
    clock.advance(2 * MINUTE);
    expect(await expireOverdue(g.gate)).toBe(2);
    expect(stateOf(id)).toBe('REJECTED');
  });

  it('an away declared until a time ends by itself then', async () => {
    const id = await ingest();
    const waiting = await ingest();
    const until = clock.t + 30 * MINUTE;
    expect(await g.call(g.admin, 'gv.away', { until })).toMatchObject({ away: true, until });
    await expect(g.call(g.admin, 'gv.away', { until: clock.t - 1 })).rejects.toMatchObject({ code: -32602 });
    clock.advance(40 * MINUTE);
    expect((await g.call(g.admin, 'gv.back', {})).declared).toBe(false);
    expect((await g.promote(id)).state).toBe('ACTIVE');
    // Thirty of its forty minutes were away time: fifty of its sixty are left.
    expect((await itemOf(waiting)).expires_in_s).toBe(50 * 60);
  });

  it('a pending group\'s child that expired can no longer be prepared (-32010 wrong_state)', async () => {
    const parent = await ingest();
    await g.promote(parent);
    const child = await ingest();
    const proposer = { ...g.reviewer, identity: 'key:proposer' };
    const group = await g.call(proposer, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [parent], child_ids: [child], reason: 'newer' });
    clock.advance(2 * HOUR);
    expect(await expireOverdue(g.gate)).toBeGreaterThanOrEqual(1);
    expect(stateOf(child)).toBe('REJECTED');
    await expect(g.call(g.reviewer, 'gv.replacement_prepare', { group_id: group.group_id, child_id: child })).rejects.toMatchObject({
      code: -32010,
      data: { reason: 'wrong_state' },
    });
  });
});

const sendBack = (id: string) => g.call(g.reviewer, 'gv.request_evidence', { artifact_id: id, reason: 'Which survey?' });

/** A completed upload of the agent's, as gv.add_evidence names it. */
async function uploaded(text: string): Promise<string> {
  const bytes = Buffer.from(text);
  const sha256 = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  await g.call(g.agent, 'gv.upload', { sha256, size_bytes: bytes.length, offset: 0, content: bytes.toString('base64') });
  return sha256;
}

describe('the time-to-live of a row sent back for evidence (docs/review.md)', () => {
  it('keeps running while the row waits for its writer: a request nobody answers ends in expiry', async () => {
    const id = await ingest();
    clock.advance(30 * MINUTE);
    await sendBack(id);
    clock.advance(29 * MINUTE);
    expect(await expireOverdue(g.gate)).toBe(0);
    clock.advance(2 * MINUTE);
    expect(await expireOverdue(g.gate)).toBe(1);
    expect(stateOf(id)).toBe('REJECTED');
    const why = await g.call(g.agent, 'gv.why', { artifact_id: id });
    expect(why.events.at(-1)).toMatchObject({ type: 'expire', by: null, leaves: 'NEEDS_EVIDENCE', enters: 'REJECTED' });
    expect(await g.call(g.agent, 'gv.approval', { artifact_id: id })).toMatchObject({ status: 'rejected', reason: 'expired' });
  });

  it('is not restarted by the evidence: the returned row expires when its first clock ends', async () => {
    const id = await ingest();
    clock.advance(20 * MINUTE);
    await sendBack(id);
    clock.advance(20 * MINUTE);
    const back = await g.call(g.agent, 'gv.add_evidence', { artifact_id: id, attachments: [{ sha256: await uploaded(`survey ${n} page`), name: 'survey.txt' }] });
    expect(back.state).toBe('L1_SCANNED');
    expect((await itemOf(id)).expires_in_s).toBe(20 * 60);
    clock.advance(21 * MINUTE);
    expect(await expireOverdue(g.gate)).toBe(1);
    expect(stateOf(id)).toBe('REJECTED');
  });

  it('grading leaves a row sent back alone: gv.grade refuses it and gv.grade_pending passes it by', async () => {
    const id = await ingest();
    await sendBack(id);
    await expect(g.call(g.reviewer, 'gv.grade', { artifact_id: id })).rejects.toMatchObject({ code: -32010, data: { reason: 'wrong_state' } });
    const pending = await g.call(g.reviewer, 'gv.grade_pending', {});
    expect(pending.graded).toBe(0);
    expect(stateOf(id)).toBe('NEEDS_EVIDENCE');
  });
});
