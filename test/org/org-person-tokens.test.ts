import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import pg from 'pg';
import { request } from 'undici';
import { OrgProcess, PostgresCluster, orgCli, putSubmission } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { signInWithOpenidClient, type IssuedPerson } from '../harness/openid-sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { verifyOutcomeLine } from '../../src/forms/outcome-line.js';

/**
 * People at the organization gate's /rpc: the org trusts an issuer ([auth].trusted_issuers;
 * here a gate that is its own sign-in provider stands for the company's), its people sign in
 * there through openid-client, and the org gives them roles (`gate org people`) or
 * [auth].admins does. The gate's rules hold: 401 kinds, C1 roles, C3 params.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-people-'));
chmodSync(dir, 0o755);
const home = join(dir, 'org');
let cluster: PostgresCluster;
let org: OrgProcess;
let ann: IssuedPerson;
let boss: IssuedPerson;
let member: SimulatedMember;
let memberKey: string;
let reviewKey: string;
let db: pg.Pool;

/** The org's [auth] as its processes and commands read it (here from the environment, as GATE_AUTH_*). */
let authEnv: Record<string, string>;
const cli = (...args: string[]) => orgCli([...args, '--home', home, '--database-url', cluster.url], authEnv);

const { gate: issuer } = useGate({ kind: 'in-process' });
const { gate: stranger } = useGate({ kind: 'in-process' });
beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  ann = await signInWithOpenidClient(issuer);
  boss = await signInWithOpenidClient(issuer);
  authEnv = { GATE_AUTH_TRUSTED_ISSUERS: JSON.stringify([issuer.url]), GATE_AUTH_ADMINS: boss.identity };
  org = await OrgProcess.start(home, { databaseUrl: cluster.url, env: authEnv });
  member = new SimulatedMember();
  memberKey = JSON.parse(cli('member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'member', '--json')).key;
  reviewKey = JSON.parse(cli('key', 'issue', '--scope', 'review', '--label', 'a review key', '--json')).key;
  db = new pg.Pool({ connectionString: cluster.url, max: 1 });
}, 120_000);
afterAll(async () => {
  await db?.end();
  await org?.stop();
  cluster?.stop();
});

async function post(bearer: string | null, body: string) {
  const res = await request(`${org.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }) },
    body,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text === '' ? null : (JSON.parse(text) as any) };
}
const rpc = (bearer: string | null, method: string, params: unknown = {}) => post(bearer, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));

async function put(bearer: string) {
  return (await putSubmission(org, bearer, member.submission(`door ${Math.random()}`))).status;
}

describe("a person's token at the organization gate's /rpc", () => {
  it('is accepted from a trusted issuer: an unassigned person is a reader, refused the inbox naming both roles', async () => {
    const described = await rpc(ann.accessToken, 'gv.describe');
    expect(described.status).toBe(200);
    expect(described.body.result).toMatchObject({ service: 'gate-org', deployment_id: org.deploymentId, you: { identity: ann.identity, role: 'reader', kind: 'person' } });
    expect(described.body.result.verbs.map((v: any) => [v.name, v.role])).toEqual([
      ['gv.describe', 'reader'],
      ['gv.org_inbox', 'reviewer'],
      ['gv.org_take', 'reviewer'],
      ['gv.org_review', 'reviewer'],
      ['gv.org_submission', 'reviewer'],
      ['gv.org_outcomes', 'reviewer'],
      ['gv.org_members', 'reviewer'],
      ['gv.org_people', 'admin'],
    ]);
    const refused = await rpc(ann.accessToken, 'gv.org_inbox', { limit: 5 });
    expect(refused.body.error).toMatchObject({ code: -32602, message: 'gv.org_inbox needs role reviewer; the caller has role reader', data: { required: 'reviewer', role: 'reader' } });
  });

  it('[auth].admins makes a person admin while the people table names no role for them', async () => {
    expect((await rpc(boss.accessToken, 'gv.describe')).body.result.you).toEqual({ identity: boss.identity, role: 'admin', kind: 'person' });
    expect((await rpc(boss.accessToken, 'gv.org_inbox', { limit: 1 })).body.result).toMatchObject({ you: boss.identity });
    const listed = JSON.parse(cli('people', 'list', '--json'));
    expect(listed).toContainEqual(expect.objectContaining({ identity: boss.identity, role: 'admin', source: 'config' }));
  });

  it('a reviewer assigned by `gate org people` takes a submission and countersigns as signer class human; removed, a reader again', async () => {
    const assigned = JSON.parse(cli('people', 'assign', '--iss', ann.iss, '--sub', ann.sub, '--role', 'reviewer', '--json'));
    expect(assigned).toEqual({ identity: ann.identity, role: 'reviewer', changed: true });
    expect(JSON.parse(cli('people', 'assign', '--iss', ann.iss, '--sub', ann.sub, '--role', 'reviewer', '--json')).changed).toBe(false);
    expect((await rpc(ann.accessToken, 'gv.describe')).body.result.you.role).toBe('reviewer');

    const s = member.submission('a claim a person countersigns');
    const refusedOne = member.submission('a claim a person refuses');
    for (const body of [s, refusedOne]) {
      expect((await putSubmission(org, memberKey, body)).status).toBe(202);
    }
    const inbox = await rpc(ann.accessToken, 'gv.org_inbox', { limit: 100 });
    expect(inbox.body.result.you).toBe(ann.identity);
    const item = inbox.body.result.items.find((i: any) => i.artifact_id === s.artifactId);
    expect(item).toMatchObject({ member_deployment_id: member.deploymentId, trust_class: 'T-1', held_by: null, standing: { counts: 'alone' } });
    const taken = await rpc(ann.accessToken, 'gv.org_take', { member_deployment_id: member.deploymentId, artifact_id: s.artifactId });
    expect(taken.body.result.item).toMatchObject({ artifact_id: s.artifactId, held_by: ann.identity });
    // Another reviewer may not decide what ann holds.
    const other = await rpc(reviewKey, 'gv.org_review', { member_deployment_id: member.deploymentId, artifact_id: s.artifactId, decision: 'countersign' });
    expect(other.body.error).toMatchObject({ code: -32010, data: { reason: 'held_by_other' } });
    const decided = await rpc(ann.accessToken, 'gv.org_review', { member_deployment_id: member.deploymentId, artifact_id: s.artifactId, decision: 'countersign' });
    expect(decided.body.result).toMatchObject({ state: 'countersigned', changed: true });
    const refused = await rpc(ann.accessToken, 'gv.org_review', { member_deployment_id: member.deploymentId, artifact_id: refusedOne.artifactId, decision: 'refuse', category: 'quality' });
    expect(refused.body.result.state).toBe('refused');

    const page = await request(`${org.url}/outcomes`, { headers: { authorization: `Bearer ${memberKey}` } });
    const lines = ((await page.body.json()) as any).events as Record<string, unknown>[];
    const line = lines.find((l) => l['artifact_id'] === s.artifactId)!;
    expect(verifyOutcomeLine(line, org.deploymentId)).toMatchObject({ type: 'countersign', authority_class: 'human' });
    // The org's log names the person who decided, and the role assignment.
    const logged = (await db.query<{ type: string; body: string }>("SELECT type, body FROM org_log WHERE type IN ('countersign', 'person-assigned') ORDER BY seq")).rows.map((r) => ({
      type: r.type,
      ...(JSON.parse(r.body) as { by: string; data: Record<string, unknown> }),
    }));
    expect(logged.find((e) => e.type === 'person-assigned')).toMatchObject({ data: { iss: ann.iss, sub: ann.sub, role: 'reviewer' } });
    expect(logged.find((e) => e.type === 'countersign' && e.data['artifact_id'] === s.artifactId)).toMatchObject({ by: ann.identity, data: { authority_class: 'human' } });
    expect(JSON.parse(cli('verify', '--json')).ok).toBe(true);

    cli('people', 'remove', '--iss', ann.iss, '--sub', ann.sub);
    expect((await rpc(ann.accessToken, 'gv.describe')).body.result.you.role).toBe('reader');
    expect((await rpc(ann.accessToken, 'gv.org_inbox')).body.error.data).toEqual({ required: 'reviewer', role: 'reader' });
  });

  it("a review key's decision is journaled as signer class agent", async () => {
    const s = member.submission('a claim the review key countersigns');
    expect((await putSubmission(org, memberKey, s)).status).toBe(202);
    expect((await rpc(reviewKey, 'gv.describe')).body.result.you).toMatchObject({ role: 'reviewer', kind: 'program' });
    const decided = await rpc(reviewKey, 'gv.org_review', { member_deployment_id: member.deploymentId, artifact_id: s.artifactId, decision: 'countersign' });
    expect(decided.body.result.state).toBe('countersigned');
    const logged = (await db.query<{ body: string }>("SELECT body FROM org_log WHERE type = 'countersign' ORDER BY seq DESC LIMIT 1")).rows[0]!;
    expect(JSON.parse(logged.body)).toMatchObject({ by: expect.stringMatching(/^key:[0-9a-f]{12}$/), data: { artifact_id: s.artifactId, authority_class: 'agent' } });
  });

  it('refuses params as the gate does: unlisted fields, null and deployment_id by name', async () => {
    const boss1 = boss.accessToken;
    expect((await rpc(boss1, 'gv.org_inbox', { limit: 1, extra: 1 })).body.error).toMatchObject({ code: -32602, message: 'unlisted field: extra' });
    expect((await rpc(boss1, 'gv.org_inbox', { limit: null })).body.error).toMatchObject({ code: -32602, data: { field: 'limit' } });
    const named = await rpc(boss1, 'gv.org_review', { deployment_id: member.deploymentId, artifact_id: `sha256:${'0'.repeat(64)}`, decision: 'countersign' });
    expect(named.body.error).toMatchObject({ code: -32602, data: { field: 'deployment_id' } });
    expect((await rpc(boss1, 'gv.nothing')).body.error.code).toBe(-32601);
    // A notification is handled and answered with no content.
    const note = await post(boss1, JSON.stringify({ jsonrpc: '2.0', method: 'gv.describe' }));
    expect([note.status, note.body]).toEqual([204, null]);
  });
});

describe('credentials refused, as the gate refuses them (401 {error, kind}; 403 at a door a caller may not open)', () => {
  it('no header, a malformed bearer, an untrusted issuer, a forged signature', async () => {
    const none = await rpc(null, 'gv.describe');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: expect.stringMatching(/^missing: /), kind: 'missing' });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const malformed = await rpc('not-a-token', 'gv.describe');
    expect([malformed.status, malformed.body.kind]).toEqual([401, 'malformed']);
    expect(malformed.headers['www-authenticate']).toBe('Bearer error="invalid_token"');

    const outsider = await signInWithOpenidClient(stranger);
    const untrusted = await rpc(outsider.accessToken, 'gv.describe');
    expect([untrusted.status, untrusted.body.kind]).toEqual([401, 'issuer']);

    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = await new SignJWT({ sub: ann.sub })
      .setProtectedHeader({ alg: 'EdDSA', kid: issuer.deploymentId, typ: 'at+jwt' })
      .setIssuer(issuer.url)
      .setAudience('gate-console')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await rpc(forged, 'gv.describe')).body.kind).toBe('signature');
    expect((await rpc(`gk_${'x'.repeat(43)}`, 'gv.describe')).body.kind).toBe('signature');
  });

  it("a person's token opens neither /submissions nor /outcomes (a member gate's submit key does)", async () => {
    expect(await put(boss.accessToken)).toBe(403);
    const res = await request(`${org.url}/outcomes`, { headers: { authorization: `Bearer ${boss.accessToken}` } });
    expect(res.statusCode).toBe(403);
    await res.body.dump();
  });

  it('an org home that names itself an issuer is refused: the organization signs nobody in', () => {
    expect(() => orgCli(['people', 'list', '--home', home, '--database-url', cluster.url], { GATE_AUTH_ISSUER: 'http://127.0.0.1:9' })).toThrow(/not a sign-in provider/);
  });
});
