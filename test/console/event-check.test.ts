import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { UnitGate } from '../harness/unit-gate.js';
import { checkEvent, type WhyEvent } from '../../app/src/event-check.js';
import { useGate } from '../harness/use-gate.js';

// The console's check of one event (app/src/event-check.ts, the code the row screen runs in
// the browser) against a real gate's gv.why answer, and against that answer altered in each
// way a gate could misstate an event: the check holds only for the bytes as signed.

const { gate } = useGate({ kind: 'unit' });

let events: WhyEvent[];

beforeAll(async () => {
  const agent = await gate.key('agent');
  const reviewer = await gate.key('reviewer');
  const row = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('check'), workarea: 'tests/check', kind: 'memory', source_uri: 'test://check' })).result;
  await gate.readBody(reviewer.key, row.artifact_id);
  await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id });
  events = (await gate.rpc(reviewer.key, 'gv.why', { artifact_id: row.artifact_id })).result.events;
});

const ingest = () => structuredClone(events.find((e) => e.type === 'ingest')!);
const promote = () => structuredClone(events.find((e) => e.type === 'promote')!);

describe("the console's event check", () => {
  it('verifies each event as the gate served it, against its deployment id only', async () => {
    for (const e of events) expect(await checkEvent(gate.deploymentId, e), e.type).toEqual({ state: 'verified' });
    const other = await UnitGate.open();
    try {
      expect(await checkEvent(other.deploymentId, ingest())).toEqual({ state: 'failed', why: "the signature does not hold for this deployment's key" });
    } finally {
      await other.stop();
    }
  });

  it("fails an event shown with another event's signature, or a malformed one", async () => {
    expect(await checkEvent(gate.deploymentId, { ...ingest(), sig: promote().sig })).toMatchObject({ state: 'failed', why: expect.stringContaining('does not hold') });
    expect(await checkEvent(gate.deploymentId, { ...ingest(), sig: 'not a signature' })).toMatchObject({ state: 'failed' });
  });

  it('fails an event whose id, place or shown fields are not what was signed', async () => {
    expect(await checkEvent(gate.deploymentId, { ...ingest(), event_id: promote().event_id })).toEqual({ state: 'failed', why: 'the signed bytes do not hash to the event id' });
    expect(await checkEvent(gate.deploymentId, { ...promote(), enters: 'REJECTED' })).toEqual({ state: 'failed', why: 'the event as shown differs from what was signed (enters)' });
    expect(await checkEvent(gate.deploymentId, { ...ingest(), size_bytes: 1 })).toEqual({ state: 'failed', why: 'the event as shown differs from what was signed (size_bytes)' });
    expect(await checkEvent(gate.deploymentId, { ...promote(), by: 'key:someone' })).toEqual({ state: 'failed', why: 'the event as shown differs from what was signed (by)' });
    expect(await checkEvent(gate.deploymentId, { ...promote(), seq: promote().seq + 1 })).toMatchObject({ state: 'failed', why: expect.stringContaining('(seq)') });
  });

  it('fails signed bytes that are not canonical, and says withheld bytes were not checked', async () => {
    const e = ingest();
    const spaced = e.signed!.replace('{', '{ ');
    expect(await checkEvent(gate.deploymentId, { ...e, signed: spaced })).toMatchObject({ state: 'failed' });
    expect(await checkEvent(gate.deploymentId, { ...e, signed: null, withheld: ['findings'] })).toEqual({ state: 'withheld', fields: ['findings'] });
  });
});
