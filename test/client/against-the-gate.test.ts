import { describe, expect, it } from 'vitest';
import { GateClient, GateClientError, ReviewerClient, ToolClient } from '@gate/client';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reader } } = useGate({
  kind: 'in-process',
  env: { GATE_QUARANTINE_MAX_DEPTH: '3', GATE_QUARANTINE_RETRY_AFTER_MS: '4321' },
  keys: { agent: 'agent', reader: 'reader' },
});

const failure = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (error: unknown) => error);
  expect(e).toBeInstanceOf(GateClientError);
  return e as GateClientError;
};
const claim = () => ({ content: uniqueText('client'), kind: 'memory' as const, source_uri: 'test://client', workarea: 'client/a' });

describe('each transport against a real gate', () => {
  it('socket: typed verbs, errors by kind', async () => {
    const c = new GateClient({ transport: 'socket', socketPath: gate.socketPath, scope: 'curation' });
    expect((await c.call('gv.ping')).pong).toBe(true);
    const e = await failure(c.call('gv.status', { artifact_id: `sha256:${'0'.repeat(64)}` }));
    expect(e).toMatchObject({ kind: 'invalid_params', code: -32602 });
  });

  it('/rpc: a write, then rule U, role and scope refusals', async () => {
    const c = new GateClient({ transport: 'rpc', baseUrl: gate.url, bearer: agent.key, allowPlainHttpLoopback: true, scope: 'knowledge' });
    const r = await c.call('gv.ingest', claim());
    expect(r.state).toBe('L1_SCANNED');
    // Scope read: every write refused before any I/O.
    const readOnly = new GateClient({ transport: 'rpc', baseUrl: 'http://127.0.0.1:9', allowPlainHttpLoopback: true });
    expect(await failure(readOnly.call('gv.ingest', claim()))).toMatchObject({ kind: 'scope' });
    // A deciding verb is refused client-side in every scope, and again by the service to a key
    // below reviewer when the client made to decide sends it (test/client/lifecycle-flow.test.ts).
    expect(await failure(c.call('gv.promote', { artifact_id: r.artifact_id as string }))).toMatchObject({ kind: 'scope' });
    const curation = new GateClient({ transport: 'rpc', baseUrl: gate.url, bearer: agent.key, allowPlainHttpLoopback: true, scope: 'curation' });
    expect(await failure(curation.call('gv.promote', { artifact_id: r.artifact_id as string }))).toMatchObject({ kind: 'scope' });
    const decider = new ReviewerClient({ transport: 'rpc', baseUrl: gate.url, bearer: agent.key, allowPlainHttpLoopback: true });
    expect(await failure(decider.call('gv.promote', { artifact_id: r.artifact_id as string }))).toMatchObject({ kind: 'invalid_params', data: { required: 'reviewer', role: 'agent' } });
  });

  it('/rpc: 401 is auth; a full quarantine is busy with retry_after_ms', async () => {
    const bad = new GateClient({ transport: 'rpc', baseUrl: gate.url, bearer: `gk_${'Z'.repeat(43)}`, allowPlainHttpLoopback: true });
    expect(await failure(bad.call('gv.ping'))).toMatchObject({ kind: 'auth', status: 401 });
    const c = new GateClient({ transport: 'rpc', baseUrl: gate.url, bearer: agent.key, allowPlainHttpLoopback: true, scope: 'knowledge' });
    let busy: GateClientError | undefined;
    for (let i = 0; i < 5 && busy === undefined; i++) busy = await c.call('gv.ingest', claim()).then(() => undefined, (e: GateClientError) => e);
    expect(busy).toMatchObject({ kind: 'busy', code: -32006, retry_after_ms: 4321, outcome_unknown: false });
  });

  it('/mcp: tools read structuredContent; tool errors map to kinds; 403 for an events key is forbidden, 401 unauthorized', async () => {
    const tools = new ToolClient({ baseUrl: gate.url, bearer: reader.key, allowPlainHttpLoopback: true });
    expect(((await tools.call('gate.spaces')).spaces as any[]).map((s) => s.name)).toContain('main');
    expect(await failure(tools.status(`sha256:${'1'.repeat(64)}`))).toMatchObject({ kind: 'invalid_params', code: -32602 });
    expect(await failure(tools.remember({}))).toMatchObject({ kind: 'scope' });
    const writer = new ToolClient({ baseUrl: gate.url, bearer: reader.key, allowPlainHttpLoopback: true, scope: 'knowledge' });
    expect(await failure(writer.remember({ ...claim(), kind: undefined, content_type: 'memory' }))).toMatchObject({ kind: 'invalid_params', data: { required: 'agent' } });
    const events = await gate.key('reviewer', { scope: 'events' });
    const scoped = new ToolClient({ baseUrl: gate.url, bearer: events.key, allowPlainHttpLoopback: true });
    expect(await failure(scoped.pending())).toMatchObject({ kind: 'forbidden', status: 403 });
    const unknown = new ToolClient({ baseUrl: gate.url, bearer: `gk_${'Z'.repeat(43)}`, allowPlainHttpLoopback: true });
    expect(await failure(unknown.pending())).toMatchObject({ kind: 'unauthorized', status: 401 });
  });
});
