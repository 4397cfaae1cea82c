import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { OrgProcess, PostgresCluster, orgCli, putSubmission } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { verifyOutcomeLine } from '../../src/forms/outcome-line.js';

const dir = mkdtempSync(join(tmpdir(), 'org-two-'));
chmodSync(dir, 0o755);
const home = join(dir, 'org');
let cluster: PostgresCluster;
let orgs: OrgProcess[];
const MEMBERS = 12;
const EACH = 10;
const members = Array.from({ length: MEMBERS }, () => new SimulatedMember());
const keys = new Map<string, string>();
let reviewers: string[];

// A PostgreSQL cluster, two org processes and 14 `gate org` CLI runs (each a fresh node):
// seconds quiet, past 120 s at load 17. The setup and the test get deadlines that fit.
const SETUP_MS = 300_000;
const CASE_MS = 180_000;

const cli = (...args: string[]) => JSON.parse(orgCli([...args, '--json', '--home', home, '--database-url', cluster.url]));

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  // Two processes, one database, one org key (the same home here; a copy of deployment.key elsewhere).
  const first = await OrgProcess.start(home, { databaseUrl: cluster.url });
  orgs = [first, await OrgProcess.start(home, { databaseUrl: cluster.url })];
  for (const m of members) keys.set(m.deploymentId, cli('member', 'add', `--deployment-id=${m.deploymentId}`, '--label', 'm').key);
  reviewers = [cli('key', 'issue', '--scope', 'review', '--label', 'r1').key, cli('key', 'issue', '--scope', 'review', '--label', 'r2').key];
}, SETUP_MS);
afterAll(async () => {
  for (const o of orgs ?? []) await o.stop();
  cluster?.stop();
});


async function rpc(org: OrgProcess, key: string, method: string, params: unknown) {
  const res = await request(`${org.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.body.json()) as any;
  if (body.error) throw new Error(JSON.stringify(body.error));
  return body.result;
}

describe('two org processes on one database', { timeout: CASE_MS }, () => {
  it('take each submission once, hold none twice, and lose or repeat no outcome', async () => {
    expect(orgs[0]!.deploymentId).toBe(orgs[1]!.deploymentId);
    const submissions = members.flatMap((m) => Array.from({ length: EACH }, (_, i) => ({ m, s: m.submission(`${m.deploymentId} claim ${i}`) })));
    // The same submission reaches both processes at once (a member retrying through a load balancer).
    const answers = await Promise.all(
      submissions.map(async ({ m, s }) => Promise.all(orgs.map((o) => putSubmission(o, keys.get(m.deploymentId)!, s)))),
    );
    for (const pair of answers) expect(pair.map((a) => a.status).sort()).toEqual([200, 202]);

    // Two reviewers, each on its own process, drain the inbox one take at a time, together.
    const held: string[][] = [[], []];
    const decided: string[][] = [[], []];
    await Promise.all(
      reviewers.map(async (key, r) => {
        for (;;) {
          const { item } = await rpc(orgs[r]!, key, 'gv.org_take', {});
          if (item === null) return;
          held[r]!.push(`${item.member_deployment_id} ${item.artifact_id}`);
          const refuse = item.artifact_id < 'sha256:8';
          const done = await rpc(orgs[1 - r]!, key, 'gv.org_review', {
            member_deployment_id: item.member_deployment_id,
            artifact_id: item.artifact_id,
            decision: refuse ? 'refuse' : 'countersign',
            ...(refuse ? { category: 'quality', reason: 'test' } : {}),
          });
          expect(done.changed).toBe(true);
          decided[r]!.push(item.artifact_id);
        }
      }),
    );
    const all = [...held[0]!, ...held[1]!];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(MEMBERS * EACH);
    expect(held[0]!.length).toBeGreaterThan(0);
    expect(held[1]!.length).toBeGreaterThan(0);

    // Each member pages its outcomes through both processes, three at a time.
    for (const [i, m] of members.entries()) {
      const seen: any[] = [];
      let since = 0;
      for (let turn = 0; ; turn++) {
        const res = await request(`${orgs[(i + turn) % 2]!.url}/outcomes?since=${since}&limit=3`, { headers: { authorization: `Bearer ${keys.get(m.deploymentId)}` } });
        const page = (await res.body.json()) as any;
        if (page.events.length === 0) break;
        seen.push(...page.events);
        since = page.next;
      }
      expect(seen).toHaveLength(EACH);
      expect(new Set(seen.map((e) => e.artifact_id)).size).toBe(EACH);
      expect(seen.every((e) => e.member_deployment_id === m.deploymentId && verifyOutcomeLine(e, orgs[0]!.deploymentId) !== null)).toBe(true);
      const seqs = seen.map((e) => e.seq);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    }
    expect(cli('verify')).toMatchObject({ ok: true });
  });
});
