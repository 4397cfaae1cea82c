import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

type Key = { key: string; identity: string };
const { gate, keys: { writer, reviewer, outsider } } = useGate({ kind: 'unit', keys: { writer: 'agent', reviewer: 'reviewer', outsider: 'reviewer' } });

const ids: Record<string, string> = {};

const record = async (contentType: string, content: string, extra: Record<string, unknown> = {}) => {
  const r = await gate.rpc(writer.key, 'gv.ingest', { content, workarea: 'records/run-1', content_type: contentType, source_uri: 'test://records', space: 'telemetry', ...extra });
  if (r.error) throw new Error(`ingest: ${r.error.message}`);
  expect(r.result.state).toBe('RECORDED');
  return r.result.artifact_id as string;
};
const records = (who: Key, params: Record<string, unknown>) => gate.rpc(who.key, 'gv.records', params);

beforeAll(async () => {
  await gate.socket('gv.space_create', { name: 'telemetry', policy: 'auto' });
  await gate.socket('gv.grant', {
    action: 'issue',
    grants: [
      { principal: writer.identity, space: 'telemetry', capabilities: ['read', 'contribute'] },
      { principal: reviewer.identity, space: 'telemetry', capabilities: ['read'] },
    ],
  });
  ids.event = await record('event', JSON.stringify({ type: 'tool_started', n: 1, tag: uniqueText('e') }));
  ids.usage = await record('usage_record', JSON.stringify({ tokens: 1200, model: 'm', tag: uniqueText('u') }));
  ids.snapshot = await record('state_snapshot', JSON.stringify({ step: 3, tag: uniqueText('s') }), { workarea: 'records/run-2' });
  ids.notJson = await record('event', `plain words, not JSON ${uniqueText('p')}`);
  ids.large = await record('usage_record', JSON.stringify({ padding: 'x'.repeat(5000), tag: uniqueText('l') }));
  ids.secret = await record('event', JSON.stringify({ env: 'GITHUB_TOKEN ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W', tag: uniqueText('k') }));
  // A trace is recorded too, but is not one of the classes gv.records reads.
  ids.trace = await record('trace', JSON.stringify({ span: 'x', tag: uniqueText('t') }));
});

describe('gv.records', () => {
  it('lists the asked classes of a space oldest first, each with class, workarea, writer and ts', async () => {
    const r = await records(reviewer, { space: 'telemetry', classes: ['event', 'usage_record', 'state_snapshot'], limit: 200 });
    expect(r.error).toBeUndefined();
    const listed = r.result.items.map((i: { artifact_id: string }) => i.artifact_id);
    expect(listed).toEqual([ids.event, ids.usage, ids.snapshot, ids.notJson, ids.large, ids.secret]);
    expect(listed).not.toContain(ids.trace);
    expect(r.result.truncated).toBe(false);
    const first = r.result.items[0];
    expect(Object.keys(first).sort()).toEqual(['artifact_id', 'body', 'class', 'ts', 'workarea', 'writer_identity']);
    expect(first).toMatchObject({ class: 'event', workarea: 'records/run-1', writer_identity: writer.identity });
    const ts = r.result.items.map((i: { ts: number }) => i.ts);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
  });

  it('serves a body of at most 4,096 bytes as JSON, else null with the reason', async () => {
    const r = await records(reviewer, { space: 'telemetry', classes: ['event', 'usage_record'], limit: 200 });
    const byId = Object.fromEntries(r.result.items.map((i: { artifact_id: string }) => [i.artifact_id, i]));
    expect(byId[ids.event].body).toMatchObject({ type: 'tool_started', n: 1 });
    expect(byId[ids.event]).not.toHaveProperty('body_refused');
    expect(byId[ids.large]).toMatchObject({ body: null, body_refused: 'too_large' });
    expect(byId[ids.notJson]).toMatchObject({ body: null, body_refused: 'not_json' });
  });

  it("serves the scanner's masked body: a secret in a record never leaves", async () => {
    const r = await records(reviewer, { space: 'telemetry', classes: ['event'], limit: 200 });
    const item = r.result.items.find((i: { artifact_id: string }) => i.artifact_id === ids.secret);
    expect(JSON.stringify(item)).not.toContain('TestOnlyNotARealToken');
    expect(item.body.env).toContain('█');
  });

  it('narrows by class, work area and since (exclusive), and says when a page is truncated', async () => {
    const usage = await records(reviewer, { space: 'telemetry', classes: ['usage_record'], limit: 10 });
    expect(usage.result.items.map((i: { class: string }) => i.class)).toEqual(['usage_record', 'usage_record']);
    const area = await records(reviewer, { space: 'telemetry', classes: ['event', 'usage_record', 'state_snapshot'], limit: 10, workarea: 'records/run-2' });
    expect(area.result.items.map((i: { artifact_id: string }) => i.artifact_id)).toEqual([ids.snapshot]);
    const page = await records(reviewer, { space: 'telemetry', classes: ['event', 'usage_record', 'state_snapshot'], limit: 2 });
    expect(page.result.items).toHaveLength(2);
    expect(page.result.truncated).toBe(true);
    const all = await records(reviewer, { space: 'telemetry', classes: ['event', 'usage_record', 'state_snapshot'], limit: 200 });
    const cut = all.result.items[2].ts as number;
    const after = await records(reviewer, { space: 'telemetry', classes: ['event', 'usage_record', 'state_snapshot'], limit: 200, since: cut });
    expect(after.result.items.every((i: { ts: number }) => i.ts > cut)).toBe(true);
    expect(after.result.items.length).toBe(all.result.items.filter((i: { ts: number }) => i.ts > cut).length);
  });

  it('needs read on the space: a reviewer without a grant is refused not_granted', async () => {
    const r = await records(outsider, { space: 'telemetry', classes: ['event'], limit: 5 });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.data).toEqual({ reason: 'not_granted', space: 'telemetry', capability: 'read' });
    // The admin on the socket needs no grant.
    expect((await gate.socket('gv.records', { space: 'telemetry', classes: ['event'], limit: 5 })).result.items.length).toBeGreaterThan(0);
  });

  it('is a reviewer verb: an agent is refused naming both roles', async () => {
    const r = await records(writer, { space: 'telemetry', classes: ['event'], limit: 5 });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.data).toEqual({ required: 'reviewer', role: 'agent' });
  });

  it('refuses a missing or out-of-range operand by name', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ classes: ['event'], limit: 5 }, 'space'],
      [{ space: 'telemetry', limit: 5 }, 'classes'],
      [{ space: 'telemetry', classes: ['event'] }, 'limit'],
      [{ space: 'telemetry', classes: [], limit: 5 }, 'classes'],
      [{ space: 'telemetry', classes: ['trace'], limit: 5 }, 'classes.0'],
      [{ space: 'telemetry', classes: ['event', 'event'], limit: 5 }, 'classes'],
      [{ space: 'telemetry', classes: ['event'], limit: 0 }, 'limit'],
      [{ space: 'telemetry', classes: ['event'], limit: 201 }, 'limit'],
      [{ space: 'telemetry', classes: ['event'], limit: 5, workarea: 'a//b' }, 'workarea'],
      [{ space: 'telemetry', classes: ['event'], limit: 5, since: -1 }, 'since'],
    ];
    for (const [params, field] of cases) {
      const r = await records(reviewer, params);
      expect(r.error?.code, JSON.stringify(params)).toBe(-32602);
      expect(r.error?.data?.field, JSON.stringify(params)).toBe(field);
    }
    const unknown = await records(reviewer, { space: 'nowhere', classes: ['event'], limit: 5 });
    expect(unknown.error?.message).toContain('the spaces are');
    expect(unknown.error?.data?.spaces).toContain('telemetry');
  });

  it('serves an erased record no body, though another record still holds the same bytes', async () => {
    // A row is its writer's: the same bytes from a second writer are a second row.
    const other = await gate.key('agent');
    await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: other.identity, space: 'telemetry', capabilities: ['read', 'contribute'] }] });
    const content = JSON.stringify({ type: 'shared', tag: uniqueText('x') });
    const erased = await record('event', content, { workarea: 'records/erased' });
    const keptAnswer = await gate.rpc(other.key, 'gv.ingest', { content, workarea: 'records/erased', content_type: 'event', source_uri: 'test://records', space: 'telemetry' });
    const kept = keptAnswer.result.artifact_id as string;
    expect(kept).toBeDefined();
    expect(erased).not.toBe(kept);
    const erase = await gate.socket('gv.erase', { artifact_id: erased, reason: 'personal data' });
    expect(erase.error).toBeUndefined();
    const r = await records(reviewer, { space: 'telemetry', classes: ['event'], workarea: 'records/erased', limit: 10 });
    expect(r.error).toBeUndefined();
    const byId = new Map(r.result.items.map((i: { artifact_id: string }) => [i.artifact_id, i]));
    expect(byId.get(erased)).toMatchObject({ body: null, body_refused: 'content_erased' });
    expect(byId.get(kept)).toMatchObject({ body: JSON.parse(content) });
  });
});
