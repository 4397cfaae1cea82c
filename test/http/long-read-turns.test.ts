import { describe, expect, it } from 'vitest';
import { setImmediate as nextPass } from 'node:timers/promises';
import { useGate } from '../harness/use-gate.js';

/**
 * Issue 45 item 7: a read that walks the journal runs in chunks, one a pass of the event
 * loop, and the gate answers everyone else between two of them. One reader key walks a
 * journal of 16,000 events it may not read (32 windows of the walk); while that one call
 * is under way, another key's gv.ping is answered over /rpc, and the walk then finishes
 * with its whole answer.
 */
const { gate, keys } = useGate({ kind: 'in-process', keys: { writer: 'agent', walker: 'reader', bystander: 'reader' }, timeout: 240_000 });

const CLAIMS = 8_000; // an ingest and its scan each: 16,000 journal events
const CONCURRENCY = 16;

/** Waits for a condition, a pass of the event loop at a time, at most `passes` passes. */
async function until(condition: () => boolean, passes = 1_000_000): Promise<void> {
  for (let i = 0; i < passes && !condition(); i++) await nextPass();
  expect(condition()).toBe(true);
}

describe('a long read and another caller', () => {
  it("answers another caller's ping between the chunks of a journal walk", async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CLAIMS) {
          const i = next++;
          // The journal the walk needs, written behind the door: the walk and the ping are what go through it.
          const r = await gate.behindTheDoor(keys.writer.key, 'gv.ingest', { content: `Walked past ${i}: gauge ${i % 89} read low.`, workarea: `walk/${i % 8}`, kind: 'memory', source_uri: `test://walk/${i}` });
          if (r.error) throw new Error(JSON.stringify(r.error));
        }
      }),
    );
    const reads = gate.gate.reads;
    expect(reads.inProgress).toBe(0);
    // The walker may read none of the writer's held rows: its one call walks the whole journal.
    const walk = gate.rpc(keys.walker.key, 'gv.events', { limit: 10 });
    await until(() => reads.inProgress === 1);
    const ping = await gate.http('POST', '/rpc', { key: keys.bystander.key, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } });
    expect(ping.status).toBe(200);
    expect((ping.json as { result: { pong: boolean } }).result.pong).toBe(true);
    // Answered while the walk was still between its chunks.
    expect(reads.inProgress).toBe(1);
    const page = await walk;
    expect(page.error).toBeUndefined();
    expect(page.result.events.map((e: { type: string }) => e.type)).toEqual(['space-created']);
    expect(reads.inProgress).toBe(0);
  }, 240_000);
});
