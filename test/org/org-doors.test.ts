import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { request as httpRequest } from 'node:http';
import { OrgProcess, PostgresCluster, orgCli } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { verifyOutcomeLine } from '../../src/forms/outcome-line.js';

let cluster: PostgresCluster;
let org: OrgProcess;
let home: string;
let member: SimulatedMember;
let memberKey: string;
let reviewerKey: string;
const dir = mkdtempSync(join(tmpdir(), 'org-doors-'));
// A root test runs PostgreSQL as the postgres account, which must reach the cluster.
chmodSync(dir, 0o755);

// A PostgreSQL cluster, an org process and `gate org` CLI runs, each a fresh node: seconds
// quiet, but at load 17 one test's three CLI runs took 45 s of the 60 s it had. The setup
// and each test get deadlines that fit what they start.
const SETUP_MS = 300_000;
const CASE_MS = 180_000;

const cli = (...args: string[]) => orgCli([...args, '--home', home, '--database-url', cluster.url]);
const addMember = (m: SimulatedMember, label: string) => JSON.parse(cli('member', 'add', `--deployment-id=${m.deploymentId}`, '--label', label, '--json')).key as string;

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  home = join(dir, 'org');
  member = new SimulatedMember();
  // The member's door is counted: 30 a second here, so the 429 test needs few requests.
  org = await OrgProcess.start(home, { databaseUrl: cluster.url, env: { GATE_ORG_MEMBER_RATE_PER_S: '30' } });
  memberKey = addMember(member, 'member one');
  reviewerKey = JSON.parse(cli('key', 'issue', '--scope', 'review', '--label', 'ann', '--json')).key;
}, SETUP_MS);
afterAll(async () => {
  await org?.stop();
  cluster?.stop();
});

async function put(id: string, body: unknown, key = memberKey, raw?: string) {
  const res = await request(`${org.url}/submissions/${encodeURIComponent(id)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: raw ?? JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
}

async function outcomes(key: string, query = '') {
  const res = await request(`${org.url}/outcomes${query}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

async function rpc(key: string, method: string, params: unknown) {
  const res = await request(`${org.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

describe('PUT /submissions/{artifact_id}', { timeout: CASE_MS }, () => {
  it('takes a new submission (202 leased) and answers a repeat 200 without changing it', async () => {
    const s = member.submission('first claim');
    const first = await put(s.artifactId, s.body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ artifact_id: s.artifactId, state: 'leased', attempts: 1, deployment_id: org.deploymentId });
    const again = await put(s.artifactId, s.body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ artifact_id: s.artifactId, state: 'leased', attempts: 1, deployment_id: org.deploymentId });
    // The member's newer state of the same row (another submission id) is one more attempt.
    const newer = member.submission('first claim', { humans: 2 });
    expect((await put(s.artifactId, newer.body)).body).toMatchObject({ state: 'leased', attempts: 2 });
  });

  it('takes the same new submission sent twice at once once: one 202, one 200 (the batch they share inserts it once)', async () => {
    const s = member.submission('sent twice at once');
    const answers = await Promise.all([put(s.artifactId, s.body), put(s.artifactId, s.body), put(s.artifactId, s.body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 202]);
    expect(answers.every((a) => a.body.state === 'leased' && a.body.attempts === 1)).toBe(true);
  });

  it('refuses every bad body with its status', async () => {
    const s = member.submission('bad bodies');
    const other = new SimulatedMember();
    const cases: [string, unknown, number, RegExp][] = [
      ['not an object', [1, 2], 400, /\{submission, id, sig\}/],
      ['wrong contract', { ...s.body, submission: { ...s.body.submission, contract: 'submission/2' } }, 400, /contract/],
      ['an id that is not the canonical sha256', { ...s.body, id: `sha256:${'0'.repeat(64)}` }, 400, /canonical/],
      ['unsigned', { submission: s.body.submission, id: s.body.id }, 422, /unsigned/],
      ['a signature by another key', { ...s.body, sig: other.sign('gate submission/1\nx') }, 422, /signature/],
      ['no local promotion', member.submission('bad bodies', { over: { promotions: [] } }).body, 422, /no local promotion/],
      ['a promotion of another row', member.submission('bad bodies', { over: { promotions: [member.event('promote', { artifact_id: `sha256:${'1'.repeat(64)}` })] } }).body, 422, /no local promotion/],
      ['a promotion signed by another deployment', member.submission('bad bodies', { over: { promotions: [other.event('promote', { artifact_id: s.artifactId })] } }).body, 422, /no local promotion/],
      ['a ratify that sent the row back for evidence', member.submission('bad bodies', { over: { promotions: [member.event('ratify', { artifact_id: s.artifactId, leaves: 'L2_SCORED', enters: 'NEEDS_EVIDENCE', decision: 'needs_evidence' })] } }).body, 422, /no local promotion/],
      ['another deployment than the key\'s', other.submission('bad bodies').body, 422, /wrong deployment/],
    ];
    for (const [what, body, status, error] of cases) {
      const answer = await put(s.artifactId, body);
      expect({ what, status: answer.status }).toEqual({ what, status });
      expect(answer.body.error, what).toMatch(error);
    }
    expect((await put(`sha256:${'2'.repeat(64)}`, s.body)).status).toBe(400);
    expect((await put(s.artifactId, null, memberKey, '{"submission":')).status).toBe(400);
  });

  it('refuses a body declared over 8 MiB with 413 before reading it', async () => {
    const s = member.submission('too big');
    // Only the headers are sent: the door answers from Content-Length alone (docs/protocol.md#routes: before reading the body).
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${org.url}/submissions/${encodeURIComponent(s.artifactId)}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${memberKey}`, 'content-type': 'application/json', 'content-length': String(8 * 1024 * 1024 + 1) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });

  it('answers 401 without a key or with one it never issued, 403 for a staff key or a revoked member', async () => {
    const s = member.submission('keys');
    expect((await put(s.artifactId, s.body, '')).status).toBe(401);
    expect((await put(s.artifactId, s.body, `gk_${'x'.repeat(43)}`)).status).toBe(401);
    // This org trusts no issuer: a token-shaped bearer is 401 unsupported, in the gate's body.
    const token = await put(s.artifactId, s.body, 'aaaa.bbbb.cccc');
    expect([token.status, token.body]).toEqual([401, { error: expect.stringMatching(/^unsupported: /), kind: 'unsupported' }]);
    expect((await put(s.artifactId, s.body, reviewerKey)).status).toBe(403);
    const leaving = new SimulatedMember();
    const key = addMember(leaving, 'leaving');
    const mine = leaving.submission('leaving');
    expect((await put(mine.artifactId, mine.body, key)).status).toBe(202);
    cli('member', 'revoke', `--deployment-id=${leaving.deploymentId}`);
    const after = leaving.submission('leaving again');
    expect((await put(after.artifactId, after.body, key)).status).toBe(403);
    expect((await outcomes(key)).status).toBe(403);
    const listed = JSON.parse(cli('member', 'list', '--json')) as { deployment_id: string; revoked: boolean }[];
    expect(listed.find((m) => m.deployment_id === leaving.deploymentId)?.revoked).toBe(true);
  });

  it('answers 429 with Retry-After when one member sends too fast', async () => {
    const fast = new SimulatedMember();
    const key = addMember(fast, 'fast');
    // The door counts a member's PUTs per second: 80 sent at once are over 30 in one second
    // unless a loaded machine spreads them over three, so bursts go until one is refused.
    const answers: Awaited<ReturnType<typeof put>>[] = [];
    for (let burst = 0; burst < 10 && !answers.some((a) => a.status === 429); burst++) {
      const bodies = Array.from({ length: 80 }, (_, i) => fast.submission(`fast ${burst} ${i}`));
      answers.push(...(await Promise.all(bodies.map((b) => put(b.artifactId, b.body, key)))));
    }
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.headers['retry-after']).toBe('1');
    expect(answers.every((a) => a.status === 202 || a.status === 429)).toBe(true);
  });
});

describe('deciding and GET /outcomes', { timeout: CASE_MS }, () => {
  it('a reviewer reads the inbox, countersigns or refuses; the member reads signed content-free outcomes, only its own', async () => {
    const a = new SimulatedMember();
    const b = new SimulatedMember();
    const keyA = addMember(a, 'a');
    const keyB = addMember(b, 'b');
    const sa = a.submission('skill bundle', { trustClass: 'T-5' });
    const sb = b.submission('claim of b');
    expect((await put(sa.artifactId, sa.body, keyA)).status).toBe(202);
    expect((await put(sb.artifactId, sb.body, keyB)).status).toBe(202);

    const inbox = await rpc(reviewerKey, 'gv.org_inbox', { limit: 100, decoded: true });
    expect(inbox.status).toBe(200);
    const mine = inbox.body.result.items.find((i: any) => i.artifact_id === sa.artifactId);
    // A review key reads the person's copy; the raw bytes are not in the inbox.
    expect(mine).toMatchObject({ trust_class: 'T-5', content: 'withheld', held_by: null, copy: { text: 'skill bundle' } });
    expect(mine.submission.content.bytes).toBeNull();

    const signed = await rpc(reviewerKey, 'gv.org_review', { member_deployment_id: a.deploymentId, artifact_id: sa.artifactId, decision: 'countersign' });
    expect(signed.body.result).toMatchObject({ state: 'countersigned', changed: true });
    const refused = await rpc(reviewerKey, 'gv.org_review', { member_deployment_id: b.deploymentId, artifact_id: sb.artifactId, decision: 'refuse', category: 'policy', reason: 'secret internal reason' });
    expect(refused.body.result).toMatchObject({ state: 'refused', changed: true });
    // Deciding again changes nothing; a refusal needs its category.
    expect((await rpc(reviewerKey, 'gv.org_review', { member_deployment_id: a.deploymentId, artifact_id: sa.artifactId, decision: 'refuse', category: 'quality' })).body.result).toMatchObject({ state: 'countersigned', changed: false });
    expect((await rpc(reviewerKey, 'gv.org_review', { member_deployment_id: b.deploymentId, artifact_id: sb.artifactId, decision: 'refuse' })).body.error.code).toBe(-32602);
    // A member's key does not open /rpc; an unknown verb is -32601.
    expect((await rpc(keyA, 'gv.org_inbox', {})).status).toBe(403);
    expect((await rpc(reviewerKey, 'gv.nothing', {})).body.error.code).toBe(-32601);

    const pageA = await outcomes(keyA);
    expect(pageA.status).toBe(200);
    expect(pageA.body.deployment_id).toBe(org.deploymentId);
    expect(pageA.body.events).toHaveLength(1);
    const line = pageA.body.events[0];
    expect(verifyOutcomeLine(line, org.deploymentId)).toMatchObject({ type: 'countersign', artifact_id: sa.artifactId, authority_class: 'agent', member_deployment_id: a.deploymentId });
    expect(verifyOutcomeLine({ ...line, type: 'refuse' }, org.deploymentId)).toBeNull();
    const pageB = await outcomes(keyB);
    expect(pageB.body.events.map((e: any) => [e.type, e.artifact_id])).toEqual([['refuse', sb.artifactId]]);
    expect(JSON.stringify(pageB.body)).not.toMatch(/secret internal reason|policy|claim of b/);
    // The cursor: nothing after the last line; a repeat PUT of a decided row answers its state.
    expect((await outcomes(keyA, `?since=${pageA.body.next}`)).body.events).toEqual([]);
    expect((await put(sa.artifactId, sa.body, keyA)).body).toMatchObject({ state: 'countersigned' });
  });

  it('decisions sent together are decided once each, in order: the same row twice at once changes once; the log verifies', async () => {
    const c = new SimulatedMember();
    const key = addMember(c, 'c');
    const subs = [0, 1, 2].map((i) => c.submission(`decided together ${i}`));
    for (const s of subs) expect((await put(s.artifactId, s.body, key)).status).toBe(202);
    await rpc(reviewerKey, 'gv.org_inbox', { limit: 100 });
    const review = (s: { artifactId: string }, decision: string) =>
      rpc(reviewerKey, 'gv.org_review', { member_deployment_id: c.deploymentId, artifact_id: s.artifactId, decision, ...(decision === 'refuse' ? { category: 'duplicate' } : {}) });
    const answers = await Promise.all([review(subs[0]!, 'countersign'), review(subs[0]!, 'refuse'), review(subs[1]!, 'countersign'), review(subs[2]!, 'refuse')]);
    const results = answers.map((a) => a.body.result);
    expect(results.filter((r) => r.artifact_id === subs[0]!.artifactId).map((r) => r.changed).sort()).toEqual([false, true]);
    expect(new Set(results.filter((r) => r.artifact_id === subs[0]!.artifactId).map((r) => r.state)).size).toBe(1);
    expect(results.slice(2).map((r) => [r.state, r.changed])).toEqual([['countersigned', true], ['refused', true]]);
    const page = await outcomes(key);
    expect(page.body.events.map((e: any) => e.artifact_id).sort()).toEqual(subs.map((s) => s.artifactId).sort());
    const seqs = page.body.events.map((e: any) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a: number, b: number) => a - b));
    expect(JSON.parse(cli('verify', '--json')).ok).toBe(true);
  });

  it('pages by limit (default 500, at most 5,000) and refuses a bad cursor', async () => {
    expect((await outcomes(memberKey, '?limit=5001')).status).toBe(400);
    expect((await outcomes(memberKey, '?limit=0')).status).toBe(400);
    expect((await outcomes(memberKey, '?since=abc')).status).toBe(400);
    expect((await outcomes(reviewerKey)).status).toBe(403);
  });

  it("keeps the org's decisions in a log that gate org verify checks", () => {
    const report = JSON.parse(cli('verify', '--json'));
    expect(report).toMatchObject({ ok: true, deployment_id: org.deploymentId });
    expect(report.events).toBeGreaterThan(5);
  });
});
