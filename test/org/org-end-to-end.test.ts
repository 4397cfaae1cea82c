import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { spawnSync } from 'node:child_process';
import { CLI, uniqueText } from '../harness/gate-process.js';
import { FakeModelServer, modelEnv } from '../harness/fake-model-server.js';
import { OrgProcess, PostgresCluster, orgCli } from '../harness/org-process.js';
import { signInWithOpenidClient, type IssuedPerson } from '../harness/openid-sign-in.js';
import { signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';
import { yazlZip } from '../../fixtures/make-fixtures.js';

/**
 * The loop closed, every actor real: a member gate (SQLite) whose rows are graded by a model
 * server on loopback and signed by a signed-in person, an organization gate (PostgreSQL) whose
 * reviewers are people signed in at the issuer the org trusts (a third process, standing for
 * the company's sign-in; since nothing tells them apart from the member's signer, each
 * decision there is two people's), real HTTP between them. The member's main space is model-reviewed
 * under the standard quorum: a model verdict counts toward k, a person settles, and a T-5
 * row needs a person's signature among its two and then the org's countersign.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-e2e-'));
chmodSync(dir, 0o755);
const orgHome = join(dir, 'org');
const gateHome = join(dir, 'gate');
let cluster: PostgresCluster;
let models: FakeModelServer;
let org: OrgProcess;
let submitKey: string;
let signer: SignedInPerson;
let orgReviewer: IssuedPerson;
let secondReviewer: IssuedPerson;

const { gate: company } = useGate({ kind: 'in-process' });
beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  models = await new FakeModelServer().start();
  const trust = { GATE_AUTH_TRUSTED_ISSUERS: JSON.stringify([company.url]) };
  org = await OrgProcess.start(orgHome, { databaseUrl: cluster.url, env: trust });
  const cli = (...args: string[]) => JSON.parse(orgCli([...args, '--json', '--home', orgHome, '--database-url', cluster.url], trust));
  // The member's key exists before its first start, so the org can issue its submit key first.
  mkdirSync(gateHome, { mode: 0o700 });
  const memberId = DeploymentKey.openOrCreate(join(gateHome, 'deployment.key')).deploymentId;
  submitKey = cli('member', 'add', `--deployment-id=${memberId}`, '--label', 'team gate').key;
  orgReviewer = await signInWithOpenidClient(company);
  secondReviewer = await signInWithOpenidClient(company);
  for (const person of [orgReviewer, secondReviewer]) {
    expect(cli('people', 'assign', '--iss', person.iss, '--sub', person.sub, '--role', 'reviewer')).toMatchObject({ role: 'reviewer', changed: true });
  }
}, 180_000);
afterAll(async () => {
  await org?.stop();
  await models?.stop();
  cluster?.stop();
});
const { gate, keys: { agent, reader, grader }, ingestId } = useGate({
  kind: 'in-process',
  home: gateHome,
  env: () =>
    modelEnv(models, {
      backend: { circuit_failures: 1000 },
      env: {
        GATE_SPACES_MAIN_POLICY: 'model',
        GATE_REVIEW_QUORUM_PROFILE: 'standard',
        GATE_REVIEW_GRADE_EVERY: 'off',
        GATE_ORG_URL: org.url,
        GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true',
        GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY',
        TEST_ORG_KEY: submitKey,
        GATE_ORG_POLL_EVERY_MS: '0',
      },
    }),
  keys: { agent: 'agent', reader: 'reader', grader: 'reviewer' },
});
beforeAll(async () => {
  signer = await signIn(gate, { role: 'reviewer' });
});

const ok = (answer: any) => {
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
};

async function orgRpc(method: string, params: unknown, as: IssuedPerson = orgReviewer) {
  const res = await request(`${org.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${as.accessToken}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ok(await res.body.json());
}

/** Graded by the model server (one call per stance), then signed by the person, who promotes once quorum is met. */
async function gradeAndSign(id: string): Promise<string> {
  const graded = ok(await gate.rpc(grader.key, 'gv.grade', { artifact_id: id }));
  expect(graded.stances.map((s: any) => [s.stance, s.decision, s.model_label])).toEqual([
    ['positive', 'approve', 'openai:fake-model'],
    ['critical', 'approve', 'openai:fake-model'],
  ]);
  await gate.readBody(signer.accessToken, id);
  const signed = ok(await gate.rpc(signer.accessToken, 'gv.sign', { artifact_id: id, decision: 'approve', promote: true }));
  expect(signed).toMatchObject({ class: 'human', counts: true });
  return signed.state as string;
}

describe('a member gate and an organization gate, with a model grading and people signing on both sides', () => {
  it("a graded, person-signed T-5 bundle and T-1 claim end ACTIVE once an org person countersigns; a refused claim is demoted; nothing journals twice", async () => {
    // A bundle: its archive and members are T-5, ratified here and waiting for the org.
    const zip = await yazlZip([['tool/SKILL.md', Buffer.from(`# ${uniqueText('tool')}\n`)], ['tool/docs/use.md', Buffer.from(uniqueText('usage'))]]);
    const bundle = ok(await gate.rpc(agent.key, 'gv.ingest_bundle', { content: zip.toString('base64'), workarea: 'org/e2e', source_uri: 'test://bundle' }));
    const t5 = [bundle.archive_artifact_id as string, ...bundle.members.map((m: any) => m.artifact_id as string)];
    for (const id of t5) expect(await gradeAndSign(id)).toBe('L3_RATIFIED');
    const member = bundle.members[0].artifact_id as string;
    expect((await gate.rpc(reader.key, 'gv.node', { artifact_id: member })).error?.message).toMatch(/unknown artifact/);
    const ratified = ok(await gate.rpc(grader.key, 'gv.approval', { artifact_id: member }));
    expect(ratified).toMatchObject({ approved_by: { model: 1, human: 1, authority: 0 }, waits_for: { blocker: 'quorum', code: 'countersign' } });

    // Two T-1 claims: the person's promotion is provisional until the org answers.
    const ingest = (label: string) => ingestId(agent, { content: uniqueText(label), source_uri: 'test://org', workarea: 'org/e2e' });
    const kept = await ingest('kept claim');
    const refusedId = await ingest('refused claim');
    for (const id of [kept, refusedId]) expect(await gradeAndSign(id)).toBe('ACTIVE');
    expect(ok(await gate.rpc(grader.key, 'gv.countersign_status', { artifact_id: kept }))).toMatchObject({ provisional: true, countersigned: false, awaiting: true });

    // The person submits (a reviewer's verb); the operator's drain sends them to the org.
    for (const id of [...t5, kept, refusedId]) expect(ok(await gate.rpc(signer.accessToken, 'gv.submit', { artifact_id: id })).state).toBe('queued');
    expect(ok(await gate.socket('gv.submit_drain', { limit: 100 }))).toMatchObject({ sent: t5.length + 2, accepted: t5.length + 2, refused: 0, queued: 0 });

    // The org's person reads the inbox: the content, the model's verdicts and the person's signature travelled.
    const { items, you } = await orgRpc('gv.org_inbox', { limit: 100 });
    expect(you).toBe(orgReviewer.identity);
    expect(items.map((i: any) => i.artifact_id).sort()).toEqual([...t5, kept, refusedId].sort());
    const keptItem = items.find((i: any) => i.artifact_id === kept);
    expect(keptItem.submission.approval.approved_by).toMatchObject({ model: 1, human: 1 });
    expect(keptItem.submission.decisions.map((d: any) => d.type)).toEqual(expect.arrayContaining(['verdict', 'manual-sign']));
    // The org's people sign in at the company's issuer, the member's at the member: no email both assert tells them
    // apart from the member's signer, so each decision is two people's (docs/organization.md "Who counts at the organization").
    expect(items.every((i: any) => i.standing.counts === 'with_others' && i.standing.people_needed === 2)).toBe(true);
    for (const item of items) {
      const refuse = item.artifact_id === refusedId;
      const params = {
        member_deployment_id: item.member_deployment_id,
        artifact_id: item.artifact_id,
        decision: refuse ? 'refuse' : 'countersign',
        ...(refuse ? { category: 'quality', reason: 'not precise enough' } : {}),
      };
      expect(await orgRpc('gv.org_review', params)).toMatchObject({ state: 'leased', changed: true, waits_for: 1 });
      expect(await orgRpc('gv.org_review', params, secondReviewer)).toMatchObject({ state: refuse ? 'refused' : 'countersigned', changed: true, with: [{ by: orgReviewer.identity }] });
    }

    // The member pulls, verifies and journals; a second pull (and one after a restart) adds nothing.
    expect(ok(await gate.socket('gv.outcomes_pull', {}))).toMatchObject({ pulled: t5.length + 2, countersigned: t5.length + 1, refused: 1, duplicates: 0, org_deployment_id: org.deploymentId });
    expect(ok(await gate.socket('gv.outcomes_pull', {}))).toMatchObject({ pulled: 0 });
    await gate.stop();
    await gate.restart();
    expect(ok(await gate.socket('gv.outcomes_pull', {}))).toMatchObject({ pulled: 0 });

    for (const id of [...t5, kept]) {
      expect(ok(await gate.rpc(grader.key, 'gv.status', { artifact_id: id })).state).toBe('ACTIVE');
      expect(ok(await gate.rpc(grader.key, 'gv.countersign_status', { artifact_id: id }))).toMatchObject({ provisional: false, countersigned: true, awaiting: false });
      const approval = ok(await gate.rpc(grader.key, 'gv.approval', { artifact_id: id }));
      expect(approval).toMatchObject({ status: 'countersigned', provisional: false, approved_by: { model: 1, human: 1, authority: 1 } });
      expect(approval.signers.find((s: any) => s.class === 'authority')).toMatchObject({ decision: 'countersign' });
    }
    expect(ok(await gate.rpc(grader.key, 'gv.status', { artifact_id: refusedId })).state).toBe('DEMOTED');
    expect(ok(await gate.rpc(grader.key, 'gv.approval', { artifact_id: refusedId })).status).toBe('refused');
    expect((await gate.rpc(reader.key, 'gv.node', { artifact_id: refusedId })).error?.message).toMatch(/unknown artifact/);
    // The bundle is served to other readers now, its members' words included.
    for (const id of t5) {
      const node = ok(await gate.rpc(reader.key, 'gv.node', { artifact_id: id, body: true }));
      expect(node.status).toMatchObject({ state: 'ACTIVE', provisional: false });
      expect(node.content_hash).toMatch(/^sha256:/);
    }
    expect(ok(await gate.rpc(reader.key, 'gv.node', { artifact_id: member, body: true })).body).toMatch(/^# tool /);
    const why = ok(await gate.rpc(grader.key, 'gv.why', { artifact_id: kept }));
    expect(why.events.filter((e: any) => e.type === 'countersign')).toHaveLength(1);
    // The org's log names the two people who decided each, as signer class human; its refusal reason never reached the member.
    const db = new pg.Pool({ connectionString: cluster.url, max: 1 });
    const decisions = (await db.query<{ body: string }>("SELECT body FROM org_log WHERE type IN ('countersign', 'refuse')")).rows.map((r) => JSON.parse(r.body));
    await db.end();
    expect(decisions).toHaveLength(t5.length + 2);
    expect(decisions.every((d) => d.by === secondReviewer.identity && d.data.with[0].by === orgReviewer.identity && d.data.authority_class === 'human')).toBe(true);
    expect(JSON.stringify(ok(await gate.rpc(grader.key, 'gv.why', { artifact_id: refusedId })))).not.toContain('not precise enough');
    expect(ok(await gate.rpc(grader.key, 'gv.countersign_status', {}))).toMatchObject({ ratified_awaiting: 0, authority: { configured: true, org_deployment_id: org.deploymentId } });
    // The journal with the org's countersigns in it still verifies end to end, and so does the org's log.
    const verify = spawnSync(process.execPath, [CLI, 'verify', '--home', gateHome, '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stderr + verify.stdout).toBe(0);
    expect(JSON.parse(orgCli(['verify', '--json', '--home', orgHome, '--database-url', cluster.url]))).toMatchObject({ ok: true });
  });
});
