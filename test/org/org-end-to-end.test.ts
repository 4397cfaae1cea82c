import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { spawnSync } from 'node:child_process';
import { CLI, GateProcess, uniqueText } from '../harness/gate-process.js';
import { OrgProcess, PostgresCluster, orgCli } from '../harness/org-process.js';
import { DeploymentKey } from '../../src/journal/deployment-key.js';
import { yazlZip } from '../../fixtures/make-fixtures.js';

// Two real processes (a member gate on SQLite, an org gate on PostgreSQL) over real HTTP.
const dir = mkdtempSync(join(tmpdir(), 'org-e2e-'));
chmodSync(dir, 0o755);
let cluster: PostgresCluster;
let org: OrgProcess;
let gate: GateProcess;
let agent: { key: string };
let other: { key: string };
let reviewer: { key: string };
let orgReviewer: string;
const orgHome = join(dir, 'org');

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  org = await OrgProcess.start(orgHome, { databaseUrl: cluster.url });
  // The member's key exists before its first start, so the org can issue its submit key first.
  const gateHome = join(dir, 'gate');
  mkdirSync(gateHome, { mode: 0o700 });
  const memberId = DeploymentKey.openOrCreate(join(gateHome, 'deployment.key')).deploymentId;
  const cli = (...args: string[]) => JSON.parse(orgCli([...args, '--json', '--home', orgHome, '--database-url', cluster.url]));
  const submitKey = cli('member', 'add', `--deployment-id=${memberId}`, '--label', 'team gate').key;
  orgReviewer = cli('key', 'issue', '--scope', 'review', '--label', 'org reviewer').key;
  gate = await GateProcess.start({
    home: gateHome,
    env: {
      GATE_ORG_URL: org.url,
      GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true',
      GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY',
      TEST_ORG_KEY: submitKey,
      GATE_ORG_POLL_EVERY_MS: '0',
    },
  });
  [agent, other, reviewer] = [await gate.key('agent'), await gate.key('agent'), await gate.key('reviewer')];
}, 120_000);
afterAll(async () => {
  await gate?.stop();
  await org?.stop();
  cluster?.stop();
});

async function orgRpc(method: string, params: unknown) {
  const res = await request(`${org.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${orgReviewer}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.body.json()) as any;
  if (body.error) throw new Error(JSON.stringify(body.error));
  return body.result;
}

const ok = (answer: any) => {
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
};

async function promote(id: string) {
  await gate.readBody(reviewer.key, id);
  return ok(await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).state as string;
}

describe('a member gate and an organization gate', () => {
  it('a T-5 bundle and a T-1 claim end ACTIVE and countersigned; a refused claim is demoted; nothing journals twice', async () => {
    // A bundle: its archive and members wait ratified for the org's countersign.
    const zip = await yazlZip([['tool/SKILL.md', Buffer.from(`# ${uniqueText('tool')}\n`)], ['tool/docs/use.md', Buffer.from(uniqueText('usage'))]]);
    const bundle = ok(await gate.rpc(agent.key, 'gv.ingest_bundle', { content: zip.toString('base64'), workarea: 'org/e2e', source_uri: 'test://bundle' }));
    const t5 = [bundle.archive_artifact_id as string, ...bundle.members.map((m: any) => m.artifact_id as string)];
    for (const id of t5) expect(await promote(id)).toBe('L3_RATIFIED');
    const member = bundle.members[0].artifact_id as string;
    expect((await gate.rpc(other.key, 'gv.node', { artifact_id: member })).error).toBeDefined();

    // Two T-1 claims: promoted here, provisional until the org answers.
    const ingest = async (label: string) => ok(await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(label), kind: 'memory', source_uri: 'test://org', workarea: 'org/e2e' })).artifact_id as string;
    const kept = await ingest('kept claim');
    const refusedId = await ingest('refused claim');
    expect(await promote(kept)).toBe('ACTIVE');
    expect(await promote(refusedId)).toBe('ACTIVE');
    expect(ok(await gate.rpc(reviewer.key, 'gv.countersign_status', { artifact_id: kept }))).toMatchObject({ provisional: true, countersigned: false, awaiting: true });

    for (const id of [...t5, kept, refusedId]) expect(ok(await gate.rpc(reviewer.key, 'gv.submit', { artifact_id: id })).state).toBe('queued');
    const drained = ok(await gate.socket('gv.submit_drain', { limit: 100 }));
    expect(drained).toMatchObject({ sent: t5.length + 2, accepted: t5.length + 2, refused: 0, queued: 0 });

    // The org's reviewer reads the inbox and decides.
    const { items } = await orgRpc('gv.org_inbox', { limit: 100 });
    expect(items.map((i: any) => i.artifact_id).sort()).toEqual([...t5, kept, refusedId].sort());
    for (const item of items) {
      const refuse = item.artifact_id === refusedId;
      await orgRpc('gv.org_review', {
        member_deployment_id: item.member_deployment_id,
        artifact_id: item.artifact_id,
        decision: refuse ? 'refuse' : 'countersign',
        ...(refuse ? { category: 'quality', reason: 'not precise enough' } : {}),
      });
    }

    // The member pulls, verifies and journals; a second pull (and one after a restart) adds nothing.
    const pulled = ok(await gate.socket('gv.outcomes_pull', {}));
    expect(pulled).toMatchObject({ pulled: t5.length + 2, countersigned: t5.length + 1, refused: 1, duplicates: 0, org_deployment_id: org.deploymentId });
    expect(ok(await gate.socket('gv.outcomes_pull', {}))).toMatchObject({ pulled: 0 });
    await gate.stop();
    await gate.restart();
    expect(ok(await gate.socket('gv.outcomes_pull', {}))).toMatchObject({ pulled: 0 });

    for (const id of [...t5, kept]) {
      expect(ok(await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).state).toBe('ACTIVE');
      expect(ok(await gate.rpc(reviewer.key, 'gv.countersign_status', { artifact_id: id }))).toMatchObject({ provisional: false, countersigned: true, awaiting: false });
      const approval = ok(await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id }));
      expect(approval).toMatchObject({ status: 'countersigned', provisional: false, approved_by: { authority: 1 } });
      expect(approval.signers.find((s: any) => s.class === 'authority')).toMatchObject({ decision: 'countersign' });
    }
    expect(ok(await gate.rpc(reviewer.key, 'gv.status', { artifact_id: refusedId })).state).toBe('DEMOTED');
    expect(ok(await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: refusedId })).status).toBe('refused');
    // The bundle's members are served to other readers now.
    expect(ok(await gate.rpc(other.key, 'gv.node', { artifact_id: member })).status).toMatchObject({ state: 'ACTIVE', provisional: false });
    const why = ok(await gate.rpc(reviewer.key, 'gv.why', { artifact_id: kept }));
    expect(why.events.filter((e: any) => e.type === 'countersign')).toHaveLength(1);
    expect(ok(await gate.rpc(reviewer.key, 'gv.countersign_status', {}))).toMatchObject({ ratified_awaiting: 0, authority: { configured: true, org_deployment_id: org.deploymentId } });
    // The journal with the org's countersigns in it still verifies end to end.
    const verify = spawnSync(process.execPath, [CLI, 'verify', '--home', join(dir, 'gate'), '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stderr + verify.stdout).toBe(0);
  });
});
