import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

/**
 * docs/protocol.md#gvevents: a full page reads on past events the caller is not served. On a busy journal a
 * below-reviewer consumer whose own events sit past 50,000 rows it may not read gets a full
 * page in one call (the walk is bounded in time, and SQLite drops what can never be served).
 */
const { gate, keys: { flood, me } } = useGate({ kind: 'unit', keys: { flood: 'agent', me: 'agent' }, timeout: 120_000 });

const FLOOD_INGESTS = 25_000; // an ingest and its scan: two journal rows each
const CONCURRENCY = 16;

describe('gv.events past 50,000 unserved rows', () => {
  it("answers a below-reviewer caller's full page in one call", async () => {
    const before = (await gate.socket('gv.ping', {})).result;
    expect(before.pong).toBe(true);
    let next = 0;
    const stamp = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < FLOOD_INGESTS) {
          const i = next++;
          const r = await gate.rpc(flood.key, 'gv.ingest', { content: `Flood ${stamp} row ${i}: the gauge read ${i % 97} bar.`, workarea: `flood/${i % 8}`, kind: 'memory', source_uri: `test://flood/${i}` });
          if (r.error) throw new Error(JSON.stringify(r.error));
        }
      }),
    );
    const mine: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await gate.rpc(me.key, 'gv.ingest', { content: `Mine ${stamp} ${i}: the valve is shut.`, workarea: 'mine', kind: 'memory', source_uri: `test://mine/${i}` });
      mine.push(r.result.artifact_id);
    }
    // Served to this caller: the space's creation (everyone's), then its own rows' events, 50,000 rows on.
    const page = await gate.rpc(me.key, 'gv.events', { limit: 3 });
    expect(page.error, JSON.stringify(page.error)).toBeUndefined();
    const seen = (events: Array<{ type: string; artifact_id: string | null }>) => events.map((e) => `${e.type} ${e.artifact_id ?? ''}`.trim());
    expect(seen(page.result.events)).toEqual(['space-created', `ingest ${mine[0]}`, `scan ${mine[0]}`]);
    expect(page.result.caught_up).toBe(false);
    const rest = await gate.rpc(me.key, 'gv.events', { since: page.result.next, limit: 10 });
    expect(seen(rest.result.events)).toEqual([`ingest ${mine[1]}`, `scan ${mine[1]}`]);
    expect(rest.result.caught_up, JSON.stringify(rest.result)).toBe(true);
  }, 240_000);
});
