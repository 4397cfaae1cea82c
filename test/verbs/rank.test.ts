import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { a, b, reader, reviewer } } = useGate({ kind: 'unit', keys: { a: 'agent', b: 'agent', reader: 'reader', reviewer: 'reviewer' } });

describe('gv.rank', () => {
  it('keeps one standing weight per identity and audience, journals only changes, and totals them', async () => {
    const row = (await gate.rpc(b.key, 'gv.ingest', { content: 'rank me', workarea: 'r', kind: 'memory', source_uri: 'test://r' })).result;
    await gate.readBody(reviewer.key, row.artifact_id);
    await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.artifact_id });
    const first = await gate.rpc(a.key, 'gv.rank', { artifact_id: row.artifact_id, weight: 2, audience: 'ops' });
    expect(first.result).toMatchObject({ audience: 'ops', weight: 2, changed: true, totals: { sum: 2, n: 1 } });
    const same = await gate.rpc(a.key, 'gv.rank', { artifact_id: row.artifact_id, weight: 2, audience: 'ops' });
    expect(same.result).toMatchObject({ changed: false, event_id: null });
    const other = await gate.rpc(b.key, 'gv.rank', { artifact_id: row.artifact_id, weight: -1, audience: 'ops' });
    expect(other.result.totals).toEqual({ sum: 1, n: 2 });
    const withdrawn = await gate.rpc(a.key, 'gv.rank', { artifact_id: row.artifact_id, weight: 0, audience: 'ops' });
    expect(withdrawn.result.totals).toEqual({ sum: -1, n: 1 });
    const events = await gate.rpc(reviewer.key, 'gv.events', { types: ['rank'] });
    expect(events.result.events.map((e: { weight: number }) => e.weight)).toEqual([2, -1, 0]);
  });

  it('refuses a reader (naming both roles), a held row of another as unknown, and a weight out of range', async () => {
    const held = (await gate.rpc(b.key, 'gv.ingest', { content: 'held rank', workarea: 'r', kind: 'memory', source_uri: 'test://r' })).result;
    const r = await gate.rpc(reader.key, 'gv.rank', { artifact_id: held.artifact_id, weight: 1 });
    expect(r.error?.message).toContain('agent');
    expect(r.error?.message).toContain('reader');
    const u = await gate.rpc(a.key, 'gv.rank', { artifact_id: held.artifact_id, weight: 1 });
    expect(u.error?.message).toBe(`unknown artifact: ${held.artifact_id.slice(0, 16)}`);
    const own = await gate.rpc(b.key, 'gv.rank', { artifact_id: held.artifact_id, weight: 1 });
    expect(own.error?.message).toContain('only a promoted row');
    const big = await gate.rpc(b.key, 'gv.rank', { artifact_id: held.artifact_id, weight: 4 });
    expect(big.error?.message).toContain('weight');
  });
});
