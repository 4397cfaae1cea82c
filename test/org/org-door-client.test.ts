import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgDoorClient } from '@gate/client';
import { OrgDoorServer } from '../harness/org-door-server.js';

let door: OrgDoorServer;
let client: OrgDoorClient;
beforeAll(async () => {
  door = await OrgDoorServer.start();
  client = new OrgDoorClient({ baseUrl: door.url, bearer: 'gk_org', allowPlainHttpLoopback: true, deadlineMs: 2000 });
});
afterAll(async () => {
  await client?.close();
  await door?.stop();
});

describe('the org doors client', () => {
  it('classifies every answer of PUT /submissions/{id}', async () => {
    const cases: Array<[number, Record<string, string>, string, Record<string, unknown>]> = [
      [202, {}, 'accepted', { status: 202 }],
      [200, {}, 'accepted', { status: 200 }],
      [503, { 'retry-after': '3' }, 'retry', { retry_after_ms: 3000 }],
      [429, {}, 'retry', { retry_after_ms: null }],
      [401, {}, 'stopped', { error: 'no key' }],
      [403, {}, 'stopped', { error: 'no key' }],
      [400, {}, 'refused', { error: 'no key' }],
      [413, {}, 'refused', {}],
      [422, {}, 'refused', {}],
    ];
    for (const [status, headers, outcome, extra] of cases) {
      const id = `sha256:${String(status).padStart(64, '0')}-${outcome}`;
      door.script.set(id, [{ status, headers, body: status < 300 ? { artifact_id: id, state: 'leased', attempts: 1, deployment_id: 'org' } : { error: 'no key' } }]);
      const answer = await client.submit(id, { submission: { contract: 'submission/1' }, id: 'x', sig: 'y' });
      expect(answer, `${status}`).toMatchObject({ outcome, status, ...extra });
    }
    expect(door.received.every((r) => r.method === 'PUT' && r.headers.authorization === 'Bearer gk_org')).toBe(true);
  });

  it('pages GET /outcomes by cursor until an empty page', async () => {
    door.outcomes = Array.from({ length: 7 }, (_, i) => ({ type: i % 2 ? 'refuse' : 'countersign', artifact_id: `a${i}` }));
    const page = await client.outcomes(undefined, 3);
    expect(page).toMatchObject({ next: 3, deployment_id: 'org-test' });
    expect(page.events.map((e) => e['artifact_id'])).toEqual(['a0', 'a1', 'a2']);
    const all: unknown[] = [];
    for await (const e of client.allOutcomes(2, 2)) all.push(e['artifact_id']);
    expect(all).toEqual(['a2', 'a3', 'a4', 'a5', 'a6']);
    expect(door.received.filter((r) => r.path.startsWith('/outcomes')).map((r) => r.path)).toEqual([
      '/outcomes?limit=3', '/outcomes?since=2&limit=2', '/outcomes?since=4&limit=2', '/outcomes?since=6&limit=2', '/outcomes?since=7&limit=2',
    ]);
  });
});
