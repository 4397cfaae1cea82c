import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { OrgProcess, PostgresCluster, orgCli, putSubmission } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { verifyOutcomeLine } from '../../src/forms/outcome-line.js';

/**
 * GET /outcomes read from a real streaming replica ([org].replica_url): a second PostgreSQL
 * made with pg_basebackup from the first and replaying its WAL. Replay is paused on the
 * replica to show where pages come from: a decision on the primary is not on the page until
 * replay resumes, and then the next page from the same cursor has it (nothing skipped).
 * Keys and everything else stay on the primary: a revocation holds at once.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-replica-'));
chmodSync(dir, 0o755);
const home = join(dir, 'org');
let primary: PostgresCluster;
let replica: PostgresCluster;
let org: OrgProcess;
let onReplica: pg.Pool;
let member: SimulatedMember;
let memberKey: string;
let reviewerKey: string;

const cli = (...args: string[]) => orgCli([...args, '--home', home, '--database-url', primary.url]);

beforeAll(async () => {
  primary = PostgresCluster.start(join(dir, 'primary'));
  replica = primary.replica(join(dir, 'replica'));
  org = await OrgProcess.start(home, { databaseUrl: primary.url, env: { GATE_ORG_REPLICA_URL: replica.url } });
  member = new SimulatedMember();
  memberKey = JSON.parse(cli('member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'member', '--json')).key;
  reviewerKey = JSON.parse(cli('key', 'issue', '--scope', 'review', '--label', 'reviewer', '--json')).key;
  onReplica = new pg.Pool({ connectionString: replica.url, max: 1 });
  // The last test stops the replica under this pool's idle connection.
  onReplica.on('error', () => undefined);
}, 120_000);
afterAll(async () => {
  await onReplica?.end();
  await org?.stop();
  replica?.stop();
  primary?.stop();
});

async function submitAndCountersign(label: string): Promise<string> {
  const s = member.submission(label);
  expect((await putSubmission(org, memberKey, s)).status).toBe(202);
  const decided = await request(`${org.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${reviewerKey}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.org_review', params: { member_deployment_id: member.deploymentId, artifact_id: s.artifactId, decision: 'countersign' } }),
  });
  expect(((await decided.body.json()) as any).result.state).toBe('countersigned');
  return s.artifactId;
}

async function page(since = 0) {
  const res = await request(`${org.url}/outcomes?since=${since}`, { headers: { authorization: `Bearer ${memberKey}` } });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

/** The replica has replayed everything the primary has written so far. */
async function caughtUp(): Promise<void> {
  const onPrimary = new pg.Pool({ connectionString: primary.url, max: 1 });
  const lsn = (await onPrimary.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows[0]!.lsn;
  await onPrimary.end();
  for (let i = 0; i < 300; i++) {
    const replayed = (await onReplica.query<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn])).rows[0]!.done;
    if (replayed) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the replica did not catch up in 30 s');
}

/** Pauses the replica's replay and waits until it has paused (a request is acted on at the next record or wait). */
async function pauseReplay(): Promise<void> {
  await onReplica.query('SELECT pg_wal_replay_pause()');
  for (let i = 0; i < 300; i++) {
    if ((await onReplica.query<{ s: string }>('SELECT pg_get_wal_replay_pause_state() AS s')).rows[0]!.s === 'paused') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the replica did not pause in 30 s');
}

describe('GET /outcomes on a streaming read replica', () => {
  it('pages come from the replica: a line still in flight is absent, then the same cursor finds it; nothing is skipped', async () => {
    expect((await onReplica.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r')).rows[0]!.r).toBe(true);
    const first = await submitAndCountersign('replicated claim one');
    await caughtUp();
    const p1 = await page();
    expect(p1.status).toBe(200);
    expect(p1.body.events.map((e: any) => e.artifact_id)).toEqual([first]);

    await pauseReplay();
    const second = await submitAndCountersign('decided while replay is paused');
    const paused = await page(p1.body.next);
    expect(paused.body.events).toEqual([]);
    expect(paused.body.next).toBe(p1.body.next);

    await onReplica.query('SELECT pg_wal_replay_resume()');
    await caughtUp();
    const p2 = await page(p1.body.next);
    expect(p2.body.events.map((e: any) => e.artifact_id)).toEqual([second]);
    expect(verifyOutcomeLine(p2.body.events[0], org.deploymentId)).toMatchObject({ type: 'countersign', artifact_id: second });
  });

  it('keys are read on the primary: a member revoked while the replica lags is refused at once', async () => {
    await pauseReplay();
    const leaving = new SimulatedMember();
    const key = JSON.parse(cli('member', 'add', `--deployment-id=${leaving.deploymentId}`, '--label', 'leaving', '--json')).key;
    const before = await request(`${org.url}/outcomes`, { headers: { authorization: `Bearer ${key}` } });
    expect(before.statusCode).toBe(200);
    await before.body.dump();
    cli('member', 'revoke', `--deployment-id=${leaving.deploymentId}`);
    const after = await request(`${org.url}/outcomes`, { headers: { authorization: `Bearer ${key}` } });
    expect(after.statusCode).toBe(403);
    await after.body.dump();
    await onReplica.query('SELECT pg_wal_replay_resume()');
  });

  it('a replica that cannot answer is passed over for the primary', async () => {
    const third = await submitAndCountersign('decided with the replica gone');
    replica.stop();
    const all = await page();
    expect(all.status).toBe(200);
    expect(all.body.events).toHaveLength(3);
    expect(all.body.events[2].artifact_id).toBe(third);
    // The warning comes on the org's stderr, a pipe of its own: it may be read after the page's answer.
    await expect.poll(() => org.stderr.join(''), { timeout: 30_000, interval: 20 }).toMatch(/the outcomes replica could not answer/);
  });
});
