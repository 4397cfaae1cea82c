import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { OrgProcess, PostgresCluster, orgCli, putSubmission } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { TokenIssuer } from '../harness/token-issuer.js';

/**
 * The organization's process log (docs/logs.md, "The organization gate"): structured lines on
 * stderr as the gate's, one a request and one for every decision, and never a key, a token,
 * an email, a refusal's reason or a submission's content. A real org process on PostgreSQL
 * takes three submissions, a person's sign-in token and a review key's, two countersigns and a
 * refusal; its stderr is read line by line.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-logs-'));
chmodSync(dir, 0o755);
const home = join(dir, 'org');
const CONTENT = 'the vault combination is 31-41-59 and must not leave the member';
const REASON = 'a reason with private words in it';
let cluster: PostgresCluster;
let org: OrgProcess;
let issuer: TokenIssuer;
let memberKey: string;
let reviewKey: string;
let token: string;
const member = new SimulatedMember();
const subs = [0, 1, 2].map((i) => member.submission(`${CONTENT} ${i} ${Date.now()}`));

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  issuer = await TokenIssuer.start();
  const env = { GATE_AUTH_TRUSTED_ISSUERS: JSON.stringify([issuer.url]) };
  org = await OrgProcess.start(home, { databaseUrl: cluster.url, env });
  const cli = (...args: string[]) => orgCli([...args, '--home', home, '--database-url', cluster.url], env);
  memberKey = JSON.parse(cli('member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'member', '--json')).key;
  reviewKey = JSON.parse(cli('key', 'issue', '--scope', 'review', '--label', 'reviews', '--json')).key;
  cli('people', 'assign', '--iss', issuer.url, '--sub', 'pat', '--role', 'reviewer');
  token = await issuer.token('pat', { email: 'pat@example.com', email_verified: true });
}, 180_000);
afterAll(async () => {
  await org?.stop();
  await issuer?.stop();
  cluster?.stop();
});

const rpc = async (bearer: string, method: string, params: Record<string, unknown>) => {
  const res = await request(`${org.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.body.json()) as any;
};
/** The JSON lines the org process wrote on stderr so far. */
const lines = () =>
  org.stderr
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the organization's log", () => {
  it('writes a line for each request and each decision, structured, with who and what, and nothing secret', async () => {
    const before = lines().filter((l) => l['msg'] === 'request').length;
    for (const s of subs) expect((await putSubmission(org, memberKey, s)).status).toBe(202);
    const row = (s: { artifactId: string }) => ({ member_deployment_id: member.deploymentId, artifact_id: s.artifactId });
    expect((await rpc(token, 'gv.org_inbox', { decoded: true })).result.items).toHaveLength(3);
    expect((await rpc(token, 'gv.org_take', row(subs[0]!))).result.item.held_by).toBe(`${issuer.url}|pat`);
    expect((await rpc(token, 'gv.org_review', { ...row(subs[0]!), decision: 'countersign' })).result.changed).toBe(true);
    expect((await rpc(reviewKey, 'gv.org_review', { ...row(subs[1]!), decision: 'countersign' })).result.changed).toBe(true);
    expect((await rpc(reviewKey, 'gv.org_review', { ...row(subs[2]!), decision: 'refuse', category: 'policy', reason: REASON })).result.changed).toBe(true);
    expect(await rpc('nonsense', 'gv.describe', {})).toMatchObject({ kind: 'malformed' });
    const page = await request(`${org.url}/outcomes?since=0`, { headers: { authorization: `Bearer ${memberKey}` } });
    expect(page.statusCode).toBe(200);
    await page.body.dump();
    // 3 PUTs, 6 /rpc calls and a page of outcomes: ten requests, each its line (written once its answer closed).
    await expect.poll(() => lines().filter((l) => l['msg'] === 'request').length - before, { timeout: 10_000, interval: 50 }).toBe(10);
    const requests = lines().filter((l) => l['msg'] === 'request').slice(before);
    expect(requests.every((l) => l['level'] === 'info' && typeof l['time'] === 'string' && typeof l['ms'] === 'number')).toBe(true);
    expect(requests.slice(0, 3)).toEqual(
      subs.map((s) => expect.objectContaining({ door: 'http', method: 'PUT', route: '/submissions/{artifact_id}', status: 202, identity: `member:${member.deploymentId}`, artifact_id: s.artifactId })),
    );
    expect(requests.slice(3, 8).map((l) => [l['route'], l['verb'], l['identity'], l['status']])).toEqual([
      ['/rpc', 'gv.org_inbox', `${issuer.url}|pat`, 200],
      ['/rpc', 'gv.org_take', `${issuer.url}|pat`, 200],
      ['/rpc', 'gv.org_review', `${issuer.url}|pat`, 200],
      ['/rpc', 'gv.org_review', expect.stringMatching(/^key:/), 200],
      ['/rpc', 'gv.org_review', expect.stringMatching(/^key:/), 200],
    ]);
    expect(requests[8]).toMatchObject({ route: '/rpc', status: 401, kind: 'malformed' });
    expect(requests[9]).toMatchObject({ method: 'GET', route: '/outcomes', status: 200, identity: `member:${member.deploymentId}` });

    const decisions = lines().filter((l) => ['countersigned', 'refused', 'submission taken'].includes(String(l['msg'])));
    expect(decisions).toEqual([
      expect.objectContaining({ level: 'info', msg: 'submission taken', artifact_id: subs[0]!.artifactId, by: `${issuer.url}|pat` }),
      expect.objectContaining({ msg: 'countersigned', artifact_id: subs[0]!.artifactId, member_deployment_id: member.deploymentId, by: `${issuer.url}|pat`, authority_class: 'human', seq: expect.any(Number) }),
      expect.objectContaining({ msg: 'countersigned', artifact_id: subs[1]!.artifactId, authority_class: 'agent' }),
      expect.objectContaining({ msg: 'refused', artifact_id: subs[2]!.artifactId, authority_class: 'agent', category: 'policy' }),
    ]);

    const all = org.stderr.join('');
    for (const secret of [memberKey, reviewKey, token, 'pat@example.com', CONTENT, Buffer.from(`${CONTENT} 0`).toString('base64').slice(0, 24), REASON]) {
      expect(all, secret.slice(0, 12)).not.toContain(secret);
    }
  });
});
