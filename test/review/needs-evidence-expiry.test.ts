import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { InProcessGate } from '../harness/in-process-gate.js';
import { expireOverdue } from '../../dist/src/review/expiry.js';

/** A clock the test moves by hand: the human-review time-to-live without sleeping. */
class HandClock {
  constructor(public t = Date.now()) {}
  now = () => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

const MINUTE = 60_000;
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
  return (await g.ingest(`Survey note ${n} for the evidence clock: the north pier was rebuilt in year ${n}.`, g.agent, { workarea: 'tests/evidence-clock' })).artifact_id;
};
const stateOf = (id: string) => g.gate.store.artifacts.byId(id)!.state;
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
    const item = (await g.call(g.reviewer, 'gv.review', { cap: 500 })).items.find((i: any) => i.artifact_id === id);
    expect(item.expires_in_s).toBe(20 * 60);
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
