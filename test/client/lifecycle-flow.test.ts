import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { GateClient, GateClientError, ReviewerClient, DECIDING_VERBS, type VerbName } from '@gate/client';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

/**
 * The lifecycle flow a client library runs (issue 36): an agent writes, a reviewer key that
 * did not write the row promotes it with no read step (gv.promote asks for quorum only:
 * docs/protocol.md#gvpromote), then recall finds it, why tells its story, and a new version supersedes it. Once over
 * /rpc with the client library, once with the official MCP client for the agent's side. And
 * rule 3 of docs/protocol.md#client-transport-rules: the deciding verbs go only through the client made to decide.
 */
const { gate, keys: { agent, reviewer } } = useGate({
  kind: 'in-process',
  env: { GATE_REVIEW_GRADE_EVERY: 'off' },
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

const rpcOptions = (key: string) => ({ transport: 'rpc' as const, baseUrl: gate.url, bearer: key, allowPlainHttpLoopback: true });
let mcp: Client;

beforeAll(async () => {
  mcp = new Client({ name: 'lifecycle', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${gate.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${agent.key}` } } }));
});
afterAll(async () => {
  await mcp?.close();
});

const failure = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (error: unknown) => error);
  expect(e).toBeInstanceOf(GateClientError);
  return e as GateClientError;
};

/** A tool's structured answer through the official client, which checks it against the tool's outputSchema itself. */
async function tool(name: string, args: Record<string, unknown>): Promise<any> {
  const answer = await mcp.callTool({ name, arguments: args });
  expect(answer.isError, JSON.stringify(answer.structuredContent)).toBeFalsy();
  return answer.structuredContent;
}

describe('the lifecycle flow with keys', () => {
  it('over /rpc: written, promoted by a reviewer key unread, recalled, explained, superseded', async () => {
    const writer = new GateClient({ ...rpcOptions(agent.key), scope: 'knowledge' });
    const decider = new ReviewerClient(rpcOptions(reviewer.key));
    const word = `lifecycle${Date.now().toString(36)}`;
    const first = await writer.call('gv.ingest', { content: `${uniqueText('v1')} ${word} ships on Thursdays`, kind: 'memory', source_uri: 'test://lifecycle/rpc', workarea: 'lifecycle/rpc' });
    expect((await decider.call('gv.promote', { artifact_id: first.artifact_id as string })).state).toBe('ACTIVE');
    const hits = (await writer.call('gv.recall', { query: word })).hits as Array<{ artifact_id: string }>;
    expect(hits.map((h) => h.artifact_id)).toContain(first.artifact_id);
    const why = await writer.call('gv.why', { artifact_id: first.artifact_id as string });
    expect(JSON.stringify(why)).toContain('promote');
    const second = await writer.call('gv.ingest', { content: `${uniqueText('v2')} ${word} ships on Fridays`, kind: 'memory', source_uri: 'test://lifecycle/rpc', workarea: 'lifecycle/rpc' });
    const promoted = await decider.call('gv.promote', { artifact_id: second.artifact_id as string, supersedes: first.artifact_id as string });
    expect(promoted).toMatchObject({ state: 'ACTIVE', supersedes: first.artifact_id });
    expect((await writer.call('gv.status', { artifact_id: first.artifact_id as string })).state).toBe('SUPERSEDED');
    const after = ((await writer.call('gv.recall', { query: word })).hits as Array<{ artifact_id: string }>).map((h) => h.artifact_id);
    expect(after).toContain(second.artifact_id);
    expect(after).not.toContain(first.artifact_id);
    await writer.close();
    await decider.close();
  });

  it('with the official MCP client for the agent: remember, a reviewer key promotes unread, recall, why, status after a supersession', async () => {
    const decider = new ReviewerClient(rpcOptions(reviewer.key));
    const word = `mcpflow${Date.now().toString(36)}`;
    const first = await tool('gate.remember', { content: `${uniqueText('m1')} ${word} meets on Mondays`, content_type: 'memory', source_uri: 'test://lifecycle/mcp', workarea: 'lifecycle/mcp' });
    expect(first.state).toBe('L1_SCANNED');
    expect((await decider.call('gv.promote', { artifact_id: first.artifact_id })).state).toBe('ACTIVE');
    expect((await tool('gate.recall', { query: word })).results.map((h: any) => h.artifact_id)).toContain(first.artifact_id);
    expect(JSON.stringify((await tool('gate.why', { artifact_id: first.artifact_id })).events)).toContain('promote');
    const second = await tool('gate.remember', { content: `${uniqueText('m2')} ${word} meets on Tuesdays`, content_type: 'memory', source_uri: 'test://lifecycle/mcp', workarea: 'lifecycle/mcp' });
    await decider.call('gv.promote', { artifact_id: second.artifact_id, supersedes: first.artifact_id });
    expect((await tool('gate.status', { artifact_id: first.artifact_id })).state).toBe('SUPERSEDED');
    const after = (await tool('gate.recall', { query: word })).results.map((h: any) => h.artifact_id);
    expect(after).toEqual(expect.arrayContaining([second.artifact_id]));
    expect(after).not.toContain(first.artifact_id);
    await decider.close();
  });
});

describe('deciding verbs (client transport rule 3)', () => {
  it('no client scope sends one, not even curation with a reviewer key: refused before any I/O', async () => {
    // Port 9 on loopback: a request that went out would fail as transport, not scope.
    const nowhere = { transport: 'rpc' as const, baseUrl: 'http://127.0.0.1:9', bearer: reviewer.key, allowPlainHttpLoopback: true };
    expect(DECIDING_VERBS.size).toBeGreaterThan(0);
    for (const scope of ['read', 'knowledge', 'curation'] as const) {
      const client = new GateClient({ ...nowhere, scope });
      for (const verb of DECIDING_VERBS) {
        const e = await failure(client.call(verb as VerbName, { artifact_id: `sha256:${'0'.repeat(64)}` } as never));
        expect(e.kind, `${verb} in scope ${scope}`).toBe('scope');
        expect(e.message).toContain(`${verb} is a deciding verb`);
      }
    }
  });

  it('the reviewer client sends them, and the service refuses them again to a key below reviewer', async () => {
    const writer = new GateClient({ ...rpcOptions(agent.key), scope: 'knowledge' });
    const row = await writer.call('gv.ingest', { content: uniqueText('decide'), kind: 'memory', source_uri: 'test://lifecycle/decide', workarea: 'lifecycle/decide' });
    const agentDecides = new ReviewerClient(rpcOptions(agent.key));
    const e = await failure(agentDecides.call('gv.promote', { artifact_id: row.artifact_id as string }));
    expect(e).toMatchObject({ kind: 'invalid_params', data: { required: 'reviewer', role: 'agent' } });
    expect((await writer.call('gv.status', { artifact_id: row.artifact_id as string })).state).toBe('L1_SCANNED');
    // A reviewer client's non-deciding calls are curation's.
    expect((await new ReviewerClient(rpcOptions(reviewer.key)).call('gv.ping')).pong).toBe(true);
    await writer.close();
    await agentDecides.close();
  });
});
