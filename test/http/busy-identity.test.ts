import { beforeAll, describe, expect, it } from 'vitest';
import { bearerSpellings, stalledPost, type StalledRequest } from '../harness/stalled-request.js';
import { useGate } from '../harness/use-gate.js';

// Issue 13 section 2: requests in flight are counted by the caller's derived identity, so
// neither one key in many spellings nor keyless /mcp can take the global limit. With
// max_in_flight 100 an identity's share is 25 (a quarter), below the configured 64.
const MAX_IN_FLIGHT = 100;
const SHARE = 25;
const STALLED = 120;

const { gate } = useGate({ kind: 'in-process', env: { GATE_SERVER_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT), GATE_SERVER_BODY_TIMEOUT_MS: '60000' } });

let attacker: string;
let other: string;

beforeAll(async () => {
  attacker = (await gate.key('agent')).key;
  other = (await gate.key('agent')).key;
});

const ping = { jsonrpc: '2.0', id: 1, method: 'gv.ping' };

/**
 * Waits until `count` of the stalled requests were answered (10 s at most, a bound that only
 * turns a count never reached into a failure); answers the statuses answered, a list that
 * grows should more be answered. An answer past the expected count would be the old
 * behaviour: the test reads the list after other callers' requests, sent after every stalled
 * head, were answered.
 */
async function answeredStatuses(stalled: StalledRequest[], count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (const s of stalled) void s.answered.then((status) => status !== null && statuses.push(status));
  const t0 = Date.now();
  while (statuses.length < count && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 25));
  return statuses;
}

/** Other callers meanwhile: a keyed /rpc call and a keyed /mcp call, each answered 200. */
async function othersAreServed() {
  const rpc = await gate.http('POST', '/rpc', { key: other, body: ping });
  expect(rpc.status).toBe(200);
  const mcp = await gate.http('POST', '/mcp', { key: other, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
  expect(mcp.status).toBe(200);
}

async function released(stalled: StalledRequest[]) {
  for (const s of stalled) s.destroy();
  await Promise.all(stalled.map((s) => s.closed));
  // The gate frees a place when it sees the connection close.
  for (let i = 0; i < 100; i++) {
    if ((await gate.http('POST', '/rpc', { key: attacker, body: ping })).status === 200) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the stalled requests never freed their places');
}

describe('requests in flight are counted per derived identity', () => {
  it('one key in every spelling of "Bearer" is one identity: past its share 429, and other callers are served', async () => {
    const spellings = bearerSpellings().slice(0, 17);
    const stalled = Array.from({ length: STALLED }, (_, i) => stalledPost(gate.url, '/rpc', { Authorization: `${spellings[i % spellings.length]} ${attacker}` }, 100, '{"jso'));
    const statuses = await answeredStatuses(stalled, STALLED - SHARE);
    await othersAreServed();
    expect(statuses.length).toBe(STALLED - SHARE);
    expect(statuses.every((s) => s === 429)).toBe(true);
    expect(stalled.find((s) => s.seen().startsWith('HTTP/1.1 429'))!.seen()).toMatch(/\r\nretry-after: 1\r\n/i);
    await released(stalled);
  });

  it('keyless loopback /mcp callers are one identity (local:mcp): stalled ones cannot make a keyed /rpc caller get 503', async () => {
    const stalled = Array.from({ length: STALLED }, () => stalledPost(gate.url, '/mcp', {}, 100, '{"jso'));
    const statuses = await answeredStatuses(stalled, STALLED - SHARE);
    await othersAreServed();
    expect(statuses.length).toBe(STALLED - SHARE);
    expect(statuses.every((s) => s === 429)).toBe(true);
    await released(stalled);
  });
});
