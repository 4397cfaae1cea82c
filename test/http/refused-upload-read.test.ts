import { beforeAll, describe, expect, it } from 'vitest';
import { holdingTheOnePlace, stalledPost } from '../harness/stalled-request.js';
import { useGate } from '../harness/use-gate.js';
import { LINGER_MS } from '../../src/http-rpc/answer-before-body.js';

// Issue 36 section 3: a refused upload must still be read by its client. A client that sent
// `Connection: close` (as Node's own client does with no agent) and is refused before its
// body is read used to have its socket closed under the upload: a broken pipe, and maybe no
// answer read. The gate now answers at once and reads the rest of the body away before closing.
const DEADLINE_MS = 1000;
const { gate } = useGate({ kind: 'in-process', env: { GATE_SERVER_BODY_TIMEOUT_MS: String(DEADLINE_MS), GATE_SERVER_MAX_IN_FLIGHT_PER_CREDENTIAL: '1' } });

let key: string;
beforeAll(async () => {
  key = (await gate.key('agent')).key;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CHUNK = 'x'.repeat(64 * 1024);

describe('a refused upload is read by its client', () => {
  it('refused before its body was read, on a connection that closes: the answer is read and the upload finishes without a broken pipe', async () => {
    const bodyBytes = 4 * 1024 * 1024;
    // The key's one place in flight, held by a body that has not arrived.
    const { held: holder, status } = await holdingTheOnePlace(
      () => stalledPost(gate.url, '/rpc', { Authorization: `Bearer ${key}` }, 1024 * 1024, '{"jso'),
      async () => (await gate.http('POST', '/rpc', { key, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } })).status,
    );
    expect(status).toBe(429);
    const refused = stalledPost(gate.url, '/rpc', { Authorization: `Bearer ${key}`, Connection: 'close' }, bodyBytes, '');
    expect(await refused.answered).toBe(429);
    // The client goes on sending, as a client library does, after the answer arrived.
    let sent = 0;
    while (sent < bodyBytes) {
      const piece = CHUNK.slice(0, Math.min(CHUNK.length, bodyBytes - sent));
      expect(refused.send(piece), `the gate closed the connection after ${sent} of ${bodyBytes} bytes`).toBe(true);
      sent += piece.length;
      if (sent % (1024 * 1024) === 0) await sleep(50);
    }
    await refused.closed;
    expect(refused.errors()).toEqual([]);
    expect(refused.seen()).toMatch(/retry-after: \d+/i);
    expect(refused.seen()).toMatch(/\r\n\r\n\{"error":"busy: this caller has too many requests in flight"\}$/);
    holder.destroy();
    await holder.closed;
  });

  it('cut for time: the 408 is sent at once, the trickle is read a while longer, and the connection closes when the linger ends', async () => {
    const slow = stalledPost(gate.url, '/rpc', { Authorization: `Bearer ${key}` }, 1024 * 1024, '{"jso');
    expect(await slow.answered).toBe(408);
    const answeredAt = performance.now();
    // Still sending after the answer: accepted, not reset, while the gate lingers.
    for (let i = 0; i < 5; i++) {
      expect(slow.send(' ')).toBe(true);
      await sleep(100);
    }
    await slow.closed;
    const lingered = performance.now() - answeredAt;
    // Closed by the gate once it had lingered, not before; a linger without end fails as the
    // test's timeout (the client sends no more). Not timed from above (test/README.md, "Waiting").
    expect(lingered).toBeGreaterThanOrEqual(LINGER_MS - 100);
    expect(slow.errors()).toEqual([]);
    // Its place is free again.
    expect((await gate.http('POST', '/rpc', { key, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } })).status).toBe(200);
  }, 30_000); // Under Node's own request timeout (60 s or later), which would close it too.
});
