import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server, keys: { writer } } = useGate({
  kind: 'unit',
  settings: { 'spaces.main_policy': 'auto', 'review.quorum_profile': 'solo-reviewer' },
  keys: { writer: 'agent' },
});

let reviewer: string;
const ids: Record<string, string> = {};
const words: Record<string, string> = {};

const call = async (key: string, method: string, params: Record<string, unknown>) => {
  const r = await server.rpc(key, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result;
};
const promoted = async (label: string, space = 'main') => {
  words[label] = `zq${label}${Date.now().toString(36)}x`;
  const id = (await call(writer.key, 'gv.ingest', { content: `${uniqueText(label)} ${words[label]}`, workarea: 'reconcile/a', kind: 'memory', source_uri: 'test://reconcile', space })).artifact_id;
  let offset: number | null = 0;
  while (offset !== null) offset = (await call(reviewer, 'gv.node', { artifact_id: id, body: true, ...(offset ? { offset } : {}) })).masked_next_offset ?? null;
  expect((await call(reviewer, 'gv.promote', { artifact_id: id })).state).toBe('ACTIVE');
  return id as string;
};
const found = async (label: string, space = 'main') =>
  ((await call(writer.key, 'gv.recall', { query: words[label], mode: 'lexical', space, include_own_pending: false })).hits as Array<{ artifact_id: string }>).some((h) => h.artifact_id === ids[label]);
const rowid = (id: string) => server.gate.db.prepare('SELECT rowid FROM artifacts WHERE artifact_id = ?').pluck().get(id) as number;
const reconcile = async () => {
  const r = await server.socket('gv.reconcile', {});
  if (r.error) throw new Error(`gv.reconcile: ${r.error.message}`);
  return r.result;
};

beforeAll(async () => {
  reviewer = (await server.socket('gv.keys', { action: 'issue', role: 'reviewer' })).result.key;
  await server.socket('gv.space_create', { name: 'second', policy: 'auto' });
  await server.socket('gv.grant', { action: 'issue', grants: [{ principal: writer.identity, space: 'second', capabilities: ['read', 'contribute'] }] });
  ids.indexed = await promoted('indexed');
  ids.unhidden = await promoted('unhidden', 'second');
  ids.older = await promoted('older');
  ids.newer = await promoted('newer');
  await call(reviewer, 'gv.relate', { artifact_id: ids.newer, kind: 'supersedes', parent: ids.older });
  await call(reviewer, 'gv.override_tip', { artifact_id: ids.older, reason: 'the older wording is right' });
  // A row left held: the held rows' index holds it for its writer's recall.
  ids.held = (await call(writer.key, 'gv.ingest', { content: uniqueText('held'), workarea: 'reconcile/a', kind: 'memory', source_uri: 'test://reconcile' })).artifact_id;
});

describe('gv.reconcile', () => {
  it('puts every consumer surface right from the journal and says, per space, what it changed', async () => {
    // A clean gate has nothing to put right, once the embed stage has written every vector it owes.
    const deadline = Date.now() + 20_000;
    while (server.gate.pipeline.embed.pending > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const clean = await reconcile();
    expect(clean, JSON.stringify(clean)).toMatchObject({ changed: 0 });
    // Drift the journal does not say: what a crash of an older build or a bug in a view could leave.
    const db = server.gate.db;
    db.prepare('DELETE FROM recall_fts WHERE rowid = ?').run(rowid(ids.indexed));
    db.prepare(`INSERT INTO hides (artifact_id, audience, by, lowered, seq, ts, event_id) VALUES (?, 'all', 'key:nobody', 0, 1, 1, 'forged')`).run(ids.unhidden);
    db.prepare('DELETE FROM tip_pins WHERE artifact_id = ?').run(ids.older);
    db.prepare(`UPDATE relations SET by = 'key:forged' WHERE child = ? AND kind = 'supersedes'`).run(ids.newer);
    db.prepare('UPDATE vector_values SET e = zeroblob(length(e)) WHERE rowid = ?').run(rowid(ids.unhidden));
    // The held index is written after the answer: once written, its entry is lost.
    await server.gate.recall.heldText.current();
    expect(db.prepare('DELETE FROM held_fts WHERE rowid = ?').run(rowid(ids.held)).changes).toBe(1);
    expect(await found('indexed')).toBe(false);
    expect(await found('unhidden', 'second')).toBe(false);
    expect((await call(reviewer, 'gv.tip', { artifact_id: ids.newer })).head).toBe(ids.newer);

    const answer = await reconcile();
    expect(answer.spaces.main).toEqual({
      recall_index: { added: 1, removed: 0 },
      held_index: { added: 1, removed: 0 },
      hides: { added: 0, removed: 0 },
      pins: { added: 1, removed: 0 },
      tips: { added: 1, removed: 1 },
      ranks: { added: 0, removed: 0 },
    });
    expect(answer.spaces.second).toMatchObject({ hides: { added: 0, removed: 1 }, recall_index: { added: 0, removed: 0 } });
    expect(answer.vectors).toMatchObject({ rewritten: 1, failed: 0 });
    expect(answer.changed).toBe(7);
    expect(answer.other_views_differ).toEqual([]);

    // Readers are served as the journal says again.
    expect(await found('indexed')).toBe(true);
    expect(await found('unhidden', 'second')).toBe(true);
    expect((await call(reviewer, 'gv.tip', { artifact_id: ids.newer })).head).toBe(ids.older);
    expect(db.prepare('SELECT count(*) FROM held_fts WHERE rowid = ?').pluck().get(rowid(ids.held))).toBe(1);
    expect((await server.socket('gv.rebuild', {})).result.equal).toBe(true);
  });

  it('is idempotent: a second call changes nothing', async () => {
    const again = await reconcile();
    expect(again.changed).toBe(0);
    expect(again.vectors.rewritten).toBe(0);
    for (const surfaces of Object.values(again.spaces) as Array<Record<string, { added: number; removed: number }>>) {
      for (const change of Object.values(surfaces)) expect(change).toEqual({ added: 0, removed: 0 });
    }
  });

  it('is an admin verb: a reviewer is refused naming both roles', async () => {
    expect((await server.rpc(reviewer, 'gv.reconcile', {})).error?.data).toEqual({ required: 'admin', role: 'reviewer' });
    expect((await server.socket('gv.reconcile', { spaces: ['main'] })).error?.data).toEqual({ field: 'spaces' });
  });
});
