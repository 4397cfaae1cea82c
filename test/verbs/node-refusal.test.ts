import { beforeAll, describe, expect, it } from 'vitest';
import { ReplacementRows } from '../harness/replacement-rows.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { writer, reader, reviewer } } = useGate({ kind: 'unit', keys: { writer: 'agent', reader: 'reader', reviewer: 'reviewer' } });

let rows: ReplacementRows;

beforeAll(async () => {
  rows = new ReplacementRows(gate, writer.key, reviewer.key);
});

const node = async (key: string, id: string) => (await gate.rpc(key, 'gv.node', { artifact_id: id })).result;

describe("gv.node's refusal? (docs/protocol.md#gvnode)", () => {
  it('a rejected row tells its writer why in closed words, never the reviewer\'s own words', async () => {
    const row = await rows.held();
    const rejected = await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: row, category: 'quality', reason: 'the port number is a guess' });
    const answer = await node(writer.key, row);
    expect(answer.refusal).toEqual({ type: 'reject', category: 'quality', signer_class: 'agent', event_id: rejected.result.event_id, ts: expect.any(Number) });
    expect(JSON.stringify(answer.refusal)).not.toContain('guess');
  });

  it('names the row it lost to only when the caller may read that row', async () => {
    const winner = await rows.active();
    const heldWinner = await rows.held();
    const [a, b] = [await rows.held(), await rows.held()];
    await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: a, in_favour_of: winner });
    await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: b, in_favour_of: heldWinner });
    expect((await node(writer.key, a)).refusal).toMatchObject({ category: 'duplicate', in_favour_of: winner });
    expect((await node(writer.key, b)).refusal).toMatchObject({ category: 'duplicate', in_favour_of: heldWinner });
    // The reader cannot read the rejected rows at all (rule U), so a reviewer stands in: it reads every row.
    expect((await node(reviewer.key, b)).refusal.in_favour_of).toBe(heldWinner);
    const stranger = await gate.key('agent');
    const strangersOwn = await rows.held({}, stranger.key);
    await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: strangersOwn, in_favour_of: heldWinner });
    const seen = await node(stranger.key, strangersOwn);
    expect(seen.refusal.category).toBe('duplicate');
    expect(seen.refusal).not.toHaveProperty('in_favour_of');
  });

  it('is absent from a row that is not rejected', async () => {
    const served = await rows.active();
    expect(await node(reader.key, served)).not.toHaveProperty('refusal');
    expect(await node(writer.key, await rows.held())).not.toHaveProperty('refusal');
  });
});
