import { beforeAll, describe, expect, it } from 'vitest';
import { request, type ClientRequest } from 'node:http';
import { GateProcess } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process', env: { GATE_SERVER_MAX_IN_FLIGHT: '2', GATE_SERVER_MAX_IN_FLIGHT_PER_CREDENTIAL: '1' } });

let a: string;
let b: string;

beforeAll(async () => {
  a = (await gate.key('reader')).key;
  b = (await gate.key('reader')).key;
});

/** A /rpc request whose body is still coming: in flight until `finish` sends the rest. */
function held(key: string): { finish: () => Promise<number> } {
  const url = new URL(gate.url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.ping' });
  let req!: ClientRequest;
  const answered = new Promise<number>((resolve, reject) => {
    req = request({ host: url.hostname, port: url.port, path: '/rpc', method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 5));
  return {
    finish: () => {
      req.end(body.slice(5));
      return answered;
    },
  };
}

/** Asks until the answer is `status` (the held requests reach the gate in their own time), at most 100 times. */
async function askUntil(status: number, ask: () => ReturnType<GateProcess['http']>) {
  for (let i = 0; i < 100; i++) {
    const res = await ask();
    if (res.status === status) return res;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never answered ${status}`);
}

describe('bounded requests in flight: 429 per credential, 503 in total, both with Retry-After', () => {
  it('a second request of one credential while its first is in flight is 429', async () => {
    const first = held(a);
    const second = await askUntil(429, () => gate.http('POST', '/rpc', { key: a, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } }));
    expect(second.headers.get('retry-after')).toBe('1');
    expect(second.json.error).toMatch(/this caller has too many requests in flight/);
    expect(await first.finish()).toBe(200);
    expect((await gate.http('POST', '/rpc', { key: a, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } })).status).toBe(200);
  });

  it('past the total, any route is 503', async () => {
    const one = held(a);
    const two = held(b);
    const third = await askUntil(503, () => gate.http('GET', '/identity'));
    expect(third.headers.get('retry-after')).toBe('1');
    expect(await one.finish()).toBe(200);
    expect(await two.finish()).toBe(200);
    expect((await gate.http('GET', '/identity')).status).toBe(200);
  });
});
