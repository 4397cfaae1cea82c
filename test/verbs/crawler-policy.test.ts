import { beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { useGate } from '../harness/use-gate.js';

const pair = generateKeyPairSync('ed25519');
const operator: KeyObject = pair.privateKey;
const { gate: server } = useGate({ kind: 'in-process', settings: { 'auth.operator_keys': [pair.publicKey.export({ format: 'jwk' }).x!] } });
let agent: string;

beforeAll(async () => {
  agent = (await server.socket('gv.keys', { action: 'issue', role: 'agent' })).result.key;
});

async function proof() {
  const { nonce } = (await server.socket('gv.challenge', {})).result;
  return { nonce, sig: sign(null, Buffer.from(nonce, 'ascii'), operator).toString('hex') };
}
/** The operator on the socket, with a proof. */
const asAdmin = async (params: Record<string, unknown>) => server.socket('gv.crawler_policy', { ...params, proof: await proof() });
const get = async (params: Record<string, unknown> = {}) => {
  const r = await server.rpc(agent, 'gv.crawler_policy', params);
  if (r.error) throw new Error(r.error.message);
  return r.result;
};

describe('gv.crawler_policy', () => {
  it('by default every crawler respects robots.txt', async () => {
    expect(await get()).toEqual({ default: 'respect_robots', exceptions: [] });
    expect(await get({ url: 'https://docs.example.org/guide' })).toEqual({ url: 'https://docs.example.org/guide', origin: 'https://docs.example.org', robots: 'respect' });
  });

  it('the operator issues an exception for an origin and path prefix, with a proof; the journal records it', async () => {
    const unsigned = await server.socket('gv.crawler_policy', { action: 'issue', origin: 'https://docs.example.org', path_prefix: '/guide/', reason: 'the owner agreed in writing' });
    expect(unsigned.error?.data).toMatchObject({ reason: 'proof_required', field: 'proof' });
    const issued = await asAdmin({ action: 'issue', origin: 'https://docs.example.org', path_prefix: '/guide/', reason: 'the owner agreed in writing' });
    expect(issued.result).toMatchObject({ action: 'issue', origin: 'https://docs.example.org', path_prefix: '/guide/', changed: true });
    const [event] = server.journal('crawler-exception-issued');
    expect(event!.data).toMatchObject({ origin: 'https://docs.example.org', path_prefix: '/guide/', reason: 'the owner agreed in writing' });
    expect(event!.data['operator_key']).toBeDefined();

    expect(await get({ url: 'https://docs.example.org/guide/install' })).toMatchObject({ robots: 'exception', exception: { origin: 'https://docs.example.org', path_prefix: '/guide/', event_id: issued.result.event_id } });
    // Another path, another origin: robots.txt stands.
    expect((await get({ url: 'https://docs.example.org/private' })).robots).toBe('respect');
    expect((await get({ url: 'http://docs.example.org/guide/install' })).robots).toBe('respect');
    expect((await get()).exceptions).toHaveLength(1);
  });

  it('an exception with until ends by itself; a revoke ends one at once, and a second revoke changes nothing', async () => {
    await asAdmin({ action: 'issue', origin: 'https://feeds.example.net', reason: 'a trial week', until: server.clock.now() + 60_000 });
    expect((await get({ url: 'https://feeds.example.net/a' })).robots).toBe('exception');
    server.clock.advance(61_000);
    expect((await get({ url: 'https://feeds.example.net/a' })).robots).toBe('respect');
    expect((await asAdmin({ action: 'revoke', origin: 'https://docs.example.org', path_prefix: '/guide/' })).result).toMatchObject({ changed: true });
    expect((await get({ url: 'https://docs.example.org/guide/install' })).robots).toBe('respect');
    expect((await asAdmin({ action: 'revoke', origin: 'https://docs.example.org', path_prefix: '/guide/' })).result).toEqual({ action: 'revoke', origin: 'https://docs.example.org', path_prefix: '/guide/', changed: false });
  });

  it('an agent reads it and may not change it; operands are checked by name', async () => {
    const refused = await server.rpc(agent, 'gv.crawler_policy', { action: 'issue', origin: 'https://x.example', reason: 'mine' });
    expect(refused.error?.data).toEqual({ required: 'admin', role: 'agent' });
    const reader = (await server.socket('gv.keys', { action: 'issue', role: 'reader' })).result.key;
    expect((await server.rpc(reader, 'gv.crawler_policy', {})).error?.data).toEqual({ required: 'agent', role: 'reader' });
    expect((await server.rpc(agent, 'gv.crawler_policy', { origin: 'https://x.example' })).error?.data?.field).toBe('origin');
    expect((await asAdmin({ action: 'issue', origin: 'https://x.example/path', reason: 'r' })).error?.data?.field).toBe('origin');
    expect((await asAdmin({ action: 'issue', origin: 'https://x.example' })).error?.data?.field).toBe('reason');
    expect((await asAdmin({ action: 'issue', origin: 'https://x.example', reason: 'r', until: 1 })).error?.data?.field).toBe('until');
    expect((await server.rpc(agent, 'gv.crawler_policy', { url: 'ftp://x.example/a' })).error?.data?.field).toBe('url');
  });
});
