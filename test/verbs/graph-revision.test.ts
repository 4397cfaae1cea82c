import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

type Key = { key: string; identity: string };
const { gate, keys: { writer, stranger, reader, reviewer }, ingestId } = useGate({
  kind: 'unit',
  keys: { writer: 'agent', stranger: 'agent', reader: 'reader', reviewer: 'reviewer' },
});

const ingest = (who: Key, extra: Record<string, unknown> = {}) => ingestId(who, { content: uniqueText('rev'), workarea: 'rev/a', source_uri: 'test://rev', ...extra });
const call = async (who: Key, method: string, params: Record<string, unknown>) => {
  const r = await gate.rpc(who.key, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result;
};
const revision = async (who: Key, params: Record<string, unknown> = {}) => (await call(who, 'gv.graph', params)).revision as string;
/** Whether the viewer's graph still matches a revision, asked the way a console asks. */
const unchanged = async (who: Key, rev: string, params: Record<string, unknown> = {}) =>
  (await call(who, 'gv.graph', { ...params, if_revision: rev })).unchanged === true;

beforeAll(async () => {
  await gate.socket('gv.space_create', { name: 'elsewhere', policy: 'auto' });
  await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: stranger.identity, space: 'elsewhere', capabilities: ['contribute'] }] });
  for (let i = 0; i < 3; i++) {
    const id = await ingest(writer);
    await gate.readBody(reviewer.key, id);
    await call(reviewer, 'gv.promote', { artifact_id: id });
  }
});

describe('gv.graph revision', () => {
  it('is stable while nothing the viewer sees moves, and if_revision then answers {revision, unchanged} alone', async () => {
    const first = await call(reader, 'gv.graph', {});
    expect(await revision(reader)).toBe(first.revision);
    expect(await call(reader, 'gv.graph', { if_revision: first.revision })).toEqual({ revision: first.revision, unchanged: true });
    const stale = await call(reader, 'gv.graph', { if_revision: 'g1:not-this-one' });
    expect(stale).toMatchObject({ revision: first.revision, full: true });
    expect(stale.nodes).toEqual(first.nodes);
  });

  it("another identity's held ingest moves neither a reader's nor an agent's revision, but does move a reviewer's", async () => {
    const forReader = await revision(reader);
    const forWriter = await revision(writer);
    const forReviewer = await revision(reviewer);
    const held = await ingest(stranger, { derives_from: [] });
    expect(await unchanged(reader, forReader)).toBe(true);
    expect(await unchanged(writer, forWriter)).toBe(true);
    expect(await unchanged(reviewer, forReviewer)).toBe(false);
    // Rejecting it is still nothing the reader or the writer could ever see.
    await call(reviewer, 'gv.reject', { artifact_id: held, reason: 'off topic' });
    expect(await unchanged(reader, forReader)).toBe(true);
    expect(await unchanged(writer, forWriter)).toBe(true);
  });

  it("another identity's held row citing or related to a visible row moves nothing either", async () => {
    const g = await call(reader, 'gv.graph', {});
    const visible = g.nodes[0].artifact_id as string;
    const held = await ingest(stranger, { derives_from: [visible] });
    await call(reviewer, 'gv.relate', { artifact_id: held, kind: 'contradicts', parent: visible });
    expect(await unchanged(reader, g.revision)).toBe(true);
  });

  it('a promotion moves every viewer that may read the space, and the new revision is then stable again', async () => {
    const forReader = await revision(reader);
    const held = await ingest(stranger);
    expect(await unchanged(reader, forReader)).toBe(true);
    await gate.readBody(reviewer.key, held);
    await call(reviewer, 'gv.promote', { artifact_id: held });
    const after = await call(reader, 'gv.graph', { if_revision: forReader });
    expect(after.unchanged).toBeUndefined();
    expect(after.revision).not.toBe(forReader);
    expect(after.nodes.map((n: { artifact_id: string }) => n.artifact_id)).toContain(held);
    expect(await unchanged(reader, after.revision)).toBe(true);
  });

  it("the viewer's own held ingest moves its own revision and no one else's below reviewer", async () => {
    const forWriter = await revision(writer);
    const forReader = await revision(reader);
    await ingest(writer);
    expect(await unchanged(writer, forWriter)).toBe(false);
    expect(await unchanged(reader, forReader)).toBe(true);
  });

  it('relations, pins and hides between visible rows move it; so does a promotion in a space the graph covers but not one it leaves out', async () => {
    const [a, b] = [await ingest(writer), await ingest(writer)];
    await gate.readBody(reviewer.key, a);
    await call(reviewer, 'gv.promote', { artifact_id: a });
    await gate.readBody(reviewer.key, b);
    await call(reviewer, 'gv.promote', { artifact_id: b });
    let rev = await revision(reader);
    await call(reviewer, 'gv.relate', { artifact_id: b, kind: 'extends', parent: a });
    expect(await unchanged(reader, rev)).toBe(false);
    rev = await revision(reader);
    await call(reviewer, 'gv.override_tip', { artifact_id: a });
    expect(await unchanged(reader, rev)).toBe(false);
    rev = await revision(reader);
    await call(reviewer, 'gv.hide', { artifact_id: b, audience: 'interns', reason: 'detail' });
    const hidden = await call(reader, 'gv.graph', { if_revision: rev });
    expect(hidden.unchanged).toBeUndefined();
    expect(hidden.nodes.find((n: { artifact_id: string }) => n.artifact_id === b).hidden_for).toEqual(['interns']);
    expect(hidden.nodes.find((n: { artifact_id: string }) => n.artifact_id === a)).not.toHaveProperty('hidden_for');

    const mainOnly = await revision(writer, { spaces: ['main'] });
    const elsewhere = await ingest(stranger, { space: 'elsewhere' });
    await gate.readBody(reviewer.key, elsewhere);
    await call(reviewer, 'gv.promote', { artifact_id: elsewhere });
    expect(await unchanged(writer, mainOnly, { spaces: ['main'] })).toBe(true);
    // The reviewer, covering every space, sees it.
    const all = await call(reviewer, 'gv.graph', {});
    expect(all.nodes.map((n: { artifact_id: string }) => n.artifact_id)).toContain(elsewhere);
  });

  it('a revision belongs to the question asked: another filter or another viewer has its own', async () => {
    expect(await revision(reader, { limit: 1 })).not.toBe(await revision(reader));
    expect(await revision(reader, { states: ['ACTIVE'] })).not.toBe(await revision(reader, { states: ['SUPERSEDED'] }));
    expect(await revision(reader)).not.toBe(await revision(writer));
  });
});
