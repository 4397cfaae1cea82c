import { afterAll, describe, expect, it } from 'vitest';
import { UnitGate } from '../harness/unit-gate.js';
import { sha256Of, upload, opaqueBytes } from '../harness/attachments.js';

const gates: UnitGate[] = [];
afterAll(async () => {
  for (const g of gates.reverse()) await g.stop();
});

describe('-32015: attachment storage at its bound', () => {
  it('a writer past its quota in the window is refused upload_quota with retry_after_ms; another writer is not', async () => {
    const gate = await UnitGate.open({ env: { GATE_ATTACHMENTS_WRITER_QUOTA_BYTES: '10000', GATE_ATTACHMENTS_WRITER_QUOTA_WINDOW_MS: '3600000' } });
    gates.push(gate);
    const agent = await gate.key('agent');
    expect((await upload(gate, agent.key, opaqueBytes(6000))).result.complete).toBe(true);
    const over = await upload(gate, agent.key, opaqueBytes(6000));
    expect(over.error).toMatchObject({ code: -32015, data: { reason: 'upload_quota' } });
    expect(over.error!.data.retry_after_ms).toBeGreaterThan(3_500_000);
    expect(over.error!.data.retry_after_ms).toBeLessThanOrEqual(3_600_000);
    const other = await gate.key('agent');
    expect((await upload(gate, other.key, opaqueBytes(6000))).result.complete).toBe(true);
  });

  it('the whole store past its budget refuses attachment_budget, counting uploads under way', async () => {
    const gate = await UnitGate.open({ env: { GATE_ATTACHMENTS_BUDGET_BYTES: '10000' } });
    gates.push(gate);
    const [a, b] = [await gate.key('agent'), await gate.key('agent')];
    const half = opaqueBytes(8000);
    // Started and not finished: its declared size is reserved.
    const started = await gate.rpc(a.key, 'gv.upload', { sha256: sha256Of(half), size_bytes: half.length, offset: 0, content: half.subarray(0, 100).toString('base64') });
    expect(started.result.received).toBe(100);
    const refused = await upload(gate, b.key, opaqueBytes(3000));
    expect(refused.error).toEqual({ code: -32015, message: expect.any(String), data: { reason: 'attachment_budget' } });
  });
});
