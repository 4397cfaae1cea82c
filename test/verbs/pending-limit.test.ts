import { beforeAll, describe, expect, it } from 'vitest';
import { tool, toolRefusal } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

/**
 * docs/protocol.md#gvpending: gv.pending takes `limit (integer, default 100)` and names no ceiling (unlike
 * gv.inventory's 200 or gv.events' 1000): a limit past 1000 is served, not refused. The
 * tool gate.pending keeps its own maximum of 1000 (docs/protocol.md#the-tool-endpoint).
 */
const { gate, keys: { agent, reviewer } } = useGate({ kind: 'in-process', keys: { agent: 'agent', reviewer: 'reviewer' } });

const HELD = 1005;

beforeAll(async () => {
  // More held rows than the old ceiling, written a few at a time so a loaded machine keeps up.
  for (let start = 0; start < HELD; start += 15) {
    const batch = Array.from({ length: Math.min(15, HELD - start) }, (_, i) =>
      gate.rpc(agent.key, 'gv.ingest', { content: `held row ${start + i} of the pending limit test`, workarea: 'tests/pending', kind: 'memory', source_uri: 'test://pending' }),
    );
    for (const answer of await Promise.all(batch)) expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  }
}, 600_000);

const ids = (answer: { result: { pending: { artifact_id: string }[] } }) => answer.result.pending.map((p) => p.artifact_id);

describe('gv.pending limit', () => {
  it('defaults to 100 and says more wait', async () => {
    const page = await gate.rpc(reviewer.key, 'gv.pending', {});
    expect(page.result.pending).toHaveLength(100);
    expect(page.result.truncated).toBe(true);
  });

  it('serves a limit past 1000 whole: every held row, nothing truncated', async () => {
    const all = await gate.rpc(reviewer.key, 'gv.pending', { limit: 5000 });
    expect(all.error, JSON.stringify(all.error)).toBeUndefined();
    expect(all.result.pending).toHaveLength(HELD);
    expect(new Set(ids(all)).size).toBe(HELD);
    expect(all.result.truncated).toBe(false);
    const justOver = await gate.rpc(reviewer.key, 'gv.pending', { limit: 1001 });
    expect(justOver.result.pending).toHaveLength(1001);
    expect(justOver.result.truncated).toBe(true);
    expect(ids(justOver)).toEqual(ids(all).slice(0, 1001));
    // The largest integer a JSON number holds exactly is a limit like any other.
    const largest = await gate.rpc(reviewer.key, 'gv.pending', { limit: Number.MAX_SAFE_INTEGER });
    expect(largest.result.pending).toHaveLength(HELD);
  });

  it('refuses a limit that is not a positive integer, naming the field', async () => {
    for (const limit of [0, -1, 1.5, '10']) {
      const refused = await gate.rpc(reviewer.key, 'gv.pending', { limit });
      expect(refused.error?.code, JSON.stringify(limit)).toBe(-32602);
      expect(refused.error?.data?.field).toBe('limit');
    }
  });

  it('the tool gate.pending keeps its own maximum of 1000', async () => {
    const refused = await toolRefusal(gate, 'pending', { limit: 1001 }, reviewer.key);
    expect(refused.code).toBe(-32602);
    expect(refused.data?.field).toBe('limit');
    expect((await tool(gate, 'pending', { limit: 1000 }, reviewer.key)).pending).toHaveLength(1000);
  });
});

describe('gv.inventory over more rows than one window of its walk', () => {
  // The walk reads the view 1,000 rowids a chunk (src/long-reads/read-windows.ts): 1,005 held rows span two windows.
  it('pages newest first across windows, with and without states named, its counts over them all', async () => {
    const oldestFirst = ids(await gate.rpc(reviewer.key, 'gv.pending', { limit: 5000 }));
    for (const filter of [{ states: ['L1_SCANNED'] }, {}]) {
      const paged: string[] = [];
      for (let offset = 0; offset < HELD + 200; offset += 150) {
        const page = await gate.rpc(reviewer.key, 'gv.inventory', { ...filter, limit: 150, offset });
        expect(page.error, JSON.stringify(page.error)).toBeUndefined();
        expect(page.result.counts['L1_SCANNED']).toBe(HELD);
        paged.push(...page.result.artifacts.map((a: { artifact_id: string }) => a.artifact_id).filter((id: string) => oldestFirst.includes(id)));
      }
      expect(paged).toEqual([...oldestFirst].reverse());
    }
  });
});
