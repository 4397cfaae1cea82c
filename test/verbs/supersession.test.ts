import { beforeAll, describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { reader, writer, agent, reviewer }, ingestId } = useGate({
  kind: 'unit',
  keys: { reader: 'reader', writer: 'agent', agent: 'agent', reviewer: 'reviewer' },
});

const word = `kestrelnote${Date.now().toString(36)}`;

beforeAll(async () => {
  await gate.socket('gv.space_create', { name: 'elsewhere', policy: 'auto' });
  await gate.socket('gv.grant', {
    action: 'issue',
    grants: [{ principal: writer.identity, space: 'elsewhere', capabilities: ['read', 'contribute'] }],
  });
});

const ingest = (content: string, key = writer.key, extra: Record<string, unknown> = {}) => ingestId(key, { content, workarea: 'sup/test', source_uri: 'test://s', ...extra });
async function promoted(content: string, extra: Record<string, unknown> = {}) {
  const id = await ingest(content, writer.key, extra);
  await gate.readBody(reviewer.key, id);
  expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).error).toBeUndefined();
  return id;
}
const recallIds = async (query: string, extra: Record<string, unknown> = {}) =>
  ((await gate.rpc(reader.key, 'gv.recall', { query, mode: 'lexical', ...extra })).result.hits as { artifact_id: string }[]).map(
    (h) => h.artifact_id,
  );
const state = async (id: string) => (await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state;

describe('gv.relate and supersession', () => {
  it('supersedes moves the parent to SUPERSEDED, hides it from recall, and include_superseded brings it back', async () => {
    const parent = await promoted(`${word}alpha the old answer`);
    const child = await promoted(`${word}alpha the new answer`);
    expect((await recallIds(`${word}alpha`)).sort()).toEqual([parent, child].sort());

    const r = await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: child, kind: 'supersedes', parent });
    expect(r.result).toMatchObject({ artifact_id: child, relation: 'supersedes', parent, changed: true });
    expect(await state(parent)).toBe('SUPERSEDED');
    expect(await state(child)).toBe('ACTIVE');
    expect(await recallIds(`${word}alpha`)).toEqual([child]);
    const all = await gate.rpc(reader.key, 'gv.recall', { query: `${word}alpha`, mode: 'lexical', include_superseded: true });
    const hit = all.result.hits.find((h: { artifact_id: string }) => h.artifact_id === parent);
    expect(hit.provenance.state).toBe('SUPERSEDED');

    const again = await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: child, kind: 'supersedes', parent });
    expect(again.result).toMatchObject({ changed: false, event_id: r.result.event_id });

    const rel = await gate.rpc(reader.key, 'gv.relations', { artifact_id: parent });
    expect(rel.result.relations).toEqual([
      expect.objectContaining({ kind: 'supersedes', direction: 'child', artifact_id: child, by: reviewer.identity }),
    ]);
    const why = await gate.rpc(reader.key, 'gv.why', { artifact_id: parent });
    expect(why.result.events.map((e: { type: string }) => e.type)).toContain('relation');
  });

  it('the other kinds relate without moving either row', async () => {
    const a = await promoted(`${word}bravo first claim`);
    const b = await promoted(`${word}bravo second claim`);
    for (const kind of ['restates', 'corrects', 'contradicts', 'extends']) {
      const r = await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: b, kind, parent: a });
      expect(r.result, kind).toMatchObject({ relation: kind, changed: true });
    }
    expect(await state(a)).toBe('ACTIVE');
    expect((await recallIds(`${word}bravo`)).sort()).toEqual([a, b].sort());
    const rel = await gate.rpc(reader.key, 'gv.relations', { artifact_id: b });
    expect(rel.result.relations.map((e: { kind: string }) => e.kind).sort()).toEqual(['contradicts', 'corrects', 'extends', 'restates']);
  });

  it('below reviewer, gv.relations and gv.node serve only edges whose other end is readable', async () => {
    const served = await promoted(`${word}charlie served`);
    const heldByAnother = await ingest(`${word}charlie held by another`, agent.key);
    await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: heldByAnother, kind: 'contradicts', parent: served });
    const asReader = await gate.rpc(reader.key, 'gv.relations', { artifact_id: served });
    expect(asReader.result.relations).toEqual([]);
    expect(JSON.stringify((await gate.rpc(reader.key, 'gv.node', { artifact_id: served })).result)).not.toContain(heldByAnother.slice(7));
    const asAuthor = await gate.rpc(agent.key, 'gv.relations', { artifact_id: served });
    expect(asAuthor.result.relations.map((e: { artifact_id: string }) => e.artifact_id)).toEqual([heldByAnother]);
    const asReviewer = await gate.rpc(reviewer.key, 'gv.relations', { artifact_id: served });
    expect(asReviewer.result.relations).toHaveLength(1);
  });

  const refusals: Array<[string, () => Promise<Record<string, unknown>>, string]> = [
    ['a row relating to itself', async () => { const a = await promoted(`${word}delta self`); return { artifact_id: a, kind: 'extends', parent: a }; }, 'itself'],
    ['an unknown kind', async () => { const a = await promoted(`${word}delta k1`); const b = await promoted(`${word}delta k2`); return { artifact_id: a, kind: 'replaces', parent: b }; }, 'kind'],
    ['a held child superseding', async () => { const p = await promoted(`${word}echo p`); const c = await ingest(`${word}echo c`); return { artifact_id: c, kind: 'supersedes', parent: p }; }, 'replacement group'],
    ['superseding a parent that is not ACTIVE', async () => { const p = await ingest(`${word}fox p`); const c = await promoted(`${word}fox c`); return { artifact_id: c, kind: 'supersedes', parent: p }; }, 'only an ACTIVE row'],
    ['superseding across spaces', async () => { const p = await promoted(`${word}golf p`); const c = await promoted(`${word}golf c`, { space: 'elsewhere' }); return { artifact_id: c, kind: 'supersedes', parent: p }; }, 'one space'],
  ];
  for (const [name, make, words] of refusals) {
    it(`refuses ${name}`, async () => {
      const r = await gate.rpc(reviewer.key, 'gv.relate', await make());
      expect(r.error, JSON.stringify(r)).toBeDefined();
      expect(r.error!.message).toContain(words);
    });
  }

  it('refuses an agent, naming both roles, and answers an unreadable parent as an unknown artifact', async () => {
    const a = await promoted(`${word}hotel a`);
    const r = await gate.rpc(agent.key, 'gv.relate', { artifact_id: a, kind: 'extends', parent: a });
    expect(r.error?.message).toContain('reviewer');
    expect(r.error?.message).toContain('agent');
    const missing = `sha256:${'ab'.repeat(32)}`;
    const u = await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: a, kind: 'extends', parent: missing });
    expect(u.error?.message).toBe(`unknown artifact: ${missing.slice(0, 16)}`);
  });
});

describe('gv.tip and gv.override_tip', () => {
  it('serves the chain root to head; a pin makes its row the served head, in recall too, and a second override lifts it', async () => {
    const v1 = await promoted(`${word}india version one`);
    const v2 = await promoted(`${word}india version two`);
    const v3 = await promoted(`${word}india version three`);
    await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: v2, kind: 'supersedes', parent: v1 });
    await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: v3, kind: 'supersedes', parent: v2 });

    const tip = await gate.rpc(reader.key, 'gv.tip', { artifact_id: v1 });
    expect(tip.result).toMatchObject({ artifact_id: v1, head: v3, natural_head: v3, pin: null });
    expect(tip.result.chain.map((m: { artifact_id: string }) => m.artifact_id)).toEqual([v1, v2, v3]);
    expect(await recallIds(`${word}india`)).toEqual([v3]);

    const pin = await gate.rpc(reviewer.key, 'gv.override_tip', { artifact_id: v2, reason: 'v3 is wrong about the port' });
    expect(pin.result).toMatchObject({ pinned: true, head: v2, pin: { artifact_id: v2, by: reviewer.identity } });
    expect((await gate.rpc(reader.key, 'gv.tip', { artifact_id: v3 })).result.head).toBe(v2);
    expect(await recallIds(`${word}india`)).toEqual([v2]);
    const node = await gate.rpc(reader.key, 'gv.node', { artifact_id: v1 });
    expect(node.result.tip).toMatchObject({ artifact_id: v2, pinned: true, chain_length: 3 });

    // Pinning another member moves the pin.
    const moved = await gate.rpc(reviewer.key, 'gv.override_tip', { artifact_id: v1 });
    expect(moved.result).toMatchObject({ pinned: true, head: v1 });
    expect(await recallIds(`${word}india`)).toEqual([v1]);

    const lifted = await gate.rpc(reviewer.key, 'gv.override_tip', { artifact_id: v1 });
    expect(lifted.result).toMatchObject({ pinned: false, head: v3, pin: null });
    expect(await recallIds(`${word}india`)).toEqual([v3]);
  });

  it('refuses to pin a row that is not served, and refuses an agent naming both roles', async () => {
    const held = await ingest(`${word}juliet held`);
    const r = await gate.rpc(reviewer.key, 'gv.override_tip', { artifact_id: held });
    expect(r.error?.message).toContain('not served');
    const a = await gate.rpc(agent.key, 'gv.override_tip', { artifact_id: held });
    expect(a.error?.message).toContain('reviewer');
    expect(a.error?.message).toContain('agent');
  });
});
