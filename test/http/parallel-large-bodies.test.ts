import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

/**
 * 50 clients each send a whole 4 MiB gv.ingest at once, as a client library does (no
 * waiting for the head's answer). Every one of them reads an HTTP answer: 200, or 429/503
 * with Retry-After when the byte budget is full; none sees a broken pipe or a reset, which a
 * client cannot tell from a gate that fell over.
 */
const CLIENTS = 50;
const BODY_BYTES = 4 * 1024 * 1024;

const { gate } = useGate({ kind: 'in-process', env: { GATE_REVIEW_GRADE_EVERY: 'off' } });

function body(i: number): Buffer {
  const head = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'gv.ingest', params: { workarea: 'parallel/w', kind: 'memory', source_uri: `test://parallel/${i}`, content: '' } });
  const room = BODY_BYTES - Buffer.byteLength(head);
  let words = `claim ${i} ${Date.now()}:`;
  for (let n = i * 7919; words.length < room; n = (n * 1103515245 + 12345) >>> 0) words += ` word${n % 9973}`;
  return Buffer.from(head.replace('"content":""', `"content":"${words.slice(0, room)}"`));
}

interface Outcome {
  status?: number;
  retryAfter?: string;
  error?: string;
}

function send(key: string, payload: Buffer): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(`${gate.url}/rpc`, { method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.headers['retry-after'] === undefined ? {} : { retryAfter: String(res.headers['retry-after']) }) }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(payload);
  });
}

describe('50 parallel 4 MiB bodies', () => {
  it('every client reads an HTTP answer: 200, 429 or 503 with Retry-After; none a reset or a broken pipe', async () => {
    const keys: string[] = [];
    for (let i = 0; i < CLIENTS; i++) keys.push((await gate.key('agent')).key);
    const payloads = keys.map((_, i) => body(i));
    const outcomes = await Promise.all(keys.map((key, i) => send(key, payloads[i]!)));
    const errors = outcomes.filter((o) => o.error !== undefined);
    expect(errors, JSON.stringify(outcomes)).toEqual([]);
    for (const o of outcomes) expect([200, 429, 503]).toContain(o.status);
    for (const o of outcomes.filter((x) => x.status !== 200)) expect(o.retryAfter).toBeDefined();
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(0);
  }, 180_000);
});
