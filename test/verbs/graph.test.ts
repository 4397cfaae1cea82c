import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

type Key = { key: string; identity: string };
const { gate, keys: { writer, other, reader, reviewer }, ingestId } = useGate({
  kind: 'unit',
  keys: { writer: 'agent', other: 'agent', reader: 'reader', reviewer: 'reviewer' },
});

/** Row ids of the fixture every test reads. */
const ids: Record<string, string> = {};

const ingest = (who: Key, content: string, extra: Record<string, unknown> = {}) => ingestId(who, { content, workarea: 'graph/main', source_uri: 'test://graph', ...extra });
const promote = async (id: string, by: Key = reviewer) => {
  await gate.readBody(by.key, id);
  const r = await gate.rpc(by.key, 'gv.promote', { artifact_id: id });
  if (r.error) throw new Error(`promote: ${r.error.message}`);
};
const graph = async (who: Key, params: Record<string, unknown> = {}) => {
  const r = await gate.rpc(who.key, 'gv.graph', params);
  if (r.error) throw new Error(`gv.graph: ${r.error.message}`);
  return r.result;
};
const nodeIds = (g: { nodes: { artifact_id: string }[] }) => g.nodes.map((n) => n.artifact_id);
const edgeKeys = (g: { edges: { child: string; parent: string; kind: string }[] }) => g.edges.map((e) => `${e.child}>${e.kind}>${e.parent}`);

beforeAll(async () => {
  await gate.socket('gv.space_create', { name: 'second', policy: 'auto' });
  await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: writer.identity, space: 'second', capabilities: ['read', 'contribute'] }] });

  ids.base = await ingest(writer, `Base fact\nsecond line ${uniqueText()}`, { source_uri: 'test://graph/base' });
  ids.derived = await ingest(writer, `${'A long first line. '.repeat(12)}\n${uniqueText('derived')}`, { derives_from: [ids.base] });
  ids.question = await ingest(writer, JSON.stringify({ format: 'question/1', question: `Which port?\n${uniqueText()}` }), {
    kind: 'question',
    addressed_to: { kinds: ['person'] },
  });
  for (const id of [ids.base, ids.derived, ids.question]) await promote(id);
  ids.answer = await ingest(writer, JSON.stringify({ format: 'answer/1', answer: `Port 8080. ${uniqueText()}` }), {
    kind: 'answer',
    derives_from: [ids.question],
  });
  await promote(ids.answer);
  // Another identity's held rows: one cites the base row, one answers the question, one only exists.
  ids.otherHeldCiting = await ingest(other, uniqueText('other held citing'), { derives_from: [ids.base] });
  ids.otherHeldAnswer = await ingest(other, JSON.stringify({ format: 'answer/1', answer: `Port 9090. ${uniqueText()}` }), {
    kind: 'answer',
    derives_from: [ids.question],
  });
  // Its writer's answer replacing that held answer (an answerer replaces only its own), promoted:
  // readers see it, never the id it replaces.
  ids.replacing = await ingest(
    other,
    JSON.stringify({ format: 'answer/1', answer: `Port 8443. ${uniqueText()}`, replaces: ids.otherHeldAnswer }),
    { kind: 'answer', derives_from: [ids.question, ids.otherHeldAnswer] },
  );
  await promote(ids.replacing);
  ids.writerHeld = await ingest(writer, uniqueText('writer held'), { derives_from: [ids.base] });
  ids.otherPromoted = await ingest(other, uniqueText('other promoted'));
  await promote(ids.otherPromoted);
  ids.newer = await ingest(other, uniqueText('newer'));
  await promote(ids.newer);
  // Relations: newer extends base; the held row of the other identity corrects base.
  await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: ids.newer, kind: 'extends', parent: ids.base });
  await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: ids.otherHeldCiting, kind: 'corrects', parent: ids.base });
  // A supersession with a pin on the superseded row.
  ids.old = await ingest(other, uniqueText('old'));
  await promote(ids.old);
  ids.successor = await ingest(other, uniqueText('successor'));
  await promote(ids.successor);
  await gate.rpc(reviewer.key, 'gv.relate', { artifact_id: ids.successor, kind: 'supersedes', parent: ids.old });
  const pin = await gate.rpc(reviewer.key, 'gv.override_tip', { artifact_id: ids.old, reason: 'the old wording is right' });
  if (pin.error) throw new Error(pin.error.message);
  ids.inSecond = await ingest(writer, uniqueText('second space'), { space: 'second' });
  await promote(ids.inSecond);
});

describe('gv.graph', () => {
  it('serves every row to a reviewer, newest first, each node with its metadata; label and source_uri only on promoted rows', async () => {
    const g = await graph(reviewer);
    expect(g).toMatchObject({ full: true, truncated: false, bans: [], viewer: { identity: reviewer.identity, role: 'reviewer', sees: 'all' } });
    expect(g.revision).toMatch(/^g1:[0-9a-f]{64}$/);
    const all = nodeIds(g);
    expect(all).toHaveLength(13);
    expect(g.total).toBe(13);
    expect(all[0]).toBe(ids.inSecond);
    expect(all[all.length - 1]).toBe(ids.base);
    const base = g.nodes.find((n: { artifact_id: string }) => n.artifact_id === ids.base);
    expect(base).toEqual({
      artifact_id: ids.base,
      state: 'ACTIVE',
      space: 'main',
      workarea: 'graph/main',
      producer: null,
      kind: 'memory',
      content_type: 'memory',
      addressed_to: null,
      writer_kind: 'program',
      ts: expect.any(Number),
      label: 'Base fact',
      source_uri: 'test://graph/base',
    });
    const long = g.nodes.find((n: { artifact_id: string }) => n.artifact_id === ids.derived);
    expect(long.label).toHaveLength(120);
    expect(long.label).toMatch(/^A long first line\. A long first line\..*…$/);
    const held = g.nodes.find((n: { artifact_id: string }) => n.artifact_id === ids.writerHeld);
    expect(held.state).toBe('L1_SCANNED');
    expect(held).not.toHaveProperty('label');
    expect(held).not.toHaveProperty('source_uri');
    const question = g.nodes.find((n: { artifact_id: string }) => n.artifact_id === ids.question);
    expect(question.label).toBe('Which port?');
    expect(question.addressed_to).toEqual({ kinds: ['person'] });
    expect(g.counts).toEqual({ ACTIVE: 9, L1_SCANNED: 3, SUPERSEDED: 1 });
    expect(g.spaces).toEqual(['main', 'second']);
    expect(g.states).toContain('NEEDS_EVIDENCE');
  });

  it('below reviewer: promoted rows of readable spaces and the caller own rows; another identity held row in no form', async () => {
    const g = await graph(writer);
    const seen = nodeIds(g);
    expect(seen).toContain(ids.writerHeld);
    expect(seen).toContain(ids.inSecond);
    expect(seen).not.toContain(ids.otherHeldCiting);
    expect(seen).not.toContain(ids.otherHeldAnswer);
    expect(g.total).toBe(11);
    expect(g.counts).toEqual({ ACTIVE: 9, L1_SCANNED: 1, SUPERSEDED: 1 });
    expect(g.viewer).toEqual({ identity: writer.identity, role: 'agent', sees: 'promoted_and_own' });

    const r = await graph(reader);
    expect(nodeIds(r)).not.toContain(ids.writerHeld);
    expect(nodeIds(r)).not.toContain(ids.inSecond);
    expect(r.total).toBe(9);
    expect(r.counts).toEqual({ ACTIVE: 8, SUPERSEDED: 1 });
    expect(r.spaces).toEqual(['main']);
    const text = JSON.stringify(r);
    for (const hidden of [ids.otherHeldCiting, ids.otherHeldAnswer, ids.writerHeld, ids.inSecond]) expect(text).not.toContain(hidden);
  });

  it('edges are the relations and derives_from citations between served nodes; an edge to an unreadable row is not served', async () => {
    const g = await graph(reviewer);
    expect(edgeKeys(g)).toEqual(
      expect.arrayContaining([
        `${ids.newer}>extends>${ids.base}`,
        `${ids.otherHeldCiting}>corrects>${ids.base}`,
        `${ids.successor}>supersedes>${ids.old}`,
        `${ids.derived}>derives_from>${ids.base}`,
        `${ids.otherHeldCiting}>derives_from>${ids.base}`,
        `${ids.answer}>derives_from>${ids.question}`,
      ]),
    );
    const relation = g.edges.find((e: { kind: string }) => e.kind === 'extends');
    expect(relation).toMatchObject({ child: ids.newer, parent: ids.base, by: reviewer.identity, event_id: expect.any(String) });

    const r = await graph(reader);
    const keys = edgeKeys(r);
    expect(keys).toContain(`${ids.newer}>extends>${ids.base}`);
    expect(keys).toContain(`${ids.derived}>derives_from>${ids.base}`);
    expect(keys.filter((k) => k.includes(ids.otherHeldCiting!) || k.includes(ids.writerHeld!))).toEqual([]);
    // The writer sees its own held row's citation, still not the other identity's correction.
    const w = edgeKeys(await graph(writer));
    expect(w).toContain(`${ids.writerHeld}>derives_from>${ids.base}`);
    expect(w.some((k) => k.includes(ids.otherHeldCiting!))).toBe(false);
  });

  it('pins come from override_tip; the superseded pinned row keeps its label; bans is always empty in this build', async () => {
    const r = await graph(reader);
    expect(r.pins).toEqual([{ artifact_id: ids.old, by: reviewer.identity, ts: expect.any(Number), event_id: expect.any(String) }]);
    const old = r.nodes.find((n: { artifact_id: string }) => n.artifact_id === ids.old);
    expect(old.state).toBe('SUPERSEDED');
    expect(typeof old.label).toBe('string');
    expect(old.source_uri).toBe('test://graph');
    expect(r.bans).toEqual([]);
  });

  it('a question node lists the readable rows citing it, with replaces only where the replaced row is readable', async () => {
    const forReviewer = (await graph(reviewer)).nodes.find((n: { artifact_id: string }) => n.artifact_id === ids.question);
    expect(forReviewer.cited_by.map((c: { artifact_id: string }) => c.artifact_id)).toEqual([ids.answer, ids.otherHeldAnswer, ids.replacing]);
    expect(forReviewer.cited_by[2]).toEqual({
      artifact_id: ids.replacing,
      kind: 'answer',
      state: 'ACTIVE',
      writer_identity: other.identity,
      writer_kind: 'program',
      ts: expect.any(Number),
      state_ts: expect.any(Number),
      replaces: ids.otherHeldAnswer,
    });
    const forReader = (await graph(reader)).nodes.find((n: { artifact_id: string }) => n.artifact_id === ids.question);
    expect(forReader.cited_by.map((c: { artifact_id: string }) => c.artifact_id)).toEqual([ids.answer, ids.replacing]);
    expect(forReader.cited_by[1]).not.toHaveProperty('replaces');
    expect(forReader.cited_by[0]).toMatchObject({ kind: 'answer', state: 'ACTIVE', writer_identity: writer.identity });
    const memory = (await graph(reader)).nodes.find((n: { artifact_id: string }) => n.artifact_id === ids.base);
    expect(memory).not.toHaveProperty('cited_by');
  });

  it('states (unknown names ignored), kinds and spaces filter; counts still cover every state of the selection', async () => {
    const active = await graph(reviewer, { states: ['SUPERSEDED', 'NO_SUCH_STATE'] });
    expect(nodeIds(active)).toEqual([ids.old]);
    expect(active.total).toBe(1);
    expect(active.counts).toEqual({ ACTIVE: 9, L1_SCANNED: 3, SUPERSEDED: 1 });
    const none = await graph(reviewer, { states: ['NO_SUCH_STATE'] });
    expect(none.nodes).toEqual([]);
    expect(none.total).toBe(0);
    const questions = await graph(reader, { kinds: ['question'] });
    expect(nodeIds(questions)).toEqual([ids.question]);
    const answers = await graph(reviewer, { kinds: ['answer', 'question'], states: ['ACTIVE'] });
    expect(nodeIds(answers)).toEqual([ids.replacing, ids.answer, ids.question]);
    const second = await graph(writer, { spaces: ['second'] });
    expect(nodeIds(second)).toEqual([ids.inSecond]);
    // A space the reader may not read yields nothing of others' (it holds no row of its own there).
    expect((await graph(reader, { spaces: ['second'] })).nodes).toEqual([]);
  });

  it('the limit keeps the newest rows; total counts every match and truncated says more exist; the ceiling is 2000', async () => {
    const g = await graph(reader, { limit: 3 });
    const all = nodeIds(await graph(reader));
    expect(nodeIds(g)).toEqual(all.slice(0, 3));
    expect(g).toMatchObject({ total: 9, truncated: true });
    const edges = edgeKeys(g);
    for (const e of edges) for (const end of [e.split('>')[0], e.split('>')[2]]) expect(nodeIds(g)).toContain(end);
    const big = await graph(reader, { limit: 50_000 });
    expect(big).toMatchObject({ total: 9, truncated: false });
    expect(big.nodes).toHaveLength(9);
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['an unknown space in spaces', { spaces: ['main', 'nowhere'] }, 'nowhere'],
    ['an unknown space with a work area', { workarea: 'graph/main', space: 'nowhere' }, 'nowhere'],
    ['space beside spaces', { space: 'main', spaces: ['main'] }, 'space is refused beside spaces'],
    ['workarea beside spaces', { workarea: 'graph/main', spaces: ['main'] }, 'workarea is refused beside spaces'],
    ['space without workarea', { space: 'main' }, 'space is read only with workarea'],
    ['kinds empty', { kinds: [] }, 'at least one kind'],
    ['a kind outside the table', { kinds: ['memory', 'gossip'] }, 'unknown kind "gossip"'],
    ['kinds beside workarea', { kinds: ['memory'], workarea: 'graph/main' }, 'kinds is refused beside workarea'],
    ['a limit below 1', { limit: 0 }, 'limit'],
    ['an unlisted field', { depth: 2 }, 'unlisted field: depth'],
  ];
  for (const [name, params, words] of refusals) {
    it(`refuses ${name} with -32602`, async () => {
      const r = await gate.rpc(reader.key, 'gv.graph', params);
      expect(r.error?.code, JSON.stringify(r)).toBe(-32602);
      expect(r.error?.message).toContain(words);
    });
  }
});
