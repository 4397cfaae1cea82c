import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { uniqueText } from '../harness/gate-process.js';
import { ServedOutputSchemas, expectCasesForEveryTool, openObjects, type SchemaCase } from '../harness/output-schemas.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });
const clients = new Map<string, Client>();
let served: { name: string; outputSchema?: unknown }[];
const ids: Record<string, string> = {};

/** The official v2 client, unmodified, against this gate's /mcp with one key. */
async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'schema-check', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gate.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

const rpc = async (key: string, method: string, params: Record<string, unknown>) => {
  const a = await gate.rpc(key, method, params);
  if (a.error) throw new Error(`${method}: ${JSON.stringify(a.error)}`);
  return a.result;
};

beforeAll(async () => {
  const keys = { agent: await gate.key('agent'), reader: await gate.key('reader'), reviewer: await gate.key('reviewer') };
  for (const [role, k] of Object.entries(keys)) clients.set(role, await connect(k.key));
  await gate.socket('gv.space_create', { name: 'closed', policy: 'human' });
  const write = (workarea: string, extra: Record<string, unknown> = {}) =>
    rpc(keys.agent.key, 'gv.ingest', { content: uniqueText('schema'), kind: 'memory', source_uri: 'test://schema', workarea, ...extra });
  // A promoted row with as many kinds of event as an agent's and a reviewer's keys can give it.
  ids.promoted = (await write('schema/a')).artifact_id;
  await gate.readBody(keys.reviewer.key, ids.promoted);
  await rpc(keys.reviewer.key, 'gv.promote', { artifact_id: ids.promoted });
  await rpc(keys.agent.key, 'gv.rank', { artifact_id: ids.promoted, weight: 2 });
  await rpc(keys.agent.key, 'gv.comment', { artifact_id: ids.promoted, body: 'checked against the source' });
  await rpc(keys.reviewer.key, 'gv.hide', { artifact_id: ids.promoted, audience: 'testers', reason: 'not for them' });
  await rpc(keys.reviewer.key, 'gv.override_tip', { artifact_id: ids.promoted });
  ids.held = (await write('schema/a')).artifact_id;
  const steering = await write('schema', { kind: 'steering' });
  await gate.readBody(keys.reviewer.key, steering.artifact_id);
  await rpc(keys.reviewer.key, 'gv.promote', { artifact_id: steering.artifact_id });
  for (const area of ['schema/done', 'schema/finish', 'schema/parent', 'schema/child']) await write(area);
  await rpc(keys.agent.key, 'gv.complete', { workarea: 'schema/done' });
  served = (await clients.get('agent')!.listTools()).tools;
});
afterAll(async () => {
  for (const c of clients.values()) await c.close();
  await gate?.stop();
});

const INVALID = -32602;
const missing = `sha256:${'0'.repeat(64)}`;
const note = (workarea: string, extra: Record<string, unknown> = {}) => ({ content: uniqueText('case'), content_type: 'memory', source_uri: 'test://schema', workarea, ...extra });

/** Every call each client-tier tool is put through: success, then each kind of refusal it can give. */
const cases = (): Record<string, SchemaCase[]> => ({
  'gate.remember': [
    { kind: 'ok', args: note('schema/a') },
    { kind: 'ok', args: { ...note('schema/a'), content_type: 'tool_call' } },
    { kind: 'arguments', args: { ...note('schema/a'), trust_class: 'T-1' }, code: INVALID, data: { field: 'trust_class' } },
    { kind: 'arguments', args: { content: 'x' }, code: INVALID },
    { kind: 'role', args: note('schema/a'), as: 'reader', code: INVALID, data: { required: 'agent', role: 'reader' } },
    { kind: 'grant', args: note('schema/a', { space: 'closed' }), code: INVALID, data: { reason: 'not_granted' } },
    { kind: 'space', args: note('schema/a', { space: 'nowhere' }), code: INVALID, data: { field: 'space' } },
    { kind: 'lifecycle', args: note('schema/done'), code: -32010, data: { reason: 'work_complete' } },
  ],
  'gate.recall': [
    { kind: 'ok', args: { query: 'schema', workarea: 'schema/a' } },
    { kind: 'ok', args: { query: 'schema', scope: 'all', include_evidence: false, include_hidden: true, audience: 'testers' } },
    { kind: 'arguments', args: { query: 'schema', k: 1000 }, code: INVALID, data: { field: 'k' } },
    { kind: 'arguments', args: {}, code: INVALID, data: { field: 'query' } },
    { kind: 'space', args: { query: 'schema', space: 'nowhere' }, code: INVALID },
  ],
  'gate.status': [
    { kind: 'ok', args: { artifact_id: ids.promoted! } },
    { kind: 'ok', args: { artifact_id: ids.held! } },
    { kind: 'arguments', args: { artifact_id: 'sha256:xyz' }, code: INVALID, data: { field: 'artifact_id' } },
    { kind: 'unknown_row', args: { artifact_id: missing }, code: INVALID },
  ],
  'gate.why': [
    { kind: 'ok', args: { artifact_id: ids.promoted! } },
    { kind: 'ok', args: { artifact_id: ids.held! }, as: 'reviewer' },
    { kind: 'arguments', args: {}, code: INVALID },
    { kind: 'unknown_row', args: { artifact_id: missing }, code: INVALID },
    { kind: 'unknown_row', args: { artifact_id: ids.held! }, as: 'reader', code: INVALID },
  ],
  'gate.tip': [
    { kind: 'ok', args: { artifact_id: ids.promoted! } },
    { kind: 'ok', args: { artifact_id: ids.held! } },
    { kind: 'arguments', args: { artifact_id: ids.promoted!, body: true }, code: INVALID },
    { kind: 'unknown_row', args: { artifact_id: missing }, code: INVALID },
  ],
  'gate.pending': [
    { kind: 'ok', args: {} },
    { kind: 'ok', args: { limit: 1 } },
    { kind: 'ok', args: {}, as: 'reviewer' },
    { kind: 'arguments', args: { limit: 1001 }, code: INVALID, data: { field: 'limit' } },
  ],
  'gate.spaces': [
    { kind: 'ok', args: {} },
    { kind: 'arguments', args: { name: 'new' }, code: INVALID },
  ],
  'gate.workarea': [
    { kind: 'ok', args: { workarea: 'schema/a' } },
    { kind: 'ok', args: { workarea: 'schema/done' } },
    { kind: 'arguments', args: { workarea: '' }, code: INVALID, data: { field: 'workarea' } },
    { kind: 'area', args: { workarea: 'schema/never' }, code: INVALID, data: { field: 'workarea' } },
    { kind: 'space', args: { workarea: 'schema/a', space: 'nowhere' }, code: INVALID, data: { field: 'space' } },
  ],
  'gate.complete': [
    { kind: 'ok', args: { workarea: 'schema/finish', note: 'done' } },
    { kind: 'ok', args: { workarea: 'schema/finish' } },
    { kind: 'arguments', args: { workarea: 'schema/finish', reopen: true }, code: INVALID },
    { kind: 'area', args: { workarea: 'schema/never' }, code: INVALID, data: { field: 'workarea' } },
    { kind: 'role', args: { workarea: 'schema/finish' }, as: 'reader', code: INVALID, data: { required: 'agent' } },
    { kind: 'grant', args: { workarea: 'schema/finish', space: 'closed' }, code: INVALID, data: { reason: 'not_granted' } },
  ],
  'gate.workarea_relate': [
    { kind: 'ok', args: { workarea: 'schema/child', kind: 'opened_by', target: 'schema/parent' } },
    { kind: 'ok', args: { workarea: 'schema/child', kind: 'opened_by', target: 'schema/parent' } },
    { kind: 'arguments', args: { workarea: 'schema/child', kind: 'unlinks', target: 'schema/parent' }, code: INVALID, data: { field: 'kind' } },
    { kind: 'cycle', args: { workarea: 'schema/parent', kind: 'continues', target: 'schema/child' }, code: INVALID, data: { reason: 'cycle' } },
    { kind: 'area', args: { workarea: 'schema/never', kind: 'continues', target: 'schema/a' }, code: INVALID, data: { field: 'workarea' } },
    { kind: 'role', args: { workarea: 'schema/child', kind: 'continues', target: 'schema/a' }, as: 'reader', code: INVALID, data: { required: 'agent' } },
  ],
  'gate.lineage': [
    { kind: 'ok', args: {} },
    { kind: 'ok', args: { workarea: 'schema/child' }, as: 'reviewer' },
    { kind: 'arguments', args: { workarea: 'a/b/c/d/e/f/g/h/i' }, code: INVALID, data: { field: 'workarea' } },
    { kind: 'space', args: { space: 'nowhere' }, code: INVALID, data: { field: 'space' } },
  ],
});

describe('every client-tier tool answers within the outputSchema tools/list serves (official client, ajv 2020)', () => {
  it('every served tool has cases, and each result of each case validates', async () => {
    const schemas = new ServedOutputSchemas(served);
    const all = cases();
    expectCasesForEveryTool(schemas.names, all);
    for (const [name, list] of Object.entries(all)) {
      for (const c of list) {
        // The official client itself checks a success against the schema: a mismatch throws here.
        const result = await clients.get(c.as ?? 'agent')!.callTool({ name, arguments: c.args });
        schemas.check(name, c, result);
      }
    }
  });

  it('gate.why serves each event with its own fields (the row, the move, who and when, the chain link)', async () => {
    const why = await clients.get('agent')!.callTool({ name: 'gate.why', arguments: { artifact_id: ids.promoted! } });
    const events = (why.structuredContent as { events: Record<string, unknown>[] }).events;
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['ingest', 'scan', 'promote', 'rank', 'comment', 'hide', 'tip-override']));
    const [ingest, scan] = events;
    expect(ingest).toMatchObject({ object: 'row', artifact_id: ids.promoted, space: 'main', workarea: 'schema/a', kind: 'memory', trust_class: expect.any(String) });
    expect(typeof ingest!.size_bytes).toBe('number');
    expect(scan).toMatchObject({ prev: expect.any(String), findings_count: 0, verified: true });
    expect(events.find((e) => e.type === 'promote')).toMatchObject({ signer_class: expect.any(String), provisional: expect.any(Boolean) });
  });

  it('every output object is closed but where its content is open by design', () => {
    const open = served.flatMap((t) => openObjects(t.outputSchema).map((p) => `${t.name} ${p}`));
    // An error's data, counts by state, each writer's state of an area: their keys vary by case.
    for (const p of open) {
      expect(p, 'an open object is one of the deliberate ones').toMatch(
        /(\/error\/properties\/data|properties\/counts|properties\/nodes\/items(\/anyOf\/0)?\/properties\/states)$/,
      );
    }
    for (const t of served) {
      const root = t.outputSchema as { type: string; oneOf: { additionalProperties: boolean }[] };
      expect(root.type, t.name).toBe('object');
      expect(root.oneOf.map((b) => b.additionalProperties), t.name).toEqual([false, false]);
    }
  });
});
