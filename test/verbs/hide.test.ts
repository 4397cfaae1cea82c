import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { reader, writer, reviewer } } = useGate({ kind: 'unit', keys: { reader: 'reader', writer: 'agent', reviewer: 'reviewer' } });

const word = `plovermark${Date.now().toString(36)}`;

async function promoted(content: string, extra: Record<string, unknown> = {}) {
  const r = await gate.rpc(writer.key, 'gv.ingest', { content, workarea: 'hide/test', kind: 'memory', source_uri: 'test://h', ...extra });
  await gate.readBody(reviewer.key, r.result.artifact_id);
  await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: r.result.artifact_id });
  return r.result.artifact_id as string;
}
const hits = async (query: string, extra: Record<string, unknown> = {}) =>
  (await gate.rpc(reader.key, 'gv.recall', { query, mode: 'lexical', ...extra })).result.hits as Array<{
    artifact_id: string;
    provenance: { hidden?: boolean; lowered?: boolean };
  }>;

describe('gv.hide', () => {
  it('a hide for an audience hides the row from recalls naming that audience only; include_hidden marks it; lift restores it', async () => {
    const t = `${word}a`;
    const row = await promoted(`${t} a claim for everyone but interns`);
    const r = await gate.rpc(reviewer.key, 'gv.hide', { artifact_id: row, audience: 'interns', reason: 'too detailed' });
    expect(r.result).toMatchObject({ artifact_id: row, audience: 'interns', hidden: true, hidden_for: ['interns'], changed: true });
    expect(r.result.lowered).toBeUndefined();
    expect((await hits(t)).map((h) => h.artifact_id)).toEqual([row]);
    expect(await hits(t, { audience: 'interns' })).toEqual([]);
    const marked = await hits(t, { audience: 'interns', include_hidden: true });
    expect(marked.map((h) => [h.artifact_id, h.provenance.hidden])).toEqual([[row, true]]);

    const again = await gate.rpc(reviewer.key, 'gv.hide', { artifact_id: row, audience: 'interns', reason: 'again' });
    expect(again.result).toMatchObject({ changed: false, event_id: r.result.event_id });

    const lift = await gate.rpc(reviewer.key, 'gv.hide', { artifact_id: row, audience: 'interns', lift: true });
    expect(lift.result).toMatchObject({ hidden: false, hidden_for: [], changed: true });
    expect((await hits(t, { audience: 'interns' })).map((h) => h.artifact_id)).toEqual([row]);
  });

  it('a total hide by an API key is journaled lowered: the row sinks below every unhidden hit instead of leaving', async () => {
    const t = `${word}b`;
    const strong = await promoted(`${t} ${t} ${t} strongly matching claim`);
    const weak = await promoted(`${t} weakly matching claim with many other words in it to dilute the score`);
    expect((await hits(t)).map((h) => h.artifact_id)).toEqual([strong, weak]);
    const r = await gate.rpc(reviewer.key, 'gv.hide', { artifact_id: strong, reason: 'misleading' });
    expect(r.result).toMatchObject({ audience: 'all', hidden: true, lowered: true });
    const after = await hits(t);
    expect(after.map((h) => h.artifact_id)).toEqual([weak, strong]);
    expect(after[1]!.provenance.lowered).toBe(true);
    const events = await gate.rpc(reviewer.key, 'gv.events', { types: ['hide'] });
    expect(events.result.events.at(-1)).toMatchObject({ type: 'hide', artifact_id: strong, audience: 'all', lowered: true });
    expect(JSON.stringify(events.result.events)).not.toContain('misleading');
  });

  it('a steering row hidden for an audience is not in force for that audience', async () => {
    const s = await promoted(`${word} steering for the hide test`, { kind: 'steering' });
    await gate.rpc(reviewer.key, 'gv.hide', { artifact_id: s, audience: 'contractors', reason: 'internal' });
    const shown = await gate.rpc(reader.key, 'gv.recall', { workarea: 'hide/test' });
    expect(shown.result.steering.map((x: { artifact_id: string }) => x.artifact_id)).toEqual([s]);
    const hidden = await gate.rpc(reader.key, 'gv.recall', { workarea: 'hide/test', audience: 'contractors' });
    expect(hidden.result.steering).toEqual([]);
  });

  it('dry_run counts the served rows deriving from it and journals nothing', async () => {
    const base = await promoted(`${word} base claim`);
    const d1 = await promoted(`${word} derived one`, { derives_from: [base] });
    const d2 = await promoted(`${word} derived two`, { derives_from: [base] });
    await gate.rpc(writer.key, 'gv.ingest', { content: `${word} derived held`, workarea: 'hide/test', kind: 'memory', source_uri: 'test://h', derives_from: [base] });
    const before = (await gate.rpc(reviewer.key, 'gv.events', { types: ['hide'], direction: 'backward', limit: 1 })).result.events;
    const r = await gate.rpc(reviewer.key, 'gv.hide', { artifact_id: base, dry_run: true });
    expect(r.result).toMatchObject({ artifact_id: base, audience: 'all', dry_run: true, already_hidden_for: [], derived_served: 2 });
    expect(r.result.derived_ids.sort()).toEqual([d1, d2].sort());
    const after = (await gate.rpc(reviewer.key, 'gv.events', { types: ['hide'], direction: 'backward', limit: 1 })).result.events;
    expect(after).toEqual(before);
  });

  it('refuses a hide without a reason, a row that is not promoted, and an agent (naming both roles)', async () => {
    const row = await promoted(`${word} refusals`);
    const noReason = await gate.rpc(reviewer.key, 'gv.hide', { artifact_id: row });
    expect(noReason.error?.message).toContain('reason');
    const held = await gate.rpc(writer.key, 'gv.ingest', { content: `${word} held one`, workarea: 'hide/test', kind: 'memory', source_uri: 'test://h' });
    const notServed = await gate.rpc(reviewer.key, 'gv.hide', { artifact_id: held.result.artifact_id, reason: 'x' });
    expect(notServed.error?.message).toContain('only a promoted row');
    const agent = await gate.rpc(writer.key, 'gv.hide', { artifact_id: row, reason: 'x' });
    expect(agent.error?.message).toContain('reviewer');
    expect(agent.error?.message).toContain('agent');
    const badAudience = await gate.rpc(reviewer.key, 'gv.hide', { artifact_id: row, reason: 'x', audience: 'a b' });
    expect(badAudience.error?.message).toContain('audience');
  });
});
