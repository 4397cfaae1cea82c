import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { OrgProcess, PostgresCluster, orgCli, putSubmission } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';

/**
 * Listing is not taking (docs/organization.md, gv.org_inbox and gv.org_take), over a real org
 * process on PostgreSQL with two review keys: reading the inbox holds nothing, taking covers
 * one submission, and every other reviewer sees who holds it and until when.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-take-'));
chmodSync(dir, 0o755);
const home = join(dir, 'org');
const HOLD_S = 600;
let cluster: PostgresCluster;
let org: OrgProcess;
let db: pg.Pool;
let ann: string;
let ben: string;
const member = new SimulatedMember();
const subs = [0, 1, 2].map((i) => member.submission(`a claim to take ${i} ${Date.now()}`));
const cli = (...args: string[]) => orgCli([...args, '--home', home, '--database-url', cluster.url]);

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  org = await OrgProcess.start(home, { databaseUrl: cluster.url, env: { GATE_ORG_REVIEW_HOLD_S: String(HOLD_S) } });
  const memberKey = JSON.parse(cli('member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'member', '--json')).key;
  ann = JSON.parse(cli('key', 'issue', '--scope', 'review', '--label', 'ann', '--json')).key;
  ben = JSON.parse(cli('key', 'issue', '--scope', 'review', '--label', 'ben', '--json')).key;
  // One at a time, so they are received in this order.
  for (const s of subs) expect((await putSubmission(org, memberKey, s)).status).toBe(202);
  db = new pg.Pool({ connectionString: cluster.url, max: 1 });
}, 180_000);
afterAll(async () => {
  await db?.end();
  await org?.stop();
  cluster?.stop();
});

async function rpc(key: string, method: string, params: Record<string, unknown> = {}) {
  const res = await request(`${org.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.body.json()) as { result?: any; error?: any };
}
const named = (s: { artifactId: string }) => ({ member_deployment_id: member.deploymentId, artifact_id: s.artifactId });
const inboxOf = async (key: string) => (await rpc(key, 'gv.org_inbox', { limit: 10 })).result.items as Array<{ artifact_id: string; held_by: string | null; held_until: number | null; state: string }>;
const keyIdentity = async (key: string) => (await rpc(key, 'gv.describe')).result.you.identity as string;

describe('the inbox is read without taking; gv.org_take takes one', () => {
  it('listing holds nothing: both reviewers see every undecided submission, free', async () => {
    for (const key of [ann, ann, ben]) {
      expect((await inboxOf(key)).map((i) => [i.artifact_id, i.state, i.held_by, i.held_until])).toEqual(subs.map((s) => [s.artifactId, 'leased', null, null]));
    }
    expect((await db.query('SELECT 1 FROM submissions WHERE held_by IS NOT NULL')).rows).toEqual([]);
  });

  it('taking one holds that one only, and the other reviewer sees who holds it and until when', async () => {
    const before = Date.now();
    const taken = (await rpc(ann, 'gv.org_take', named(subs[1]!))).result.item;
    const annId = await keyIdentity(ann);
    expect(taken).toMatchObject({ artifact_id: subs[1]!.artifactId, state: 'held', held_by: annId });
    expect(taken.held_until).toBeGreaterThanOrEqual(before + (HOLD_S - 5) * 1000);
    const seen = await inboxOf(ben);
    expect(seen.map((i) => [i.artifact_id, i.held_by, i.held_until])).toEqual([
      [subs[0]!.artifactId, null, null],
      [subs[1]!.artifactId, annId, taken.held_until],
      [subs[2]!.artifactId, null, null],
    ]);
    // ben may not take or decide what ann holds, and is told who holds it until when.
    const refused = (await rpc(ben, 'gv.org_take', named(subs[1]!))).error;
    expect(refused).toMatchObject({ code: -32010, data: { reason: 'held_by_other', held_by: annId, held_until: taken.held_until } });
    expect(refused.message).toContain(`${annId} holds this submission until ${new Date(taken.held_until).toISOString()}`);
    expect((await rpc(ben, 'gv.org_review', { ...named(subs[1]!), decision: 'countersign' })).error).toMatchObject({ code: -32010, data: { reason: 'held_by_other' } });
  });

  it('taking the next one (how a review key drains) passes by what another holds; the taker\'s own hold comes back first, renewed', async () => {
    const next = (await rpc(ben, 'gv.org_take', {})).result.item;
    expect(next.artifact_id).toBe(subs[0]!.artifactId);
    // Until ben decides it, his next take is the same one (a drain that stopped picks up where it was).
    expect((await rpc(ben, 'gv.org_take', {})).result.item.artifact_id).toBe(subs[0]!.artifactId);
    expect((await rpc(ben, 'gv.org_review', { ...named(subs[0]!), decision: 'refuse', category: 'quality' })).result).toMatchObject({ state: 'refused', changed: true });
    expect((await rpc(ben, 'gv.org_take', {})).result.item.artifact_id).toBe(subs[2]!.artifactId);
    const annHeld = (await inboxOf(ben)).find((i) => i.artifact_id === subs[1]!.artifactId)!.held_until!;
    const again = (await rpc(ann, 'gv.org_take', {})).result.item;
    expect(again.artifact_id).toBe(subs[1]!.artifactId);
    expect(again.held_until).toBeGreaterThanOrEqual(annHeld);
    expect((await rpc(ann, 'gv.org_review', { ...named(subs[1]!), decision: 'countersign' })).result).toMatchObject({ state: 'countersigned', changed: true });
    expect((await rpc(ann, 'gv.org_take', named(subs[1]!))).error).toMatchObject({ code: -32010, data: { reason: 'decided' } });
    // What is left, ben holds.
    expect((await rpc(ann, 'gv.org_take', {})).result.item).toBeNull();
  });

  it('a hold that ran out holds nothing: listed free, and another reviewer takes it', async () => {
    await db.query("UPDATE submissions SET held_until = now() - interval '1 second' WHERE artifact_id = $1", [subs[2]!.artifactId]);
    expect((await inboxOf(ann)).find((i) => i.artifact_id === subs[2]!.artifactId)).toMatchObject({ held_by: null, held_until: null });
    expect((await rpc(ann, 'gv.org_take', {})).result.item.artifact_id).toBe(subs[2]!.artifactId);
  });

  it('names both the member and the artifact, or neither', async () => {
    expect((await rpc(ann, 'gv.org_take', { artifact_id: subs[2]!.artifactId })).error).toMatchObject({ code: -32602, data: { field: 'member_deployment_id' } });
    expect((await rpc(ann, 'gv.org_take', { ...named(subs[2]!), artifact_id: `sha256:${'0'.repeat(64)}` })).error).toMatchObject({ code: -32602, data: { reason: 'unknown_submission' } });
  });
});
