import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { OrgDoorServer } from '../harness/org-door-server.js';
import { useGate } from '../harness/use-gate.js';

let door: OrgDoorServer;

beforeAll(async () => {
  door = await OrgDoorServer.start();
});
afterAll(async () => {
  await door?.stop();
});
const { gate, keys: { agent, reviewer } } = useGate({
  kind: 'in-process',
  // A retry is due again at once, so a second drain would send whatever the first one kept.
  env: () => ({ GATE_ORG_URL: door.url, GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true', GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY', TEST_ORG_KEY: `gk_${'d'.repeat(43)}`, GATE_ORG_RETRY_AFTER_MS: '0' }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

async function queued(label: string): Promise<string> {
  const id = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(label), kind: 'memory', source_uri: 'test://drain', workarea: 'org/drain' })).result.artifact_id as string;
  await gate.readBody(reviewer.key, id);
  expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
  expect((await gate.rpc(reviewer.key, 'gv.submit', { artifact_id: id })).result.state).toBe('queued');
  return id;
}
const drain = async () => (await gate.socket('gv.submit_drain')).result;
const sentFor = (id: string) => door.received.filter((r) => r.path === `/submissions/${encodeURIComponent(id)}`).length;

describe("a member's drain stops on an answer that will never change", () => {
  it.each([
    [400, 'the body escapes a lone UTF-16 surrogate: that text has no UTF-8 form'],
    [404, 'no such door'],
    [405, '/submissions answers PUT'],
    [409, 'conflict'],
    [410, 'gone'],
    [415, 'unsupported media type'],
  ])('%i is final: journaled refused, never sent again', async (status, error) => {
    const id = await queued(`final ${status}`);
    // Were it sent again, the door would answer the same.
    door.script.set(id, Array.from({ length: 3 }, () => ({ status, body: { error } })));
    expect(await drain()).toMatchObject({ sent: 1, refused: 1, retry: 0 });
    expect(await drain()).toMatchObject({ sent: 0 });
    expect(sentFor(id)).toBe(1);
    expect((await gate.rpc(reviewer.key, 'gv.submit', { artifact_id: id })).result).toMatchObject({ state: 'refused', changed: false });
  });

  it.each([408, 425, 429, 503])('%i is still a retry: sent again on the next drain', async (status) => {
    const id = await queued(`retry ${status}`);
    door.script.set(id, [{ status, body: { error: 'later' } }]);
    expect(await drain()).toMatchObject({ sent: 1, retry: 1 });
    expect(await drain()).toMatchObject({ sent: 1, accepted: 1 });
    expect(sentFor(id)).toBe(2);
  });
});
