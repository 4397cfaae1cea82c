import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { uniqueText } from '../harness/gate-process.js';
import { OrgProcess, PostgresCluster, orgCli } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { freePort } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';
import { canonicalJson, sha256Hex } from '../../src/forms/canonical-json.js';
import { RETRACTION_SIGNING_PREFIX } from '../../src/forms/retraction-contract.js';

/**
 * Erasure reaches the organization (docs/organization.md "Erasure at a member"), every actor
 * real: a member gate whose rows carry a password, promoted, submitted and drained to an org
 * gate on PostgreSQL; then erased at the member. The member sends its signed retraction at
 * once (or, the organization being down, at its next drain), and the organization's copy
 * loses its bytes: no answer and no stored body holds them, an undecided submission leaves the
 * inbox, a decided one keeps its decision and outcome, and both logs verify.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-erasure-'));
chmodSync(dir, 0o755);
const orgHome = join(dir, 'org');
const gateHome = join(dir, 'gate');
const orgPort = await freePort();
const orgUrl = `http://127.0.0.1:${orgPort}`;
let cluster: PostgresCluster;
let org: OrgProcess;
let db: pg.Pool;
let submitKey: string;
let adminKey: string;
let memberId: string;
const orgArgs = () => ['--home', orgHome, '--database-url', cluster.url];

beforeAll(() => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  mkdirSync(gateHome, { mode: 0o700 });
  memberId = DeploymentKey.openOrCreate(join(gateHome, 'deployment.key')).deploymentId;
  submitKey = JSON.parse(orgCli(['member', 'add', `--deployment-id=${memberId}`, '--label', 'team gate', '--json', ...orgArgs()])).key;
  adminKey = JSON.parse(orgCli(['key', 'issue', '--scope', 'admin', '--label', 'org admin', '--json', ...orgArgs()])).key;
}, 120_000);
const { gate, keys: { agent, reviewer } } = useGate({
  kind: 'in-process',
  home: gateHome,
  keys: { agent: 'agent', reviewer: 'reviewer' },
  env: () => ({
    GATE_ORG_URL: orgUrl,
    GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true',
    GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY',
    TEST_ORG_KEY: submitKey,
    GATE_ORG_POLL_EVERY_MS: '0',
    GATE_ORG_TIMEOUT_MS: '3000',
    // A retraction the organization could not take is due again at once, so the test's next drain sends it.
    GATE_ORG_RETRY_AFTER_MS: '0',
  }),
});
beforeAll(async () => {
  org = await OrgProcess.start(orgHome, { databaseUrl: cluster.url, port: orgPort });
  db = new pg.Pool({ connectionString: cluster.url, max: 1 });
}, 120_000);
afterAll(async () => {
  await db?.end();
  await org?.stop();
  cluster?.stop();
});

const ok = (answer: any) => {
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
};

/** A claim holding a password, promoted at the member, submitted and drained: the organization holds its bytes. */
async function submitted(password: string): Promise<{ id: string; text: string; password: string }> {
  const text = uniqueText(`The staging database password is ${password}.`);
  const id = ok(await gate.rpc(agent.key, 'gv.ingest', { content: text, kind: 'memory', source_uri: 'test://erasure', workarea: 'org/erasure' })).artifact_id as string;
  await gate.readBody(reviewer.key, id);
  expect(ok(await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).state).toBe('ACTIVE');
  expect(ok(await gate.rpc(reviewer.key, 'gv.submit', { artifact_id: id })).state).toBe('queued');
  expect(ok(await gate.socket('gv.submit_drain', {}))).toMatchObject({ accepted: 1 });
  return { id, text, password };
}

async function orgRpc(method: string, params: Record<string, unknown>) {
  const res = await request(`${org.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ok(await res.body.json());
}
const read = (id: string) => orgRpc('gv.org_submission', { member_deployment_id: memberId, artifact_id: id, raw: true });
/** Where the organization's tables hold the row's bytes: the password as written, or the whole content in the base64 a submission carries. */
async function heldAnywhere(row: { text: string; password: string }): Promise<string[]> {
  const found: string[] = [];
  for (const needle of [row.password, Buffer.from(row.text).toString('base64')]) {
    for (const [table, column] of [['submissions', 'body'], ['submissions', 'retraction'], ['org_log', 'body'], ['outcomes', 'line']] as const) {
      const n = (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE strpos(coalesce(${column}, ''), $1) > 0`, [needle])).rows[0].n;
      if (n > 0) found.push(`${table}.${column}`);
    }
  }
  return found;
}

describe('an erasure at the member erases the organization\'s copy', () => {
  it('an undecided submission: the retraction goes with the erasure, its bytes leave every answer and the table, and it leaves the inbox', async () => {
    const row = await submitted('correct-horse-battery-staple');
    const { id } = row;
    expect((await read(id)).content).toBe('included');
    // The password travels in the base64 of the content: the body holds that form of it.
    expect(await heldAnywhere(row)).toEqual(['submissions.body']);

    const erased = ok(await gate.socket('gv.erase', { artifact_id: id, reason: 'a password was pasted' }));
    expect(erased).toMatchObject({ changed: true, bytes_removed: true, organization: { state: 'retracted' } });

    const after = await read(id);
    expect(after).toMatchObject({ state: 'retracted', content: 'erased', copy: null, held_by: null, submission: { content: { bytes: null } } });
    expect(after.erased.retraction).toMatchObject({ contract: 'retraction/1', artifact_id: id, deployment_id: memberId, content_hash: after.submission.envelope.content_hash });
    // The member's signature over the retraction holds against its deployment id.
    const { verifyWithDeploymentId } = await import('../../src/forms/ed25519.js');
    const canonical = canonicalJson(after.erased.retraction);
    expect(after.erased.id).toBe(`sha256:${sha256Hex(canonical)}`);
    expect(verifyWithDeploymentId(memberId, RETRACTION_SIGNING_PREFIX + canonical, after.erased.sig)).toBe(true);
    expect(JSON.stringify(after)).not.toContain('correct-horse-battery-staple');
    expect(await heldAnywhere(row)).toEqual([]);
    expect((await orgRpc('gv.org_inbox', { limit: 100 })).items.map((i: any) => i.artifact_id)).not.toContain(id);
    // The org's log comes on its stderr, a pipe of its own, read whenever it arrives.
    await expect.poll(() => org.stderr.join(''), { timeout: 30_000, interval: 20 }).toContain('"msg":"submission erased at its member"');
    // Nothing is left to decide.
    const decided = await request(`${org.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.org_review', params: { member_deployment_id: memberId, artifact_id: id, decision: 'countersign' } }) });
    expect(((await decided.body.json()) as any).error).toMatchObject({ code: -32010, data: { reason: 'retracted' } });
  });

  it('a decided submission keeps its decision and its outcome line; only the bytes go, and the org log still verifies', async () => {
    const row = await submitted('tr0ub4dor-and-3');
    const { id } = row;
    expect((await orgRpc('gv.org_review', { member_deployment_id: memberId, artifact_id: id, decision: 'countersign' })).state).toBe('countersigned');
    expect(ok(await gate.socket('gv.erase', { artifact_id: id, reason: 'a password was pasted' })).organization).toEqual({ state: 'retracted' });
    const after = await read(id);
    expect(after).toMatchObject({ state: 'countersigned', content: 'erased', copy: null, decision: { type: 'countersign' } });
    expect(await heldAnywhere(row)).toEqual([]);
    expect((await db.query('SELECT count(*)::int AS n FROM outcomes WHERE artifact_id = $1', [id])).rows[0].n).toBe(1);
    expect(JSON.parse(orgCli(['verify', '--json', ...orgArgs()]))).toMatchObject({ ok: true });
  });

  it('the organization down at the erasure: the retraction waits, journaled, and the next drain sends it', async () => {
    const row = await submitted('swordfish-at-the-door');
    const { id } = row;
    await org.stop();
    const erased = ok(await gate.socket('gv.erase', { artifact_id: id, reason: 'a password was pasted' }));
    expect(erased.organization).toEqual({ state: 'retract' });
    const waiting = (await gate.socket('gv.submit', { artifact_id: id })).error;
    expect(waiting).toMatchObject({ data: { reason: 'erased' } });
    org = await OrgProcess.start(orgHome, { databaseUrl: cluster.url, port: orgPort });
    expect(await heldAnywhere(row)).toEqual(['submissions.body']);
    expect(ok(await gate.socket('gv.submit_drain', {}))).toMatchObject({ sent: 1, accepted: 1, retracted: 1, retracting: 0 });
    expect(await heldAnywhere(row)).toEqual([]);
    expect(ok(await gate.socket('gv.submit_drain', {}))).toMatchObject({ sent: 0, retracting: 0 });
    // The submissions view folds the same from the journal replayed: the erasure, then the retraction's outcome.
    expect((await gate.socket('gv.rebuild', {})).result).toMatchObject({ equal: true });
  });

  it('the door takes only the member\'s own signed retraction of its own row', async () => {
    const { id } = await submitted('hunter2-hunter2');
    const stranger = new SimulatedMember();
    const retraction = { contract: 'retraction/1', artifact_id: id, deployment_id: memberId, content_hash: (await read(id)).submission.envelope.content_hash, erasure_event_id: 'e'.repeat(64), erased_ts: Date.now() };
    const canonical = canonicalJson(retraction);
    const put = async (body: unknown) => {
      const res = await request(`${org.url}/retractions/${encodeURIComponent(id)}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${submitKey}` }, body: JSON.stringify(body) });
      return { status: res.statusCode, body: (await res.body.json()) as any };
    };
    const forged = await put({ retraction, id: `sha256:${sha256Hex(canonical)}`, sig: stranger.sign(RETRACTION_SIGNING_PREFIX + canonical) });
    expect(forged).toEqual({ status: 422, body: { error: "the signature does not verify against the submitting deployment's key" } });
    expect((await put({ retraction, id: 'sha256:00', sig: 'x' })).status).toBe(400);
    expect((await put({ nothing: true })).status).toBe(400);
    expect((await read(id)).content).toBe('included');
  });
});
