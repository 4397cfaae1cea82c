import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { reader, writer, other, reviewer }, ingestAnswer } = useGate({
  kind: 'unit',
  keys: { reader: 'reader', writer: 'agent', other: 'agent', reviewer: 'reviewer' },
});
const word = `quillmark${Date.now().toString(36)}`;
let n = 0;

const ingest = (key: string, content: string, extra: Record<string, unknown> = {}) => ingestAnswer(key, { content, workarea: 'erase/test', source_uri: 'test://erase', ...extra });

async function promoted(content: string, extra: Record<string, unknown> = {}) {
  const r = await ingest(writer.key, content, extra);
  await gate.readBody(reviewer.key, r.result.artifact_id);
  const p = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: r.result.artifact_id });
  expect(p.result?.state).toBe('ACTIVE');
  return r.result.artifact_id as string;
}

const recallIds = async (key: string, query: string, mode: string) =>
  ((await gate.rpc(key, 'gv.recall', { query, mode })).result.hits as Array<{ artifact_id: string }>).map((h) => h.artifact_id);

/** The vector index is written after the commit: wait until vector recall finds the row. */
async function untilVectorFinds(id: string, query: string) {
  for (let i = 0; i < 100; i++) {
    if ((await recallIds(reader.key, query, 'vector')).includes(id)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the row never reached the vector index');
}

const erase = (id: string, reason = 'personal data') => gate.socket('gv.erase', { artifact_id: id, reason });

describe('gv.erase', () => {
  it('a promoted row keeps its existence and metadata; its preview is null, its body refused with a sentence, and recall never serves it', async () => {
    const t = `${word}${++n}`;
    const text = `${t} the staging database password rotates every ninety days`;
    const id = await promoted(text);
    await untilVectorFinds(id, text);
    for (const mode of ['lexical', 'vector', 'hybrid']) expect(await recallIds(reader.key, t, mode)).toContain(id);

    const r = await erase(id);
    expect(r.result).toMatchObject({ artifact_id: id, erased: true, changed: true, bytes_removed: true, vector_dropped: true, bytes_kept_for: [], attachments_removed: [], secure_delete: true, wal_truncated: true });
    expect(r.result.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);

    for (const key of [reader.key, writer.key, reviewer.key]) {
      const node = await gate.rpc(key, 'gv.node', { artifact_id: id });
      expect(node.result).toMatchObject({ artifact_id: id, preview: null, preview_chars: 0, status: { state: 'ACTIVE' }, erased: { event_id: r.result.event_id } });
      const body = await gate.rpc(key, 'gv.node', { artifact_id: id, body: true });
      expect(body.error).toMatchObject({ code: -32602, data: { reason: 'erased' } });
      expect(body.error!.message).toContain('erased');
      expect(JSON.stringify([node, body])).not.toContain(t);
    }
    for (const mode of ['lexical', 'vector', 'hybrid']) expect(await recallIds(reader.key, text, mode)).not.toContain(id);
    const status = await gate.rpc(reader.key, 'gv.status', { artifact_id: id });
    expect(status.result.state).toBe('ACTIVE');
  });

  it('journals content_erased with the content hash kept: served without its reason, the chain verifies and rebuild equals live', async () => {
    const id = await promoted(`${word}${++n} a claim to be forgotten`);
    const r = await erase(id, 'the writer asked us to forget it');
    const events = await gate.rpc(writer.key, 'gv.events', { types: ['content_erased'] });
    const served = events.result.events.find((e: { artifact_id: string }) => e.artifact_id === id);
    expect(served).toMatchObject({ type: 'content_erased', object: 'row', artifact_id: id, event_id: r.result.event_id, by: 'uid:0', enters: null });
    expect(JSON.stringify(events.result)).not.toContain('forget it');
    const chain = await gate.socket('gv.audit_chain');
    expect(chain.result).toMatchObject({ ok: true });
    const rebuild = await gate.socket('gv.rebuild');
    expect(rebuild.error).toBeUndefined();
    expect(rebuild.result.equal).toBe(true);
  });

  it('erasing again changes nothing and journals nothing', async () => {
    const id = await promoted(`${word}${++n} erased twice`);
    const first = await erase(id);
    const second = await erase(id);
    expect(second.result).toMatchObject({ artifact_id: id, erased: true, changed: false, event_id: first.result.event_id });
    const events = await gate.rpc(reviewer.key, 'gv.events', { types: ['content_erased'], direction: 'backward', limit: 1 });
    expect(events.result.events[0].event_id).toBe(first.result.event_id);
  });

  it('the same bytes written again by the same writer are a new row, not a duplicate of the erased one', async () => {
    const text = `${word}${++n} written, erased, written again`;
    const id = await promoted(text);
    await erase(id);
    const again = await ingest(writer.key, text);
    expect(again.result.duplicate).toBeUndefined();
    expect(again.result.artifact_id).not.toBe(id);
    expect(again.result.state).toBe('L1_SCANNED');
    const body = await gate.rpc(writer.key, 'gv.node', { artifact_id: again.result.artifact_id, body: true });
    expect(body.result.body).toBe(text);
    // And once more: the new row is a duplicate of itself, as any row is.
    expect((await ingest(writer.key, text)).result).toMatchObject({ artifact_id: again.result.artifact_id, duplicate: true });
  });

  it('bytes another live row holds stay for it, and the answer names that row', async () => {
    const text = `${word}${++n} two writers wrote the same words`;
    const mine = (await ingest(writer.key, text)).result.artifact_id as string;
    const theirs = (await ingest(other.key, text)).result.artifact_id as string;
    expect(theirs).not.toBe(mine);
    const r = await erase(mine);
    expect(r.result).toMatchObject({ bytes_removed: false, bytes_kept_for: [theirs] });
    expect((await gate.rpc(writer.key, 'gv.node', { artifact_id: mine, body: true })).error?.data).toEqual({ reason: 'erased' });
    expect((await gate.rpc(other.key, 'gv.node', { artifact_id: theirs, body: true })).result.body).toBe(text);
    // The erased row's own held copy is gone from its writer's recall; the other writer still recalls theirs.
    const own = async (key: string) => ((await gate.rpc(key, 'gv.recall', { query: text, mode: 'lexical' })).result.hits as Array<{ artifact_id: string }>).map((h) => h.artifact_id);
    expect(await own(writer.key)).not.toContain(mine);
    expect(await own(other.key)).toContain(theirs);
  });

  it('a held row erased is never promoted, graded or read by a reviewer, and the queue shows it without a preview', async () => {
    const id = (await ingest(writer.key, `${word}${++n} held and then erased`)).result.artifact_id as string;
    await erase(id);
    const read = await gate.rpc(reviewer.key, 'gv.node', { artifact_id: id, body: true });
    expect(read.error?.data).toEqual({ reason: 'erased' });
    const promote = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id });
    expect(promote.error).toMatchObject({ code: -32010, data: { reason: 'erased' } });
    const grade = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id });
    expect(grade.error).toMatchObject({ code: -32010, data: { reason: 'erased' } });
    const queue = await gate.rpc(reviewer.key, 'gv.review', { cap: 500 });
    const item = queue.result.items.find((i: { artifact_id: string }) => i.artifact_id === id);
    expect(item).toMatchObject({ artifact_id: id, preview: null });
    // A rejection needs no content, so the row can still leave the queue.
    expect((await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: id, reason: 'erased' })).result.state).toBe('REJECTED');
  });

  it("an erased child of a replacement group is never prepared (ratified) for its group's activation", async () => {
    const parent = await promoted(`${word}${++n} parent to be replaced`);
    const child = (await ingest(writer.key, `${word}${++n} replacing child, then erased`)).result.artifact_id as string;
    const proposed = await gate.rpc(reviewer.key, 'gv.replacement_propose', { operation: 'supersede', parent_ids: [parent], child_ids: [child], reason: 'newer' });
    expect(proposed.error).toBeUndefined();
    await erase(child);
    const other = await gate.key('reviewer');
    const prepared = await gate.rpc(other.key, 'gv.replacement_prepare', { group_id: proposed.result.group_id, child_id: child });
    expect(prepared.error).toMatchObject({ code: -32010, data: { reason: 'erased' } });
  });

  it('an erased steering row is no longer in force', async () => {
    const s = await promoted(`${word}${++n} steering that is erased`, { kind: 'steering', workarea: 'erase/steer' });
    const shown = async () => ((await gate.rpc(reader.key, 'gv.recall', { workarea: 'erase/steer' })).result.steering as Array<{ artifact_id: string }>).map((x) => x.artifact_id);
    expect(await shown()).toEqual([s]);
    await erase(s);
    expect(await shown()).toEqual([]);
  });

  it('is an admin verb with a reason; an unknown row is refused as rule U', async () => {
    const id = await promoted(`${word}${++n} not theirs to erase`);
    const byReviewer = await gate.rpc(reviewer.key, 'gv.erase', { artifact_id: id, reason: 'x' });
    expect(byReviewer.error?.message).toContain('admin');
    expect(byReviewer.error?.message).toContain('reviewer');
    expect((await gate.socket('gv.erase', { artifact_id: id })).error?.data).toMatchObject({ field: 'reason' });
    const unknown = await gate.socket('gv.erase', { artifact_id: `sha256:${'0'.repeat(64)}`, reason: 'x' });
    expect(unknown.error?.message).toBe(`unknown artifact: ${`sha256:${'0'.repeat(64)}`.slice(0, 16)}`);
    expect((await gate.rpc(reader.key, 'gv.node', { artifact_id: id, body: true })).result.body).toContain('not theirs to erase');
  });
});
