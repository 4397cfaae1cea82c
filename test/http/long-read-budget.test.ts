import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';
import type { HttpAnswer } from '../harness/gate-process.js';

/**
 * Issue 45 item 7: each identity's long reads (gv.events, gv.graph, gv.inventory,
 * gv.pending, gv.lineage) may take `server.long_read_budget_ms` of the main thread a
 * `server.long_read_window_s`; past it they are refused -32006 reason read_budget, which
 * /rpc and /mcp answer 429 with Retry-After, until the window frees some. A budget of 1 ms
 * is spent within a few calls; what is checked is the refusal, not how long a call took.
 */
const { gate, keys } = useGate({
  kind: 'in-process',
  settings: { 'server.long_read_budget_ms': 1, 'server.long_read_window_s': 60 },
  keys: { writer: 'agent', flood: 'reader', other: 'reader', tools: 'agent' },
});

const WINDOW_MS = 60_000;
const TRIES = 500;

/** Calls until one answer is refused for the budget (every call before it served whole). */
async function untilRefused(call: () => Promise<{ refused: boolean; served: boolean }>): Promise<void> {
  for (let i = 0; i < TRIES; i++) {
    const { refused, served } = await call();
    if (refused) return;
    expect(served).toBe(true);
  }
  throw new Error(`no refusal in ${TRIES} calls`);
}

const rpcCall = (key: string, method: string, params: Record<string, unknown> = {}) =>
  gate.http('POST', '/rpc', { key, body: { jsonrpc: '2.0', id: 1, method, params } });

/** The refusal as /rpc and /mcp send it: 429, Retry-After in whole seconds, and the -32006 read_budget error inside. */
function expectBudgetRefusal(answer: HttpAnswer, error: { code: number; data?: Record<string, unknown> }): void {
  expect(answer.status).toBe(429);
  expect(error.code).toBe(-32006);
  expect(error.data?.['reason']).toBe('read_budget');
  const retryMs = error.data?.['retry_after_ms'] as number;
  expect(retryMs).toBeGreaterThan(0);
  expect(retryMs).toBeLessThanOrEqual(WINDOW_MS);
  expect(answer.headers.get('retry-after')).toBe(String(Math.ceil(retryMs / 1000)));
}

describe('the long-read budget', () => {
  it('refuses an identity past its budget on /rpc with 429 and Retry-After, and serves it again once the window moved', async () => {
    for (let i = 0; i < 40; i++) {
      const r = await gate.rpc(keys.writer.key, 'gv.ingest', { content: `Budget row ${i}: the pump ran ${i} hours.`, workarea: 'budget', kind: 'memory', source_uri: `test://budget/${i}` });
      expect(r.error).toBeUndefined();
    }
    let refusal: HttpAnswer | undefined;
    await untilRefused(async () => {
      const answer = await rpcCall(keys.flood.key, 'gv.events', { limit: 1000 });
      refusal = answer;
      return { refused: answer.status === 429, served: answer.status === 200 && (answer.json as { result?: unknown }).result !== undefined };
    });
    expectBudgetRefusal(refusal!, (refusal!.json as { error: { code: number; data: Record<string, unknown> } }).error);

    // Every long read of the identity is refused now; what is not a long read is served; another identity has its own budget.
    const graph = await rpcCall(keys.flood.key, 'gv.graph');
    expectBudgetRefusal(graph, (graph.json as { error: { code: number; data: Record<string, unknown> } }).error);
    const inventory = await rpcCall(keys.flood.key, 'gv.inventory');
    expect(inventory.status).toBe(429);
    const ping = await rpcCall(keys.flood.key, 'gv.ping');
    expect(ping.status).toBe(200);
    const other = await rpcCall(keys.other.key, 'gv.events', { limit: 1000 });
    expect(other.status).toBe(200);
    expect((other.json as { result: { events: unknown[] } }).result.events.length).toBeGreaterThan(0);

    gate.clock.advance(WINDOW_MS + 1_000);
    const again = await rpcCall(keys.flood.key, 'gv.events', { limit: 1000 });
    expect(again.status).toBe(200);
  });

  it('refuses on the socket with -32006 read_budget and retry_after_ms', async () => {
    let error: { code: number; data?: Record<string, unknown> } | undefined;
    await untilRefused(async () => {
      const answer = await gate.socket('gv.inventory', { limit: 200 });
      error = answer.error;
      return { refused: answer.error !== undefined, served: answer.result !== undefined };
    });
    expect(error?.code).toBe(-32006);
    expect(error?.data?.['reason']).toBe('read_budget');
    expect(error?.data?.['retry_after_ms']).toBeGreaterThan(0);
  });

  it('answers a tool whose verb reads long with 429 and Retry-After on /mcp, the tool error inside', async () => {
    // A bare client's tools/call (no protocol header, no _meta) goes through the SDK; a full one is answered by the door itself.
    const bare = () => gate.http('POST', '/mcp', { key: keys.tools.key, body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'gate.pending', arguments: {} } } });
    let refusal: HttpAnswer | undefined;
    await untilRefused(async () => {
      const answer = await bare();
      refusal = answer;
      const result = (answer.json as { result?: { isError: boolean } }).result;
      return { refused: answer.status === 429, served: answer.status === 200 && result?.isError === false };
    });
    const bareResult = (refusal!.json as { result: { isError: boolean; structuredContent: { error: { code: number; data: Record<string, unknown> } } } }).result;
    expect(bareResult.isError).toBe(true);
    expectBudgetRefusal(refusal!, bareResult.structuredContent.error);

    const full = await gate.http('POST', '/mcp', {
      key: keys.tools.key,
      headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'gate.pending' },
      body: {
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: {
          name: 'gate.pending',
          arguments: {},
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      },
    });
    const fullResult = (full.json as { result: { isError: boolean; structuredContent: { error: { code: number; data: Record<string, unknown> } } } }).result;
    expect(fullResult.isError).toBe(true);
    expectBudgetRefusal(full, fullResult.structuredContent.error);
  });
});
